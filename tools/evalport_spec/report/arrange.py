"""Order and de-duplication: what a reader sees first, and each finding once.

Findings come in as ``(finding, stage)`` pairs (``stage`` ``None`` outside the gate) and leave
as :class:`Entry` objects:

1. **Once.** The same finding reported by several stages (the ``draft`` and ``base`` stages
   both classify a branch's change) is one entry listing the stages: findings are the same when
   their fingerprints are (docs/fingerprints.md) and they are the n-th of that fingerprint in
   their stage (two distinct errors that share a fingerprint inside one stage stay two).
2. **Decisions under what they decide.** A finding whose ``extra["finding"]`` is the fingerprint
   of another finding reported (a policy decision: "accepted by RFC 0007", "not named by any
   accepted RFC") is shown under that finding, not as an entry of its own.
3. **Sections, most important first.** ``compatibility`` (every finding with a class or
   undecided, policy decisions, and the findings of the classifying stages ``draft``, ``base``,
   ``releases``), then ``rules``, ``conformance``, ``rfcs``, ``documents`` (examples, validated
   files), then the other checks. Inside the
   compatibility section: MAJOR, then undecided, then MINOR, then PATCH, then the rest; inside
   any section, errors before warnings before information, then the order reported.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import TYPE_CHECKING

from ..changeclass import ChangeClass, Severity
from ..record import Record
from .changelog import change_line
from .describe import acted_severity, is_change

if TYPE_CHECKING:
    from ..findings import Finding

SECTIONS = {"compatibility": "Compatibility", "rules": "Rules", "conformance": "Conformance",
            "rfcs": "RFCs", "documents": "Documents", "other": "Other checks"}
"""Section key -> heading, in the order reports show them."""

_STAGE_SECTION = {"draft": "compatibility", "base": "compatibility", "releases": "compatibility",
                  "rules": "rules", "conformance": "conformance", "rfcs": "rfcs",
                  "examples": "documents"}
_KIND_SECTION = {"policy": "compatibility", "rule": "rules", "conformance": "conformance",
                 "rfc": "rfcs", "document": "documents", "example": "documents"}
_CLASS_RANK = {ChangeClass.MAJOR: 0, ChangeClass.MINOR: 2, ChangeClass.PATCH: 3, ChangeClass.NONE: 4}


class Entry(Record):
    """One finding as reported: where it was found and what decided about it.

    Attributes:
        finding: the finding (the first stage's copy when several stages reported it).
        stages: the gate stages that reported it, in run order (empty outside the gate).
        section: a key of :data:`SECTIONS`.
        change: its changelog sentence (:func:`~.changelog.change_line`), or ``None``.
        decisions: findings that decide about this one (policy verdicts), in report order.
    """

    _FIELDS = ("finding", "stages", "section", "change", "decisions")

    def __init__(self, finding: Finding, stages: list[str] | None = None, section: str = "other",
                 change: str | None = None, decisions: list[Finding] | None = None) -> None:
        # a plain class, not a dataclass (:mod:`evalport_spec.record`, issue 16)
        self.finding, self.section, self.change = finding, section, change
        self.stages: list[str] = [] if stages is None else stages
        self.decisions: list[Finding] = [] if decisions is None else decisions

    @property
    def severity(self) -> Severity:
        """The highest acted-on severity of the finding and its decisions
        (:func:`~.describe.acted_severity`)."""
        return max([acted_severity(self.finding), *(acted_severity(d) for d in self.decisions)])

    def to_json(self) -> list[dict]:
        """The finding's JSON (``Finding.to_json()`` plus ``section``, ``stages`` and ``change``
        when set), followed by its decisions' (each with ``decides``: the fingerprint decided)."""
        head = self.finding.to_json()
        head["section"] = self.section
        if self.stages:
            head["stages"] = list(self.stages)
        if self.change:
            head["change"] = self.change
        out = [head]
        for d in self.decisions:
            dj = d.to_json()
            dj["section"] = self.section
            if self.stages:
                dj["stages"] = list(self.stages)
            out.append(dj)
        return out


def section_of(f: Finding, stage: str | None) -> str:
    """The section key of a finding reported by ``stage`` (module docstring, item 3)."""
    if is_change(f):
        return "compatibility"
    if stage in _STAGE_SECTION:
        return _STAGE_SECTION[stage]
    return _KIND_SECTION.get(f.kind.split("-", 1)[0], "other")


def class_rank(f: Finding) -> int:
    """0 MAJOR, 1 undecided, 2 MINOR, 3 PATCH, 4 no class."""
    return 1 if f.undecided else _CLASS_RANK[f.change_class]


def arrange(pairs: Iterable[tuple[Finding, str | None]]) -> list[Entry]:
    """The entries of ``pairs`` once each, decisions folded in, in report order (module
    docstring)."""
    entries: list[Entry] = []
    seen: dict[tuple[str, int], Entry] = {}
    count: Counter[tuple[str | None, str]] = Counter()
    for f, stage in pairs:
        fp = f.fingerprint
        n = count[(stage, fp)]
        count[(stage, fp)] += 1
        entry = seen.get((fp, n))
        if entry is not None:
            if stage and stage not in entry.stages:
                entry.stages.append(stage)
            continue
        entry = Entry(f, [stage] if stage else [], section_of(f, stage))
        seen[(fp, n)] = entry
        entries.append(entry)
    first = {}
    for e in entries:
        first.setdefault(e.finding.fingerprint, e)
    kept = []
    for e in entries:
        key = e.finding.extra.get("finding")
        target = first.get(key) if isinstance(key, str) else None
        if target is not None and target is not e and not target.finding.extra.get("finding"):
            target.decisions.append(e.finding)
            continue
        kept.append(e)
    every = [e.finding for e in kept]
    for e in kept:
        e.change = change_line(e.finding, every)
    order = list(SECTIONS)
    ranked = sorted(enumerate(kept), key=lambda p: (order.index(p[1].section), class_rank(p[1].finding),
                                                    -p[1].severity, p[0]))
    return [e for _, e in ranked]
