"""Rendering a :class:`~evalport_spec.gate.model.GateReport`: text (one line per stage, then the
failing findings as ``path:line: message``), json, markdown (job summary / PR comment), github
(workflow-command annotations) and junit (one test case per stage, warnings in ``<system-out>``).
A stage that gives no summary of its own is summarised by its finding counts
(:func:`stage_summary`).

Colour and the ``✓``/``✗`` marks are used only when writing to a terminal with ``NO_COLOR``
unset (no-color.org); otherwise the marks are plain ASCII words.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any, TextIO
from xml.etree import ElementTree as ET

from ..findings import ChangeClass, Finding, Severity
from .model import GateReport, StageResult

FORMATS = ("text", "json", "markdown", "github", "junit")

_FANCY = {"ok": ("✓", "32"), "fail": ("✗", "31"), "warn": ("!", "33"), "skip": ("-", "90")}
_PLAIN = {"ok": "ok  ", "fail": "FAIL", "warn": "warn", "skip": "skip"}
_WIDTH = 12


def use_fancy(stream: TextIO | None = None) -> bool:
    """True when ``stream`` (default stdout) is a terminal and ``NO_COLOR`` is unset or empty."""
    stream = stream or sys.stdout
    return bool(getattr(stream, "isatty", lambda: False)()) and not os.environ.get("NO_COLOR")


def where(f: Finding) -> str:
    """``path:line`` (or ``path``, or the pointer) of a finding's primary location, '' if none."""
    loc = f.where()
    if loc is None:
        return ""
    text = loc.render()
    if loc.file and not loc.line and loc.pointer:
        text = f"{loc.file}#{loc.pointer}"
    return text


def finding_line(f: Finding) -> str:
    """``path:line: message`` (or just the message when the finding has no location)."""
    w = where(f)
    return f"{w}: {f.message}" if w else f.message


def _witness(f: Finding, limit: int = 300) -> str | None:
    if f.witness is None:
        return None
    text = json.dumps(f.witness, ensure_ascii=False, sort_keys=True)
    return text if len(text) <= limit else text[: limit - 3] + "..."


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


def shown_findings(stage: StageResult) -> list[Finding]:
    """What the text output details for a stage: errors of a failing stage, warnings of a
    warning one, nothing otherwise."""
    if stage.status == "fail":
        return [f for f in stage.findings if f.severity == Severity.ERROR]
    if stage.status == "warn":
        return [f for f in stage.findings if f.severity == Severity.WARNING]
    return []


def render_stage_text(stage: StageResult, fancy: bool) -> str:
    """The stage line (``✓ schemas      0.12s  summary``) and its detail lines."""
    secs = f"{stage.seconds:.2f}s"
    if fancy:
        mark, colour = _FANCY[stage.status]
        head = f"\x1b[{colour}m{mark}\x1b[0m {stage.name:<{_WIDTH}} {secs:>7}"
    else:
        head = f"{_PLAIN[stage.status]} {stage.name:<{_WIDTH}} {secs:>7}"
    head += f"  {stage_summary(stage)}"
    lines = [head]
    for f in shown_findings(stage):
        lines.append(f"    {finding_line(f)}")
        w = _witness(f)
        if w:
            lines.append(f"      witness: {w}")
    return "\n".join(lines)


def render_footer_text(report: GateReport) -> str:
    """The closing line: passed or failed, with the class of the change under review."""
    failed = [s.name for s in report.stages if s.status == "fail"]
    cls = report.change_class
    what = f"; change class {cls.name}" if cls is not None else ""
    total = plural(len(report.stages), "stage")
    if failed:
        return f"gate: FAILED ({len(failed)} of {total}: {', '.join(failed)}){what}"
    return f"gate: passed ({total}){what}"


def render_text(report: GateReport, fancy: bool = False) -> str:
    """Every stage (lines and details) and the footer."""
    return "\n".join([render_stage_text(s, fancy) for s in report.stages] + [render_footer_text(report)]) + "\n"


def render_json(report: GateReport) -> str:
    """``GateReport.to_json()`` as indented JSON."""
    return json.dumps(report.to_json(), indent=2, ensure_ascii=False) + "\n"


