"""Cross-field rules of a ResultSet document (SPEC.md, "ResultSet"; seed 001 for repetitions,
the grouped-ResultSets RFC for SELF_PARENT).

Each rule is an :class:`~.registry.ItemRule`: one pass over ``results`` with state per key (per
test case), never per Result, so it also runs while a large file is streamed."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ...pointer import join
from ..violation import Violation
from .registry import Envelope, ItemRule, json_key, register_items, violation


def _attempt_key(value: Any) -> int | None:
    """The attempt number as an int, or ``None`` when it is not an integral JSON number."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return None


_PACKED_ATTEMPTS = 1 << 32
"""Attempts in ``[0, 2**32)`` share one int key with their test case's number (compact state)."""


@register_items("DUPLICATE_ATTEMPT", "resultset")
class DuplicateAttempt(ItemRule):
    """DUPLICATE_ATTEMPT: ``(test_case_id, run_id, attempt)`` is unique among Results that
    carry ``attempt``.

    One ResultSet has one ``run_id``, so within a document the key is ``(test_case_id,
    attempt)``. Results without ``attempt`` are not compared. Reported at each later
    duplicate's ``/results/N/attempt``. Source: seed 001 (repetition tracking), third
    refinement; evalport-model.md, "How the format grew", step 3.

    State: a number per test case and, per ``(test case, attempt)`` seen, the index of its
    first Result (one int key for the usual attempts, a tuple key otherwise).
    """

    def __init__(self) -> None:
        self.cases: dict[str, int] = {}
        self.first: dict[Any, int] = {}

    def items(self, first: int, values: list[Any], envelope: Envelope) -> Iterator[Violation]:
        cases, seen = self.cases, self.first
        for index, item in enumerate(values, first):
            if not isinstance(item, dict):
                continue
            case = item.get("test_case_id")
            attempt = _attempt_key(item.get("attempt"))
            if not isinstance(case, str) or attempt is None:
                continue
            number = cases.setdefault(case, len(cases))
            key: Any = (number * _PACKED_ATTEMPTS + attempt if 0 <= attempt < _PACKED_ATTEMPTS
                        else (number, attempt))
            earlier = seen.setdefault(key, index)
            if earlier != index:
                yield violation("DUPLICATE_ATTEMPT", join("", "results", index, "attempt"),
                                f"attempt {attempt} of test case {case!r} is already recorded "
                                f"at /results/{earlier}")


_NONE = object()
"""The isolation in effect of a Result when neither it nor the ResultSet has one."""

_INHERITED = object()
"""Placeholder while streaming: the Result inherits the ResultSet's ``isolation``, which has not
been read yet (it may follow ``results`` in the file)."""


@register_items("ISOLATION_MISMATCH", "resultset")
class IsolationMismatch(ItemRule):
    """ISOLATION_MISMATCH: all Results of one repetition group (same ``test_case_id``) have the
    same isolation *in effect*.

    The isolation in effect of a Result is its own ``isolation`` member when present, else the
    ResultSet's ``isolation`` when present, else none. Each Result whose value in effect differs
    from that of the group's first Result (in array order) is reported, at
    ``/results/N/isolation`` when it has its own value, else at ``/results/N`` (the inherited or
    missing value has no location of its own in the Result). Source: seed 001 ("one isolation
    value per repetition group"); evalport-model.md, step 3 (a Result's own value overrides the
    ResultSet's, and the rule compares the values in effect).

    State: the first Result's index and value per test case. When the ResultSet's
    ``isolation`` is not known yet, a Result whose own value meets an inherited one (either
    way round) is kept until :meth:`finish`; two inherited values are equal whatever it is.
    """

    def __init__(self) -> None:
        self.first: dict[str, tuple[int, Any]] = {}
        self.pending: list[tuple[int, bool, Any, int, Any, str]] = []

    @staticmethod
    def _inherited(envelope: Envelope) -> Any:
        if "isolation" in envelope.members:
            return json_key(envelope.members["isolation"])
        return _NONE if envelope.complete else _INHERITED

    def items(self, first: int, values: list[Any], envelope: Envelope) -> Iterator[Violation]:
        inherited = self._inherited(envelope)
        groups = self.first
        for index, item in enumerate(values, first):
            if not isinstance(item, dict):
                continue
            case = item.get("test_case_id")
            if not isinstance(case, str):
                continue
            own = "isolation" in item
            value = json_key(item["isolation"]) if own else inherited
            n0, value0 = groups.setdefault(case, (index, value))
            if n0 == index:
                continue
            if value is _INHERITED or value0 is _INHERITED:
                if value is not value0:  # an own value against the inherited one: decided at the end
                    self.pending.append((index, own, value, n0, value0, case))
                continue
            if value != value0:
                yield _mismatch(index, own, value, n0, value0, case)

    def finish(self, envelope: Envelope) -> Iterator[Violation]:
        inherited = self._inherited(envelope)
        for index, own, value, n0, value0, case in self.pending:
            value = inherited if value is _INHERITED else value
            value0 = inherited if value0 is _INHERITED else value0
            if value != value0:
                yield _mismatch(index, own, value, n0, value0, case)


def _mismatch(index: int, own: bool, value: Any, n0: int, value0: Any, case: str) -> Violation:
    where = join("", "results", index, "isolation") if own else join("", "results", index)
    return violation("ISOLATION_MISMATCH", where,
                     f"isolation in effect {_show(value)} differs from {_show(value0)} "
                     f"of /results/{n0}, the first Result of test case {case!r}")


def _show(key: Any) -> str:
    if key is _NONE:
        return "(none)"
    if isinstance(key, str):
        return repr(key)
    return "(a non-string value)"


@register_items("SELF_PARENT", "resultset")
class SelfParent(ItemRule):
    """SELF_PARENT: ``group.parent_group_id`` differs from ``group.group_id``.

    Reported at ``/group/parent_group_id``. JSON Schema 2020-12 cannot compare two instance
    values (it would need ``$data``). Source: evalport-model.md, step 4 (grouped ResultSets).
    Reads the envelope only.
    """

    def finish(self, envelope: Envelope) -> Iterator[Violation]:
        group = envelope.members.get("group")
        if not isinstance(group, dict) or "parent_group_id" not in group or "group_id" not in group:
            return
        if json_key(group["parent_group_id"]) == json_key(group["group_id"]):
            yield violation("SELF_PARENT", "/group/parent_group_id",
                            f"group {group['group_id']!r} names itself as its parent")
