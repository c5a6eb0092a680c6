"""Derivations: which rule discharged each obligation of a proved inclusion ``A ⊆ B``.

Every successful comparison of a pair of canons records :class:`Step` values (the rule, what it
decided, where on each side) and the sub-pairs it relied on. :class:`Derivations` turns that
record into the derivation tree of a top-level pair: its steps, then each sub-pair's, depth-first,
a sub-pair shown once (later uses say so), a pair assumed while it was being proved (recursion
through ``$ref``) marked as closed by co-induction. ``diff --explain`` prints it; the JSON report
carries it as ``proof``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .nodes import Node

RULES: dict[str, str] = {
    "old-accepts-nothing": "the old side accepts no document here",
    "new-accepts-anything": "the new side accepts every document here",
    "same-subschema": "both sides are the same subschema ($ref followed, annotations ignored)",
    "same-as-proved": "both sides are written exactly like a pair proved elsewhere (the same "
                      "references' targets): that derivation applies",
    "case-split": "the old side's disjunction is split into cases, each proved",
    "group-repeated": "the new side's anyOf/oneOf repeats one the old side already has",
    "branch-covers": "the old documents all match one branch (oneOf: and no other)",
    "conditional-repeated": "the new side's conditional repeats one the old side has",
    "conditional-holds": "where the condition holds, the old side implies 'then'; else 'else'",
    "not-implied": "the old side rejects everything the new side's 'not' rejects",
    "type-included": "every JSON type the old side accepts, the new side accepts",
    "values-included": "every enum/const value of the old side is valid on the new side",
    "bound-covered": "the old bound is at least as tight",
    "multiple-of-divides": "every old multiple is a multiple of the new multipleOf (exact decimals)",
    "same-keyword": "the same keyword on both sides",
    "format-annotation": "the format is an annotation in this dialect (no validator asserts it)",
    "language-included": "the old strings' regular language is inside the new keyword's",
    "values-cover-language": "every string of the old side's regular language is a new enum/const value",
    "values-cover-range": "every integer of the old side's bounded range is a new enum/const value",
    "length-covered": "the old length bounds are at least as tight",
    "unique-implied": "no two items of an old array can be equal (or old asserts uniqueItems)",
    "contains-counted": "counting the items that must (or cannot) match 'contains'",
    "items-unreached": "no old array is long enough to have an item at that index",
    "required-included": "every name the new side requires, the old side requires",
    "member-names-partitioned": "undeclared member names compared cell by cell of the "
                                "patternProperties regexes",
    "property-names-included": "every member name the old side allows, new propertyNames accepts",
    "finite-enumeration": "every old document (finitely many) checked on the new side",
    "coinduction": "assumed while being proved (recursion through $ref): a greatest fixpoint",
}
"""Rule id -> what it establishes (the rule registry of derivation steps)."""


@dataclass(frozen=True)
class Step:
    """One discharged obligation: ``rule`` (a :data:`RULES` id), ``detail`` (what was compared),
    and the locations on the ``A`` and ``B`` side (``file#pointer``, or ``None``)."""

    rule: str
    detail: str
    a: str | None = None
    b: str | None = None


def where(loc: tuple[Node, str] | None) -> str | None:
    """``file#pointer`` of a location (``None`` for synthetic or missing ones)."""
    if loc is None or loc[0].syn is not None:
        return None
    return f"{loc[0].file}#{loc[1]}"


@dataclass
class Derivations:
    """The record of every pair the checker proved: steps and the sub-pairs relied on."""

    steps: dict[Any, list[Step]] = field(default_factory=dict)
    children: dict[Any, list[Any]] = field(default_factory=dict)

    def begin(self, key: Any) -> None:
        """Start (or restart) the record of pair ``key``."""
        self.steps[key] = []
        self.children[key] = []

    def tree(self, key: Any, limit: int = 2000) -> list[tuple[int, Step]]:
        """``[(depth, step)]`` of the derivation of pair ``key``, depth-first, at most ``limit``
        lines (a last line says how many were left out)."""
        out: list[tuple[int, Step]] = []
        shown: set[Any] = set()
        stack: list[tuple[int, Any]] = [(0, key)]
        left = 0
        while stack:
            depth, k = stack.pop()
            if isinstance(k, tuple) and k and k[0] == "coinduction":
                out.append((depth, Step("coinduction", "this pair was being proved further up")))
                continue
            if k in shown:
                out.append((depth, Step("same-subschema", "proved above (shared subschema)")))
                continue
            shown.add(k)
            steps = self.steps.get(k, [])
            if len(out) + len(steps) > limit:
                left += len(steps)
                continue
            out.extend((depth, s) for s in steps)
            stack.extend((depth + 1, c) for c in reversed(self.children.get(k, [])))
        if left:
            out.append((0, Step("truncated", f"{left} further steps not shown")))
        return out


def explain_lines(proof: list[dict[str, Any]]) -> list[str]:
    """The ``proof`` of a classification as indented text lines, one per step: ``rule: detail
    (old -> new)`` under a heading per file and direction (``diff --explain``)."""
    out: list[str] = []
    current = None
    for p in proof:
        head = (p["file"], p["direction"])
        if head != current:
            current = head
            what = "old ⊆ new" if p["direction"] == "backward" else "new ⊆ old"
            out.append(f"proof of {what} for {p['file']}:")
        def short(loc: str | None, file: str = p["file"]) -> str:
            if not loc:
                return "-"
            name, _, ptr = loc.partition("#")
            return (ptr or "/") if name == file else loc

        where = f"old {short(p.get('old'))}, new {short(p.get('new'))}"
        out.append(f"{'  ' * (p['depth'] + 1)}{p['rule']}: {p['detail']}  [{where}]")
    return out
