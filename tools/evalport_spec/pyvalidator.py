"""python-jsonschema as the toolchain reads JSON Schema: the validator classes every reference
check uses (the schema pass of ``validate``, the classifier's witness checks, the generator).

:func:`exact_validator` extends a python-jsonschema validator class with

* ``multipleOf`` decided on the exact decimals written (:mod:`evalport_spec.jsonnum`; what
  jsonschema-rs does, JSON Schema 2020-12 Validation 6.2.1);
* ``enum`` looked up by hashed canonical JSON (the same equality, linear instead of quadratic);
* ``pattern``, ``patternProperties``, ``additionalProperties`` and the ``regex`` format read as
  ECMA-262 (:mod:`evalport_spec.ecmaregex`; Validation 6.3.3 and 7.3.8).

It is the only module of the package's light core that imports python-jsonschema (whose import
also loads every installed format library): the comparison of two identical schema sets, and
whatever else never builds a python-jsonschema validator, does not pay for it.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from typing import Any

from attrs import fields
from jsonschema import Draft202012Validator, FormatChecker, ValidationError, _keywords
from jsonschema._utils import extras_msg
from jsonschema.validators import extend, validator_for

from .canonjson import canonical
from .ecmaregex import additional, is_regex, search
from .jsonnum import enum_index, is_multiple


def _multiple_of(validator: Any, m: Any, instance: Any, schema: Any):
    if not validator.is_type(instance, "number") or not validator.is_type(m, "number"):
        return
    try:
        ok = is_multiple(instance, m)
    except (TypeError, ValueError, ZeroDivisionError):
        return  # a non-finite value or a zero divisor: the meta-schema's problem
    if not ok:
        yield ValidationError(f"{instance!r} is not a multiple of {m}")


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


def _enum(validator: Any, enums: Any, instance: Any, schema: Any):
    if not isinstance(enums, list) or len(enums) < 8:
        yield from _keywords.enum(validator, enums, instance, schema)
        return
    try:
        ok = canonical(instance) in enum_index(enums)
    except (TypeError, ValueError):  # not a JSON value: the reference check decides
        yield from _keywords.enum(validator, enums, instance, schema)
        return
    if not ok:
        shown = ", ".join(repr(v) for v in enums[:5])
        yield ValidationError(f"{instance!r} is not one of [{shown}, ...] ({len(enums)} values)")


@cache
def exact_validator(cls: Any) -> Any:
    """The jsonschema validator class ``cls`` with ``multipleOf`` decided on exact decimals,
    ``enum`` by hashed canonical JSON (the same equality, linear instead of quadratic), and
    ``pattern``, ``patternProperties``, ``additionalProperties`` and the ``regex`` format read as
    ECMA-262 (:mod:`evalport_spec.ecmaregex`, not Python's ``re``); memoised per class; the
    other formats and everything else are ``cls``'s."""
    if "multipleOf" not in cls.VALIDATORS:
        return cls
    extended = extend(cls, {"multipleOf": _multiple_of, "enum": _enum, **KEYWORDS},
                      format_checker=format_checker(cls.FORMAT_CHECKER))
    plain_evolve = extended.evolve

    def evolve(self: Any, **changes: Any) -> Any:
        # python-jsonschema's evolve picks the class by the subschema's "$schema"
        # (validator_for), so every $ref into a file naming its dialect, and any subschema
        # naming it, would fall back to ``cls`` and lose the keywords above
        new = plain_evolve(self, **changes)
        if type(new) is cls:
            return extended(**{f.alias: getattr(new, f.name) for f in fields(cls) if f.init})
        return new

    extended.evolve = evolve
    return extended


def validator_class(schema: Any) -> Any:
    """python-jsonschema's validator class for the dialect ``schema`` names in ``$schema``
    (2020-12 when it names none, as EvalPort's schemas are; a boolean schema too)."""
    return validator_for(schema, default=Draft202012Validator)
