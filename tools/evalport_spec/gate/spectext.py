"""The structure of SPEC.md: required sections, the end marker, and changelog headings.

SPEC.md was truncated upstream by bad pushes several times with nothing noticing
(evalport-model.md, "Governance facts"), so the gate checks, for the draft and every release:

* every heading of :data:`REQUIRED_H2` is present as a level-2 heading, in that order
  (other H2 headings may sit between them);
* the last non-empty line is exactly :data:`END_MARKER`;
* every level-3 heading inside ``## Changelog`` has the form ``### X.Y.Z — YYYY-MM-DD — CLASS``
  (:data:`evalport_spec.changelog.DATED`; CLASS is PATCH, MINOR, MAJOR or INITIAL), except that
  the draft may open the changelog with its pending entry ``### X.Y.Z — unreleased``.

Headings are read with the package's Markdown parser (:mod:`evalport_spec.markdown`), so one
inside a fenced code block (CommonMark 4.5) is not a heading. What the draft's SPEC.md must
further agree with (generated regions, the normative change record) is checked by
:mod:`evalport_spec.specsync`.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from typing import Any

from .. import changelog
from ..findings import Finding, Location, Severity
from ..markdown import parse
from ..spec import SpecRepo
from ..specsync import check_draft
from ..specsync.record import record, self_recorded, sentence_changes

REQUIRED_H2 = ("Status", "Terminology", "Documents", "Grader types", "Validation", "Cross-field rules",
               "Versioning and compatibility", "Extension mechanism", "Conformance", "Governance",
               "Changelog")
"""The H2 sections every SPEC.md has, in order."""

END_MARKER = "<!-- end of specification -->"
"""The last line of every complete SPEC.md."""


def check_spec_text(text: str, label: str, *, draft: bool = False) -> list[Finding]:
    """Structural findings for one SPEC.md (empty list when it is complete).

    Args:
        text: the SPEC.md text.
        label: the file name used in findings (``spec/SPEC.md``, ``spec/releases/1.2.0/SPEC.md``).
        draft: the text is the working draft's, whose changelog may open with a pending entry.

    Returns:
        Findings (all errors): ``spec-md-missing`` (empty or absent file), ``spec-section-missing``,
        ``spec-section-out-of-order``, ``spec-end-marker-missing`` (truncated file),
        ``changelog-heading-malformed``.
    """
    if not text.strip():
        return [Finding("spec-md-missing", "SPEC.md is missing or empty", new=Location(label, None, 1))]
    found: list[Finding] = []
    h2 = [h for h in parse(text).headings if h.level == 2]
    last_line = 1
    position = -1
    for name in REQUIRED_H2:
        hits = [h for h in h2 if h.text == name]
        if not hits:
            found.append(Finding("spec-section-missing",
                                 f"required section '## {name}' is missing (SPEC.md truncated or edited?)",
                                 new=Location(label, None, last_line)))
            continue
        idx = h2.index(hits[0])
        if idx < position:
            found.append(Finding("spec-section-out-of-order",
                                 f"section '## {name}' comes before a section it must follow "
                                 f"(required order: {', '.join(REQUIRED_H2)})",
                                 new=Location(label, None, hits[0].line)))
        position = max(position, idx)
        last_line = hits[0].line
    lines = text.rstrip("\n").split("\n")
    nonblank = [ln for ln in lines if ln.strip()]
    if not nonblank or nonblank[-1].strip() != END_MARKER:
        found.append(Finding("spec-end-marker-missing",
                             f"the last line is not '{END_MARKER}': SPEC.md is truncated",
                             new=Location(label, None, len(lines))))
    for k, h in enumerate(changelog.headings(text)):
        if draft and k == 0 and changelog.PENDING.match(h.text):
            continue
        m = changelog.DATED.match(h.text)
        bad = m is None
        if m:
            try:
                datetime.date.fromisoformat(m["date"])
            except ValueError:
                bad = True
        if bad:
            found.append(Finding("changelog-heading-malformed",
                                 f"changelog heading '### {h.text}' is not "
                                 "'### X.Y.Z — YYYY-MM-DD — PATCH|MINOR|MAJOR|INITIAL'"
                                 + (" (or, first in the draft, '### X.Y.Z — unreleased')" if draft else ""),
                                 new=Location(label, None, h.line)))
    return found


def check_draft_text(repo: SpecRepo, rfcs: Iterable[Any] = (),
                     before: tuple[str, dict[str, set[str]]] | None = None) -> tuple[list[Finding], str]:
    """What the draft's SPEC.md must further agree with: its generated regions
    (:func:`evalport_spec.specsync.check_draft`: stale, missing or unknown regions, rule
    parameters stated in prose) and the normative change record since the latest release
    (:func:`evalport_spec.specsync.record.record`: a change on no record is an error, a recorded
    one an INFO finding; ``rfcs`` are the repository's RFCs, whose ``spec_changes`` record changes).
    With ``before`` (``(base, {change id: its records there})``: :func:`~evalport_spec.specsync.record.records`),
    a change on record only by what this change adds is a warning too
    (:func:`~evalport_spec.specsync.record.self_recorded`).

    Returns:
        ``(findings, summary)``, the summary saying how many normative changes there are.

    Raises:
        InputError: malformed region markers, unreadable schemas, catalogue or RFCs.
    """
    rec = record(repo, rfcs)
    generated = check_draft(repo).findings
    found = generated + rec.findings
    if before is not None:
        found += self_recorded(rec, before[1], before[0])
    wrong = sum(f.severity == Severity.ERROR for f in generated)
    against = f"; {wrong} disagreement(s) with the schemas or the rule catalogue" if wrong else ""
    if rec.since is None:
        return found, f"no release to record changes against{against}"
    open_ = sum(f.kind == "spec-change-unrecorded" for f in rec.findings)
    state = f"{open_} on no record" if open_ else "all on record"
    summary = f"{len(rec.changes)} normative change(s) since {rec.since}, {state}{against}"
    return sorted(found, key=lambda f: (f.severity != Severity.ERROR, (f.new.line if f.new else 0) or 0)), summary


def sentence_findings(before: str, after: str, base: str) -> list[Finding]:
    """A ``spec-sentence-changed`` WARNING per hand-written sentence, table row or heading of the
    draft's SPEC.md that differs between the base ``base`` (its text ``before``) and the branch
    (``after``) without a key word on either side
    (:func:`~evalport_spec.specsync.record.sentence_changes`): the record follows key words, and
    a declarative sentence can change what the spec requires just as well, so a reviewer confirms
    each one is editorial."""
    return [Finding("spec-sentence-changed",
                    f"SPEC.md prose {c.summary(240)} has no key word, so the normative change record does "
                    "not follow it: confirm it changes nothing a document or implementation must do, "
                    f"or state the requirement with a key word (changed since {base})",
                    severity=Severity.WARNING, new=Location("spec/SPEC.md", None, c.line))
            for c in sentence_changes(before, after)]
