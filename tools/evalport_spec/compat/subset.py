"""The inclusion check ``A ⊆ B`` between two canons, with findings and local witnesses.

``Checker.check(A, B)`` returns ``[]`` only when every instance valid under ``A`` is valid under
``B`` as far as this engine can prove; otherwise it returns :class:`Fail` records, each with a
code (see :mod:`.kinds`), the schema locations on both sides, the instance path, and witness
values (valid under ``A``, invalid under ``B`` at that level, checked with the real validator)
or, when it cannot decide, ``undecided`` with the reason (fail closed).

Method: disjunctions of ``A`` (``anyOf``/``oneOf`` branches, ``if``/``then``/``else`` cases) are
split into cases; ``B``'s disjunctions are checked by finding a covering branch (``oneOf`` also
needs the other branches to be provably disjoint); the rest is compared keyword by keyword per
JSON type, recursing into properties and items. Recursion between subschemas terminates on a
memo keyed by the pair of canons (co-inductive: a pair already under comparison is assumed
included). Structurally equal subschemas (``$ref`` followed, annotations ignored) are included
without further work.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from ..canonjson import canonical
from ..findings import NO_ITEM
from ..jsonnum import enum_index
from ..jsontypes import json_type
from ..pointer import join
from ..regular import Lang, Unsupported
from .canon import ANNOTATIONS, Canon, Canonizer, json_equal
from .nodes import Node, synthetic
from .sample import Sampler, is_json_type, item_nodes, prop_nodes
from .strings import StringLangs, shortest

SCHEMA_KW = frozenset({"additionalProperties", "not", "if", "then", "else", "contains",
                       "propertyNames", "unevaluatedProperties", "unevaluatedItems",
                       "additionalItems", "items"})
MAP_KW = frozenset({"properties", "patternProperties", "dependentSchemas"})
LIST_KW = frozenset({"allOf", "anyOf", "oneOf", "prefixItems"})
SET_KW = frozenset({"enum", "required", "type"})
FRESH = "x-evalport-fresh-name"
MAX_CELL_PATTERNS = 8
"""Most ``patternProperties`` regexes (both sides together) whose 2**n combinations are compared."""


@dataclass
class Fail:
    """One reason why ``A ⊆ B`` does not hold (or could not be decided)."""

    code: str
    message: str
    a: tuple[Node, str] | None
    b: tuple[Node, str] | None
    path: tuple = ()
    witness: list[Any] = field(default_factory=list)
    undecided: str | None = None
    via: tuple | None = field(default=None, repr=False, compare=False)
    """``(inner Fail, A, B, key, how)`` when this failure is ``inner`` seen one level up (member
    ``key`` of an object, or item ``key`` of an array): its witnesses are built on demand by
    :meth:`Checker.witnesses`, only along this one instance path."""
    cache: dict = field(default_factory=dict, repr=False, compare=False)
    item: Any = NO_ITEM
    """The one lost item when the keyword holds alternatives (an ``enum`` value, a ``type``
    member, a ``required`` name, a dropped branch): each is its own failure (issue 20)."""

    def key(self) -> tuple:
        """Identity of the failure by schema locations and item (not instance path): the same
        changed subschema reached along many instance paths (a shared ``$defs`` entry) is one
        failure, reported at the first path found; this keeps deep ``$ref`` graphs linear."""
        item = None if self.item is NO_ITEM else canonical(self.item)
        return (self.code, _where(self.a), _where(self.b), self.undecided is not None, item)


class Budget(Exception):
    """Raised when the case split exceeds the budget (reported as undecided)."""


class Checker:
    """Inclusion checker over a :class:`Canonizer` (both sides) with a :class:`Sampler`.

    Args:
        format_assertion: compare ``format`` keywords as assertions.
        max_cases: bound on case splits per top-level check (fail closed beyond).
    """

    def __init__(self, canon: Canonizer, sampler: Sampler, *, format_assertion: bool = True,
                 max_cases: int = 20000) -> None:
        self.canon = canon
        self.sampler = sampler
        self.format_assertion = format_assertion
        self.max_cases = max_cases
        self.cases = 0
        self.strings = sampler.strings if sampler is not None else StringLangs(canon.side, format_assertion)
        self.memo: dict[tuple, list[Fail]] = {}
        self.active: set[tuple] = set()
        self.assumed: set[tuple] = set()
        self.eq_memo: dict[tuple[Node, Node], bool] = {}
        self.eq_active: set[tuple[Node, Node]] = set()
        self.eq_assumed: set[tuple[Node, Node]] = set()
        self.disj_memo: dict[tuple, bool] = {}

    # ------------------------------------------------------------------ structural equality
    def equal(self, a: Node, b: Node) -> bool:
        """Whether two nodes are the same schema (``$ref`` followed, annotations ignored)."""
        key = (a, b)
        hit = self.eq_memo.get(key)
        if hit is not None:
            return hit
        if key in self.eq_active:  # co-inductive assumption on cycles
            self.eq_assumed.add(key)
            return True
        self.eq_active.add(key)
        mark = len(self.eq_memo)
        ok = False
        try:
            sa, sb = self.canon.side(a), self.canon.side(b)
            res = sa.dialect(a) == sb.dialect(b) and self._eq(a, sa.value(a), b, sb.value(b))
            ok = True
        finally:
            self.eq_active.discard(key)
            if not ok or (key in self.eq_assumed and not res):
                _forget_since(self.eq_memo, mark)  # entries built on the failed assumption
            self.eq_assumed.discard(key)
        self.eq_memo[key] = res
        return res

    def _eq(self, a: Node, va: Any, b: Node, vb: Any) -> bool:
        if isinstance(va, bool) or isinstance(vb, bool):
            return va is vb or (va is True and vb == {}) or (vb is True and va == {})
        if not isinstance(va, dict) or not isinstance(vb, dict):
            return json_equal(va, vb)
        ka = {k for k in va if k not in ANNOTATIONS}
        kb = {k for k in vb if k not in ANNOTATIONS}
        if ka != kb:
            return False
        sa, sb = self.canon.side(a), self.canon.side(b)
        ch = lambda n, *t: Node(n.side, n.file, n.ptr + "".join("/" + str(x).replace("~", "~0").replace("/", "~1") for x in t), n.syn and None)  # noqa: E731
        if a.syn is not None or b.syn is not None:
            return json_equal({k: va[k] for k in ka}, {k: vb[k] for k in kb}) and "$ref" not in ka
        for k in ka:
            x, y = va[k], vb[k]
            if k in ("$ref", "$dynamicRef", "$recursiveRef"):
                try:
                    ta = sa.resolve_ref(a, x) if k == "$ref" else sa.resolve_dynamic(a, k, x)
                    tb = sb.resolve_ref(b, y) if k == "$ref" else sb.resolve_dynamic(b, k, y)
                    if not self.equal(ta, tb):
                        return False
                except Exception:
                    return False
            elif k in SCHEMA_KW and not isinstance(x, list):
                if isinstance(y, list) or not self.equal(ch(a, k), ch(b, k)):
                    return False
            elif k in MAP_KW or (k == "dependencies" and isinstance(x, dict)):
                if not isinstance(x, dict) or not isinstance(y, dict) or x.keys() != y.keys():
                    return False
                for n in x:
                    if isinstance(x[n], list) or isinstance(y[n], list):
                        if not json_equal(sorted(map(repr, x[n])) if isinstance(x[n], list) else x[n],
                                          sorted(map(repr, y[n])) if isinstance(y[n], list) else y[n]):
                            return False
                    elif not self.equal(ch(a, k, n), ch(b, k, n)):
                        return False
            elif k in LIST_KW or (k == "items" and isinstance(x, list)):
                if not isinstance(x, list) or not isinstance(y, list) or len(x) != len(y):
                    return False
                if not all(self.equal(ch(a, k, i), ch(b, k, i)) for i in range(len(x))):
                    return False
            elif k in SET_KW and isinstance(x, list) and isinstance(y, list):
                try:
                    if enum_index(x).keys() != enum_index(y).keys():
                        return False
                except (TypeError, ValueError):
                    return False
            elif not json_equal(x, y):
                return False
        return True

    def same(self, A: Canon, B: Canon) -> bool:
        """Whether the two conjunctions are made of pairwise equal parts."""
        if len(A.parts) != len(B.parts) or not A.parts:
            return False
        rest = list(B.parts)
        for neg, n in A.parts:
            for i, (neg2, m) in enumerate(rest):
                if neg == neg2 and self.equal(n, m):
                    del rest[i]
                    break
            else:
                return False
        return True

    # ------------------------------------------------------------------ entry
    def check(self, A: Canon, B: Canon) -> list[Fail]:
        """Reasons why ``A ⊆ B`` fails (``[]`` when it holds); see the module docstring."""
        key = (A.key, B.key)
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        if key in self.active:  # co-inductive assumption: a pair under comparison holds
            self.assumed.add(key)
            return []
        self.active.add(key)
        mark = len(self.memo)
        out = None
        try:
            out = self._check(A, B)
        finally:
            self.active.discard(key)
            if out is None or (out and key in self.assumed):
                # results memoised since this pair became active may rest on its assumption,
                # which failed (or was never settled): forget them all
                _forget_since(self.memo, mark)
            self.assumed.discard(key)
        seen: dict[tuple, Fail] = {}
        for f in out:
            k = f.key()
            if k in seen:
                if seen[k].via is None and f.via is None:
                    seen[k].witness.extend(w for w in f.witness if len(seen[k].witness) < 3)
            else:
                seen[k] = f
        out = list(seen.values())
        self.memo[key] = out
        return out

    def _fail(self, code: str, msg: str, A: Canon, B: Canon, a: tuple | None, b: tuple | None,
              hint: dict | None = None, path: tuple = (), item: Any = NO_ITEM,
              must: Callable[[Any], bool] | None = None) -> Fail:
        f = Fail(code, msg, a or _loc(A), b or _loc(B), path, item=item)
        f.witness = self.local_witnesses(A, B, hint, must=must)
        return f

    def local_witnesses(self, A: Canon, B: Canon, hint: dict | None = None, limit: int = 2,
                        tries: int = 400, must: Callable[[Any], bool] | None = None) -> list[Any]:
        """Values valid under ``A`` and invalid under ``B`` from the sampler's candidates; with
        ``must``, only values showing this very failure (``must(value)``: e.g. the object lacks
        the newly required name), so a witness never stands for another change."""
        out: list[Any] = []
        seen: set[str] = set()
        for n, x in enumerate(self.sampler.candidates(A, 0, hint)):
            if n >= tries:
                break
            k = repr(x)
            if k in seen:
                continue
            seen.add(k)
            if (must is None or must(x)) and self.sampler.valid(A, x) and not self.sampler.valid(B, x):
                out.append(x)
                if len(out) >= limit:
                    break
        return out

    def _check(self, A: Canon, B: Canon) -> list[Fail]:
        if A.false or self._empty(A):
            return []
        if B.parts and self.same(A, B):
            return []
        if not B.parts:
            return []
        self.cases += 1
        if self.cases > self.max_cases:
            raise Budget()
        fails: list[Fail] = []
        for node, ptr, why in B.undecided:
            fails.append(Fail("undecided", why, _loc(A), (node, ptr), undecided=why))
        for node, ptr, why in A.undecided:
            fails.append(Fail("undecided", why, (node, ptr), _loc(B), undecided=why))
        if fails:
            return fails
        if B.false:
            if not self._inhabited(A):
                return []
            return [self._fail("false", "the {B} schema accepts nothing here", A, B, None, None)]
        # Lazy case split: first compare with A's disjunctions kept whole (A without them accepts
        # more, so a pass is a proof). Only failures no verified witness backs are worth a split;
        # A's groups and conditionals that B repeats are cancelled (A implies them) and split last.
        flat = self._flat(A, B)
        group, cond, fresh = self._split_point(A, B)
        if not flat or (all(self._witnessed(f, A, B) for f in flat)
                        and not (fresh and group is not None and any(f.code in ("anyOf", "oneOf") for f in flat))):
            return flat  # proved, or every failure is real (a B group failing against a group of A
            # that B does not repeat is split all the same: each dropped branch is its own finding)
        if group is not None:
            side = self.canon.side(group.owner)
            for br in group.branches:
                sub = self.canon.of(A.parts | {(False, br)}, A.done | {group.marker})
                for f in self.check(sub, B):
                    if f.code in ("anyOf", "oneOf") and f.item is NO_ITEM and not f.path:
                        f = replace(f, item=side.value(br))  # the A branch no B branch covers
                    fails.append(f)
            return fails
        if cond is not None:
            done = A.done | {cond.marker}
            case1 = {(False, cond.if_)} | ({(False, cond.then)} if cond.then else set())
            case2 = {(True, cond.if_)} | ({(False, cond.else_)} if cond.else_ else set())
            for case in (case1, case2):
                fails.extend(self.check(self.canon.of(A.parts | case, done), B))
            return fails
        return flat

    def _flat(self, A: Canon, B: Canon) -> list[Fail]:
        """``A ⊆ B`` compared without splitting ``A``'s disjunctions (they only narrow ``A``)."""
        return [*self._combinators(A, B), *self._types(A, B)]

    def _witnessed(self, f: Fail, A: Canon, B: Canon) -> bool:
        """Whether failure ``f`` of ``A ⊆ B`` has a witness the real validators confirm."""
        return f.undecided is None and bool(self.verified_witnesses(f, A, B))

    def _split_point(self, A: Canon, B: Canon) -> tuple[Any, Any, bool]:
        """``(group, None, fresh)`` or ``(None, conditional, fresh)``: the disjunction of ``A`` to
        split next, those ``B`` does not repeat first (``fresh``); ``(None, None, False)`` when
        nothing is left to split."""
        fresh = [g for g in A.groups if not any(_implies(g.kind, h.kind) and self._same_branches(g.branches, h.branches)
                                                for h in B.groups)]
        if A.groups:
            return (fresh or A.groups)[0], None, bool(fresh)
        if A.conds:
            fresh_c = [c for c in A.conds if not any(self._same_cond(c, d) for d in B.conds)]
            return None, (fresh_c or A.conds)[0], bool(fresh_c)
        return None, None, False

    def _empty(self, A: Canon) -> bool:
        pos = {n for neg, n in A.parts if not neg}
        return any(neg and n in pos for neg, n in A.parts)

    # ------------------------------------------------------------------ combinators of B
    def _combinators(self, A: Canon, B: Canon) -> list[Fail]:
        fails: list[Fail] = []
        for g in B.groups:
            # an A group with the same branches implies g when it is as strong: a oneOf implies
            # the anyOf of its branches, but an anyOf never implies a oneOf (overlapping branches)
            if any(_implies(h.kind, g.kind) and self._same_branches(h.branches, g.branches)
                   for h in [*A.groups, *self._a_groups(A)]):
                continue
            fails.extend(self._group(A, B, g))
        for cond in B.conds:
            if any(self._same_cond(c, cond) for c in self._a_conds(A)):
                continue
            fails.extend(self._cond(A, B, cond))
        for node, ptr in B.nots:
            if any(self.equal(n, node) or not self.check(self.canon.nodes(node), self.canon.nodes(n))
                   for n, _ in self._a_nots(A)):
                continue
            if any(neg and self.equal(n, node) for neg, n in A.parts):
                continue
            if self.disjoint(A, self.canon.nodes(node)):
                continue
            inter = self.canon.of(A.parts | {(False, node)})
            f = Fail("not", "a 'not' of the {B} schema excludes documents the {A} schema accepts", _loc(A), (node, ptr))
            f.witness = self.local_witnesses(inter, B)
            fails.append(f)
        return fails

    def _a_groups(self, A: Canon):
        # groups A already split (their owners are among A's positive nodes)
        for n in A.positives:
            c = self.canon.nodes(n)
            yield from c.groups

    def _a_conds(self, A: Canon):
        seen = list(A.conds)
        for n in A.positives:
            seen.extend(self.canon.nodes(n).conds)
        return seen

    def _a_nots(self, A: Canon):
        out = list(A.nots)
        for n in A.positives:
            out.extend(self.canon.nodes(n).nots)
        return out

    def _same_branches(self, xs: list[Node], ys: list[Node]) -> bool:
        if len(xs) != len(ys):
            return False
        rest = list(ys)
        for x in xs:
            for i, y in enumerate(rest):
                if self.equal(x, y):
                    del rest[i]
                    break
            else:
                return False
        return True

    def _same_cond(self, c1, c2) -> bool:
        def eq(x, y):
            return (x is None and y is None) or (x is not None and y is not None and self.equal(x, y))
        return eq(c1.if_, c2.if_) and eq(c1.then, c2.then) and eq(c1.else_, c2.else_)

    def _group(self, A: Canon, B: Canon, g) -> list[Fail]:
        branches = [self.canon.nodes(b) for b in g.branches]
        types = self._types_of(A)
        cases = [(None, A)] + [(t, self.canon.of(A.parts | {(False, synthetic(g.owner.side, {"type": t}))}, A.done))
                               for t in types] if len(types) > 1 else [(None, A)]
        if len(types) <= 1:
            cases = [(None, A)]
        pending = []
        subs: dict[str | None, list[list[Fail]]] = {}
        for t, case in cases:
            ok = None
            subs[t] = []
            for j, br in enumerate(branches):
                sub = self.check(case, br)
                subs[t].append(sub)
                if not sub:
                    overlap = [k for k, other in enumerate(branches) if k != j and not self.disjoint(case, other)]
                    if g.kind == "oneOf" and overlap:
                        ok = ("overlap", j, overlap)
                        continue
                    ok = ("ok", j)
                    break
            if ok and ok[0] == "ok":
                if t is None:
                    return []
                continue
            if t is None and len(cases) > 1:
                continue
            pending.append((t, case, ok))
        fails = []
        for t, case, ok in pending:
            if ok and ok[0] == "overlap":
                f = Fail("oneOf-overlap", "a document of the {A} schema can match more than one 'oneOf' branch of "
                         "the {B} schema", _loc(A), (g.owner, g.owner.ptr + "/oneOf"))
                _, j, overlap = ok
                cands = []  # documents of the case matching branch j and another one
                for k in overlap:
                    both = self.canon.of(case.parts | {(False, g.branches[j]), (False, g.branches[k])})
                    cands += self.local_witnesses(both, B)
                f.witness = [w for w in cands if self.sampler.valid(A, w)][:2]
            else:
                f = Fail(g.kind, f"a document of the {{A}} schema{' of type ' + t if t else ''} matches no '{g.kind}' "
                         "branch of the {B} schema", _loc(A), (g.owner, g.owner.ptr + "/" + g.kind),
                         item=t if t else NO_ITEM)
                # a document breaking every branch: first from each branch's own failures
                per_branch = [[w for f2 in sub for w in self.verified_witnesses(f2, case, br)][:2]
                              for br, sub in zip(branches, subs.get(t, ()), strict=False)]
                cands = [w for ws in per_branch for w in ws] + _merged(per_branch)
                f.witness = [w for w in cands if self.sampler.valid(A, w) and not self.sampler.valid(B, w)][:2] \
                    or self.local_witnesses(case, B, {"type": t} if t else None)
            fails.append(f)
        return fails

    def _cond(self, A: Canon, B: Canon, cond) -> list[Fail]:
        out: list[Fail] = []
        if_c = self.canon.nodes(cond.if_)
        if cond.then is not None and not self.disjoint(A, if_c):
            sub = self.check(self.canon.of(A.parts | {(False, cond.if_)}, A.done), self.canon.nodes(cond.then))
            out.extend(self._relabel(sub, cond, A, B))
        if cond.else_ is not None and self.check(A, if_c):
            sub = self.check(self.canon.of(A.parts | {(True, cond.if_)}, A.done), self.canon.nodes(cond.else_))
            out.extend(self._relabel(sub, cond, A, B))
        return out

    def _relabel(self, sub: list[Fail], cond, A: Canon, B: Canon) -> list[Fail]:
        out = []
        for f in sub:
            if f.undecided:
                out.append(f)
                continue
            g = Fail(cond.origin, f"under the {cond.origin} at {cond.ptr}: {f.message}", f.a,
                     (cond.owner if cond.owner.syn is None else f.b[0], cond.ptr), f.path,
                     [w for w in f.witness], via=f.via, item=f.item)
            if not f.path:
                g.witness = [w for w in f.witness if self.sampler.valid(A, w) and not self.sampler.valid(B, w)]
            out.append(g)
        return out

    # ------------------------------------------------------------------ disjointness
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
        res = self._disjoint(A, X, depth)
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
                return all(not (self.sampler.holds(E, v) and self.sampler.holds(other, v)) for v in E.enum)
        common = [t for t in self._types_of(A) if t in self._types_of(X)]
        for t in common:
            if not self._disjoint_type(A, X, t, depth):
                return False
        return True

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
                if s.min_len and o.max_len and s.min_len[0] > o.max_len[0]:
                    return True
            try:  # no string in both languages (each over-approximated: a proof)
                return (self.strings.over(A)[0] & self.strings.over(X)[0]).is_empty()
            except Unsupported:
                return False
        if t == "array":
            for s, o in ((A, X), (X, A)):
                if s.min_items and o.max_items and s.min_items[0] > o.max_items[0]:
                    return True
            return False
        if t == "object" and depth < 4:
            for name in set(A.required) | set(X.required):
                pa = self.canon.nodes(*prop_nodes(A, name))
                px = self.canon.nodes(*prop_nodes(X, name))
                if name in A.required and name in X.required:
                    if (pa.parts and px.parts) and self.disjoint(pa, px, depth + 1):
                        return True
                if name in A.required and px.false or name in X.required and pa.false:
                    return True
        return False

    # ------------------------------------------------------------------ per type
    def _types(self, A: Canon, B: Canon) -> list[Fail]:
        fails: list[Fail] = []
        if A.enum_keys is not None:  # linear: plain canons are read off their hashed enum
            for k, v in A.enum_keys.items():
                if not (A.admits(v, k) if A.plain else self.sampler.holds(A, v)):
                    continue
                if not (B.admits(v, k) if B.plain else B.admits(v, k) and self.sampler.holds(B, v)):
                    fails.append(self._value_fail(A, B, v))
            return fails
        finite = self._finite_objects(A)
        if finite is not None:  # a small closed object of finite members: every document checked
            return [self._value_fail(A, B, doc) for doc in finite
                    if self.sampler.holds(A, doc) and not self.sampler.holds(B, doc)]
        for k, v in (B.excluded or {}).items():  # values a `not` of B rejects
            if A.admits(v, k) and self.sampler.holds(A, v):
                fails.append(Fail("not", f"value {_short(v)} is excluded by a 'not' of the {{B}} schema and accepted "
                                  "by the {A} schema", _loc(A), _loc(B), witness=[v], item=v))
        for t in ("null", "boolean"):
            if A.allows(t):
                for v in ([None] if t == "null" else [True, False]):
                    # rejected by B's own type/enum here; B's combinators report their own
                    if not B.admits(v) and self.sampler.holds(A, v):
                        fails.append(self._value_fail(A, B, v))
        if A.allows("integer") or A.allows("number"):
            fails.extend(self._numbers(A, B))
        if A.allows("string"):
            fails.extend(self._strings(A, B))
        if A.allows("array"):
            fails.extend(self._arrays(A, B))
        if A.allows("object"):
            fails.extend(self._objects(A, B))
        return fails

    def _finite_objects(self, A: Canon, limit: int = 256) -> list[dict] | None:
        """Every document of ``A`` when ``A`` accepts only closed objects (no member beyond its
        ``properties``) whose members each take finitely many values (``enum``/``const``), at
        most ``limit`` of them; ``None`` otherwise. Candidates still to be validated."""
        if A.types != {"object"} or A.groups or A.conds:
            return None
        closed = [cl for cl in A.obj if cl.add is not None and not cl.pats and self.canon.nodes(cl.add).false]
        if not closed:
            return None
        names = sorted(set.intersection(*(set(cl.props) for cl in closed)))
        docs: list[dict] = [{}]
        for name in names:
            c = self.canon.nodes(*prop_nodes(A, name))
            values = [] if c.false else c.enum
            if values is None:
                return None
            options = [(name, v) for v in values] + ([] if name in A.required else [None])
            docs = [{**d, name: o[1]} if o else d for d in docs for o in options]
            if len(docs) > limit:
                return None
        return docs

    def _value_fail(self, A: Canon, B: Canon, v: Any) -> Fail:
        t = json_type(v)
        item: Any = v
        if not B.allows(t) or (B.int_literal and isinstance(v, float) and not B.allows("number")):
            code, msg, b = "type", f"type {t} (value {_short(v)}) is accepted by the {{A}} schema and rejected by the {{B}} schema", B.int_literal or B.type_src
            item = "number" if B.allows(t) else t  # B allows t: a draft-04 integer rejects 1.0
        elif B.enum_keys is not None and canonical(v) not in B.enum_keys:
            code, msg, b = "enum", f"value {_short(v)} is in the {{A}} enum/const and not in the {{B}} one", B.enum_src
        else:
            code, msg, b = "value", f"value {_short(v)} is accepted by the {{A}} schema and rejected by the {{B}} schema", None
        f = Fail(code, msg, A.enum_src or A.type_src or _loc(A), b or _loc(B), item=item)
        f.witness = [v]
        return f

    def _type_gate(self, A: Canon, B: Canon, t: str, hint_t: str) -> Fail | None:
        if not B.allows(t):
            return self._fail("type", f"type {t} is accepted by the {{A}} schema and rejected by the {{B}} schema", A, B, A.type_src, B.type_src,
                              {"type": hint_t}, item=t, must=lambda w: is_json_type(w, t))
        if B.enum is not None:
            return self._fail("enum-new", f"an enum/const in the {{B}} schema restricts {t} values the {{A}} schema accepts", A, B, A.type_src,
                              B.enum_src, {"type": hint_t, "values": B.enum})
        return None

    def _numbers(self, A: Canon, B: Canon) -> list[Fail]:
        ints_only = not A.allows("number") or any(m.denominator == 1 for m, _, _ in A.mult)
        t = "integer" if ints_only else "number"
        if not ints_only and not B.allows("number") and B.allows("integer"):
            return [self._fail("type", "non-integer numbers are accepted by the {A} schema and rejected by the {B} schema", A, B, A.type_src,
                               B.type_src, {"type": "number", "values": [0.5, 1.5]}, item="number",
                               must=lambda w: json_type(w) == "number")]
        gate = self._type_gate(A, B, t, t)
        if gate:
            return [gate]
        fails = []
        if B.int_literal and not A.int_literal:
            # draft-04 integer: 1.0 is not one; the A side accepts integral floats
            fails.append(self._fail("type", "integral numbers written with a fraction (such as 1.0) are "
                                    "accepted by the {A} schema and rejected by the {B} schema (draft-04 "
                                    "'integer')", A, B, A.type_src, B.int_literal,
                                    {"type": "number", "floats": True}, item="number",
                                    must=lambda w: isinstance(w, float)))
        hint = {"type": t, "numbers": [b.value for b in (A.lo, A.hi, B.lo, B.hi) if b]}
        if B.lo and not _covers_lo(A.lo, B.lo, ints_only):
            fails.append(self._fail("minimum", f"lower bound {_show(A.lo)} in the {{A}} schema, {_show(B.lo)} in the {{B}} schema", A, B,
                                    (A.lo.src, A.lo.ptr) if A.lo else None, (B.lo.src, B.lo.ptr), hint))
        if B.hi and not _covers_hi(A.hi, B.hi, ints_only):
            fails.append(self._fail("maximum", f"upper bound {_show(A.hi)} in the {{A}} schema, {_show(B.hi)} in the {{B}} schema", A, B,
                                    (A.hi.src, A.hi.ptr) if A.hi else None, (B.hi.src, B.hi.ptr), hint))
        for mb, node, ptr in B.mult:
            if any((ma / mb).denominator == 1 for ma, _, _ in A.mult):
                continue
            if ints_only and (1 / mb).denominator == 1:
                continue
            a = A.mult[0][1:] if A.mult else None
            fails.append(self._fail("multipleOf", f"multipleOf {_emit(mb)} in the {{B}} schema rejects values of the {{A}} schema", A, B, a,
                                    (node, ptr), hint))
        return fails

    def _strings(self, A: Canon, B: Canon) -> list[Fail]:
        """Strings: each string keyword of ``B`` against the language of ``A``'s (regular
        languages, :mod:`.strings`): inclusion is a proof, a member of the difference the
        witness candidate. A ``B`` keyword with no language here (a backreference, a format that
        is not regular) is proved only by the same keyword in ``A``."""
        gate = self._type_gate(A, B, "string", "string")
        if gate:
            return [gate]
        fails = []
        la, _ = self.strings.over(A)
        a_same = {(kw.code, kw.text) for kw in self.strings.keywords(A, "over")}
        for kw in self.strings.keywords(B, "under"):
            if (kw.code, kw.text) in a_same and kw.code in ("pattern", "format"):
                continue  # the same keyword on both sides
            if kw.lang is not None:
                try:
                    if la <= kw.lang:
                        continue
                    strings = shortest(la - kw.lang)
                except Unsupported:
                    strings = []
                if not strings and kw.code in ("minLength", "maxLength") and self._length_implied(A, kw):
                    continue
            else:
                strings = self._sampled_strings(A, kw)
            code = "pattern-new" if kw.code == "pattern" and not A.patterns else kw.code
            a_loc = {"minLength": A.min_len[1:] if A.min_len else None,
                     "maxLength": A.max_len[1:] if A.max_len else None,
                     "pattern": A.patterns[0][1:] if A.patterns else None,
                     "format": A.formats[0][1:] if A.formats else None, "not": None}[kw.code]
            lang = kw.lang
            fails.append(self._fail(code, _string_message(kw, A), A, B, a_loc, (kw.node, kw.ptr),
                                    {"type": "string", "strings": strings},
                                    must=(lambda w, lang=lang: isinstance(w, str) and w not in lang) if lang is not None else None))
            if kw.lang is None and not fails[-1].witness:
                fails[-1].message += f" (no regular language: {kw.why})"
        return fails

    @staticmethod
    def _length_implied(A: Canon, kw) -> bool:
        """Whether ``A``'s own length bounds imply the ``B`` bound ``kw`` (the language check
        could not answer)."""
        n = int(kw.text)
        if kw.code == "minLength":
            return bool(A.min_len) and A.min_len[0] >= n
        return bool(A.max_len) and A.max_len[0] <= n

    def _sampled_strings(self, A: Canon, kw) -> list[str]:
        """Candidate strings of ``A`` that break a ``B`` keyword with no language here."""
        lo = A.min_len[0] if A.min_len else 0
        hi = A.max_len[0] if A.max_len else None
        strings: list[str] = []
        if kw.code == "pattern":
            for ap, _, _ in A.patterns:
                strings += self.sampler.regex_samples(ap, lo, hi, reject=kw.text)
        return strings

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
            return []  # A accepts no array
        a_lo, a_max, n = self._array_bounds(A)
        if B.min_items and a_lo < B.min_items[0]:
            fails.append(self._fail("minItems", f"minItems {a_lo} in the {{A}} schema, {B.min_items[0]} in the {{B}} schema", A, B,
                                    A.min_items[1:] if A.min_items else None, B.min_items[1:], hint))
        if B.max_items and (a_max is None or a_max > B.max_items[0]):
            fails.append(self._fail("maxItems", f"maxItems {a_max} in the {{A}} schema, {B.max_items[0]} in the {{B}} schema", A, B,
                                    A.max_items[1:] if A.max_items else None, B.max_items[1:], hint))
        if B.unique and not A.unique and (a_max is None or a_max > 1) and not self._never_equal(A, a_max):
            fails.append(self._fail("uniqueItems", "uniqueItems is asserted by the {B} schema and not by the {A} schema", A, B, None, B.unique, hint,
                                    must=lambda w: isinstance(w, list) and len({canonical(x) for x in w}) < len(w)))
        for node, mn, mx, ptr in B.contains:
            if not self._contains_holds(A, a_lo, a_max, n, node, mn, mx):
                fails.append(self._fail("contains", "'contains' of the {B} schema rejects arrays the {A} schema accepts", A, B,
                                        None, (node, ptr), hint))
        for i in range(max([n] + [len(cl.prefix) for cl in B.arr]) + 1):
            if a_max is not None and i >= a_max:
                break
            bn = item_nodes(B, i)
            if not bn:
                continue
            ai = self.canon.nodes(*item_nodes(A, i))
            bi = self.canon.nodes(*bn)
            if ai.false:
                break
            for f in self.check(ai, bi):
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
        lo = max([A.min_items[0] if A.min_items else 0] + [mn for _, mn, _, _ in A.contains])
        hi = A.max_items[0] if A.max_items else None
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
            if all(it.false or not self.check(it, c) for it in items):
                ok_min = a_lo >= mn  # every item matches
            else:  # the positions every array has
                must = sum(1 for i in range(a_lo) if not self.check(items[min(i, n)], c))
                ok_min = must >= mn
            ok_min = ok_min or any(amn >= mn and not self.check(self.canon.nodes(an), c) for an, amn, _, _ in A.contains)
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
        return any(amx is not None and amx <= mx and not self.check(c, self.canon.nodes(an)) for an, _, amx, _ in A.contains)

    def _objects(self, A: Canon, B: Canon) -> list[Fail]:
        gate = self._type_gate(A, B, "object", "object")
        if gate:
            return [gate]
        fails: list[Fail] = []
        hint = {"type": "object"}
        for r, (node, ptr) in B.required.items():
            if r in A.required:
                continue
            fails.append(self._fail("required", f"property {r!r} is required by the {{B}} schema and optional in the {{A}} schema", A, B, None, (node, ptr), hint,
                                    item=r, must=lambda w, r=r: isinstance(w, dict) and r not in w))
        a_min = max(A.min_props[0] if A.min_props else 0, len(A.required))
        if B.min_props and a_min < B.min_props[0]:
            fails.append(self._fail("minProperties", f"minProperties {a_min} in the {{A}} schema, {B.min_props[0]} in the {{B}} schema", A, B,
                                    A.min_props[1:] if A.min_props else None, B.min_props[1:], hint))
        if B.max_props and (not A.max_props or A.max_props[0] > B.max_props[0]):
            fails.append(self._fail("maxProperties", f"maxProperties {A.max_props[0] if A.max_props else 'unbounded'} in the {{A}} schema, {B.max_props[0]} in the {{B}} schema", A, B,
                                    A.max_props[1:] if A.max_props else None, B.max_props[1:], hint))
        names = sorted({n for c in A.obj + B.obj for n in c.props})
        for name in names:
            fails.extend(self._member(A, B, name))
        fails.extend(self._undeclared(A, B, set(names)))
        for pn in B.prop_names:
            if any(self.equal(pn, an) for an in A.prop_names):
                continue
            fails.extend(self._prop_names(A, B, pn))
        return fails

    def _undeclared(self, A: Canon, B: Canon, declared: set[str]) -> list[Fail]:
        """Member names no ``properties`` of either side declares, as a partition: a name falls in
        the cell of the set S of ``patternProperties`` regexes it matches (both sides' regexes),
        and within one cell every name gets the same subschemas on each side (the S entries, or
        ``additionalProperties`` where a clause has none of them; JSON Schema 2020-12 10.3.2).
        Cells are languages (:mod:`.strings`): an empty cell needs nothing, a non-empty one is
        compared once, with its least name for the witness. Without a language for some regex,
        cells are enumerated blindly and a failing cell with no sampled name is undecided."""
        if not any(cl.add is not None or cl.pats for cl in B.obj):
            return []  # the B side puts nothing on undeclared members
        pats = sorted({p for cl in A.obj + B.obj for p in cl.pats})
        cells = self._cells(A, pats, declared)
        if cells is None:
            owner = next(cl.owner for cl in A.obj + B.obj if cl.pats)
            why = (f"{len(pats)} patternProperties regexes: their combinations are not enumerated")
            return [Fail("undecided", why, _loc(A), (owner, join(owner.ptr, "patternProperties")), undecided=why)]
        fails: list[Fail] = []
        for cell, name in cells:
            an, bn = _cell_nodes(A, cell), _cell_nodes(B, cell)
            if not bn or (len(an) == len(bn) and all(self.equal(x, y) for x, y in zip(an, bn, strict=True))):
                continue
            ac = self.canon.nodes(*an)
            if ac.false or not self.check(ac, self.canon.nodes(*bn)):
                continue
            if name is None:
                name = self._cell_name(A, cell, pats, declared)
            if name is not None:
                lost = sorted(p for p in cell if any(p in cl.pats for cl in A.obj)
                              and not any(p in cl.pats for cl in B.obj))
                for f in self._member(A, B, name, undeclared=True):
                    fails.append(replace(f, item=lost[0]) if len(lost) == 1 and f.item is NO_ITEM else f)
                continue
            owner = next((n for n in bn if n.syn is None), None)
            why = ("no member name was found matching exactly the patternProperties regexes "
                   f"{sorted(cell)} (of {pats}) and no declared name; such names may not exist")
            fails.append(Fail("undecided", why, _loc(A), (owner, owner.ptr) if owner else _loc(B), undecided=why))
        return fails

    def _cells(self, A: Canon, pats: list[str], declared: set[str]) -> list[tuple[frozenset, str | None]] | None:
        """``[(cell, least name or None)]``: the non-empty cells of the partition by ``pats``
        (with their least member name), found by splitting languages regex by regex and
        pruning empty intersections; every one of the ``2**n`` cells with ``None`` names when a
        regex has no language here (``None`` beyond :data:`MAX_CELL_PATTERNS` regexes then)."""
        try:
            langs = [Lang.pattern(p) for p in pats]
            names = Lang.any()
            for n in sorted(declared):
                names = names - Lang.literal(n)
            if A.prop_names:
                names = names & self.strings.over(self.canon.nodes(*A.prop_names))[0]
            out: list[tuple[frozenset, str | None]] = []
            stack = [(0, frozenset(), names)]
            while stack:
                i, cell, lang = stack.pop()
                if lang.is_empty():
                    continue
                if i == len(pats):
                    out.append((cell, lang.example()))
                    if len(out) > 2 ** MAX_CELL_PATTERNS:
                        return None
                    continue
                stack.append((i + 1, cell, lang - langs[i]))
                stack.append((i + 1, cell | {pats[i]}, lang & langs[i]))
            return out
        except Unsupported:
            if len(pats) > MAX_CELL_PATTERNS:
                return None
            return [(frozenset(p for k, p in enumerate(pats) if bits >> k & 1), None) for bits in range(2 ** len(pats))]

    def _cell_name(self, A: Canon, cell: frozenset, pats: list[str], declared: set[str]) -> str | None:
        """A member name that matches exactly the regexes of ``cell`` among ``pats`` and is not
        ``declared``, preferring one that ``A``'s ``propertyNames`` accept; ``None`` if none is
        found among the sampled candidates."""
        cands: list[str] = [FRESH, "x", "a", "", "A", "0", "_", "-", " ", "\n"]
        for p in sorted(cell):
            samples = list(self.sampler.regex_samples(p))
            for q in pats:
                if q not in cell:
                    samples += self.sampler.regex_samples(p, reject=q)
            # a sample may be a declared name: its neighbours match an anchored regex as well
            cands += [t for x in samples for t in (x, x + "_", x + "x", "x" + x, x + "0")]
        fallback = None
        for name in dict.fromkeys(cands):
            if name in declared or not all(_search(p, name) is (p in cell) for p in pats):
                continue
            if all(self.sampler.node_valid(n, name) for n in A.prop_names):
                return name
            fallback = fallback if fallback is not None else name
        return fallback

    def _member(self, A: Canon, B: Canon, name: str, undeclared: bool = False) -> list[Fail]:
        bn = prop_nodes(B, name)
        if not bn:
            return []
        an = prop_nodes(A, name)
        if len(an) == len(bn) == 1 and self.equal(an[0], bn[0]):
            return []  # the same subschema on both sides: nothing to compare (no canon built)
        ac = self.canon.nodes(*an)
        if ac.false:
            return []
        bc = self.canon.nodes(*bn)
        sub = self.check(ac, bc)
        if not sub:
            return []
        declared_a = A.declared(name)
        if bc.false:
            code = "prop-forbidden-declared" if declared_a else "prop-forbidden-additional"
            what = (f"property {name!r} is accepted by the {{A}} schema and forbidden by the {{B}} schema" if declared_a else
                    "undeclared properties are accepted by the {A} schema and forbidden by the {B} schema" + f" (e.g. {name!r})")
        elif not declared_a and not undeclared and all(self.canon.side(n).value(n) in (True, {}) for n in an):
            code, what = "prop-typed", (f"property {name!r} is declared with a schema in the {{B}} schema, on an object "
                                        "whose {A} schema accepts any value for it")
        else:
            return [self._wrap(f, A, B, name, "prop") for f in sub]
        undecided = [f for f in sub if f.undecided]
        if undecided:
            return [self._wrap(f, A, B, name, "prop") for f in undecided]
        loc_b = (bn[0], bn[0].ptr) if bn[0].syn is None else _loc(B)
        inner = Fail(code, what, (an[0], an[0].ptr) if an and an[0].syn is None else _loc(A), loc_b, (),
                     [w for f in sub for w in self.verified_witnesses(f, ac, bc)][:4])
        return [self._wrap(inner, A, B, name, "prop")]

    def _wrap(self, f: Fail, A: Canon, B: Canon, key: Any, how: str) -> Fail:
        g = Fail(f.code, f.message, f.a, f.b, (key,) + f.path, [], f.undecided, item=f.item)
        if not f.undecided:
            g.via = (f, A, B, key, how)
        return g

    def verified_witnesses(self, f: Fail, A: Canon, B: Canon) -> list[Any]:
        """:meth:`witnesses` of ``f`` (fast, then careful) that are valid under ``A`` and invalid
        under ``B`` (real validator)."""
        for careful in (False, True):
            ok = [w for w in self.witnesses(f, careful) if self.sampler.valid(A, w) and not self.sampler.valid(B, w)]
            if ok or f.via is None:
                return ok
        return []

    def witnesses(self, f: Fail, careful: bool = False, limit: int = 2) -> list[Any]:
        """Witness candidates for ``f`` at its own level: its local witnesses, or those of the
        failure it wraps embedded one level up per step of its instance path (only that path is
        built, however large the schema). ``careful=False`` embeds each into the first candidate
        container without validating (one validation of the result, by the caller, is enough
        when it holds); ``careful=True`` validates at every level and tries more containers
        (quadratic in the path length: the fallback)."""
        chain: list[Fail] = []
        g = f
        while g.via is not None and careful not in g.cache:
            chain.append(g)
            g = g.via[0]
        ws = g.cache[careful] if g.via is not None else g.witness
        for h in reversed(chain):
            _, A, B, key, how = h.via
            out: list[Any] = []
            for w in ws:
                for cand in (self._objects_with(A, key, w) if how == "prop" else self._arrays_with(A, key, w)):
                    if not careful or (self.sampler.valid(A, cand) and not self.sampler.valid(B, cand)):
                        out.append(cand)
                        break
                if len(out) >= limit:
                    break
            h.cache[careful] = out
            ws = out
        return ws

    def _objects_with(self, A: Canon, name: str, w: Any):
        base = {}
        for r in sorted(A.required):
            if r == name:
                continue
            x = self.sampler.one(self.canon.nodes(*prop_nodes(A, r)))
            if not self.sampler.found(x):
                return
            base[r] = x
        yield {**base, name: w}
        for cand in self.sampler.candidates(A, 0, {"type": "object"}):
            if isinstance(cand, dict):
                yield {**cand, name: w}

    def _arrays_with(self, A: Canon, i: int, w: Any):
        lo = A.min_items[0] if A.min_items else 0
        fill = [self.sampler.one(self.sampler.item_canon(A, k)) for k in range(max(i, lo))]
        if not all(self.sampler.found(x) for x in fill):
            return
        arr = fill[:i] + [w] + fill[i + 1:]
        yield arr
        yield fill[:i] + [w]
        others = self.sampler.many(self.sampler.item_canon(A, 0), limit=4)
        for o in others:
            yield [o] * i + [w] + [o] * max(0, lo - i - 1)

    def _prop_names(self, A: Canon, B: Canon, pn: Node) -> list[Fail]:
        closed = any(cl.add is not None and self.canon.nodes(cl.add).false and not cl.pats for cl in A.obj)
        if closed:
            names = sorted({n for cl in A.obj for n in cl.props})
            bad = [n for n in names if not self.canon.nodes(*prop_nodes(A, n)).false
                   and not self.sampler.node_valid(pn, n)]
            if not bad:
                return []
        elif A.prop_names and not self.check(self.canon.nodes(*A.prop_names), self.canon.nodes(pn)):
            return []
        strings = []
        for an in A.prop_names:
            strings += self.sampler.many(self.canon.nodes(an), limit=10)
        strings += ["x", "a b", "", "A", "0", FRESH]
        objs = []
        for s in strings:
            if isinstance(s, str) and not self.sampler.node_valid(pn, s):
                for cand in self._objects_with(A, s, self.sampler.one(self.canon.nodes(*prop_nodes(A, s)))):
                    objs.append(cand)
                    break
        f = Fail("propertyNames", "propertyNames of the {B} schema rejects member names the {A} schema accepts", _loc(A), (pn, pn.ptr))
        f.witness = [o for o in objs if self.sampler.valid(A, o) and not self.sampler.valid(B, o)][:2]
        return [f]


