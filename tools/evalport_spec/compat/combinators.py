"""Combinators of the new side in ``A ⊆ B``: ``anyOf``/``oneOf`` groups (a covering branch, and
for ``oneOf`` the others disjoint from the case), conditionals (``if``/``then``/``else``,
``dependentRequired``, ``dependentSchemas``) and the ``not`` the canon could not eliminate.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from typing import Any

from ..canonjson import canonical
from ..findings import NO_ITEM
from ..pointer import join
from .canon import Canon
from .fail import Fail, located
from .groupindex import GroupIndex, shape
from .nodes import Node, synthetic
from .sample import prop_nodes


class CombinatorRules:
    """Mixin of :class:`~.subset.Checker`: ``B``'s combinators against ``A``."""

    def _combinators(self, A: Canon, B: Canon, decide_whole: bool = False) -> list[Fail]:
        """Failures of ``B``'s groups, conditionals and ``not``s against ``A`` (stopping at the
        first under :meth:`~.subset.Checker.deciding`). ``decide_whole``: the caller splits
        ``A`` when a group fails, whatever the failures, so a group's branches tried with ``A``'s
        own disjunctions whole are only asked whether they fail (:meth:`_group`)."""
        fails: list[Fail] = []
        for g in B.groups:
            # an A group with the same branches implies g when it is as strong: a oneOf implies
            # the anyOf of its branches, but an anyOf never implies a oneOf (overlapping branches)
            at = self._group_at(g)
            if any(implies(h.kind, g.kind) and self._same_branches(h.branches, g.branches)
                   for h in [*A.groups, *self._a_groups(A)]):
                self.prove("group-repeated", f"{g.kind} with the same branches", located(A), at)
                continue
            fails.extend(self._group(A, B, g, decide_whole))
            if self.enough(fails):
                return fails
        for cond in B.conds:
            if any(self._same_cond(c, cond) for c in self._a_conds(A)):
                self.prove("conditional-repeated", f"{cond.origin} at {cond.ptr}", located(A), (cond.owner, cond.ptr))
                continue
            got = self._cond(A, B, cond)
            if not got:
                self.prove("conditional-holds", f"{cond.origin} at {cond.ptr}", located(A), (cond.owner, cond.ptr))
            fails.extend(got)
            if self.enough(fails):
                return fails
        for node, ptr in B.nots:
            if any(self.equal(n, node) or not self.check(self.canon.nodes(node), self.canon.nodes(n))
                   for n, _ in self._a_nots(A)):
                self.prove("not-implied", "an old 'not' rejects at least as much", located(A), (node, ptr))
                continue
            if any(neg and self.equal(n, node) for neg, n in A.parts):
                self.prove("not-implied", "the old case already negates it", located(A), (node, ptr))
                continue
            if self.disjoint(A, self.canon.nodes(node)):
                self.prove("not-implied", "no old document matches the negated schema (disjoint)", located(A), (node, ptr))
                continue
            inter = self.canon.of(A.parts | {(False, node)})
            f = Fail("not", "a 'not' of the {B} schema excludes documents the {A} schema accepts", located(A), (node, ptr))
            f.defer(lambda inter=inter: self.local_witnesses(inter, B))
            fails.append(f)
            if self.enough(fails):
                return fails
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

    def _group(self, A: Canon, B: Canon, g, decide_whole: bool = False) -> list[Fail]:
        """Failures of ``A ⊆`` group ``g`` of ``B``: no branch covers ``A`` (or one of its types),
        or a ``oneOf`` branch covering it is not disjoint from the others. When ``A`` has
        disjunctions of its own, each branch is tried with them whole; ``decide_whole``: the
        caller splits ``A`` if the group fails, so those tries only tell whether they fail
        (:meth:`~.subset.Checker.deciding`), and the failure made of them is never read."""
        branches = [self.canon.nodes(b) for b in g.branches]
        types = self._types_of(A)
        cases = [(None, A)] + [(t, self.canon.of(A.parts | {(False, synthetic(g.owner.side, {"type": t}))}, A.done))
                               for t in types] if len(types) > 1 else [(None, A)]
        if len(types) <= 1:
            cases = [(None, A)]
        pending = []
        subs: dict[str | None, list[list[Fail]]] = {}
        index = self._group_index(g, branches)
        for t, case in cases:
            ok = None
            subs[t] = [[]] * len(branches)  # each filled slot is replaced, never appended to
            may_overlap: list[int] | None = None
            for j in self._likely_first(case, g.branches, index):
                br = branches[j]
                # a case with disjunctions of its own is compared with them whole: when no
                # branch covers it so, the caller splits it and each case meets the group again
                whole = bool(case.groups or case.conds)
                if whole and decide_whole:
                    with self.deciding():
                        sub = self.check(case, br, split=False)
                else:
                    sub = self.check(case, br, split=not whole)
                subs[t][j] = sub
                if not sub:
                    if g.kind == "oneOf":  # (an anyOf branch covering the case is enough)
                        if may_overlap is None:
                            may_overlap = self._may_overlap(case, index)
                        overlap = [k for k in may_overlap if k != j and not self._case_disjoint(case, branches[k])]
                        if overlap:
                            ok = ("overlap", j, overlap)
                            continue
                    ok = ("ok", j)
                    break
            if ok and ok[0] == "ok":
                self.prove("branch-covers", f"{g.kind} branch {ok[1]}{' for type ' + t if t else ''}"
                           + (", disjoint from the others" if g.kind == "oneOf" and len(branches) > 1 else ""),
                           located(A), (g.branches[ok[1]], g.branches[ok[1]].ptr))
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
                         "the {B} schema", located(A), self._group_at(g))
                f.defer(lambda case=case, ok=ok: self._overlap_witnesses(A, B, g, case, ok[1], ok[2]))
            else:
                f = Fail(g.kind, f"a document of the {{A}} schema{' of type ' + t if t else ''} matches no '{g.kind}' "
                         "branch of the {B} schema", located(A), self._group_at(g),
                         item=t if t else NO_ITEM)
                f.defer(lambda t=t, case=case: self._uncovered_witnesses(A, B, case, t, branches, subs.get(t, ())))
            fails.append(f)
        return fails

    def _group_at(self, g) -> tuple[Node, str]:
        """Where group ``g`` is written: its ``anyOf``/``oneOf`` keyword, or for the ``anyOf``
        the canon made of a negated schema's atoms (:meth:`~.canon.Canonizer._negate`), which no
        file holds, the ``not`` it was made from (a JSON Pointer into the file, RFC 6901)."""
        value = self.canon.side(g.owner).value(g.owner)
        if isinstance(value, dict) and g.kind in value:
            return (g.owner, join(g.owner.ptr, g.kind))
        return (g.owner, g.owner.ptr)

    def _group_index(self, g, branches: list[Canon]) -> GroupIndex:
        """The :class:`~.groupindex.GroupIndex` of group ``g`` (canons ``branches``), built once
        per group (its owner, kind and branch nodes): every case of a split group meets it."""
        key = (*g.marker, tuple(g.branches))
        idx = self.group_index.get(key)
        if idx is None:
            idx = self.group_index[key] = GroupIndex.build(g.branches, branches, self._shape, self._tag_keys)
        return idx

    def _shape(self, node: Node) -> Hashable | None:
        """:func:`~.groupindex.shape` of ``node``'s schema, once per node (``None``: not JSON)."""
        try:
            return self.shapes[node]
        except KeyError:
            try:
                got = shape(self.canon.side(node).value(node))
            except (TypeError, ValueError):
                got = None
            self.shapes[node] = got
            return got

    def _likely_first(self, case: Canon, branches: list[Node], index: GroupIndex) -> list[int]:
        """Indexes of ``branches`` in the order to try them against ``case``: first a branch
        written as one of the case's own parts (a case of a split group meets its twin), then
        the rest in order. Only the order of the search changes, never its answer; a split
        ``oneOf`` of n branches then costs n checks instead of about n²/2, and the twins are
        looked for among the candidates ``index`` gives (all that can be twins)."""
        twins = [j for j in index.twin_candidates(case.positives, self._shape)
                 if any(self.equal(branches[j], p) for p in case.positives)]
        first = set(twins)
        return twins + [j for j in range(len(branches)) if j not in first]

    def _may_overlap(self, case: Canon, index: GroupIndex) -> list[int]:
        """Indexes of the branches of ``index``'s group that can share a document with ``case``
        (:meth:`~.groupindex.GroupIndex.overlap_candidates`): every other one is disjoint from it."""
        return index.overlap_candidates(self._finite_values(case), self._tags(case))

    def _finite_values(self, case: Canon) -> list[Any] | None:
        """The values of ``case``'s smallest finite positive part that the part holds (a superset
        of the case's values: the case implies each of its parts), or ``None`` when no positive
        part is finite."""
        if self.sampler is None:
            return None
        best: Canon | None = None
        for p in case.positives:
            c = self.canon.nodes(p)
            if c.enum is not None and (best is None or len(c.enum) < len(best.enum)):
                best = c
        return None if best is None else self._held_values(best)

    def _held_values(self, c: Canon) -> list[Any]:
        """The values of finite canon ``c``'s ``enum`` that satisfy all of ``c``."""
        return [v for v in c.enum if self.sampler.holds(c, v)]

    def _member_values(self, c: Canon, name: str) -> Canon | None:
        """The canon of every schema ``c`` applies to its member ``name`` when it is finite."""
        m = self.canon.nodes(*prop_nodes(c, name)) if c.obj else None
        return m if m is not None and m.enum is not None else None

    def _tags(self, case: Canon) -> dict[str, list[Any]] | None:
        """For a ``case`` that accepts only objects: each required member whose schemas allow
        finitely many values -> those values (held by the member's schemas), else ``None``."""
        if self.sampler is None or case.types is None or not case.types <= {"object"}:
            return None
        out = {}
        for name in case.required:
            m = self._member_values(case, name)
            if m is not None:
                out[name] = self._held_values(m)
        return out

    def _tag_keys(self, c: Canon) -> dict[str, Iterable[str]]:
        """Each member ``c`` requires whose schemas allow finitely many values -> canonical JSON
        texts of those values (a superset: the ``enum`` keys before any other keyword)."""
        out = {}
        for name in c.required:
            m = self._member_values(c, name)
            if m is not None:
                out[name] = m.enum_keys if m.enum_keys is not None else [canonical(v) for v in m.enum]
        return out

    def _case_disjoint(self, case: Canon, other: Canon) -> bool:
        """Whether ``case`` and ``other`` are disjoint, first through each positive part of
        ``case`` alone (``case`` implies each of them, so a part disjoint from ``other`` proves
        it; the parts' verdicts are memoised across cases), then on the whole case."""
        return (any(self.disjoint(self.canon.nodes(p), other) for p in case.positives)
                or self.disjoint(case, other))

    def _overlap_witnesses(self, A: Canon, B: Canon, g, case: Canon, j: int, overlap: list[int]) -> list[Any]:
        """Documents of ``case`` (a case of ``A``) matching branch ``j`` of the ``oneOf`` group
        ``g`` of ``B`` and one of the ``overlap`` branches too (so matching ``g`` fails)."""
        cands = []
        for k in overlap:
            both = self.canon.of(case.parts | {(False, g.branches[j]), (False, g.branches[k])})
            cands += self.local_witnesses(both, B)
        return [w for w in cands if self.sampler.valid(A, w)][:2]

    def _uncovered_witnesses(self, A: Canon, B: Canon, case: Canon, t: str | None, branches: list[Canon],
                             subs: list[list[Fail]]) -> list[Any]:
        """Documents of ``case`` (of type ``t`` when given) breaking every branch of a ``B``
        group: first from each branch's own failures ``subs`` (two a branch, in branch order),
        then merged, then sampled; the first two valid under ``A`` and invalid under ``B``. A
        branch's witnesses are only looked for while fewer than two are found: the first
        branches, the changed one among them, usually give both."""
        def breaks(w: Any) -> bool:
            return self.sampler.valid(A, w) and not self.sampler.valid(B, w)

        found: list[Any] = []
        per_branch: list[list[Any]] = []
        for br, sub in zip(branches, subs, strict=False):
            per_branch.append(self.first_verified(sub, case, br, 2))
            found += [w for w in per_branch[-1] if breaks(w)]
            if len(found) >= 2:
                return found[:2]
        found += [w for w in _merged(per_branch) if breaks(w)]
        return found[:2] or self.local_witnesses(case, B, {"type": t} if t else None)

    def _cond(self, A: Canon, B: Canon, cond) -> list[Fail]:
        # each case is compared first: where it holds, whether ``A`` reaches the case at all
        # (a disjointness search, exponential in ``A``'s groups) need not be asked
        out: list[Fail] = []
        if_c = self.canon.nodes(cond.if_)
        if cond.then is not None:
            sub = self.check(self.canon.of(A.parts | {(False, cond.if_)}, A.done), self.canon.nodes(cond.then))
            if sub and not self.disjoint(A, if_c):
                out.extend(self._relabel(sub, cond, A, B))
        if cond.else_ is not None:
            sub = self.check(self.canon.of(A.parts | {(True, cond.if_)}, A.done), self.canon.nodes(cond.else_))
            if sub and self.check(A, if_c):
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
                     via=f.via, item=f.item)
            if f.path:
                g.defer(lambda f=f: list(f.witness))
            else:
                g.defer(lambda f=f: [w for w in f.witness if self.sampler.valid(A, w) and not self.sampler.valid(B, w)])
            out.append(g)
        return out

    # ------------------------------------------------------------------ disjointness


def implies(kind_a: str, kind_b: str) -> bool:
    """Whether a group of kind ``kind_a`` implies one of kind ``kind_b`` over the same branches."""
    return kind_a == kind_b or kind_b == "anyOf"


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
