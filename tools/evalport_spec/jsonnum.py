"""JSON numbers as exact values, and the one ``multipleOf`` semantics every part of the toolchain uses.

A JSON number is a decimal written in the document (RFC 8259 section 6). Parsed by Python it is an
``int`` (kept exact at any size) or a ``float`` (the nearest double); the decimal it was written as
is the shortest text that reads back as that double (``repr``), so ``0.1`` means one tenth, not the
double nearest to it.

``multipleOf`` (JSON Schema 2020-12 Validation 6.2.1: "valid if division by this keyword's value
results in an integer") is decided **exactly on those decimals**: ``0.3`` is a multiple of ``0.1``.
This is what jsonschema-rs does; python-jsonschema divides doubles (``0.3 / 0.1`` is
``2.9999999999999996``, so it says no). The toolchain's fast path trusts jsonschema-rs, the
classifier reasons with exact rationals, so :func:`exact_validator` gives python-jsonschema the
same exact check: the validator, the classifier, its sampler and its witness checks all agree.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from typing import Any

from attrs import fields
from jsonschema import ValidationError, _keywords
from jsonschema.validators import extend

from . import ecmaregex
from .canonjson import canonical


def exact(x: int | float) -> Fraction:
    """The exact decimal value of JSON number ``x`` (``0.1`` -> 1/10; ints exactly).

    Raises:
        TypeError: ``x`` is a boolean or not a number.
        ValueError: ``x`` is not finite.
    """
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        raise TypeError(f"not a JSON number: {x!r}")
    if isinstance(x, int):
        return Fraction(x)
    return Fraction(repr(x))


def is_multiple(x: int | float, m: int | float) -> bool:
    """Whether ``x / m`` is an integer, on the decimals as written (see the module docstring)."""
    return (exact(x) / exact(m)).denominator == 1


def _multiple_of(validator: Any, m: Any, instance: Any, schema: Any):
    if not validator.is_type(instance, "number") or not validator.is_type(m, "number"):
        return
    try:
        ok = is_multiple(instance, m)
    except (TypeError, ValueError, ZeroDivisionError):
        return  # a non-finite value or a zero divisor: the meta-schema's problem
    if not ok:
        yield ValidationError(f"{instance!r} is not a multiple of {m}")


_ENUM_INDEX: dict[int, tuple[list, dict[str, Any]]] = {}


def enum_index(values: list) -> dict[str, Any]:
    """``{canonical JSON text: first value so spelled}`` of an ``enum`` list, memoised per list
    object (kept alive while cached): membership by JSON Schema equality (``1`` and ``1.0`` alike,
    ``true`` not ``1``) in O(1). Callers must not modify the result."""
    hit = _ENUM_INDEX.get(id(values))
    if hit is not None and hit[0] is values:
        return hit[1]
    index: dict[str, Any] = {}
    for v in values:
        index.setdefault(canonical(v), v)
    if len(_ENUM_INDEX) > 4096:
        _ENUM_INDEX.clear()
    _ENUM_INDEX[id(values)] = (values, index)
    return index


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
    extended = extend(cls, {"multipleOf": _multiple_of, "enum": _enum, **ecmaregex.KEYWORDS},
                      format_checker=ecmaregex.format_checker(cls.FORMAT_CHECKER))
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
