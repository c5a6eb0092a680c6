"""JSON numbers as exact values, and the one ``multipleOf`` semantics every part of the toolchain uses.

A JSON number is a decimal written in the document (RFC 8259 section 6). Parsed by Python it is an
``int`` (kept exact at any size) or a ``float`` (the nearest double); the decimal it was written as
is the shortest text that reads back as that double (``repr``), so ``0.1`` means one tenth, not the
double nearest to it.

``multipleOf`` (JSON Schema 2020-12 Validation 6.2.1: "valid if division by this keyword's value
results in an integer") is decided **exactly on those decimals**: ``0.3`` is a multiple of ``0.1``.
This is what jsonschema-rs does; python-jsonschema divides doubles (``0.3 / 0.1`` is
``2.9999999999999996``, so it says no). The toolchain's fast path trusts jsonschema-rs, the
classifier reasons with exact rationals, so
:func:`evalport_spec.pyvalidator.exact_validator` gives python-jsonschema the same exact check: the validator, the classifier, its sampler and its witness checks all agree.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

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
