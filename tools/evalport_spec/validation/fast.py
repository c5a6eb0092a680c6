"""A fast schema verdict with the Rust ``jsonschema-rs`` backend, used only to skip work.

The reference schema pass is :mod:`jsonschema` (Python): it alone produces violations, codes
and instance paths. Plain ``jsonschema`` costs many times the JSON parse on large ResultSets,
so the validator first asks :class:`FastCheck` whether the document is valid at all:

* ``True``: the document is valid, and the reference pass is skipped (no violations);
* ``False`` or ``None`` (undecided: backend missing, schema it cannot compile, an exception):
  the reference pass runs and its verdict and violations are the answer.

So the fast backend can only change results when it accepts a document the reference rejects.
Two measures keep that from happening: every ``format`` the reference asserts is checked by
the reference's own format checker (a callback into Python,
:func:`evalport_spec.rsvalidator.rs_formats`), so format semantics are identical by construction; and ``tests/test_validation_fast.py`` compares both backends'
verdicts on every conformance fixture and on edge cases where regular expression dialects and
date-time readings differ (the Rust backend is *stricter* on those, which is the safe side).
"""

from __future__ import annotations

from typing import Any

from jsonschema import FormatChecker

from ..ecmaregex import jsonschema_rs_reads_alike
from ..rsvalidator import jsonschema_rs, no_retrieve, rs_formats
from ..schemaset import SchemaSet


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
        second_opinion: compile even when a ``pattern`` of the set may read differently in
            ``jsonschema_rs`` than as ECMA-262 (:func:`jsonschema_rs_reads_alike` false). Such a
            check is only ever compared with the reference validator (a witness is confirmed
            when both agree, ``compat.nodes.Side.file_confirms``), never trusted alone: where
            the two readings differ they disagree, and the document is not confirmed.
    """

    def __init__(self, schemas: SchemaSet, name: str, format_checker: FormatChecker | None,
                 schema: Any = None, registry: Any = None, *, second_opinion: bool = False) -> None:
        self._validator = None
        if jsonschema_rs is None or not (second_opinion or all(
                jsonschema_rs_reads_alike(src) for _, _, src in schemas.patterns())):
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
