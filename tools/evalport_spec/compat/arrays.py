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
            fails.append(self._fail("maxItems", f"maxItems {a_max} in the {{A}} schema, {B.max_items.value} in the {{B}} schema", A, B,
                                    A.max_items.at if A.max_items else None, B.max_items.at, hint))
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
        and minContains raise the least; maxItems and the first position whose item schema
        accepts nothing bound the greatest."""
        n = max([len(c.prefix) for c in A.arr] + [0])
        lo = max([A.min_items.value if A.min_items else 0] + [mn for _, mn, _, _ in A.contains])
        hi = A.max_items.value if A.max_items else None
        for i in range(n + 1):
            if hi is not None and i >= hi:
                break
            if item_nodes(A, i) and self.canon.nodes(*item_nodes(A, i)).false:
                hi = i
                break
        return lo, hi, n

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
