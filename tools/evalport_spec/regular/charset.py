"""Sets of Unicode code points as sorted, disjoint, non-adjacent closed intervals.

A :data:`Charset` is a tuple ``((lo, hi), ...)`` of code points ``0 <= lo <= hi <= 0x10FFFF``.
This module also holds the ECMA-262 character classes (ECMA-262 22.2.2.9, CharacterClassEscape;
22.2.2.7.3 for ``.``) and the order in which witnesses prefer characters.
"""

from __future__ import annotations

from functools import lru_cache

MAX_CP = 0x10FFFF

Charset = tuple[tuple[int, int], ...]


def normalize(ranges) -> Charset:
    """Sort and merge ``(lo, hi)`` pairs (overlapping or adjacent) into a :data:`Charset`."""
    out: list[tuple[int, int]] = []
    for lo, hi in sorted(ranges):
        if out and lo <= out[-1][1] + 1:
            if hi > out[-1][1]:
                out[-1] = (out[-1][0], hi)
        else:
            out.append((lo, hi))
    return tuple(out)


def of(chars: str) -> Charset:
    """The set of the code points of ``chars``."""
    return normalize((ord(c), ord(c)) for c in chars)


def union(*sets: Charset) -> Charset:
    """Union of charsets."""
    return normalize(r for s in sets for r in s)


def complement(s: Charset) -> Charset:
    """All code points ``0..0x10FFFF`` not in ``s``."""
    out = []
    nxt = 0
    for lo, hi in s:
        if lo > nxt:
            out.append((nxt, lo - 1))
        nxt = hi + 1
    if nxt <= MAX_CP:
        out.append((nxt, MAX_CP))
    return tuple(out)


ALL: Charset = ((0, MAX_CP),)
EMPTY: Charset = ()

# ECMA-262 22.2.2.9: \d, \w (without the i/u case folding extras: no flags in JSON Schema).
DIGIT: Charset = of("0123456789")
WORD: Charset = normalize([(0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A)])
# \s is WhiteSpace (ECMA-262 12.2: TAB VT FF SP NBSP ZWNBSP and category Zs) plus
# LineTerminator (12.3: LF CR LS PS). Zs as of Unicode 15: U+0020, U+00A0, U+1680,
# U+2000-U+200A, U+202F, U+205F, U+3000.
LINE_TERMINATOR: Charset = normalize([(0x0A, 0x0A), (0x0D, 0x0D), (0x2028, 0x2029)])
SPACE: Charset = union(
    normalize([(0x09, 0x0D), (0x20, 0x20), (0xA0, 0xA0), (0x1680, 0x1680), (0x2000, 0x200A),
               (0x202F, 0x202F), (0x205F, 0x205F), (0x3000, 0x3000), (0xFEFF, 0xFEFF)]),
    LINE_TERMINATOR,
)
# `.` without the s flag: every code point but a LineTerminator (22.2.2.7.3, CharacterSetMatcher).
DOT: Charset = complement(LINE_TERMINATOR)

# Witness preference: lower-case letters, digits, upper-case letters, then the other printable
# ASCII characters, then every other code point in code point order (surrogates last, since a
# lone surrogate cannot travel through JSON text to every validator).
_PREFERRED = "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ" + "".join(
    chr(c) for c in range(0x20, 0x7F) if not chr(c).isalnum())
_RANK = {ord(c): i for i, c in enumerate(_PREFERRED)}


def rank(cp: int) -> tuple[int, int]:
    """Sort key of a code point in witness order (smaller is preferred)."""
    r = _RANK.get(cp)
    if r is not None:
        return (0, r)
    return (2 if 0xD800 <= cp <= 0xDFFF else 1, cp)


@lru_cache(maxsize=8192)
def best(s: Charset, n: int = 1) -> tuple[int, ...]:
    """Up to ``n`` code points of ``s`` in witness order (:func:`rank`); the first is the least."""
    preferred = sorted(cp for lo, hi in s if lo <= 0x7E
                       for cp in range(max(lo, 0x20), min(hi, 0x7E) + 1))
    picked = sorted(preferred, key=_RANK.__getitem__)[:n]
    for tier in (1, 2):
        for lo, hi in s:
            if tier == 1:
                spans = [(lo, min(hi, 0xD7FF)), (max(lo, 0xE000), hi)]
            else:
                spans = [(max(lo, 0xD800), min(hi, 0xDFFF))]
            for a, b in spans:
                cp = a
                while cp <= b and len(picked) < n:
                    if cp not in _RANK:
                        picked.append(cp)
                    cp += 1
    return tuple(picked[:n])
