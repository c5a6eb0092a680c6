"""Canonical JSON text for hashing and comparing JSON values (the RFC 8785 model).

One JSON value has one canonical text: object members sorted by key (code points of the UTF-16
form, RFC 8785 section 3.2.3), no insignificant whitespace, strings as JSON escapes them (RFC 8785
section 3.2.2.2: only the mandatory escapes, other characters literal), and numbers by value: a
float that holds an integer is written as that integer (``1.0`` → ``1``), because JSON Schema
2020-12 equality (Core section 4.2.2) makes ``1`` and ``1.0`` the same instance; other floats in
their shortest round-trip form (``repr``), integers of any size exactly.

Used by finding fingerprints (:attr:`evalport_spec.findings.Finding.fingerprint`), so a value
named by a finding hashes the same however the schema spells or orders it.
"""

from __future__ import annotations

import math
from json.encoder import encode_basestring as _string  # json.dumps(s, ensure_ascii=False), in C
from typing import Any


def canonical(value: Any) -> str:
    """The canonical JSON text of ``value``.

    Args:
        value: a JSON value as Python holds it (``dict`` with ``str`` keys, ``list``/``tuple``,
            ``str``, ``int``, ``float``, ``bool``, ``None``).

    Returns:
        The canonical text (module docstring).

    Raises:
        ValueError: ``value`` holds NaN or an infinity (not JSON numbers, RFC 8259 section 6).
        TypeError: ``value`` holds something that is not a JSON value.
    """
    if isinstance(value, str):  # the common enum case, without the list
        return _string(value)
    parts: list[str] = []
    _write(value, parts)
    return "".join(parts)


def _write(v: Any, out: list[str]) -> None:
    if v is None:
        out.append("null")
    elif v is True:
        out.append("true")
    elif v is False:
        out.append("false")
    elif isinstance(v, int):
        out.append(str(int(v)))
    elif isinstance(v, float):
        if math.isnan(v) or math.isinf(v):
            raise ValueError(f"{v!r} is not a JSON number")
        out.append(str(int(v)) if v.is_integer() else repr(v))
    elif isinstance(v, str):
        out.append(_string(v))
    elif isinstance(v, (list, tuple)):
        out.append("[")
        for i, x in enumerate(v):
            if i:
                out.append(",")
            _write(x, out)
        out.append("]")
    elif isinstance(v, dict):
        out.append("{")
        for i, k in enumerate(sorted(v, key=lambda s: s.encode("utf-16-be"))):
            if not isinstance(k, str):
                raise TypeError(f"object key {k!r} is not a string")
            if i:
                out.append(",")
            out.append(_string(k))
            out.append(":")
            _write(v[k], out)
        out.append("}")
    else:
        raise TypeError(f"{type(v).__name__} is not a JSON value")
