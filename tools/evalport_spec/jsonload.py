"""Safe JSON loading: strict RFC 8259, with positions for error messages and findings.

The fast path is the standard library's C decoder with hooks that reject what RFC 8259 leaves
to implementations and that this project refuses: duplicate object member names (RFC 8259
section 4 says names SHOULD be unique), ``NaN``/``Infinity`` (not JSON at all), numbers that
overflow an IEEE 754 double or, not being 0, read as 0 (:func:`underflows`), a byte-order mark
(RFC 8259 section 8.1: MUST NOT be added), invalid UTF-8, nesting deeper than :data:`MAX_DEPTH`, and files larger than :data:`MAX_BYTES`.

Positions (1-based line and column for every JSON Pointer) are computed lazily by a small
tokenizer (:func:`evalport_spec.jsonpos.positions`) only when a caller asks, so large documents
cost nothing extra (that module is imported only then, or for an error's place).
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
from .pointer import escape

_ORJSON: list[Any] = []
"""The orjson module once :func:`_orjson` has imported it (``None`` there when it is missing or
unsafe): imported on first use, since it imports ``dataclasses``, ``inspect``, ``uuid``,
``platform`` and ``datetime`` (3-8 ms of a short process, issue 16)."""


def _orjson() -> Any:
    """The optional accelerator orjson, or ``None`` (not installed, or a release that is not
    :func:`_orjson_is_safe`): the strict standard-library path is always available."""
    if not _ORJSON:
        try:
            import orjson
        except ImportError:  # pragma: no cover
            orjson = None
        if orjson is not None and not _orjson_is_safe(getattr(orjson, "__version__", "0")):
            orjson = None  # pragma: no cover
        _ORJSON.append(orjson)
    return _ORJSON[0]


def _orjson_is_safe(version: str) -> bool:
    """Whether this orjson bounds ``loads`` recursion (1024 levels). Releases before 3.9.15
    recurse without limit and crash the process (segmentation fault) on deep nesting
    (CVE-2024-27454), so they are not used at all."""
    try:
        parts = tuple(int(x) for x in version.split(".")[:3])
    except ValueError:
        return False
    return parts >= (3, 9, 15)


FAST_MIN_BYTES = 1 << 20
"""Smallest input (1 MiB) :func:`loads` hands to orjson first. Below it the strict decoder alone
decides: both paths give one value and one verdict (the fast path answers only what it proves
the strict one would, :func:`_fast_loads`), and for a small file the strict parse (1.5 ms for a
226 KB schema) costs less than importing orjson. Measured in a cold ``diff`` of two copies of
mergify.json (issue 16)."""

MAX_BYTES = 512 * 1024 * 1024
"""Largest file accepted, in bytes (512 MiB); larger files are refused before reading."""

MAX_DEPTH = 256
"""Deepest nesting of arrays/objects accepted. Deeper documents are refused (no recursion blow-up)."""

BOM_MESSAGE = "byte-order mark at start of file (RFC 8259 section 8.1 forbids it)"
"""The message for a text starting with a byte-order mark (reported at line 1, column 1)."""


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
    if math.isinf(value) or (value == 0.0 and underflows(text)):
        raise _BadNumber(text)
    return value


def underflows(text: str) -> bool:
    """Whether the JSON number ``text`` is not zero but reads as a zero double: its mantissa has
    a digit other than 0 (``1e-400``, ``-0.5e-330``; ``0e-400`` and ``0.000`` are zero as written).

    Such a number is refused as one too large is: the nearest double is 0, which changes its
    sign against every bound (``"minimum": 1e-400`` would accept 0, which the number as written
    excludes) and its division (a ``multipleOf`` of 0). A subnormal double (``1e-320``) keeps
    its sign and is read like any other decimal rounded to a double."""
    mantissa = text.lower().partition("e")[0]
    return any(c in "123456789" for c in mantissa)


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
            # imported on the first ask: a document read without error never loads the tokenizer
            from .jsonpos import positions

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


def check_depth(value: Any, source: str, limit: int = MAX_DEPTH, *, base: int = 0) -> None:
    """Raise :class:`InputError` if ``value`` nests arrays/objects deeper than ``limit``.

    ``base``: how deep the value's parent is in the whole document (0 for the document itself;
    a streamed Result of a ResultSet is checked with ``base=2``). Iterative (no recursion),
    O(number of containers).
    """
    stack: list[tuple[Any, int]] = [(value, base + 1)]
    while stack:
        node, depth = stack.pop()
        if depth > limit:
            raise InputError(f"nesting deeper than {limit} levels", source)
        if isinstance(node, dict):
            stack.extend((v, depth + 1) for v in node.values() if isinstance(v, (dict, list)))
        elif isinstance(node, list):
            stack.extend((v, depth + 1) for v in node if isinstance(v, (dict, list)))


SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
"""A ``\\uD800``-``\\uDFFF`` escape: the only way a lone surrogate gets into parsed text."""


def lone_surrogate(value: Any) -> tuple[str, str] | None:
    """The first string (member name or value, in document order) of ``value`` holding a lone
    surrogate, as ``(JSON Pointer of the value or member, "U+XXXX")``, or ``None``.
    Iterative, O(size)."""
    stack: list[tuple[Any, str]] = [(value, "")]
    while stack:
        node, ptr = stack.pop()
        if isinstance(node, str):
            bad = _unpaired(node)
            if bad:
                return ptr, bad
        elif isinstance(node, dict):
            for k, v in reversed(node.items()):
                child = f"{ptr}/{escape(k)}"
                stack += [(v, child), (k, child)]  # the name first
        elif isinstance(node, list):
            stack.extend((node[i], f"{ptr}/{i}") for i in range(len(node) - 1, -1, -1))
    return None


def _unpaired(text: str) -> str | None:
    if text.isascii():
        return None
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        return f"U+{ord(text[exc.start]):04X}"
    return None


def check_unicode(loaded: Loaded) -> None:
    """Refuse a document with a lone surrogate escape (``"\\ud83d"`` with no pair) in a string:
    such a string is no Unicode text (RFC 8259 section 8.2 leaves its handling unpredictable;
    I-JSON, RFC 7493 section 2.1, forbids it), and neither ECMA-262 pattern matching nor the
    fast validator can read it. Cheap unless the text has a surrogate escape at all.

    Raises:
        InputError: naming the source, line and column of the value, and its JSON Pointer.
    """
    text = loaded.text
    if not SURROGATE_ESCAPE.search(text):
        return
    found = lone_surrogate(loaded.value)
    if found is not None:
        line, col = loaded.position(found[0]) or (None, None)
        raise lone_surrogate_error(found, loaded.source, line, col)


def lone_surrogate_error(found: tuple[str, str], source: str, line: int | None, col: int | None) -> InputError:
    """The :class:`InputError` for :func:`lone_surrogate`'s ``found`` at ``line``/``col`` of
    ``source`` (the pointer printable: a surrogate in a member name written ``\\udXXX``)."""
    ptr, code = found
    return InputError(f"lone surrogate {code} in a string: not Unicode text (RFC 7493 section 2.1)",
                      source, line, col, ptr.encode("utf-8", "backslashreplace").decode("utf-8"))


def wide_encoding(head: bytes) -> str | None:
    """The UTF-16 or UTF-32 encoding the first bytes ``head`` of a file show, or ``None``: a
    UTF-16/32 byte-order mark, or the NUL pattern of a text whose first character is ASCII, as
    RFC 4627 section 3 reads it (``00 00 00 xx`` UTF-32BE, ``00 xx 00 xx`` UTF-16BE, ``xx 00 00
    00`` UTF-32LE, ``xx 00 xx 00`` UTF-16LE). A NUL byte is never in UTF-8 JSON text (RFC 8259
    section 7 requires it escaped in strings), so naming the encoding only sharpens a refusal."""
    for bom, name in ((b"\x00\x00\xfe\xff", "UTF-32BE"), (b"\xff\xfe\x00\x00", "UTF-32LE"),
                      (b"\xfe\xff", "UTF-16BE"), (b"\xff\xfe", "UTF-16LE")):
        if head.startswith(bom):
            return name
    if len(head) < 4 or 0 not in head[:4]:
        return None
    nul = tuple(b == 0 for b in head[:4])
    return {(True, True, True, False): "UTF-32BE", (True, False, True, False): "UTF-16BE",
            (False, True, True, True): "UTF-32LE", (False, True, False, True): "UTF-16LE"}.get(nul)


def wide_error(head: bytes, source: str) -> InputError | None:
    """The refusal of a file that starts as UTF-16 or UTF-32 text (:func:`wide_encoding`), at
    line 1, column 1, or ``None``."""
    name = wide_encoding(head)
    if name is None:
        return None
    return InputError(f"the file is {name} text, not UTF-8 (RFC 8259 section 8.1: JSON text is UTF-8)", source, 1, 1)


def decode_bytes(data: bytes, source: str) -> str:
    """Decode UTF-8 strictly; a BOM, UTF-16/32 text (:func:`wide_error`) or an invalid byte
    sequence is an :class:`InputError`."""
    if data.startswith(b"\xef\xbb\xbf"):
        raise InputError(BOM_MESSAGE, source, 1, 1)
    wide = wide_error(data[:4], source)
    if wide is not None:
        raise wide
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        from .jsonpos import line_col

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


_NUMBER_SHAPE = bytes(0x30 if 0x30 <= b <= 0x39 else 0x65 if b in b"eE" else b if b == 0x2D else 0x20
                      for b in range(256))
"""Every digit as ``0``, ``E`` as ``e``, ``-`` as itself, every other byte a space."""
_LONG_RUN = b"0" * 19
_TINY_EXPONENT = b"0e-000"


def has_long_digits(raw: bytes) -> bool:
    """Whether ``raw`` has a run of 19 or more ASCII digits, enough for an integer beyond 64
    bits (2**63 has 19 digits), or a digit followed by a negative exponent of three or more
    digits (``5e-400``). A number whose double underflows to 0 (:func:`underflows`) has one or
    the other: below 2.5e-324 with at most 18 digits after the point needs an exponent below
    -305. Three C passes (translate, two substring searches): a regular expression takes about
    thirty times longer on large documents."""
    shape = raw.translate(_NUMBER_SHAPE)
    return _LONG_RUN in shape or _TINY_EXPONENT in shape


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
    a float), and a nonzero number too close to 0 as 0.0: a run of 19 or more digits or a
    three-digit negative exponent anywhere in the text (:func:`has_long_digits`) sends the
    document to the strict path, which keeps every integer exact and refuses the underflow.
    """
    orjson = _orjson()
    if orjson is None or b"\\u0022" in raw or has_long_digits(raw):
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


