"""GitHub Actions workflow commands (``::error file=F,line=L,title=T::message``).

GitHub shows only about ten annotations of a kind per step, so at most :data:`ANNOTATION_CAP`
entries are annotated, the most severe first (errors, then warnings, then notices; report
order inside each: compatibility first, MAJOR first); one closing ``::notice`` gives the
verdict and how many were left out and where the rest is (the job summary, when
:func:`~evalport_spec.report.emit` wrote it there).

Levels follow :func:`~.describe.acted_severity`: error, warning, notice (so an additive
MINOR change is a notice at the file and line that changed). An entry located in a file of
the working tree is annotated there (``file=``, ``line=``, and ``col=`` when the engine gave
``extra["column"]``); one located elsewhere (``REV:path``) names its place in the message.
"""

from __future__ import annotations

from ..findings import Severity
from .arrange import Entry
from .describe import body, column, label, what, where, workspace_file
from .escape import gh_data, gh_property
from .model import Report

ANNOTATION_CAP = 10
"""Most annotations written for one report."""

_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}


def annotation(e: Entry) -> str:
    """One workflow command for an entry (module docstring)."""
    f = e.finding
    props = []
    spot = workspace_file(f)
    if spot is not None:
        props.append(f"file={gh_property(spot[0])}")
        if spot[1]:
            props.append(f"line={spot[1]}")
            col = column(f)
            if col:
                props.append(f"col={col}")
    title = f"{label(f)} {what(f)}" + (f" ({', '.join(e.stages)})" if e.stages else "")
    props.append(f"title={gh_property(title)}")
    lines = [e.change] if e.change else []
    lines.append(body(f))
    lines += [f"{label(d)}: {body(d)}" for d in e.decisions]
    if spot is None and where(f):
        lines.append(f"at {where(f)}")
    return f"::{_LEVEL[e.severity]} {','.join(props)}::{gh_data(chr(10).join(lines))}"


def render_github(rep: Report, *, cap: int = ANNOTATION_CAP, summary_written: bool = False) -> str:
    """The annotations (at most ``cap``, most severe first) and the closing notice."""
    ranked = sorted(rep.entries, key=lambda e: -e.severity)
    lines = [annotation(e) for e in ranked[:cap]]
    tail = []
    if rep.verdict:
        tail.append(rep.verdict)
    left = len(ranked) - len(lines)
    if left:
        where_rest = ("the job summary has the full report" if summary_written
                      else "`--format markdown` writes the full report")
        tail.append(f"{left} more finding{'s' if left != 1 else ''} not annotated (the "
                    f"{len(lines)} most severe are); {where_rest}")
    if tail:
        name = f"evalport-spec {rep.command}".strip()
        lines.append(f"::notice title={gh_property(name)}::{gh_data('; '.join(tail))}")
    return "\n".join(lines) + ("\n" if lines else "")
