"""Reporters: every command's findings in one of six formats, each written once.

Public API::

    FORMATS                                      text, json, markdown, github, junit, sarif
    Report(command, title, summary, entries, checks, data, notes, verdict)
    Report.of(findings, *, stage=None, **fields) -> Report      # arranged (order, once each)
    Check(name, status, seconds, summary)        # a step the command ran (a gate stage)
    render(report_or_findings_or_classification, fmt, *, header=None, color=None) -> str
    emit(report, fmt, *, stream=None, checks=True)   # print; github also fills the job summary
    use_color(stream) -> bool                    # the one colour rule (no-color.org)
    progress.track(...), progress.task(...)      # progress on a terminal, silent elsewhere

Engines return :class:`~evalport_spec.findings.Finding` objects and never format them; a
command builds a :class:`Report` (a typed adapter from its own result where it has one) and
emits it. The modules: :mod:`.arrange` (order, de-duplication, decisions), :mod:`.changelog`
(the sentence of a change), :mod:`.describe` (label, the one ``where``), :mod:`.escape` (one
escaper per format), :mod:`.table` (the one table writer), :mod:`.style` (the one colour rule),
and one module per format.
"""

from __future__ import annotations

from .arrange import SECTIONS, Entry
from .core import FORMATS, emit, emit_input_error, render, write_step_summary
from .model import Check, Report, as_report
from .style import use_color

__all__ = ["FORMATS", "SECTIONS", "Check", "Entry", "Report", "as_report", "emit", "emit_input_error",
           "render", "use_color", "write_step_summary"]
