"""Generated regions of SPEC.md: the text between a start and an end marker, each an HTML
comment on a line of its own (an HTML block, CommonMark 4.6), outside code::

    <!-- evalport:generated fields resultset.Result -->

    | Field | Type | ... |

    <!-- /evalport:generated -->

The id after ``evalport:generated`` names what the region holds (:mod:`.fields`, :mod:`.facts`).
Everything outside the regions is hand-written prose.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..errors import InputError
from ..markdown import parse

START = re.compile(r"^<!--[ \t]*evalport:generated[ \t]+(?P<id>[^\s>][^>\n]*?)[ \t]*-->$")
END = re.compile(r"^<!--\s*/evalport:generated\s*-->$")
END_MARKER = "<!-- /evalport:generated -->"
MARKER_LIKE = re.compile(r"^<!--\s*/?evalport:generated\b")
"""The first line of something meant as a marker (then malformed when START and END miss)."""


def start_marker(region: str) -> str:
    """The start marker line of ``region``."""
    return f"<!-- evalport:generated {region} -->"


def wrap(region: str, body: list[str]) -> list[str]:
    """A whole region as lines: start marker, blank, body, blank, end marker."""
    return [start_marker(region), "", *body, "", END_MARKER]


@dataclass(frozen=True)
class Region:
    """One region: its id and the lines of its start and end markers (1-based)."""

    id: str
    start: int
    end: int

    def body(self, lines: list[str]) -> str:
        """The text between the markers."""
        return "\n".join(lines[self.start:self.end - 1])

    def covers(self, line: int) -> bool:
        """Whether ``line`` lies in the region, markers included."""
        return self.start <= line <= self.end


def find(text: str, label: str) -> list[Region]:
    """Every region of ``text``, in file order.

    Raises:
        InputError: a malformed marker (not one line, no ``-->``), a start marker inside a
            region, an end marker without a start, a region never closed, or two regions with
            one id (``label:line``).
    """
    out: list[Region] = []
    open_at: tuple[str, int] | None = None
    seen: dict[str, int] = {}
    for block in parse(text).html_blocks:
        marker = block.content.strip()
        start, end = START.match(marker), END.match(marker)
        first = marker.split("\n", 1)[0]
        if not (start or end) and MARKER_LIKE.match(first):
            raise InputError(f"malformed generated-region marker {first[:60]!r}: a marker is one line, "
                             f"'<!-- evalport:generated ID -->' or '{END_MARKER}'", label, block.line)
        if start:
            if open_at is not None:
                raise InputError(f"generated region '{start['id']}' starts inside region "
                                 f"'{open_at[0]}' (line {open_at[1]}), which has no end marker yet",
                                 label, block.line)
            if start["id"] in seen:
                raise InputError(f"generated region '{start['id']}' appears twice (first at line "
                                 f"{seen[start['id']]})", label, block.line)
            open_at = (start["id"], block.line)
            seen[start["id"]] = block.line
        elif end:
            if open_at is None:
                raise InputError(f"'{END_MARKER}' without a start marker", label, block.line)
            out.append(Region(open_at[0], open_at[1], block.line))
            open_at = None
    if open_at is not None:
        raise InputError(f"generated region '{open_at[0]}' has no end marker '{END_MARKER}'",
                         label, open_at[1])
    return out
