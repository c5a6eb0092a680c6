"""Counter-example search: a document valid under one schema and invalid under another.

Used on every verdict that claims no document is lost (MINOR, PATCH: old -> new) and on PATCH's
claim that none is gained (new -> old). Candidates, cheapest first:

1. boundary values: fixed edge cases (``1.0``, ``-0.0``, ``"\\n"``, integers beyond 64 bits, empty
   containers, ...) and every constant of both schemas and its neighbours (``n ± 1``, ``n ± 0.5``,
   ``float(n)``, a string with ``"\\n"`` appended, one character shorter or longer);
2. the repository's generator (``evalport_spec.generate``): documents valid under the source
   schema, its targeted mutations, and single-site edits of each valid document with the
   boundary values (a member dropped or added, a value replaced, an item repeated);
3. hypothesis-jsonschema's strategy for the source schema (single-file sets), searched by
   Hypothesis for a document the target rejects (derandomised, no database).

A candidate counts only when both validators agree (:func:`.oracle.lost`).
"""

from __future__ import annotations

import copy
import json
import random
import time
import warnings
from collections.abc import Iterable, Iterator
from typing import Any

from .mutate import subschemas
from .oracle import Validators, lost

FIXED: list[Any] = [None, True, False, 0, -0.0, 1, -1, 1.0, 2.0, 0.5, -0.5, 2**31, 2**53 + 1, 2**64, 2**70, -(2**63) - 1,
                    1e300, "", " ", "\n", "a\nb", "x\n", "a", "0", "1", "true", "null", "1.2.3.4", "2020-01-01",
                    "2020-01-01T00:00:00Z", "a@b.co", "https://example.com/", "00000000-0000-0000-0000-000000000000",
                    [], [None], [1, 1], ["a", "a"], [[]], {}, {"a": None}, {"": 0}, {"x": {}}]
NUMBER_KEYS = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minLength",
               "maxLength", "minItems", "maxItems", "minProperties", "maxProperties", "minContains", "maxContains")


def _scalars(v: Any) -> Iterator[Any]:
    if isinstance(v, dict):
        for x in v.values():
            yield from _scalars(x)
    elif isinstance(v, list):
        for x in v:
            yield from _scalars(x)
    else:
        yield v


def constants(schemas: Iterable[Any], limit: int = 400) -> tuple[list[Any], list[str]]:
    """(values, member names) found in the schemas: ``const``/``enum``/``default``/``examples``
    values and their scalars, numeric keyword values, declared and required member names."""
    values: list[Any] = []
    names: list[str] = []
    for schema in schemas:
        for _, s in subschemas(schema):
            for k in ("const", "default"):
                if k in s:
                    values.append(s[k])
                    values.extend(_scalars(s[k]))
            for k in ("enum", "examples"):
                if isinstance(s.get(k), list):
                    values.extend(s[k])
                    for v in s[k]:
                        values.extend(_scalars(v))
            values.extend(s[k] for k in NUMBER_KEYS if isinstance(s.get(k), (int, float))
                          and not isinstance(s.get(k), bool))
            if isinstance(s.get("properties"), dict):
                names.extend(s["properties"])
            if isinstance(s.get("required"), list):
                names.extend(n for n in s["required"] if isinstance(n, str))
            if len(values) > limit * 4:
                break
    return _dedupe(values)[:limit], _dedupe(names)[:limit]


def neighbours_of(value: Any) -> list[Any]:
    """Values next to ``value`` where validity tends to flip."""
    if isinstance(value, bool) or value is None:
        return [value]
    if isinstance(value, int):
        return [value, value - 1, value + 1, float(value), value + 0.5, value - 0.5, -value, value * 2]
    if isinstance(value, float):
        out = [value, value - 1, value + 1, value / 2, value * 2, -value]
        if value.is_integer() and abs(value) < 2**63:
            out.append(int(value))
        return out
    if isinstance(value, str):
        return [value, value + "\n", value[:-1], value + "x", value.upper(), "\n" + value]
    return [value]


def boundary_values(schemas: Iterable[Any]) -> tuple[list[Any], list[str]]:
    """(candidate values, member names) for both the top level and single-site edits."""
    values, names = constants(schemas)
    out: list[Any] = list(FIXED)
    for v in values:
        out.extend(neighbours_of(v))
    return _dedupe(out), names + ["x", "a", "x-extra"]


