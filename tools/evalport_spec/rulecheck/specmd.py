"""SPEC.md as the rule check reads it: headings, sections, tables and backtick tokens, with lines.

Only the structure the conventions of SPEC.md fix is read (toolchain.md, "Cross-field rules and
their documented gaps"; the SPEC.md conventions of the content):

* ``## Cross-field rules``: one H3 per rule whose text is exactly the rule code, holding a
  paragraph that starts ``**Why JSON Schema does not carry it:**`` (the documented gap) or
  ``**Carried by the schema:**`` (the rule is encoded in the schema);
* ``## Documents``: one H3 per object schema whose text equals the schema's ``title``, with a
  table ``| Field | Type | Required | Description |`` naming each property in backticks;
* an allow-list comment ``<!-- rulecheck: allow `token` `OTHER_TOKEN` -->`` (anywhere in the
  file) names backtick tokens the drift check must not report.

Fenced code blocks are skipped. Lines are 1-based.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

GAP_MARK = "**Why JSON Schema does not carry it:**"
"""Opening of the paragraph that documents why the schema cannot (or does not) carry a rule."""

CARRIED_MARK = "**Carried by the schema:**"
"""Opening of the paragraph that says the schema encodes a rule."""

RULES_SECTION = "Cross-field rules"
DOCUMENTS_SECTION = "Documents"
VALIDATION_SECTION = "Validation"

_HEADING = re.compile(r"^(#{1,6})[ \t]+(.*?)[ \t]*#*[ \t]*$")
_FENCE = re.compile(r"^[ \t]{0,3}(```|~~~)")
_TICK = re.compile(r"`([^`\n]+)`")
_ALLOW = re.compile(r"<!--\s*rulecheck:\s*allow\b(.*?)-->", re.S)


@dataclass
class Heading:
    """One ATX heading: level (1..6), text (backticks stripped), line, and body lines.

    ``body`` holds ``(line number, text)`` for every non-code line up to the next heading of the
    same or a higher level (sub-headings included).
    """

    level: int
    text: str
    line: int
    body: list[tuple[int, str]] = field(default_factory=list)


@dataclass
class TableRow:
    """One body row of a pipe table: its cells (stripped) and its line."""

    cells: list[str]
    line: int


@dataclass
class Table:
    """A pipe table: header cells, body rows, and the line of the header row."""

    header: list[str]
    rows: list[TableRow]
    line: int

    def column(self, name: str) -> int | None:
        """Index of the header cell equal to ``name`` (case-insensitive), or ``None``."""
        for i, h in enumerate(self.header):
            if h.strip().lower() == name.lower():
                return i
        return None


@dataclass
class SpecMarkdown:
    """A parsed SPEC.md.

    Attributes:
        headings: every heading in file order.
        allowed: tokens named by ``rulecheck: allow`` comments.
    """

    headings: list[Heading]
    allowed: set[str]

    def section(self, title: str, level: int = 2) -> Heading | None:
        """The first heading of ``level`` whose text is ``title`` (case-insensitive), or ``None``."""
        for h in self.headings:
            if h.level == level and h.text.lower() == title.lower():
                return h
        return None

    def subsections(self, title: str) -> list[Heading]:
        """The H3 headings inside the H2 section ``title`` (empty if there is no such section)."""
        parent = self.section(title)
        if parent is None:
            return []
        out: list[Heading] = []
        started = False
        for h in self.headings:
            if h is parent:
                started = True
                continue
            if not started:
                continue
            if h.level <= 2:
                break
            if h.level == 3:
                out.append(h)
        return out


def parse(text: str) -> SpecMarkdown:
    """Parse SPEC.md text into headings with their bodies (code fences skipped)."""
    headings: list[Heading] = []
    open_stack: list[Heading] = []
    fence: str | None = None
    for no, line in enumerate(text.splitlines(), start=1):
        m = _FENCE.match(line)
        if fence is not None:
            if m and m.group(1) == fence:
                fence = None
            continue
        if m:
            fence = m.group(1)
            continue
        hm = _HEADING.match(line)
        if hm:
            h = Heading(len(hm.group(1)), hm.group(2).replace("`", "").strip(), no)
            while open_stack and open_stack[-1].level >= h.level:
                open_stack.pop()
            headings.append(h)
            open_stack.append(h)
            continue
        for h in open_stack:
            h.body.append((no, line))
    allowed = {tok for m in _ALLOW.finditer(text) for tok in _TICK.findall(m.group(1))}
    return SpecMarkdown(headings, allowed)


def tables(body: list[tuple[int, str]]) -> list[Table]:
    """The pipe tables in ``body`` (lines as in :attr:`Heading.body`)."""
    out: list[Table] = []
    i = 0
    while i < len(body):
        no, line = body[i]
        if _is_row(line) and i + 1 < len(body) and _is_separator(body[i + 1][1]):
            table = Table(_cells(line), [], no)
            i += 2
            while i < len(body) and _is_row(body[i][1]):
                table.rows.append(TableRow(_cells(body[i][1]), body[i][0]))
                i += 1
            out.append(table)
            continue
        i += 1
    return out


def ticks(text: str) -> list[str]:
    """Every backtick token in ``text``, in order (inline code spans of one backtick)."""
    return _TICK.findall(text)


def paragraph_after(body: list[tuple[int, str]], mark: str) -> tuple[int, str] | None:
    """The paragraph whose first line starts with ``mark``: ``(line, text after the mark)``.

    The paragraph runs to the next blank line. ``None`` if no line starts with ``mark``.
    """
    for i, (no, line) in enumerate(body):
        if line.lstrip().startswith(mark):
            parts = [line.lstrip()[len(mark):].strip()]
            for _, nxt in body[i + 1:]:
                if not nxt.strip() or _HEADING.match(nxt):
                    break
                parts.append(nxt.strip())
            return no, " ".join(p for p in parts if p)
    return None


def _is_row(line: str) -> bool:
    s = line.strip()
    return s.startswith("|") and s.count("|") >= 2


def _is_separator(line: str) -> bool:
    s = line.strip()
    return _is_row(s) and all(re.fullmatch(r"\s*:?-{1,}:?\s*", c) for c in _cells(s))


def _cells(line: str) -> list[str]:
    s = line.strip()
    if s.startswith("|"):
        s = s[1:]
    if s.endswith("|") and not s.endswith("\\|"):
        s = s[:-1]
    # split on pipes that are not escaped and not inside a code span
    cells, cur, in_code, i = [], [], False, 0
    while i < len(s):
        ch = s[i]
        if ch == "\\" and i + 1 < len(s) and s[i + 1] == "|":
            cur.append("|")
            i += 2
            continue
        if ch == "`":
            in_code = not in_code
        if ch == "|" and not in_code:
            cells.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
        i += 1
    cells.append("".join(cur).strip())
    return cells
