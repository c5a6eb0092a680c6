"""Canonical form of a conjunction of subschemas: the constraints per JSON type.

A :class:`Canon` is what a set of *parts* (subschemas that must all hold, some possibly negated)
says, keyword by keyword, after resolving ``$ref`` and merging ``allOf``: the allowed JSON types,
``enum`` (``const: x`` is ``enum: [x]``), numeric bounds and ``multipleOf``, string lengths,
patterns and formats, array and object *clauses* (each ``properties``/``patternProperties``/
``additionalProperties`` or ``prefixItems``/``items`` group is kept with the subschema that wrote
it, because ``additionalProperties`` only sees its own neighbours, JSON Schema 2020-12 section
10.3.2.3), and the disjunctions (``anyOf``/``oneOf``), conditionals (``if``/``then``/``else``,
``dependentRequired``, ``dependentSchemas``, draft-07 ``dependencies``) and ``not`` that the
subset check handles by case analysis. Dialects (draft-04 to 2020-12) are read by ``$schema``:
draft-04 boolean ``exclusiveMinimum``/``exclusiveMaximum``, draft-07 and 2019-09 tuple ``items``
with ``additionalItems``, ``$ref`` siblings ignored before 2019-09. Anything this model cannot
express exactly is recorded in :attr:`Canon.undecided` (fail closed).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, NamedTuple

from ..canonjson import canonical
from ..ecmaregex import search
from ..jsonnum import enum_index, exact
from ..jsontypes import json_type
from ..pointer import join
from .nodes import (
    D4,
    D6,
    D7,
    D2019,
    D2020,
    LISTS,
    MAPS,
    SINGLE,
    Node,
    Side,
    Unresolvable,
    asserted_formats,
    dynamic_ref_keywords,
    keywords_of,
    reads_alike,
    synthetic,
)

ANNOTATIONS = frozenset({"title", "description", "default", "examples", "$comment", "deprecated",
                         "readOnly", "writeOnly", "$id", "id", "$anchor", "$defs", "definitions",
                         "$schema", "$vocabulary", "contentEncoding", "contentMediaType",
                         "contentSchema", "$dynamicAnchor", "$recursiveAnchor"})
"""Keywords that never change which instances a schema accepts (annotations, identifiers,
definition containers; JSON Schema 2020-12 sections 8, 9 and 10 of the Validation spec)."""

TYPES = ("null", "boolean", "integer", "number", "string", "array", "object")

Part = tuple[bool, Node]  # (negated, node)


def num(x: Any) -> Fraction:
    """A JSON number as an exact :class:`~fractions.Fraction` (``0.1`` is 1/10)."""
    return exact(x)



class Limit(NamedTuple):
    """A size bound (``minLength``, ``maxItems``, ``minProperties``, ...): its ``value`` and where
    it is written (``node``, ``ptr``)."""

    value: int
    node: Node
    ptr: str

    @property
    def at(self) -> tuple[Node, str]:
        """``(node, ptr)``: the location of the keyword."""
        return (self.node, self.ptr)


class Keyword(NamedTuple):
    """A keyword with a string value (``pattern``, ``format``) and where it is written."""

    text: str
    node: Node
    ptr: str

    @property
    def at(self) -> tuple[Node, str]:
        """``(node, ptr)``: the location of the keyword."""
        return (self.node, self.ptr)


class Contains(NamedTuple):
    """A ``contains`` subschema (``node``) with its ``minContains``/``maxContains`` (``max``
    ``None``: unbounded) and the pointer of the ``contains`` keyword."""

    node: Node
    min: int
    max: int | None
    ptr: str


@dataclass
class Bound:
    """A numeric bound: ``value`` and whether it is exclusive; ``src`` is where it was written."""

    value: Fraction
    excl: bool
    src: Node
    ptr: str


@dataclass
class ObjClause:
    """``properties``, ``patternProperties`` and ``additionalProperties`` of one subschema."""

    owner: Node
    props: dict[str, Node] = field(default_factory=dict)
    pats: dict[str, Node] = field(default_factory=dict)
    add: Node | None = None


@dataclass
class ArrClause:
    """``prefixItems`` (or tuple ``items``) and ``items`` (or ``additionalItems``) of one subschema."""

    owner: Node
    prefix: list[Node] = field(default_factory=list)
    rest: Node | None = None


@dataclass
class Cond:
    """A conditional: ``if`` ⇒ ``then``, else ``else``. ``origin`` names the keyword that wrote it."""

    owner: Node
    ptr: str
    if_: Node
    then: Node | None
    else_: Node | None
    origin: str = "if"

    @property
    def marker(self) -> tuple[Node, str]:
        return (self.owner, self.ptr)


@dataclass
class Group:
    """An ``anyOf`` or ``oneOf`` at ``owner``."""

    owner: Node
    kind: str
    branches: list[Node]

    @property
    def marker(self) -> tuple[Node, str]:
        return (self.owner, self.kind)


@dataclass
class Canon:
    """The merged constraints of a conjunction of parts (see the module docstring)."""

    key: tuple
    parts: frozenset
    done: frozenset
    false: bool = False
    types: set[str] | None = None
    type_src: tuple[Node, str] | None = None
    int_literal: tuple[Node, str] | None = None
    """Where a draft-04 ``type: integer`` (without ``number``) excludes integral floats such as
    ``1.0``: draft-04's ``integer`` is a JSON number written without a fraction or exponent
    (the validators agree), 2020-12's any number with a zero fractional part."""
    enum: list[Any] | None = None
    enum_keys: dict[str, Any] | None = None
    """``enum``/``const`` values by canonical JSON text, once each (``1`` and ``1.0`` are one)."""
    enum_src: tuple[Node, str] | None = None
    excluded: dict[str, Any] | None = None
    """Values a ``not`` of an ``enum``/``const`` rejects, by canonical JSON text."""
    neg_patterns: list[Keyword] = field(default_factory=list)
    """Patterns a ``not`` forbids strings to match (their complement languages)."""
    plain: bool = True
    """Whether every positive part asserts only ``type``/``enum``/``const`` and the string
    keywords ``minLength``, ``maxLength`` and ``pattern`` (one jsonschema-rs reads as ECMA-262
    does: :func:`~evalport_spec.ecmaregex.jsonschema_rs_reads_alike`) — annotations, keywords
    the validators do not read, ``$ref``, ``allOf`` and groups of such branches aside — and
    nothing is negated: validity of a value is then read off the canon (:meth:`admits`)."""
    lo: Bound | None = None
    hi: Bound | None = None
    mult: list[tuple[Fraction, Node, str]] = field(default_factory=list)
    min_len: Limit | None = None
    max_len: Limit | None = None
    patterns: list[Keyword] = field(default_factory=list)
    formats: list[Keyword] = field(default_factory=list)
    arr: list[ArrClause] = field(default_factory=list)
    min_items: Limit | None = None
    max_items: Limit | None = None
    unique: tuple[Node, str] | None = None
    contains: list[Contains] = field(default_factory=list)
    obj: list[ObjClause] = field(default_factory=list)
    required: dict[str, tuple[Node, str]] = field(default_factory=dict)
    min_props: Limit | None = None
    max_props: Limit | None = None
    prop_names: list[Node] = field(default_factory=list)
    groups: list[Group] = field(default_factory=list)
    conds: list[Cond] = field(default_factory=list)
    nots: list[tuple[Node, str]] = field(default_factory=list)
    negs: list[Node] = field(default_factory=list)
    undecided: list[tuple[Node, str, str]] = field(default_factory=list)
    positives: list[Node] = field(default_factory=list)

    @property
    def read_off(self) -> bool:
        """Whether :meth:`admits` is exactly this canon's validity: :attr:`plain` (``type``,
        ``enum``/``const`` and string lengths and patterns only), nothing undecided, and not
        :attr:`false`."""
        return self.plain and not self.undecided and not self.false

    @property
    def finite_plain(self) -> bool:
        """Whether this canon is :attr:`read_off` with an ``enum``: it accepts a value only when
        the value's canonical JSON text is one of :attr:`enum_keys`."""
        return self.read_off and self.enum_keys is not None

    def admits(self, x: Any, key: str | None = None) -> bool:
        """Whether value ``x`` (whose canonical JSON text is ``key``, computed when not given)
        satisfies this canon's ``type``, ``enum``/``const`` and, for a string, its
        ``minLength``/``maxLength`` (code points) and the ``pattern`` values jsonschema-rs reads
        as ECMA-262 does (exactly its validity when :attr:`plain`; otherwise a necessary
        condition)."""
        if self.types is not None:
            t = json_type(x)
            if not self.allows(t):
                return False
            if self.int_literal and isinstance(x, float) and "number" not in self.types:
                return False  # draft-04 integer: 1.0 is not one
        if type(x) is str and (self.min_len or self.max_len or self.patterns) and not self._admits_string(x):
            return False
        if self.enum_keys is None and self.excluded is None:
            return True
        k = key if key is not None else canonical(x)
        return (self.enum_keys is None or k in self.enum_keys) and (self.excluded is None or k not in self.excluded)

    def _admits_string(self, x: str) -> bool:
        """Whether string ``x`` meets the lengths (JSON Schema 2020-12 Validation 6.3.1-2: code
        points) and the patterns read alike by both validators (6.3.3, ECMA-262)."""
        if (self.min_len is not None and len(x) < self.min_len.value) or (
                self.max_len is not None and len(x) > self.max_len.value):
            return False
        for p in self.patterns:  # (a loop, not all() over a generator: canons settle enums of
            if reads_alike(p.text) and not search(p.text, x):  # hundreds of strings, each checked)
                return False
        return True

    def allows(self, t: str) -> bool:
        """Whether JSON type ``t`` is allowed by the ``type`` keywords (``integer`` ⊂ ``number``)."""
        if self.types is None:
            return True
        return t in self.types or (t == "integer" and "number" in self.types)

    def declared(self, name: str) -> bool:
        """Whether some clause names property ``name`` in ``properties``."""
        return any(name in c.props for c in self.obj)


