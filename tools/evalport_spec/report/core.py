"""The format dispatcher and the writer every command prints its report with."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from typing import Any, TextIO

from ..errors import InputError
from ..names import REPORT_FORMATS
from .model import Report, as_report
from .style import use_color

FORMATS = REPORT_FORMATS
"""Every output format, in the order ``--format`` lists them."""

STEP_SUMMARY = "GITHUB_STEP_SUMMARY"
"""Environment variable naming the file GitHub Actions shows as the job summary."""


def _renderer(fmt: str) -> Callable[..., str]:
    """The writer of ``fmt``, imported when first asked for (a command loads only the format
    it prints: no XML library for a text report)."""
    if fmt == "text":
        from .text import render_text as out
    elif fmt == "json":
        from .jsonout import render_json as out
    elif fmt == "markdown":
        from .markdown import render_markdown as out
    elif fmt == "github":
        from .github import render_github as out
    elif fmt == "junit":
        from .junit import render_junit as out
    elif fmt == "sarif":
        from .sarif import render_sarif as out
    else:
        raise ValueError(f"unknown format {fmt!r} (expected one of {', '.join(FORMATS)})")
    return out


def render(obj: Any, fmt: str = "text", *, header: dict[str, Any] | None = None,
           color: bool | None = None) -> str:
    """``obj`` (a :class:`Report`, a list of findings or a diff classification:
    :func:`~.model.as_report`) in ``fmt``, one of :data:`FORMATS`. Colour (``text`` only)
    defaults to :func:`~.style.use_color` of standard output.

    Raises:
        ValueError: unknown format.
    """
    rep = as_report(obj, header)
    if fmt == "text":
        return _renderer(fmt)(rep, use_color() if color is None else color)
    return _renderer(fmt)(rep)


def write_step_summary(markdown: str, environ: dict[str, str] | None = None) -> bool:
    """Append ``markdown`` to the file ``$GITHUB_STEP_SUMMARY`` names, if it is set. Returns
    whether it was written; a file that cannot be written is reported on standard error (one
    line) and the command goes on."""
    path = (os.environ if environ is None else environ).get(STEP_SUMMARY)
    if not path:
        return False
    try:
        with open(path, "a", encoding="utf-8") as fh:
            fh.write(markdown)
    except OSError as exc:
        print(f"evalport-spec: warning: cannot write the job summary {path}: {exc.strerror or exc}",
              file=sys.stderr)
        return False
    return True


def emit(obj: Any, fmt: str, *, stream: TextIO | None = None, checks: bool = True) -> None:
    """Write ``obj`` in ``fmt`` to ``stream`` (default standard output), coloured by the one
    colour rule. With ``github``, the full Markdown report is first appended to
    ``$GITHUB_STEP_SUMMARY`` when that is set (:func:`write_step_summary`), and the closing
    notice says so. ``checks=False`` leaves the check lines out of ``text`` (a command that
    printed them as they finished)."""
    stream = sys.stdout if stream is None else stream
    rep = as_report(obj)
    if fmt == "text":
        stream.write(_renderer(fmt)(rep, use_color(stream), checks=checks))
    elif fmt == "github":
        markdown = _renderer("markdown")(rep)
        stream.write(_renderer(fmt)(rep, summary_written=write_step_summary(markdown)))
    else:
        stream.write(render(rep, fmt))
    stream.flush()


def emit_input_error(exc: InputError, fmt: str, *, command: str, title: str,
                     stream: TextIO | None = None) -> None:
    """Answer an input error (the command then exits 2) in a machine format as ``validate``
    does: a report of ``command`` titled ``title`` whose one finding is the error (an
    ``input-error`` at its file, line, column and pointer: :func:`~evalport_spec.findings.input_finding`),
    so a consumer of ``--format json|sarif|junit|github|markdown`` reads why instead of an empty
    output. ``text`` writes nothing: the one line on standard error says it all."""
    if fmt != "text":
        from ..findings import input_finding  # (only an input error: dataclasses stay unloaded)

        emit(Report.of([input_finding(exc)], command=command, title=title, verdict="input error"),
             fmt, stream=stream)
