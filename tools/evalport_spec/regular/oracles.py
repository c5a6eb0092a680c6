"""What the two validators say about one string: the check behind every witness string.

The reference pass (python-jsonschema) decides ``pattern`` as ECMA-262 through
:mod:`evalport_spec.ecmaregex` (regress), as the toolchain's validator does, and ``format`` with
its format checker (``regex`` read as ECMA-262 too); the fast pass (jsonschema-rs) uses its own
ECMA-style engine and format checks. They can still differ on some strings (jsonschema-rs's
``\\b`` is Unicode-aware; a format's edge cases), so a witness is kept only when both give the
verdict our automaton gives. A validator that cannot compile the pattern at all has no verdict
and is not consulted.
"""

from __future__ import annotations

from functools import lru_cache

import jsonschema
import jsonschema_rs

from ..ecmaregex import NotEcmaRegex, compile_ecma
from ..pyvalidator import format_checker

Leaf = tuple[str, str]
"""``("pattern", source)`` or ``("format", name)``: a language the validators can be asked about."""


@lru_cache(maxsize=1024)
def _rs_validator(schema_key: tuple[str, str]):
    kind, value = schema_key
    try:
        if kind == "pattern":
            return jsonschema_rs.validator_for({"pattern": value})
        return jsonschema_rs.validator_for({"format": value}, validate_formats=True)
    except Exception:  # noqa: BLE001 - jsonschema-rs raises its own error types for bad schemas
        return None


_FORMATS = format_checker(jsonschema.Draft202012Validator.FORMAT_CHECKER)


def python_verdict(leaf: Leaf, s: str) -> bool | None:
    """The reference pass's (python-jsonschema's, patterns as ECMA-262) verdict on string ``s``
    for ``leaf``; ``None`` if it has none (a pattern that is not ECMA-262)."""
    kind, value = leaf
    if kind == "pattern":
        try:
            return compile_ecma(value).find(s) is not None
        except NotEcmaRegex:
            return None
    return _FORMATS.conforms(s, value)


def rs_verdict(leaf: Leaf, s: str) -> bool | None:
    """jsonschema-rs's verdict on string ``s`` for ``leaf``; ``None`` if it has none. Raises
    whatever jsonschema-rs raises for a string it cannot take (a lone surrogate)."""
    v = _rs_validator(leaf)
    return None if v is None else v.is_valid(s)


def agree(leaf: Leaf, s: str, ours: bool) -> bool:
    """Whether both validators (those that have a verdict) say ``ours`` about ``s``."""
    try:
        verdicts = (python_verdict(leaf, s), rs_verdict(leaf, s))
    except Exception:  # noqa: BLE001 - a string a validator cannot take is no witness
        return False
    return all(v is None or v == ours for v in verdicts)