class Canonizer:
    """Builds and memoises :class:`Canon` values for conjunctions of parts over two sides."""

    def __init__(self, sides: dict[str, Side]) -> None:
        self.sides = sides
        self.memo: dict[tuple, Canon] = {}
        self._deref: dict[Node, Node] = {}
        self._content_keys: dict[tuple, tuple] = {}
        self._atoms: dict[Node, list[tuple[str, Any]] | None] = {}
        self._single: dict[Node, Canon] = {}
        self._group_branches: dict[tuple[Node, str], tuple[Node, ...]] = {}
        self._finite_groups: dict[tuple[Node, str], dict[str, Any] | None] = {}
        self.origin: dict[Node, tuple[Node, str]] = {}
        """Synthetic node -> the ``not`` (or negated ``if``) it was derived from, for locations."""

    def side(self, node: Node) -> Side:
        return self.sides[node.side]

    def content_key(self, c: Canon) -> tuple:
        """:attr:`Canon.key` with every node replaced by its :meth:`Side.content_id`: canons with one
        content key are the same conjunction of the same schemas, so accept the same instances."""
        hit = self._content_keys.get(c.key)
        if hit is None:
            parts, done = c.key
            hit = self._content_keys[c.key] = (
                frozenset((neg, self.side(n).content_id(n)) for neg, n in parts),
                frozenset((self.side(owner).content_id(owner), _relative(owner, at)) for owner, at in done))
        return hit

    def of(self, parts: frozenset | list | tuple, done: frozenset = frozenset()) -> Canon:
        """The canon of the conjunction of ``parts`` (``(negated, Node)`` pairs); groups and
        conditionals whose marker is in ``done`` were already split by the caller."""
        parts = frozenset((neg, self.deref(n)) for neg, n in parts)
        key = (parts, done)
        c = self.memo.get(key)
        if c is None:
            c = Canon(key=key, parts=parts, done=done)
            seen: set[Node] = set()
            for neg, node in sorted(parts, key=lambda p: (p[0], p[1].id)):
                if neg:
                    c.negs.append(node)
                    c.plain = False
                    self._negate(c, node, seen)
                else:
                    self._add(c, node, seen)
            _settle(c)
            self.memo[key] = c
        return c

    # -- not-elimination ------------------------------------------------------------------
    def _negate(self, c: Canon, target: Node, seen: set[Node]) -> bool:
        """Fold ``not target`` into ``c`` as positive constraints when ``target``'s canon is a
        conjunction of invertible atoms (``type``, ``enum``/``const``, bounds, lengths,
        ``pattern``, ``required``): not (a1 and ... and an) = (not a1) or ... or (not an), each
        not ai a keyword again (not minimum 0 = a number below 0; not minLength 2 = a string of at
        most 1 code point; not pattern p = a string outside p's language; not required [r] = an
        object without r; not properties {p: S} = an object with p whose value fails S, where S can
        be copied inline). One atom is added in place, several become an ``anyOf`` group split
        like any other; not not X is X. Returns whether ``target`` was eliminated (else it stays
        a ``not``)."""
        side = target.side
        v = self.side(target).value(target)
        if isinstance(v, dict) and "not" in v and all(k == "not" or k in ANNOTATIONS for k in v):
            self._add(c, self.deref(child(target, v, "not")), seen)  # double negation
            return True
        n = self.nodes(target)
        if n.false:
            return True  # not false: no constraint
        atoms = self._atoms_of(target, n)
        if atoms is None:
            return False
        if not atoms:
            c.false = True  # not of a schema that accepts everything
            return True
        src = (target, target.ptr) if target.syn is None else self.origin.get(target, (target, target.ptr))

        def made(schema: Any) -> Node:
            n = synthetic(side, schema)
            self.origin.setdefault(n, src)
            return n

        if len(atoms) == 1 and atoms[0][0] in ("enum", "pattern"):
            kind, value = atoms[0]
            if kind == "enum":  # merged in place: the n negated constants of a split oneOf case cost n, not n²
                if c.excluded is None:
                    c.excluded = dict(value)
                else:
                    c.excluded.update(value)
            else:
                c.neg_patterns.append(Keyword(value, *src))
                self._add(c, made({"type": "string"}), seen)
            return True
        schemas = [_atom_schema(kind, value) for kind, value in atoms]
        if len(schemas) == 1:
            self._add(c, made(schemas[0]), seen)
            return True
        g = Group(target, "anyOf", [made(x) for x in schemas])
        if g.marker not in c.done:
            c.groups.append(g)
        return True

    def _atoms_of(self, target: Node, n: Canon) -> list[tuple[str, Any]] | None:
        """:func:`_atoms` of ``target``'s canon ``n``, computed once per node (each case of a split
        ``oneOf`` negates the same other branches); callers must not modify the result."""
        try:
            return self._atoms[target]
        except KeyError:
            got = self._atoms[target] = _atoms(n, self._inline)
            return got

    def _branches(self, node: Node, v: dict, k: str) -> tuple[Node, ...]:
        """The branch nodes of the ``anyOf``/``oneOf`` ``k`` of ``node`` (schema ``v``), made once
        per node: each case of a split group adds the group's owner again."""
        try:
            return self._group_branches[(node, k)]
        except KeyError:
            got = self._group_branches[(node, k)] = tuple(child(node, v, k, i) for i in range(len(v[k])))
            return got

    def _inline(self, node: Node) -> Any:
        """The schema at ``node`` as a value a synthetic node can hold with the same meaning
        (:data:`INLINE_KEYWORDS` only, no reference, nothing read differently in the 2020-12
        dialect synthetic nodes are validated in), or ``None``."""
        side = self.side(node)
        v, d = side.value(node), side.dialect(node)
        return v if _inlinable(v, d) else None

    def deref(self, node: Node) -> Node:
        """``node`` with pure ``$ref`` hops followed: a schema whose only assertion is ``$ref``
        (annotations aside; any ``$ref`` before 2019-09, where siblings are ignored) means its
        target, so both share one canon and one comparison (keeps ``$ref`` graphs linear).
        Unresolvable references and pure ``$ref`` cycles stop the walk."""
        out = self._deref.get(node)
        if out is not None:
            return out
        side, n, seen = self.side(node), node, {node}
        while n.syn is None:
            v = side.value(n)
            if not isinstance(v, dict) or not isinstance(v.get("$ref"), str):
                break
            if side.dialect(n) >= D2019 and any(k not in ANNOTATIONS for k in v if k != "$ref"):
                break
            if "$id" in v or "id" in v:
                break  # a sibling $id re-bases the reference: keep the node
            try:
                t = side.resolve_ref(n, v["$ref"])
            except Unresolvable:
                break
            if t in seen:
                break
            seen.add(t)
            n = t
        self._deref[node] = n
        return n

    def nodes(self, *nodes: Node) -> Canon:
        """Shorthand: the canon of the conjunction of positive ``nodes`` (a single node's kept by
        node: case splits and validity checks ask for the same node's canon again and again)."""
        if len(nodes) == 1:
            c = self._single.get(nodes[0])
            if c is None:
                c = self._single[nodes[0]] = self.of(frozenset(((False, nodes[0]),)))
            return c
        return self.of(frozenset((False, n) for n in nodes))

    # -- merging one node -------------------------------------------------------------------
    def _add(self, c: Canon, node: Node, seen: set[Node]) -> None:
        if node in seen:
            return
        seen.add(node)
        c.positives.append(node)
        side = self.side(node)
        v = side.value(node)
        d = side.dialect(node)
        p = node.ptr
        if v is False:
            c.false = True
            return
        if not isinstance(v, dict):
            if v is not True:
                c.undecided.append((node, p, "a schema must be an object or a boolean"))
            return
        if c.plain and any(k not in ANNOTATIONS and k in keywords_of(d) and not _reads_off(k, v[k])
                           and (k not in ("anyOf", "oneOf") or self._finite_group(node, v, k) is None) for k in v):
            c.plain = False  # (a keyword the validators do not read, such as "x-kind", asserts nothing)
        if "$ref" in v and isinstance(v["$ref"], str):
            try:
                target = side.resolve_ref(node, v["$ref"])
            except Unresolvable as exc:
                c.undecided.append((node, join(p, "$ref"), str(exc)))
            else:
                self._add(c, target, seen)
            if d < D2019:
                return  # draft-07 and older: siblings of $ref are ignored
        for k in dynamic_ref_keywords(d):
            if isinstance(v.get(k), str) and node.syn is None:
                try:
                    self._add(c, side.resolve_dynamic(node, k, v[k]), seen)
                except Unresolvable as exc:
                    c.undecided.append((node, join(p, k), str(exc)))
        for i, _ in enumerate(v.get("allOf", []) if isinstance(v.get("allOf"), list) else []):
            self._add(c, child(node, v, "allOf", i), seen)
        self._types(c, node, v, d)
        self._enum(c, node, v, d)
        self._numbers(c, node, v, d)
        self._strings(c, node, v)
        self._arrays(c, node, v, d)
        self._objects(c, node, v, d)
        for k in ("anyOf", "oneOf"):
            if isinstance(v.get(k), list):
                values = self._finite_group(node, v, k)
                if values is not None:  # an enum written as a group of finite branches
                    self._restrict(c, values, (node, join(p, k)))
                    continue
                g = Group(node, k, list(self._branches(node, v, k)))
                if g.marker not in c.done:
                    c.groups.append(g)
        if "not" in v and accepts_all(v["not"]):
            c.false = True  # {"not": {}} accepts nothing, in every dialect
        elif "not" in v:
            target = child(node, v, "not")
            if not self._negate(c, self.deref(target), seen):
                c.nots.append((target, join(p, "not")))
        if d >= D7 and "if" in v and ("then" in v or "else" in v):
            cond = Cond(node, join(p, "if"), child(node, v, "if"),
                        child(node, v, "then") if "then" in v else None,
                        child(node, v, "else") if "else" in v else None)
            if cond.marker not in c.done:
                c.conds.append(cond)
        for k in ("unevaluatedProperties", "unevaluatedItems"):
            if d >= D2019 and k in v:
                self._unevaluated(c, node, v, k)

    def _types(self, c: Canon, node: Node, v: dict, d: int) -> None:
        t = v.get("type")
        if t is None:
            return
        ts = {t} if isinstance(t, str) else set(t) if isinstance(t, list) else set()
        if "any" in ts:  # draft-03 leftover; validators treat unknown types as errors
            return
        if "number" in ts:
            ts.add("integer")
        elif d == D4 and "integer" in ts:
            c.int_literal = (node, join(node.ptr, "type"))
        c.types = ts if c.types is None else c.types & ts
        c.type_src = (node, join(node.ptr, "type"))

    def _enum(self, c: Canon, node: Node, v: dict, d: int) -> None:
        vals: dict[str, Any] | None = None  # canonical text -> value (JSON Schema equality)
        if "const" in v and d >= D6:
            vals = {canonical(v["const"]): v["const"]}
            src = join(node.ptr, "const")
        if isinstance(v.get("enum"), list):
            e = enum_index(v["enum"])
            vals = e if vals is None else {k: x for k, x in vals.items() if k in e}
            src = join(node.ptr, "enum")
        if vals is not None:
            self._restrict(c, vals, (node, src))

    @staticmethod
    def _restrict(c: Canon, vals: dict[str, Any], src: tuple[Node, str]) -> None:
        """Intersect ``c``'s values with ``vals`` (canonical JSON text -> value), written at
        ``src``."""
        c.enum_keys = vals if c.enum_keys is None else {k: x for k, x in c.enum_keys.items() if k in vals}
        c.enum = list(c.enum_keys.values())
        c.enum_src = src

    def _finite_group(self, node: Node, v: dict, k: str) -> dict[str, Any] | None:
        """The values (canonical JSON text -> value) that the ``anyOf``/``oneOf`` ``k`` of
        ``node`` (schema ``v``) accepts when every branch is :attr:`~Canon.finite_plain` (read
        off, with an ``enum``: as in an enum written ``{"oneOf": [{"const": 1}, ...]}``):
        an ``anyOf`` accepts each value a branch holds, a ``oneOf`` each value exactly one
        branch holds (JSON Schema 2020-12 Core 10.2.1.2-3), so the group is that ``enum``
        exactly; a branch that accepts nothing (``false``, or a constant its own ``type``
        rejects) holds no value. ``None`` for any other group, and for one met again through
        its own branches (a ``$ref`` cycle). Once per group."""
        key = (node, k)
        if key in self._finite_groups:
            return self._finite_groups[key]
        self._finite_groups[key] = None  # re-entered through a cycle: not finite
        branches = [self.nodes(b) for b in self._branches(node, v, k)]
        got = None
        if branches and all(b.finite_plain or (b.false and not b.undecided) for b in branches):
            held: dict[str, Any] = {}
            count: dict[str, int] = {}
            split = False  # a value whose two spellings a branch tells apart (draft-04 integer)
            for b in branches:  # (a branch accepting nothing holds no value)
                for text, x in (b.enum_keys or {}).items() if not b.false else ():
                    admitted = {b.admits(s, text) for s in _number_spellings(x)}
                    split = split or len(admitted) > 1
                    if True in admitted:
                        held.setdefault(text, x)
                        count[text] = count.get(text, 0) + 1
            got = None if split else {text: x for text, x in held.items() if k == "anyOf" or count[text] == 1}
        self._finite_groups[key] = got
        return got

    def _numbers(self, c: Canon, node: Node, v: dict, d: int) -> None:
        p = node.ptr

        def tighten_lo(b: Bound) -> None:
            if c.lo is None or b.value > c.lo.value or (b.value == c.lo.value and b.excl):
                c.lo = b

        def tighten_hi(b: Bound) -> None:
            if c.hi is None or b.value < c.hi.value or (b.value == c.hi.value and b.excl):
                c.hi = b

        for kw, excl_kw, tighten in (("minimum", "exclusiveMinimum", tighten_lo),
                                     ("maximum", "exclusiveMaximum", tighten_hi)):
            x = v.get(kw)
            ex = v.get(excl_kw)
            if _is_num(x):
                tighten(Bound(num(x), d == D4 and ex is True, node, join(p, kw)))
            if d >= D6 and _is_num(ex):
                tighten(Bound(num(ex), True, node, join(p, excl_kw)))
        m = v.get("multipleOf")
        if _is_num(m) and m > 0:
            c.mult.append((num(m), node, join(p, "multipleOf")))

    def _strings(self, c: Canon, node: Node, v: dict) -> None:
        p = node.ptr
        if _is_int(v.get("minLength")) and v["minLength"] > 0:
            if c.min_len is None or v["minLength"] > c.min_len.value:
                c.min_len = Limit(int(v["minLength"]), node, join(p, "minLength"))
        if _is_int(v.get("maxLength")):
            if c.max_len is None or v["maxLength"] < c.max_len.value:
                c.max_len = Limit(int(v["maxLength"]), node, join(p, "maxLength"))
        if isinstance(v.get("pattern"), str):
            c.patterns.append(Keyword(v["pattern"], node, join(p, "pattern")))
        if isinstance(v.get("format"), str):
            c.formats.append(Keyword(v["format"], node, join(p, "format")))

    def _arrays(self, c: Canon, node: Node, v: dict, d: int) -> None:
        p = node.ptr
        mk = lambda *t: child(node, v, *t)  # noqa: E731
        clause = ArrClause(node)
        if d >= 2020:
            if isinstance(v.get("prefixItems"), list):
                clause.prefix = [mk("prefixItems", i) for i in range(len(v["prefixItems"]))]
            if "items" in v:
                clause.rest = mk("items")
        else:
            items = v.get("items")
            if isinstance(items, list):
                clause.prefix = [mk("items", i) for i in range(len(items))]
                if "additionalItems" in v:
                    clause.rest = mk("additionalItems")
            elif items is not None:
                clause.rest = mk("items")
        if clause.prefix or clause.rest is not None:
            c.arr.append(clause)
        if _is_int(v.get("minItems")) and v["minItems"] > 0:
            if c.min_items is None or v["minItems"] > c.min_items.value:
                c.min_items = Limit(int(v["minItems"]), node, join(p, "minItems"))
        if _is_int(v.get("maxItems")):
            if c.max_items is None or v["maxItems"] < c.max_items.value:
                c.max_items = Limit(int(v["maxItems"]), node, join(p, "maxItems"))
        if v.get("uniqueItems") is True:
            c.unique = (node, join(p, "uniqueItems"))
        if d >= D6 and "contains" in v:
            lo = v.get("minContains", 1) if d >= D2019 else 1
            hi = v.get("maxContains") if d >= D2019 else None
            if _is_int(lo) and (hi is None or _is_int(hi)):
                c.contains.append(Contains(mk("contains"), int(lo), hi, join(p, "contains")))

    def _objects(self, c: Canon, node: Node, v: dict, d: int) -> None:
        p = node.ptr
        mk = lambda *t: child(node, v, *t)  # noqa: E731
        clause = ObjClause(node)
        if isinstance(v.get("properties"), dict):
            clause.props = {k: mk("properties", k) for k in v["properties"]}
        if isinstance(v.get("patternProperties"), dict):
            clause.pats = {k: mk("patternProperties", k) for k in v["patternProperties"]}
        if "additionalProperties" in v:
            clause.add = mk("additionalProperties")
        if clause.props or clause.pats or clause.add is not None:
            c.obj.append(clause)
        if isinstance(v.get("required"), list):
            for i, r in enumerate(v["required"]):
                if isinstance(r, str):
                    c.required.setdefault(r, (node, join(p, "required", i)))
        if _is_int(v.get("minProperties")) and v["minProperties"] > 0:
            if c.min_props is None or v["minProperties"] > c.min_props.value:
                c.min_props = Limit(int(v["minProperties"]), node, join(p, "minProperties"))
        if _is_int(v.get("maxProperties")):
            if c.max_props is None or v["maxProperties"] < c.max_props.value:
                c.max_props = Limit(int(v["maxProperties"]), node, join(p, "maxProperties"))
        if d >= D6 and "propertyNames" in v:
            c.prop_names.append(mk("propertyNames"))
        deps: list[tuple[str, Any, str]] = []
        if d >= D2019:
            for kw in ("dependentRequired", "dependentSchemas"):
                if isinstance(v.get(kw), dict):
                    deps.extend((kw, (n, s), join(p, kw, n)) for n, s in v[kw].items())
        elif isinstance(v.get("dependencies"), dict):
            for n, s in v["dependencies"].items():
                kw = "dependentRequired" if isinstance(s, list) else "dependentSchemas"
                deps.append((kw, (n, s), join(p, "dependencies", n)))
        for kw, (name, s), ptr in deps:
            if_ = synthetic(node.side, {"type": "object", "required": [name]})
            if kw == "dependentRequired":
                if not isinstance(s, list) or not s:
                    continue
                then = synthetic(node.side, {"required": [x for x in s if isinstance(x, str)]})
            else:
                then = synthetic(node.side, s) if node.syn is not None else Node(node.side, node.file, ptr)
            cond = Cond(node, ptr, if_, then, None, kw)
            if cond.marker not in c.done:
                c.conds.append(cond)

    def _unevaluated(self, c: Canon, node: Node, v: dict, kw: str) -> None:
        """``unevaluatedProperties``/``unevaluatedItems`` as an extra clause, exact only when the
        annotations come from ``properties``-like keywords of this node and its ``allOf``/``$ref``
        closure (JSON Schema 2020-12 section 11); otherwise undecided."""
        side = self.side(node)
        closure: list[tuple[Node, dict]] = []
        stack, seen = [node], set()
        while stack:
            n = stack.pop()
            if n in seen:
                continue
            seen.add(n)
            val = side.value(n)
            if not isinstance(val, dict):
                continue
            closure.append((n, val))
            for i, _ in enumerate(val.get("allOf", []) if isinstance(val.get("allOf"), list) else []):
                stack.append(Node(n.side, n.file, join(n.ptr, "allOf", i)))
            if isinstance(val.get("$ref"), str):
                try:
                    stack.append(side.resolve_ref(n, val["$ref"]))
                except Unresolvable:
                    pass
        ptr = join(node.ptr, kw)
        risky = ("anyOf", "oneOf", "if", "dependentSchemas", "$dynamicRef", "$recursiveRef")
        if any(k in val for _, val in closure for k in risky):
            c.undecided.append((node, ptr, f"{kw} next to anyOf/oneOf/if/dependentSchemas "
                                           "depends on annotations this engine does not track"))
            return
        others = [val for n, val in closure if n != node]
        if any(kw in val for val in others):
            return  # an adjacent unevaluated* evaluates every member/item first: no effect here
        target = child(node, v, kw)
        d = side.dialect(node)
        if kw == "unevaluatedProperties":
            if any("additionalProperties" in val for _, val in closure):
                return
            clause = ObjClause(node, add=target)
            for _n, val in closure:
                for name in val.get("properties", {}) if isinstance(val.get("properties"), dict) else {}:
                    clause.props[name] = synthetic(node.side, True)
                for pat in val.get("patternProperties", {}) if isinstance(val.get("patternProperties"), dict) else {}:
                    clause.pats[pat] = synthetic(node.side, True)
            c.obj.append(clause)
            return
        # unevaluatedItems: which items do the adjacent keywords evaluate, by dialect
        # (2020-12: prefixItems, items; 2019-09: items as array or schema, additionalItems)
        holders = [(n, val) for n, val in closure if "contains" in val]
        rest = target
        if holders:
            # 2020-12: items matched by contains are evaluated; with unevaluatedItems false every
            # item past the tuple must match the one contains schema
            if d < D2020 or len(holders) > 1 or v.get(kw) not in (False, {"not": {}}):
                c.undecided.append((node, ptr, "unevaluatedItems next to contains is compared only "
                                               "as false beside one 2020-12 contains"))
                return
            rest = child(holders[0][0], holders[0][1], "contains")
        n_prefix = 0
        for _, val in closure:
            if d >= D2020:
                if "items" in val:
                    return  # every item evaluated
                pre = val.get("prefixItems")
            else:
                items = val.get("items")
                if items is not None and not isinstance(items, list):
                    return
                if isinstance(items, list) and "additionalItems" in val:
                    return
                pre = items
            if isinstance(pre, list):
                n_prefix = max(n_prefix, len(pre))
        c.arr.append(ArrClause(node, [synthetic(node.side, True)] * n_prefix, rest))


