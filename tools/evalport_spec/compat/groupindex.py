"""An index of one ``anyOf``/``oneOf`` group's branches, so that each case of a split group is
compared with the branches it can equal or overlap, not with all n of them.

An enumeration written as a ``oneOf`` of n constants (each with its own ``description``), or a
``oneOf`` of n objects told apart by a tag member (``"kind": {"const": ...}``, OpenAPI's
discriminator), is split into n cases, and each case used to meet every branch: to find its twin
(:meth:`~.combinators.CombinatorRules._likely_first`), to prove the other branches disjoint from
it (``oneOf``), and, building the case, to negate every other branch
(:meth:`~.subset.Checker._branch_case`). That is n² comparisons (300 constants: 19 s; 150 tagged
objects: out of case budget, undecided). The index narrows each search to a superset of the
branches that can answer yes; the caller still decides each remaining branch exactly, so
verdicts are those of the whole search.

- *Twins* (:meth:`GroupIndex.twin_candidates`): :meth:`~.subset.Checker.equal` holds only for
  nodes at the same place of two sets written alike, or for values equal keyword by keyword
  (annotations aside, ``true`` as ``{}``, a ``$ref`` by its target). :func:`shape` maps equal
  schemas to one hashable key (it forgets more than equality does: order, ``$ref`` targets,
  member names that look like annotations), so a part can equal only a branch of its own shape
  or at its own place.
- *Overlaps* (:meth:`GroupIndex.overlap_candidates`): a branch whose canon is *finite and plain*
  (``type`` and ``enum``/``const`` only: its validity is membership of a value's canonical JSON
  text in its ``enum`` keys, :meth:`~.canon.Canon.admits`) shares a value with a case whose
  values lie in a finite set only if it holds one of them. And a case that accepts only objects
  whose member ``r`` is required with values in a finite set shares a document with a branch
  requiring ``r`` only if the branch allows one of those values for ``r`` (a *tag*). The other
  branches are disjoint from the case; :mod:`.disjoint` proves the same by its own rules.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass, field
from typing import Any

from ..canonjson import canonical
from .canon import ANNOTATIONS, Canon
from .nodes import Node

_REF_KEYWORDS = frozenset({"$ref", "$dynamicRef", "$recursiveRef"})


def shape(value: Any) -> Hashable:
    """A hashable key of a schema value such that schemas :meth:`~.subset.Checker.equal` calls
    the same (other than by place) have the same key; the converse need not hold.

    Args:
        value: a schema as JSON (``dict`` or ``bool``), or any JSON value inside one.

    Returns:
        ``true`` and every object as the frozen set of its ``(member, key of the member's value)``
        pairs, members named like annotations left out (``true`` is ``{}``); an array as the
        frozen set of its elements' keys; the value of a ``$ref``, ``$dynamicRef`` or
        ``$recursiveRef`` as one marker (equality compares the targets); any other value as its
        canonical JSON text (:func:`~evalport_spec.canonjson.canonical`: ``1`` and ``1.0`` alike,
        ``true`` not ``1``). Each rule only forgets a difference equality might see, so equal
        schemas share a key: ``equal`` compares the members of a schema other than annotations
        one by one, arrays of ``enum``/``type``/``required`` as sets and other values by JSON
        equality.

    Raises:
        ValueError, TypeError: ``value`` holds a value that is not JSON (NaN, an infinity).
    """
    if value is True:
        return frozenset()
    if not isinstance(value, (dict, list)):
        return canonical(value)
    hit = _SHAPES.get(id(value))
    if hit is not None and hit[0] is value:
        return hit[1]
    if isinstance(value, dict):
        got = frozenset((k, "$ref" if k in _REF_KEYWORDS else shape(x)) for k, x in value.items()
                        if k not in ANNOTATIONS)
    else:
        got = frozenset(shape(x) for x in value)
    if len(_SHAPES) >= _MAX_SHAPES:
        _SHAPES.clear()
    _SHAPES[id(value)] = (value, got)
    return got


_MAX_SHAPES = 100_000
_SHAPES: dict[int, tuple[Any, Hashable]] = {}
""":func:`shape` of each object and array met, by identity (the value kept alive beside its key,
so an identity is never reused while cached; bounded by :data:`_MAX_SHAPES`): a nested schema's
shape is its members' shapes, each computed once however many enclosing schemas ask."""


@dataclass
class GroupIndex:
    """Branch indexes of one group by shape, by place, by the values finite plain branches hold
    and by the values tagged branches allow for a required member.

    Attributes:
        size: the number of branches.
        by_shape: :func:`shape` -> indexes of the branches of that shape, ascending.
        by_place: ``(file, JSON Pointer)`` of a branch written in a file -> its indexes.
        by_value: canonical JSON text -> indexes of the finite plain branches whose ``enum`` keys
            hold it.
        open: indexes of the branches that are not finite and plain (every case meets them).
        by_tag: member name ``r`` -> canonical JSON text -> indexes of the branches that require
            ``r`` and allow only finitely many values for it, that one among them.
        tagged: member name -> indexes of the branches listed under it in :attr:`by_tag`.
    """

    size: int
    by_shape: dict[Hashable, list[int]] = field(default_factory=dict)
    by_place: dict[tuple[str, str], list[int]] = field(default_factory=dict)
    by_value: dict[str, list[int]] = field(default_factory=dict)
    open: list[int] = field(default_factory=list)
    by_tag: dict[str, dict[str, list[int]]] = field(default_factory=dict)
    tagged: dict[str, set[int]] = field(default_factory=dict)

    @classmethod
    def build(cls, branches: list[Node], canons: list[Canon], shape_of: Callable[[Node], Hashable | None],
              tags_of: Callable[[Canon], dict[str, Iterable[str]]]) -> GroupIndex:
        """The index of a group.

        Args:
            branches: the group's branch nodes, in order.
            canons: the canon of each branch alone (same order).
            shape_of: a node's :func:`shape`, or ``None`` when it has none (not JSON).
            tags_of: a canon's required members with finitely many values allowed: name ->
                canonical JSON texts of a superset of those values.
        """
        idx = cls(len(branches))
        for j, (b, c) in enumerate(zip(branches, canons, strict=True)):
            idx.by_shape.setdefault(shape_of(b), []).append(j)
            if b.syn is None:
                idx.by_place.setdefault((b.file, b.ptr), []).append(j)
            if c.finite_plain:
                for k in c.enum_keys:
                    idx.by_value.setdefault(k, []).append(j)
            else:
                idx.open.append(j)
            for name, keys in tags_of(c).items():
                idx.tagged.setdefault(name, set()).add(j)
                for k in keys:
                    idx.by_tag.setdefault(name, {}).setdefault(k, []).append(j)
        return idx

    def twin_candidates(self, parts: Iterable[Node], shape_of: Callable[[Node], Hashable | None]) -> list[int]:
        """Ascending indexes of every branch that can be :meth:`~.subset.Checker.equal` to one of
        ``parts`` (a case's positive parts), a superset of those that are: the branches of each
        part's shape and at its place (two sets written alike: one place, one schema)."""
        out: set[int] = set(self.by_shape.get(None, ()))
        for p in parts:
            s = shape_of(p)
            if s is None:
                return list(range(self.size))
            out.update(self.by_shape.get(s, ()))
            if p.syn is None:
                out.update(self.by_place.get((p.file, p.ptr), ()))
        return sorted(out)

    def overlap_candidates(self, finite: list[Any] | None, tags: dict[str, list[Any]] | None = None) -> list[int]:
        """Ascending indexes of every branch that can share a document with a case, a superset
        of those that do.

        Args:
            finite: a finite set of values holding every value of the case (those a finite
                positive part holds), or ``None``.
            tags: for a case accepting only objects, member name -> a finite set of values
                holding every value the case allows for that required member; or ``None``.
        """
        out: set[int] | None = None
        if finite is not None:
            out = set(self.open)
            for v in finite:
                out.update(self.by_value.get(canonical(v), ()))
        for name, values in (tags or {}).items():
            if name not in self.tagged:
                continue
            inside = self.by_tag.get(name, {})  # empty when every such branch allows no value
            mine = set(range(self.size)) - self.tagged[name]
            for v in values:
                mine.update(inside.get(canonical(v), ()))
            out = mine if out is None else out & mine
        return list(range(self.size)) if out is None else sorted(out)
