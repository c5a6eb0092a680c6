"""Validation results of files, and their report (a typed adapter to
:class:`evalport_spec.report.Report`; the formats are the reporter's).

* :func:`validation_report`: one check per file (``FILE  TYPE (spec VERSION): valid`` or
  ``N error(s)``), one ``document-invalid`` finding per violation (a file's errors by line, then
  column), the summary line ``N file(s) checked: V valid, I invalid, E error(s)`` (``, U
  unreadable`` when some file could not be read) as the verdict;
* its JSON payload (:func:`to_json`): ``{"files": [{"file", "type", "spec_version", "valid",
  "errors": [{"code", "instance_path", "message", "line", "column"}], "warnings"?: [str]} |
  {"file", "error"}], "valid": bool}`` (``spec_version`` as shown, the draft with its number,
  ``"draft (1.4.0)"``; ``null`` for a rejected version; ``warnings`` only when there are
  some, consumer mode), to which the ``json`` format adds ``findings``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import InputError
from ..findings import Finding, Location, Severity
from ..jsonload import Loaded
from ..jsonpos import positions
from ..report import Check, Report
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
        warnings: lines the file is accepted with (consumer mode: ``"stamped 1.0.0, uses
            `group` from 1.3.0"``), each a ``document-consumer-version`` warning finding at ``/version``.
    """

    file: str
    doc_type: str
    loaded: Loaded
    violations: list[Violation]
    spec_version: str | None = "draft"
    note: str | None = None
    spec_label: str | None = None
    warnings: list[str] = field(default_factory=list)
    _positions: dict[str, tuple[int, int]] | None = field(default=None, repr=False)

    @property
    def valid(self) -> bool:
        """``True`` when there is no violation."""
        return not self.violations

    def pointers(self) -> set[str]:
        """The instance locations this report shows: its violations', and ``/version`` when
        it has warnings (what ``_positions``, when given, must cover)."""
        return {v.instance_path for v in self.violations} | ({"/version"} if self.warnings else set())

    def position(self, violation: Violation) -> tuple[int, int]:
        """``(line, column)`` of the violation's instance location (or nearest ancestor);
        ``(1, 1)`` when unknown. Positions are computed once, for :meth:`pointers` only
        (:func:`~evalport_spec.jsonpos.positions` with ``wanted``), unless given (a streamed
        file's, :mod:`.stream`)."""
        if self._positions is None:
            try:
                self._positions = positions(self.loaded.text, self.pointers())
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


def to_json(entries: list[Entry]) -> dict:
    """The JSON object of the module docstring."""
    files: list[dict] = []
    for e in entries:
        if isinstance(e, FileError):
            files.append({"file": e.file, "error": str(e.error)})
            continue
        errors = [{"code": v.code, "instance_path": v.instance_path, "message": v.message,
                   "line": line, "column": col} for v, line, col in e.by_line()]
        entry = {"file": e.file, "type": e.doc_type, "spec_version": e.spec_label or e.spec_version,
                 "valid": e.valid, "errors": errors}
        if e.warnings:
            entry["warnings"] = list(e.warnings)
        files.append(entry)
    valid = all(isinstance(e, FileReport) and e.valid for e in entries)
    return {"files": files, "valid": valid}


def findings(entries: list[Entry], *, input_errors: bool = True) -> list[Finding]:
    """Every violation as a ``document-invalid`` finding (``code`` the violation's, message
    ``instance_path: message`` with the root shown as ``(root)``, located at the file, the
    instance location and its line, the column in ``extra["column"]``), in file then line order;
    with ``input_errors``, each unreadable file as an ``input-error`` finding at its line."""
    out: list[Finding] = []
    for e in entries:
        if isinstance(e, FileError):
            if input_errors:
                out.append(Finding("input-error", e.error.message,
                                   new=Location(e.file, e.error.pointer, e.error.line),
                                   extra={"column": e.error.column} if e.error.column else {}))
            continue
        for warning in e.warnings:
            line, col = e.position(Violation("", "/version", ""))
            out.append(Finding("document-consumer-version", warning, severity=Severity.WARNING,
                               new=Location(e.file, "/version", line), extra={"column": col}))
        for v, line, col in e.by_line():
            out.append(Finding("document-invalid", f"{v.instance_path or '(root)'}: {v.message}",
                               code=v.code, new=Location(e.file, v.instance_path, line),
                               extra={"column": col}))
    return out


def validation_report(entries: list[Entry], *, input_errors: bool = True) -> Report:
    """The outcome of validating ``entries`` as a :class:`~evalport_spec.report.Report`: a check
    per file read (``FILE``, status ``ok`` or ``fail``, summary ``TYPE (spec VERSION): valid`` or
    ``N error(s)``), the :func:`findings`, ``data`` :func:`to_json` and the :func:`summary` line
    as verdict."""
    checks = []
    for r in _reports(entries):
        spec = r.spec_label or r.spec_version or "unsupported"
        n = len(r.violations)
        verdict = "valid" if not n else f"{n} error{'' if n == 1 else 's'}"
        if r.warnings:
            verdict += f", {len(r.warnings)} warning{'' if len(r.warnings) == 1 else 's'}"
        checks.append(Check(r.file, "ok" if r.valid else "fail", None,
                            f"{r.doc_type} (spec {spec}): {verdict}"))
    return Report.of(findings(entries, input_errors=input_errors), command="validate",
                     checks=checks, check_noun="file", data=to_json(entries),
                     verdict=summary(entries))