ALL_TYPES = frozenset({"null", "boolean", "integer", "number", "string", "array", "object"})


_NO = object()


def _number_spellings(x: Any) -> tuple[Any, ...]:
    if type(x) is float and x.is_integer():
        return (x, int(x))
    if type(x) is int:
        try:
            f = float(x)
        except OverflowError:
            return (x,)
        return (x, f) if f == x else (x,)
    return (x,)


SPELLING_LIMIT = 6
"""Integral numbers inside one container value whose spellings are all combined (2**6 documents);
past it :func:`spellings` gives a sample and :func:`spellings_sampled` says so."""


def _integral_count(x: Any, stop: int) -> int:
    n, stack = 0, [x]
    while stack and n <= stop:
        v = stack.pop()
        if isinstance(v, dict):
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)
        elif len(_number_spellings(v)) > 1:
            n += 1
    return n


def _respell(x: Any, choose: Any) -> Any:
    """``x`` with each integral number ``v`` replaced by ``choose(v)`` (document order)."""
    if isinstance(x, dict):
        return {k: _respell(v, choose) for k, v in x.items()}
    if isinstance(x, list):
        return [_respell(v, choose) for v in x]
    return choose(x) if len(_number_spellings(x)) > 1 else x


def spellings(x: Any) -> tuple[Any, ...]:
    """The documents one ``enum``/``const`` value ``x`` stands for, ``x`` first: an integral
    number also as its other spelling (``1`` and ``1.0``, when a float holds it exactly), and
    an array or object with every combination of its members' spellings. They are one value to
    ``enum`` (JSON Schema equality) and different documents to draft-04's ``integer``, which
    accepts only ``1`` (:attr:`Canon.int_literal`); so a check of the values of an ``enum``
    against a schema goes through each. Past :data:`SPELLING_LIMIT` integral numbers in one
    value: ``x``, every one written as an integer, and every one as a float (a sample)."""
    if not isinstance(x, (dict, list)):
        return _number_spellings(x)
    n = _integral_count(x, SPELLING_LIMIT)
    if n == 0:
        return (x,)
    if n > SPELLING_LIMIT:
        return (x, _respell(x, int), _respell(x, float))
    out = [x]
    for bits in range(2 ** n):
        it = iter(range(n))
        out.append(_respell(x, lambda v, bits=bits, it=it: float(v) if bits >> next(it) & 1 else int(v)))
    return tuple(out)