def _cell_nodes(c: Canon, cell: frozenset) -> list[Node]:
    """Subschemas applying to an undeclared member name that matches exactly the regexes in
    ``cell``: per object clause, its ``patternProperties`` entries in ``cell``, else its
    ``additionalProperties``."""
    out: list[Node] = []
    for cl in c.obj:
        hit = [node for p, node in cl.pats.items() if p in cell]
        out.extend(hit)
        if not hit and cl.add is not None:
            out.append(cl.add)
    return out


def _search(pattern: str, s: str) -> bool:
    """Whether ``s`` contains a match of ``pattern`` (Python ``re``; a regex it cannot read
    matches nothing)."""
    try:
        return re.search(pattern, s) is not None
    except re.error:
        return False


def _string_message(kw, A: Canon) -> str:
    if kw.code == "minLength":
        return f"minLength {A.min_len[0] if A.min_len else 0} in the {{A}} schema, {kw.text} in the {{B}} schema"
    if kw.code == "maxLength":
        return f"maxLength {A.max_len[0] if A.max_len else 'unbounded'} in the {{A}} schema, {kw.text} in the {{B}} schema"
    if kw.code == "format":
        return f"format {kw.text!r} (asserted) of the {{B}} schema rejects strings the {{A}} schema accepts"
    if kw.code == "not":
        return f"a 'not' of pattern {kw.text!r} in the {{B}} schema rejects strings the {{A}} schema accepts"
    return f"pattern {kw.text!r} of the {{B}} schema rejects strings the {{A}} schema accepts"