def edits(doc: Any, values: list[Any], names: list[str], rng: random.Random, limit: int) -> Iterator[Any]:
    """Up to ``limit`` single-site edits of ``doc`` (seeded): a value replaced by a boundary value,
    an object member dropped or added, an array item dropped or repeated, a container emptied."""
    sites: list[tuple[tuple, Any]] = []
    stack: list[tuple[tuple, Any]] = [((), doc)]
    while stack and len(sites) < 300:
        path, v = stack.pop()
        sites.append((path, v))
        if isinstance(v, dict):
            stack.extend(((*path, k), x) for k, x in v.items())
        elif isinstance(v, list):
            stack.extend(((*path, i), x) for i, x in enumerate(v))
    for _ in range(limit):
        path, v = rng.choice(sites)
        how = rng.random()
        if isinstance(v, dict) and how < 0.5:
            new = dict(v)
            if v and how < 0.2:
                del new[rng.choice(list(v))]
            elif how < 0.45:
                new[rng.choice(names)] = rng.choice(values)
            else:
                new = {}
        elif isinstance(v, list) and how < 0.5:
            new = list(v)
            if v and how < 0.2:
                new.pop(rng.randrange(len(v)))
            elif v and how < 0.4:
                new.append(copy.deepcopy(rng.choice(v)))
            else:
                new = [] if how < 0.45 else new + [rng.choice(values)]
        else:
            new = rng.choice(neighbours_of(v)) if how < 0.7 else rng.choice(values)
        yield _replace(doc, path, new)


def _replace(doc: Any, path: tuple, new: Any) -> Any:
    if not path:
        return new
    out = copy.copy(doc)
    out[path[0]] = _replace(doc[path[0]], path[1:], new)
    return out


def _dedupe(xs: Iterable[Any]) -> list[Any]:
    seen: set[str] = set()
    out = []
    for x in xs:
        try:
            k = json.dumps(x, sort_keys=True) + type(x).__name__
        except (TypeError, ValueError):
            continue
        if k not in seen:
            seen.add(k)
            out.append(x)
    return out


def find_lost(src: Validators, dst: Validators, files: dict[str, Any], *, format_assertion: bool,
              seed: int = 0, deadline: float | None = None, generated: int = 8,
              hypothesis_examples: int = 60, hypothesis_max_bytes: int = 10_000) -> tuple[Any] | None:
    """``(document,)`` valid under ``src`` and invalid under ``dst`` by both validators, or
    ``None`` when the search finds none (``deadline``: a ``time.monotonic()`` after which the
    remaining stages are skipped). ``files`` is ``src``'s raw set. ``generated``: documents asked
    of the repository's generator (twice as many of its mutated candidates); Hypothesis runs
    ``hypothesis_examples`` examples on single-file schemas up to ``hypothesis_max_bytes`` of JSON
    (hypothesis-jsonschema's canonicalisation takes minutes on the large vendored schemas)."""
    rng = random.Random(seed)
    values, names = boundary_values([src.schema, dst.schema])

    def over() -> bool:
        return deadline is not None and time.monotonic() > deadline

    for v in values:
        if lost(src, dst, v):
            return (v,)
    valid: list[Any] = [v for v in values if src.rs(v) is True][:20]
    try:
        from evalport_spec.generate import generate_candidates, generate_valid
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            kw = {"registry": src.registry, "base_uri": src.base_uri, "format_assertion": format_assertion, "seed": seed}
            gen = generate_valid(src.schema, n=generated, **kw) if src.registry is not None else []
            cands = generate_candidates(src.schema, n=2 * generated, **kw) if src.registry is not None and not over() else []
    except Exception:  # noqa: BLE001 - a generator that gives up is one source less
        gen, cands = [], []
    for v in gen + cands:
        if lost(src, dst, v):
            return (v,)
    valid += gen
    for doc in valid:
        if over():
            return None
        for v in edits(doc, values, names, rng, 40):
            if lost(src, dst, v):
                return (v,)
    if over() or len(files) > 1 or len(json.dumps(src.schema)) > hypothesis_max_bytes:
        return None
    return _hypothesis(src, dst, hypothesis_examples)


def _hypothesis(src: Validators, dst: Validators, examples: int) -> tuple[Any] | None:
    try:
        from hypothesis import HealthCheck, Phase, find, settings
        from hypothesis.errors import NoSuchExample
        from hypothesis_jsonschema import from_schema
    except ImportError:
        return None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            strategy = from_schema(src.schema)
            doc = find(strategy, lambda d: dst.rs(d) is False and src.rs(d) is True,
                       settings=settings(max_examples=examples, derandomize=True, database=None, deadline=None,
                                         suppress_health_check=list(HealthCheck),
                                         phases=[Phase.generate, Phase.shrink]))
    except NoSuchExample:
        return None
    except Exception:  # noqa: BLE001 - a schema hypothesis-jsonschema cannot handle
        return None
    return (doc,) if lost(src, dst, doc) else None
