"""The content of a generated region: rows of facts, each with where its value comes from.

A :class:`Block` is rendered into Markdown (a table, a bullet list ``- Label: value`` or one
paragraph) and read back from Markdown (:func:`read_rows`), so a stale region is reported value
by value: which row, which column, what SPEC.md says and what the schema, the catalogue or
``spec/VERSION`` gives.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from .. import markdown
from ..report.table import md_table

TABLE, LIST, PARAGRAPH = "table", "list", "paragraph"


@dataclass
class Row:
    """One fact row.

    Attributes:
        key: what identifies the row (a field in backticks, a label such as ``Since``).
        cells: ``{column: Markdown text}``, one line each, not yet escaped for a table cell (a
            list or paragraph row has the one column ``key``).
        origin: where the values come from (``spec/schemas/resultset.json#/$defs/result/...``).
        source: the kind of source, for messages (``the schema``, ``the catalogue``).
        cell_sources: ``{column: (source, origin)}`` for a column with another source.
    """

    key: str
    cells: dict[str, str]
    origin: str
    source: str
    cell_sources: dict[str, tuple[str, str]] = field(default_factory=dict)

    def source_of(self, column: str) -> tuple[str, str]:
        """``(kind of source, origin)`` of one column's value."""
        return self.cell_sources.get(column, (self.source, self.origin))


@dataclass
class Block:
    """The generated content of one region.

    Attributes:
        region: the region id (``fields resultset.Result``, ``rule DUPLICATE_ID``, ``status``).
        kind: :data:`TABLE`, :data:`LIST` or :data:`PARAGRAPH`.
        columns: the table header (tables only).
        rows: the facts, in order.
    """

    region: str
    kind: str
    rows: list[Row]
    columns: tuple[str, ...] = ()

    def render(self) -> list[str]:
        """The region's body as Markdown lines."""
        if self.kind == TABLE:
            return md_table(self.columns, [[r.cells[c] for c in self.columns] for r in self.rows])
        if self.kind == LIST:
            return [f"- {r.key}: {r.cells[r.key]}" for r in self.rows]
        return [" ".join(r.cells[r.key] for r in self.rows)]


@dataclass(frozen=True)
class ReadRow:
    """A row as SPEC.md has it: key, ``{column: text}``, and its line in the file."""

    key: str
    cells: dict[str, str]
    line: int


_LABEL = re.compile(r"^(?P<label>[^:]+?):\s*(?P<value>.*)$", re.S)


def read_rows(block: Block, body: str, first_line: int) -> list[ReadRow] | None:
    """The rows of a region body shaped like ``block`` (``None`` when the body is not a table,
    list or paragraph of that shape). ``first_line`` is the file line of the body's first line."""
    doc = markdown.parse(body)
    off = first_line - 1
    if block.kind == TABLE:
        if len(doc.tables) != 1:
            return None
        t = doc.tables[0]
        cols = list(t.header)
        return [ReadRow(r.cells[0] if r.cells else "", dict(zip(cols, r.cells, strict=False)), r.line + off)
                for r in t.rows]
    if block.kind == LIST:
        out = []
        for p in doc.paragraphs:
            m = _LABEL.match(" ".join(p.source.split()))
            if m is None:
                return None
            out.append(ReadRow(m["label"].strip(), {m["label"].strip(): m["value"].strip()}, p.line + off))
        return out
    if not doc.paragraphs:
        return None
    key = block.rows[0].key if block.rows else ""
    text = " ".join(" ".join(p.source.split()) for p in doc.paragraphs)
    return [ReadRow(key, {key: text}, doc.paragraphs[0].line + off)]


CHANGELOG = "Changelog"
"""The H2 section of SPEC.md holding history, which claims about the current schemas skip."""


def current_lines(doc: markdown.Document) -> Iterator[tuple[int, str]]:
    """``(1-based line, text)`` of every line of ``doc`` outside its :data:`CHANGELOG` section:
    the text that speaks of the current version (the Changelog may name dialects, types and
    members of the past)."""
    history = doc.section(CHANGELOG)
    skip = range(history.line, history.end + 1) if history is not None else range(0)
    for n, line in enumerate(doc.lines, start=1):
        if n not in skip:
            yield n, line


def one_line(text: object) -> str:
    """``text`` on one line, runs of white space as one space (a table cell or a list item)."""
    return " ".join(str(text).split())


def number(value: object) -> str:
    """A JSON number as written in SPEC.md: integers as they are, other numbers in the shortest
    form Python gives with a plain exponent (``1e-06`` -> ``1e-6``)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return re.sub(r"e([+-])0*(\d)", lambda m: "e" + ("-" if m[1] == "-" else "") + m[2], repr(value))


def excerpt(said: str, want: str, width: int = 60) -> tuple[str, str]:
    """Both texts, or, when one is longer than ``width``, the words where they differ with two
    words of context on each side and ``…`` for what is left out."""
    if len(said) <= width and len(want) <= width:
        return said, want
    a, b = said.split(" "), want.split(" ")
    head = 0
    while head < min(len(a), len(b)) and a[head] == b[head]:
        head += 1
    tail = 0
    while tail < min(len(a), len(b)) - head and a[-1 - tail] == b[-1 - tail]:
        tail += 1
    head, tail = max(head - 2, 0), max(tail - 2, 0)

    def cut(words: list[str]) -> str:
        mid = " ".join(words[head:len(words) - tail])
        return ("…" if head else "") + mid + ("…" if tail else "")

    return cut(a), cut(b)
