"""``pattern-not-portable`` and ``keyword-not-portable``: warnings for what a change adds that
stock validators read otherwise than the specification.

JSON Schema reads ``pattern`` and ``patternProperties`` names as ECMA-262 regular expressions
(2020-12 Validation 6.3.3 and Core 6.4), and so does the toolchain (:mod:`evalport_spec.ecmaregex`).
Some ECMA-262 patterns are not patterns elsewhere: stock python-jsonschema hands the source to
Python's :mod:`re`, which raises on ``[^]`` (any character), ``\\p{L}``, ``(?<name>..)`` or
``\\u{..}``, and jsonschema-rs refuses a schema whose pattern its own engine cannot parse
(``[^]`` again). Such a schema is right, and the classifier's verdict on it stands, but a consumer
validating with one of those libraries cannot load it. So the change is flagged, never
classed: the finding is of class ``NONE`` and severity warning.

Other ECMA-262 patterns compile in Python's :mod:`re` but match other strings there: ``\\d``,
``\\w`` and ``\\b`` are ASCII in ECMA-262 (without the ``u`` flag's case folding) and Unicode in
a Python ``str`` pattern, and the two ``\\s`` sets differ both ways (U+FEFF; U+001C..U+001F and
U+0085). A pattern the change adds or rewrites that holds one (or, at the same place, the pattern
it replaces held one) is flagged too: red team, session 35, rewrote the ``version`` pattern's
``\\d`` as ``[0-9]``, PATCH by ECMA-262, and stock python-jsonschema then rejected ``1.4.0-1٣``,
which it had accepted.

Likewise ``dependencies`` in a 2019-09 or 2020-12 schema: those dialects replaced it by
``dependentRequired`` and ``dependentSchemas`` (2019-09 Core, appendix on keyword changes), so it
is an unknown keyword there and python-jsonschema and the classifier ignore it, but jsonschema-rs
still asserts it: a change that adds one (or edits one) can lose documents for its users while
the verdict, rightly by the specification, stays PATCH.

And ``multipleOf`` with a divisor that is no binary fraction (``0.1``, ``1e-05``): the
specification divides exactly, and so do the classifier and the toolchain's validator, but stock
python-jsonschema divides in binary floating point and calls a multiple whose quotient does not
come out whole no multiple (``1 / 1e-05`` is ``99999.99999999999``). Red team, session 35:
``multipleOf: 0.00001`` added to the integer ``attempt`` was PATCH with no finding, rightly, and
every ResultSet with an ``attempt`` was invalid for python-jsonschema users.
"""

from __future__ import annotations

import re
import warnings
from fractions import Fraction
from functools import lru_cache

import jsonschema_rs

from ..ecmaregex import NotEcmaRegex, compile_ecma
from ..findings import ChangeClass, Finding, Location, Severity
from ..pointer import join
from ..schemaset import SchemaSet
from ..schemawalk import subschemas

KIND = "pattern-not-portable"
KEYWORD_KIND = "keyword-not-portable"
MODERN = ("https://json-schema.org/draft/2019-09/schema", "https://json-schema.org/draft/2020-12/schema")
"""Dialects (``$schema`` without a trailing ``#``) where ``dependencies`` is no keyword."""


@lru_cache(maxsize=4096)
def portability_problems(source: str) -> tuple[str, ...]:
    """Why ECMA-262 regular expression ``source`` cannot be used by stock validators: one
    sentence per library that cannot compile it (Python ``re``, as python-jsonschema's
    ``pattern`` keyword calls it; jsonschema-rs, as it builds a validator of a 2020-12 schema
    holding just that ``pattern``). ``()`` when both compile it, and for a source that is not
    ECMA-262 at all (the schema set refuses that one itself)."""
    try:
        compile_ecma(source)
    except NotEcmaRegex:
        return ()
    out = []
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # FutureWarning on "[[" and the like: it compiles
            re.compile(source)
    except re.error as exc:
        out.append(f"Python re (stock python-jsonschema) raises on it ({exc})")
    try:
        jsonschema_rs.validator_for({"$schema": "https://json-schema.org/draft/2020-12/schema", "pattern": source})
    except Exception as exc:  # jsonschema-rs reports a bad pattern as a ValidationError or ValueError
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        out.append(f"jsonschema-rs refuses the schema ({first})")
    return tuple(out)


