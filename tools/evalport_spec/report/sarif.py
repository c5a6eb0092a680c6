"""SARIF 2.1.0 (OASIS standard, errata 01) for GitHub code scanning and other SARIF viewers.

One run whose tool is ``evalport-spec``; one reporting descriptor (``rules[]``) per finding kind;
one result per entry with:

* ``ruleId``/``ruleIndex``; ``level`` ``error``, ``warning`` or ``note`` from
  :func:`~.describe.acted_severity`; ``message.text``: the changelog sentence, the message and
  the decisions, one per line;
* ``locations``: the primary location when it is a file of the working tree, as a URI relative to
  ``%SRCROOT%`` (percent-encoded, RFC 3986) with ``region.startLine`` (and ``startColumn`` from
  ``extra["column"]``); none for a finding without one;
* ``partialFingerprints["evalportFingerprint/v1"]``: the finding's fingerprint, so code scanning
  tracks it across commits;
* ``properties``: class, section, stages, JSON Pointer, item, witness and ``extra`` as given.
"""

from __future__ import annotations

import json
from pathlib import PurePosixPath
from typing import Any
from urllib.parse import quote

from .. import __version__
from ..findings import Severity
from .arrange import Entry
from .describe import body, column, label, workspace_file
from .model import Report

SARIF_SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
"""The ``$schema`` the log names (the OASIS schema, errata 01)."""

_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}


def _uri(path: str) -> str:
    p = path.replace("\\", "/")
    if PurePosixPath(p).is_absolute():
        return "file://" + quote(p)
    return quote(p)


def _result(e: Entry, rule_index: int) -> dict[str, Any]:
    f = e.finding
    text = [e.change] if e.change else []
    text.append(body(f))
    text += [f"{label(d)}: {body(d)}" for d in e.decisions]
    out: dict[str, Any] = {"ruleId": f.kind, "ruleIndex": rule_index, "level": _LEVEL[e.severity],
                           "message": {"text": "\n".join(text)}}
    spot = workspace_file(f)
    if spot is not None:
        physical: dict[str, Any] = {"artifactLocation": {"uri": _uri(spot[0])}}
        if not PurePosixPath(spot[0].replace("\\", "/")).is_absolute():
            physical["artifactLocation"]["uriBaseId"] = "%SRCROOT%"
        if spot[1]:
            region: dict[str, Any] = {"startLine": spot[1]}
            col = column(f)
            if col:
                region["startColumn"] = col
            physical["region"] = region
        out["locations"] = [{"physicalLocation": physical}]
    out["partialFingerprints"] = {"evalportFingerprint/v1": f.fingerprint}
    props: dict[str, Any] = {"label": label(f), "section": e.section}
    if e.stages:
        props["stages"] = list(e.stages)
    loc = f.where()
    if loc is not None and loc.pointer is not None:
        props["pointer"] = loc.pointer
    if f.has_item:
        props["item"] = f.item
    if f.witness is not None:
        props["witness"] = f.witness
    if f.extra:
        props["extra"] = f.extra
    out["properties"] = props
    return out


def to_sarif(rep: Report) -> dict[str, Any]:
    """The report as a SARIF 2.1.0 log (a JSON-ready dict; module docstring)."""
    kinds: dict[str, int] = {}
    for e in rep.entries:
        kinds.setdefault(e.finding.kind, len(kinds))
    rules = [{"id": k, "shortDescription": {"text": k.replace("-", " ")}} for k in kinds]
    run: dict[str, Any] = {
        "tool": {"driver": {"name": "evalport-spec", "version": __version__,
                            "informationUri": "https://evalport.github.io/spec/", "rules": rules}},
        "automationDetails": {"id": f"evalport-spec/{rep.command or 'report'}/"},
        "columnKind": "unicodeCodePoints",
        "originalUriBaseIds": {"%SRCROOT%": {"description": {"text": "the repository root"}}},
        "results": [_result(e, kinds[e.finding.kind]) for e in rep.entries],
    }
    return {"$schema": SARIF_SCHEMA, "version": "2.1.0", "runs": [run]}


def render_sarif(rep: Report) -> str:
    """:func:`to_sarif` as indented JSON."""
    return json.dumps(to_sarif(rep), indent=2, ensure_ascii=False, default=str) + "\n"
