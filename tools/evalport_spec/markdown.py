"""The one Markdown reader of the package: headings, paragraphs, tables, fences and HTML blocks,
with their lines, from markdown-it-py (CommonMark 0.31 plus the GitHub-flavoured table extension).

Every module that reads Markdown (SPEC.md, RFCs, generated site pages, changelogs) goes through
:func:`parse`, so they agree on what is a heading, what is inside a code fence (CommonMark 4.5)
and where a table cell ends (GFM 4.10: a ``|`` splits cells unless escaped as ``\\|``, even
inside a code span). Nothing here knows about EvalPort.

Public API::

    parse(text) -> Document           cached per text
    Document.headings / paragraphs / tables / fences / html_blocks   (file order)
    Document.section(title, level=2) -> Heading | None
    Document.children(heading) -> list[Heading]   (headings one level deeper inside it)
    Document.inside(heading, items) -> the items whose first line lies in the heading's section
    Document.code_lines -> frozenset[int]         lines of fenced and indented code
    code_spans(source) -> list[str]; plain(source) -> str; inline_tokens(source)   (one inline source)

Lines are 1-based and inclusive (``line`` is the first line, ``end`` the last).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Any, TypeVar

from markdown_it import MarkdownIt

_PARSER = MarkdownIt("commonmark", {"html": True}).enable("table")

_BLOCKS = MarkdownIt("commonmark", {"html": True}).enable("table").disable("inline")
""":data:`_PARSER` without the core rule that parses the inline content of every block: a
:class:`Document` keeps the raw inline source of paragraphs and table cells and needs the
inline tokens of headings only, which it asks :data:`_PARSER` for (with the block pass's
link reference definitions), as the full parse would have made them."""


@dataclass(frozen=True)
class Heading:
    """An ATX or setext heading.

    Attributes:
        level: 1..6.
        text: its plain text (code spans unwrapped, emphasis and link syntax dropped).
        source: its inline Markdown source.
        line: the heading's line.
        end: the last line of its section: the line before the next heading of the same or a
            higher level (lower number), or the last line of the text.
    """

    level: int
    text: str
    source: str
    line: int
    end: int


@dataclass(frozen=True)
class Paragraph:
    """A paragraph (also inside a list item or block quote): its inline source and lines."""

    source: str
    line: int
    end: int


@dataclass(frozen=True)
class TableRow:
    """A body row of a table: the inline source of each cell (``\\|`` unescaped) and its line."""

    cells: tuple[str, ...]
    line: int


@dataclass(frozen=True)
class Table:
    """A GFM table: header cells, body rows, first and last line."""

    header: tuple[str, ...]
    rows: tuple[TableRow, ...]
    line: int
    end: int

    def column(self, name: str) -> int | None:
        """Index of the header cell equal to ``name`` (case-insensitive), or ``None``."""
        for i, h in enumerate(self.header):
            if h.strip().lower() == name.lower():
                return i
        return None


@dataclass(frozen=True)
class Fence:
    """A fenced code block: its info string, content (lines joined, final newline kept), lines
    (``line`` is the opening fence)."""

    info: str
    content: str
    line: int
    end: int


@dataclass(frozen=True)
class HtmlBlock:
    """An HTML block (CommonMark 4.6), such as a comment on lines of its own."""

    content: str
    line: int
    end: int


_Item = TypeVar("_Item", Paragraph, Table, Fence, HtmlBlock, Heading)


class Document:
    """A parsed Markdown text (see the module docstring). Build it with :func:`parse`."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.lines = text.split("\n")
        self.headings: list[Heading] = []
        self.paragraphs: list[Paragraph] = []
        self.tables: list[Table] = []
        self.fences: list[Fence] = []
        self.html_blocks: list[HtmlBlock] = []
        self._code: set[int] = set()
        env: dict[str, Any] = {}  # the link reference definitions the block pass finds
        self._read(_BLOCKS.parse(text, env), env)

    def _read(self, tokens: list[Any], env: dict[str, Any]) -> None:
        raw: list[tuple[int, str, str, int]] = []
        i = 0
        while i < len(tokens):
            t = tokens[i]
            if t.type == "heading_open":
                inline = tokens[i + 1]
                raw.append((int(t.tag[1]), inline.content, plain_of(_inline(inline.content, env)),
                            t.map[0] + 1))
            elif t.type == "paragraph_open":
                self.paragraphs.append(Paragraph(tokens[i + 1].content, t.map[0] + 1, t.map[1]))
            elif t.type == "table_open":
                i = self._table(tokens, i)
                continue
            elif t.type in ("fence", "code_block"):
                self.fences.append(Fence(t.info.strip(), t.content, t.map[0] + 1, t.map[1]))
                self._code.update(range(t.map[0] + 1, t.map[1] + 1))
            elif t.type == "html_block":
                self.html_blocks.append(HtmlBlock(t.content, t.map[0] + 1, t.map[1]))
            i += 1
        last = len(self.lines)
        for k, (level, source, text, line) in enumerate(raw):
            end = next((nxt[3] - 1 for nxt in raw[k + 1:] if nxt[0] <= level), last)
            self.headings.append(Heading(level, text, source, line, end))

    def _table(self, tokens: list[Any], i: int) -> int:
        start, end = tokens[i].map[0] + 1, tokens[i].map[1]
        header: list[str] = []
        rows: list[TableRow] = []
        current: list[str] | None = None
        line = start
        in_head = False
        i += 1
        while tokens[i].type != "table_close":
            t = tokens[i]
            if t.type == "thead_open":
                in_head = True
            elif t.type == "thead_close":
                in_head = False
            elif t.type == "tr_open":
                current, line = [], t.map[0] + 1
            elif t.type == "inline" and current is not None:
                current.append(t.content.strip())
            elif t.type == "tr_close" and current is not None:
                if in_head:
                    header = current
                else:
                    rows.append(TableRow(tuple(current), line))
                current = None
            i += 1
        self.tables.append(Table(tuple(header), tuple(rows), start, end))
        return i + 1

    @property
    def code_lines(self) -> frozenset[int]:
        """Lines inside fenced or indented code blocks (fence lines included)."""
        return frozenset(self._code)

    def section(self, title: str, level: int = 2) -> Heading | None:
        """The first heading of ``level`` whose text is ``title`` (case-insensitive), or ``None``."""
        want = title.strip().lower()
        return next((h for h in self.headings if h.level == level and h.text.strip().lower() == want), None)

    def children(self, parent: Heading) -> list[Heading]:
        """The headings one level below ``parent`` inside its section, in order."""
        return [h for h in self.headings
                if parent.line < h.line <= parent.end and h.level == parent.level + 1]

    def inside(self, heading: Heading, items: list[_Item]) -> list[_Item]:
        """Those of ``items`` (paragraphs, tables, ...) whose first line lies in ``heading``'s
        section, the heading line excluded."""
        return [x for x in items if heading.line < x.line <= heading.end]

    @cached_property
    def heading_lines(self) -> frozenset[int]:
        """Lines holding a heading."""
        return frozenset(h.line for h in self.headings)


