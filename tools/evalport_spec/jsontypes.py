"""The JSON Schema name of a parsed JSON value's type."""

from __future__ import annotations

import math
from typing import Any


def json_type(value: Any) -> str:
    """``"null"``, ``"boolean"``, ``"integer"``, ``"number"``, ``"string"``, ``"array"`` or
    ``"object"`` for a value as :mod:`json` parses it. An integral float (``1.0``) is an
    ``"integer"``, as JSON Schema 2020-12 Validation section 6.1.1 says ("a number with a zero
    fractional part")."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int) or (isinstance(value, float) and math.isfinite(value)
                                  and value == int(value)):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"
