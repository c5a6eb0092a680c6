"""The gate's result as a :class:`~evalport_spec.report.Report` (a typed adapter): the formats
themselves are :mod:`evalport_spec.report`'s.

What is reported: every error and warning; every compatibility finding (changes, additive ones
included, and the policy's decisions on them, shown under the finding they decide). Stages
report one finding each (``draft`` and ``base`` both classify a branch's change): it is shown
once with both stages listed. When the ``base`` stage ran, a change the ``draft`` stage reports
as information that the ``base`` stage does not (already on the base branch, not made by this
branch) is left out. A stage that gives no summary of its own is summarised by its finding
counts (:func:`stage_summary`).
"""

from __future__ import annotations

from ..findings import Finding, Severity
from ..report import FORMATS, Check, Report
from ..report import render as render_report
from ..report.arrange import arrange
from ..report.describe import is_change
from .model import GateReport, StageResult

__all__ = ["FORMATS", "gate_report", "plural", "render", "stage_summary", "to_check", "verdict"]


def plural(n: int, word: str) -> str:
    """``1, "stage" -> "1 stage"``; ``2, "stage" -> "2 stages"``."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def stage_summary(stage: StageResult) -> str:
    """The stage's own summary, else its finding counts (``"2 errors, 1 warning"``, or
    ``"no findings"``; INFO findings count as notes)."""
    if stage.summary:
        return stage.summary
    errors = sum(f.severity == Severity.ERROR for f in stage.findings)
    warnings = sum(f.severity == Severity.WARNING for f in stage.findings)
    notes = len(stage.findings) - errors - warnings
    parts = [plural(n, w) for n, w in ((errors, "error"), (warnings, "warning"), (notes, "note")) if n]
    return ", ".join(parts) if parts else "no findings"


def to_check(stage: StageResult) -> Check:
    """A stage as a report :class:`~evalport_spec.report.Check` (summary by :func:`stage_summary`)."""
    return Check(stage.name, stage.status, stage.seconds, stage_summary(stage))


def verdict(report: GateReport) -> str:
    """The closing line: passed or failed, with the class of the change under review."""
    failed = [s.name for s in report.stages if s.status == "fail"]
    cls = report.change_class
    what = f"; change class {cls.name}" if cls is not None else ""
    total = plural(len(report.stages), "stage")
    if failed:
        return f"gate: FAILED ({len(failed)} of {total}: {', '.join(failed)}){what}"
    return f"gate: passed ({total}){what}"


def _shown(f: Finding) -> bool:
    return f.severity >= Severity.WARNING or is_change(f) or isinstance(f.extra.get("finding"), str)


def gate_report(report: GateReport) -> Report:
    """The report of a gate run (module docstring); ``data`` is ``GateReport.to_json()``."""
    base = report.stage("base")
    on_branch = ({f.fingerprint for f in base.findings}
                 if base is not None and base.status != "skip" else None)
    pairs = []
    for s in report.stages:
        for f in s.findings:
            if not _shown(f):
                continue
            if (on_branch is not None and s.name == "draft" and f.severity == Severity.INFO
                    and f.fingerprint not in on_branch):
                continue
            pairs.append((f, s.name))
    summary = {}
    if report.change_class is not None:
        against = f" against {report.base}" if report.base else ""
        summary[f"change class{against}"] = report.change_class.name
    return Report(command="check", title=f"EvalPort spec gate: {'passed' if report.ok else 'failed'}",
                  summary=summary, entries=arrange(pairs), checks=[to_check(s) for s in report.stages],
                  data=report.to_json(), verdict=verdict(report))


def render(report: GateReport, fmt: str, *, color: bool = False) -> str:
    """The gate report in ``fmt`` (one of :data:`FORMATS`).

    Raises:
        ValueError: unknown format.
    """
    return render_report(gate_report(report), fmt, color=color)