@lru_cache(maxsize=256)
def parse(text: str) -> Document:
    """Parse ``text`` (cached per text: one gate run reads each SPEC.md, RFC body and region
    body several times, about 40 distinct texts on this repository)."""
    return Document(text)


def plain_of(children: list[Any]) -> str:
    """Plain text of inline tokens: text and code spans kept, breaks as spaces, markup dropped."""
    out = []
    for c in children:
        if c.type in ("text", "code_inline", "html_inline"):
            out.append(c.content)
        elif c.type in ("softbreak", "hardbreak"):
            out.append(" ")
        elif c.children:
            out.append(plain_of(c.children))
    return "".join(out).strip()


def _inline(source: str, env: dict[str, Any] | None = None) -> list[Any]:
    tokens = _PARSER.parseInline(source, env)
    return tokens[0].children or [] if tokens else []


def inline_tokens(source: str) -> list[Any]:
    """The inline tokens of one inline Markdown source, flattened in order (emphasis, links
    and the like replaced by their content's tokens)."""
    out: list[Any] = []

    def walk(tokens: list[Any]) -> None:
        for t in tokens:
            if t.children:
                walk(t.children)
            else:
                out.append(t)
    walk(_inline(source))
    return out


def plain(source: str) -> str:
    """Plain text of one inline Markdown source (``"a `b` **c**"`` -> ``"a b c"``)."""
    return plain_of(_inline(source))


def code_spans(source: str) -> list[str]:
    """The content of every code span of one inline source, in order."""
    return [c.content for c in _inline(source) if c.type == "code_inline"]
