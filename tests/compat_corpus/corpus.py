"""The seeded mutation corpus: pairs of schema sets, the same list for the same seed and size.

Composition for ``build(n, seed)`` (each part only where its source is present):

* every Confluent case as given, and reversed (update -> original);
* draft-04 copies of the Confluent cases that draft-04 can express (:func:`.mutate.to_draft04`),
  each also with one draft-04-sensitive edit (boolean ``exclusiveMinimum``, bounds, ``type``,
  ``multipleOf``); these Confluent-based pairs are at most :data:`FIXED_SHARE` of ``n`` (a seeded
  sample of them for a small ``n``);
* the rest split 2:3 between the repository's schema sets (draft and releases; one file edited,
  its siblings kept for cross-file ``$ref``) and check-jsonschema's vendored schemas, each pair one
  operator of :data:`.mutate.OPERATORS` at one subschema drawn by the seeded RNG, about a quarter
  of them reversed (the edited schema as old).

Every schema of every pair passes its meta-schema (python-jsonschema and jsonschema-rs); edits
that a local ``$ref`` points into are not made; no pair repeats.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import random
import re
from collections import Counter
from dataclasses import dataclass
from typing import Any

import jsonschema_rs

from .mutate import APPLIES, OPERATORS, Ctx, dialect_of, get, refs_into, subschemas, to_draft04
from .oracle import SINGLE, schema_ok
from .sources import confluent_pairs, repo_sets, vendored_schemas

FIXED_SHARE = 0.4
"""At most this share of the pairs comes from Confluent's cases (all of them from about 2,000 pairs)."""
DRAFT04_OPS = ("draft4-exclusive", "num-tighten", "num-loosen", "type-add", "type-remove", "multipleOf")


@dataclass(frozen=True)
class Pair:
    """One comparison: ``old`` and ``new`` sets (``{file name: schema}``), the file compared."""

    id: str
    source: str
    operator: str
    old: dict
    new: dict
    focus: str = SINGLE
    format_assertion: bool = True


def _key(p: Pair) -> str:
    return hashlib.sha256(json.dumps([p.focus, p.old[p.focus], p.new[p.focus]], sort_keys=True).encode()).hexdigest()


class _Units:
    """Mutable sources: (label, set, focus file), with the focus file's subschemas where each
    operator may apply (:data:`.mutate.APPLIES`) computed once."""

    def __init__(self, units: list[tuple[str, dict, str]]) -> None:
        self.units = units
        self._sites: dict[int, dict[str, list[str]]] = {}

    def sites(self, i: int) -> dict[str, list[str]]:
        """``{operator: [pointer, ...]}`` for unit ``i`` (operators with no site left out)."""
        if i not in self._sites:
            _, files, focus = self.units[i]
            d = dialect_of(files[focus])
            nodes = list(subschemas(files[focus]))
            sites = {op: [p for p, s in nodes if APPLIES[op](s, d)] for op in sorted(OPERATORS)}
            self._sites[i] = {op: ps for op, ps in sites.items() if ps}
        return self._sites[i]


def edit_ok(root: Any, ptr: str) -> bool:
    """Whether an edited schema is still a schema: the whole by jsonschema-rs's meta-schema check,
    the edited subschema by python-jsonschema's too (its ``regex`` format check included)."""
    try:
        if not jsonschema_rs.meta.is_valid(root):
            return False
        node = get(root, ptr)
        if isinstance(node, dict) and isinstance(root, dict) and "$schema" in root:
            node = {**node, "$schema": root["$schema"]}
        return schema_ok({SINGLE: node})
    except Exception:  # noqa: BLE001 - the pointer no longer exists: not a usable edit
        return False


def mutate_once(files: dict, focus: str, ptrs: list[str], op: str, rng: random.Random,
                tries: int = 8) -> tuple[dict, str] | None:
    """``(new set, pointer)``: ``files`` with ``op`` applied at one of ``ptrs`` (subschemas of
    ``focus``) drawn at random, or ``None`` when ``tries`` draws give no valid edit."""
    schema = files[focus]
    ctx = Ctx(rng, dialect_of(schema))
    for _ in range(tries):
        ptr = rng.choice(ptrs)
        if refs_into(schema, ptr):
            continue
        try:
            new = OPERATORS[op](schema, ptr, ctx)
        except (KeyError, IndexError, TypeError, ValueError):
            continue
        if new is None or new == schema or not edit_ok(new, ptr):
            continue
        return {**files, focus: new}, ptr
    return None


@functools.lru_cache(maxsize=1)
def _confluent() -> list[tuple[str, Any, Any]]:
    return [(i, a, b) for i, a, b in confluent_pairs() if schema_ok({SINGLE: a}) and schema_ok({SINGLE: b})]