_READS_OTHERWISE = {
    "d": "\\d is any Unicode decimal digit there ([0-9] in ECMA-262)",
    "D": "\\D excludes every Unicode decimal digit there",
    "w": "\\w is any Unicode word character there ([A-Za-z0-9_] in ECMA-262)",
    "W": "\\W excludes every Unicode word character there",
    "b": "\\b is a Unicode word boundary there",
    "B": "\\B is a Unicode non-boundary there",
    "s": "\\s is another whitespace set there (U+001C..U+001F and U+0085 in, U+FEFF out)",
    "S": "\\S is another non-whitespace set there",
    "A": "\\A is the start of the string there (the letter A in ECMA-262)",
    "U": "\\U is an eight-digit code point escape there (the letter U in ECMA-262)",
    ".": ". also matches \\r, U+2028 and U+2029 there (ECMA-262's excludes them with \\n)",
    "[]": "[] starts a class holding ] there (the empty class, which matches nothing, in ECMA-262)",
}


def python_reads_otherwise(source: str) -> tuple[str, ...]:
    """The class escapes (and the ``.`` and empty class ``[]``) of ECMA-262 regular expression
    ``source`` that Python's :mod:`re` (stock python-jsonschema) matches against other characters
    than ECMA-262 does, one sentence each (:data:`_READS_OTHERWISE`), in order of first use;
    ``\\b`` inside a character class is a backspace in both, and ``.`` there is the dot in both. ``()`` for a source that is not ECMA-262 or that Python cannot compile
    (:func:`portability_problems` says that)."""
    if portability_problems(source):
        return ()
    try:
        compile_ecma(source)
    except NotEcmaRegex:
        return ()
    seen: list[str] = []
    in_class = False
    i = 0
    while i < len(source):
        c = source[i]
        if c == "\\" and i + 1 < len(source):
            e = source[i + 1]
            if e.isalpha() and e in _READS_OTHERWISE and not (in_class and e in "bBA") and e not in seen:
                seen.append(e)
            i += 2
            continue
        if c == "[" and not in_class:
            in_class = True
            if source.startswith("[]", i) and "[]" not in seen:
                seen.append("[]")
        elif c == "]" and in_class:
            in_class = False
        elif c == "." and not in_class and "." not in seen:
            seen.append(".")
        i += 1
    return tuple(_READS_OTHERWISE[e] for e in seen)


def _places(schema: object) -> dict[str, list[str]]:
    """``{place: sources}`` of a schema's patterns: a ``pattern`` keyword's place is its own
    pointer (one source), a ``patternProperties`` object's is the object's pointer (its names)."""
    out: dict[str, list[str]] = {}
    for ptr, node in subschemas(schema):
        if isinstance(node.get("pattern"), str):
            out.setdefault(join(ptr, "pattern"), []).append(node["pattern"])
        if isinstance(node.get("patternProperties"), dict):
            out.setdefault(join(ptr, "patternProperties"), []).extend(node["patternProperties"])
    return out


def pattern_warnings(name: str, old: SchemaSet, new: SchemaSet) -> list[Finding]:
    """One ``pattern-not-portable`` warning per ``pattern`` value or ``patternProperties`` name
    of file ``name`` of ``new`` whose source the same file of ``old`` does not hold (a pattern
    the change adds) and :func:`portability_problems` finds a problem with, or that Python reads
    otherwise (:func:`python_reads_otherwise`), itself or a pattern it replaces: the old
    ``pattern`` at its pointer, or for a ``patternProperties`` name, the old names of that
    object the new one lacks (red team, session 36: ``^x_.+$`` renamed ``^x_[^\\n\\r\\u2028\\u2029]+$``,
    the same in ECMA-262, lost ``x_a\\u2028b`` for python-jsonschema). Located at the pattern in
    the new file (a removed one, that Python reads otherwise, at the old); class ``NONE``, so the
    verdict is unchanged."""
    had = {src for f, _, src in old.patterns() if f.name == name}
    before = _places(old.files[name].schema) if name in old.files else {}
    after = _places(new.files[name].schema) if name in new.files else {}
    out: list[Finding] = []
    for f, ptr, src in new.patterns():
        if f.name != name or src in had:
            continue
        where = Location(f.loaded.source, ptr, f.loaded.line(ptr))
        problems = portability_problems(src)
        if problems:
            out.append(Finding(KIND, f"pattern {src!r} is ECMA-262, as JSON Schema asks, but "
                               + "; ".join(problems) + ": a consumer using that library cannot load the schema",
                               ChangeClass.NONE, Severity.WARNING, new=where, direction="identity", item=src))
            continue
        place = ptr if src in after.get(ptr, ()) else ptr.rpartition("/")[0]
        gone = [s for s in before.get(place, ()) if s not in after.get(place, ())]
        otherwise = dict.fromkeys(python_reads_otherwise(src)
                                  + tuple(x for s in gone for x in python_reads_otherwise(s)))
        if otherwise:
            what = f"pattern {src!r}" + (f" (replacing {', '.join(map(repr, gone))})" if gone else "")
            out.append(Finding(KIND, f"{what} is read as ECMA-262, as JSON Schema asks, but Python re (stock "
                               "python-jsonschema) matches other strings: " + "; ".join(otherwise)
                               + ": a consumer using that library may lose documents the verdict keeps",
                               ChangeClass.NONE, Severity.WARNING, new=where, direction="identity", item=src))
    now = {src for f, _, src in new.patterns() if f.name == name}
    for f, ptr, src in old.patterns():
        place = ptr if src in before.get(ptr, ()) else ptr.rpartition("/")[0]
        if f.name != name or src in now or after.get(place):
            continue  # kept, or replaced at its place (warned above, with the new pattern)
        otherwise = python_reads_otherwise(src)
        if otherwise:
            out.append(Finding(KIND, f"pattern {src!r} is removed; it was read as ECMA-262, as JSON Schema asks, "
                               "but Python re (stock python-jsonschema) matches other strings: "
                               + "; ".join(otherwise) + ": where the verdict weighed what it matched (a branch "
                               "of anyOf, say), a consumer using that library may lose documents the verdict keeps",
                               ChangeClass.NONE, Severity.WARNING, old=Location(f.loaded.source, ptr, f.loaded.line(ptr)),
                               direction="identity", item=src))
    return out


