"""The changelog of a SPEC.md: the entries under ``## Changelog``, read and written.

SPEC.md "Changelog" holds one H3 entry per release, newest first, headed
``### X.Y.Z — YYYY-MM-DD — CLASS`` (:data:`DATED`; an em dash is canonical, CLASS is PATCH,
MINOR, MAJOR, or INITIAL for the first release) and followed by Markdown bullets. The draft
may open the section with one *pending* entry ``### X.Y.Z — unreleased`` (:data:`PENDING`),
where X.Y.Z is ``spec/VERSION``: it collects what the next release will say, such as the
editorial marks of :mod:`evalport_spec.specsync.record`, and ``release`` replaces it with the
dated entry (:func:`insert`).

Read with the package's one Markdown parser (:mod:`evalport_spec.markdown`), so a heading
inside a code fence is never an entry.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .errors import InputError
from .markdown import Document, Heading, parse

SECTION = "Changelog"
"""Title of the H2 section holding the entries."""

_SEMVER = r"(?P<version>(?:0|[1-9]\d*)\.(?:0|[1-9]\d*)\.(?:0|[1-9]\d*))"

DATED = re.compile(_SEMVER + r"\s+[—–-]\s+(?P<date>\d{4}-\d{2}-\d{2})\s+[—–-]\s+"
                   r"(?P<cls>PATCH|MINOR|MAJOR|INITIAL)$")
"""The text of a released entry's heading: ``X.Y.Z — YYYY-MM-DD — CLASS``."""

PENDING = re.compile(_SEMVER + r"\s+[—–-]\s+unreleased$", re.I)
"""The text of the draft's pending entry heading: ``X.Y.Z — unreleased``."""

_RFC = re.compile(r"\bRFC[ -]?(\d{1,4})\b")


@dataclass(frozen=True)
class Entry:
    """One changelog entry.

    Attributes:
        version: ``X.Y.Z`` from the heading.
        date: ``YYYY-MM-DD`` (not checked to be a calendar date), ``None`` when pending.
        change_class: ``PATCH``, ``MINOR``, ``MAJOR`` or ``INITIAL``; ``None`` when pending.
        line: the heading's line (1-based).
        end: the entry's last line that is neither blank nor part of an HTML block (such as
            the end-of-specification comment after the last entry).
        body: the entry's Markdown below its heading, HTML blocks left out, stripped.
    """

    version: str
    date: str | None
    change_class: str | None
    line: int
    end: int
    body: str

    @property
    def pending(self) -> bool:
        """Whether this is the draft's ``X.Y.Z — unreleased`` entry."""
        return self.date is None

    def rfcs(self) -> set[int]:
        """RFC numbers the body names as ``RFC 000N``."""
        return {int(n) for n in _RFC.findall(self.body)}


def headings(text: str) -> list[Heading]:
    """Every H3 heading inside ``## Changelog``, well-formed or not, in file order."""
    doc = parse(text)
    section = doc.section(SECTION)
    return doc.children(section) if section is not None else []


def _entry(doc: Document, h: Heading) -> Entry | None:
    dated, pending = DATED.match(h.text), PENDING.match(h.text)
    if not dated and not pending:
        return None
    html = {n for b in doc.inside(h, doc.html_blocks) for n in range(b.line, b.end + 1)}
    kept = [(n, doc.lines[n - 1]) for n in range(h.line + 1, h.end + 1) if n not in html]
    content = [n for n, ln in kept if ln.strip()]
    end = content[-1] if content else h.line
    body = "\n".join(ln for _, ln in kept).strip()
    if dated:
        return Entry(dated["version"], dated["date"], dated["cls"], h.line, end, body)
    return Entry(pending["version"], None, None, h.line, end, body)


def entries(text: str) -> list[Entry]:
    """The well-formed released entries, in file order (the pending entry left out)."""
    doc = parse(text)
    out = [_entry(doc, h) for h in headings(text)]
    return [e for e in out if e is not None and not e.pending]


def pending(text: str) -> Entry | None:
    """The draft's pending entry: the first H3 of ``## Changelog`` when it reads
    ``X.Y.Z — unreleased``, else ``None``."""
    hs = headings(text)
    if not hs or not PENDING.match(hs[0].text):
        return None
    return _entry(parse(text), hs[0])


def insert(text: str, entry: str, label: str = "SPEC.md") -> str:
    """``text`` with ``entry`` (Markdown starting with its ``###`` heading) as the newest entry:
    it replaces the pending entry if there is one, else goes before the first entry (or, in an
    empty section, before its first HTML block or at its end).

    Raises:
        InputError: there is no ``## Changelog`` section (``label`` names the file).
    """
    doc = parse(text)
    section = doc.section(SECTION)
    if section is None:
        raise InputError(f"there is no '## {SECTION}' section", label)
    lines = doc.lines
    block = entry.rstrip("\n").split("\n")
    old = pending(text)
    if old is not None:
        return "\n".join(lines[:old.line - 1] + block + lines[old.end:])
    firsts = [h.line for h in doc.children(section)] + [b.line for b in doc.inside(section, doc.html_blocks)]
    at = min(firsts) - 1 if firsts else section.end
    block = block + [""]
    if at > 0 and lines[at - 1].strip():
        block = [""] + block
    return "\n".join(lines[:at] + block + lines[at:])


def add_pending(text: str, version: str, line: str, label: str = "SPEC.md") -> str:
    """``text`` with ``line`` (one Markdown bullet) appended to the draft's pending entry, which
    is created as ``### VERSION — unreleased`` before the first entry when there is none.

    Raises:
        InputError: there is no ``## Changelog`` section (``label`` names the file).
    """
    entry = pending(text)
    if entry is None:
        return insert(text, f"### {version} — unreleased\n\n{line}\n", label)
    lines = text.split("\n")
    return "\n".join(lines[:entry.end] + [line] + lines[entry.end:])
