"""Rendering validation results of files: text, JSON and GitHub workflow annotations.

Shapes:

* text: one line per violation, ``FILE:LINE:COL: CODE instance_path message`` (the root's
  empty pointer shown as ``(root)``), then a summary
  line ``N file(s) checked: V valid, I invalid, E error(s)``;
* json: ``{"files": [{"file", "type", "valid", "errors": [{"code", "instance_path",
  "message", "line", "column"}]}], "valid": bool}`` (keys sorted, stable across runs);
* github: ``::error file=F,line=L,col=C,title=CODE::instance_path: message`` per violation,
  escaped as GitHub's workflow-command syntax requires (``%``, CR, LF; plus ``:`` and ``,`` in
  properties).
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from ..jsonload import Loaded
from .violation import Violation


@dataclass
class FileReport:
    """The outcome for one file: its label, document type, parsed text and violations."""

    file: str
    doc_type: str
    loaded: Loaded
    violations: list[Violation]

    @property
    def valid(self) -> bool:
        """``True`` when there is no violation."""
        return not self.violations

    def position(self, violation: Violation) -> tuple[int, int]:
        """``(line, column)`` of the violation's instance location (or nearest ancestor);
        ``(1, 1)`` when unknown."""
        return self.loaded.position(violation.instance_path) or (1, 1)


def render_text(reports: list[FileReport]) -> str:
    """Text lines plus a summary line (see module docstring)."""
    lines = []
    for r in reports:
        for v in r.violations:
            line, col = r.position(v)
            lines.append(f"{r.file}:{line}:{col}: {v.code} {v.instance_path or '(root)'} {v.message}")
    invalid = sum(not r.valid for r in reports)
    errors = sum(len(r.violations) for r in reports)
    noun = "file" if len(reports) == 1 else "files"
    lines.append(f"{len(reports)} {noun} checked: {len(reports) - invalid} valid, {invalid} invalid, "
                 f"{errors} error{'' if errors == 1 else 's'}")
    return "\n".join(lines)


def to_json(reports: list[FileReport]) -> dict:
    """The JSON object of the module docstring."""
    files = []
    for r in reports:
        errors = []
        for v in r.violations:
            line, col = r.position(v)
            errors.append({"code": v.code, "instance_path": v.instance_path, "message": v.message,
                           "line": line, "column": col})
        files.append({"file": r.file, "type": r.doc_type, "valid": r.valid, "errors": errors})
    return {"files": files, "valid": all(r.valid for r in reports)}


def render_json(reports: list[FileReport]) -> str:
    """:func:`to_json` serialised with sorted keys and two-space indentation."""
    return json.dumps(to_json(reports), indent=2, sort_keys=True, ensure_ascii=False)


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def render_github(reports: list[FileReport]) -> str:
    """GitHub Actions ``::error`` workflow commands, one per violation."""
    lines = []
    for r in reports:
        for v in r.violations:
            line, col = r.position(v)
            text = f"{v.instance_path or '(root)'}: {v.message}"
            lines.append(f"::error file={_escape_property(r.file)},line={line},col={col},"
                         f"title={_escape_property(v.code)}::"
                         f"{_escape_data(text)}")
    return "\n".join(lines)


RENDERERS = {"text": render_text, "json": render_json, "github": render_github}
"""Output format name -> renderer."""
