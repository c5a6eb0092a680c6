"""Streaming validation of a large ResultSet file: each Result validated as it is read
(:class:`~evalport_spec.jsonstream.ObjectStream`, :class:`~.itemcheck.ItemCheck`), so memory
stays bounded by a batch of Results and the rules' per-test-case state, whatever the file size.

Verdicts, codes, instance paths, messages, lines and columns are those of the in-memory path
(:func:`.files.read_document` and :meth:`.validator.Validator.validate`), and so are the refusals
of malformed files; ``tests/test_validation_stream.py`` compares both on every conformance
fixture and example and on generated files with seeded errors of every kind.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..jsonload import gc_paused
from ..jsonstream import NotAnObject, ObjectStream
from ..report.progress import task
from ..spec import detect_type
from .rules.registry import Envelope
from .validator import Validator
from .violation import Violation, sort_violations

STREAM_THRESHOLD = 64 << 20
"""Files larger than this many bytes (64 MiB) are validated while they are read, when they are
ResultSets; smaller ones are parsed whole (the in-memory path)."""

ARRAY = "results"
"""The member read item by item."""


class NotStreamable(Exception):
    """The file cannot be validated item by item (not a ResultSet, no ``results`` array, or a
    version whose schema or rules need the whole document): parse it whole instead."""


@dataclass
class StreamPass:
    """The outcome of one streaming pass over a file.

    Attributes:
        members: every top-level member but ``results``.
        count: the number of Results.
        violations: sorted, as :meth:`Validator.validate` on the whole document.
        validator: the validator used (:func:`stream_pass`'s ``pick``), ``None`` when the
            file was only read (its version is rejected).
        stream: the file, still open for :meth:`positions` until :meth:`close`.
    """

    members: dict[str, Any]
    count: int
    violations: list[Violation]
    validator: Validator | None
    stream: ObjectStream

    def document_stub(self) -> dict[str, Any]:
        """The top-level members with ``results`` as an empty list (what version choice and
        type detection read)."""
        return {**self.members, ARRAY: []}

    def positions(self, pointers: set[str]) -> dict[str, tuple[int, int]]:
        """Line and column of each pointer (or its nearest ancestor), as the in-memory report
        finds them."""
        return self.stream.positions(pointers)

    def close(self) -> None:
        """Close the file."""
        self.stream.close()


def stream_pass(path: str, source: str, pick: Callable[[dict[str, Any]], Validator | None],
                *, doc_type: str | None = None) -> StreamPass:
    """Validate the ResultSet file at ``path`` while reading it, in one pass.

    Args:
        path, source: the file and its label in messages.
        pick: called once, with the members read before ``results``, when ``results`` starts;
            returns the validator to use, or ``None`` to only read the file (strictness
            checked, nothing validated: its version is rejected).
        doc_type: the type the caller was told (``None``: detected; it must come out
            ``resultset``).

    Raises:
        InputError: the file is unreadable or not strict JSON (as the in-memory path).
        NotStreamable: see the class; nothing is reported, the caller parses the file whole.
    """
    stream = ObjectStream(path, source, ARRAY)
    try:
        with task(f"validating {os.path.basename(path)}", total=round(stream.size / 2**20, 1),
                  unit="MiB") as step:
            done = 0

            def progress(position: int) -> None:
                nonlocal done
                step((position - done) / 2**20)
                done = position

            stream.progress = progress
            return _read(stream, pick, doc_type)
    except BaseException:
        stream.close()
        raise


def _read(stream: ObjectStream, pick: Callable[[dict[str, Any]], Validator | None],
          doc_type: str | None) -> StreamPass:
    check = validator = None
    envelope = Envelope(stream.members, False)
    violations: list[Violation] = []
    try:
        with gc_paused():  # JSON values hold no cycles; the collector would only rescan them
            for event in stream:
                if event[0] == "array":
                    validator = pick(dict(stream.members))
                    check = validator.item_check("resultset", ARRAY) if validator else None
                    if validator is not None and check is None:
                        raise NotStreamable()
                elif event[0] == "items" and check is not None and stream.lone is None:  # refused at the end
                    violations.extend(check.items(event[1], event[2], envelope))
    except NotAnObject:
        raise NotStreamable() from None
    if not stream.streamed or (doc_type or detect_type({**stream.members, ARRAY: []})) != "resultset":
        raise NotStreamable()
    if check is not None:
        violations.extend(check.finish(stream.members, stream.count))
    return StreamPass(stream.members, stream.count, sort_violations(violations), validator, stream)
