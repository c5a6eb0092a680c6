"""Candidate instances for a :class:`~evalport_spec.compat.canon.Canon`, checked with the real
validator.

:class:`Sampler` proposes values probing the edges of each constraint (bounds and their
neighbours, lengths at the limits, strings matching a ``pattern`` drawn with Hypothesis'
``from_regex``, formats, duplicates for ``uniqueItems``, objects with and without each
property) and keeps those that the real ``jsonschema`` validator accepts for every part of the
canon. Witness construction filters them further by "rejected by the new side".
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from ..canonjson import canonical
from ..ecmaregex import NotEcmaRegex, compile_ecma, search
from ..jsontypes import json_type
from .canon import Canon, Canonizer, spellings
from .nodes import Node, instance_key
from .strings import StringLangs, shortest

STRINGS = ["", "a", "abc", "A", "0", " ", "-", "x y", "\u00fc", "2024-01-02", "aaaaaaaaaa",
           "not a date", "https://example.com/x", "123e4567-e89b-12d3-a456-426614174000", "\n", "a\nb"]
NUMBERS = [0, 1, -1, 2, 3, 10, 100, 0.5, 1.5, -0.5, 2.5, 1000000, -1000000, 0.1, 7]

_UNSET = object()

_MAX_VERDICTS = 200_000
"""Validation verdicts :meth:`Sampler.holds` keeps (then starts over): a bound on memory."""


def _emit(f: Fraction) -> Any:
    return int(f) if f.denominator == 1 else float(f)


_MAX_PLANS = 20_000
"""Plans :meth:`Sampler.holds` keeps (then starts over): a bound on memory."""


@dataclass
class _HoldsPlan:
    """How :meth:`Sampler.holds` reads a canon's parts (``(negated, Node)`` pairs).

    Attributes:
        never: a positive part accepts nothing (``false``): no value holds.
        finite: canons of the positive parts that are finite and plain (``type`` and
            ``enum``/``const`` only, :attr:`~.canon.Canon.plain`): each must admit the value.
        excluded: canonical JSON text -> canons of the negated finite plain parts whose ``enum``
            holds it: only those can admit a value so spelled, and none may.
        other: every other part, to be validated (a negated ``false`` part is no constraint and
            is left out).
    """

    never: bool = False
    finite: list[Canon] = field(default_factory=list)
    excluded: dict[str, list[Canon]] = field(default_factory=dict)
    other: list[tuple[bool, Node]] = field(default_factory=list)

    def plain_hold(self, x: Any) -> bool:
        """Whether ``x`` passes every part but :attr:`other` (exact: a finite plain canon's
        validity is :meth:`~.canon.Canon.admits`)."""
        if self.never:
            return False
        if not self.finite and not self.excluded:
            return True
        key = canonical(x)
        return all(pc.admits(x, key) for pc in self.finite) and not any(
            pc.admits(x, key) for pc in self.excluded.get(key, ()))

    @classmethod
    def of(cls, c: Canon, canon_of: Callable[[Node], Canon]) -> _HoldsPlan:
        """The plan of canon ``c``; ``canon_of`` gives one node's canon."""
        plan = cls()
        for neg, node in c.parts:
            pc = canon_of(node)
            if pc.false:
                plan.never = plan.never or not neg
            elif pc.finite_plain:
                if neg:
                    for k in pc.enum_keys:
                        plan.excluded.setdefault(k, []).append(pc)
                else:
                    plan.finite.append(pc)
            else:
                plan.other.append((neg, node))
        return plan


