"""Machine and CI formats: JSON, Markdown (a PR comment), GitHub workflow commands, JUnit XML."""

from __future__ import annotations

import json
from xml.sax.saxutils import escape, quoteattr

from ..findings import ChangeClass, Severity
from .core import Report
from .text import label, where


def render_json(rep: Report) -> str:
    """``data`` if the report has it, else ``{"title", "summary", "findings"}``; stable key order."""
    data = rep.data if rep.data is not None else {
        "title": rep.title, "summary": rep.summary, "findings": [f.to_json() for f in rep.findings]}
    return json.dumps(data, indent=2, sort_keys=False, default=str) + "\n"


def _md_cell(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def render_markdown(rep: Report) -> str:
    """A PR comment: title, summary, a table of findings, witnesses in ``<details>`` blocks."""
    out = []
    if rep.title:
        out.append(f"### {rep.title}\n")
    for k, v in rep.summary.items():
        out.append(f"- **{k}**: {'`' + str(v) + '`' if k in ('class', 'forward class') else v}")
    if rep.summary:
        out.append("")
    if not rep.findings:
        out.append("No findings.")
    else:
        out.append("| class | kind | location | message |")
        out.append("| --- | --- | --- | --- |")
        for f in rep.findings:
            out.append(f"| {label(f)} | `{f.kind}` | `{_md_cell(where(f))}` | {_md_cell(f.message)} |")
        witnessed = [f for f in rep.findings if f.witness is not None]
        for f in witnessed:
            out.append("")
            out.append(f"<details><summary>witness for <code>{escape(f.kind)}</code> at "
                       f"<code>{escape(where(f))}</code></summary>\n")
            out.append("```json")
            out.append(json.dumps(f.witness, indent=2, sort_keys=True))
            out.append("```\n</details>")
    for n in rep.notes:
        out.append(f"\n> {n}")
    return "\n".join(out) + "\n"


def _gh_escape(s: str, prop: bool = False) -> str:
    s = s.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    if prop:
        s = s.replace(":", "%3A").replace(",", "%2C")
    return s


def render_github(rep: Report) -> str:
    """GitHub Actions workflow commands: ``::error file=F,line=L,title=KIND::message``
    (MAJOR/undecided/error -> error, MINOR/warning -> warning, else notice)."""
    lines = []
    for f in rep.findings:
        if f.undecided or f.change_class == ChangeClass.MAJOR or (
                f.change_class == ChangeClass.NONE and f.severity == Severity.ERROR):
            level = "error"
        elif f.change_class == ChangeClass.MINOR or f.severity == Severity.WARNING:
            level = "warning"
        else:
            level = "notice"
        loc = f.where()
        props = []
        if loc and loc.file:
            props.append(f"file={_gh_escape(loc.file, True)}")
            if loc.line:
                props.append(f"line={loc.line}")
        props.append(f"title={_gh_escape(f.kind, True)}")
        lines.append(f"::{level} {','.join(props)}::{_gh_escape(f.message)}")
    return "\n".join(lines) + ("\n" if lines else "")


def render_junit(rep: Report) -> str:
    """JUnit XML: one ``<testcase>`` per finding (failure when MAJOR/undecided/error), or one
    passing test case when there are none."""
    fails = [f for f in rep.findings if f.undecided or f.change_class == ChangeClass.MAJOR
             or (f.change_class == ChangeClass.NONE and f.severity == Severity.ERROR)]
    name = rep.title or "evalport-spec"
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           f'<testsuites><testsuite name={quoteattr(name)} tests="{max(len(rep.findings), 1)}" '
           f'failures="{len(fails)}">']
    if not rep.findings:
        out.append(f'<testcase classname="evalport-spec" name={quoteattr(name)}/>')
    for f in rep.findings:
        case = f'<testcase classname={quoteattr(f.kind)} name={quoteattr(where(f) + " " + f.fingerprint)}'
        if f in fails:
            body = f.message + ("\nwitness: " + json.dumps(f.witness, sort_keys=True) if f.witness is not None else "")
            out.append(f'{case}><failure type={quoteattr(label(f))} message={quoteattr(f.message)}>'
                       f'{escape(body)}</failure></testcase>')
        else:
            out.append(f'{case}><system-out>{escape(label(f) + ": " + f.message)}</system-out></testcase>')
    out.append("</testsuite></testsuites>")
    return "\n".join(out) + "\n"
