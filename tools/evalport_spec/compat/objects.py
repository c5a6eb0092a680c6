"""Inclusion for objects in ``A ⊆ B``: ``required``, ``minProperties``/``maxProperties``, every
declared member, undeclared member names as a partition by ``patternProperties`` regexes (cells
as regular languages), ``propertyNames``, and small closed objects enumerated.
"""

from __future__ import annotations

from dataclasses import replace

from ..ecmaregex import search
from ..findings import NO_ITEM
from ..pointer import join
from .canon import Canon
from .fail import Fail, located
from .nodes import Node
from .sample import prop_nodes

FRESH = "x-evalport-fresh-name"

MAX_CELL_PATTERNS = 8
"""Most ``patternProperties`` regexes (both sides together) whose 2**n combinations are compared."""


class ObjectRules:
    """Mixin of :class:`~.subset.Checker`: objects."""

    def _objects(self, A: Canon, B: Canon) -> list[Fail]:
        gate = self._type_gate(A, B, "object", "object")
        if gate:
            return [gate]
        if self._no_objects(A):
            self.prove("old-accepts-nothing", "no object: a required member accepts no value", located(A), located(B))
            return []
        fails: list[Fail] = []
        hint = {"type": "object"}
        if B.required and all(r in A.required for r in B.required):
            self.prove("required-included", ", ".join(sorted(B.required)), located(A), located(B))
        for r, (node, ptr) in B.required.items():
            if r in A.required:
                continue
            fails.append(self._fail("required", f"property {r!r} is required by the {{B}} schema and optional in the {{A}} schema", A, B, None, (node, ptr), hint,
                                    item=r, must=lambda w, r=r: isinstance(w, dict) and r not in w))
        a_min = max(A.min_props.value if A.min_props else 0, len(A.required))
        if B.min_props and a_min < B.min_props.value:
            fails.append(self._fail("minProperties", f"minProperties {a_min} in the {{A}} schema, {B.min_props.value} in the {{B}} schema", A, B,
                                    A.min_props.at if A.min_props else None, B.min_props.at, hint))
        if B.max_props and (not A.max_props or A.max_props.value > B.max_props.value) and (
                self._name_bound(A) is None or self._name_bound(A) > B.max_props.value):
            size = max(B.max_props.value + 1, a_min)
            fails.append(self._fail("maxProperties", f"maxProperties {A.max_props.value if A.max_props else 'unbounded'} in the {{A}} schema, {B.max_props.value} in the {{B}} schema", A, B,
                                    A.max_props.at if A.max_props else None, B.max_props.at,
                                    {**hint, "objects": _Replay(lambda: self._objects_of_size(A, size))},
                                    must=lambda w: isinstance(w, dict) and len(w) > B.max_props.value))
        names = sorted({n for c in A.obj + B.obj for n in c.props})
        for name in names:
            if self.enough(fails):
                return fails
            fails.extend(self._member(A, B, name))
        if self.enough(fails):
            return fails
        fails.extend(self._undeclared(A, B, set(names)))
        for pn in B.prop_names:
            if self.enough(fails):
                return fails
            if any(self.equal(pn, an) for an in A.prop_names):
                self.prove("same-subschema", "propertyNames", located(A), (pn, pn.ptr))
                continue
            got = self._prop_names(A, B, pn)
            if not got:
                self.prove("property-names-included", "propertyNames", located(A), (pn, pn.ptr))
            fails.extend(got)
        return fails

    def _name_bound(self, A: Canon) -> int | None:
        """The most members an object of ``A`` can have when its ``propertyNames`` admit finitely
        many names (an ``enum``/``const`` of the conjunction, or ``false``): the count of the
        distinct strings among them; ``None`` when the names are unbounded. An object's members
        have distinct names, so it has at most that many (JSON Schema 2020-12 Core 10.3.2.4)."""
        if not A.prop_names:
            return None
        c = self.canon.nodes(*A.prop_names)
        if c.false:
            return 0
        if c.enum is None:
            return None
        return len({v for v in c.enum if isinstance(v, str)})

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
            if not c.false and c.enum is None:
                return None
            values = [] if c.false else [s for v in c.enum for s in self.spellings(v)]  # 1 and 1.0 (draft-04)
            options = [(name, v) for v in values] + ([] if name in A.required else [None])
            docs = [{**d, name: o[1]} if o else d for d in docs for o in options]
            if len(docs) > limit:
                return None
        return docs

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
        if cells is not None:
            self.prove("member-names-partitioned", f"{len(cells)} non-empty cell(s) of {len(pats)} regex(es)",
                       located(A), located(B))
        if cells is None:
            owner = next(cl.owner for cl in A.obj + B.obj if cl.pats)
            why = (f"{len(pats)} patternProperties regexes: their combinations are not enumerated")
            return [Fail("undecided", why, located(A), (owner, join(owner.ptr, "patternProperties")), undecided=why)]
        fails: list[Fail] = []
        for cell, name in cells:
            an, bn = _cell_nodes(A, cell), _cell_nodes(B, cell)
            if not bn or (len(an) == len(bn) and all(self.equal(x, y) for x, y in zip(an, bn, strict=True))):
                continue
            ac = self.canon.nodes(*an)
            if ac.false or not self.below(ac, self.canon.nodes(*bn)):
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
            fails.append(Fail("undecided", why, located(A), (owner, owner.ptr) if owner else located(B), undecided=why))
        return fails

    def _cells(self, A: Canon, pats: list[str], declared: set[str]) -> list[tuple[frozenset, str | None]] | None:
        """``[(cell, least name or None)]``: the non-empty cells of the partition by ``pats``
        (with their least member name), found by splitting languages regex by regex and
        pruning empty intersections; every one of the ``2**n`` cells with ``None`` names when a
        regex has no language here (``None`` beyond :data:`MAX_CELL_PATTERNS` regexes then)."""
        if not pats:  # one cell: every undeclared name; any fresh name stands for it
            return [(frozenset(), None)]
        names = self.strings.over(self.canon.nodes(*A.prop_names))[0] if A.prop_names else None
        out = self.strings.cells(pats, declared, names, 2 ** MAX_CELL_PATTERNS)
        if out is not None or len(pats) > MAX_CELL_PATTERNS:
            return out if out != "too many" else None
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
            if name in declared or not all(search(p, name) is (p in cell) for p in pats):
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
            self.prove("same-subschema", f"member {name!r}", (an[0], an[0].ptr), (bn[0], bn[0].ptr))
            return []  # the same subschema on both sides: nothing to compare (no canon built)
        ac = self.canon.nodes(*an)
        if ac.false:
            self.prove("old-accepts-nothing", f"member {name!r} is forbidden on the old side",
                       (an[0], an[0].ptr) if an else located(A), (bn[0], bn[0].ptr))
            return []
        bc = self.canon.nodes(*bn)
        sub = self.below(ac, bc)
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
        loc_b = (bn[0], bn[0].ptr) if bn[0].syn is None else located(B)
        inner = Fail(code, what, (an[0], an[0].ptr) if an and an[0].syn is None else located(A), loc_b, ())
        inner.defer(lambda: self.first_verified(sub, ac, bc, 4))
        return [self._wrap(inner, A, B, name, "prop")]

    def _objects_of_size(self, A: Canon, size: int, limit: int = 1000):
        """Candidate objects of ``A`` with exactly ``size`` members (``size`` up to ``limit``):
        ``A``'s required members, then its other declared ones, then fresh names (``x0``, ``x1``,
        ...), each with a value the sampler finds for it; nothing when ``A`` allows too few."""
        if size > limit:
            return
        obj: dict = {}
        for r in sorted(A.required):
            x = self.sampler.one(self.canon.nodes(*prop_nodes(A, r, self.canon)))
            if not self.sampler.found(x):
                return
            obj[r] = x
        declared = sorted({n for cl in A.obj for n in cl.props} - set(obj))
        for name in dict.fromkeys([*declared, *(f"x{i}" for i in range(size))]):
            if len(obj) >= size:
                break
            if name in obj:
                continue
            x = self.sampler.one(self.canon.nodes(*prop_nodes(A, name, self.canon)))
            if self.sampler.found(x):
                obj[name] = x
        if len(obj) == size:
            yield obj

    def _prop_names(self, A: Canon, B: Canon, pn: Node) -> list[Fail]:
        closed = any(cl.add is not None and self.canon.nodes(cl.add).false and not cl.pats for cl in A.obj)
        if closed:
            names = sorted({n for cl in A.obj for n in cl.props})
            bad = [n for n in names if not self.canon.nodes(*prop_nodes(A, n)).false
                   and not self.sampler.node_valid(pn, n)]
            if not bad:
                return []
        elif A.prop_names and not self.below(self.canon.nodes(*A.prop_names), self.canon.nodes(pn)):
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
        f = Fail("propertyNames", "propertyNames of the {B} schema rejects member names the {A} schema accepts", located(A), (pn, pn.ptr))
        f.witness = [o for o in objs if self.sampler.valid(A, o) and not self.sampler.valid(B, o)][:2]
        return [f]


class _Replay:
    """An iterable whose items ``make()`` yields anew on each pass (a sampler hint built only
    when, and as often as, a witness search reads it)."""

    def __init__(self, make) -> None:
        self.make = make

    def __iter__(self):
        return iter(self.make())


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


