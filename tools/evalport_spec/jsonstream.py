"""Streaming strict JSON: a top-level object read member by member, one array member (a
ResultSet's ``results``) item by item, in memory bounded by the largest item, whatever the file
size.

The strictness is :func:`evalport_spec.jsonload.loads`'s, with the same messages and positions:
the file is refused, with one :class:`~evalport_spec.errors.InputError`, where ``loads`` would
refuse the whole text (a byte-order mark; else the first invalid UTF-8 byte anywhere; else the
first error of the standard library's parse, in its order: malformed JSON, a duplicate member
name when its object closes, NaN/Infinity, a number out of range; else nesting deeper than
:data:`~evalport_spec.jsonload.MAX_DEPTH`).

How items are read fast. A batch of items is the bytes from an item's start to a *cut*: the
last place in the next few megabytes where an item ends and the next begins with the same
separator as seen before (``,`` and whitespace, ``{`` and the first member name, learned from
items parsed strictly). The batch is parsed by orjson wrapped as ``{"r":[...]}`` (so nesting
depth is the document's) with :func:`~evalport_spec.jsonload.fast_loads`'s proofs of strictness.
Success proves the cut right: the batch starts where an item starts, so its bytes tokenize as in
the whole text, and a parse of ``[`` batch ``]`` can succeed only when the batch is whole items.
Whenever a batch fails, or no separator is known yet, items are parsed one by one by the strict
standard-library scanner (:data:`~evalport_spec.jsonload.STRICT`), which is exact about errors.

Positions: the start of every stretch of about a megabyte of items is recorded (byte offset,
line and column), so :meth:`ObjectStream.positions` re-reads only the stretches that hold the
pointers asked for and maps them with :func:`~evalport_spec.jsonpos.positions`, giving what
``positions`` gives on the whole text.
"""

from __future__ import annotations

import bisect
import json
import os
import re
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from .errors import InputError
from .fsutil import open_regular
from .jsonload import (
    BOM_MESSAGE,
    MAX_BYTES,
    MAX_DEPTH,
    STRICT,
    STRICT_FAILURES,
    SURROGATE_ESCAPE,
    check_depth,
    fast_loads,
    lone_surrogate,
    lone_surrogate_error,
    strict_error,
    wide_error,
)
from .jsonpos import positions
from .pointer import escape

CHUNK = 1 << 22
"""Bytes read from the file at a time."""

BATCH = 1 << 22
"""Bytes of items parsed at once on the fast path."""

STRETCH = 1 << 20
"""Bytes of items per recorded position (what :meth:`ObjectStream.positions` re-reads)."""

_FIRST_WINDOW = 1 << 16
"""Characters decoded for one strict value at first (doubled while the value runs past them)."""

_NEAR_END = 64
"""An error this close to the end of a window may be the window's, not the file's: retry with
a larger window."""

_MAX_SEPARATORS = 8
_WS = re.compile(rb"[ \t\n\r]*")
_WS_TEXT = re.compile(r"[ \t\n\r]*")
_SEPARATOR = re.compile(r'[ \t\n\r]*,[ \t\n\r]*\{[ \t\n\r]*"(?:[^"\\]|\\.)*"')
_CONTINUATION = bytes(range(0x80, 0xC0))
_EXTENT = json.JSONDecoder(parse_float=str, parse_int=str, parse_constant=str)
"""A lenient scanner, only to find where a value the strict one refused ends."""
Event = tuple


class NotAnObject(Exception):
    """The top-level value is not an object: nothing to stream (the caller parses the file
    whole)."""


class _Refused(Exception):
    """Internal: the file is refused with ``error`` (``None``: for invalid UTF-8, to be found)."""

    def __init__(self, error: InputError | None) -> None:
        self.error = error


def _chars(data: bytes) -> int:
    """Characters in valid UTF-8 ``data`` (bytes that are not continuation bytes)."""
    return len(data) if data.isascii() else len(data.translate(None, _CONTINUATION))


def _byte_length(text: str, end: int) -> int:
    """Bytes of ``text[:end]`` in UTF-8, encoded a megabyte at a time (a value may be huge)."""
    if text.isascii():
        return end
    return sum(len(text[at:min(at + (1 << 20), end)].encode("utf-8")) for at in range(0, end, 1 << 20))


