"""Plain text for a terminal or a log.

Shape: one line per check (``✓  schemas        0.12s  5 version(s)``, ``ok`` for ``✓`` without
colour; printed first, so a command can print them as they finish); the title and
``  label: value`` summary lines; one line per entry,
``where: LABEL kind: sentence [stages]``, with indented detail lines (the message under a
changelog sentence, the location in the old file, decisions, why undecided, the witness, a
witness that holds in the ECMA-262 reading only, an unverified proof); the notes; the verdict (or ``no findings``). Colour follows :func:`~.style.use_color`.
"""

from __future__ import annotations

import json

from . import escape
from .arrange import Entry
from .describe import body, label, place, what, where
from .model import Check, Report
from .style import mark, paint
from .table import text_row

WITNESS_CHARS = 300
"""Longest witness shown inline (longer ones end in ``...``; ``--format json`` has them whole)."""


def witness_text(witness: object, limit: int = WITNESS_CHARS) -> str:
    """A witness as one line of sorted-key JSON, cut to ``limit`` characters."""
    s = json.dumps(witness, ensure_ascii=False, sort_keys=True, default=str)
    return s if len(s) <= limit else s[: limit - 3] + "..."


def check_line(check: Check, color: bool = False) -> str:
    """One check as ``MARK name seconds summary`` (name padded to 12, seconds to 7; no
    seconds column for a check that was not timed)."""
    cells = [mark(check.status, color), escape.text(check.name)]
    if check.seconds is not None:
        cells.append(f"{check.seconds:.2f}s")
    return text_row([*cells, escape.text(check.summary)], [0 if color else 4, 12, 7], right=[2])


def entry_lines(e: Entry, color: bool = False) -> list[str]:
    """The lines of one entry (module docstring)."""
    f = e.finding
    lab = label(f)
    said = e.change or body(f)
    text = escape.text(f"{what(f, said)}: {said}")
    if e.stages:
        text += f" [{', '.join(e.stages)}]"
    w = escape.text(where(f))
    head = f"{paint(lab, lab, color)} {text}"
    details = []
    if e.change:
        details.append(body(f))
    if f.old and f.new and place(f.old) != place(f.new):
        details.append(f"old: {place(f.old)}")
    details += [f"{label(d)}: {body(d)}" for d in e.decisions]
    if f.undecided and f.extra.get("reason"):
        details.append(f"undecided: {f.extra['reason']}")
    if f.witness is not None:
        details.append(f"witness: {witness_text(f.witness)}")
    if f.extra.get("witness_reading") == "ecma-262":
        details.append("witness holds in the ECMA-262 reading of 'pattern' only: plain python-jsonschema "
                       "(Python re) judges it otherwise")
    if f.extra.get("proof") == "unverified":
        details.append("proof: unverified (no document shows it; kept, fail closed)")
    if isinstance(f.extra.get("diff"), str):  # a unified diff the fix would apply (spec sync)
        details += f.extra["diff"].splitlines()
    return [f"{w}: {head}" if w else head, *(f"    {escape.text(d)}" for d in details)]


def render_text(rep: Report, color: bool = False, *, checks: bool = True) -> str:
    """The report as text (module docstring); ``checks=False`` leaves out the check lines (a
    command that printed them as they finished)."""
    lines = [check_line(c, color) for c in rep.checks] if checks else []
    if rep.title:
        lines.append(escape.text(rep.title))
    for k, v in rep.summary.items():
        lines.append(escape.text(f"  {k}: ") + paint(escape.text(v), str(v), color))
    for e in rep.entries:
        lines += entry_lines(e, color)
    lines += [escape.text(n) for n in rep.notes]
    if rep.verdict:
        lines.append(rep.verdict)
    elif not rep.entries:
        lines.append("no findings")
    return "\n".join(lines) + "\n"
