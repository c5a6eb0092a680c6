"""The result of a schema diff: :class:`Classification` and the classes its findings imply.

A leaf module (the classes only), so that a diff answered without the engine
(:mod:`evalport_spec.selfdiff`) reports through the same type; :mod:`evalport_spec.compat`
re-exports both names.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from .changeclass import ChangeClass
from .record import Record

if TYPE_CHECKING:
    from .findings import Finding

SAFE_RECURSION_LIMIT = 4000
"""Recursion limit used while comparing. On this platform (8 MB C stack) the validator's
recursion overflowed the C stack (a segmentation fault) at a limit of 30000, and survived
20000 on a schema that recurses forever; 4000 leaves a wide margin and is ample for schemas
nested up to the loader's 256 levels."""


@contextlib.contextmanager
def deep_recursion(limit: int = SAFE_RECURSION_LIMIT) -> Iterator[None]:
    """Raise the interpreter's recursion limit to ``limit`` for the block (restored after)."""
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, limit))
    try:
        yield
    finally:
        sys.setrecursionlimit(old)


class Classification(Record):
    """Result of a comparison.

    Attributes:
        change_class: backward class (decides the gate): PATCH, MINOR or MAJOR.
        forward_class: the same check with old and new swapped.
        findings: every finding, backward (MAJOR), forward (MINOR), identity/annotation (PATCH).
        old_label, new_label: what was compared (folders, versions, ``REF:PATH``).
        stats: counters (files, cases, seconds, witnesses verified, documents searched).
        ignored: ignore-file bookkeeping filled by the CLI (``used``, ``stale``, ``expired``).
    """

    _FIELDS = ("change_class", "forward_class", "findings", "old_label", "new_label", "stats", "ignored", "proof")

    def __init__(self, change_class: ChangeClass, forward_class: ChangeClass, findings: list[Finding],
                 old_label: str = "", new_label: str = "", stats: dict[str, Any] | None = None,
                 ignored: dict[str, Any] | None = None, proof: list[dict[str, Any]] | None = None) -> None:
        # a plain class (:class:`~evalport_spec.record.Record`), not a dataclass: a self-diff's
        # report would otherwise import dataclasses and inspect (issue 16)
        self.change_class, self.forward_class, self.findings = change_class, forward_class, findings
        self.old_label, self.new_label = old_label, new_label
        self.stats: dict[str, Any] = {} if stats is None else stats
        self.ignored: dict[str, Any] = {} if ignored is None else ignored
        self.proof: list[dict[str, Any]] = [] if proof is None else proof
        """The derivation of each proved inclusion (backward when the class is MINOR or PATCH,
        forward too for PATCH): ``{file, direction, depth, rule, detail, old, new}`` per step,
        ``old`` and ``new`` as ``file#pointer`` (:mod:`evalport_spec.compat.proof`)."""

    @property
    def full_class(self) -> ChangeClass:
        """``max(change_class, forward_class)``: the class for FULL (both directions)."""
        return max(self.change_class, self.forward_class)

    def to_json(self) -> dict[str, Any]:
        """A dict valid against ``data/diff-report.schema.json`` (built under the raised recursion
        limit the engine's comparison uses, :func:`deep_recursion`: a witness nests as deep as the instance path of its finding)."""
        with deep_recursion():
            return self._to_json()

    def _to_json(self) -> dict[str, Any]:
        return {
            "old": self.old_label, "new": self.new_label,
            "change_class": str(self.change_class), "forward_class": str(self.forward_class),
            "full_class": str(self.full_class),
            "findings": [f.to_json() for f in self.findings],
            "stats": self.stats, "ignored": self.ignored, "proof": self.proof,
        }


def classes_of(findings: list[Finding]) -> tuple[ChangeClass, ChangeClass]:
    """(backward class, forward class) implied by a list of diff findings. An undecided finding
    (``undecided`` set or kind ``undecided``, in any direction) always makes the backward class
    MAJOR: the engine fails closed (toolchain.md, "Prove it")."""
    back = any((f.direction == "backward" and f.change_class == ChangeClass.MAJOR) or f.undecided
               or f.kind == "undecided" for f in findings)
    fwd = any(f.direction == "forward" and f.change_class >= ChangeClass.MINOR for f in findings)
    bc = ChangeClass.MAJOR if back else ChangeClass.MINOR if fwd else ChangeClass.PATCH
    fc = ChangeClass.MAJOR if fwd else ChangeClass.MINOR if back else ChangeClass.PATCH
    return bc, fc