def spellings_sampled(x: Any) -> bool:
    """Whether :func:`spellings` of ``x`` is a sample, not every document ``x`` stands for."""
    return isinstance(x, (dict, list)) and _integral_count(x, SPELLING_LIMIT) > SPELLING_LIMIT


def _settle(c: Canon) -> None:
    """Normalise a built canon: ``enum`` values its other ``type``/``not`` constraints reject are
    dropped, and a canon with no type or no value left accepts nothing."""
    if c.types is not None and not c.types:
        c.false = True
    if c.enum_keys is not None:
        kept: dict[str, Any] = {}
        admits = c.admits
        for k, v in c.enum_keys.items():  # a value stays when one of its spellings is admitted
            if type(v) is str:  # one spelling (the common case: enums of hundreds of names)
                if admits(v, k):
                    kept[k] = v
                continue
            s = next((s for s in _number_spellings(v) if admits(s, k)), _NO)
            if s is not _NO:
                kept[k] = s
        if len(kept) != len(c.enum_keys) or any(type(kept[k]) is not type(c.enum_keys[k]) for k in kept):
            c.enum_keys, c.enum = kept, list(kept.values())
        if not kept:
            c.false = True


def _atoms(n: Canon, inline: Any) -> list[tuple[str, Any]] | None:
    """The invertible atoms of canon ``n`` (``None`` when ``n`` holds anything else): ``("type",
    types)``, ``("enum", values)``, ``("excluded", values)``, ``("lo"|"hi", Bound)``,
    ``("minLength"|"maxLength", n)``, ``("pattern"|"neg_pattern", regex)``, ``("required", name)``,
    ``("prop", (name, schema))`` for each ``properties`` entry of a clause without
    ``patternProperties``/``additionalProperties`` whose schema ``inline(node)`` can copy."""
    props: list[tuple[str, Any]] = []
    for cl in n.obj:
        if cl.pats or cl.add is not None:
            return None
        for name, node in cl.props.items():
            value = inline(node)
            if value is None:
                return None
            props.append(("prop", (name, value)))
    if (n.groups or n.conds or n.nots or n.negs or n.arr or n.contains or n.prop_names
            or n.mult or n.formats or n.undecided or n.unique or n.min_items or n.max_items
            or n.min_props or n.max_props or n.int_literal):
        return None
    atoms: list[tuple[str, Any]] = []
    if n.types is not None:
        if "integer" in n.types and "number" not in n.types:
            return None  # "a number that is not an integer" has no type keyword
        atoms.append(("type", n.types))
    if n.enum_keys is not None:
        atoms.append(("enum", dict(n.enum_keys)))
    if n.excluded:
        atoms.append(("excluded", dict(n.excluded)))
    atoms += [(k, b) for k, b in (("lo", n.lo), ("hi", n.hi)) if b is not None]
    if n.min_len:
        atoms.append(("minLength", n.min_len.value))
    if n.max_len:
        atoms.append(("maxLength", n.max_len.value))
    atoms += [("pattern", p) for p, _, _ in n.patterns] + [("neg_pattern", p) for p, _, _ in n.neg_patterns]
    atoms += [("required", r) for r in sorted(n.required)]
    return atoms + props


