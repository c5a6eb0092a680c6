"""Reporters: findings rendered as text, json, markdown, GitHub workflow commands or JUnit XML.

``render(findings_or_classification, fmt, *, header=None, color=None) -> str`` takes either a
list of :class:`~evalport_spec.findings.Finding` (any command's) or a compatibility
:class:`~evalport_spec.compat.Classification` (whose class, labels and ignore bookkeeping become
the header). ``header`` is an optional ``{"title": str, "class": str, ...}`` mapping shown above
the findings. Colour is used in ``text`` only, and only when ``color`` is true (default:
:func:`use_color`, i.e. stdout is a terminal and ``NO_COLOR`` is unset, per no-color.org).
"""

from __future__ import annotations

from .core import FORMATS, Report, as_report, render, use_color

__all__ = ["FORMATS", "Report", "as_report", "render", "use_color"]
