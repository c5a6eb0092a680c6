"""Validating files: read each, pick its document type and spec version, validate, and keep
going past unreadable files (the behaviour of check-jsonschema and ruff).

Public API::

    read_document(path, *, stdin=None) -> Loaded
    validate_files(repo, paths, *, doc_type="auto", spec_version="auto", stdin=None)
        -> list[FileReport | FileError]
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import BinaryIO

from ..errors import InputError
from ..fsutil import read_limited, read_stream
from ..jsonload import MAX_BYTES, Loaded, loads
from ..report.progress import track
from ..spec import DRAFT, SpecRepo
from .report import FileError, FileReport
from .validator import Validator
from .versions import choose_version

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


def validate_files(repo: SpecRepo, paths: Iterable[str], *, doc_type: str = AUTO,
                   spec_version: str = AUTO, stdin: BinaryIO | None = None
                   ) -> list[FileReport | FileError]:
    """Validate each file of ``paths`` in order, one entry per file.

    Args:
        repo: where the spec versions come from (a spec repository or the bundled copy).
        paths: file paths; ``"-"`` is standard input.
        doc_type: a document type, or ``"auto"`` (:meth:`Validator.detect_type`).
        spec_version: ``"auto"`` (each document's own ``version``,
            :func:`~.versions.choose_version`), ``"draft"`` or a release that applies to all.

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
    for path in track(list(paths), "validating", unit="file"):
        try:
            doc = read_document(path, stdin=stdin)
            kind = doc_type
            if kind == AUTO:
                try:
                    kind = Validator.detect_type(doc.value)
                except InputError as exc:
                    raise InputError(exc.message, doc.source, 1, 1) from None
        except InputError as exc:
            out.append(FileError(exc.source and str(exc.source) or path, exc))
            continue
        note = None
        if spec_version == AUTO:
            choice = choose_version(doc.value, kind, versions.releases, versions.draft_version)
            if choice.name is None:
                assert choice.rejection is not None
                out.append(FileReport(doc.source, kind, doc, [choice.rejection], None))
                continue
            name, note = choice.name, choice.note
        else:
            name = spec_version
        violations = versions.validator(name).validate(doc.value, kind)
        label = name
        if name == DRAFT and versions.draft_version:
            label = f"{DRAFT} ({versions.draft_version})"
        out.append(FileReport(doc.source, kind, doc, violations, name, note, label))
    return out
