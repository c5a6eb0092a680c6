"""``toolchain-changed``: a change to the gate's own code or CI is shown to the reviewer.

The gate that judges a change is the base's (docs/how-to/gate-in-ci.md); what a change does to
the toolchain and the CI configuration takes effect only after it lands, so a reviewer must read
it. Every report of ``check --base REF`` therefore carries one warning listing the paths under
:data:`TOOLCHAIN_PATHS` that differ between REF and the working tree (committed or not).
"""

from __future__ import annotations

from ..findings import Finding, Location, Severity
from ..fixtures import META_SCHEMA_NAME
from ..gitsource import IMPORTABLE_SUFFIXES
from . import history
from .context import GateContext

TOOLCHAIN_PATHS = ("tools", "pyproject.toml", "setup.py", "setup.cfg", "MANIFEST.in", "noxfile.py",
                   "bootstrap.py", "action.yml", ".ci", ".pre-commit-hooks.yaml", ".github",
                   ".gitattributes", ".gitmodules", "mkdocs.yml")
"""The toolchain (package, build and test configuration), the CI configuration, the git
files that change what a checkout holds: ``.gitattributes`` (``eol``, ``text``,
``working-tree-encoding`` and ``filter`` rewrite a file between the repository and the working
tree, gitattributes(5)) and ``.gitmodules`` (where a submodule's files come from, gitmodules(5)),
and ``mkdocs.yml``, whose ``hooks`` and ``plugins`` run Python while ``docs publish`` writes
the site that serves every released schema at its ``$id`` URL."""

FIXTURE_META_SCHEMA = f"spec/conformance/{META_SCHEMA_NAME}"
"""The draft's conformance fixture meta-schema: every draft fixture file is validated against it
before the ``conformance`` stage runs the fixture (:mod:`evalport_spec.fixtures`). It is data in
``spec/``, yet it judges: a branch that loosens it (``since`` no longer required, ``expect``
open to any member) lets fixtures in that the base's would refuse, and no stage compared it
with the base's (session 35). So a change to it is a toolchain change: named by
``toolchain-changed`` for the reviewer, and the canary runs (:func:`is_toolchain_path`). Each
release freezes its own copy (``spec/releases/X/conformance/``), which ``history`` guards."""

DATA_FOLDERS = ("spec", "rfcs", "tests", "benchmarks")
"""Top-level folders whose Python files only run when called by name (the test suite, the
benchmarks), never by an import from the repository root. (``docs/`` is not one: a Python
file there is what ``mkdocs.yml``'s ``hooks`` would run when the site is published.)"""



def is_toolchain_path(path: str) -> bool:
    """Whether the repository path ``path`` (``/``-separated, relative to the root) is part of
    the toolchain or CI configuration: under one of :data:`TOOLCHAIN_PATHS`, or a module or
    package Python can import from the repository root (``python -m`` puts the current folder
    first on ``sys.path``: a top-level ``pip/`` or ``evalport_spec/`` would run in place of the
    installed one wherever a command is started from a checkout). A ``.gitattributes`` in any
    folder counts: it rewrites the files below it on checkout, as the root one does; and so does
    the fixture meta-schema :data:`FIXTURE_META_SCHEMA`."""
    first, _, rest = path.partition("/")
    if (first in TOOLCHAIN_PATHS or path in TOOLCHAIN_PATHS or path == FIXTURE_META_SCHEMA
            or path.rpartition("/")[2] == ".gitattributes"):
        return True
    if not rest:
        return first.endswith(IMPORTABLE_SUFFIXES)
    return first not in DATA_FOLDERS and not first.startswith(".") and path.endswith(IMPORTABLE_SUFFIXES)


SHOWN = 10
"""Paths named in the message before "and N more" (``extra["paths"]`` has them all)."""


def toolchain_findings(ctx: GateContext) -> list[Finding]:
    """One WARNING finding ``toolchain-changed`` naming the changed paths, or none."""
    assert ctx.base is not None
    paths = [p for p in history.changed_paths(ctx.root, ctx.base_sha or ctx.base, (":/",))
             if is_toolchain_path(p)]
    if not paths:
        return []
    shown = ", ".join(paths[:SHOWN]) + (f" and {len(paths) - SHOWN} more" if len(paths) > SHOWN else "")
    return [Finding("toolchain-changed",
                    f"the toolchain or CI configuration differs from {ctx.base}: {shown}; these changes "
                    f"judge nothing until they land (the gate of record is {ctx.base}'s), so review "
                    "them as code that will judge every later change",
                    severity=Severity.WARNING, new=Location(paths[0]), extra={"paths": paths})]