@functools.lru_cache(maxsize=4)
def _vendored(max_bytes: int) -> list[tuple[str, Any]]:
    """The vendored schemas both validators can use: jsonschema-rs's meta-schema check, and every
    regex compiles with Python's ``re`` (python-jsonschema's meta-schema check adds exactly its
    ``regex`` format, and takes seconds on these schemas). circle-ci.json fails: a ``\\p{..}``."""
    return [(name, s) for name, s in vendored_schemas(max_bytes).items()
            if jsonschema_rs.meta.is_valid(s) and _regexes_compile(s)]


def _regexes_compile(schema: Any) -> bool:
    try:
        for _, s in subschemas(schema):
            for p in ([s["pattern"]] if isinstance(s.get("pattern"), str) else []) + list(
                    s.get("patternProperties", {}) if isinstance(s.get("patternProperties"), dict) else []):
                re.compile(p)
    except re.error:
        return False
    return True


def build(n: int = 2000, seed: int = 0, *, vendored_max_bytes: int = 300_000) -> list[Pair]:
    """``n`` pairs (fewer only when the sources are too small), deterministic per ``seed``;
    vendored schemas up to ``vendored_max_bytes`` of JSON text."""
    rng = random.Random(seed)
    out: list[Pair] = []
    seen: set[str] = set()

    ids: Counter[str] = Counter()

    def add(p: Pair) -> bool:
        k = _key(p)
        if k in seen or len(out) >= n:
            return False
        seen.add(k)
        ids[p.id] += 1
        if ids[p.id] > 1:  # the same operator at the same place, another edit: ids stay unique
            p = dataclasses.replace(p, id=f"{p.id}#{ids[p.id]}")
        out.append(p)
        return True

    conf = _confluent()
    fixed: list[Pair] = []
    for cid, a, b in conf:
        fixed.append(Pair(f"confluent:{cid}", "confluent", "as-given", {SINGLE: a}, {SINGLE: b}, format_assertion=False))
    for cid, a, b in conf:
        fixed.append(Pair(f"confluent:{cid}~rev", "confluent", "reversed", {SINGLE: b}, {SINGLE: a},
                          format_assertion=False))
    for cid, a, b in conf:
        a4, b4 = to_draft04(a), to_draft04(b)
        if a4 is None or b4 is None or not schema_ok({SINGLE: a4}) or not schema_ok({SINGLE: b4}):
            continue
        fixed.append(Pair(f"confluent-d4:{cid}", "confluent-d4", "draft-04 copy", {SINGLE: a4}, {SINGLE: b4},
                          format_assertion=False))
        base = rng.choice([a4, b4])
        units = _Units([("", {SINGLE: base}, SINGLE)])
        ops = [op for op in DRAFT04_OPS if op in units.sites(0)]
        if not ops:
            continue
        op = rng.choice(ops)
        m = mutate_once({SINGLE: base}, SINGLE, units.sites(0)[op], op, rng)
        if m is not None:
            fixed.append(Pair(f"confluent-d4:{cid}:{op}@{m[1]}", "confluent-d4", op, {SINGLE: base}, m[0],
                              format_assertion=False))
    keep = set(rng.sample(range(len(fixed)), min(len(fixed), int(n * FIXED_SHARE))))
    for i, p in enumerate(fixed):
        if i in keep:
            add(p)

    repo: list[tuple[str, dict, str]] = []
    contents: set[str] = set()
    for label, files in repo_sets().items():
        for name in files:
            k = json.dumps(files[name], sort_keys=True)
            if k not in contents:
                contents.add(k)
                repo.append((f"repo:{label}/{name}", files, name))
    vend = [(f"vendored:{name}", {name: s}, name) for name, s in _vendored(vendored_max_bytes)]
    pools = [(_Units(repo), 2), (_Units(vend), 3)]
    pools = [(u, w) for u, w in pools if u.units]
    misses = 0
    while len(out) < n and pools and misses < 20 * n:
        units = rng.choices([u for u, _ in pools], weights=[w for _, w in pools])[0]
        i = rng.randrange(len(units.units))
        label, files, focus = units.units[i]
        sites = units.sites(i)
        op = rng.choice(sorted(sites))
        m = mutate_once(files, focus, sites[op], op, rng)
        if m is None:
            misses += 1
            continue
        new, ptr = m
        source = label.split(":")[0]
        pid = f"{label}:{op}@{ptr}"
        if rng.random() < 0.25:
            pair = Pair(pid + "~rev", source, op + "~rev", new, files, focus)
        else:
            pair = Pair(pid, source, op, files, new, focus)
        if not add(pair):
            misses += 1
    return out
