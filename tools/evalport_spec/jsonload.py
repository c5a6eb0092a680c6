"""Safe JSON loading: strict RFC 8259, with positions for error messages and findings.

The fast path is the standard library's C decoder with hooks that reject what RFC 8259 leaves
to implementations and that this project refuses: duplicate object member names (RFC 8259
section 4 says names SHOULD be unique), ``NaN``/``Infinity`` (not JSON at all), numbers that
overflow an IEEE 754 double, a byte-order mark (RFC 8259 section 8.1: MUST NOT be added), invalid
UTF-8, nesting deeper than :data:`MAX_DEPTH`, and files larger than :data:`MAX_BYTES`.

Positions (1-based line and column for every JSON Pointer) are computed lazily by a small
tokenizer (:func:`positions`) only when a caller asks, so large documents cost nothing extra.
"""

from __future__ import annotations

import bisect
import contextlib
import gc
import json
import math
import os
import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from .errors import InputError
from .pointer import join

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
                    raw = Path(self._path).read_bytes()
                except OSError:
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


def _line_col(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset) + 1
    col = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return line, col


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
        line, col = _line_col(data[: exc.start].decode("utf-8", "replace"), exc.start)
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
        line, col, ptr = _locate_duplicate(text, exc.key)
        raise InputError(f"duplicate object key {exc.key!r}", source, line, col, ptr) from None
    except _BadNumber as exc:
        line, col = _locate_token(text, exc.text)
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
    from .fsutil import read_limited

    data = read_limited(path, max_bytes=max_bytes, label=label, within=within)
    return loads(data, label or str(path), max_depth=max_depth, path=path)


# --- positions: a small tokenizer, used only when a caller needs line numbers -------------------

_WS = re.compile(r"[ \t\r\n]*")
_STRING = re.compile(r'"(?:[^"\\\x00-\x1f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"')
_NUMBER = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?")
_LITERAL = re.compile(r"true|false|null|NaN|-?Infinity")


def _offset_to_line_col(text: str):
    """A function mapping a character offset in ``text`` to its 1-based (line, column)."""
    line_starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def lc(off: int) -> tuple[int, int]:
        i = bisect.bisect_right(line_starts, off) - 1
        return i + 1, off - line_starts[i] + 1

    return lc


_TOKEN = re.compile(r"""[ \t\r\n]*(?:
    ("(?:[^"\\\x00-\x1f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*")     # 1 string
  | ([{\[])                                                          # 2 opener
  | ([}\]])                                                          # 3 closer
  | (,)                                                              # 4 comma
  | (:)                                                              # 5 colon
  | (-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null|NaN|-?Infinity)  # 6 scalar
  | ([^ \t\r\n])                                                      # 7 anything else
)""", re.VERBOSE)
_SKIP = re.compile(r'(?:[^"\[\]{}]++|"(?:[^"\\]++|\\.)*+")*+([\[\]{}])', re.DOTALL)
"""Everything up to the next bracket outside a string, in one match (possessive: no
backtracking); used to step over containers that hold no wanted pointer."""
_VALUE, _FIRST_ITEM, _FIRST_KEY, _KEY, _COLON, _AFTER = range(6)


