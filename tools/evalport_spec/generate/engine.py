"""Building instances from facets: one builder per JSON type.

:class:`Engine` extends :class:`~.walk.Walker` with :meth:`Engine.values`, a lazy stream of
candidate instances for a conjunction of schema nodes. Each candidate is checked against every
node with the real validator before it is yielded, so a stream only carries locally valid values;
builders for objects and arrays draw their members from the streams of the member schemas.
Keywords honoured while building (JSON Schema 2020-12 Validation, sections 6 and 7; Core,
section 10): ``type``, ``const``, ``enum``, ``not`` (type and ``required`` exclusions as hints),
numeric bounds and ``multipleOf``, ``minLength``/``maxLength``/``pattern``/``format``,
``items``/``prefixItems``/``additionalItems``/``contains``/``minContains``/``minItems``/
``maxItems``/``uniqueItems``/``unevaluatedItems``, ``properties``/``patternProperties``/
``additionalProperties``/``required``/``minProperties``/``maxProperties``/``propertyNames``/
``dependentRequired``/``dependentSchemas``/``dependencies``/``unevaluatedProperties``,
``examples`` and ``default`` as a last resort.
"""

from __future__ import annotations

import copy
import json
import math
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

from .strings import FORMAT_SAMPLES, STRING_POOL, pattern_matches, regex_sample
from .walk import Node, Walker

ALL_TYPES = ["null", "boolean", "integer", "number", "string", "array", "object"]
_HINTS = {
    "object": ("properties", "required", "additionalProperties", "patternProperties", "minProperties",
               "maxProperties", "propertyNames", "dependentRequired", "dependentSchemas",
               "unevaluatedProperties", "dependencies"),
    "array": ("items", "prefixItems", "additionalItems", "contains", "minItems", "maxItems",
              "uniqueItems", "unevaluatedItems", "minContains", "maxContains"),
    "string": ("minLength", "maxLength", "pattern", "format"),
    "integer": ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"),
}
EXTRA_NAMES = ["extra", "note", "same", "x-1"]
"""Member names tried for additional properties on open objects."""

_PER_CALL = {"min": 60, "rand": 4}


class _Nothing:
    """The 'no instance' sentinel (falsy, a singleton, compares by identity)."""

    _instance: _Nothing | None = None

    def __new__(cls) -> _Nothing:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "NOTHING"

    def __bool__(self) -> bool:
        return False

    def __copy__(self) -> _Nothing:
        return self

    def __deepcopy__(self, memo: Any) -> _Nothing:
        return self


NOTHING = _Nothing()


def canonical(value: Any) -> str:
    """A text key equal for JSON-equal values (``1`` and ``1.0`` alike, ``true`` and ``1`` not),
    as JSON Schema defines equality for ``const``/``enum``/``uniqueItems`` (Validation 4.2.2)."""
    return json.dumps(_norm(value), sort_keys=True, ensure_ascii=False)


