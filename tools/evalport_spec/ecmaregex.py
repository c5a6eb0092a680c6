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

:func:`extend_keywords` gives a python-jsonschema validator class these semantics for
``pattern``, ``patternProperties``, ``additionalProperties`` (whose "additional" depends on
``patternProperties``) and the ``regex`` format.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from typing import Any

import regress
from jsonschema import FormatChecker, ValidationError
from jsonschema._utils import extras_msg


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


def search(source: str, text: str) -> bool:
    """Whether ``text`` contains a match of ECMA-262 ``source`` (patterns are not anchored,
    Validation 6.3.3). A source that is not a regular expression matches nothing."""
    got = _compiled(source)
    return not isinstance(got, NotEcmaRegex) and got.find(text) is not None


def jsonschema_rs_reads_alike(source: str) -> bool:
    """Whether jsonschema-rs (the validator's fast pass) reads ``source`` as ECMA-262 does.

    Checked against regress by ``tests/test_regular_differential.py`` over line terminators,
    Unicode digits, letters and spaces: its ``\\d``, ``\\w``, ``\\s``, ``.``, ``^`` and ``$``
    agree, but its ``\\b``/``\\B`` are Unicode word boundaries (``a\\b`` does not match
    ``"aé"``; in ECMA-262 it does). A pattern with either (or an escaped backslash before a
    ``b``, which costs only speed) is left to the reference pass.
    """
    return "\\b" not in source and "\\B" not in source


def is_regex(instance: object) -> bool:
    """``format: regex`` (Validation 7.3.8): a string is an ECMA-262 regular expression;
    non-strings conform."""
    return not isinstance(instance, str) or not isinstance(_compiled(instance), NotEcmaRegex)


def additional(instance: dict[str, Any], schema: dict[str, Any]) -> list[str]:
    """The members of ``instance`` that ``additionalProperties`` applies to: named by neither
    ``properties`` nor (ECMA-262) any ``patternProperties`` pattern (Core 10.3.2.3)."""
    props = schema.get("properties")
    props = props if isinstance(props, dict) else {}
    patterns = schema.get("patternProperties")
    patterns = list(patterns) if isinstance(patterns, dict) else []
    return [k for k in instance if k not in props and not any(search(p, k) for p in patterns)]


def _pattern(validator: Any, source: str, instance: Any, schema: Any) -> Iterator[ValidationError]:
    if validator.is_type(instance, "string") and not search(source, instance):
        yield ValidationError(f"{instance!r} does not match {source!r}")


def _pattern_properties(validator: Any, patterns: dict, instance: Any, schema: Any):
    if not validator.is_type(instance, "object"):
        return
    for source, subschema in patterns.items():
        for k, v in instance.items():
            if search(source, k):
                yield from validator.descend(v, subschema, path=k, schema_path=source)


def _additional_properties(validator: Any, aP: Any, instance: Any, schema: Any):
    if not validator.is_type(instance, "object"):
        return
    extras = additional(instance, schema)
    if validator.is_type(aP, "object"):
        for extra in extras:
            yield from validator.descend(instance[extra], aP, path=extra)
    elif not aP and extras:
        if "patternProperties" in schema:
            verb = "does" if len(extras) == 1 else "do"
            joined = ", ".join(repr(each) for each in sorted(extras))
            patterns = ", ".join(repr(each) for each in sorted(schema["patternProperties"]))
            yield ValidationError(f"{joined} {verb} not match any of the regexes: {patterns}")
        else:
            names, verb = extras_msg(sorted(extras, key=str))
            yield ValidationError(f"Additional properties are not allowed ({names} {verb} unexpected)")


KEYWORDS = {"pattern": _pattern, "patternProperties": _pattern_properties,
            "additionalProperties": _additional_properties}
"""python-jsonschema keyword functions reading patterns as ECMA-262 (messages as the library's)."""


def format_checker(base: FormatChecker) -> FormatChecker:
    """A copy of ``base`` whose ``regex`` format is :func:`is_regex` (the others unchanged)."""
    checker = FormatChecker(())
    checker.checkers = {**base.checkers, "regex": (is_regex, ())}
    return checker
