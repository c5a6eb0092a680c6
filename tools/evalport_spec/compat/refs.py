"""Refuse schema sets whose ``$ref`` graph the comparison cannot follow.

Two checks, both before any comparison starts:

* every ``$ref`` resolves offline inside the set (:meth:`SchemaSet.check_refs`: no remote,
  ``file:``, escaping or dangling reference; no pure ``$ref`` chain that comes back to itself);
* no *in-place cycle*: a subschema that reaches itself through keywords applying to the same
  instance location (``$ref``, ``allOf``/``anyOf``/``oneOf``, ``not``, ``if``/``then``/``else``,
  ``dependentSchemas``, draft-07's ``dependencies``, the dynamic references) without descending into the instance, e.g. ``{"not": {"$ref": "#"}}``.
  JSON Schema 2020-12 Core section 9.4.1 ("Guarding Against Infinite Recursion") leaves such
  schemas' behaviour undefined: a validator applying them never finishes.

Either problem is an :class:`~evalport_spec.errors.InputError` naming file, line and pointer.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from typing import Any

from ..canonjson import canonical
from ..errors import InputError
from ..inplace import children, first_cycle
from ..pointer import join
from ..schemaset import SchemaSet
from .nodes import (
    D2019,
    Node,
    Side,
    Unresolvable,
    dialect_of,
    dynamic_ref_keywords,
    subschemas,
)


def check_set(schemas: SchemaSet, only: Collection[str] | None = None, side: Side | None = None) -> None:
    """Raise the first reference problem of ``schemas`` (see the module docstring).

    Args:
        schemas: the set to check.
        only: file names whose problems count (default every file); problems in other files
            of the set (context loaded only to resolve references) are ignored.
        side: a :class:`~.nodes.Side` of ``schemas`` already built (its index of every
            subschema is reused), else one is built.

    Raises:
        InputError: ``file:line: message (at pointer)`` for the first problem found.
    """
    check_dialects(schemas, only)
    for problem in schemas.check_refs():
        if only is None or _file_of(schemas, problem) in only:
            raise problem
    side = side if side is not None else Side("old", schemas)
    mixed = mixed_dialect(schemas, side, only)
    if mixed is not None:
        raise mixed
    cycle = in_place_cycle(schemas, only, side)
    if cycle is not None:
        raise cycle


def mixed_dialect(schemas: SchemaSet, side: Side, only: Collection[str] | None = None) -> InputError | None:
    """An :class:`InputError` where python-jsonschema may read a subschema in another dialect
    than the one of its file (the classifier's reading, :meth:`~.nodes.Side.dialect`), or
    ``None``. Its validator takes the dialect of a subschema from the subschema's own
    ``$schema``, and without one keeps the dialect of the schema it came from, across a
    ``$ref`` too (``Validator.evolve``: ``validator_for(subschema, default=current class)``).
    So two cases are refused: a subschema below a file's root naming a different dialect in
    ``$schema``, and a reference from a file of one dialect to a place without ``$schema`` in a
    file of another (its target would be read in the referring file's dialect)."""
    for f in schemas:
        if only is not None and f.name not in only:
            continue
        own = side.dialect(side.root(f.name))
        for ptr, node, _ in f.walk():
            raw = node.get("$schema")
            if ptr and isinstance(raw, str) and _dialect_or_none(raw) != own:
                return _mixed(f, join(ptr, "$schema"), "a subschema names another dialect than its "
                              "file in $schema")
    if len({side.dialect(side.root(f.name)) for f in schemas}) < 2:
        return None  # one dialect in every file: no reference leads into another
    for f, ptr, ref, _ in schemas.references():
        if only is not None and f.name not in only:
            continue
        keyword = ptr.rsplit("/", 1)[1]
        node = Node(side.name, f.name, ptr[: -len(keyword) - 1])
        for target, _ in _ref_targets(side, node, {keyword: ref}):
            value = side.value(target)
            if side.dialect(target) != side.dialect(node) and not (
                    isinstance(value, dict) and isinstance(value.get("$schema"), str)):
                return _mixed(f, ptr, "the reference leads into a file of another dialect, to a "
                              "place without $schema (python-jsonschema reads it in this file's)")
    return None


def _dialect_or_none(uri: str) -> int | None:
    try:
        return dialect_of(uri)
    except ValueError:
        return None


def _mixed(f: Any, where: str, what: str) -> InputError:
    return InputError(f"{what}: dialects mixed this way are not compared", f.loaded.source,
                      f.loaded.line(where), None, where)


def _file_of(schemas: SchemaSet, problem: InputError) -> str | None:
    for f in schemas:
        if f.loaded.source == problem.source:
            return f.name
    return None


def in_place_cycle(schemas: SchemaSet, only: Collection[str] | None = None,
                   side: Side | None = None) -> InputError | None:
    """An :class:`InputError` at the ``$ref`` closing the first in-place cycle reachable from the
    subschemas of ``only`` (default every file), or ``None`` when there is none. Iterative
    depth-first search (no Python recursion); unresolvable references are skipped (they are
    :meth:`SchemaSet.check_refs`' problems). ``side``: as :func:`check_set`'s."""
    if not schemas.references():
        return None  # without a $ref every in-place edge goes one level down the same file
    side = side if side is not None else Side("old", schemas)
    if _cycle_free(side, schemas):
        return None
    values = _reachable(side, [side.root(f.name) for f in schemas if only is None or f.name in only])
    closing = _first_cycle(side, values, values)
    if closing is None:
        return None
    node, via = closing
    f = schemas.files[node.file]
    where = via if via is not None else node.ptr
    return InputError("$ref cycle that never descends into the instance (validation "
                      "would never end; JSON Schema 2020-12 Core 9.4.1)",
                      f.loaded.source, f.loaded.line(where), None, where)


def _cycle_free(side: Side, schemas: SchemaSet) -> bool:
    """Whether no in-place cycle exists anywhere in ``schemas``, reachable or not: a cheap pass
    that settles the common case before :func:`in_place_cycle` walks every reachable subschema.

    Every in-place edge but a ``$ref`` goes one level down the same file, so every cycle
    passes through a ``$ref`` and holds its target: a depth-first search of the in-place edges
    from every ``$ref`` target (never into ``properties`` or ``items``, so a small part of a
    large schema) meets every cycle there is. ``False`` sends the set to the full search, which
    decides whether a cycle is reachable and which one to report."""
    starts: dict[Node, None] = {}
    targets: set[tuple[str, str]] = set()  # (file, absolute URI): a large schema repeats a few
    for f, ptr, ref, absolute in schemas.references():
        keyword = ptr.rsplit("/", 1)[1]
        if (f.name, absolute, keyword) not in targets:
            targets.add((f.name, absolute, keyword))
            node = Node(side.name, f.name, ptr[: -len(keyword) - 1])
            starts.update((t, None) for t, _ in _ref_targets(side, node, {keyword: ref}))
    return _first_cycle(side, starts, {}) is None


def _ref_targets(side: Side, node: Node, value: dict[str, Any]) -> list[tuple[Node, str]]:
    """Every place a reference written in ``value`` (the schema object at ``node``) may lead:
    ``(target, pointer of the reference)``. ``$ref`` has one target; a dynamic reference the
    node's dialect reads (:func:`~.nodes.dynamic_ref_keywords`) leads to its static target and
    to every place carrying the anchor it names (the dynamic scope picks one at run time,
    Core 8.2.3.2, 2019-09 8.2.4.2), so a cycle through any of them is met. Unresolvable
    references are skipped (:meth:`SchemaSet.check_refs` reports them)."""
    out: list[tuple[Node, str]] = []
    for keyword in ("$ref", *dynamic_ref_keywords(side.dialect(node))):
        ref = value.get(keyword)
        if not isinstance(ref, str):
            continue
        via = join(node.ptr, keyword)
        try:
            out.append((side.resolve_ref(node, ref), via))
        except (Unresolvable, KeyError, ValueError):
            continue
        if keyword == "$dynamicRef" and "#" in ref:
            places = side.dynamic_anchors.get(ref.split("#", 1)[1], [])
        else:
            places = side.recursive_anchors if keyword == "$recursiveRef" else []
        out.extend((Node(side.name, *place), via) for place in places)
    return out


def _first_cycle(side: Side, starts: Iterable[Node], values: dict[Node, Any]) -> tuple[Node, str | None] | None:
    """The first in-place edge that closes a cycle, in a depth-first search of the in-place
    edges from each of ``starts`` in turn (:func:`~evalport_spec.inplace.first_cycle`;
    ``values``: schema values already read, see :func:`_edges`): ``(the node it leaves, pointer
    of the $ref it follows | None)``, or ``None`` when no cycle is met."""
    return first_cycle(starts, lambda node: _edges(side, node, values))


def _edges(side: Side, node: Node, values: dict[Node, Any]) -> list[tuple[Node, str | None]]:
    """In-place children of ``node``: ``(child, pointer of the $ref that leads there | None)``,
    the references' targets first (``values``: schema values of the nodes already read)."""
    value = values[node] if node in values else side.value(node)
    out: list[tuple[Node, str | None]] = []
    if not isinstance(value, dict):
        return out
    out.extend(_ref_targets(side, node, value))
    out.extend((Node(node.side, node.file, p), None)
               for p in children(value, node.ptr, side.dialect(node) >= D2019))
    return out


def reachable(side: Side, roots: list[Node]) -> list[Node]:
    """Every subschema that validation from ``roots`` can apply: the roots, their subschemas, and
    the targets of their ``$ref`` (transitively). A ``$defs`` entry nothing references is never
    applied, so a loop inside it is no problem (validators never enter it)."""
    return list(_reachable(side, roots))


def _reachable(side: Side, roots: list[Node]) -> dict[Node, Any]:
    """:func:`reachable` with each node's schema value, in the order met (each subschema's
    value read from its parent's, not from the document root)."""
    out: dict[Node, Any] = {}
    seen: set[Node] = set(roots)
    stack = [(n, side.value(n)) for n in roots]
    while stack:
        node, value = stack.pop()
        out[node] = value
        defs = (node.ptr + "/$defs/", node.ptr + "/definitions/")
        nxt = [(Node(node.side, node.file, p), v) for p, v in subschemas(value, node.ptr) if not p.startswith(defs)]
        if isinstance(value, dict):
            nxt.extend((t, side.value(t)) for t, _ in _ref_targets(side, node, value))
        for n, v in nxt:
            if n not in seen:
                seen.add(n)
                stack.append((n, v))
    return out


DRAFT_03 = "draft-03"


def check_dialects(schemas: SchemaSet, only: Collection[str] | None = None) -> None:
    """Refuse a draft-03 schema in one line: its ``type`` may hold schemas, ``required`` is a
    boolean, ``extends`` and ``disallow`` exist; this classifier reads draft-04 and later.

    Raises:
        InputError: ``file:line: draft-03 schemas are not supported ...`` (at ``/$schema``).
    """
    for f in schemas:
        if only is not None and f.name not in only:
            continue
        d = f.schema.get("$schema") if isinstance(f.schema, dict) else None
        if isinstance(d, str) and DRAFT_03 in d:
            raise InputError("draft-03 schemas are not supported (the classifier reads draft-04, "
                             "draft-06, draft-07, 2019-09 and 2020-12)", f.loaded.source,
                             f.loaded.line("/$schema"), None, "/$schema")
        if isinstance(d, str) and "draft-04" in d:
            dup = _duplicate_enum_value(f.schema)
            if dup is not None:
                raise InputError("enum lists a value twice (the draft-04 meta-schema requires unique "
                                 "values)", f.loaded.source, f.loaded.line(dup), None, dup)


def _duplicate_enum_value(schema: object) -> str | None:
    """Pointer of the first ``enum`` element equal (JSON Schema equality: ``1`` and ``1.0``) to an
    earlier one, in ``schema`` or any subschema; ``None`` when there is none."""
    stack = [("", schema)]
    while stack:
        ptr, value = stack.pop()
        if isinstance(value, dict) and isinstance(value.get("enum"), list):
            seen: set[str] = set()
            for i, x in enumerate(value["enum"]):
                k = canonical(x)
                if k in seen:
                    return join(ptr, "enum", i)
                seen.add(k)
        stack.extend(subschemas(value, ptr))
    return None