def inexact_divisor(value: object) -> bool:
    """Whether ``multipleOf`` ``value`` is a number that is no binary fraction (``0.1``,
    ``1e-05``; not ``0.5``, ``2``), so that python-jsonschema's floating-point division can call
    an exact multiple none (module docstring). The value is read as the JSON text wrote it
    (its shortest decimal, ``repr``)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or isinstance(value, int):
        return False
    exact = Fraction(repr(value))
    den = exact.denominator
    return den & (den - 1) != 0  # not a power of two


def keyword_warnings(name: str, old: SchemaSet, new: SchemaSet) -> list[Finding]:
    """One ``keyword-not-portable`` warning per ``dependencies`` of file ``name`` of ``new`` (a
    2019-09 or 2020-12 file, by its root ``$schema``) that the same file of ``old`` does not hold
    with the same value at the same pointer: ignored by the specification, python-jsonschema
    and the classifier, asserted by jsonschema-rs (module docstring). Class ``NONE``. Only schema
    positions are read (:func:`~evalport_spec.schemawalk.subschemas`): a member of a
    ``properties`` map that happens to be named ``dependencies`` is no keyword. Also one per
    ``multipleOf`` with an :func:`inexact_divisor` that ``old`` does not hold at that pointer."""
    return _dependencies_warnings(name, old, new) + _multiple_of_warnings(name, old, new)


def _multiple_of_warnings(name: str, old: SchemaSet, new: SchemaSet) -> list[Finding]:
    f = new.files[name]
    had = {ptr: node["multipleOf"] for ptr, node in subschemas(old.files[name].schema)
           if "multipleOf" in node} if name in old.files else {}
    out: list[Finding] = []
    for ptr, node in subschemas(f.schema):
        value = node.get("multipleOf")
        if not inexact_divisor(value) or (ptr in had and had[ptr] == value and type(had[ptr]) is type(value)):
            continue
        at = join(ptr, "multipleOf")
        out.append(Finding(KEYWORD_KIND, f"multipleOf {value!r} is no binary fraction: the specification and this "
                           "classification divide exactly, but stock python-jsonschema divides in floating point "
                           f"and calls some exact multiples none (1 / {value!r} = {1 / value!r}), so its users may "
                           "lose documents this change keeps", ChangeClass.NONE, Severity.WARNING,
                           new=Location(f.loaded.source, at, f.loaded.line(at)), direction="identity",
                           item="multipleOf"))
    return out


def _dependencies_warnings(name: str, old: SchemaSet, new: SchemaSet) -> list[Finding]:
    f = new.files[name]
    if f.dialect.rstrip("#") not in MODERN:
        return []
    had = {ptr: node["dependencies"] for ptr, node in subschemas(old.files[name].schema)
           if "dependencies" in node} if name in old.files else {}
    out: list[Finding] = []
    for ptr, node in subschemas(f.schema):
        if "dependencies" not in node or (ptr in had and had[ptr] == node["dependencies"]):
            continue
        at = join(ptr, "dependencies")
        out.append(Finding(KEYWORD_KIND, "'dependencies' is no keyword of this dialect (2019-09 replaced it by "
                           "dependentRequired and dependentSchemas): the specification, python-jsonschema and this "
                           "classification ignore it, but jsonschema-rs asserts it, so its users may lose documents "
                           "this change keeps", ChangeClass.NONE, Severity.WARNING,
                           new=Location(f.loaded.source, at, f.loaded.line(at)), direction="identity",
                           item="dependencies"))
    return out
