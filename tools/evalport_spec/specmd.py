"""SPEC.md as the rule check and the SPEC.md generator read it: sections, tables, paragraphs and
code spans, with lines.

Only the structure the conventions of SPEC.md fix is read (toolchain.md, "Cross-field rules and
their documented gaps"; the SPEC.md conventions of the content):

* ``## Cross-field rules``: one H3 per rule whose text is exactly the rule code, holding a
  paragraph that starts ``**Why JSON Schema does not carry it:**`` (the documented gap) or
  ``**Carried by the schema:**`` (the rule is encoded in the schema);
* ``## Documents``: one H3 per object schema whose text equals the schema's ``title``, with a
  table whose ``Field`` column names each property in backticks (the generated region
  ``fields``, :mod:`evalport_spec.specsync`);
* an allow-list comment ``<!-- rulecheck: allow `token` `OTHER_TOKEN` -->`` (anywhere outside
  code) names backtick tokens the drift check must not report.

Parsed by the package's Markdown reader (:mod:`evalport_spec.markdown`): code blocks are never
read as text, and table cells split as GitHub-flavoured Markdown splits them. Lines are 1-based.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from . import markdown
from .markdown import Heading, Table

GAP_MARK = "**Why JSON Schema does not carry it:**"
"""Opening of the paragraph that documents why the schema cannot (or does not) carry a rule."""

CARRIED_MARK = "**Carried by the schema:**"
"""Opening of the paragraph that says the schema encodes a rule."""

RULES_SECTION = "Cross-field rules"
DOCUMENTS_SECTION = "Documents"
VALIDATION_SECTION = "Validation"

_ALLOW = re.compile(r"<!--\s*rulecheck:\s*allow\b(.*?)-->", re.S)

__all__ = ["CARRIED_MARK", "DOCUMENTS_SECTION", "GAP_MARK", "Heading", "RULES_SECTION", "SpecMarkdown",
           "Table", "VALIDATION_SECTION", "parse", "ticks"]


@dataclass
class SpecMarkdown:
    """A parsed SPEC.md.

    Attributes:
        doc: the parsed Markdown (:class:`evalport_spec.markdown.Document`).
        allowed: tokens named by ``rulecheck: allow`` comments.
    """

    doc: markdown.Document
    allowed: set[str]

    @property
    def headings(self) -> list[Heading]:
        """Every heading in file order."""
        return self.doc.headings

    def section(self, title: str, level: int = 2) -> Heading | None:
        """The first heading of ``level`` whose text is ``title`` (case-insensitive), or ``None``."""
        return self.doc.section(title, level)

    def subsections(self, title: str) -> list[Heading]:
        """The H3 headings inside the H2 section ``title`` (empty if there is no such section)."""
        parent = self.section(title)
        return self.doc.children(parent) if parent is not None else []

    def tables(self, heading: Heading) -> list[Table]:
        """The tables in ``heading``'s section (sub-sections included)."""
        return self.doc.inside(heading, self.doc.tables)

    def body(self, heading: Heading) -> list[tuple[int, str]]:
        """``(line, text)`` of every line of ``heading``'s section that is neither code nor a
        heading (sub-sections included)."""
        skip = self.doc.code_lines | self.doc.heading_lines
        return [(n, self.doc.lines[n - 1]) for n in range(heading.line + 1, heading.end + 1) if n not in skip]

    def paragraph_after(self, heading: Heading, mark: str) -> tuple[int, str] | None:
        """The first paragraph of ``heading``'s section that starts with ``mark``: ``(line, the
        text after the mark with its lines joined by spaces)``, or ``None``."""
        for p in self.doc.inside(heading, self.doc.paragraphs):
            if p.source.startswith(mark):
                return p.line, " ".join(p.source[len(mark):].split())
        return None


def parse(text: str) -> SpecMarkdown:
    """Parse SPEC.md text."""
    doc = markdown.parse(text)
    comments = [b.content for b in doc.html_blocks] + [p.source for p in doc.paragraphs]
    allowed = {tok for c in comments for m in _ALLOW.finditer(c) for tok in markdown.code_spans(m.group(1))}
    return SpecMarkdown(doc, allowed)


def ticks(text: str) -> list[str]:
    """Every code span of one inline Markdown source, in order."""
    return markdown.code_spans(text)
