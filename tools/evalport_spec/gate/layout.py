"""One spec root per repository: no folder below the root may itself look like a spec repository.

Every command finds the repository it works on as the nearest of the working directory and its
parents that holds a ``spec/schemas`` folder (:func:`evalport_spec.repoloc.find_repo_root`). A
tree that commits a second one below its root (``spec/spec/schemas/``, ``docs/spec/schemas/``,
or a link ``spec/spec`` to a copy elsewhere) gives ``evalport-spec validate``, ``conformance``
and ``check`` run from inside that folder another spec: red team (session 29): a branch adding
``spec/spec/`` (a copy of the draft with Grader ``weight`` ``minimum`` raised to 1) passed the
gate of record with no finding at all, and ``cd spec && evalport-spec validate g.json`` then
rejected a Grader of weight 0 that the draft accepts, reporting it as "spec draft (1.4.0)".

:func:`nested_spec_roots` lists them from git's view of the checkout (files tracked, or new and
not ignored, so a virtual environment or a nox session holding a bundled copy of the spec is not
one), following links as the commands do.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from .. import git
from ..findings import Finding, Location

KIND = "spec-root-nested"
"""The finding kind."""


def folders_of(paths: Iterable[str]) -> set[str]:
    """Every folder (``/``-separated, relative to the root, the root itself left out) that holds
    one of ``paths``, directly or below."""
    out: set[str] = set()
    for path in paths:
        parts = path.split("/")[:-1]
        out.update("/".join(parts[:i]) for i in range(1, len(parts) + 1))
    return out


def nested_spec_roots(root: Path, paths: Iterable[str]) -> list[str]:
    """The folders of ``paths`` (:func:`folders_of`) below ``root`` that hold a ``spec/schemas``
    folder (links followed), sorted: each would be taken for the spec repository by a command
    run inside it."""
    return sorted(d for d in folders_of(paths) if (root / d / "spec" / "schemas").is_dir())


def checkout_paths(root: Path) -> list[str]:
    """The files of the checkout at ``root`` as git sees them: tracked, or new and not ignored.

    Raises:
        InputError: git failed.
    """
    out = git.run(root, "ls-files", "-z", "--cached", "--others", "--exclude-standard").stdout
    return [p for p in out.decode("utf-8", "surrogateescape").split("\0") if p]


def layout_findings(root: Path) -> list[Finding]:
    """One :data:`KIND` error per nested spec root of the checkout at ``root`` (a git work tree)."""
    return [Finding(KIND, f"{d}/spec/schemas: a command run inside {d}/ (validate, conformance, check) "
                    f"would take {d}/ for the spec repository, since the nearest folder holding "
                    "spec/schemas is the repository; a repository has one spec/ folder, at its root",
                    new=Location(f"{d}/spec/schemas"))
            for d in nested_spec_roots(root, checkout_paths(root))]
