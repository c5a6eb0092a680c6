"""Plain-text reporter: ``location: CLASS kind: message``, witnesses indented."""

from __future__ import annotations

import json

from ..findings import ChangeClass, Finding, Severity
from .core import Report

_COL = {"MAJOR": "\033[31m", "MINOR": "\033[33m", "PATCH": "\033[32m", "error": "\033[31m",
        "warning": "\033[33m", "info": "\033[36m"}
_RESET = "\033[0m"


def label(f: Finding) -> str:
    """``MAJOR`` etc. for diff findings, the severity otherwise; ``UNDECIDED`` when undecided."""
    if f.undecided:
        return "UNDECIDED"
    if f.change_class != ChangeClass.NONE:
        return str(f.change_class)
    return str(f.severity)


def where(f: Finding) -> str:
    """``file:line`` (or pointer) of the finding's primary location, or ``-``."""
    loc = f.where()
    if loc is None:
        return "-"
    text = loc.render()
    if loc.pointer and loc.file:
        text += f" ({loc.pointer or '/'})"
    return text or "-"


def render_text(rep: Report, color: bool = False) -> str:
    """The report as lines of plain text (ANSI colour only when ``color``)."""
    def paint(s: str, key: str) -> str:
        c = _COL.get(key) or _COL.get("MAJOR" if key == "UNDECIDED" else "")
        return f"{c}{s}{_RESET}" if color and c else s

    lines = []
    if rep.title:
        lines.append(rep.title)
    for k, v in rep.summary.items():
        lines.append(f"  {k}: {paint(str(v), str(v)) if k in ('class', 'forward class') else v}")
    for f in rep.findings:
        lab = label(f)
        lines.append(f"{where(f)}: {paint(lab, lab)} {f.kind}: {f.message}")
        if f.old and f.new and f.old.file != f.new.file:
            lines.append(f"    old: {f.old.render()} ({f.old.pointer}); new: {f.new.render()} ({f.new.pointer})")
        if f.undecided and f.extra.get("reason"):
            lines.append(f"    undecided: {f.extra['reason']}")
        if f.witness is not None:
            lines.append(f"    witness: {json.dumps(f.witness, sort_keys=True)[:400]}")
    lines.extend(rep.notes)
    if not rep.findings:
        lines.append("no findings")
    return "\n".join(lines) + "\n"


__all__ = ["render_text", "label", "where", "Severity"]
