"""ECMA-262 regular expressions: the one reading of ``pattern``, ``patternProperties`` and
``format: regex`` every part of the toolchain uses.

JSON Schema 2020-12 (Validation 6.3.3, Core 6.4) says a pattern is an ECMA-262 regular
expression. ECMA-262 and Python's :mod:`re` part ways on ordinary patterns: in ECMA-262 ``\\d``
is ``[0-9]``, ``\\w`` and ``\\b`` are ASCII, ``\\s`` is the ECMA white space and line terminator
set, ``.`` excludes the four line terminators and ``$`` matches only at the end of input; in
Python ``\\d``/``\\w`` are Unicode-wide and ``$`` also matches before a final ``"\\n"``. The
classifier (:mod:`evalport_spec.regular`) reads patterns as ECMA-262, so the validator must too,
or a change it calls PATCH (``\\d`` to ``[0-9]``) loses documents the validator accepted.

Matching is done by ``regress`` (a Rust ECMA-262 engine), with the ``u`` flag JSON Schema
recommends; a pattern that only parses without it (Annex B's identity escapes such as ``\\-``,
a lone ``]``) is read without it, as validators and :mod:`evalport_spec.regular.ecma` do.
A pattern ``regress`` refuses either way is not an ECMA-262 regular expression.

:mod:`evalport_spec.pyvalidator` gives python-jsonschema these semantics for ``pattern``,
``patternProperties``, ``additionalProperties`` (whose "additional" depends on
``patternProperties``) and the ``regex`` format; this module imports neither validator.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

import regress


class NotEcmaRegex(ValueError):
    """The text is not an ECMA-262 regular expression; the message says why (regress's words)."""


@lru_cache(maxsize=4096)
def _compiled(source: str) -> regress.Regex | NotEcmaRegex:
    try:
        return regress.Regex(source, "u")
    except regress.RegressError:
        pass
    try:
        return regress.Regex(source)
    except regress.RegressError as exc:
        return NotEcmaRegex(f"{source!r} is not an ECMA-262 regular expression: {exc}")


def compile_ecma(source: str) -> regress.Regex:
    """``source`` compiled as ECMA-262 (memoised).

    Raises:
        NotEcmaRegex: ``source`` is not an ECMA-262 regular expression.
    """
    got = _compiled(source)
    if isinstance(got, NotEcmaRegex):
        raise got
    return got


_LONE = re.compile("[\ud800-\udfff]")
_STAND_IN = "\ue000"
"""What a lone surrogate is matched as: the code point just after the surrogate block."""
_NEAR = r"(?:[dD][89a-fA-F][0-9a-fA-F]{2}|[eE]000)"
_NEAR_SURROGATES = re.compile(rf"\\[pP]|\\u{_NEAR}|\\u\{{0*{_NEAR}\}}|\ue000")


def search(source: str, text: str) -> bool:
    """Whether ``text`` contains a match of ECMA-262 ``source`` (patterns are not anchored,
    Validation 6.3.3). A source that is not a regular expression matches nothing.

    A lone surrogate in ``text`` (possible in a Python string, not in UTF-8, so not in
    regress's input) is one code point to ECMA-262 with the ``u`` flag; it is matched as
    U+E000, which every pattern treats alike unless it names a code point from U+D800 to
    U+E000 (``\\uD800``..``\\uE000``, ``\\u{..}``, a literal U+E000) or a Unicode property
    (``\\p``/``\\P``: the two differ in general category): ``.``, ``\\s``, ``\\w``, ``\\d``,
    negated classes and ranges between other code points cover both or neither.

    Raises:
        ValueError: ``text`` holds a lone surrogate and ``source`` one of those constructs or a
            lone surrogate itself (the answer cannot be computed; never a wrong one).
    """
    got = _compiled(source)
    if isinstance(got, NotEcmaRegex):
        return False
    if _LONE.search(text):
        if _NEAR_SURROGATES.search(source) or _LONE.search(source):
            raise ValueError(f"cannot match {source!r} on a string holding a lone surrogate")
        text = _LONE.sub(_STAND_IN, text)
    return got.find(text) is not None


_ALIKE_ESCAPES = frozenset("dDwWsS.\\/-^$*+?()[]{}|ntrfv")
"""Escapes read alike by both: the class escapes, the line escapes and escaped syntax."""
_HEX = frozenset("0123456789abcdefABCDEF")
_GENERAL_CATEGORY = re.compile(r"\{(?:L[ultmo]?|M[nce]?|N[dlo]?|P[cdseifo]?|S[mcko]?|Z[slp]?|C[cfson]?)\}")
"""``\\p{..}`` of a short General_Category name: one reading in both (other names, such as a
bare script name, are an ECMA-262 syntax error with the ``u`` flag and literal text without)."""


def _unicode_mode(source: str) -> bool:
    """Whether ECMA-262 ``source`` is read with the ``u`` flag (:func:`_compiled` tries it
    first); without it (``\\-`` outside a class, say, makes the flag's syntax fail), ``\\p{L}``
    is the text ``p{L}``, not a property."""
    try:
        regress.Regex(source, "u")
    except regress.RegressError:
        return False
    return True


def jsonschema_rs_reads_alike(source: str) -> bool:
    """Whether jsonschema-rs (the validator's fast pass) reads ``source`` as ECMA-262 does.

    Checked against regress by ``tests/test_regular_differential.py`` over line terminators,
    Unicode digits, letters and spaces: its ``\\d``, ``\\w``, ``\\s``, ``.``, ``^`` and ``$``
    agree. Anything else is read alike only when known to be: its ``\\b``/``\\B`` are
    Unicode word boundaries (``a\\b`` does not match ``"aé"``; in ECMA-262 it does); it reads
    ``\\A``, ``\\z`` and ``\\x{41}`` as Rust regex syntax (an anchor, a code point) where
    ECMA-262 without the ``u`` flag reads Annex B identity escapes (``"A"``, ``"z"``, 41
    ``x``); inside a class, ``[``, ``&&``, ``--`` and ``~~`` are its nesting and set
    operations, plain characters in ECMA-262; groups other than ``(?:``, backreferences,
    ``\\p{..}`` other than a short General_Category name (or in a pattern read without the
    ``u`` flag, where it is literal text), ``\\c`` and octal escapes are left out too. So
    only a pattern made of literals, ``.``, anchors, quantifiers, alternation, ``(``/``(?:``
    groups, flat classes and the escapes of :data:`_ALIKE_ESCAPES`, ``\\uXXXX`` and ``\\xHH`` counts; any other is left
    to the reference pass, which costs only speed.
    """
    i, n, in_class = 0, len(source), False
    while i < n:
        c = source[i]
        if c == "\\":
            nxt = source[i + 1] if i + 1 < n else ""
            if nxt == "u" and all(h in _HEX for h in source[i + 2:i + 6]) and i + 6 <= n:
                i += 6
                continue
            if nxt == "x" and all(h in _HEX for h in source[i + 2:i + 4]) and i + 4 <= n:
                i += 4
                continue
            if nxt in "pP":
                m = _GENERAL_CATEGORY.match(source, i + 2)
                if m is None or not _unicode_mode(source):
                    return False
                i = m.end()
                continue
            if nxt not in _ALIKE_ESCAPES:
                return False
            i += 2
            continue
        if in_class:
            if c == "[" or source[i:i + 2] in ("&&", "--", "~~"):
                return False
            in_class = c != "]"
        elif c == "[":
            in_class = True
            if source[i + 1:i + 2] == "]" or source[i + 1:i + 3] == "^]":
                return False  # "[]" / "[^]": ECMA-262's empty and full classes
        elif c == "(" and source[i + 1:i + 2] == "?" and source[i + 2:i + 3] != ":":
            return False
        i += 1
    return True


def is_regex(instance: object) -> bool:
    """``format: regex`` (Validation 7.3.8): a string is an ECMA-262 regular expression;
    non-strings conform. A lone surrogate in the string is read as a pattern character."""
    if not isinstance(instance, str):
        return True
    # a lone surrogate is a pattern character like U+E000 (the syntax is the same either way)
    return not isinstance(_compiled(_LONE.sub(_STAND_IN, instance)), NotEcmaRegex)


def additional(instance: dict[str, Any], schema: dict[str, Any]) -> list[str]:
    """The members of ``instance`` that ``additionalProperties`` applies to: named by neither
    ``properties`` nor (ECMA-262) any ``patternProperties`` pattern (Core 10.3.2.3)."""
    props = schema.get("properties")
    props = props if isinstance(props, dict) else {}
    patterns = schema.get("patternProperties")
    patterns = list(patterns) if isinstance(patterns, dict) else []
    return [k for k in instance if k not in props and not any(search(p, k) for p in patterns)]
