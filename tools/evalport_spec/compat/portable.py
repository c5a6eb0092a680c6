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

Likewise ``dependencies`` in a 2019-09 or 2020-12 schema: those dialects replaced it by
``dependentRequired`` and ``dependentSchemas`` (2019-09 Core, appendix on keyword changes), so it
is an unknown keyword there and python-jsonschema and the classifier ignore it, but jsonschema-rs
still asserts it: a change that adds one (or edits one) can lose documents for its users while
the verdict, rightly by the specification, stays PATCH.
"""

from __future__ import annotations

import re
import warnings
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


def pattern_warnings(name: str, old: SchemaSet, new: SchemaSet) -> list[Finding]:
    """One ``pattern-not-portable`` warning per ``pattern`` value or ``patternProperties`` name
    of file ``name`` of ``new`` whose source the same file of ``old`` does not hold (a pattern
    the change adds) and :func:`portability_problems` finds a problem with. Located at the
    pattern in the new file; class ``NONE``, so the verdict is unchanged."""
    had = {src for f, _, src in old.patterns() if f.name == name}
    out: list[Finding] = []
    for f, ptr, src in new.patterns():
        if f.name != name or src in had:
            continue
        problems = portability_problems(src)
        if problems:
            out.append(Finding(KIND, f"pattern {src!r} is ECMA-262, as JSON Schema asks, but "
                               + "; ".join(problems) + ": a consumer using that library cannot load the schema",
                               ChangeClass.NONE, Severity.WARNING,
                               new=Location(f.loaded.source, ptr, f.loaded.line(ptr)), direction="identity",
                               item=src))
    return out


def keyword_warnings(name: str, old: SchemaSet, new: SchemaSet) -> list[Finding]:
    """One ``keyword-not-portable`` warning per ``dependencies`` of file ``name`` of ``new`` (a
    2019-09 or 2020-12 file, by its root ``$schema``) that the same file of ``old`` does not hold
    with the same value at the same pointer: ignored by the specification, python-jsonschema
    and the classifier, asserted by jsonschema-rs (module docstring). Class ``NONE``. Only schema
    positions are read (:func:`~evalport_spec.schemawalk.subschemas`): a member of a
    ``properties`` map that happens to be named ``dependencies`` is no keyword."""
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
