"""Rendering validation results of files: text, JSON and GitHub workflow annotations.

Shapes (a file's errors are listed by line, then column):

* text: per file a header ``FILE: TYPE (spec VERSION): valid`` (or ``N error(s)``), then one
  line per violation, ``FILE:LINE:COL: CODE instance_path message`` (the root's empty pointer
  shown as ``(root)``); then a summary line ``N file(s) checked: V valid, I invalid, E
  error(s)``, with ``, U unreadable`` when some file could not be read. Unreadable files are
  not in the text: the CLI reports them on standard error;
* json: ``{"files": [{"file", "type", "spec_version", "valid", "errors": [{"code",
  "instance_path", "message", "line", "column"}]} | {"file", "error"}], "valid": bool}``
  (keys sorted, stable across runs; ``spec_version`` is ``null`` for a rejected version);
* github: ``::error file=F,line=L,col=C,title=CODE::instance_path: message`` per violation and
  per unreadable file, escaped as GitHub's workflow-command syntax requires (``%``, CR, LF;
  plus ``:`` and ``,`` in properties).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from ..errors import InputError
from ..jsonload import Loaded, positions
from .violation import Violation


@dataclass
class FileReport:
    """The outcome for one file.

    Attributes:
        file: its label; doc_type: the document type it was validated as; loaded: its text.
        violations: every violation (empty when valid).
        spec_version: the version validated against (``"draft"`` or ``"X.Y.Z"``), ``None`` when
            the document's version was rejected (``UNSUPPORTED_VERSION``).
        note: a remark on the version choice (printed on standard error), or ``None``.
        spec_label: how the version is shown (``"draft (1.4.0)"``); default ``spec_version``.
    """

    file: str
    doc_type: str
    loaded: Loaded
    violations: list[Violation]
    spec_version: str | None = "draft"
    note: str | None = None
    spec_label: str | None = None
    _positions: dict[str, tuple[int, int]] | None = field(default=None, repr=False)

    @property
    def valid(self) -> bool:
        """``True`` when there is no violation."""
        return not self.violations

    def position(self, violation: Violation) -> tuple[int, int]:
        """``(line, column)`` of the violation's instance location (or nearest ancestor);
        ``(1, 1)`` when unknown. Positions are computed once, for this file's violations only
        (:func:`~evalport_spec.jsonload.positions` with ``wanted``)."""
        if self._positions is None:
            try:
                self._positions = positions(self.loaded.text,
                                            {v.instance_path for v in self.violations})
            except ValueError:
                self._positions = {}
        p = violation.instance_path
        while True:
            if p in self._positions:
                return self._positions[p]
            if p == "":
                return (1, 1)
            p = p.rsplit("/", 1)[0]

    def by_line(self) -> list[tuple[Violation, int, int]]:
        """``(violation, line, column)`` for every violation, ordered by line and column (ties
        keep the validator's order: instance path, then code)."""
        rows = [(v, *self.position(v)) for v in self.violations]
        return sorted(rows, key=lambda r: (r[1], r[2]))


@dataclass
class FileError:
    """A file that could not be validated: unreadable, not JSON, or of no known type.

    Attributes:
        file: the path as given; error: the one-line :class:`InputError`.
    """

    file: str
    error: InputError


Entry = FileReport | FileError


def _reports(entries: list[Entry]) -> list[FileReport]:
    return [e for e in entries if isinstance(e, FileReport)]


def summary(entries: list[Entry]) -> str:
    """``N files checked: V valid, I invalid, E errors`` (``, U unreadable`` when any)."""
    reports = _reports(entries)
    unreadable = len(entries) - len(reports)
    invalid = sum(not r.valid for r in reports)
    errors = sum(len(r.violations) for r in reports)
    noun = "file" if len(entries) == 1 else "files"
    text = (f"{len(entries)} {noun} checked: {len(reports) - invalid} valid, {invalid} invalid, "
            f"{errors} error{'' if errors == 1 else 's'}")
    return text + (f", {unreadable} unreadable" if unreadable else "")


def render_text(entries: list[Entry]) -> str:
    """Text lines plus a summary line (see module docstring)."""
    lines = []
    for r in _reports(entries):
        spec = r.spec_label or r.spec_version or "unsupported"
        n = len(r.violations)
        verdict = "valid" if not n else f"{n} error{'' if n == 1 else 's'}"
        lines.append(f"{r.file}: {r.doc_type} (spec {spec}): {verdict}")
        for v, line, col in r.by_line():
            lines.append(f"{r.file}:{line}:{col}: {v.code} {v.instance_path or '(root)'} {v.message}")
    lines.append(summary(entries))
    return "\n".join(lines)


def to_json(entries: list[Entry]) -> dict:
    """The JSON object of the module docstring."""
    files: list[dict] = []
    for e in entries:
        if isinstance(e, FileError):
            files.append({"file": e.file, "error": str(e.error)})
            continue
        errors = [{"code": v.code, "instance_path": v.instance_path, "message": v.message,
                   "line": line, "column": col} for v, line, col in e.by_line()]
        files.append({"file": e.file, "type": e.doc_type, "spec_version": e.spec_version,
                      "valid": e.valid, "errors": errors})
    valid = all(isinstance(e, FileReport) and e.valid for e in entries)
    return {"files": files, "valid": valid}


def render_json(entries: list[Entry]) -> str:
    """:func:`to_json` serialised with sorted keys and two-space indentation."""
    return json.dumps(to_json(entries), indent=2, sort_keys=True, ensure_ascii=False)


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def render_github(entries: list[Entry]) -> str:
    """GitHub Actions ``::error`` workflow commands, one per violation and unreadable file."""
    lines = []
    for e in entries:
        if isinstance(e, FileError):
            where = "".join(f",{k}={v}" for k, v in (("line", e.error.line), ("col", e.error.column))
                            if v is not None)
            lines.append(f"::error file={_escape_property(e.file)}{where},title=input error::"
                         f"{_escape_data(e.error.message)}")
            continue
        for v, line, col in e.by_line():
            text = f"{v.instance_path or '(root)'}: {v.message}"
            lines.append(f"::error file={_escape_property(e.file)},line={line},col={col},"
                         f"title={_escape_property(v.code)}::"
                         f"{_escape_data(text)}")
    return "\n".join(lines)


RENDERERS = {"text": render_text, "json": render_json, "github": render_github}
"""Output format name -> renderer."""