def _atom_schema(kind: str, value: Any) -> Any:
    """A schema accepting exactly the instances that atom ``(kind, value)`` rejects."""
    if kind == "type":
        rest = ALL_TYPES - value - ({"integer"} if "number" in value else set())
        return {"type": sorted(rest)} if rest else False
    if kind == "enum":
        return {"not": {"enum": list(value.values())}}
    if kind == "excluded":
        return {"enum": list(value.values())}
    if kind in ("lo", "hi"):
        x = int(value.value) if value.value.denominator == 1 else float(value.value)
        if kind == "lo":
            return {"type": "number", ("maximum" if value.excl else "exclusiveMaximum"): x}
        return {"type": "number", ("minimum" if value.excl else "exclusiveMinimum"): x}
    if kind == "minLength":
        return {"type": "string", "maxLength": value - 1}
    if kind == "maxLength":
        return {"type": "string", "minLength": value + 1}
    if kind == "pattern":
        return {"type": "string", "not": {"pattern": value}}
    if kind == "neg_pattern":
        return {"type": "string", "pattern": value}
    if kind == "prop":  # a member present whose value the member's schema rejects
        name, schema = value
        return {"type": "object", "required": [name], "properties": {name: {"not": schema}}}
    return {"type": "object", "properties": {value: False}}  # required


