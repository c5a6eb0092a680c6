"""GitHub-flavoured Markdown: a pull-request comment or a job summary (``$GITHUB_STEP_SUMMARY``).

Shape:

* the first line is the breaking finding when there is one (``## MAJOR `enum-value-removed`:
  Removed enum value "x" from `type` in ResultSet``), else the title; then the title in bold
  (when the first line was the finding), the summary as a list, and the verdict;
* one ``###`` section per group of findings (:data:`~.arrange.SECTIONS` order), each a table
  ``class or severity | finding | where | stages``; a section other than compatibility with more
  than :data:`COLLAPSE_ROWS` rows is folded under ``<details>``; witnesses follow their
  section, each folded under ``<details>``;
* the checks (gate stages) as a table at the end, then the notes as quotes.
"""

from __future__ import annotations

import json

from .arrange import SECTIONS, Entry
from .describe import body, label, what, where
from .escape import html, md_cell, md_code
from .model import Report
from .table import md_table

COLLAPSE_ROWS = 10
"""A section with more rows than this (other than compatibility) is folded under ``<details>``."""


def _finding_cell(e: Entry) -> str:
    f = e.finding
    said = e.change or body(f)
    lines = [f"{md_code(what(f, said))}: {said}"]
    if e.change:
        lines.append(body(f))
    lines += [f"{label(d)}: {body(d)}" for d in e.decisions]
    if f.undecided and f.extra.get("reason"):
        lines.append(f"undecided: {f.extra['reason']}")
    return "\n".join(lines)


def _witness(e: Entry) -> list[str]:
    f = e.finding
    if f.witness is None:
        return []
    if f.direction == "forward":
        proof = "accepted by the new schema, rejected by the old"
    else:
        proof = "accepted by the old schema, rejected by the new"
    text = json.dumps(f.witness, indent=2, ensure_ascii=False, sort_keys=True, default=str)
    return ["", f"<details><summary>Witness for <code>{html(f.kind)}</code> at "
                f"<code>{html(where(f) or '-')}</code> ({proof})</summary>", "",
            "```json", text, "```", "", "</details>"]  # no JSON line starts with a backtick


def _section(key: str, entries: list[Entry]) -> list[str]:
    with_stages = any(e.stages for e in entries)
    header = ["class" if key == "compatibility" else "severity", "finding", "where"]
    header += ["stages"] if with_stages else []
    rows = []
    for e in entries:
        row = [label(e.finding), _finding_cell(e), md_code(where(e.finding)) if where(e.finding) else "-"]
        rows.append(row + ([", ".join(e.stages)] if with_stages else []))
    n = len(entries)
    out = ["", f"### {SECTIONS[key]} ({n})", ""]
    table = md_table(header, rows)
    if key != "compatibility" and n > COLLAPSE_ROWS:
        table = [f"<details><summary>{n} {html(SECTIONS[key].lower())} findings</summary>", "",
                 *table, "", "</details>"]
    out += table
    for e in entries:
        out += _witness(e)
    return out


def render_markdown(rep: Report) -> str:
    """The report as GitHub-flavoured Markdown (module docstring)."""
    out = []
    top = rep.breaking
    if top is not None:
        f = top.finding
        said = top.change or body(f)
        out.append(f"## {label(f)} {md_code(what(f, said))}: {md_cell(said)}")
        out.append("")
        if rep.title:
            out += [f"**{md_cell(rep.title)}**", ""]
    elif rep.title:
        out += [f"## {md_cell(rep.title)}", ""]
    for k, v in rep.summary.items():
        shown = md_code(v) if "class" in str(k) else md_cell(v)
        out.append(f"- **{md_cell(k)}**: {shown}")
    if rep.verdict:
        out += ["", md_cell(rep.verdict)]
    if not rep.entries:
        out += ["", "No findings."]
    for key in SECTIONS:
        group = [e for e in rep.entries if e.section == key]
        if group:
            out += _section(key, group)
    if rep.checks:
        timed = any(c.seconds is not None for c in rep.checks)
        out += ["", f"### {rep.check_noun.capitalize()}s", ""]
        out += md_table([rep.check_noun, "status",
                         *(["time"] if timed else []), "summary"],
                        [[c.name, c.status, *([f"{c.seconds or 0:.2f}s"] if timed else []), c.summary]
                         for c in rep.checks], right=[2] if timed else [])
    for n in rep.notes:
        out += ["", f"> {md_cell(n)}"]
    while out and out[0] == "":
        out.pop(0)
    return "\n".join(out) + "\n"
