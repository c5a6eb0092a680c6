"""Instance mutations: counter-example candidates and duplicated array items.

:func:`mutations` walks a (valid) instance together with the schema nodes that describe each of
its locations and yields variants that break one constraint at one location (or keep validity,
as switching to another ``enum`` value does). :func:`mutate_duplicates` is schema-free: it
yields variants with one array item appended again, the cheapest way to trip uniqueness rules
(``uniqueItems``, or cross-field rules such as unique ``(test_case_id, run_id, attempt)``).
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

from .engine import Engine, _ObjectView
from .walk import Node

_WRONG_TYPES: list[Any] = [None, True, 0, 1.5, "", "zz", [], {}]


def mutations(engine: Engine, value: Any, nodes: list[Node], depth: int) -> Iterator[Any]:
    """Yield variants of ``value`` (whose location is described by ``nodes``), each with one
    change at this location or below. The input is never modified; variants are new objects.

    Raises:
        Exhausted: the engine's step budget ran out (callers stop there).
    """
    engine.tick()
    facets = next(engine.alternatives(nodes), None)
    if facets is None:
        return
    yield from _here(value, facets)
    if depth <= 0:
        return
    if isinstance(value, dict):
        view = _ObjectView(engine, facets)
        for name in view.required:
            if name in value:
                yield {k: v for k, v in value.items() if k != name}
        if "zz_unknown" not in value:
            yield {**value, "zz_unknown": 1}
        for name, member in value.items():
            for m in mutations(engine, member, view.schemas_for(name), depth - 1):
                yield {**value, name: m}
    elif isinstance(value, list):
        if value:
            yield value[:-1]
            yield value + [copy.deepcopy(value[0])]
            yield value + [copy.deepcopy(value[-1])]
        for i, item in enumerate(value):
            for m in mutations(engine, item, engine._item_nodes(facets, i), depth - 1):
                yield value[:i] + [m] + value[i + 1:]


def _here(value: Any, facets: list[Node]) -> Iterator[Any]:
    for wrong in _WRONG_TYPES:
        if type(wrong) is not type(value):
            yield copy.deepcopy(wrong)
    for f in facets:
        s = f.schema
        enum = s.get("enum") if isinstance(s.get("enum"), list) else ([s["const"]] if "const" in s else None)
        if enum is not None:
            yield from (copy.deepcopy(e) for e in enum)
            if isinstance(value, str):
                yield value + "-x"
            elif isinstance(value, (int, float)) and not isinstance(value, bool):
                yield value + 1
        if isinstance(value, str):
            for key, delta in (("minLength", -1), ("maxLength", 1)):
                bound = s.get(key)
                if isinstance(bound, int) and bound + delta >= 0:
                    yield "a" * (bound + delta)
            if "pattern" in s or "format" in s:
                yield value + " !"
                yield "!" + value
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            for key in ("minimum", "exclusiveMinimum"):
                b = s.get(key)
                if isinstance(b, (int, float)) and not isinstance(b, bool):
                    yield b
                    yield b - 1
                    yield b - 0.5
            for key in ("maximum", "exclusiveMaximum"):
                b = s.get(key)
                if isinstance(b, (int, float)) and not isinstance(b, bool):
                    yield b
                    yield b + 1
                    yield b + 0.5
            m = s.get("multipleOf")
            if isinstance(m, (int, float)) and not isinstance(m, bool):
                yield value + m / 2
            if isinstance(value, int):
                yield value + 0.5
        if isinstance(value, list):
            mi = s.get("minItems")
            if isinstance(mi, int) and 0 < mi <= len(value):
                yield value[: mi - 1]
            ma = s.get("maxItems")
            if isinstance(ma, int) and value and len(value) >= ma:
                yield value + [copy.deepcopy(value[-1])] * (ma + 1 - len(value))


def mutate_duplicates(document: Any, *, per_array: int = 3, limit: int = 1000) -> Iterator[Any]:
    """Yield copies of ``document`` in which one array item is duplicated (appended again).

    Every array of the document (found breadth-first, in document order) gives up to
    ``per_array`` variants (its first items, one each); at most ``limit`` variants in all.
    Variants copy only the containers on the path to the changed array and share every other
    value with ``document``: treat them as read-only. ``document`` itself is never modified.
    """
    count = 0
    queue: list[tuple[Any, tuple[Any, ...]]] = [(document, ())]
    while queue:
        node, path = queue.pop(0)
        if isinstance(node, list):
            for i in range(min(per_array, len(node))):
                if count >= limit:
                    return
                yield _replace(document, path, node + [copy.deepcopy(node[i])])
                count += 1
            queue.extend((v, path + (i,)) for i, v in enumerate(node) if isinstance(v, (list, dict)))
        elif isinstance(node, dict):
            queue.extend((v, path + (k,)) for k, v in node.items() if isinstance(v, (list, dict)))


def _replace(document: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(document, list):
        out = list(document)
    else:
        out = dict(document)
    out[head] = _replace(document[head], rest, new)
    return out
