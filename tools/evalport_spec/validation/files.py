"""Validating files: read each, pick its document type and spec version, validate, and keep
going past unreadable files (the behaviour of check-jsonschema and ruff).

A ResultSet file larger than :data:`~.stream.STREAM_THRESHOLD` is validated while it is read
(:mod:`.stream`), with the same outcome as parsing it whole; other files are parsed whole.

Public API::

    read_document(path, *, stdin=None) -> Loaded
    validate_files(repo, paths, *, doc_type="auto", spec_version="auto", stdin=None,
                   stream=None, consumer=False) -> list[FileReport | FileError]
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import Any, BinaryIO

from ..errors import InputError
from ..fsutil import read_limited, read_stream
from ..jsonload import MAX_BYTES, Loaded, loads
from ..report.progress import track
from ..spec import SpecRepo
from .consumer import Outcome, consumer_outcome
from .report import FileError, FileReport
from .stream import STREAM_THRESHOLD, NotStreamable, StreamPass, stream_pass
from .validator import Validator
from .versions import VERSIONED_TYPES, VersionChoice, choose_version, label, later_versions
from .violation import Violation

AUTO = "auto"
"""``spec_version`` / ``doc_type`` value meaning "decide from the document"."""

EMPTY_FILE = "malformed JSON: empty file, expected a JSON document"
"""The message for a 0-byte file (RFC 8259: a JSON text is one value; nothing is not one)."""


def read_document(path: str, *, stdin: BinaryIO | None = None) -> Loaded:
    """Read and strictly parse one JSON document; ``"-"`` reads ``stdin`` (label ``<stdin>``).

    Raises:
        InputError: missing, unreadable, not a regular file (a directory, FIFO or device), too
            large (:data:`~evalport_spec.jsonload.MAX_BYTES`, counted as read, standard input
            included), empty (0 bytes: ``EMPTY_FILE`` at 1:1),
            or not strict JSON (:func:`~evalport_spec.jsonload.loads`), naming the file, line
            and column.
    """
    if path == "-":
        if stdin is None:
            raise InputError("no standard input to read", "<stdin>")
        data, label, where = read_stream(stdin, max_bytes=MAX_BYTES, label="<stdin>"), "<stdin>", None
    else:
        data, label, where = read_limited(path, max_bytes=MAX_BYTES), path, path
    if not data:
        raise InputError(EMPTY_FILE, label, 1, 1)
    return loads(data, label, path=where)


class _Versions:
    """One :class:`Validator` per spec version of ``repo``, built on first use."""

    def __init__(self, repo: SpecRepo) -> None:
        self.repo = repo
        self.releases = repo.releases()
        self.draft_version = repo.declared_draft_version()
        self._validators: dict[str, Validator] = {}

    def validator(self, name: str) -> Validator:
        if name not in self._validators:
            validator = Validator(self.repo.version(name))
            if validator.unimplemented:
                raise InputError(f"spec version {name}: rule(s) "
                                 f"{', '.join(validator.unimplemented)} are catalogued but have "
                                 "no implementation, so documents cannot be fully validated")
            self._validators[name] = validator
        return self._validators[name]

    def label(self, name: str) -> str:
        """``"1.2.0"``, or ``"draft (1.4.0)"`` for the draft."""
        return label(name, self.draft_version)


def validate_files(repo: SpecRepo, paths: Iterable[str], *, doc_type: str = AUTO,
                   spec_version: str = AUTO, stdin: BinaryIO | None = None,
                   stream: bool | None = None, consumer: bool = False
                   ) -> list[FileReport | FileError]:
    """Validate each file of ``paths`` in order, one entry per file.

    Args:
        repo: where the spec versions come from (a spec repository or the bundled copy).
        paths: file paths; ``"-"`` is standard input.
        doc_type: a document type, or ``"auto"`` (:meth:`Validator.detect_type`).
        spec_version: ``"auto"`` (each document's own ``version``,
            :func:`~.versions.choose_version`), ``"draft"`` or a release that applies to all.
        stream: validate ResultSet files while reading them: ``None`` above
            :data:`~.stream.STREAM_THRESHOLD` bytes, ``True`` always, ``False`` never (standard
            input is always parsed whole). The outcome is the same either way.
        consumer: consumer mode (:mod:`.consumer`): tolerate members a later minor defines
            and unknown members of a newer minor, with a warning.

    Returns:
        a :class:`FileReport` per file read (a document whose ``version`` has an unsupported
        major carries the single ``UNSUPPORTED_VERSION`` violation and ``spec_version`` None),
        a :class:`FileError` per file that could not be read, parsed or typed.

    Raises:
        InputError: ``spec_version`` is unknown, or a version has catalogued rules without an
            implementation (the whole run is refused: it cannot fail closed per file).
    """
    versions = _Versions(repo)
    if spec_version != AUTO:
        versions.validator(spec_version)  # an unknown or unimplementable version stops here
    out: list[FileReport | FileError] = []
    paths = list(paths)
    for path in track(paths, "validating", unit="file"):
        try:
            entry = None
            if _streams(path, doc_type, stream):
                entry = _validate_streamed(versions, path, doc_type, spec_version, consumer)
            out.append(entry or _validate_whole(versions, path, doc_type, spec_version, consumer,
                                                stdin))
        except InputError as exc:
            out.append(FileError(exc.source and str(exc.source) or path, exc))
    return out


def _streams(path: str, doc_type: str, stream: bool | None) -> bool:
    if path == "-" or stream is False or doc_type not in (AUTO, "resultset"):
        return False
    try:
        return stream is True or os.stat(path).st_size > STREAM_THRESHOLD
    except OSError:
        return False  # the whole-file reader reports it


def _choose(versions: _Versions, document: Any, kind: str, spec_version: str) -> VersionChoice:
    if spec_version != AUTO:
        return VersionChoice(spec_version)
    return choose_version(document, kind, versions.releases, versions.draft_version)


def _outcome(versions: _Versions, document: Any, kind: str, choice: VersionChoice,
             consumer: bool, check: Callable[[str], list[Violation]]) -> Outcome:
    """The violations (and consumer-mode warnings) of a document whose version is ``choice``."""
    assert choice.name is not None
    stamped = document.get("version") if isinstance(document, dict) else None
    if not consumer or kind not in VERSIONED_TYPES or not isinstance(stamped, str):
        return Outcome(choice.name, check(choice.name))
    return consumer_outcome(check, choice.name, stamped,
                            later_versions(choice.name, versions.releases, versions.draft_version),
                            versions.label, choice.newer)


def _validate_whole(versions: _Versions, path: str, doc_type: str, spec_version: str,
                    consumer: bool, stdin: BinaryIO | None) -> FileReport:
    doc = read_document(path, stdin=stdin)
    kind = doc_type
    if kind == AUTO:
        try:
            kind = Validator.detect_type(doc.value)
        except InputError as exc:
            raise InputError(f"{exc.message}; pass --type", doc.source, 1, 1) from None
    choice = _choose(versions, doc.value, kind, spec_version)
    if choice.rejection is not None:
        return FileReport(doc.source, kind, doc, [choice.rejection], None)
    outcome = _outcome(versions, doc.value, kind, choice, consumer,
                       lambda name: versions.validator(name).validate(doc.value, kind))
    return FileReport(doc.source, kind, doc, outcome.violations, outcome.name, choice.note,
                      versions.label(outcome.name), warnings=outcome.warnings)


def _validate_streamed(versions: _Versions, path: str, doc_type: str, spec_version: str,
                       consumer: bool) -> FileReport | None:
    """Validate a ResultSet file while reading it (:mod:`.stream`); ``None`` when it cannot be
    (the caller parses it whole). A document whose ``version`` follows ``results`` is read
    twice: first validated against the version the members before ``results`` point to."""
    kind = "resultset" if doc_type != AUTO else None
    passes: dict[str, StreamPass] = {}

    def pick(members: dict[str, Any]) -> Validator | None:
        name = _choose(versions, {**members, "results": []}, "resultset", spec_version).name
        return versions.validator(name) if name is not None else None

    def check(name: str) -> list[Violation]:
        if name not in passes:
            validator = versions.validator(name)
            passes[name] = stream_pass(path, path, lambda _: validator, doc_type=kind)
        return passes[name].violations

    first: StreamPass | None = None
    try:
        first = stream_pass(path, path, pick, doc_type=kind)
        stub = first.document_stub()
        choice = _choose(versions, stub, "resultset", spec_version)
        if first.validator is not None and choice.name is not None and (
                first.validator is versions.validator(choice.name)):
            passes[choice.name] = first
        loaded = Loaded(None, path, path=path)
        if choice.rejection is not None:
            violations, outcome = [choice.rejection], None
        else:
            outcome = _outcome(versions, stub, "resultset", choice, consumer, check)
            violations = outcome.violations
        if outcome is None:
            report = FileReport(path, "resultset", loaded, violations, None)
        else:
            report = FileReport(path, "resultset", loaded, violations, outcome.name, choice.note,
                                versions.label(outcome.name), warnings=outcome.warnings)
        return replace(report, _positions=first.positions(report.pointers()))
    except NotStreamable:
        return None
    finally:
        for done in (first, *passes.values()):
            if done is not None:
                done.close()
