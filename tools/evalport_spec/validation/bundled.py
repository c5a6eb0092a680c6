"""Where ``validate`` takes its spec versions from: a spec repository, else the copy shipped in
the package (as check-jsonschema vendors the schemas it knows).

Resolution order (:func:`find_spec`):

1. ``-C/--repo DIR``: the spec repository containing ``DIR`` (an error when there is none);
2. the spec repository containing the working directory;
3. the bundled copy: ``evalport_spec/_bundled/spec/`` inside an installed wheel, written at
   build time by ``setup.py``'s ``build_py`` hook (``VERSION``, the draft's ``rules.json``,
   ``schemas/*.json`` and ``conformance/``, and the same for every ``releases/<X.Y.Z>/``); in an
   editable install,
   the repository the package lives in (``<package>/../../spec``).
"""

from __future__ import annotations

from pathlib import Path

from ..errors import InputError
from ..spec import SpecRepo

PACKAGE_DIR = Path(__file__).resolve().parents[1]
"""The installed ``evalport_spec`` package folder."""

BUNDLED_ROOT = PACKAGE_DIR / "_bundled"
"""Root of the bundled copy (it holds ``spec/``, laid out as in a repository)."""


def _is_spec_root(root: Path) -> bool:
    return (root / "spec" / "schemas").is_dir()


def bundled_repo() -> SpecRepo | None:
    """The spec shipped with the package: the wheel's bundled copy, else (editable install) the
    repository the package source lives in; ``None`` when neither exists."""
    for root in (BUNDLED_ROOT, PACKAGE_DIR.parents[1]):
        if _is_spec_root(root):
            return SpecRepo(root)
    return None


def find_spec(explicit: str | Path | None = None, cwd: str | Path | None = None) -> SpecRepo:
    """The spec repository to validate with, in the module docstring's order.

    Args:
        explicit: ``-C/--repo``; when given, only that repository is looked for.
        cwd: where to start looking (default: the working directory).

    Raises:
        InputError: ``explicit`` is not inside a spec repository; or there is no repository
            around ``cwd`` and no bundled copy.
    """
    if explicit is not None:
        return SpecRepo.discover(Path(explicit))
    try:
        return SpecRepo.discover(Path(cwd) if cwd is not None else None)
    except InputError:
        bundled = bundled_repo()
        if bundled is None:
            raise
        return bundled
