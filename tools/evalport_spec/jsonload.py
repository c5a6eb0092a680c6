"""Safe JSON loading: strict RFC 8259, with positions for error messages and findings.

The fast path is the standard library's C decoder with hooks that reject what RFC 8259 leaves
to implementations and that this project refuses: duplicate object member names (RFC 8259
section 4 says names SHOULD be unique), ``NaN``/``Infinity`` (not JSON at all), numbers that
overflow an IEEE 754 double, a byte-order mark (RFC 8259 section 8.1: MUST NOT be added), invalid
UTF-8, nesting deeper than :data:`MAX_DEPTH`, and files larger than :data:`MAX_BYTES`.

Positions (1-based line and column for every JSON Pointer) are computed lazily by a small
tokenizer (:func:`evalport_spec.jsonpos.positions`) only when a caller asks, so large documents
cost nothing extra.
"""

from __future__ import annotations

import contextlib
import gc
import json
import math
import os
import re
from collections.abc import Iterator
from typing import Any

from .errors import InputError
from .fsutil import read_limited
from .jsonpos import line_col, locate_duplicate, locate_token, positions

try:  # optional accelerator; the strict standard-library path is always available
    import orjson
except ImportError:  # pragma: no cover
    orjson = None  # type: ignore[assignment]


def _orjson_is_safe(version: str) -> bool:
    """Whether this orjson bounds ``loads`` recursion (1024 levels). Releases before 3.9.15
    recurse without limit and crash the process (segmentation fault) on deep nesting
    (CVE-2024-27454), so they are not used at all."""
    try:
        parts = tuple(int(x) for x in version.split(".")[:3])
    except ValueError:
        return False
    return parts >= (3, 9, 15)


if orjson is not None and not _orjson_is_safe(getattr(orjson, "__version__", "0")):
    orjson = None  # type: ignore[assignment]  # pragma: no cover

MAX_BYTES = 512 * 1024 * 1024
"""Largest file accepted, in bytes (512 MiB); larger files are refused before reading."""

MAX_DEPTH = 256
"""Deepest nesting of arrays/objects accepted. Deeper documents are refused (no recursion blow-up)."""


class _DuplicateKey(Exception):
    def __init__(self, key: str) -> None:
        self.key = key


class _BadNumber(Exception):
    def __init__(self, text: str) -> None:
        self.text = text


