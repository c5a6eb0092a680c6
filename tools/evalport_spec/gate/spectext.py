"""The structure of SPEC.md: required sections, the end marker, and changelog headings.

SPEC.md was truncated upstream by bad pushes several times with nothing noticing
(evalport-model.md, "Governance facts"), so the gate checks, for the draft and every release:

* every heading of :data:`REQUIRED_H2` is present as a level-2 ATX heading, in that order
  (other H2 headings may sit between them);
* the last non-empty line is exactly :data:`END_MARKER`;
* every level-3 heading inside ``## Changelog`` has the form ``### X.Y.Z — YYYY-MM-DD — CLASS``
  (:data:`CHANGELOG_HEADING`; CLASS is PATCH, MINOR or MAJOR).

Headings inside fenced code blocks (CommonMark 4.5) are ignored.
"""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass

from ..findings import Finding, Location

REQUIRED_H2 = ("Status", "Terminology", "Documents", "Grader types", "Validation", "Cross-field rules",
               "Versioning and compatibility", "Extension mechanism", "Conformance", "Governance",
               "Changelog")
"""The H2 sections every SPEC.md has, in order."""

END_MARKER = "<!-- end of specification -->"
"""The last line of every complete SPEC.md."""

CHANGELOG_HEADING = re.compile(
    r"^(?P<version>(?:0|[1-9]\d*)\.(?:0|[1-9]\d*)\.(?:0|[1-9]\d*))\s+[—–-]\s+"
    r"(?P<date>\d{4}-\d{2}-\d{2})\s+[—–-]\s+(?P<cls>PATCH|MINOR|MAJOR|INITIAL)$")
"""``X.Y.Z — YYYY-MM-DD — CLASS`` (the text of a changelog H3; an em dash is canonical; CLASS is
PATCH, MINOR, MAJOR, or INITIAL for the first release)."""


@dataclass(frozen=True)
class Heading:
    """An ATX heading: level (1-6), 1-based line, text (trailing ``#``s removed)."""

    level: int
    line: int
    text: str


@dataclass(frozen=True)
class ChangelogEntry:
    """One ``### X.Y.Z — DATE — CLASS`` heading: version, date, class name, line."""

    version: str
    date: str
    change_class: str
    line: int


def headings(text: str) -> list[Heading]:
    """Every ATX heading of a Markdown text outside fenced code blocks."""
    out: list[Heading] = []
    fence: str | None = None
    for i, line in enumerate(text.split("\n"), start=1):
        stripped = line.strip()
        m = re.match(r"^(`{3,}|~{3,})", stripped)
        if m:
            if fence is None:
                fence = m.group(1)
            elif stripped.startswith(fence) and set(stripped) == {fence[0]}:
                fence = None
            continue
        if fence is None:
            h = re.match(r"^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$", line)
            if h:
                out.append(Heading(len(h.group(1)), i, h.group(2).strip()))
    return out


def changelog(text: str) -> list[ChangelogEntry]:
    """The well-formed changelog entries (H3 headings under ``## Changelog``), in file order."""
    out = []
    inside = False
    for h in headings(text):
        if h.level <= 2:
            inside = h.level == 2 and h.text == "Changelog"
        elif inside and h.level == 3:
            m = CHANGELOG_HEADING.match(h.text)
            if m:
                out.append(ChangelogEntry(m["version"], m["date"], m["cls"], h.line))
    return out


def check_spec_text(text: str, label: str) -> list[Finding]:
    """Structural findings for one SPEC.md (empty list when it is complete).

    Args:
        text: the SPEC.md text.
        label: the file name used in findings (``spec/SPEC.md``, ``spec/releases/1.2.0/SPEC.md``).

    Returns:
        Findings (all errors): ``spec-md-missing`` (empty or absent file), ``spec-section-missing``,
        ``spec-section-out-of-order``, ``spec-end-marker-missing`` (truncated file),
        ``changelog-heading-malformed``.
    """
    if not text.strip():
        return [Finding("spec-md-missing", "SPEC.md is missing or empty", new=Location(label, None, 1))]
    found: list[Finding] = []
    hs = headings(text)
    h2 = [h for h in hs if h.level == 2]
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
    inside = False
    for h in hs:
        if h.level <= 2:
            inside = h.level == 2 and h.text == "Changelog"
        elif inside and h.level == 3:
            m = CHANGELOG_HEADING.match(h.text)
            bad = m is None
            if m:
                try:
                    datetime.date.fromisoformat(m["date"])
                except ValueError:
                    bad = True
            if bad:
                found.append(Finding("changelog-heading-malformed",
                                     f"changelog heading '### {h.text}' is not "
                                     "'### X.Y.Z — YYYY-MM-DD — PATCH|MINOR|MAJOR|INITIAL'",
                                     new=Location(label, None, h.line)))
    return found
