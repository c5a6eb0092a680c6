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

import math
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

from ..findings import NO_ITEM
from ..jsonnum import enum_index
from .arrays import ArrayRules
from .canon import ANNOTATIONS, Canon, Canonizer, alike, json_equal, spellings, spellings_sampled
from .combinators import CombinatorRules, implies
from .disjoint import DisjointRules
from .fail import Budget, Fail, located, probing, short
from .groupindex import GroupIndex
from .local_witness import WitnessRules
from .nodes import Node
from .objects import ObjectRules
from .proof import Derivations, Step
from .proof import where as proof_where
from .sample import Sampler, prop_nodes
from .scalars import ScalarRules
from .strings import StringLangs
from .untouched import differing, reach

SCHEMA_KW = frozenset({"additionalProperties", "not", "if", "then", "else", "contains",
                       "propertyNames", "unevaluatedProperties", "unevaluatedItems",
                       "additionalItems", "items"})

MAP_KW = frozenset({"properties", "patternProperties", "dependentSchemas"})

LIST_KW = frozenset({"allOf", "anyOf", "oneOf", "prefixItems"})

SET_KW = frozenset({"enum", "required", "type"})

_NONE = object()  # no value found (null is one)
_UNSET = object()  # not computed yet


class Checker(CombinatorRules, DisjointRules, ScalarRules, ArrayRules, ObjectRules, WitnessRules):
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
        self.draft04 = any(4 in side.dialects.values() for side in getattr(canon, "sides", {}).values())
        """Whether a file of either side is draft-04, where ``1`` and ``1.0`` are one ``enum``
        value and two documents (:meth:`spellings`)."""
        self.max_cases = max_cases
        self.cases = 0
        self.strings = sampler.strings if sampler is not None else StringLangs(canon.side, format_assertion)
        self.memo: dict[tuple, list[Fail]] = {}
        """Results by pair of canon keys, and by ``("content", content keys)``
        (:meth:`Canonizer.content_key`): a result serves every pair written the same way
        (:meth:`_from_twin`). Both keys of a check keeping ``A``'s disjunctions whole end in
        ``"whole"``: its failures only say "not proved this way", never the pair's result."""
        self.twin_of: dict[tuple, tuple] = {}
        """Content key of a compared pair -> ``(its pair of canon keys, A's root, B's root)``
        (:func:`_root`): where its derivation is recorded, and the nodes its failures' locations
        are relative to."""
        self.active: set[tuple] = set()
        self.assumed: set[tuple] = set()
        self.eq_memo: dict[tuple[Node, Node], bool] = {}
        self.eq_active: set[tuple[Node, Node]] = set()
        self.eq_assumed: set[tuple[Node, Node]] = set()
        self.disj_memo: dict[tuple, bool] = {}
        self.group_index: dict[tuple, GroupIndex] = {}
        """Branch index of each group met (:meth:`~.combinators.CombinatorRules._group_index`)."""
        self.shapes: dict[Node, Hashable | None] = {}
        """:func:`~.groupindex.shape` of each node met (:meth:`~.combinators.CombinatorRules._shape`)."""
        self._alike: bool | None = None
        self._edit_reach: Any = _UNSET
        """:meth:`_reached_by_edits`, computed on first use."""
        self._edit_files: set[str] = set()
        self._disj_conditional = False
        self._in_negation = False
        self.coinduction_log: list[tuple] = []
        """Every pair assumed co-inductively, in order (a result proved meanwhile rests on those
        still being compared)."""
        self.proofs = Derivations()
        self._stack: list[tuple] = []
        self._own_not = False
        self._descents = 0
        """Object members, array items and property names descended into on the way here
        (:meth:`below`): the instance has become that many levels smaller."""
        self._entered: dict[tuple, int] = {}
        """Each pair being compared -> :attr:`_descents` when it was entered."""
        self._sealed: dict[tuple, float] = {}
        """Pairs whose co-inductive assumption may not be used here -> the :attr:`_descents` up to
        which it stays unusable (:meth:`sealed`; :meth:`_inside_own_not`,
        :meth:`~.disjoint.DisjointRules._inside_negation`)."""
        self._seal_hit = False
        self._deciding = False
        """Inside :meth:`deciding`: only whether a check fails is asked, not all its failures."""

    # ------------------------------------------------------------------ structural equality

    def spellings(self, x: Any) -> tuple[Any, ...]:
        """The documents ``enum`` value ``x`` stands for (:func:`~.canon.spellings`) when a
        draft-04 file takes part, where they can differ in validity; otherwise ``x`` and, for an
        integral number, its other spelling (cheap: the same validity in later dialects)."""
        return spellings(x) if self.draft04 or not isinstance(x, (dict, list)) else (x,)

    def equal(self, a: Node, b: Node) -> bool:
        """Whether two nodes are the same schema (``$ref`` followed, annotations ignored)."""
        key = (a, b)
        hit = self.eq_memo.get(key)
        if hit is not None:
            return hit
        if a.ptr == b.ptr and a.file == b.file and a.syn is None and b.syn is None and a.side != b.side \
                and (self._sets_alike() or self._untouched(a)):
            return True  # the same place of two sets written alike (annotations aside), or one no edit reaches
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

    def _sets_alike(self) -> bool:
        """Whether the two sides' sets hold the same files (names, URIs) written alike
        (:func:`.canon.alike`: only pure annotations differ), computed once: then a pointer
        means the same schema on both sides (every ``$ref`` resolves to the same pointer)."""
        if self._alike is None:
            sides = self.canon.sides
            if "old" not in sides or "new" not in sides:
                self._alike = False
                return False
            (so, do), (sn, dn) = ((sides[n].set, sides[n].dialects) for n in ("old", "new"))
            self._alike = so.files.keys() == sn.files.keys() and all(
                so.files[n].uri == sn.files[n].uri and do.get(n) == dn.get(n)
                and alike(so.files[n].schema, sn.files[n].schema) for n in so.files)
        return self._alike

    def _untouched(self, node: Node) -> bool:
        """Whether ``node``'s place (a place written in a file, the same on both sides) is reached
        by no edit between the two sets (:mod:`.untouched`): the two sets hold the same files
        (names, URIs, dialects) and no dynamic reference, and validation at that place applies
        only what both write alike, every ``$ref`` followed. Then its two subschemas are the
        same schema: the answer :meth:`_eq` would walk them for."""
        if self._edit_reach is _UNSET:
            self._edit_reach = self._reached_by_edits()
        return self._edit_reach is not None and node.file in self._edit_files \
            and (node.file, node.ptr) not in self._edit_reach

    def _reached_by_edits(self) -> set[tuple[str, str]] | None:
        """:func:`.untouched.reach` of the places where the two sets' files differ
        (:func:`.untouched.differing`) and of each ``$ref`` holder whose reference resolves to
        another place on each side, through both sides' references; ``None`` when the sets hold
        other files, URIs or dialects, or a side has a dynamic reference or anchor."""
        sides = getattr(self.canon, "sides", {})
        if "old" not in sides or "new" not in sides:
            return None
        so, sn = sides["old"], sides["new"]
        fo, fn = so.set.files, sn.set.files
        if fo.keys() != fn.keys() or any(fo[n].uri != fn[n].uri or so.dialects.get(n) != sn.dialects.get(n)
                                         for n in fo):
            return None
        ho, hn = so.ref_holders(), sn.ref_holders()
        if ho is None or hn is None:
            return None
        by_target = {k: [*ho[0].get(k, ()), *hn[0].get(k, ())] for k in ho[0].keys() | hn[0].keys()}
        seeds = [(n, p) for n in fo for p in differing(fo[n].schema, fn[n].schema)]
        # a $ref written alike may resolve elsewhere (an $id or $anchor edited elsewhere): its
        # holder is an edit of its own
        to_o, to_n = ({h: t for t, hs in side[0].items() for h in hs} for side in (ho, hn))
        seeds += [h for h in to_o.keys() | to_n.keys() if to_o.get(h) != to_n.get(h)]
        self._edit_files = set(fo)
        return reach(seeds + ho[1] + hn[1], by_target)

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

    def check(self, A: Canon, B: Canon, split: bool = True) -> list[Fail]:
        """Reasons why ``A ⊆ B`` fails (``[]`` when it holds); see the module docstring.

        ``split=False``: ``A``'s own disjunctions are kept whole, never split (a pass is still a
        proof, ``A`` without them accepts more; a failure only says "not proved this way").
        For a caller whose own caller splits ``A`` anyway when it fails, such as a ``B`` group's
        branches tried one by one against an ``A`` that has groups of its own
        (:meth:`~.combinators.CombinatorRules._group`): each branch would otherwise split ``A``
        again, n branches by n cases."""
        key = (A.key, B.key) if split else (A.key, B.key, "whole")
        parent = self._stack[-1] if self._stack else None
        hit = self.memo.get(key)
        if hit is None and self._deciding:
            hit = self.memo.get((*key, "decided"))
        if hit is not None:
            if not hit and parent is not None:
                self.proofs.children[parent].append(key)
            return hit
        if key in self.active:  # co-inductive assumption: a pair under comparison holds
            if self._descents <= self._sealed.get(key, -1):  # ... but not in a proof it encloses
                self._seal_hit = True  # unless guarded: :meth:`sealed`
                why = ("a pair under comparison met again, no member or item below, inside a proof "
                       "that would rest on it")
                return [Fail("undecided", why, located(A), located(B), undecided=why)]
            self.assumed.add(key)
            self.coinduction_log.append(key)
            if parent is not None:
                self.proofs.children[parent].append(("coinduction", key))
            return []
        twin = ("content", self.canon.content_key(A), self.canon.content_key(B), *key[2:])
        known = self.memo.get(twin)
        if known is not None:  # a pair written the same way elsewhere was compared
            moved = self._from_twin(known, self.twin_of[twin], A, B)
            if moved is not None:
                self.cases += 1  # a reused result counts as a case: a search's budget still binds
                if self.cases > self.max_cases:
                    raise Budget()
                self.memo[key] = moved
                if not moved:
                    self.proofs.begin(key)
                    self.proofs.steps[key].append(Step("same-as-proved", "written like a pair proved elsewhere",
                                                       proof_where(self.source(located(A))),
                                                       proof_where(self.source(located(B)))))
                    self.proofs.children[key].append(self.twin_of[twin][0])
                    if parent is not None:
                        self.proofs.children[parent].append(key)
                return moved
        self.active.add(key)
        self._entered[key] = self._descents
        mark = len(self.memo)
        out = None
        self._stack.append(key)
        self.proofs.begin(key)
        try:
            out = self._check(A, B, split)
        finally:
            self._stack.pop()
            self.active.discard(key)
            del self._entered[key]
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
                    seen[k].absorb(f)
            else:
                seen[k] = f
        out = list(seen.values())
        if out and self._deciding:  # some of the failures only: never the pair's result
            self.memo[(*key, "decided")] = out
            return out
        self.memo[key] = out
        self.memo[twin] = out
        self.twin_of[twin] = (key, _root(A, self.canon.origin), _root(B, self.canon.origin))
        if not out and parent is not None:
            self.proofs.children[parent].append(key)
        return out

    @contextmanager
    def deciding(self) -> Iterator[None]:
        """Within: a check only has to tell whether ``A ⊆ B`` fails. A failing check stops at its
        first failing obligation (:meth:`enough`) and its failures, some of them only, are kept
        apart from the full results (under the pair's key with ``"decided"`` appended, read only
        within), never as a content twin; a proof is complete as ever and memoised as any. For a
        caller that only reads whether the result is empty: a proved pair is proved either way,
        and a failure's witness found either way means the pair fails either way."""
        before, self._deciding = self._deciding, True
        try:
            yield
        finally:
            self._deciding = before

    def enough(self, fails: list[Fail]) -> bool:
        """Whether the failures found so far settle the check (:meth:`deciding`: any will do)."""
        return self._deciding and bool(fails)

    def _from_twin(self, out: list[Fail], origin: tuple, A: Canon, B: Canon) -> list[Fail] | None:
        """The result ``out`` of a pair written like ``A ⊆ B`` (the same content key), as the
        result of ``A ⊆ B``: a proof as it is; failures with their schema locations moved from
        the twin's subschemas to ``A``'s and ``B``'s (the same keywords below them, so the same
        reasons and witnesses), which needs each side to be one subschema written in a file or
        none (:func:`_root`), on two sides; ``None`` when it is not (compare the pair itself)."""
        if not out:
            return out
        _, ta, tb = origin
        ra, rb = _root(A, self.canon.origin), _root(B, self.canon.origin)
        if False in (ta, tb, ra, rb) or (ra is not None and rb is not None and ra.side == rb.side):
            return None
        moves = [(t, r) for t, r in ((ta, ra), (tb, rb)) if r is not None]

        def moved(loc: tuple[Node, str] | None) -> tuple[Node, str] | None:
            if loc is None or loc[0].syn is not None:
                return loc
            node, ptr = loc
            for old, new in moves:
                if node.side == old.side and node.file == old.file and _below(node.ptr, old.ptr):
                    node = Node(node.side, new.file, new.ptr + node.ptr[len(old.ptr):])
                    if _below(ptr, old.ptr):
                        ptr = new.ptr + ptr[len(old.ptr):]
                    return (node, ptr)
            return loc

        return [replace(f, a=moved(f.a), b=moved(f.b), cache=None) for f in out]

    def prove(self, rule: str, detail: str, a: tuple | None = None, b: tuple | None = None) -> None:
        """Record that ``rule`` (:data:`.proof.RULES`) discharged an obligation of the pair
        being compared (``a``/``b``: its locations on each side)."""
        if self._stack:
            self.proofs.steps[self._stack[-1]].append(Step(rule, detail, proof_where(self.source(a)),
                                                           proof_where(self.source(b))))

    def source(self, loc: tuple | None) -> tuple | None:
        """``loc``, or for a node derived from a ``not`` (not-elimination) the ``not`` itself."""
        if loc is not None and loc[0].syn is not None:
            return self.canon.origin.get(loc[0], loc)
        return loc

    def derivation(self, A: Canon, B: Canon) -> list[tuple[int, Step]]:
        """The derivation of a proved ``A ⊆ B`` (:meth:`.proof.Derivations.tree`)."""
        return self.proofs.tree((A.key, B.key))

    def _fail(self, code: str, msg: str, A: Canon, B: Canon, a: tuple | None, b: tuple | None,
              hint: dict | None = None, path: tuple = (), item: Any = NO_ITEM,
              must: Callable[[Any], bool] | None = None) -> Fail:
        f = Fail(code, msg, a or located(A), b or located(B), path, item=item)
        f.defer(lambda: self.local_witnesses(A, B, hint, must=must))
        return f

    def _check(self, A: Canon, B: Canon, split: bool = True) -> list[Fail]:
        if A.false or self._empty(A):
            self.prove("old-accepts-nothing", "no document satisfies the old side here", located(A), located(B))
            return []
        if B.parts and self.same(A, B):
            self.prove("same-subschema", "the same subschema", located(A), located(B))
            return []
        if not B.parts:
            self.prove("new-accepts-anything", "no constraint on the new side", located(A), None)
            return []
        self.cases += 1
        if self.cases > self.max_cases:
            raise Budget()
        fails: list[Fail] = []
        for node, ptr, why in B.undecided:
            fails.append(Fail("undecided", why, located(A), (node, ptr), undecided=why))
        for node, ptr, why in A.undecided:
            fails.append(Fail("undecided", why, (node, ptr), located(B), undecided=why))
        if fails:
            return fails
        if B.false:
            if not self._inhabited(A):
                self.prove("old-accepts-nothing", "no array fits the old side's bounds", located(A), located(B))
                return []
            return [self._fail("false", "the {B} schema accepts nothing here", A, B, None, None)]
        # Lazy case split: first compare with A's disjunctions kept whole (A without them accepts
        # more, so a pass is a proof). Only failures no verified witness backs are worth a split;
        # A's groups and conditionals that B repeats are cancelled (A implies them) and split last.
        group, cond, fresh = self._split_point(A, B)
        # a B group that no branch covers, with A's fresh group whole, makes A split below
        # whatever its failures are: its branches are then only asked whether they fail
        flat = self._flat(A, B, decide_whole=split and fresh and group is not None)
        if not flat and (A.groups or A.conds):
            self.prove("case-split", "not needed: proved with the old side's disjunctions whole",
                       located(A), located(B))
        if not flat or (group is None and cond is None) or not split:
            return flat  # proved, nothing left to split, or not to be split here
        # every failure is real: no split (a B group failing against a group of A that B does not
        # repeat is split all the same: each dropped branch is its own finding). The witnesses
        # asked for here come from a short search: a miss costs a split, and a failure the split
        # removes never pays for a full, fruitless search.
        if not (fresh and group is not None and any(f.code in ("anyOf", "oneOf") for f in flat)):
            with probing():
                if all(self._witnessed(f, A, B) for f in flat):
                    return flat
        if group is not None:
            self.prove("case-split", f"{group.kind} at {group.owner.ptr or '/'}: {len(group.branches)} cases",
                       (group.owner, group.owner.ptr), located(B))
            side = self.canon.side(group.owner)
            for br in group.branches:
                sub = self.canon.of(A.parts | self._branch_case(group, br), A.done | {group.marker})
                if self.enough(fails):
                    break
                for f in self.check(sub, B):
                    if f.code in ("anyOf", "oneOf") and f.item is NO_ITEM and not f.path:
                        # the A branch no B branch covers: the item, and where A has it (not the
                        # group's owner: the whole schema, line 1, for a root oneOf)
                        f = replace(f, item=side.value(br), a=(br, br.ptr))
                    fails.append(f)
            return fails
        if cond is not None:
            self.prove("case-split", f"{cond.origin} at {cond.ptr}: condition holds / fails",
                       (cond.owner, cond.ptr), located(B))
            done = A.done | {cond.marker}
            case1 = {(False, cond.if_)} | ({(False, cond.then)} if cond.then else set())
            case2 = {(True, cond.if_)} | ({(False, cond.else_)} if cond.else_ else set())
            for case in (case1, case2):
                if self.enough(fails):
                    break
                fails.extend(self.check(self.canon.of(A.parts | case, done), B))
            return fails
        return flat

    def _branch_case(self, group: Any, br: Node) -> frozenset:
        """The parts one case of a split ``group`` adds: its branch ``br``, and for a ``oneOf``
        the other branches negated (exactly one branch passes, JSON Schema 2020-12 section
        10.2.1.3), so the case is exact rather than the ``anyOf`` over-approximation. A branch
        provably disjoint from ``br`` is left out: ``br`` implies its negation, so the case is
        the same set of documents, and a ``oneOf`` of n tagged objects (each branch's ``kind``
        a constant of its own) splits into n cases of one branch each instead of cases carrying
        n - 1 negations, each an ``anyOf`` of its atoms (3^n sub-cases)."""
        if group.kind != "oneOf":
            return frozenset({(False, br)})
        mine = self.canon.nodes(br)
        canons = [self.canon.nodes(b) for b in group.branches]
        index = self._group_index(group, canons)
        others = self._may_overlap(mine, index)
        return frozenset({(False, br)} | {(True, group.branches[k]) for k in others
                                          if group.branches[k] != br and not self.disjoint(mine, canons[k])})

    def _flat(self, A: Canon, B: Canon, decide_whole: bool = False) -> list[Fail]:
        """``A ⊆ B`` compared without splitting ``A``'s disjunctions (they only narrow ``A``);
        ``decide_whole``: see :meth:`~.combinators.CombinatorRules._combinators`."""
        fails = self._combinators(A, B, decide_whole)
        return fails if self.enough(fails) else [*fails, *self._types(A, B)]

    def _witnessed(self, f: Fail, A: Canon, B: Canon) -> bool:
        """Whether failure ``f`` of ``A ⊆ B`` has a witness the real validators confirm."""
        return f.undecided is None and bool(self.verified_witnesses(f, A, B))

    def _split_point(self, A: Canon, B: Canon) -> tuple[Any, Any, bool]:
        """``(group, None, fresh)`` or ``(None, conditional, fresh)``: the disjunction of ``A`` to
        split next, those ``B`` does not repeat first (``fresh``); ``(None, None, False)`` when
        nothing is left to split."""
        fresh = [g for g in A.groups if not any(implies(g.kind, h.kind) and self._same_branches(g.branches, h.branches)
                                                for h in B.groups)]
        if A.groups:
            return (fresh or A.groups)[0], None, bool(fresh)
        if A.conds:
            fresh_c = [c for c in A.conds if not any(self._same_cond(c, d) for d in B.conds)]
            return None, (fresh_c or A.conds)[0], bool(fresh_c)
        return None, None, False

    def _empty(self, A: Canon, seen: frozenset = frozenset()) -> bool:
        """Whether ``A`` provably accepts nothing: a part both asserted and negated, a ``not`` of
        one of its own subschemas, or only objects allowed and a required member whose schemas
        accept nothing (members followed down, each canon once)."""
        pos = {n for neg, n in A.parts if not neg}
        if any(neg and n in pos for neg, n in A.parts):
            return True
        if any(self.equal(t, p) for t, _ in A.nots for p in A.positives):
            return True
        if A.nots and self._inside_own_not(A):
            return True
        return A.types is not None and A.types <= {"object"} and self._no_objects(A, seen | {A.key})

    def below(self, A: Canon, B: Canon) -> list[Fail]:
        """:meth:`check` of ``A ⊆ B`` one level down the instance: the value of an object member,
        an array item or a property name, each smaller than the instance it is part of. A
        co-inductive cycle through such a step is guarded (the assumption it meets is about
        smaller instances only, so the proof is an induction on the instance's size)."""
        self._descents += 1
        try:
            return self.check(A, B)
        finally:
            self._descents -= 1

    @contextmanager
    def sealed(self, limits: dict[tuple, float]) -> Iterator[None]:
        """Within: a pair of ``limits`` met again while being compared is undecided instead of
        assumed, unless more than ``limits[pair]`` members or items were descended into on the way
        (:meth:`below`). On exit the enclosing seals come back, and when a sealed pair was met,
        what was memoised meanwhile is forgotten (it may rest on that undecided answer) and the
        enclosing seal learns it too (:attr:`_seal_hit`)."""
        outer, outer_hit = self._sealed, self._seal_hit
        self._sealed = {**outer, **{k: max(v, outer.get(k, -1)) for k, v in limits.items()}}
        self._seal_hit = False
        mark = len(self.memo)
        try:
            yield
        finally:
            if self._seal_hit:
                _forget_since(self.memo, mark)
            self._sealed, self._seal_hit = outer, outer_hit or self._seal_hit

    def _inside_own_not(self, A: Canon) -> bool:
        """Whether ``A`` (its ``not`` parts aside) is included in the schema one of its ``not``
        keywords negates, so nothing satisfies both: a proof by :meth:`check` run without this
        rule (no emptiness argued from itself) and never on a pair already being compared (no
        co-inductive assumption stands in for the proof)."""
        if self._own_not:
            return False
        # Pairs being compared outside stay unproved in here: an emptiness that rested on one of
        # them would be the very inclusion it is used to prove, assumed without descending into
        # any member or item (an unguarded cycle; property test: old ``not oneOf [tuple, string,
        # number]`` -> new ``not boolean`` was proved while ``true`` is lost). What was memoised
        # while such a pair was met is forgotten.
        self._own_not = True
        try:
            with self.sealed(dict.fromkeys(self.active, math.inf)):
                for t, _ in A.nots:
                    T = self.canon.nodes(t)
                    if (A.key, T.key) not in self.active and not self.check(A, T) and not self._seal_hit:
                        return True
        finally:
            self._own_not = False
        return False

    def _no_objects(self, A: Canon, seen: frozenset = frozenset()) -> bool:
        """Whether no object satisfies ``A``: a required member's schemas accept nothing."""
        for r in A.required:
            m = self.canon.nodes(*prop_nodes(A, r))
            if m.false or (m.key not in seen and self._empty(m, seen)):
                return True
        return False

    # ------------------------------------------------------------------ combinators of B

    def _types(self, A: Canon, B: Canon) -> list[Fail]:
        fails: list[Fail] = []
        if A.enum_keys is not None:  # linear: plain canons are read off their hashed enum
            for k, v in A.enum_keys.items():
                if self.draft04 and spellings_sampled(v):
                    why = (f"value {short(v)} holds more integral numbers than are tried in both "
                           "spellings (1 and 1.0: draft-04 integer tells them apart)")
                    fails.append(Fail("undecided", why, A.enum_src or located(A), located(B), undecided=why))
                    continue
                for s in self.spellings(v):  # 1 and 1.0: one value, two documents in draft-04
                    if not (A.admits(s, k) if A.plain else self.sampler.holds(A, s)):
                        continue
                    if not (B.admits(s, k) if B.plain else B.admits(s, k) and self.sampler.holds(B, s)):
                        fails.append(self._value_fail(A, B, s))
                        break
                if self.enough(fails):
                    return fails
            if not fails:
                self.prove("values-included", f"{len(A.enum_keys)} value(s)", A.enum_src, B.enum_src or located(B))
            return fails
        finite = self._finite_objects(A)
        if finite is not None:  # a small closed object of finite members: every document checked
            fails = [self._value_fail(A, B, doc) for doc in finite
                     if self.sampler.holds(A, doc) and not self.sampler.holds(B, doc)]
            if not fails:
                self.prove("finite-enumeration", f"{len(finite)} candidate document(s)", located(A), located(B))
            return fails
        for k, v in (B.excluded or {}).items():  # values a `not` of B rejects
            s = next((s for s in self.spellings(v) if A.admits(s, k) and self.sampler.holds(A, s)), _NONE)
            if s is not _NONE:
                fails.append(Fail("not", f"value {short(s)} is excluded by a 'not' of the {{B}} schema and accepted "
                                  "by the {A} schema", located(A), located(B), found=[s], item=v))
        for t in ("null", "boolean"):
            if A.allows(t):
                for v in ([None] if t == "null" else [True, False]):
                    # rejected by B's own type/enum here; B's combinators report their own
                    if not B.admits(v) and self.sampler.holds(A, v):
                        fails.append(self._value_fail(A, B, v))
        for t, rules in (("number", self._numbers), ("string", self._strings), ("array", self._arrays),
                         ("object", self._objects)):
            if self.enough(fails):
                return fails
            if A.allows(t) or (t == "number" and A.allows("integer")):
                fails.extend(rules(A, B))
        return fails


def _root(c: Canon, origin: dict) -> Node | None | bool:
    """What the failures of ``c`` on one side are located in: the one subschema written in a
    file among its parts (positive, nothing split), ``None`` when no part is written in a file
    (synthetic ``type`` cases), ``False`` when neither holds (failures not movable). A synthetic
    part derived from a ``not`` (listed in ``origin``) is located at that ``not``: not movable."""
    if c.done or any(n.syn is not None and n in origin for _, n in c.parts):
        return False
    files = [(neg, n) for neg, n in c.parts if n.syn is None]
    if not files:
        return None
    if len(files) == 1 and not files[0][0]:
        return files[0][1]
    return False


def _below(ptr: str, root: str) -> bool:
    """Whether JSON Pointer ``ptr`` is ``root`` or inside it."""
    return ptr == root or ptr.startswith(root + "/")


def _forget_since(memo: dict, mark: int) -> None:
    """Drop the entries inserted into ``memo`` after its first ``mark`` ones (dicts keep
    insertion order)."""
    if len(memo) > mark:
        for k in list(memo)[mark:]:
            del memo[k]


__all__ = ["Budget", "Checker", "Fail"]