def _pairs_hook(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _DuplicateKey(key)
            seen.add(key)
    return obj


def _parse_constant(text: str) -> Any:
    raise _BadNumber(text)


def _parse_float(text: str) -> float:
    value = float(text)
    if math.isinf(value):
        raise _BadNumber(text)
    return value


def _parse_int(text: str) -> int:
    # Python's int() limit (4300 digits) would raise ValueError with a traceback-worthy message.
    if len(text) > 400:
        raise _BadNumber(text)
    return int(text)


class Loaded:
    """A parsed JSON document.

    Attributes:
        value: the parsed value (dict, list, str, int, float, bool or None).
        source: label of where it came from (a path, or ``REF:PATH`` for a git revision).
        text: the decoded text (computed lazily from the raw bytes or re-read from ``path``),
            used only when :meth:`position` maps pointers to lines.
    """

    __slots__ = ("value", "source", "_text", "_raw", "_path", "_positions")

    def __init__(self, value: Any, source: str, text: str | None = None, *,
                 raw: bytes | None = None, path: str | os.PathLike[str] | None = None) -> None:
        self.value = value
        self.source = source
        self._text = text
        self._raw = raw
        self._path = path
        self._positions: dict[str, tuple[int, int]] | None = None

    def __repr__(self) -> str:
        return f"Loaded(source={self.source!r})"

    @property
    def text(self) -> str:
        """The document's text ('' if it can no longer be read)."""
        if self._text is None:
            raw = self._raw
            if raw is None and self._path is not None:
                try:
                    raw = read_limited(self._path, max_bytes=MAX_BYTES)
                except InputError:
                    raw = b""
            self._text = (raw or b"").decode("utf-8", "replace")
            self._raw = None
        return self._text

    def position(self, pointer: str) -> tuple[int, int] | None:
        """Return ``(line, column)`` (1-based) where the value at ``pointer`` starts, or ``None``.

        For a pointer that does not exist in the document, the nearest existing ancestor's
        position is returned.
        """
        if self._positions is None:
            try:
                self._positions = positions(self.text)
            except ValueError:
                self._positions = {}
        p = pointer
        while True:
            if p in self._positions:
                return self._positions[p]
            if p == "":
                return None
            p = p.rsplit("/", 1)[0]

    def line(self, pointer: str) -> int | None:
        """Line (1-based) of the value at ``pointer`` (or its nearest ancestor), or ``None``."""
        pos = self.position(pointer)
        return pos[0] if pos else None


def check_depth(value: Any, source: str, limit: int = MAX_DEPTH) -> None:
    """Raise :class:`InputError` if ``value`` nests arrays/objects deeper than ``limit``.

    Iterative (no recursion), O(number of containers).
    """
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > limit:
            raise InputError(f"nesting deeper than {limit} levels", source)
        if isinstance(node, dict):
            stack.extend((v, depth + 1) for v in node.values() if isinstance(v, (dict, list)))
        elif isinstance(node, list):
            stack.extend((v, depth + 1) for v in node if isinstance(v, (dict, list)))


def decode_bytes(data: bytes, source: str) -> str:
    """Decode UTF-8 strictly; a BOM or invalid byte sequence is an :class:`InputError`."""
    if data.startswith(b"\xef\xbb\xbf"):
        raise InputError("byte-order mark at start of file (RFC 8259 section 8.1 forbids it)", source, 1, 1)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line, col = line_col(data[: exc.start].decode("utf-8", "replace"), exc.start)
        raise InputError(f"invalid UTF-8 at byte {exc.start}", source, line, col) from None


_SLOW = object()


@contextlib.contextmanager
def gc_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector for the block, restoring its previous state.

    Parsing allocates millions of container objects, none of them garbage; with the collector
    running, its generation scans over the growing heap cost about as much as the parse itself
    (measured: orjson on a 91 MB ResultSet, 1.2 s with the collector, 0.55 s without). JSON values
    hold no reference cycles, so nothing collectable is missed.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


_LONG_DIGITS = re.compile(rb"[0-9]{19}")
"""Digits enough for an integer beyond 64 bits (2**63 has 19 digits)."""


def _fast_loads(raw: bytes) -> Any:
    """Parse with orjson and prove strictness cheaply; ``_SLOW`` when the strict path must decide.

    orjson already refuses NaN/Infinity, overflowing numbers, a BOM, invalid UTF-8 and lone
    surrogates. Two things it does not refuse are checked here without walking the tree:
    duplicate member names (orjson keeps the last) and nesting depth. Re-serialising the value
    with orjson (which stops at 255 levels) and comparing the count of ``"`` bytes proves no member
    was dropped: every string contributes two delimiters plus one per embedded quote, which JSON
    can only spell ``\\"`` or ``\\u0022`` (the latter sends the document to the strict path).
    orjson reads an integer beyond 64 bits as the nearest double, which changes verdicts
    (``{"const": B}`` and ``{"const": B + 1}`` would read alike, and a draft-04 ``integer`` rejects
    a float): a run of 19 or more digits anywhere in the text sends the document to the strict
    path, which keeps every integer exact.
    """
    if orjson is None or b"\\u0022" in raw or _LONG_DIGITS.search(raw):
        return _SLOW
    try:
        with gc_paused():
            value = orjson.loads(raw)
            dumped = orjson.dumps(value)
    except (orjson.JSONDecodeError, orjson.JSONEncodeError, RecursionError):
        return _SLOW
    if raw.count(b'"') != dumped.count(b'"'):
        return _SLOW
    return value


def loads(text: str | bytes, source: str = "<string>", *, max_depth: int = MAX_DEPTH,
          path: str | os.PathLike[str] | None = None) -> Loaded:
    """Parse ``text`` strictly. Raises :class:`InputError` naming ``source``, line and column.

    Bytes input takes a fast path (:func:`_fast_loads`) and falls back to the strict standard-
    library decoder, which produces the exact error and position, whenever the fast path cannot
    prove the document clean. ``path`` lets the returned :class:`Loaded` re-read the file for
    line numbers instead of keeping the text in memory.
    """
    if isinstance(text, (bytes, bytearray)) and max_depth >= 255:
        raw = bytes(text)
        value = _fast_loads(raw)
        if value is not _SLOW:
            if path is not None:
                return Loaded(value, source, path=path)
            return Loaded(value, source, raw=raw)
    if isinstance(text, (bytes, bytearray)):
        text = decode_bytes(bytes(text), source)
    if text.startswith("\ufeff"):
        raise InputError("byte-order mark at start of file (RFC 8259 section 8.1 forbids it)", source, 1, 1)
    try:
        with gc_paused():
            value = json.loads(
                text,
                object_pairs_hook=_pairs_hook,
                parse_constant=_parse_constant,
                parse_float=_parse_float,
                parse_int=_parse_int,
            )
    except json.JSONDecodeError as exc:
        raise InputError(f"malformed JSON: {exc.msg}", source, exc.lineno, exc.colno) from None
    except RecursionError:
        raise InputError(f"nesting deeper than {max_depth} levels", source) from None
    except _DuplicateKey as exc:
        line, col, ptr = locate_duplicate(text, exc.key)
        raise InputError(f"duplicate object key {exc.key!r}", source, line, col, ptr) from None
    except _BadNumber as exc:
        line, col = locate_token(text, exc.text)
        what = "NaN/Infinity is not JSON" if exc.text in ("NaN", "Infinity", "-Infinity") else (
            "number out of range for an IEEE 754 double")
        raise InputError(f"{what}: {exc.text[:40]}", source, line, col) from None
    check_depth(value, source, max_depth)
    return Loaded(value, source, text)


def load(path: str | os.PathLike[str], *, max_bytes: int = MAX_BYTES,
         max_depth: int = MAX_DEPTH, label: str | None = None,
         within: str | os.PathLike[str] | None = None) -> Loaded:
    """Read and parse the JSON file at ``path`` (which must resolve inside ``within`` if given).

    Raises:
        InputError: missing/unreadable file, a directory, too large, a symlink leaving
            ``within``, or any :func:`loads` error.
    """
    data = read_limited(path, max_bytes=max_bytes, label=label, within=within)
    return loads(data, label or str(path), max_depth=max_depth, path=path)