INLINE_KEYWORDS = frozenset({"type", "enum", "const", "minLength", "maxLength", "pattern", "format",
                             "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
                             "required", "properties", "patternProperties", "additionalProperties",
                             "propertyNames", "minProperties", "maxProperties", "not", "items", "minItems",
                             "maxItems", "uniqueItems", "contains", "minContains", "maxContains"}) \
    | (ANNOTATIONS - {"$id", "id", "$anchor", "$dynamicAnchor", "$recursiveAnchor", "$schema"})
"""Keywords a schema copied inline into a synthetic node may use (see :func:`_inlinable`)."""

_INLINE_SUBSCHEMAS = ("not", "items", "additionalProperties", "propertyNames", "contains")


def _inlinable(v: Any, d: int) -> bool:
    """Whether schema ``v`` of dialect ``d`` means the same copied into a synthetic (2020-12)
    node: booleans, and objects whose keywords are :data:`INLINE_KEYWORDS` read by dialect ``d``
    (or keywords neither dialect reads), whose subschemas are inlinable, with no draft-04 boolean
    exclusive bound or ``integer`` type (``1.0`` differs there), no tuple ``items``, and no
    ``format`` asserted in one dialect and not the other."""
    if isinstance(v, bool):
        return True
    if not isinstance(v, dict):
        return False
    kd, k20 = keywords_of(d), keywords_of(D2020)
    for k in v:
        if (k not in kd) if k in INLINE_KEYWORDS else (k in kd or k in k20):
            return False
    if d == D4 and ("exclusiveMinimum" in v or "exclusiveMaximum" in v or "integer" in str(v.get("type"))):
        return False
    if "format" in v and (v["format"] in asserted_formats(d)) != (v["format"] in asserted_formats(D2020)):
        return False
    if any(k in v and not _inlinable(v[k], d) for k in _INLINE_SUBSCHEMAS):
        return False
    maps = [v.get(k, {}) for k in ("properties", "patternProperties")]
    return all(isinstance(m, dict) and all(_inlinable(x, d) for x in m.values()) for m in maps)


