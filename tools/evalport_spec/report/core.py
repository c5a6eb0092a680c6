"""The generic report model and the format dispatcher (see the package docstring)."""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field
from typing import Any

from ..findings import Finding

FORMATS = ("text", "json", "markdown", "github", "junit")


@dataclass
class Report:
    """What every reporter renders: a title, optional summary fields, and the findings.

    Attributes:
        title: one line, e.g. ``"evalport-spec diff 1.1.0 -> 1.2.0"``.
        summary: ordered ``{label: value}`` shown under the title (class, counts, ...).
        findings: the findings, in the order given.
        data: the machine-readable payload for ``json`` (default: summary + findings).
        notes: extra lines (ignore-file bookkeeping, skipped items).
    """

    title: str = ""
    summary: dict[str, Any] = field(default_factory=dict)
    findings: list[Finding] = field(default_factory=list)
    data: dict[str, Any] | None = None
    notes: list[str] = field(default_factory=list)


def use_color(stream: Any = None) -> bool:
    """Colour only when ``stream`` (default stdout) is a TTY and ``NO_COLOR`` is unset/empty."""
    stream = stream or sys.stdout
    if os.environ.get("NO_COLOR"):
        return False
    try:
        return bool(stream.isatty())
    except Exception:
        return False


def as_report(obj: Any, header: dict[str, Any] | None = None) -> Report:
    """Turn a findings list, a :class:`Report` or a diff ``Classification`` into a :class:`Report`."""
    if isinstance(obj, Report):
        rep = obj
    elif hasattr(obj, "change_class") and hasattr(obj, "findings"):
        what = "diff" if "rule_findings" in obj.stats else "schema diff"  # versions: rules too
        rep = Report(title=f"{what} {obj.old_label} -> {obj.new_label}",
                     summary={"class": str(obj.change_class), "forward class": str(obj.forward_class),
                              "findings": len(obj.findings)},
                     findings=list(obj.findings), data=obj.to_json())
        ign = getattr(obj, "ignored", None) or {}
        for key in ("used", "stale", "expired"):
            for e in ign.get(key, []):
                rep.notes.append(f"ignore entry {key}: {e.get('kind')} {e.get('pointer', '')} "
                                 f"({e.get('reason', '')})")
    else:
        rep = Report(findings=list(obj))
    if header:
        rep.title = header.get("title", rep.title)
        rep.summary.update({k: v for k, v in header.items() if k != "title"})
    return rep


def render(obj: Any, fmt: str = "text", *, header: dict[str, Any] | None = None,
           color: bool | None = None) -> str:
    """Render findings (see the package docstring) in ``fmt`` (one of :data:`FORMATS`).

    Raises:
        ValueError: unknown format.
    """
    rep = as_report(obj, header)
    if fmt == "text":
        from .text import render_text
        return render_text(rep, use_color() if color is None else color)
    if fmt == "json":
        from .formats import render_json
        return render_json(rep)
    if fmt == "markdown":
        from .formats import render_markdown
        return render_markdown(rep)
    if fmt == "github":
        from .formats import render_github
        return render_github(rep)
    if fmt == "junit":
        from .formats import render_junit
        return render_junit(rep)
    raise ValueError(f"unknown format {fmt!r} (expected one of {', '.join(FORMATS)})")
