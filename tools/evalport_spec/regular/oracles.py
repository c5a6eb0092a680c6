"""What the two validators say about one string: the check behind every witness string.

python-jsonschema decides ``pattern`` with Python's ``re.search`` (jsonschema/_keywords.py) and
``format`` with its format checker; jsonschema-rs uses its own ECMA-style regex engine and
format checks. They differ from ECMA-262 and from each other on some strings (Python's ``$``
also matches before a final ``"\\n"``; Python's ``\\d``, ``\\w``, ``\\s`` and ``.`` are wider on
``str``), so a witness is kept only when both validators give the verdict our automaton gives.
A validator that cannot compile the pattern at all has no verdict and is not consulted.
"""

from __future__ import annotations

import re
import warnings
from functools import lru_cache

import jsonschema
import jsonschema_rs

Leaf = tuple[str, str]
"""``("pattern", source)`` or ``("format", name)``: a language the validators can be asked about."""


@lru_cache(maxsize=1024)
def _python_pattern(src: str):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return re.compile(src)
    except (re.error, RecursionError, OverflowError, ValueError):
        return None


@lru_cache(maxsize=1024)
def _rs_validator(schema_key: tuple[str, str]):
    kind, value = schema_key
    try:
        if kind == "pattern":
            return jsonschema_rs.validator_for({"pattern": value})
        return jsonschema_rs.validator_for({"format": value}, validate_formats=True)
    except Exception:  # noqa: BLE001 - jsonschema-rs raises its own error types for bad schemas
        return None


_FORMATS = jsonschema.Draft202012Validator.FORMAT_CHECKER


def python_verdict(leaf: Leaf, s: str) -> bool | None:
    """python-jsonschema's verdict on string ``s`` for ``leaf``; ``None`` if it has none."""
    kind, value = leaf
    if kind == "pattern":
        rx = _python_pattern(value)
        return None if rx is None else rx.search(s) is not None
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
