"""Cross-field rules of a ResultSet document (SPEC.md, "ResultSet"; seed 001 for repetitions,
the grouped-ResultSets RFC for SELF_PARENT). Each rule is one O(n) pass over ``results``."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ...pointer import join
from ..violation import Violation
from .registry import items, json_key, register, violation


def _attempt_key(value: Any) -> int | None:
    """The attempt number as an int, or ``None`` when it is not an integral JSON number."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return None


@register("DUPLICATE_ATTEMPT", "resultset")
def duplicate_attempt(document: Any) -> Iterator[Violation]:
    """DUPLICATE_ATTEMPT: ``(test_case_id, run_id, attempt)`` is unique among Results that
    carry ``attempt``.

    One ResultSet has one ``run_id``, so within a document the key is ``(test_case_id,
    attempt)``. Results without ``attempt`` are not compared. Reported at each later
    duplicate's ``/results/N/attempt``. Source: seed 001 (repetition tracking), third
    refinement; evalport-model.md, "How the format grew", step 3.
    """
    seen: dict[tuple[str, int], int] = {}
    for n, result in items(document, "results"):
        case = result.get("test_case_id")
        attempt = _attempt_key(result.get("attempt"))
        if not isinstance(case, str) or attempt is None:
            continue
        key = (case, attempt)
        if key in seen:
            yield violation("DUPLICATE_ATTEMPT", join("", "results", n, "attempt"),
                            f"attempt {attempt} of test case {case!r} is already recorded "
                            f"at /results/{seen[key]}")
        else:
            seen[key] = n


_NONE = object()


@register("ISOLATION_MISMATCH", "resultset")
def isolation_mismatch(document: Any) -> Iterator[Violation]:
    """ISOLATION_MISMATCH: all Results of one repetition group (same ``test_case_id``) have the
    same isolation *in effect*.

    The isolation in effect of a Result is its own ``isolation`` member when present, else the
    ResultSet's ``isolation`` when present, else none. Each Result whose value in effect differs
    from that of the group's first Result (in array order) is reported, at
    ``/results/N/isolation`` when it has its own value, else at ``/results/N`` (the inherited or
    missing value has no location of its own in the Result). Source: seed 001 ("one isolation
    value per repetition group"); evalport-model.md, step 3 (a Result's own value overrides the
    ResultSet's, and the rule compares the values in effect).
    """
    if not isinstance(document, dict):
        return
    inherited = json_key(document["isolation"]) if "isolation" in document else _NONE
    first: dict[str, tuple[int, Any]] = {}
    for n, result in items(document, "results"):
        case = result.get("test_case_id")
        if not isinstance(case, str):
            continue
        own = "isolation" in result
        value = json_key(result["isolation"]) if own else inherited
        if case not in first:
            first[case] = (n, value)
            continue
        n0, value0 = first[case]
        if value != value0:
            where = join("", "results", n, "isolation") if own else join("", "results", n)
            yield violation("ISOLATION_MISMATCH", where,
                            f"isolation in effect {_show(value)} differs from {_show(value0)} "
                            f"of /results/{n0}, the first Result of test case {case!r}")


def _show(key: Any) -> str:
    if key is _NONE:
        return "(none)"
    if isinstance(key, str):
        return repr(key)
    return "(a non-string value)"


@register("SELF_PARENT", "resultset")
def self_parent(document: Any) -> Iterator[Violation]:
    """SELF_PARENT: ``group.parent_group_id`` differs from ``group.group_id``.

    Reported at ``/group/parent_group_id``. JSON Schema 2020-12 cannot compare two instance
    values (it would need ``$data``). Source: evalport-model.md, step 4 (grouped ResultSets).
    """
    group = document.get("group") if isinstance(document, dict) else None
    if not isinstance(group, dict) or "parent_group_id" not in group or "group_id" not in group:
        return
    if json_key(group["parent_group_id"]) == json_key(group["group_id"]):
        yield violation("SELF_PARENT", "/group/parent_group_id",
                        f"group {group['group_id']!r} names itself as its parent")
