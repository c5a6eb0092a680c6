"""JSON: the command's own payload with ``findings`` set to the arranged findings.

Every ``--format json`` output is one object valid against ``data/report.schema.json``: the
command's payload (:attr:`~.model.Report.data`; ``{"command", "title", "summary"}`` for a plain
list of findings) whose ``findings`` member holds every reported finding once, in report order
(:mod:`.arrange`), each decision right after the finding it decides, each with ``section`` and,
where set, ``stages`` and ``change``. Keys keep their insertion order; output is stable.
"""

from __future__ import annotations

import json
from typing import Any

from .model import Report

REPORT_SCHEMA = "report.schema.json"
"""File name, under the package's ``data/``, of the JSON Schema of this output."""


def to_json(rep: Report) -> dict[str, Any]:
    """The JSON object (module docstring)."""
    if rep.data is not None:
        data = dict(rep.data)
    else:
        data = {"command": rep.command, "title": rep.title, "summary": dict(rep.summary)}
    data["findings"] = [j for e in rep.entries for j in e.to_json()]
    return data


def render_json(rep: Report) -> str:
    """:func:`to_json` as two-space indented JSON (non-ASCII kept as is)."""
    return json.dumps(to_json(rep), indent=2, ensure_ascii=False, default=str) + "\n"
