"""Stable finding kinds of the classifier, named from old to new in both directions.

A failed inclusion ``A ⊆ B`` has a *code*; in the backward check (old ⊆ new) it is reported
with the first name and class MAJOR, in the forward check (new ⊆ old) with the second name and
class MINOR (toolchain.md, "Compatibility classes").
"""

from __future__ import annotations

KINDS: dict[str, tuple[str, str]] = {
    "type": ("type-narrowed", "type-widened"),
    "enum": ("enum-value-removed", "enum-value-added"),
    "enum-new": ("enum-added", "enum-removed"),
    "value": ("value-rejected", "value-accepted"),
    "false": ("schema-became-false", "schema-became-true"),
    "required": ("required-added", "required-removed"),
    "prop-forbidden-declared": ("property-removed", "property-added-to-closed-object"),
    "prop-forbidden-additional": ("additional-properties-closed", "additional-properties-opened"),
    "prop-typed": ("property-added-to-open-object", "property-removed-from-open-object"),
    "additional": ("additional-properties-narrowed", "additional-properties-widened"),
    "pattern-properties": ("pattern-properties-narrowed", "pattern-properties-widened"),
    "maxLength": ("max-length-decreased", "max-length-increased"),
    "minLength": ("min-length-increased", "min-length-decreased"),
    "maximum": ("maximum-decreased", "maximum-increased"),
    "minimum": ("minimum-increased", "minimum-decreased"),
    "multipleOf": ("multiple-of-changed", "multiple-of-changed"),
    "pattern": ("pattern-changed", "pattern-changed"),
    "pattern-new": ("pattern-added", "pattern-removed"),
    "format": ("format-added", "format-removed"),
    "maxItems": ("max-items-decreased", "max-items-increased"),
    "minItems": ("min-items-increased", "min-items-decreased"),
    "uniqueItems": ("unique-items-added", "unique-items-removed"),
    "contains": ("contains-tightened", "contains-loosened"),
    "maxProperties": ("max-properties-decreased", "max-properties-increased"),
    "minProperties": ("min-properties-increased", "min-properties-decreased"),
    "propertyNames": ("property-names-restricted", "property-names-relaxed"),
    "anyOf": ("anyof-narrowed", "anyof-widened"),
    "oneOf": ("oneof-narrowed", "oneof-widened"),
    "oneOf-overlap": ("oneof-branch-added-overlapping", "oneof-branch-removed-overlapping"),
    "not": ("not-added", "not-removed"),
    "if": ("if-then-tightened", "if-then-loosened"),
    "dependentRequired": ("dependent-required-added", "dependent-required-removed"),
    "dependentSchemas": ("dependent-schema-tightened", "dependent-schema-loosened"),
    "undecided": ("undecided", "undecided"),
    "counter-example": ("counter-example-found", "counter-example-found"),
}
"""code -> (backward kind, forward kind)."""

INFO_KINDS = ("schema-id-changed", "ref-target-changed", "annotation-changed", "dialect-changed",
              "schema-file-added", "schema-file-removed", "pattern-not-portable",
              "keyword-not-portable")
"""Kinds reported outside the inclusion check."""


def kind_name(code: str, direction: str) -> str:
    """The kind for ``code`` in ``direction`` (``"backward"`` or ``"forward"``)."""
    back, fwd = KINDS.get(code, (code, code))
    return back if direction == "backward" else fwd
