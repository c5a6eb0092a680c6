"""A scratch variant of a cross-field rule, shared by the compatibility tests."""

from __future__ import annotations

from typing import Any

from evalport_spec.validation import RULES, Rule
from evalport_spec.validation.rules.registry import items, violation


def missing_attempt_is_one(document: Any):
    """A scratch DUPLICATE_ATTEMPT that treats a missing attempt as 1 (tighter than the spec:
    two Results with one test_case_id and no attempt collide)."""
    seen: set[tuple[Any, Any]] = set()
    for n, r in items(document, "results"):
        key = (r.get("test_case_id"), r.get("attempt", 1))
        if key in seen:
            yield violation("DUPLICATE_ATTEMPT", f"/results/{n}/attempt", "duplicate attempt")
        seen.add(key)


SCRATCH = {**RULES, "DUPLICATE_ATTEMPT": Rule("DUPLICATE_ATTEMPT", "resultset", missing_attempt_is_one)}
"""The registry with DUPLICATE_ATTEMPT replaced by :func:`missing_attempt_is_one`."""
