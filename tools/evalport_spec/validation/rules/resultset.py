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


_FIELD = 40
"""Bits per attempt in a test case's packed state: Result indexes below 2**40 - 1."""
_FIELDS = 64
"""Attempts 1..64 are packed; any other attempt number is kept in a dict of its own."""
_MASK = (1 << _FIELD) - 1


@register_items("DUPLICATE_ATTEMPT", "resultset")
class DuplicateAttempt(ItemRule):
    """DUPLICATE_ATTEMPT: ``(test_case_id, run_id, attempt)`` is unique among Results that
    carry ``attempt``.

    One ResultSet has one ``run_id``, so within a document the key is ``(test_case_id,
    attempt)``. Results without ``attempt`` are not compared. Reported at each later
    duplicate's ``/results/N/attempt``. Source: seed 001 (repetition tracking), third
    refinement; evalport-model.md, "How the format grew", step 3.

    State: one int per test case, packing for each attempt 1..64 one plus the index of its
    first Result (0: not seen) in a 40-bit field; other attempts in a dict by
    ``(test case, attempt)``.
    """

    def __init__(self) -> None:
        self.packed: dict[str, int] = {}
        self.others: dict[tuple[str, int], int] = {}

    def items(self, first: int, values: list[Any], envelope: Envelope) -> Iterator[Violation]:
        packed, others = self.packed, self.others
        for index, item in enumerate(values, first):
            if not isinstance(item, dict):
                continue
            case = item.get("test_case_id")
            attempt = _attempt_key(item.get("attempt"))
            if not isinstance(case, str) or attempt is None:
                continue
            if 1 <= attempt <= _FIELDS and index < _MASK:
                shift = (attempt - 1) * _FIELD
                word = packed.get(case, 0)
                earlier = (word >> shift) & _MASK
                if not earlier:
                    packed[case] = word | (index + 1) << shift
                    continue
                earlier -= 1
            else:
                earlier = others.setdefault((case, attempt), index)
                if earlier == index:
                    continue
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

    State: one int per test case packing its first Result's index and the number of that
    Result's value in effect (values are numbered once each). When the ResultSet's
    ``isolation`` is not known yet, a Result whose own value meets an inherited one (either
    way round) is kept until :meth:`finish`; two inherited values are equal whatever it is.
    """

    def __init__(self) -> None:
        self.first: dict[str, int] = {}
        self.numbers: dict[Any, int] = {}
        self.values: list[Any] = []
        self.pending: list[tuple[int, bool, Any, int, Any, str]] = []

    def _number(self, value: Any) -> int:
        number = self.numbers.get(value)
        if number is None:
            number = self.numbers[value] = len(self.values)
            self.values.append(value)
        return number

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
            number = self._number(value)
            packed = groups.setdefault(case, index << 32 | number)
            n0, number0 = packed >> 32, packed & 0xFFFFFFFF
            if n0 == index or number == number0:
                continue
            value0 = self.values[number0]
            if value is _INHERITED or value0 is _INHERITED:
                # an own value against the inherited one: decided at the end
                self.pending.append((index, own, value, n0, value0, case))
                continue
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