def _merged(per_branch: list[list[Any]], limit: int = 16) -> list[Any]:
    """Objects combining one witness of each branch (members merged, objects recursively): a
    document may break every branch of an ``anyOf`` only through different members."""
    combos: list[Any] = [{}]
    for ws in per_branch:
        objs = [w for w in ws if isinstance(w, dict)]
        if not objs:
            return []
        combos = [m for c in combos for w in objs if (m := _merge_objects(c, w)) is not None][:limit]
    return combos


def _merge_objects(a: dict, b: dict) -> dict | None:
    out = dict(a)
    for k, v in b.items():
        if k not in out or out[k] == v:
            out[k] = v
        elif isinstance(out[k], dict) and isinstance(v, dict):
            m = _merge_objects(out[k], v)
            if m is None:
                return None
            out[k] = m
        else:
            return None
    return out


def _short(v: Any, limit: int = 80) -> str:
    """``repr`` of a value for a one-line message, cut at ``limit`` characters."""
    r = repr(v)
    return r if len(r) <= limit else r[:limit - 3] + "..."


def _implies(kind_a: str, kind_b: str) -> bool:
    """Whether a group of kind ``kind_a`` implies one of kind ``kind_b`` over the same branches."""
    return kind_a == kind_b or kind_b == "anyOf"


