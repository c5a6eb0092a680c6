"""jsonschema-rs as the toolchain asks it: the optional Rust backend, offline, with ``format``
asserted through the reference's own checks.

The glue every fast path shares (:mod:`evalport_spec.validation.fast` for ``validate`` and the
classifier, :mod:`evalport_spec.generate.local` for the generator): whether the wheel is
importable, a ``retriever`` that fetches nothing, and :func:`rs_formats`, which makes
jsonschema-rs assert each ``format`` exactly as python-jsonschema's ``FormatChecker`` does (a
callback into it; ``date-time`` through :func:`rfc3339_date_time`, the same reading without its
per-call overhead). Its counterpart for python-jsonschema is :mod:`evalport_spec.pyvalidator`.
"""

from __future__ import annotations

import re
from typing import Any

from jsonschema import FormatChecker

try:  # optional accelerator: without it every document takes the reference pass
    import jsonschema_rs
except ImportError:  # pragma: no cover - exercised only where the wheel is missing
    jsonschema_rs = None


def available() -> bool:
    """Whether the ``jsonschema_rs`` backend is importable."""
    return jsonschema_rs is not None


def no_retrieve(uri: str) -> Any:
    """The ``retriever`` of every jsonschema-rs validator here: nothing is fetched, a reference
    outside the registered set fails to compile. Raises ``LookupError``."""
    raise LookupError(f"{uri}: references resolve offline, within the schema set only")


# RFC 3339 section 5.6 "date-time" exactly as the reference checks it: jsonschema's
# ``is_datetime`` upper-cases the string and calls ``rfc3339_validator.validate_rfc3339``, whose
# expression this is, character for character (ASCII digits; ``$`` also matches before one
# trailing newline, as there). Only the day-of-month check is done without ``calendar``.
_RFC3339 = re.compile(r"""
    ^
    (\d{4})      # Year
    -
    (0[1-9]|1[0-2]) # Month
    -
    (\d{2})          # Day
    T
    (?:[01]\d|2[0123]) # Hours
    :
    (?:[0-5]\d)     # Minutes
    :
    (?:[0-5]\d)     # Seconds
    (?:\.\d+)?      # Secfrac
    (?:  Z                              # UTC
       | [+-](?:[01]\d|2[0123]):[0-5]\d # Offset
    )
    $
""", re.VERBOSE | re.ASCII)
_MONTH_DAYS = (0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)


def rfc3339_date_time(value: str) -> bool:
    """``True`` iff ``value`` is an RFC 3339 ``date-time`` (offset required, no leap second) by
    exactly the reference's reading: ``jsonschema``'s ``is_datetime`` (``rfc3339_validator``),
    which accepts lower-case ``t``/``z``, any number of fraction digits, years 0001-9999, the
    Gregorian day count of the month (29 February in leap years only) and rejects year 0000.

    Faster than the reference (no ``calendar.monthrange``, no wrapper calls); the equality is
    proven by ``tests/test_fuzz_formats.py`` over edge cases and generated strings.
    """
    m = _RFC3339.match(value.upper())
    if m is None:
        return False
    year_s, month_s, day_s = m.groups()
    year, month, day = int(year_s), int(month_s), int(day_s)
    if not year:
        return False
    if month == 2 and year % 4 == 0 and (year % 100 != 0 or year % 400 == 0):
        return 1 <= day <= 29
    return 1 <= day <= _MONTH_DAYS[month]


def _reference_datetime() -> Any:
    try:
        from jsonschema._format import is_datetime
    except ImportError:  # pragma: no cover - jsonschema without rfc3339_validator
        return None
    return is_datetime


def _callback(func: Any, raises: Any) -> Any:
    """The reference's check of one format as a ``str -> bool`` callback: exactly what
    ``FormatChecker.conforms`` decides (a listed exception means "does not conform"), without
    its per-call overhead."""

    def conforms(value: str) -> bool:
        try:
            return bool(func(value))
        except raises:
            return False

    return conforms


def rs_formats(format_checker: FormatChecker) -> dict[str, Any]:
    """The ``formats=`` of a jsonschema-rs validator that asserts ``format`` exactly as
    ``format_checker`` (the reference's) does: every format it knows, as a callback into its own
    check (``date-time`` as :func:`rfc3339_date_time` when it is the reference's own)."""
    reference_dt = _reference_datetime()
    return {fmt: (rfc3339_date_time if fmt == "date-time" and func is reference_dt
                  else _callback(func, raises))
            for fmt, (func, raises) in format_checker.checkers.items()}


