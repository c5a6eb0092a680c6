"""Disjointness of two canons (no instance satisfies both), by sufficient conditions: JSON types,
``enum`` values, numeric intervals, string lengths and languages, array lengths, and objects
requiring one member with disjoint schemas. ``False`` means "not proved", never "overlap".
"""

from __future__ import annotations

from ..jsontypes import json_type
from .canon import Canon, spellings_sampled
from .sample import prop_nodes


class DisjointRules:
    """Mixin of :class:`~.subset.Checker`: :meth:`disjoint` with its memo."""

    def _types_of(self, c: Canon) -> list[str]:
        if c.enum is not None:
            return sorted({json_type(v) if json_type(v) != "integer" else "number" for v in c.enum})
        out = []
        for t in ("null", "boolean", "number", "string", "array", "object"):
            if c.allows(t) or (t == "number" and c.allows("integer")):
                out.append(t)
        return out

    def disjoint(self, A: Canon, X: Canon, depth: int = 0) -> bool:
        """True only when no instance satisfies both ``A`` and ``X`` (sufficient conditions)."""
        key = (A.key, X.key)
        if key in self.disj_memo:
            return self.disj_memo[key]
        self.disj_memo[key] = False
        outer, self._disj_conditional = self._disj_conditional, False
        try:
            res = self._disjoint(A, X, depth)
        finally:
            conditional, self._disj_conditional = self._disj_conditional, outer or self._disj_conditional
        if conditional:  # proved on a co-inductive assumption still open: not a fact to keep
            del self.disj_memo[key]
        else:
            self.disj_memo[key] = res
        return res

    def _disjoint(self, A: Canon, X: Canon, depth: int) -> bool:
        if A.false or X.false:
            return True
        if any(neg and any(self.equal(n, m) for m in X.positives) for neg, n in A.parts):
            return True
        if any(neg and any(self.equal(n, m) for m in A.positives) for neg, n in X.parts):
            return True
        for E, other in ((A, X), (X, A)):
            if E.enum is not None:
                return all(not (self.sampler.holds(E, s) and self.sampler.holds(other, s))
                           and not (self.draft04 and spellings_sampled(v))
                           for v in E.enum for s in self.spellings(v))
        common = [t for t in self._types_of(A) if t in self._types_of(X)]
        if all(self._disjoint_type(A, X, t, depth) for t in common):
            return True
        return (self._disjoint_cases(A, X, depth) or self._disjoint_cases(X, A, depth)
                or (depth == 0 and (self._inside_negation(A, X) or self._inside_negation(X, A))))

    def _inside_negation(self, E: Canon, other: Canon) -> bool:
        """Disjoint because ``E`` is ``E' and not N`` (``N`` a negated part, such as the other
        branches of a split ``oneOf`` or a failed ``if``, or a ``not`` keyword the canon kept)
        and ``E' and other`` is included in ``N``: every common instance would both pass and
        fail ``N``. The inclusion is proved by :meth:`check` (the left side keeps the split
        markers of both, which only widens it). A pair still being compared outside may be
        assumed in there only once the proof has descended into a member or item since that pair
        was entered (guarded co-induction: the assumption then covers smaller instances); met
        again before, it is undecided (:meth:`~.subset.Checker.sealed`), or the disjointness,
        used to prove that very pair, would rest on itself. An answer that used such an
        assumption, or met such a pair, is conditional (not memoised)."""
        if self._in_negation:
            return False  # one level: the checks below do not try this rule again
        negated = [(n, E.parts - {(True, n)}) for neg, n in E.parts if neg] + [(t, E.parts) for t, _ in E.nots]
        self._in_negation = True
        try:
            with self.sealed({k: self._entered[k] for k in self.active}):
                for n, rest in negated:
                    N = self.canon.nodes(n)
                    both = self.canon.of(rest | other.parts, E.done | other.done)
                    if N.false or (both.key, N.key) in self.active:
                        continue
                    mark = len(self.coinduction_log)
                    proved = not self.check(both, N)
                    if self._seal_hit:  # "not proved" because a sealed pair was met: not a fact
                        self._disj_conditional = True
                    if proved:
                        if any(k in self.active for k in self.coinduction_log[mark:]):
                            self._disj_conditional = True
                        return True
        finally:
            self._in_negation = False
        return False

    def _disjoint_cases(self, E: Canon, other: Canon, depth: int) -> bool:
        """Disjoint by cases of ``E``: every branch of one of its ``anyOf``/``oneOf`` groups (a
        ``not`` eliminated into one included), or both cases of one of its conditionals, is
        disjoint from ``other``."""
        if depth >= 4:
            return False
        for g in E.groups:
            if len(g.branches) <= 8 and all(
                    self.disjoint(self.canon.of(E.parts | {(False, b)}, E.done | {g.marker}), other, depth + 1)
                    for b in g.branches):
                return True
        for c in E.conds:
            cases = ({(False, c.if_)} | ({(False, c.then)} if c.then else set()),
                     {(True, c.if_)} | ({(False, c.else_)} if c.else_ else set()))
            if all(self.disjoint(self.canon.of(E.parts | case, E.done | {c.marker}), other, depth + 1)
                   for case in cases):
                return True
        return False

    def _disjoint_type(self, A: Canon, X: Canon, t: str, depth: int) -> bool:
        if t in ("null", "boolean"):
            vals = [None] if t == "null" else [True, False]
            return all(not (self.sampler.holds(A, v) and self.sampler.holds(X, v)) for v in vals)
        if t == "number":
            for lo_c, hi_c in ((A, X), (X, A)):
                lo, hi = lo_c.lo, hi_c.hi
                if lo and hi and (lo.value > hi.value or (lo.value == hi.value and (lo.excl or hi.excl))):
                    return True
            if not (A.allows("number") and X.allows("number")) and not (A.allows("integer") and X.allows("integer")):
                return True
            return False
        if t == "string":
            for s, o in ((A, X), (X, A)):
                if s.min_len and o.max_len and s.min_len.value > o.max_len.value:
                    return True
            if not (self.strings.regular_part(A) and self.strings.regular_part(X)):
                return False
            return self.strings.disjoint(A, X)  # no string in both (over-approximations: a proof)
        if t == "array":
            for s, o in ((A, X), (X, A)):
                if s.min_items and o.max_items and s.min_items.value > o.max_items.value:
                    return True
            return False
        if t == "object" and depth < 4:
            for name in set(A.required) | set(X.required):
                pa = self.canon.nodes(*prop_nodes(A, name))
                px = self.canon.nodes(*prop_nodes(X, name))
                # one side requires the member, so a common instance has it, with a value both
                # member schemas accept (a side that does not constrain it accepts any value)
                if (pa.parts and px.parts) and self.disjoint(pa, px, depth + 1):
                    return True
                if name in A.required and px.false or name in X.required and pa.false:
                    return True
        return False

    # ------------------------------------------------------------------ per type