def _relative(owner: Node, at: str) -> str:
    """A split marker's second half (a keyword, or a pointer below ``owner``) relative to ``owner``."""
    return at[len(owner.ptr):] if owner.syn is None and at.startswith(owner.ptr + "/") else at


def child(node: Node, value: Any, *path: str | int) -> Node:
    """The node of the subschema at ``path`` inside ``node`` (whose schema is ``value``): a
    pointer below ``node``'s, or for a synthetic node a synthetic node of the inline value."""
    if node.syn is None:
        return Node(node.side, node.file, join(node.ptr, *path))
    for key in path:
        value = value[key]
    return synthetic(node.side, value)


def accepts_all(schema: Any) -> bool:
    """Whether ``schema`` accepts every instance by its form alone: ``true``, ``{}``, or an
    object of annotations only (no assertion, applicator or reference)."""
    return schema is True or (isinstance(schema, dict) and all(k in ANNOTATIONS for k in schema))


PLAIN_KEYWORDS = frozenset({"type", "enum", "const", "$ref", "allOf", "minLength", "maxLength"})
"""Keywords whose effect :meth:`Canon.admits` reads off the canon exactly (with ``pattern``:
:func:`_reads_off`)."""


def _reads_off(keyword: str, value: Any) -> bool:
    """Whether ``keyword`` (with ``value``) is read off a canon exactly: one of
    :data:`PLAIN_KEYWORDS`, or a ``pattern`` both validators read as ECMA-262
    (:func:`~evalport_spec.ecmaregex.jsonschema_rs_reads_alike`)."""
    return keyword in PLAIN_KEYWORDS or (keyword == "pattern" and isinstance(value, str)
                                         and reads_alike(value))