def _norm(v: Any) -> Any:
    if isinstance(v, bool) or v is None or isinstance(v, (str, int)):
        return v
    if isinstance(v, float):
        return int(v) if v.is_integer() and abs(v) < 2**53 else v
    if isinstance(v, dict):
        return {k: _norm(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_norm(x) for x in v]
    return repr(v)


_ANNOTATIONS = frozenset({"description", "title", "$comment", "examples", "default"})


def _keys(schema: dict[str, Any]) -> set[str]:
    """The keywords of ``schema`` other than annotations."""
    return set(schema) - _ANNOTATIONS


def json_type_ok(value: Any, allowed: list[str]) -> bool:
    """``True`` if ``value``'s JSON type is in ``allowed`` (``integer`` counts as ``number``)."""
    if value is None:
        return "null" in allowed
    if isinstance(value, bool):
        return "boolean" in allowed
    if isinstance(value, int) or (isinstance(value, float) and value.is_integer()):
        return "integer" in allowed or "number" in allowed
    if isinstance(value, float):
        return "number" in allowed
    if isinstance(value, str):
        return "string" in allowed
    if isinstance(value, list):
        return "array" in allowed
    if isinstance(value, dict):
        return "object" in allowed
    return False


class Engine(Walker):
    """Candidate instances for conjunctions of schema nodes (see the module docstring)."""

    # -- the stream ----------------------------------------------------------------------------
    def values(self, nodes: list[Node], depth: int) -> Iterator[Any]:
        """Lazily yield distinct instances valid under every node of ``nodes``.

        ``depth`` is how many more container levels may be built below this one; at ``depth``
        0 only scalars and empty containers are produced. Raises :class:`~.walk.Exhausted` when
        the step budget runs out.
        """
        self.tick()
        seen: set[str] = set()
        limit = _PER_CALL[self.mode]
        for facets in self.alternatives(nodes):
            for v in self.build(facets, depth):
                self.tick()
                key = canonical(v)
                if key in seen:
                    continue
                seen.add(key)
                if self.valid_all(v, nodes):
                    yield v
                    limit -= 1
                    if limit <= 0:
                        return

    def first(self, nodes: list[Node], depth: int) -> Any:
        """The first value of :meth:`values`, or :data:`NOTHING`."""
        return next(self.values(nodes, depth), NOTHING)

    # -- dispatch ------------------------------------------------------------------------------
    def build(self, facets: list[Node], depth: int) -> Iterator[Any]:
        """Candidates (not yet checked) for the conjunction of ``facets`` (dict nodes only)."""
        enum = self._enum(facets)
        allowed = self._types(facets)
        if enum is not None:
            for v in self.order(enum):
                if json_type_ok(v, allowed):
                    yield copy.deepcopy(v)
            return
        for t in self._type_order(facets, allowed):
            if t == "null":
                yield None
            elif t == "boolean":
                yield from self.order([False, True])
            elif t == "integer":
                yield from self._numbers(facets, integer=True)
            elif t == "number":
                yield from self._numbers(facets, integer=False)
            elif t == "string":
                yield from self._strings(facets)
            elif t == "array":
                yield from self._arrays(facets, depth)
            elif t == "object":
                yield from self._objects(facets, depth, frozenset())
        for f in facets:
            for v in (f.schema.get("examples") or []) if isinstance(f.schema.get("examples"), list) else []:
                yield copy.deepcopy(v)
            if "default" in f.schema:
                yield copy.deepcopy(f.schema["default"])

    def _enum(self, facets: list[Node]) -> list[Any] | None:
        sets: list[list[Any]] = []
        for f in facets:
            s = f.schema
            if "const" in s and f.level >= 6:
                sets.append([s["const"]])
            if isinstance(s.get("enum"), list):
                sets.append(s["enum"])
        if not sets:
            return None
        out = sets[0]
        for other in sets[1:]:
            keys = {canonical(x) for x in other}
            out = [x for x in out if canonical(x) in keys]
        excluded = set()
        for f in facets:
            neg = f.schema.get("not")
            if isinstance(neg, dict) and _keys(neg) == {"const"}:
                excluded.add(canonical(neg["const"]))
            if isinstance(neg, dict) and _keys(neg) == {"enum"} and isinstance(neg["enum"], list):
                excluded.update(canonical(x) for x in neg["enum"])
        return [x for x in out if canonical(x) not in excluded]

    @staticmethod
    def _types(facets: list[Node]) -> list[str]:
        allowed = set(ALL_TYPES)
        for f in facets:
            t = f.schema.get("type")
            if t is None:
                continue
            ts = set(t if isinstance(t, list) else [t])
            if "number" in ts:
                ts.add("integer")
            allowed &= ts
        for f in facets:
            neg = f.schema.get("not")
            if isinstance(neg, dict) and _keys(neg) == {"type"}:
                nt = neg["type"]
                nts = set(nt if isinstance(nt, list) else [nt])
                if "number" in nts:
                    nts.add("integer")
                allowed -= nts
        return [t for t in ALL_TYPES if t in allowed]

    def _type_order(self, facets: list[Node], allowed: list[str]) -> list[str]:
        present = {k for f in facets for k in f.schema}
        hinted = [t for t in ("string", "integer", "array", "object") if not present.isdisjoint(_HINTS[t])]
        if "integer" in hinted:
            hinted.append("number")
        first = [t for t in hinted if t in allowed]
        rest = [t for t in allowed if t not in first]
        if self.mode == "min":
            return first + rest
        if first and self.rng.random() < 0.85:
            return self.order(first) + self.order(rest)
        return self.order(allowed)

    # -- numbers -------------------------------------------------------------------------------
    def _numbers(self, facets: list[Node], integer: bool) -> Iterator[Any]:
        lo: Fraction | None = None
        hi: Fraction | None = None
        lo_ex = hi_ex = False
        step: Fraction | None = None
        for f in facets:
            s = f.schema
            for key, is_lo in (("minimum", True), ("maximum", False),
                               ("exclusiveMinimum", True), ("exclusiveMaximum", False)):
                val = s.get(key)
                if isinstance(val, bool) or not isinstance(val, (int, float)):
                    continue
                ex = key.startswith("exclusive")
                if f.level == 4 and not ex:
                    ex = s.get("exclusiveMinimum" if is_lo else "exclusiveMaximum") is True
                fv = Fraction(val)
                if is_lo and (lo is None or fv > lo or (fv == lo and ex)):
                    lo, lo_ex = fv, ex
                if not is_lo and (hi is None or fv < hi or (fv == hi and ex)):
                    hi, hi_ex = fv, ex
            m = s.get("multipleOf")
            if isinstance(m, (int, float)) and not isinstance(m, bool) and m > 0:
                fm = Fraction(str(m)) if isinstance(m, float) else Fraction(m)
                step = fm if step is None else Fraction(math.lcm(step.numerator, fm.numerator),
                                                        math.gcd(step.denominator, fm.denominator))
        if integer:
            int_step = None if step is None else Fraction(step.numerator)  # integer multiples of p/q
            step = int_step
            lo_i = None if lo is None else (math.floor(lo) + 1 if lo_ex else math.ceil(lo))
            hi_i = None if hi is None else (math.ceil(hi) - 1 if hi_ex else math.floor(hi))
            lo, hi, lo_ex, hi_ex = (None if lo_i is None else Fraction(lo_i),
                                    None if hi_i is None else Fraction(hi_i), False, False)
        if lo is not None and hi is not None and (lo > hi or (lo == hi and (lo_ex or hi_ex))):
            return

        def inside(x: Fraction) -> bool:
            if lo is not None and (x < lo or (lo_ex and x == lo)):
                return False
            return not (hi is not None and (x > hi or (hi_ex and x == hi)))

        seeds: list[Fraction] = [Fraction(0)]
        if lo is not None:
            seeds += [lo, lo + 1]
        if hi is not None:
            seeds += [hi, hi - 1]
        if lo is not None and hi is not None:
            seeds.append((lo + hi) / 2)
        seeds += [Fraction(1), Fraction(-1), Fraction(7), Fraction(-13), Fraction(1000)]
        if not integer:
            seeds += [Fraction(1, 2), Fraction(-9, 4), Fraction(3, 2)]
            if lo is not None:
                seeds += [lo + Fraction(1, 2), lo + Fraction(1, 1000)]
            if hi is not None:
                seeds += [hi - Fraction(1, 2), hi - Fraction(1, 1000)]
        if self.mode == "rand":
            base = lo if lo is not None else (hi - 100 if hi is not None else Fraction(-100))
            span = (hi - base) if hi is not None else Fraction(200)
            seeds.append(base + span * Fraction(self.rng.randint(0, 1000), 1000))
        out: list[Fraction] = []
        for x in seeds:
            if step is not None:
                k = math.ceil(x / step)
                cands = [k * step, (k + 1) * step, (k - 1) * step]
            else:
                cands = [x]
            for c in cands:
                if inside(c) and c not in out:
                    out.append(c)
        if self.mode == "min":
            out.sort(key=lambda c: (abs(c), c < 0))
        else:
            out = self.order(out)
        for c in out:
            if c.denominator == 1 and (integer or abs(c) < 2**53):
                yield int(c)
            else:
                f = float(c)
                if math.isfinite(f):
                    yield f

    # -- strings -------------------------------------------------------------------------------
    def _strings(self, facets: list[Node]) -> Iterator[str]:
        min_len, max_len = 0, None
        patterns: list[str] = []
        formats: list[str] = []
        extras: list[str] = []
        for f in facets:
            s = f.schema
            if isinstance(s.get("minLength"), int):
                min_len = max(min_len, s["minLength"])
            if isinstance(s.get("maxLength"), int):
                max_len = s["maxLength"] if max_len is None else min(max_len, s["maxLength"])
            if isinstance(s.get("pattern"), str):
                patterns.append(s["pattern"])
            if isinstance(s.get("format"), str):
                formats.append(s["format"])
            for key in ("examples",):
                if isinstance(s.get(key), list):
                    extras += [x for x in s[key] if isinstance(x, str)]
            if isinstance(s.get("default"), str):
                extras.append(s["default"])
        if max_len is not None and min_len > max_len:
            return
        cands: list[str] = []
        for fmt in formats:
            cands += FORMAT_SAMPLES.get(fmt, [])
        for p in patterns:
            base = regex_sample(p)
            if base is None:
                continue
            cands.append(base)
            for extra in (1, 2, 4, max(0, min_len - len(base))):
                more = regex_sample(p, extra=extra)
                if more is not None:
                    cands.append(more)
            if self.mode == "rand":
                cands += [x for x in (regex_sample(p, self.rng) for _ in range(4)) if x is not None]
            if len(base) < min_len:
                pad = min_len - len(base)
                cands += [base + "a" * pad, "a" * pad + base, base + "0" * pad]
        if not patterns and not formats:
            cands += ["a" * min_len, "b" * min_len if min_len else "b"]
            cands += STRING_POOL
            if max_len is not None and max_len <= 4096:
                cands.append("z" * max_len)
            cands.append("c" * (min_len + 1))
        cands += extras
        ok: list[str] = []
        seen: set[str] = set()
        for c in cands:
            if c in seen:
                continue
            seen.add(c)
            n = len(c)
            if n < min_len or (max_len is not None and n > max_len):
                continue
            if not all(pattern_matches(p, c) for p in patterns):
                continue
            if self.format_checker is not None and not all(
                    self.format_checker.conforms(c, fmt) for fmt in formats):
                continue
            ok.append(c)
        if self.mode == "min":
            ok.sort(key=len)
        yield from self.order(ok)

    # -- arrays --------------------------------------------------------------------------------
    @staticmethod
    def _prefix(f: Node) -> list[Any]:
        s = f.schema
        if f.level >= 2020:
            return s.get("prefixItems") if isinstance(s.get("prefixItems"), list) else []
        return s.get("items") if isinstance(s.get("items"), list) else []

    @staticmethod
    def _rest(f: Node) -> Any:
        s = f.schema
        if f.level >= 2020:
            return s.get("items")
        if isinstance(s.get("items"), list):
            return s.get("additionalItems")
        return s.get("items")

    def _item_nodes(self, facets: list[Node], i: int) -> list[Node]:
        out: list[Node] = []
        covered = False
        for f in facets:
            p = self._prefix(f)
            if i < len(p):
                out.append(f.child(p[i]))
                covered = True
            else:
                r = self._rest(f)
                if r is not None:
                    out.append(f.child(r))
                    covered = True
        if not covered:
            out += [f.child(f.schema["unevaluatedItems"]) for f in facets
                    if f.level >= 2019 and "unevaluatedItems" in f.schema]
        return out

    def _arrays(self, facets: list[Node], depth: int) -> Iterator[list[Any]]:
        min_items, max_items, unique = 0, None, False
        contains: list[tuple[Node, int]] = []
        for f in facets:
            s = f.schema
            if isinstance(s.get("minItems"), int):
                min_items = max(min_items, s["minItems"])
            if isinstance(s.get("maxItems"), int):
                max_items = s["maxItems"] if max_items is None else min(max_items, s["maxItems"])
            unique = unique or s.get("uniqueItems") is True
            if "contains" in s and f.level >= 6:
                mc = s.get("minContains", 1) if f.level >= 2019 else 1
                contains.append((f.child(s["contains"]), mc if isinstance(mc, int) else 1))
        need_contains = max((mc for _, mc in contains), default=0)
        need = max(min_items, need_contains)
        if max_items is not None and need > max_items:
            return
        if need > 0 and depth <= 0:
            return
        if depth <= 0:
            yield []
            return
        cap = need + 3 if max_items is None else min(max_items, need + 3)
        if self.mode == "min" or depth <= 1:
            lengths = list(range(need, min(cap, need + 2) + 1))
        else:
            lengths = [self.rng.randint(need, cap), need]
        for length in lengths:
            items: list[Any] = []
            for i in range(length):
                nodes = self._item_nodes(facets, i)
                if i < need_contains:
                    nodes = nodes + [n for n, mc in contains if i < mc]
                value = NOTHING
                for tries, v in enumerate(self.values(nodes, depth - 1)):
                    if unique and any(canonical(v) == canonical(x) for x in items):
                        if tries > 20:
                            break
                        continue
                    value = v
                    break
                if value is NOTHING:
                    break
                items.append(value)
            else:
                if (self.mode == "rand" and not unique and items and self.rng.random() < 0.4
                        and (max_items is None or len(items) < max_items)):
                    items.append(copy.deepcopy(self.rng.choice(items)))
                yield items

    # -- objects -------------------------------------------------------------------------------
    def _objects(self, facets: list[Node], depth: int, applied: frozenset[int]) -> Iterator[dict[str, Any]]:
        view = _ObjectView(self, facets)
        if view.min_props is not None and view.max_props is not None and view.min_props > view.max_props:
            return
        for names in self._name_sets(view, depth):
            if not all(view.allowed(n) for n in view.required):
                return
            names = [n for n in names if view.allowed(n)]
            if len(names) < view.min_props or (view.max_props is not None and len(names) > view.max_props):
                continue
            if names and depth <= 0:
                continue
            deps = [(name, node) for name, node in view.dep_schemas
                    if name in names and id(node.schema) not in applied]
            if deps:
                more = applied | {id(n.schema) for _, n in deps}
                for alt in self.alternatives(facets + [n for _, n in deps]):
                    yield from self._objects(alt, depth, more)
                return
            obj: dict[str, Any] = {}
            for name in names:
                v = self.first(view.schemas_for(name), depth - 1)
                if v is NOTHING:
                    if name in view.required:
                        obj = None  # type: ignore[assignment]
                        break
                    continue
                obj[name] = v
            if obj is not None:
                yield obj

    def _name_sets(self, view: _ObjectView, depth: int) -> Iterator[list[str]]:
        base = view.closure(view.required)
        optional = [n for n in view.declared if n not in base]
        if self.mode == "rand" and depth > 1:
            chosen = list(base)
            for n in optional:
                if self.rng.random() < 0.5:
                    chosen.append(n)
            for pat in view.patterns:
                if self.rng.random() < 0.4:
                    name = regex_sample(pat, self.rng)
                    if name is not None:
                        chosen.append(name)
            if view.allowed("extra") or view.allowed("note"):
                k = self.rng.choice([0, 0, 1, 2])
                chosen += self.rng.sample(EXTRA_NAMES, k)
            chosen = view.closure(chosen)
            yield self._pad(view, chosen)
        yield self._pad(view, base)
        if self.mode == "min":
            for n in optional:
                yield self._pad(view, view.closure(base + [n]))
            yield self._pad(view, view.closure(base + optional))

    def _pad(self, view: _ObjectView, names: list[str]) -> list[str]:
        names = list(dict.fromkeys(names))
        if len(names) >= view.min_props:
            if view.max_props is not None and len(names) > view.max_props:
                keep = [n for n in names if n in view.required]
                keep += [n for n in names if n not in keep][: max(0, view.max_props - len(keep))]
                names = keep
            return names
        pool = [n for n in view.declared if n not in names]
        pool += [x for x in (regex_sample(p) for p in view.patterns) if x is not None]
        pool += EXTRA_NAMES + [f"k{i}" for i in range(view.min_props)]
        for n in pool:
            if len(names) >= view.min_props:
                break
            if n not in names and view.allowed(n):
                names = view.closure(names + [n])
        return names


class _ObjectView:
    """The object keywords of a facet list, merged (properties by name, required as a union)."""

    def __init__(self, engine: Engine, facets: list[Node]) -> None:
        self.engine = engine
        self.facets = facets
        self.required: list[str] = []
        self.declared: list[str] = []
        self.patterns: list[str] = []
        self.min_props = 0
        self.max_props: int | None = None
        self.dep_required: dict[str, list[str]] = {}
        self.dep_schemas: list[tuple[str, Node]] = []
        self.forbidden: set[str] = set()
        self.name_nodes: list[Node] = []
        self._cache: dict[str, list[Node]] = {}
        self._allowed: dict[str, bool] = {}
        for f in facets:
            s = f.schema
            for r in s.get("required", []) if isinstance(s.get("required"), list) else []:
                if r not in self.required:
                    self.required.append(r)
            for k in s.get("properties", {}) if isinstance(s.get("properties"), dict) else {}:
                if k not in self.declared:
                    self.declared.append(k)
            if isinstance(s.get("patternProperties"), dict):
                self.patterns += list(s["patternProperties"])
            if isinstance(s.get("minProperties"), int):
                self.min_props = max(self.min_props, s["minProperties"])
            if isinstance(s.get("maxProperties"), int):
                mp = s["maxProperties"]
                self.max_props = mp if self.max_props is None else min(self.max_props, mp)
            deps: dict[str, Any] = {}
            if f.level >= 2019:
                deps.update(s.get("dependentRequired") or {})
                deps.update(s.get("dependentSchemas") or {})
            elif isinstance(s.get("dependencies"), dict):
                deps.update(s["dependencies"])
            for name, dep in deps.items():
                if isinstance(dep, list):
                    self.dep_required.setdefault(name, []).extend(dep)
                else:
                    self.dep_schemas.append((name, f.child(dep)))
            if "propertyNames" in s and f.level >= 6:
                self.name_nodes.append(f.child(s["propertyNames"]))
            neg = s.get("not")
            if isinstance(neg, dict):
                subs = neg.get("anyOf") if _keys(neg) == {"anyOf"} and isinstance(neg["anyOf"], list) else [neg]
                for sub in subs:
                    if (isinstance(sub, dict) and _keys(sub) == {"required"}
                            and isinstance(sub["required"], list) and len(sub["required"]) == 1):
                        self.forbidden.add(sub["required"][0])

    def closure(self, names: list[str]) -> list[str]:
        """``names`` plus every member they require through ``dependentRequired``."""
        out = list(dict.fromkeys(names))
        i = 0
        while i < len(out):
            for d in self.dep_required.get(out[i], []):
                if d not in out:
                    out.append(d)
            i += 1
        return out

    def schemas_for(self, name: str) -> list[Node]:
        """The nodes a member called ``name`` must satisfy (Core 10.3.2: ``properties``,
        ``patternProperties``, else ``additionalProperties``; else ``unevaluatedProperties``)."""
        if name in self._cache:
            return self._cache[name]
        out: list[Node] = []
        evaluated = False
        for f in self.facets:
            s = f.schema
            matched = False
            props = s.get("properties")
            if isinstance(props, dict) and name in props:
                out.append(f.child(props[name]))
                matched = True
            pats = s.get("patternProperties")
            if isinstance(pats, dict):
                for pat, sub in pats.items():
                    if pattern_matches(pat, name):
                        out.append(f.child(sub))
                        matched = True
            if matched:
                evaluated = True
            elif "additionalProperties" in s:
                out.append(f.child(s["additionalProperties"]))
                evaluated = True
        if not evaluated:
            out += [f.child(f.schema["unevaluatedProperties"]) for f in self.facets
                    if f.level >= 2019 and "unevaluatedProperties" in f.schema]
        self._cache[name] = out
        return out

    def allowed(self, name: str) -> bool:
        """``True`` unless a ``false`` schema, ``propertyNames`` or a ``not``/``required`` forbids
        a member called ``name``."""
        if name not in self._allowed:
            self._allowed[name] = (name not in self.forbidden
                                   and not any(n.schema is False for n in self.schemas_for(name))
                                   and all(self.engine.valid(name, n) for n in self.name_nodes))
        return self._allowed[name]
