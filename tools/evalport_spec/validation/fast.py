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

from typing import Any

from jsonschema import FormatChecker

from ..schemaset import SchemaSet

try:  # optional accelerator: without it every document takes the reference pass
    import jsonschema_rs
except ImportError:  # pragma: no cover - exercised only where the wheel is missing
    jsonschema_rs = None


def available() -> bool:
    """Whether the ``jsonschema_rs`` backend is importable."""
    return jsonschema_rs is not None


def _no_retrieve(uri: str) -> Any:
    raise LookupError(f"{uri}: references resolve offline, within the schema set only")


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


class FastCheck:
    """A compiled ``jsonschema_rs`` validator for one schema file of a set.

    Args:
        schemas: the version's schema set (every file is registered by its ``$id``).
        name: the schema file, e.g. ``"resultset.json"``.
        format_checker: the reference's checker when ``format`` is asserted, else ``None``.
    """

    def __init__(self, schemas: SchemaSet, name: str, format_checker: FormatChecker | None) -> None:
        self._validator = None
        if jsonschema_rs is None:
            return
        formats = None
        if format_checker is not None:
            formats = {fmt: _callback(func, raises)
                       for fmt, (func, raises) in format_checker.checkers.items()}
        try:
            registry = jsonschema_rs.Registry([(f.uri, f.schema) for f in schemas],
                                              retriever=_no_retrieve)
            self._validator = jsonschema_rs.validator_for(
                schemas.files[name].schema, registry=registry, retriever=_no_retrieve,
                validate_formats=format_checker is not None, formats=formats)
        except Exception:  # noqa: BLE001 - any failure means "undecided": use the reference
            self._validator = None

    def is_valid(self, document: Any) -> bool | None:
        """``True``/``False`` from the fast backend, or ``None`` when it cannot decide."""
        if self._validator is None:
            return None
        try:
            return bool(self._validator.is_valid(document))
        except Exception:  # noqa: BLE001 - e.g. a value the backend cannot convert
            return None