def json_equal(a: Any, b: Any) -> bool:
    """Equality of JSON values as JSON Schema defines it (numbers by value, bool is not 0/1)."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(json_equal(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(json_equal(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b


PURE_ANNOTATIONS = frozenset({"title", "description", "default", "examples", "$comment", "deprecated",
                              "readOnly", "writeOnly"})
"""Annotations that neither identify nor hold subschemas: the only keywords :func:`alike`
lets differ."""


def alike(a: Any, b: Any) -> bool:
    """Whether schemas ``a`` and ``b`` are written the same way but for the values of
    :data:`PURE_ANNOTATIONS` in their schema objects (subschemas found where
    :func:`~.nodes.subschemas` finds them; every other value compared as JSON text, ``1`` and
    ``1.0`` apart). Two schema sets alike file by file accept the same instances at every
    pointer, ``$ref`` targets included."""
    if not isinstance(a, dict) or not isinstance(b, dict):
        return _same_json(a, b)
    keys = a.keys() - PURE_ANNOTATIONS
    if keys != b.keys() - PURE_ANNOTATIONS:
        return False
    for k in keys:
        x, y = a[k], b[k]
        if k in MAPS or (k == "dependencies" and isinstance(x, dict)):
            if not isinstance(x, dict) or not isinstance(y, dict) or x.keys() != y.keys() \
                    or not all(alike(x[n], y[n]) for n in x):
                return False
        elif k in LISTS or (k == "items" and isinstance(x, list)):
            if not isinstance(x, list) or not isinstance(y, list) or len(x) != len(y) \
                    or not all(alike(u, v) for u, v in zip(x, y, strict=True)):
                return False
        elif k in SINGLE or k == "items":
            if not alike(x, y):
                return False
        elif not _same_json(x, y):
            return False
    return True


def _same_json(a: Any, b: Any) -> bool:
    """The same JSON value written the same way (types included: ``1`` is not ``1.0``)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same_json(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_same_json(x, y) for x, y in zip(a, b, strict=True))
    return a == b


def _is_num(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def _is_int(x: Any) -> bool:
    return _is_num(x) and x == int(x)