STRICT = json.JSONDecoder(object_pairs_hook=_pairs_hook, parse_constant=_parse_constant,
                          parse_float=_parse_float, parse_int=_parse_int)
"""The strict standard-library decoder: ``STRICT.decode(text)`` parses a whole text and
``STRICT.scan_once(text, index)`` one value (``(value, end)``; ``StopIteration(index)`` when no
value starts there). Its failures are the exceptions :func:`strict_error` translates."""

STRICT_FAILURES = (json.JSONDecodeError, RecursionError, _DuplicateKey, _BadNumber)
"""What :data:`STRICT` raises on a text it refuses."""


def fast_loads(raw: bytes) -> tuple[bool, Any]:
    """``(True, value)`` when the orjson fast path proves ``raw`` strict JSON (as :func:`loads`
    decides it), else ``(False, None)``: only the strict path can then decide."""
    value = _fast_loads(raw)
    return (False, None) if value is _SLOW else (True, value)


def strict_error(exc: BaseException, text: str, source: str, max_depth: int = MAX_DEPTH) -> InputError:
    """The :class:`InputError` for one of :data:`STRICT_FAILURES` raised while parsing
    ``text``: the message, and the line, column (and pointer, for a duplicate key) in ``text``."""
    if isinstance(exc, json.JSONDecodeError):
        return InputError(f"malformed JSON: {exc.msg}", source, exc.lineno, exc.colno)
    from .jsonpos import locate_duplicate, locate_token

    if isinstance(exc, _DuplicateKey):
        line, col, ptr = locate_duplicate(text, exc.key)
        return InputError(f"duplicate object key {exc.key!r}", source, line, col, ptr)
    if isinstance(exc, _BadNumber):
        line, col = locate_token(text, exc.text)
        what = ("NaN/Infinity is not JSON" if exc.text in ("NaN", "Infinity", "-Infinity") else
                "number out of range for an IEEE 754 double" if exc.text.lstrip("-").isdigit()
                or math.isinf(float(exc.text)) else
                "number too close to 0 for an IEEE 754 double (it would read as 0)")
        return InputError(f"{what}: {exc.text[:40]}", source, line, col)
    return InputError(f"nesting deeper than {max_depth} levels", source)


