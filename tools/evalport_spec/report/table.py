"""The one table writer: aligned plain-text columns and GitHub-flavoured Markdown tables.

Cells are strings. Text cells are padded to a width counted in code points (the width of a
cell is its ``len``); the last column is never padded and trailing spaces are stripped.
Markdown cells are escaped with :func:`~evalport_spec.report.escape.md_cell`, so a ``|`` or a
line break in a message never breaks the table.
"""

from __future__ import annotations

from collections.abc import Sequence

from .escape import md_cell

Row = Sequence[str]


def text_row(cells: Row, widths: Sequence[int], right: Sequence[int] = ()) -> str:
    """One line: ``cells`` joined by two spaces, each but the last padded to ``widths[i]``
    (right-aligned when ``i`` is in ``right``); a cell longer than its width is not cut."""
    out = []
    for i, cell in enumerate(cells):
        if i == len(cells) - 1:
            out.append(cell)
        elif i in right:
            out.append(cell.rjust(widths[i]))
        else:
            out.append(cell.ljust(widths[i]))
    return "  ".join(out).rstrip()


def text_table(header: Row, rows: Sequence[Row], right: Sequence[int] = ()) -> list[str]:
    """``header`` and ``rows`` as aligned lines (each column as wide as its widest cell)."""
    every = [header, *rows]
    widths = [max(len(r[i]) for r in every) for i in range(len(header))]
    return [text_row(r, widths, right) for r in every]


def md_table(header: Row, rows: Sequence[Row], right: Sequence[int] = ()) -> list[str]:
    """A GFM table: header row, delimiter row (``---:`` for the columns in ``right``) and one
    line per row, every cell escaped (:func:`~evalport_spec.report.escape.md_cell`)."""
    def line(cells: Row) -> str:
        return "| " + " | ".join(md_cell(c) for c in cells) + " |"

    delim = "| " + " | ".join("---:" if i in right else "---" for i in range(len(header))) + " |"
    return [line(header), delim, *(line(r) for r in rows)]