def _forget_since(memo: dict, mark: int) -> None:
    """Drop the entries inserted into ``memo`` after its first ``mark`` ones (dicts keep
    insertion order)."""
    if len(memo) > mark:
        for k in list(memo)[mark:]:
            del memo[k]


def _where(loc: tuple[Node, str] | None) -> tuple | None:
    if loc is None:
        return None
    node, ptr = loc
    return (node.side, node.file, node.syn, ptr)


def _loc(c: Canon) -> tuple[Node, str] | None:
    for n in c.positives:
        if n.syn is None:
            return (n, n.ptr)
    return None


def _int_lo(b) -> Fraction:
    v = b.value
    if b.excl:
        return Fraction(v.numerator // v.denominator + 1)
    return Fraction(-((-v.numerator) // v.denominator))


def _int_hi(b) -> Fraction:
    v = b.value
    fl = Fraction(v.numerator // v.denominator)
    if b.excl and fl == v:
        return fl - 1
    return fl


def _covers_lo(a, b, ints: bool) -> bool:
    """Whether old lower bound ``a`` (None = unbounded) is at least new bound ``b``."""
    if a is None:
        return False
    if ints:
        return _int_lo(a) >= _int_lo(b)
    return a.value > b.value or (a.value == b.value and (a.excl or not b.excl))


def _covers_hi(a, b, ints: bool) -> bool:
    if a is None:
        return False
    if ints:
        return _int_hi(a) <= _int_hi(b)
    return a.value < b.value or (a.value == b.value and (a.excl or not b.excl))


def _emit(f: Fraction) -> Any:
    return int(f) if f.denominator == 1 else float(f)


def _show(b) -> str:
    return f"{'>' if b.excl else ''}{_emit(b.value)}" if b else "none"


__all__ = ["Checker", "Fail", "Budget", "is_json_type", "re"]