class Sampler:
    """Proposes and validates instances for canons built by ``canon``.

    ``max_depth`` bounds the nesting of generated containers.
    """

    def __init__(self, canon: Canonizer, max_depth: int = 12, format_assertion: bool = True) -> None:
        self.canon = canon
        self.max_depth = max_depth
        self._one: dict[tuple, Any] = {}
        self._regex: dict[str, list[str]] = {}
        self._verdicts: dict[tuple[Node, str], bool] = {}
        self._plans: dict[tuple, _HoldsPlan] = {}
        self.strings = StringLangs(canon.side, format_assertion)

    # -- validity ----------------------------------------------------------------------------
    def valid(self, c: Canon, x: Any) -> bool:
        """Whether ``x`` satisfies every part of ``c`` (negated parts: is rejected by them), by
        jsonschema-rs where it can tell (fast; for screening candidates and witnesses, which the
        engine confirms with both validators before reporting); finite plain parts are read off
        their canons (:class:`_HoldsPlan`)."""
        plan = self._plan(c)
        if not plan.plain_hold(x):
            return False
        for neg, node in plan.other:
            if self.canon.side(node).quick_valid(node, x) == neg:
                return False
        return True

    def holds(self, c: Canon, x: Any) -> bool:
        """Whether ``x`` satisfies ``c`` as the toolchain validates (a verdict a proof may rest on:
        :meth:`~.nodes.Side.valid`). Parts that are finite and plain are read off their canons
        through :class:`_HoldsPlan` (a split ``oneOf`` case negates n constants: one look-up, not
        n); each other part's verdict on ``x`` is kept (:meth:`_held`): the case splits of a
        ``oneOf`` ask the same part about the same value once per case."""
        plan = self._plan(c)
        if not plan.plain_hold(x):
            return False
        key = instance_key(x)
        for neg, node in plan.other:
            if self._held(node, x, key) == neg:
                return False
        return True

    def _plan(self, c: Canon) -> _HoldsPlan:
        """The :class:`_HoldsPlan` of ``c``, kept by canon key (bounded by :data:`_MAX_PLANS`)."""
        plan = self._plans.get(c.key)
        if plan is None:
            if len(self._plans) >= _MAX_PLANS:
                self._plans.clear()
            plan = self._plans[c.key] = _HoldsPlan.of(c, self.canon.nodes)
        return plan

    def _held(self, node: Node, x: Any, key: str) -> bool:
        """``node``'s verdict on ``x`` (JSON text ``key``): ``False`` when the node's canon accepts
        nothing, read off the canon when it is :attr:`~.canon.Canon.plain` (``type`` and
        ``enum``/``const`` only: :meth:`~.canon.Canon.admits` is exactly its validity), else
        validated once and kept."""
        plain = self.canon.nodes(node)
        if plain.false:  # accepts nothing (``false``, ``{"not": {}}``, an empty enum after types)
            return False
        if plain.read_off:
            return plain.admits(x)
        memo = self._verdicts
        got = memo.get((node, key))
        if got is None:
            if len(memo) >= _MAX_VERDICTS:
                memo.clear()
            got = memo[(node, key)] = self.canon.side(node).valid(node, x)
        return got

    def node_valid(self, node: Node, x: Any) -> bool:
        """Whether ``x`` is valid against one node."""
        return self.canon.side(node).valid(node, x)

    # -- one valid instance ------------------------------------------------------------------
    def one(self, c: Canon, depth: int = 0) -> Any:
        """A valid instance of ``c`` or ``_UNSET`` (see :meth:`found`); one search per content
        key (:meth:`~.canon.Canonizer.content_key`: canons written alike share their instance)."""
        key = self.canon.content_key(c)
        if key in self._one:
            return self._one[key]
        self._one[key] = _UNSET  # recursion guard
        out = _UNSET
        if depth <= self.max_depth:
            for x in self.candidates(c, depth):
                if self.valid(c, x):
                    out = x
                    break
        self._one[key] = out
        return out

    @staticmethod
    def found(x: Any) -> bool:
        """Whether a value returned by :meth:`one` is a real instance."""
        return x is not _UNSET

    def many(self, c: Canon, limit: int = 20, depth: int = 0, hint: dict | None = None) -> list[Any]:
        """Up to ``limit`` distinct valid instances of ``c``."""
        out: list[Any] = []
        seen: set[str] = set()
        for x in self.candidates(c, depth, hint):
            k = repr(x)
            if k in seen:
                continue
            seen.add(k)
            if self.valid(c, x):
                out.append(x)
                if len(out) >= limit:
                    break
        return out

    # -- candidates -------------------------------------------------------------------------
    def candidates(self, c: Canon, depth: int = 0, hint: dict | None = None) -> Iterator[Any]:
        """Candidate values for ``c`` (not yet validated), most likely valid first."""
        hint = hint or {}
        if c.false:
            return
        yield from hint.get("values", ())
        if c.enum is not None:
            for v in c.enum:
                yield from spellings(v)
            return
        order = ["object", "array", "string", "integer", "number", "boolean", "null"]
        if hint.get("type") in order:
            order.remove(hint["type"])
            order.insert(0, hint["type"])
        for t in order:
            if not c.allows(t):
                continue
            if t == "null":
                yield None
            elif t == "boolean":
                yield from (True, False)
            elif t in ("integer", "number"):
                yield from self._numbers(c, t, hint)
            elif t == "string":
                yield from self._strings(c, hint)
            elif t == "array" and depth < self.max_depth:
                yield from self._arrays(c, depth, hint)
            elif t == "object" and depth < self.max_depth:
                yield from self._objects(c, depth, hint)
        for g in c.groups[:4]:
            for b in g.branches[:8]:
                sub = self.canon.of(c.parts | {(False, b)}, c.done | {g.marker})
                x = self.one(sub, depth + 1)
                if self.found(x):
                    yield x
        for cond in c.conds[:4]:
            for extra in ((cond.if_, cond.then), ):
                parts = c.parts | {(False, n) for n in extra if n is not None}
                x = self.one(self.canon.of(parts, c.done | {cond.marker}), depth + 1)
                if self.found(x):
                    yield x

    def _numbers(self, c: Canon, t: str, hint: dict) -> Iterator[Any]:
        vals: list[Fraction] = [Fraction(x).limit_denominator(1000) if isinstance(x, float) else Fraction(x)
                                for x in NUMBERS]
        for b in (c.lo, c.hi):
            if b is not None:
                for delta in (0, 1, -1, Fraction(1, 2), -Fraction(1, 2), Fraction(1, 1000), -Fraction(1, 1000)):
                    vals.append(b.value + delta)
        for extra in hint.get("numbers", ()):
            for delta in (0, 1, -1, Fraction(1, 2), -Fraction(1, 2), Fraction(1, 1000), -Fraction(1, 1000)):
                vals.append(Fraction(extra) + delta)
        for m, _, _ in c.mult:
            base = c.lo.value if c.lo else Fraction(0)
            k = -(-base // m)
            vals.extend([k * m, (k + 1) * m, m, 2 * m, 3 * m, 0])
        seen: set[Fraction] = set()
        whole: list[Fraction] = []
        for v in vals:
            if v in seen:
                continue
            seen.add(v)
            if v.denominator == 1:
                whole.append(v)
            elif t == "integer":
                continue
            yield _emit(v)
        # integral numbers written with a fraction (1.0): an integer in 2020-12, not in draft-04
        if not c.int_literal:
            for v in whole:
                if abs(v) < 2 ** 53:  # exact as a double
                    yield float(v)

    def _strings(self, c: Canon, hint: dict) -> Iterator[str]:
        lo = c.min_len.value if c.min_len else 0
        hi = c.max_len.value if c.max_len else None
        yield from hint.get("strings", ())
        if self.strings.regular_part(c):  # least members and boundary cases ("", "\n", longest)
            yield from shortest(self.strings.over(c)[0], 6)
        if c.formats:
            # here, not at the top: the generator's package loads python-jsonschema
            from ..generate.strings import FORMAT_SAMPLES

            for f, _, _ in c.formats:
                yield from FORMAT_SAMPLES.get(f, ())
        for pat, _, _ in c.patterns:
            yield from self.regex_samples(pat, lo, hi)
        lengths = [lo, lo + 1, 1, 3, 0, 10]
        if hi is not None:
            lengths += [hi, max(hi - 1, 0), hi + 1]
        for n in lengths:
            if n <= 10000:
                yield "a" * n
                yield "0" * n
        yield from STRINGS

    def regex_samples(self, pattern: str, lo: int = 0, hi: int | None = None,
                      reject: str | None = None) -> list[str]:
        """Strings containing a match of ECMA-262 ``pattern`` (candidates drawn from its Python
        ``re`` reading, deterministically with Hypothesis, and kept only when the ECMA-262 reading
        agrees); with ``reject``, only strings not matching it."""
        key = f"{pattern}\0{lo}\0{hi}\0{reject}"
        if key in self._regex:
            return self._regex[key]
        from ..generate.strings import regex_sample, too_long_to_sample  # (see FORMAT_SAMPLES)

        out: list[str] = []
        if too_long_to_sample(pattern):
            self._regex[key] = out
            return out
        try:
            rx = re.compile(pattern)
            compile_ecma(pattern)
            if reject:
                compile_ecma(reject)
        except (re.error, NotEcmaRegex):
            self._regex[key] = out
            return out
        def ok(s: str) -> bool:
            return search(pattern, s) and lo <= len(s) and (hi is None or len(s) <= hi) and \
                (reject is None or not search(reject, s))

        try:
            import random

            for seed in range(12):
                for extra in (0, 1, 3):
                    s = regex_sample(pattern, random.Random(seed) if seed else None, extra)
                    if s is not None and ok(s) and s not in out:
                        out.append(s)
                if len(out) >= 2:
                    break
        except Exception:
            pass
        if out:
            self._regex[key] = out
            return out
        try:
            from hypothesis import HealthCheck, Phase, find, settings
            from hypothesis import strategies as st
            from hypothesis.errors import NoSuchExample, Unsatisfiable

            cfg = settings(database=None, derandomize=True, max_examples=300, deadline=None,
                           suppress_health_check=list(HealthCheck),
                           phases=[Phase.generate, Phase.shrink])
            for strat in (st.from_regex(rx, fullmatch=True), st.from_regex(rx)):
                try:
                    out.append(find(strat, ok, settings=cfg))
                except (NoSuchExample, Unsatisfiable):
                    continue
                except Exception:  # an ECMA-only construct hypothesis cannot read
                    continue
        except ImportError:  # pragma: no cover - hypothesis is a dependency
            pass
        self._regex[key] = out
        return out

    def _arrays(self, c: Canon, depth: int, hint: dict) -> Iterator[list]:
        lo = c.min_items.value if c.min_items else 0
        hi = c.max_items.value if c.max_items else None
        yield from hint.get("arrays", ())
        for n in dict.fromkeys([*hint.get("lengths", ()), lo, max(lo, 1), lo + 1, 2, hi if hi is not None else lo, 0]):
            if hi is not None and n > hi + 1:
                continue
            items = [self.one(self.item_canon(c, i), depth + 1) for i in range(n)]
            if all(self.found(x) for x in items):
                yield items
                if n >= 2 and c.unique is None:
                    yield [items[0]] * n
                elif n >= 2:
                    distinct = self.many(self.item_canon(c, n), limit=n, depth=depth + 1)
                    if len(distinct) >= n:
                        yield distinct[:n]
        for n in (1, 2):
            pool = self.many(self.item_canon(c, 0), limit=6, depth=depth + 1)
            for x in pool:
                yield [x] * n
        for node, mn, _, _ in c.contains:
            x = self.one(self.canon.nodes(node), depth + 1)
            if self.found(x):
                yield [x] * max(mn, 1)

    def item_canon(self, c: Canon, i: int) -> Canon:
        """The canon of array element ``i`` under every array clause of ``c``."""
        return self.canon.nodes(*item_nodes(c, i))

    def _objects(self, c: Canon, depth: int, hint: dict) -> Iterator[dict]:
        yield from hint.get("objects", ())
        base: dict[str, Any] = {}
        for name in sorted(c.required):
            x = self.one(self.canon.nodes(*prop_nodes(c, name, self.canon)), depth + 1)
            if not self.found(x):
                return
            base[name] = x
        yield dict(base)
        for name in sorted(c.required):  # other values of each required member, one at a time
            for x in self.many(self.canon.nodes(*prop_nodes(c, name, self.canon)), limit=3, depth=depth + 1)[1:]:
                yield {**base, name: x}
        names = sorted({n for cl in c.obj for n in cl.props} - set(base))
        full = dict(base)
        for name in names:
            x = self.one(self.canon.nodes(*prop_nodes(c, name, self.canon)), depth + 1)
            if self.found(x):
                yield {**base, name: x}
                full[name] = x
        yield full
        for extra in ("x", "extra", "zzz"):
            if not c.declared(extra):
                yield {**base, extra: 0}
                yield {**full, extra: "a"}


def item_nodes(c: Canon, i: int) -> list[Node]:
    """Nodes that apply to array element ``i`` (``prefixItems[i]`` or ``items`` of each clause)."""
    out = []
    for cl in c.arr:
        if i < len(cl.prefix):
            out.append(cl.prefix[i])
        elif cl.rest is not None:
            out.append(cl.rest)
    return out


def prop_nodes(c: Canon, name: str, canon: Canonizer | None = None) -> list[Node]:
    """Nodes that apply to member ``name`` of an object: per clause ``properties[name]``, every
    ``patternProperties`` whose regex matches ``name``, else ``additionalProperties``
    (JSON Schema 2020-12 section 10.3.2)."""
    out = []
    for cl in c.obj:
        hit = False
        if name in cl.props:
            out.append(cl.props[name])
            hit = True
        for pat, node in cl.pats.items():
            if search(pat, name):
                out.append(node)
                hit = True
        if not hit and cl.add is not None:
            out.append(cl.add)
    return out


def is_json_type(x: Any, t: str) -> bool:
    """Whether ``x`` has JSON type ``t`` (``integer`` values are ``number`` too)."""
    jt = json_type(x)
    return jt == t or (t == "number" and jt == "integer")
