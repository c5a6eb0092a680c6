"""An index of one ``anyOf``/``oneOf`` group's branches, so that each case of a split group is
compared with the branches it can equal or overlap, not with all n of them.

An enumeration written as a ``oneOf`` of n constants (each with its own ``description``) is
split into n cases, and each case used to meet every branch twice: once to find its twin
(:meth:`~.combinators.CombinatorRules._likely_first`) and once to prove the other branches
disjoint from it (``oneOf``), which is n² structural comparisons and n² disjointness proofs
(300 constants: 19 s). The index narrows both searches to a superset of the branches that can
answer yes; the caller still decides each remaining branch exactly, so verdicts, proofs and
their order are those of the whole search.

- *Twins* (:meth:`GroupIndex.twin_candidates`): :meth:`~.subset.Checker.equal` holds only for
  nodes at the same place of two sets written alike, or for values whose non-annotation keywords
  agree. A branch made only of ``const``, ``enum`` and ``type`` (annotations aside) gets a
  *shape*: those keywords with their values as sets of canonical JSON texts
  (:func:`~evalport_spec.canonjson.canonical`, equal exactly when JSON Schema equality holds);
  a positive part of the case can equal only a branch of its own shape, at its own place, or a
  branch with no shape.
- *Overlaps* (:meth:`GroupIndex.overlap_candidates`): a branch whose canon is *finite and
  plain* (``type`` and ``enum``/``const`` only: its validity is membership of the value's
  canonical JSON text in its ``enum`` keys, :meth:`~.canon.Canon.admits`) shares a value with a
  case having a finite positive part ``P`` only if it holds one of ``P``'s values; the others are
  disjoint from ``P``, hence from the case, which implies ``P`` (:mod:`.disjoint` decides a
  finite side by enumerating it, so the whole search answers the same).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass, field
from typing import Any

from ..canonjson import canonical
from .canon import ANNOTATIONS, Canon
from .nodes import Node

_SHAPE_KEYWORDS = frozenset({"const", "enum", "type"})
OTHER = "other"
"""The shape of every schema with a keyword outside ``const``/``enum``/``type`` (annotations
aside), of ``false``, and of a value that is no schema: such schemas equal only one another."""


def shape(value: Any) -> Hashable | None:
    """The shape of a schema value: two schemas :meth:`~.subset.Checker.equal` calls the same
    (other than by place, two sets written alike) have the same shape; the converse need not hold.

    Args:
        value: a schema as JSON (``dict`` or ``bool``).

    Returns:
        For an object whose keywords other than annotations are among ``const``, ``enum`` and
        ``type``: a tuple of ``(keyword, key)`` in keyword order, ``key`` the canonical JSON text
        of a ``const`` or the frozen set of canonical texts of an ``enum`` or ``type`` (a single
        ``type`` name as a one-element set); ``()`` for ``true`` and ``{}`` (equal to each
        other); :data:`OTHER` for any other schema. ``None`` when a value in those keywords is
        not JSON (no shape can be vouched for: the caller tries every branch).
    """
    if value is True:
        return ()
    if not isinstance(value, dict):
        return OTHER
    keys = sorted(k for k in value if k not in ANNOTATIONS)
    if not _SHAPE_KEYWORDS.issuperset(keys):
        return OTHER
    out = []
    try:
        for k in keys:
            x = value[k]
            if k == "const":
                out.append((k, canonical(x)))
            elif isinstance(x, list):
                out.append((k, frozenset(canonical(v) for v in x)))
            elif k == "type":
                out.append((k, frozenset((canonical(x),))))
            else:
                return OTHER  # ``enum`` not an array: the metaschema refuses it before any comparison
    except (TypeError, ValueError):
        return None
    return tuple(out)


@dataclass
class GroupIndex:
    """Branch indexes of one group by shape, by place and by the values finite plain branches hold.

    Attributes:
        size: the number of branches.
        by_shape: :func:`shape` -> indexes of the branches of that shape, ascending.
        by_place: ``(file, JSON Pointer)`` of a branch written in a file -> its indexes.
        unshaped: indexes of branches whose shape is ``None`` (always twin candidates).
        by_value: canonical JSON text -> indexes of the finite plain branches whose ``enum`` keys
            hold it.
        open: indexes of the branches that are not finite and plain (always overlap candidates).
    """

    size: int
    by_shape: dict[Hashable, list[int]] = field(default_factory=dict)
    by_place: dict[tuple[str, str], list[int]] = field(default_factory=dict)
    unshaped: list[int] = field(default_factory=list)
    by_value: dict[str, list[int]] = field(default_factory=dict)
    open: list[int] = field(default_factory=list)

    @classmethod
    def build(cls, branches: list[Node], canons: list[Canon], value_of: Callable[[Node], Any]) -> GroupIndex:
        """The index of a group.

        Args:
            branches: the group's branch nodes, in order.
            canons: the canon of each branch alone (same order).
            value_of: a node's schema value (``$ref`` not followed: a ``$ref`` is a keyword
                outside the shapes, so such a branch has none).
        """
        idx = cls(len(branches))
        for j, (b, c) in enumerate(zip(branches, canons, strict=True)):
            s = shape(value_of(b))
            (idx.unshaped if s is None else idx.by_shape.setdefault(s, [])).append(j)
            if b.syn is None:
                idx.by_place.setdefault((b.file, b.ptr), []).append(j)
            if c.plain and not c.undecided and not c.false and c.enum_keys is not None:
                for k in c.enum_keys:
                    idx.by_value.setdefault(k, []).append(j)
            else:
                idx.open.append(j)
        return idx

    def twin_candidates(self, parts: Iterable[Node], value_of: Callable[[Node], Any]) -> list[int]:
        """Ascending indexes of every branch that can be :meth:`~.subset.Checker.equal` to one of
        ``parts`` (a case's positive parts), a superset of those that are: the branches of each
        part's shape and at its place (two sets written alike: one place, one schema)."""
        out: set[int] = set(self.unshaped)
        for p in parts:
            s = shape(value_of(p))
            if s is None:
                return list(range(self.size))
            out.update(self.by_shape.get(s, ()))
            if p.syn is None:
                out.update(self.by_place.get((p.file, p.ptr), ()))
        return sorted(out)

    def overlap_candidates(self, finite: list[Any] | None) -> list[int]:
        """Ascending indexes of every branch that can share a value with a case whose values all
        lie in ``finite`` (the values a finite positive part of the case holds), or of every
        branch when ``finite`` is ``None``."""
        if finite is None:
            return list(range(self.size))
        out = set(self.open)
        for v in finite:
            out.update(self.by_value.get(canonical(v), ()))
        return sorted(out)
