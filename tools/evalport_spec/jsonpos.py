"""Positions in a JSON text: the 1-based line and column where the value at a JSON Pointer
(RFC 6901) starts, for error messages and findings.

A small tokenizer over RFC 8259's grammar, used only when a caller asks for line numbers
(:meth:`evalport_spec.jsonload.Loaded.position`, validation reports), plus the locators the
strict loader uses to place a duplicate member name or a forbidden number token.
"""

from __future__ import annotations

import bisect
import json
import re
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from .pointer import join

_WS = re.compile(r"[ \t\r\n]*")
_STRING = re.compile(r'"(?:[^"\\\x00-\x1f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"')


def line_col(text: str, offset: int) -> tuple[int, int]:
    """The 1-based ``(line, column)`` of character ``offset`` in ``text`` (counts newlines:
    O(offset); for many offsets see :func:`_offset_to_line_col`)."""
    line = text.count("\n", 0, offset) + 1
    col = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return line, col


def _offset_to_line_col(text: str) -> Callable[[int], tuple[int, int]]:
    """A function mapping a character offset in ``text`` to its 1-based (line, column):
    one pass to find the line starts, then a binary search per offset."""
    line_starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def lc(off: int) -> tuple[int, int]:
        i = bisect.bisect_right(line_starts, off) - 1
        return i + 1, off - line_starts[i] + 1

    return lc


_TOKEN = re.compile(r"""[ \t\r\n]*(?:
    ("(?:[^"\\\x00-\x1f]++|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*+")  # 1 string (possessive: runs in C)
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

    Cost: O(len(text) + W + N log L) for N pointers found in a text of L lines, where W is the
    total size of the wanted pointers' ancestor lists (at most their length times their depth,
    which :data:`~evalport_spec.jsonload.MAX_DEPTH` bounds). Each wanted pointer is filed once
    under each ancestor; when a container closes, the wanted pointers below it that were not
    met are dropped by taking its list, so no pointer is looked at again (no set is rebuilt per
    pointer: 50k errors cost what 1k do, per error).

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
    targets: dict[str, list[str]] | None = None  # target -> wanted pointers strictly below it
    remaining: set[str] = set()
    if wanted is not None:
        targets = {}
        for p in wanted:
            if p in remaining:
                continue
            remaining.add(p)
            targets.setdefault(p, [])
            q = p
            while q:
                q = q[:q.rfind("/")]
                targets.setdefault(q, []).append(p)
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
            if targets is not None:  # nothing below it can follow: drop what was not met
                remaining.difference_update(targets.pop(closed, ()))
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
        return {p: line_col(text, off) for p, off in found.items()}
    lc = _offset_to_line_col(text)
    return {p: lc(off) for p, off in found.items()}


def locate_duplicate(text: str, key: str) -> tuple[int | None, int | None, str | None]:
    """Where the second occurrence of member name ``key`` within one object is:
    ``(line, column, JSON Pointer)`` (1-based), or ``(None, None, None)`` when not found."""
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


def _iter_member_positions(text: str) -> Iterator[tuple[str, tuple[int, int]]]:
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


def locate_token(text: str, token: str) -> tuple[int | None, int | None]:
    """``(line, column)`` (1-based) of the first occurrence of ``token`` outside a string (a
    crude quote count, good enough for an error position), or ``(None, None)``."""
    idx = -1
    for m in re.finditer(re.escape(token), text):
        # skip occurrences inside strings: crude check, good enough for an error position
        before = text[: m.start()]
        if before.count('"') - before.count('\\"') & 1 == 0:
            idx = m.start()
            break
    if idx < 0:
        return None, None
    return line_col(text, idx)
