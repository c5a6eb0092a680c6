"""In-place edges between subschemas, and the first cycle they close.

An *in-place* keyword applies its subschema to the very instance location the schema holding it
applies to: ``not``, ``if``/``then``/``else``, ``allOf``/``anyOf``/``oneOf``, ``dependentSchemas``
(``dependencies`` up to draft-07) and the references. A cycle made only of such edges never
descends into the instance, so a validator applying it never finishes (JSON Schema 2020-12 Core
section 9.4.1, "Guarding Against Infinite Recursion").

Generic over how a place is named and how a reference is followed: the classifier's check of a
schema set (:mod:`evalport_spec.compat.refs`) names places by its nodes, the engine-free check of
one plain file (:mod:`evalport_spec.selfdiff`) by JSON Pointers into the file.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from typing import Any, TypeVar

from .pointer import join

IN_PLACE_SINGLE = ("not", "if", "then", "else")
"""Keywords whose one subschema applies in place."""

IN_PLACE_LISTS = ("allOf", "anyOf", "oneOf")
"""Keywords whose array of subschemas applies in place (``prefixItems`` descends: not one)."""

N = TypeVar("N", bound=Hashable)
V = TypeVar("V")


def children(value: Any, ptr: str, dependent_schemas: bool) -> list[str]:
    """Pointers of the subschemas directly inside ``value`` (the schema object at ``ptr``) that
    apply in place, references aside, in keyword order: :data:`IN_PLACE_SINGLE`, then
    :data:`IN_PLACE_LISTS`, then the dependent schemas. ``dependent_schemas``: the dialect reads
    ``dependentSchemas`` (2019-09 on); else draft-07's ``dependencies`` (its schema values).
    Anything but an object gives ``[]``."""
    out: list[str] = []
    if not isinstance(value, dict):
        return out
    for k in IN_PLACE_SINGLE:
        if isinstance(value.get(k), (dict, bool)):
            out.append(join(ptr, k))
    for k in IN_PLACE_LISTS:
        if isinstance(value.get(k), list):
            out.extend(join(ptr, k, i) for i, s in enumerate(value[k]) if isinstance(s, (dict, bool)))
    k = "dependentSchemas" if dependent_schemas else "dependencies"
    if isinstance(value.get(k), dict):
        out.extend(join(ptr, k, n) for n, s in value[k].items() if isinstance(s, (dict, bool)))
    return out


def first_cycle(starts: Iterable[N], edges: Callable[[N], list[tuple[N, V]]]) -> tuple[N, V] | None:
    """The first edge that closes a cycle in an iterative depth-first search (no Python
    recursion) from each of ``starts`` in turn: ``(the place it leaves, the edge's label)``, or
    ``None`` when no cycle is met. ``edges(place)`` lists ``(next place, label)``; the last one
    listed is followed first."""
    state: dict[N, int] = {}  # 1 on the current path, 2 done
    for start in starts:
        if start in state:
            continue
        state[start] = 1
        stack: list[tuple[N, list[tuple[N, V]]]] = [(start, edges(start))]
        while stack:
            place, out = stack[-1]
            if not out:
                state[place] = 2
                stack.pop()
                continue
            child, label = out.pop()
            st = state.get(child)
            if st == 1:
                return place, label
            if st is None:
                state[child] = 1
                stack.append((child, edges(child)))
    return None
