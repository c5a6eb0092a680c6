"""The compatibility classes and the severities of findings, in a module of their own.

Classes follow semver as toolchain.md, "Compatibility classes", defines them for schema sets:
PATCH (same documents accepted), MINOR (old accepted set is a subset of the new), MAJOR (some
document the old version accepts, the new one rejects). ``NONE`` is for informational findings.

They live apart from :mod:`evalport_spec.findings` (which re-exports both) so that a command
that only needs a class (a diff of two copies of one file, :mod:`evalport_spec.selfdiff`, and its
report) does not import ``dataclasses`` and, through it, ``inspect`` (issue 16: about 6 ms of a
cold process).
"""

from __future__ import annotations

from enum import IntEnum


class ChangeClass(IntEnum):
    """Compatibility class, ordered so ``max()`` gives the class of a set of findings."""

    NONE = 0
    PATCH = 1
    MINOR = 2
    MAJOR = 3

    def __str__(self) -> str:
        return self.name


class Severity(IntEnum):
    """Severity of a check finding (gate stages, linters)."""

    INFO = 0
    WARNING = 1
    ERROR = 2

    def __str__(self) -> str:
        return self.name.lower()
