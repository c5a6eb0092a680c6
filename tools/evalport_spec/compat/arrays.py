"""Inclusion for arrays in ``A ⊆ B``: length bounds (``items: false`` after a tuple bounds the
length), ``uniqueItems`` (implied by pairwise disjoint positions; impossible over a small item
domain), ``contains``/``minContains``/``maxContains`` by counting, and every position's items.
"""

from __future__ import annotations

from ..canonjson import canonical
from .canon import Canon
from .fail import Fail, located
from .nodes import Node
from .sample import item_nodes

_NONE = object()

WITNESS_ITEMS = 4096
"""Longest array built as a witness candidate for a new ``maxItems`` (one item past it); above,
the failure is left to the other candidates (fail closed when none is found)."""

MATCHED_POSITIONS = 64
"""Most positions :meth:`ArrayRules._longest_unique` matches to values one by one (each step an
augmenting path over at most this many positions); above it, the number of distinct values is
the bound (looser, linear)."""


class ArrayRules:
    """Mixin of :class:`~.subset.Checker`: arrays."""

    def _arrays(self, A: Canon, B: Canon) -> list[Fail]:
        """Arrays: length bounds (``items: false`` after a tuple bounds the length too), then
        ``uniqueItems`` (implied where items can never be equal: at most one item, pairwise
        disjoint tuple positions; arrays of A impossible where the item domain is smaller than
        ``minItems``), ``contains`` by counting (items that must match, items that cannot), and
        every position's item schema."""
        gate = self._type_gate(A, B, "array", "array")
        if gate:
            return [gate]
        fails: list[Fail] = []
        hint = {"type": "array"}
        if self._no_arrays(A):
            self.prove("old-accepts-nothing", "no array fits the old side's length bounds or uniqueItems", located(A), located(B))
            return []  # A accepts no array
        a_lo, a_max, n = self._array_bounds(A)
        for lim, ok in ((B.min_items, B.min_items and a_lo >= B.min_items.value),
                        (B.max_items, B.max_items and a_max is not None and a_max <= B.max_items.value)):
            if ok:
                self.prove("length-covered", f"old arrays have {a_lo}..{a_max if a_max is not None else 'any'} items",
                           located(A), lim.at)
        if B.min_items and a_lo < B.min_items.value:
            fails.append(self._fail("minItems", f"minItems {a_lo} in the {{A}} schema, {B.min_items.value} in the {{B}} schema", A, B,
                                    A.min_items.at if A.min_items else None, B.min_items.at, hint))
        if B.max_items and (a_max is None or a_max > B.max_items.value):
            longer = B.max_items.value + 1  # a witness candidate's length, when not too long to build
            fails.append(self._fail("maxItems", f"maxItems {a_max} in the {{A}} schema, {B.max_items.value} in the {{B}} schema", A, B,
                                    A.max_items.at if A.max_items else None, B.max_items.at,
                                    hint if longer > WITNESS_ITEMS else
                                    {**hint, "lengths": [longer],
                                     "arrays": [x for x in [A.unique and self._distinct_items(A, longer)] if x]}))
        if B.unique and (A.unique or (a_max is not None and a_max <= 1) or self._never_equal(A, a_max)):
            self.prove("unique-implied", "uniqueItems", A.unique or located(A), B.unique)
        elif B.unique:
            fails.append(self._fail("uniqueItems", "uniqueItems is asserted by the {B} schema and not by the {A} schema", A, B, None, B.unique, hint,
                                    must=lambda w: isinstance(w, list) and len({canonical(x) for x in w}) < len(w)))
        for node, mn, mx, ptr in B.contains:
            if self._contains_holds(A, a_lo, a_max, n, node, mn, mx):
                self.prove("contains-counted", f"minContains {mn}, maxContains {mx}", located(A), (node, ptr))
            else:
                fails.append(self._fail("contains", "'contains' of the {B} schema rejects arrays the {A} schema accepts", A, B,
                                        None, (node, ptr), hint))
        last = max([n] + [len(cl.prefix) for cl in B.arr])
        for i in range(last + 1):
            bn = item_nodes(B, i)
            if not bn:
                continue
            ai = self.canon.nodes(*item_nodes(A, i))
            if (a_max is not None and i >= a_max) or ai.false:
                # B's item schemas from index i on (its prefixItems, then its items) meet no old array
                for node in dict.fromkeys(x for j in range(i, last + 1) for x in item_nodes(B, j)):
                    self.prove("items-unreached", f"index {i} and after", located(A), (node, node.ptr))
                break
            bi = self.canon.nodes(*bn)
            for f in self.below(ai, bi):
                fails.append(self._wrap(f, A, B, i, "item"))
        return fails

    def _inhabited(self, A: Canon) -> bool:
        """``False`` only when ``A`` provably accepts nothing: arrays are its only type and no
        array fits its length bounds or its ``uniqueItems`` over a small item domain."""
        return A.types is None or bool(A.types - {"array"}) or not self._no_arrays(A)

    def _no_arrays(self, A: Canon) -> bool:
        """Whether no array satisfies ``A``'s array keywords (length bounds, or ``uniqueItems``
        over fewer distinct item values than ``minItems``)."""
        lo, hi, _ = self._array_bounds(A)
        if hi is not None and lo > hi:
            return True
        size = self._domain_size(A, hi if hi is not None else lo) if A.unique else None
        return size is not None and size < lo

    def _array_bounds(self, A: Canon) -> tuple[int, int | None, int]:
        """``(least length, greatest length or None, tuple length)`` of ``A``'s arrays: minItems
        and minContains raise the least; maxItems, the first position whose item schema
        accepts nothing and, under ``uniqueItems``, the number of distinct values the items can
        take (:meth:`_longest_unique`: ``[true, false]`` is the longest array of unique
        booleans) bound the greatest."""
        n = max([len(c.prefix) for c in A.arr] + [0])
        lo = max([A.min_items.value if A.min_items else 0] + [mn for _, mn, _, _ in A.contains])
        hi = A.max_items.value if A.max_items else None
        for i in range(n + 1):
            if hi is not None and i >= hi:
                break
            if item_nodes(A, i) and self.canon.nodes(*item_nodes(A, i)).false:
                hi = i
                break
        if A.unique:  # every item differs from every other (2020-12 Validation 6.4.3)
            longest = self._longest_unique(A, n, hi)
            if longest is not None and (hi is None or longest < hi):
                hi = longest
        return lo, hi, n

    def _position_values(self, A: Canon, i: int) -> set[str] | None:
        """Canonical JSON texts of a superset of the values item ``i`` of an ``A`` array can
        take (its ``enum``, or ``null``/``true``/``false`` for those types), ``None`` when not
        finite."""
        c = self.canon.nodes(*item_nodes(A, i))
        if c.false:
            return set()
        if c.enum_keys is not None:
            return set(c.enum_keys)
        if c.types is not None and c.types <= {"null", "boolean"}:
            return {canonical(v) for v in ([None] if "null" in c.types else []) + ([True, False] if "boolean" in c.types else [])}
        return None

    def _longest_unique(self, A: Canon, n: int, hi: int | None) -> int | None:
        """The greatest length an ``A`` array of unique items can have when its items' values
        are finite: the largest ``L`` for which positions ``0..L-1`` can each take a value of
        their own (a matching of positions to values, grown one position at a time by
        augmenting paths; once a position cannot be matched, no longer array can be). An upper
        bound, as the value sets are supersets. ``None`` when some position's values are not
        finite (before ``hi``) or ``A`` has no item schema."""
        if not A.arr:
            return None
        rest = self._position_values(A, n)  # every position from n on
        if rest is None:
            return None
        owner: dict[str, int] = {}  # value -> the position holding it
        domains: list[set[str]] = []

        def place(i: int, seen: set[str]) -> bool:
            for v in domains[i]:
                if v not in seen:
                    seen.add(v)
                    if v not in owner or place(owner[v], seen):
                        owner[v] = i
                        return True
            return False

        if n + len(rest) > MATCHED_POSITIONS:  # too many to match: every value once at most
            union = set(rest)
            for i in range(n):
                d = self._position_values(A, i)
                if d is None:
                    return None
                union |= d
            return len(union)
        limit = n + len(rest) + 1 if hi is None else min(hi, n + len(rest) + 1)
        for i in range(limit):
            d = self._position_values(A, i) if i < n else rest
            if d is None:
                return None
            domains.append(d)
            if not place(i, set()):
                return i
        return None if hi is None else hi

    def _item_canons(self, A: Canon, upto: int) -> list[Canon]:
        """The item canons of positions ``0..upto`` (the last one stands for every later item)."""
        return [self.canon.nodes(*item_nodes(A, i)) for i in range(upto + 1)]

    def _never_equal(self, A: Canon, a_max: int | None) -> bool:
        """Whether no two items of an ``A`` array can be equal: a closed tuple whose positions
        are pairwise disjoint."""
        if a_max is None:
            return False
        items = self._item_canons(A, a_max - 1)
        return all(self.disjoint(items[i], items[j]) for i in range(len(items)) for j in range(i + 1, len(items)))

    def _domain_size(self, A: Canon, upto: int) -> int | None:
        """How many distinct values the items of ``A`` can take, when finite (``null`` 1,
        ``boolean`` 2, an ``enum`` its values); ``None`` when infinite or unknown."""
        values: set[str] = set()
        for c in self._item_canons(A, min(upto, max(len(cl.prefix) for cl in A.arr) if A.arr else 0)):
            if c.false:
                continue
            if c.enum_keys is not None:
                values |= set(c.enum_keys)
            elif c.types is not None and c.types <= {"null", "boolean"}:
                values |= {canonical(v) for v in ([None] if "null" in c.types else []) + ([True, False] if "boolean" in c.types else [])}
            else:
                return None
        return len(values) if A.arr else None

    def _distinct_items(self, A: Canon, count: int) -> list | None:
        """A candidate array of ``count`` pairwise distinct items (JSON equality: ``1`` and
        ``1.0`` are one value) that ``A``'s item schemas hold, position by position (its
        ``prefixItems``, then its ``items``), each the first value of the position's sample not
        already taken: an array of unique items longer than a new ``maxItems``. ``None`` when a
        position has no value left. Only a candidate: the witness is kept only when the real
        validators confirm it."""
        if self.sampler is None:
            return None
        out: list = []
        taken: set[str] = set()
        pools: dict[tuple, tuple[list, list[int]]] = {}  # canon key -> (its values, next index)
        for i in range(count):
            c = self.canon.nodes(*item_nodes(A, i))
            if c.key not in pools:  # positions past the tuple share one canon: sampled once
                pools[c.key] = ([v for v in c.enum if self.sampler.holds(c, v)] if c.enum is not None
                                else self.sampler.many(c, limit=count + 1), [0])
            pool, at = pools[c.key]
            while at[0] < len(pool) and canonical(pool[at[0]]) in taken:
                at[0] += 1
            if at[0] >= len(pool):
                return None
            x = pool[at[0]]
            out.append(x)
            taken.add(canonical(x))
        return out

    def _contains_holds(self, A: Canon, a_lo: int, a_max: int | None, n: int, node: Node, mn: int, mx: int | None) -> bool:
        """Whether every array of ``A`` has between ``mn`` and ``mx`` items matching ``node``, by
        counting: items whose schema implies the ``contains`` schema always count (at least
        ``minItems`` of them when every position does), items disjoint from it never do; an
        ``A`` ``contains`` implying it (or implied by it, for the maximum) counts the same way."""
        c = self.canon.nodes(node)
        items = self._item_canons(A, n)
        ok_min = mn <= 0
        if not ok_min:
            if all(it.false or not self.below(it, c) for it in items):
                ok_min = a_lo >= mn  # every item matches
            else:  # the positions every array has
                must = sum(1 for i in range(a_lo) if not self.below(items[min(i, n)], c))
                ok_min = must >= mn
            ok_min = ok_min or any(amn >= mn and not self.below(self.canon.nodes(an), c) for an, amn, _, _ in A.contains)
        if ok_min and mx is None:
            return True
        if not ok_min:
            return False
        if a_max is not None and a_max <= mx:
            return True
        # items that can match: tuple positions not disjoint from the schema, and the rest
        if self.disjoint(items[-1], c):
            can = sum(1 for i in range(n) if not self.disjoint(items[i], c))
            if can <= mx:
                return True
        return any(amx is not None and amx <= mx and not self.below(c, self.canon.nodes(an)) for an, _, amx, _ in A.contains)
