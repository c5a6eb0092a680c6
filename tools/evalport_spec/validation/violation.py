"""The one result type of the validator: :class:`Violation`."""

from __future__ import annotations

from dataclasses import dataclass

from ..pointer import split


@dataclass(frozen=True)
class Violation:
    """One reason a document is invalid.

    Attributes:
        code: stable error code. Schema-pass errors are coded by the failing JSON Schema keyword
            in UPPER_SNAKE case (``required``/``dependentRequired`` -> ``REQUIRED``, ``type`` ->
            ``TYPE``, ``exclusiveMinimum`` -> ``EXCLUSIVE_MINIMUM``, ...); cross-field rules use
            their catalogue code (``DUPLICATE_ATTEMPT``), also when a schema subschema marked with
            ``x-evalport-rule`` encodes the rule.
        instance_path: JSON Pointer (RFC 6901) of the instance location the error is about. For
            ``REQUIRED`` it names the *missing* member (``/results/0/passed``), the usual
            convention of reporting the property that is absent; ``ADDITIONAL_PROPERTIES`` is
            reported at the object that has the unexpected member(s).
        message: one human-readable line.
        schema_path: JSON Pointer of the failing keyword in the schema (keyword location,
            ``$ref`` tokens included, as JSON Schema's "keywordLocation"), schema pass only;
            ``None`` for hand-rolled rules.
        rule: ``True`` when the code is a catalogued cross-field rule (hand-rolled, or encoded
            in the schema and recognised by its ``x-evalport-rule`` marker).
        members: for ``ADDITIONAL_PROPERTIES``, the names of the unexpected members, in the
            instance's order (what consumer mode looks up in later versions); else empty.
    """

    code: str
    instance_path: str
    message: str
    schema_path: str | None = None
    rule: bool = False
    members: tuple[str, ...] = ()

    def key(self) -> tuple[str, str]:
        """``(code, instance_path)``: what conformance fixtures compare."""
        return self.code, self.instance_path


def path_sort_key(pointer: str) -> tuple[tuple[int, int | str], ...]:
    """Sort key for JSON Pointers that orders array indexes numerically (``/r/2`` < ``/r/10``)."""
    try:
        tokens = split(pointer)
    except ValueError:
        return ((1, pointer),)
    return tuple((0, int(t)) if t.isdigit() else (1, t) for t in tokens)


def sort_violations(violations: list[Violation]) -> list[Violation]:
    """Deduplicate and sort by instance path (array indexes numerically), then code, then message."""
    unique = {(v.instance_path, v.code, v.message): v for v in violations}
    return sorted(unique.values(), key=lambda v: (path_sort_key(v.instance_path), v.code, v.message))
