"""A fast schema verdict with the Rust ``jsonschema-rs`` backend, used only to skip work.

The reference schema pass is :mod:`jsonschema` (Python): it alone produces violations, codes
and instance paths. Plain ``jsonschema`` costs many times the JSON parse on large ResultSets,
so the validator first asks :class:`FastCheck` whether the document is valid at all:

* ``True``: the document is valid, and the reference pass is skipped (no violations);
* ``False`` or ``None`` (undecided: backend missing, schema it cannot compile, an exception):
  the reference pass runs and its verdict and violations are the answer.

So the fast backend can only change results when it accepts a document the reference rejects.
Two measures keep that from happening: every ``format`` the reference asserts is checked by
the reference's own format checker (a callback into Python), so format semantics are
identical by construction; and ``tests/test_validation_fast.py`` compares both backends'
verdicts on every conformance fixture and on edge cases where regular expression dialects and
date-time readings differ (the Rust backend is *stricter* on those, which is the safe side).
"""

from __future__ import annotations

import re
from typing import Any

from jsonschema import FormatChecker

from ..ecmaregex import jsonschema_rs_reads_alike
from ..schemaset import SchemaSet

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


def rs_registry(schemas: SchemaSet) -> Any:
    """A ``jsonschema_rs`` registry of every file of ``schemas`` by its ``$id`` (offline); share it
    between the :class:`FastCheck` of many subschemas of one set (``registry=``).

    Raises:
        Exception: whatever ``jsonschema_rs`` raises on a set it cannot register.
    """
    return jsonschema_rs.Registry([(f.uri, f.schema) for f in schemas], retriever=no_retrieve)


class FastCheck:
    """A compiled ``jsonschema_rs`` validator for one schema file of a set.

    Args:
        schemas: the version's schema set (every file is registered by its ``$id``).
        name: the schema file, e.g. ``"resultset.json"``.
        format_checker: the reference's checker when ``format`` is asserted, else ``None``.
        schema: check against this schema instead of the file's own (e.g. ``{"$ref": URI}``
            of one of its subschemas; relative references resolve in the set only if absolute).
        registry: a prebuilt :func:`rs_registry` of ``schemas`` (built here when ``None``).
    """

    def __init__(self, schemas: SchemaSet, name: str, format_checker: FormatChecker | None,
                 schema: Any = None, registry: Any = None) -> None:
        self._validator = None
        if jsonschema_rs is None or not all(
                jsonschema_rs_reads_alike(src) for _, _, src in schemas.patterns()):
            return  # undecided: the reference pass reads patterns as ECMA-262
        formats = rs_formats(format_checker) if format_checker is not None else None
        try:
            if registry is None:
                registry = rs_registry(schemas)
            self._validator = jsonschema_rs.validator_for(
                schemas.files[name].schema if schema is None else schema, registry=registry, retriever=no_retrieve,
                validate_formats=format_checker is not None, formats=formats)
        except Exception:  # noqa: BLE001 - any failure means "undecided": use the reference
            self._validator = None

    @property
    def compiled(self) -> bool:
        """Whether the schema compiled (else :meth:`is_valid` always answers ``None``)."""
        return self._validator is not None

    def is_valid(self, document: Any) -> bool | None:
        """``True``/``False`` from the fast backend, or ``None`` when it cannot decide."""
        if self._validator is None:
            return None
        try:
            return bool(self._validator.is_valid(document))
        except Exception:  # noqa: BLE001 - e.g. a value the backend cannot convert
            return None
