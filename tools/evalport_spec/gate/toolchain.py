"""``toolchain-changed``: a change to the gate's own code or CI is shown to the reviewer.

The gate that judges a change is the base's (docs/how-to/gate-in-ci.md); what a change does to
the toolchain and the CI configuration takes effect only after it lands, so a reviewer must read
it. Every report of ``check --base REF`` therefore carries one warning listing the paths under
:data:`TOOLCHAIN_PATHS` that differ between REF and the working tree (committed or not).
"""

from __future__ import annotations

from ..findings import Finding, Location, Severity
from . import history
from .context import GateContext

TOOLCHAIN_PATHS = ("tools", "pyproject.toml", "setup.py", "noxfile.py", "action.yml", ".ci/run",
                   ".pre-commit-hooks.yaml", ".github")
"""The toolchain (package, build and test configuration) and the CI configuration."""

SHOWN = 10
"""Paths named in the message before "and N more" (``extra["paths"]`` has them all)."""


def toolchain_findings(ctx: GateContext) -> list[Finding]:
    """One WARNING finding ``toolchain-changed`` naming the changed paths, or none."""
    assert ctx.base is not None
    paths = history.changed_paths(ctx.root, ctx.base_sha or ctx.base, TOOLCHAIN_PATHS)
    if not paths:
        return []
    shown = ", ".join(paths[:SHOWN]) + (f" and {len(paths) - SHOWN} more" if len(paths) > SHOWN else "")
    return [Finding("toolchain-changed",
                    f"the toolchain or CI configuration differs from {ctx.base}: {shown}; these changes "
                    f"judge nothing until they land (the gate of record is {ctx.base}'s), so review "
                    "them as code that will judge every later change",
                    severity=Severity.WARNING, new=Location(paths[0]), extra={"paths": paths})]