def positions(text: str, wanted: Iterable[str] | None = None) -> dict[str, tuple[int, int]]:
    """Map JSON Pointers in ``text`` to the 1-based ``(line, column)`` where their value starts.

    One scan over the tokens of RFC 8259's grammar, each found by one regular expression match;
    iterative; tolerant of duplicate keys (the first occurrence wins).

    Args:
        text: a JSON text.
        wanted: when given, only these pointers and their ancestors are mapped; a container
            that holds none of them is stepped over bracket to bracket (its content is not
            checked), and the scan stops as soon as every wanted pointer is found or can no
            longer occur (its parent closed). A wanted pointer absent from the text is absent
            from the result.

    Returns:
        ``{pointer: (line, column)}``.

    Raises:
        ValueError: the scanned text is not JSON (with ``wanted``, text after the point where
            the scan stopped is not looked at).
    """
    targets: set[str] | None = None
    remaining: set[str] = set()
    if wanted is not None:
        targets = set()
        for p in wanted:
            remaining.add(p)
            while p not in targets:
                targets.add(p)
                if not p:
                    break
                p = p.rsplit("/", 1)[0]
        if not remaining:
            return {}
    found: dict[str, int] = {}  # pointer -> character offset
    stack: list[list[Any]] = []  # [is_object, pointer, index]
    state = _VALUE
    ptr = ""
    skip = 0  # depth inside a container skipped because it holds no target
    pos = 0
    while remaining or targets is None:
        if skip:  # inside a container without targets: only brackets matter
            s = _SKIP.match(text, pos)
            if s is None:
                raise ValueError(f"unterminated container before {len(text)}")
            pos = s.end()
            if s.group(1) in "[{":
                skip += 1
            else:
                skip -= 1
                if not skip:
                    state = _AFTER
            continue
        m = _TOKEN.match(text, pos)
        if m is None:  # only whitespace left
            break
        pos = m.end()
        kind = m.lastindex
        start = m.start(kind)
        if kind == 3 and (state == _AFTER or (state == _FIRST_ITEM and text[start] == "]")
                          or (state == _FIRST_KEY and text[start] == "}")):
            if not stack or (text[start] == "}") != stack[-1][0]:
                raise ValueError(f"unmatched closing bracket at {start}")
            closed = stack.pop()[1]
            state = _AFTER
            if targets is not None and closed in targets:  # nothing below it can follow
                prefix = closed + "/"
                remaining = {p for p in remaining if not p.startswith(prefix)}
            continue
        if state == _VALUE or state == _FIRST_ITEM:
            if kind == 1 or kind == 6:
                if targets is None or ptr in targets:
                    found.setdefault(ptr, start)
                    remaining.discard(ptr)
                state = _AFTER
                continue
            if kind != 2:
                raise ValueError(f"expected a value at {start}")
            if targets is not None and ptr not in targets:
                skip = 1
                continue
            found.setdefault(ptr, start)
            remaining.discard(ptr)
            if text[start] == "{":
                stack.append([True, ptr, None])
                state = _FIRST_KEY
            else:
                stack.append([False, ptr, 0])
                ptr = f"{ptr}/0"
                state = _FIRST_ITEM
            continue
        if state == _AFTER:
            if not stack:
                raise ValueError(f"trailing data at {start}")
            if kind != 4:
                raise ValueError(f"expected ',' or a closing bracket at {start}")
            top = stack[-1]
            if top[0]:
                state = _KEY
            else:
                top[2] += 1
                ptr = f"{top[1]}/{top[2]}"
                state = _VALUE
            continue
        if state == _FIRST_KEY or state == _KEY:
            if kind != 1:
                raise ValueError(f"expected a member name at {start}")
            raw = m.group(1)
            key = json.loads(raw) if "\\" in raw else raw[1:-1]
            if "~" in key or "/" in key:
                key = key.replace("~", "~0").replace("/", "~1")
            ptr = f"{stack[-1][1]}/{key}"
            state = _COLON
            continue
        if kind != 5:  # state == _COLON
            raise ValueError(f"expected ':' at {start}")
        state = _VALUE
    if targets is None and (stack or state != _AFTER):
        raise ValueError(f"unexpected end of text at {len(text)}")
    if len(found) <= 64:  # a few lookups: count newlines directly
        return {p: _line_col(text, off) for p, off in found.items()}
    lc = _offset_to_line_col(text)
    return {p: lc(off) for p, off in found.items()}


def _locate_duplicate(text: str, key: str) -> tuple[int | None, int | None, str | None]:
    """Find the second occurrence of ``key`` within one object; return (line, col, pointer)."""
    try:
        seen: dict[str, tuple[int, int]] = {}
        dup: list[tuple[str, tuple[int, int]]] = []
        # Re-scan with a variant of positions() that records duplicates.
        for ptr, lc in _iter_member_positions(text):
            if ptr in seen:
                dup.append((ptr, lc))
            else:
                seen[ptr] = lc
        for ptr, (line, col) in dup:
            if ptr.rsplit("/", 1)[-1].replace("~1", "/").replace("~0", "~") == key:
                return line, col, ptr
    except ValueError:
        pass
    return None, None, None


def _iter_member_positions(text: str):
    """Yield (pointer, (line, col)) for every object member name, duplicates included."""
    lc = _offset_to_line_col(text)

    stack: list[list[Any]] = []
    pos = 0
    n = len(text)
    in_key_pos = False
    while pos < n:
        ch = text[pos]
        if ch == '"':
            m = _STRING.match(text, pos)
            if not m:
                raise ValueError("bad string")
            after = _WS.match(text, m.end()).end()
            if stack and stack[-1][0] == "o" and after < n and text[after] == ":" and in_key_pos:
                key = json.loads(m.group(0))
                stack[-1][2] = key
                yield join(stack[-1][1], key), lc(pos)
                in_key_pos = False
            pos = m.end()
            continue
        if ch == "{":
            parent = _child_ptr(stack)
            stack.append(["o", parent, None])
            in_key_pos = True
        elif ch == "[":
            parent = _child_ptr(stack)
            stack.append(["a", parent, 0])
        elif ch in "}]":
            if stack:
                stack.pop()
        elif ch == ",":
            if stack and stack[-1][0] == "a":
                stack[-1][2] += 1
            elif stack:
                in_key_pos = True
        pos += 1


def _child_ptr(stack: list[list[Any]]) -> str:
    if not stack:
        return ""
    kind, ptr, cur = stack[-1]
    return join(ptr, cur if cur is not None else "")


def _locate_token(text: str, token: str) -> tuple[int | None, int | None]:
    idx = -1
    for m in re.finditer(re.escape(token), text):
        # skip occurrences inside strings: crude check, good enough for an error position
        before = text[: m.start()]
        if before.count('"') - before.count('\\"') & 1 == 0:
            idx = m.start()
            break
    if idx < 0:
        return None, None
    return _line_col(text, idx)