def _md_cell(text: Any) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def render_markdown(report: GateReport) -> str:
    """GitHub-flavoured Markdown for a job summary or PR comment: verdict and class, a stage
    table, and a findings table of every error and warning, witnesses folded in ``<details>``."""
    cls = report.change_class
    verdict = "passed" if report.ok else "failed"
    lines = [f"## EvalPort spec gate: {verdict}", ""]
    if cls is not None:
        against = f" against `{report.base}`" if report.base else ""
        lines += [f"**Change class{against}: {cls.name}**", ""]
    lines += ["| stage | status | time | summary |", "| --- | --- | ---: | --- |"]
    for s in report.stages:
        lines.append(f"| {s.name} | {s.status} | {s.seconds:.2f}s | {_md_cell(stage_summary(s))} |")
    rows = [(s, f) for s in report.stages for f in s.findings if f.severity >= Severity.WARNING]
    if rows:
        lines += ["", "### Findings", "", "| stage | severity | kind | class | where | message |",
                  "| --- | --- | --- | --- | --- | --- |"]
        for s, f in rows:
            cls_cell = f.change_class.name if f.change_class != ChangeClass.NONE else "—"
            lines.append(f"| {s.name} | {f.severity} | `{f.kind}` | {cls_cell} | "
                         f"{_md_cell(where(f))} | {_md_cell(f.message)} |")
        shown: set[tuple[str, str, str]] = set()  # draft and base stages may prove one finding
        for s, f in rows:
            if f.witness is None:
                continue
            body = json.dumps(f.witness, indent=2, ensure_ascii=False, sort_keys=True)
            if (f.kind, where(f), body) in shown:
                continue
            shown.add((f.kind, where(f), body))
            lines += ["", f"<details><summary>Witness for <code>{f.kind}</code> at "
                          f"<code>{_md_cell(where(f))}</code> ({s.name} stage: valid before, invalid after)</summary>", "",
                      "```json", body, "```", "", "</details>"]
    return "\n".join(lines) + "\n"


def _gh_escape(text: str, prop: bool = False) -> str:
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    return text.replace(":", "%3A").replace(",", "%2C") if prop else text


def render_github(report: GateReport) -> str:
    """GitHub Actions workflow commands: ``::error file=F,line=L,title=T::message`` per error
    finding (``::warning`` for warnings), then a ``::notice`` with the verdict."""
    out = []
    for s in report.stages:
        for f in s.findings:
            if f.severity < Severity.WARNING:
                continue
            level = "error" if f.severity == Severity.ERROR else "warning"
            props = []
            loc = f.where()
            if loc and loc.file and ":" not in loc.file:
                props.append(f"file={_gh_escape(loc.file, True)}")
                if loc.line:
                    props.append(f"line={loc.line}")
            props.append(f"title={_gh_escape(f'evalport-spec {s.name}: {f.kind}', True)}")
            out.append(f"::{level} {','.join(props)}::{_gh_escape(finding_line(f))}")
    out.append(f"::notice title=evalport-spec check::{_gh_escape(render_footer_text(report))}")
    return "\n".join(out) + "\n"


def render_junit(report: GateReport) -> str:
    """JUnit XML: one ``<testsuite name="evalport-spec check">`` with a ``<testcase>`` per stage;
    a failing stage has a ``<failure>`` listing its error findings, a skipped one ``<skipped>``
    (with the reason as its message), and any stage with warnings a ``<system-out>`` listing them
    one per line as ``warning: path:line: message`` (a warning never fails a test case, but CI
    viewers show the test case's output)."""
    suite = ET.Element("testsuite", name="evalport-spec check", tests=str(len(report.stages)),
                       failures=str(sum(s.status == "fail" for s in report.stages)),
                       skipped=str(sum(s.status == "skip" for s in report.stages)),
                       time=f"{sum(s.seconds for s in report.stages):.3f}")
    for s in report.stages:
        case = ET.SubElement(suite, "testcase", classname="evalport-spec.check", name=s.name,
                             time=f"{s.seconds:.3f}")
        if s.status == "fail":
            errs = s.errors
            fail = ET.SubElement(case, "failure", message=f"{len(errs)} error(s)" if errs else s.summary,
                                 type="gate-stage-failed")
            fail.text = "\n".join(finding_line(f) for f in errs) or s.summary
        elif s.status == "skip":
            ET.SubElement(case, "skipped", message=s.summary)
        warnings = [f for f in s.findings if f.severity == Severity.WARNING]
        if warnings:
            out = ET.SubElement(case, "system-out")
            out.text = "\n".join(f"warning: {finding_line(f)}" for f in warnings)
    ET.indent(suite)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(suite, encoding="unicode") + "\n"


def render(report: GateReport, fmt: str, *, fancy: bool = False) -> str:
    """The report in ``fmt`` (one of :data:`FORMATS`).

    Raises:
        ValueError: unknown format.
    """
    if fmt == "text":
        return render_text(report, fancy)
    renderers = {"json": render_json, "markdown": render_markdown, "github": render_github,
                 "junit": render_junit}
    if fmt not in renderers:
        raise ValueError(f"unknown format {fmt!r} (expected one of {', '.join(FORMATS)})")
    return renderers[fmt](report)