def loads(text: str | bytes, source: str = "<string>", *, max_depth: int = MAX_DEPTH,
          path: str | os.PathLike[str] | None = None) -> Loaded:
    """Parse ``text`` strictly. Raises :class:`InputError` naming ``source``, line and column.

    Bytes input of :data:`FAST_MIN_BYTES` or more takes a fast path (:func:`_fast_loads`) and
    falls back to the strict standard-library decoder, which produces the exact error and
    position, whenever the fast path cannot prove the document clean. ``path`` lets the returned :class:`Loaded` re-read the file for
    line numbers instead of keeping the text in memory.
    """
    if isinstance(text, (bytes, bytearray)) and max_depth >= 255 and len(text) >= FAST_MIN_BYTES:
        raw = bytes(text)
        value = _fast_loads(raw)
        if value is not _SLOW:
            if path is not None:
                return Loaded(value, source, path=path)
            return Loaded(value, source, raw=raw)
    if isinstance(text, (bytes, bytearray)):
        text = decode_bytes(bytes(text), source)
    if text.startswith("\ufeff"):
        raise InputError(BOM_MESSAGE, source, 1, 1)
    try:
        with gc_paused():
            value = STRICT.decode(text)
    except STRICT_FAILURES as exc:
        raise strict_error(exc, text, source, max_depth) from None
    check_depth(value, source, max_depth)
    loaded = Loaded(value, source, text)
    check_unicode(loaded)
    return loaded


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