def _utf8_cut(data: bytes | memoryview) -> int:
    """Length of ``data`` without an incomplete multi-byte sequence at its end."""
    for back in range(1, min(4, len(data)) + 1):
        byte = data[-back]
        if byte < 0x80:
            return len(data)
        if byte >= 0xC0:  # a lead byte: complete when enough continuation bytes follow
            need = 2 if byte < 0xE0 else 3 if byte < 0xF0 else 4
            return len(data) if back >= need else len(data) - back
    return len(data)


class ObjectStream:
    """Read the JSON file at ``path`` (a top-level object) strictly, in pieces.

    Args:
        path: a regular file.
        source: its label in messages.
        array: the member whose array value is read item by item (``"results"``).
        progress: called with the number of bytes read so far, after each batch (also
            settable later as :attr:`progress`).
        batch, chunk: sizes in bytes (default :data:`BATCH`, :data:`CHUNK`; tests make them
            small to cross every boundary).

    Iterating yields, in file order: ``("member", name, value)`` for each member other than
    the array; ``("array", name)`` when the array starts; ``("items", first_index, values)``
    for each batch of its items. Afterwards :attr:`members` holds every member but the array,
    :attr:`count` the number of items, :attr:`streamed` whether the array was read item by item,
    and :meth:`positions` maps pointers to lines. :attr:`size` is the file's size in bytes.

    Raises (while iterating):
        InputError: as :func:`~evalport_spec.jsonload.loads` on the whole text (module
            docstring), or an item or member larger than
            :data:`~evalport_spec.jsonload.MAX_BYTES`.
        NotAnObject: the top-level value is not an object (nothing read is lost: start over).
    """

    def __init__(self, path: str | os.PathLike[str], source: str, array: str, *,
                 progress: Callable[[int], None] | None = None, batch: int | None = None,
                 chunk: int | None = None) -> None:
        self.source = source
        self.array = array
        self.members: dict[str, Any] = {}
        self.count = 0
        self.streamed = False
        self.progress = progress
        self._batch = batch or BATCH
        self._chunk = chunk or CHUNK
        self._fd = open_regular(path, source)
        self.size = os.fstat(self._fd).st_size
        self._buf = b""
        self._base = 0  # file offset of _buf[0]
        self._eof = False
        self._line, self._col = 1, 1  # position of _buf[0]
        self._keys: list[tuple[str, int, int]] = []  # member names in order, with line, column
        self._values: dict[str, tuple[int, int, int, int]] = {}  # name -> start, end, line, col
        self._stretches: list[list[int]] = []  # [first, count, start, end, line, col]
        self._root: tuple[int, int] = (1, 1)
        self._opening: tuple[int, int] = (1, 1)  # the array's '['
        self._separators: list[bytes] = []
        self._too_deep: InputError | None = None
        self.lone: tuple[str, str] | None = None
        """The first lone surrogate read so far, ``(pointer, "U+XXXX")``: the file is refused at
        its end (as :func:`~evalport_spec.jsonload.check_unicode`); validate nothing after it."""

    def close(self) -> None:
        """Close the file (:meth:`positions` needs it open)."""
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1

    def __enter__(self) -> ObjectStream:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- reading ---------------------------------------------------------------------------

    def _need(self, end: int) -> None:
        """Read until ``_buf`` holds ``end`` bytes or the file ends."""
        parts = [self._buf]
        have = len(self._buf)
        while have < end and not self._eof:
            try:
                data = os.read(self._fd, max(self._chunk, end - have))
            except BlockingIOError:  # pragma: no cover - a regular file never blocks
                continue
            except OSError as exc:
                raise _Refused(InputError(f"cannot read: {exc.strerror}", self.source)) from None
            if not data:
                self._eof = True
            parts.append(data)
            have += len(data)
        if len(parts) > 1:
            self._buf = b"".join(parts)

    def _byte(self, i: int) -> int | None:
        self._need(i + 1)
        return self._buf[i] if i < len(self._buf) else None

    def _skip_ws(self, i: int) -> int:
        while True:
            j = _WS.match(self._buf, i).end()
            if j < len(self._buf) or self._eof:
                return j
            self._need(j + self._chunk)
            i = j

    def _where(self, i: int) -> tuple[int, int]:
        """``(line, column)`` of ``_buf[i]`` (column in characters)."""
        newlines = self._buf.count(b"\n", 0, i)
        if not newlines:
            return self._line, self._col + _chars(self._buf[:i])
        last = self._buf.rfind(b"\n", 0, i)
        return self._line + newlines, _chars(self._buf[last + 1:i]) + 1

    def _consume(self, i: int) -> None:
        """Drop ``_buf[:i]`` (its line and column counted)."""
        if i:
            self._line, self._col = self._where(i)
            self._buf = self._buf[i:]
            self._base += i
            if self.progress is not None:
                self.progress(self._base)

    def _fail(self, message: str, i: int) -> _Refused:
        line, col = self._where(i)
        return _Refused(InputError(f"malformed JSON: {message}", self.source, line, col))

    def _text(self, i: int, size: int) -> tuple[str, bool]:
        """The characters of ``_buf[i:i+size]`` (fewer at an incomplete UTF-8 sequence) and
        whether they reach the end of the file."""
        self._need(i + size)
        final = self._eof and i + size >= len(self._buf)
        with memoryview(self._buf) as view:  # no copy of the bytes: a value may be huge
            data = view[i:i + size]
            if not final:
                data = data[:_utf8_cut(data)]
            try:
                return str(data, "utf-8"), final
            except UnicodeDecodeError:
                raise _Refused(None) from None
            finally:
                data.release()

    def _map(self, text: str, offset: int) -> tuple[int, int]:
        """``(line, column)`` of character ``offset`` of ``text``, which starts at ``_buf[0]``."""
        line, col = self._line, self._col
        newlines = text.count("\n", 0, offset)
        if not newlines:
            return line, col + offset
        return line + newlines, offset - text.rfind("\n", 0, offset)

    def _strict_failure(self, exc: BaseException, text: str, offset: int, prefix: str) -> _Refused:
        """The refusal for ``exc``, raised by the strict scanner on ``text`` (which starts at
        ``_buf[0]``) while parsing the value at character ``offset``, whose pointer is
        ``prefix``; located in the file as :func:`~evalport_spec.jsonload.loads` locates it."""
        if isinstance(exc, StopIteration):
            exc = json.JSONDecodeError("Expecting value", text, exc.value)
        if isinstance(exc, json.JSONDecodeError):
            line, col = self._map(text, exc.pos)
            return _Refused(InputError(f"malformed JSON: {exc.msg}", self.source, line, col))
        value_text = self._value_text(text, offset)
        error = strict_error(exc, value_text, self.source)  # located within the value
        if error.line is not None and error.column is not None:
            line, col = _shift((error.line, error.column), *self._map(text, offset))
            pointer = prefix + error.pointer if error.pointer is not None else None
            error = InputError(error.message, self.source, line, col, pointer)
        return _Refused(error)

    def _value_text(self, text: str, offset: int) -> str:
        """The whole text of the value at character ``offset`` of ``text`` (which starts at
        ``_buf[0]`` and may end inside it), read further when needed; the rest of the file
        when the value does not end (the locators then see what the whole parse saw)."""
        start = _byte_length(text, offset)
        size = max(len(text) - offset, _FIRST_WINDOW)
        while True:
            rest, final = self._text(start, size)
            try:
                return rest[:_EXTENT.scan_once(rest, 0)[1]]
            except (StopIteration, ValueError, RecursionError):
                if final:
                    return rest
                size *= 2

    @staticmethod
    def _suspect(exc: BaseException, text: str) -> bool:
        """Whether ``exc`` (raised on a window that does not reach the end of the file) may
        come from the window's end rather than the file."""
        if isinstance(exc, StopIteration):
            return exc.value >= len(text) - _NEAR_END
        if isinstance(exc, json.JSONDecodeError):
            return exc.pos >= len(text) - _NEAR_END or exc.msg.startswith("Unterminated string")
        token = getattr(exc, "text", None)  # a number or constant refused by the hooks
        return isinstance(token, str) and text.rfind(token) >= len(text) - _NEAR_END - len(token)

    def _value(self, base: int, prefix: str) -> tuple[Any, int]:
        """Parse the value starting at ``_buf[0]`` strictly; ``(value, index after it)``.
        ``base``: the depth of its parent; ``prefix``: its pointer (for messages)."""
        size = _FIRST_WINDOW
        while True:
            text, final = self._text(0, size)
            try:
                value, end = STRICT.scan_once(text, 0)
            except (StopIteration, *STRICT_FAILURES) as exc:
                if not final and not isinstance(exc, RecursionError) and self._suspect(exc, text):
                    size = self._grow(size)
                    continue
                raise self._strict_failure(exc, text, 0, prefix) from None
            self._check_depth(value, base)
            self._note_lone(value, prefix, text, 0, end)
            return value, _byte_length(text, end)

    def _grow(self, size: int) -> int:
        if size > MAX_BYTES:
            raise _Refused(InputError(f"a single value is larger than the {MAX_BYTES}-byte "
                                      "limit; it cannot be read", self.source))
        return size * 2

    def _note_lone(self, value: Any, prefix: str, text: str, start: int, end: int) -> None:
        """Remember the first lone surrogate of ``value`` (at ``prefix``, its text
        ``text[start:end]``), looked for only where the text has a surrogate escape."""
        if self.lone is None and SURROGATE_ESCAPE.search(text, start, end):
            found = lone_surrogate(value)
            if found is not None:
                self.lone = (prefix + found[0], found[1])

    def _check_depth(self, value: Any, base: int) -> None:
        if self._too_deep is None and isinstance(value, (dict, list)):
            try:
                check_depth(value, self.source, MAX_DEPTH, base=base)
            except InputError as exc:
                self._too_deep = exc

    # --- the document ----------------------------------------------------------------------

    def __iter__(self) -> Iterator[Event]:
        try:
            yield from self._document()
        except _Refused as refused:
            raise self._utf8_error() or refused.error or InputError(
                "invalid UTF-8", self.source) from None

    def _document(self) -> Iterator[Event]:
        self._need(4)
        if self._buf.startswith(b"\xef\xbb\xbf"):
            raise InputError(BOM_MESSAGE, self.source, 1, 1)
        wide = wide_error(bytes(self._buf[:4]), self.source)
        if wide is not None:
            raise wide
        i = self._skip_ws(0)
        byte = self._byte(i)
        if byte is None:
            raise self._fail("Expecting value", i)
        if byte != ord("{"):
            raise NotAnObject()
        self._root = self._where(i)
        i = self._skip_ws(i + 1)
        if self._byte(i) == ord("}"):
            i += 1
        else:
            while True:
                if self._byte(i) != ord('"'):
                    raise self._fail("Expecting property name enclosed in double quotes", i)
                key, i = self._key(i)
                i = self._skip_ws(i)
                if self._byte(i) != ord(":"):
                    raise self._fail("Expecting ':' delimiter", i)
                i = self._skip_ws(i + 1)
                if key == self.array and not self.streamed and self._byte(i) == ord("["):
                    self.streamed = True
                    self._consume(i)
                    yield ("array", key)
                    i = yield from self._items()
                else:
                    self._consume(i)
                    start = self._where(0)
                    value, i = self._value(1, "/" + escape(key))
                    self._values.setdefault(key, (self._base, self._base + i, *start))
                    self.members[key] = value
                    yield ("member", key, value)
                i = self._skip_ws(i)
                byte = self._byte(i)
                if byte == ord("}"):
                    i += 1
                    break
                if byte != ord(","):
                    raise self._fail("Expecting ',' delimiter", i)
                i = self._skip_ws(i + 1)
        self._duplicates()
        i = self._skip_ws(i)
        if self._byte(i) is not None:
            raise self._fail("Extra data", i)
        self._consume(i)
        if self._too_deep is not None:
            raise self._too_deep
        if self.lone is not None:
            raise lone_surrogate_error(self.lone, self.source, *self.positions([self.lone[0]])[self.lone[0]])

    def _key(self, i: int) -> tuple[str, int]:
        """The member name whose quote is at ``_buf[i]``, and the index after it."""
        self._consume(i)
        self._keys.append(("", *self._where(0)))
        size = _FIRST_WINDOW
        while True:
            text, final = self._text(0, size)
            try:
                key, end = json.decoder.scanstring(text, 1, True)
            except json.JSONDecodeError as exc:
                if not final and self._suspect(exc, text):
                    size = self._grow(size)
                    continue
                raise self._strict_failure(exc, text, 0, "") from None
            self._keys[-1] = (key, *self._keys[-1][1:])
            self._note_lone(key, "/" + escape(key), text, 0, end)
            return key, _byte_length(text, end)

    def _duplicates(self) -> None:
        """Refuse a member name of the top-level object given twice (at the second one)."""
        seen: set[str] = set()
        for key, line, col in self._keys:
            if key in seen:
                raise _Refused(InputError(f"duplicate object key {key!r}", self.source, line, col,
                                          "/" + escape(key)))
            seen.add(key)

    def _items(self) -> Iterator[Event]:
        """Read the array whose ``[`` is at ``_buf[0]``; returns the index after its ``]``."""
        self._opening = self._where(0)
        i = self._skip_ws(1)
        if self._byte(i) == ord("]"):
            return i + 1
        while True:
            self._consume(i)
            i, done, cut = yield from self._fast_batch()
            if i is None:  # strictly up to where the fast path could not go (or to learn)
                i, done = yield from self._strict_items(cut or min(_FIRST_WINDOW, self._batch))
            if done:
                return i

    def _fast_batch(self) -> Iterator[Event]:
        """Items from ``_buf[0]`` to the last known separator within :attr:`_batch` bytes,
        parsed by orjson; ``(index of the next item, False, cut)``, or ``(None, False, cut)``
        when there is no such separator (``cut`` 0) or the batch up to ``cut`` is not provably
        strict JSON."""
        if not self._separators:
            return None, False, 0
        self._need(self._batch + self._chunk)
        cut, found = 0, b""
        for sep in self._separators:
            at = self._buf.rfind(sep, 1, min(len(self._buf), self._batch + len(sep)))
            if at > cut:
                cut, found = at, sep
        if not cut:
            return None, False, 0
        ok, value = fast_loads(b'{"r":[' + self._buf[:cut] + b"]}")
        if not ok:
            return None, False, cut
        self._record(value["r"], cut)
        yield ("items", self.count - len(value["r"]), value["r"])
        return cut + found.index(b"{"), False, cut

    def _record(self, values: list[Any], end: int) -> None:
        """Count ``values`` (the items from ``_buf[0]`` to ``_buf[end]``) into the stretches."""
        first = self.count
        self.count += len(values)
        last = self._stretches[-1] if self._stretches else None
        if last is not None and last[0] + last[1] == first and last[3] - last[2] < STRETCH:
            last[1] += len(values)
            last[3] = self._base + end
        else:
            self._stretches.append([first, len(values), self._base, self._base + end,
                                    self._line, self._col])

    def _strict_items(self, limit: int) -> Iterator[Event]:
        """Items from ``_buf[0]`` one by one with the strict scanner, until ``limit`` bytes are
        passed; ``(index of the next item, False)``, or ``(index after the ']', True)``."""
        first_size = max(_FIRST_WINDOW, min(limit + _FIRST_WINDOW, 1 << 20))
        size = first_size
        passed = 0
        while True:
            text, final = self._text(0, size)
            values: list[Any] = []
            start = end = _WS_TEXT.match(text).end()  # a window may begin between items
            done: bool | None = None
            while True:
                try:
                    value, after = STRICT.scan_once(text, start)
                except (StopIteration, *STRICT_FAILURES) as exc:
                    if not final and not isinstance(exc, RecursionError) and self._suspect(exc, text):
                        break  # the window cut this item
                    raise self._strict_failure(exc, text, start, self._item_pointer(values)) from None
                j = _WS_TEXT.match(text, after).end()
                if j >= len(text) and not final:
                    break  # what follows the item lies past the window
                self._check_depth(value, 2)
                self._note_lone(value, self._item_pointer(values), text, start, after)
                values.append(value)
                end = after
                self._learn(text, after)
                if j < len(text) and text[j] == "]":
                    done, start = True, j + 1
                    break
                if j >= len(text) or text[j] != ",":
                    line, col = self._map(text, j)
                    raise _Refused(InputError("malformed JSON: Expecting ',' delimiter",
                                              self.source, line, col))
                start = _WS_TEXT.match(text, j + 1).end()
                if start >= len(text) and not final:
                    break  # the next item lies past the window
                if passed + start >= limit:  # characters: at least as many bytes
                    done = False
                    break
            if not values:  # one item larger than the window
                size = self._grow(size)
                continue
            end_bytes = _byte_length(text, end)
            start_bytes = end_bytes + _byte_length(text[end:start], start - end)
            self._record(values, end_bytes)
            yield ("items", self.count - len(values), values)
            if done is not None:
                return start_bytes, done
            self._consume(start_bytes)  # go on strictly from the item the window cut
            passed += start_bytes
            size = first_size

    def _item_pointer(self, values: list[Any]) -> str:
        return f"/{escape(self.array)}/{self.count + len(values)}"

    def _learn(self, text: str, end: int) -> None:
        """Remember the separator after the item ending at ``text[end]`` (module docstring)."""
        if len(self._separators) >= _MAX_SEPARATORS:
            return
        m = _SEPARATOR.match(text, end)
        if m is not None and m.end() < len(text):
            sep = m.group().encode("utf-8")
            if sep not in self._separators:
                self._separators.append(sep)

    # --- errors ----------------------------------------------------------------------------

    def _utf8_error(self) -> InputError | None:
        """The first invalid UTF-8 byte of the whole file as
        :func:`~evalport_spec.jsonload.decode_bytes` reports it (its line and column formula
        included), or ``None``."""
        offset, carry = 0, b""  # file offset of carry + the next read
        newlines, last_newline, chars = 0, -1, 0
        while True:
            fresh = os.pread(self._fd, self._chunk, offset + len(carry))
            data, final = carry + fresh, not fresh
            cut = len(data) if final else _utf8_cut(data)
            try:
                text = data[:cut].decode("utf-8")
            except UnicodeDecodeError as exc:
                text, bad = data[:exc.start].decode("utf-8"), offset + exc.start
            else:
                bad = None
            at = text.rfind("\n")
            if at >= 0:
                last_newline = chars + at
            newlines += text.count("\n")
            chars += len(text)
            if bad is not None:
                return InputError(f"invalid UTF-8 at byte {bad}", self.source, newlines + 1,
                                  bad - last_newline)
            if final:
                return None
            offset += cut
            carry = data[cut:]

    # --- positions -------------------------------------------------------------------------

    def positions(self, pointers: Iterable[str]) -> dict[str, tuple[int, int]]:
        """``{pointer: (line, column)}`` for each of ``pointers``: where its value starts, or
        where its nearest ancestor that exists starts (as
        :meth:`evalport_spec.validation.report.FileReport.position` reads
        :func:`~evalport_spec.jsonpos.positions`). Call after iterating, before
        :meth:`close`."""
        out: dict[str, tuple[int, int]] = {}
        by_stretch: dict[int, list[tuple[str, int, str]]] = {}
        by_member: dict[str, list[tuple[str, str]]] = {}
        firsts = [s[0] for s in self._stretches]
        array = "/" + escape(self.array)
        for pointer in set(pointers):
            if pointer == "":
                out[pointer] = self._root
                continue
            head, _, rest = pointer[1:].partition("/")
            rest = "/" + rest if _ else ""
            if self.streamed and "/" + head == array:
                index_text, _, tail = rest[1:].partition("/")
                tail = "/" + tail if _ else ""
                if index_text.isdigit() and int(index_text) < self.count:
                    n = int(index_text)
                    k = bisect.bisect_right(firsts, n) - 1
                    by_stretch.setdefault(k, []).append((pointer, n - self._stretches[k][0], tail))
                else:
                    out[pointer] = self._opening
            elif head in self._by_escaped():
                by_member.setdefault(self._by_escaped()[head], []).append((pointer, rest))
            else:
                out[pointer] = self._root
        for k, wanted in by_stretch.items():
            _, _, start, end, line, col = self._stretches[k]
            text = "[" + os.pread(self._fd, end - start, start).decode("utf-8") + "]"
            found = positions(text, {f"/{n}{tail}" for _, n, tail in wanted})
            for pointer, n, tail in wanted:
                out[pointer] = _shift(_nearest(found, f"/{n}{tail}", f"/{n}"), line, col - 1)
        for key, wanted in by_member.items():
            start, end, line, col = self._values[key]
            text = os.pread(self._fd, end - start, start).decode("utf-8")
            found = positions(text, {rest for _, rest in wanted})
            for pointer, rest in wanted:
                out[pointer] = _shift(_nearest(found, rest, ""), line, col)
        return out

    def _by_escaped(self) -> dict[str, str]:
        return {escape(k): k for k in self._values}


def _nearest(found: dict[str, tuple[int, int]], pointer: str, floor: str) -> tuple[int, int]:
    """The position of ``pointer`` in ``found``, else of its nearest ancestor there (never
    above ``floor``, which is always there)."""
    while pointer not in found and pointer != floor:
        pointer = pointer.rsplit("/", 1)[0]
    return found[pointer]


def _shift(pos: tuple[int, int], line: int, col: int) -> tuple[int, int]:
    """Map ``pos`` in a text that starts at file position ``(line, col)`` to the file."""
    if pos[0] == 1:
        return line, col + pos[1] - 1
    return line + pos[0] - 1, pos[1]
