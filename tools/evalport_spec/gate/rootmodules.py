"""Python modules at the repository root count as every rule's code.

``python -m evalport_spec validate`` (and ``python -m pytest``, ``python -m pip``) started at
the root of a checkout puts that folder first on ``sys.path``, before the standard library and
the installed packages, so a module or package there runs in place of any library of its name.
Red team (session 34): a branch adding a root ``orjson.py`` that rewrote every document's
``version`` while reading it passed ``check --base`` as PATCH with only a ``toolchain-changed``
warning, and ``validate`` run from the checkout then imported it.

Which modules count: every file :func:`~evalport_spec.gitsource.importable_from_root` (a name
ending in ``.py``, ``.pyc``, ``.so``, ``.pth``... at the root or in a root folder other than
``spec/``, ``rfcs/``, ``tests/``, ``benchmarks/``, ``docs/``, ``tools/`` and dot-folders) except
:data:`KNOWN`, the repository's own scripts. Not only the names the package or its dependencies
import today: that set cannot be read off the code (the standard library counts, a dependency
imports optional modules by name, a new release imports more), and a module at the root that
matches none of them today can match one tomorrow without any change to this repository. A
module at the root has no other use in this repository, so counting all of them costs a
reviewer's ``gate-ignore.yml`` entry on the rare legitimate one and misses nothing.

Each counted file is digested (a ``.py`` file as its syntax tree without docstrings, as
:func:`.rulecode.normalised_digest`; any other as its bytes) into an entry of
:attr:`.rulecode.RuleCode.modules` that no rule owns, named ``PATH (at the repository root)``:
adding, changing or removing one is every rule's ``rule-implementation-changed`` finding.
The working tree's files are those git lists as tracked or new and not ignored (what a commit
of the branch would hold; an ignored ``build/`` left by a local build does not land), read from
disk; a commit's are read from git (:mod:`evalport_spec.gitsource`, which refuses a link there).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable

from ..gitsource import importable_from_root
from .rulecode import normalised_digest

KNOWN = ("noxfile.py", "bootstrap.py", "setup.py")
"""Python files at the root that are the repository's own scripts, run by name and never
imported by the package or its dependencies (tests/test_gate_rootmodules.py checks that no
module of those names is loaded by ``validate``): ``noxfile.py`` (nox sessions) and
``bootstrap.py`` (a fresh checkout's first install) are listed by ``toolchain-changed``, and
``setup.py`` is digested as packaging (:mod:`.packaging`)."""

SUFFIX = " (at the repository root)"
"""Appended to a counted file's path in :attr:`.rulecode.RuleCode.modules` (``tools/orjson.py``
is named ``orjson.py`` there, relative to ``tools/``)."""


def counted(path: str) -> bool:
    """Whether repository path ``path`` (POSIX, relative) is a root module that counts (module
    docstring)."""
    return importable_from_root(path) and path not in KNOWN


def root_module_digests(paths: Iterable[str], read: Callable[[str], bytes | None]) -> dict[str, str]:
    """``{"PATH (at the repository root)": digest}`` for each of ``paths`` (a tree's files,
    repository paths) that :func:`counted`; ``read(path)`` gives its bytes, ``None`` when it is
    gone (a tracked file deleted from the working tree: no entry).

    Raises:
        whatever ``read`` raises (an unreadable file, a link leaving the tree).
    """
    out: dict[str, str] = {}
    for path in sorted(p for p in paths if counted(p)):
        data = read(path)
        if data is None:
            continue
        out[path + SUFFIX] = (normalised_digest(data)[0] if path.endswith((".py", ".pyw"))
                              else hashlib.sha256(data).hexdigest())
    return out
