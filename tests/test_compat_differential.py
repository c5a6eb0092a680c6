"""A seeded differential test of the classifier against python-jsonschema: small random schema
pairs (one dialect each: 2020-12, draft-04, draft-07, 2019-09; ``type``, ``enum``/``const``
with ``1``/``1.0``/``true``, numbers, strings and patterns, object and array keywords,
``contains``/``minContains``, ``propertyNames``, ``if`` without ``then``, combinators), each
new schema a small edit of the old one. A PATCH or MINOR verdict is unsound when a document of
a fixed pool is valid under the old schema and invalid under the new (python-jsonschema through
the set's own validator, the ground truth). Runs in a few seconds."""

from __future__ import annotations

import json
import random

import pytest

from compat_pair import sset
from evalport_spec.compat import compare
from evalport_spec.errors import InputError
from evalport_spec.findings import ChangeClass

D = [None, "http://json-schema.org/draft-04/schema#", "http://json-schema.org/draft-07/schema#",
     "https://json-schema.org/draft/2019-09/schema"]
DOCS = [None, True, False, 0, 1, 1.0, 2, 2.5, -1, "", "a", "ab", "1", [], [1], [1, 1.0], [1, "a"], ["a", "a"], [True, 1],
        {}, {"a": 1}, {"a": "x"}, {"b": 1}, {"a": 1, "b": 2}, {"a": 1.0}, {"ab": []}]


def leaf(r: random.Random, d: str | None) -> dict:
    """One keyword (or a small subschema) of dialect ``d``."""
    c = r.randrange(16)
    if c == 0:
        return {"type": r.choice(["integer", "number", "string", "object", "array", "boolean", "null"])}
    if c == 1:
        return {"enum": r.sample([1, 1.0, 2, "a", True, None, [1], {"a": 1}], r.randint(1, 3))}
    if c == 2:
        return {"minimum": r.choice([0, 1, 1.5])}
    if c == 3:
        return {"multipleOf": r.choice([1, 1.0, 0.5, 2])}
    if c == 4:
        return {"maxLength": r.randint(0, 2)}
    if c == 5:
        return {"pattern": r.choice(["^a", "b", "^.$", "^\\d$", "a$"])}
    if c == 6:
        return {"required": r.sample(["a", "b"], r.randint(1, 2))}
    if c == 7:
        return {"properties": {r.choice("ab"): leaf(r, d)}}
    if c == 8:
        return {"additionalProperties": leaf(r, d) if r.random() < .5 else False}
    if c == 9:
        return {"items": leaf(r, d)}
    if c == 10:
        return {"uniqueItems": True}
    if c == 11:
        return {"maxItems": r.randint(0, 2)}
    if c == 12:
        return {"contains": leaf(r, d), **({"minContains": r.randint(0, 2)} if r.random() < .5 else {})}
    if c == 13:
        return {"propertyNames": leaf(r, d)}
    if c == 14:
        return {"const": r.choice([1, 1.0, "a", True])}
    return {"maxProperties": r.randint(0, 2)}


def schema(r: random.Random, d: str | None, depth: int = 0) -> dict:
    """A schema of one to three keywords, with combinators down to depth 2."""
    s = {}
    for _ in range(r.randint(1, 3)):
        if depth < 2 and r.random() < .25:
            k = r.choice(["anyOf", "allOf", "oneOf", "not", "if"])
            if k == "not":
                s["not"] = schema(r, d, depth + 1)
            elif k == "if":
                s["if"] = schema(r, d, depth + 1)
                if r.random() < .7:
                    s["then"] = schema(r, d, depth + 1)
                if r.random() < .5:
                    s["else"] = schema(r, d, depth + 1)
            else:
                s[k] = [schema(r, d, depth + 1) for _ in range(r.randint(1, 3))]
        else:
            s.update(leaf(r, d))
    return s


def mutate(r: random.Random, s: dict, d: str | None) -> dict:
    """``s`` with one keyword dropped or added, or wrapped in ``allOf``/``anyOf``."""
    s = json.loads(json.dumps(s))
    c = r.randrange(3)
    if c == 0 and s:
        s.pop(r.choice(list(s)))
    elif c == 1:
        s.update(leaf(r, d))
    else:
        s = {"allOf": [s, leaf(r, d)]} if r.random() < .5 else {"anyOf": [s, leaf(r, d)]}
    return s


def unsound(seed: int, n: int) -> list:
    """The pairs of ``n`` generated from ``seed`` that the classifier calls PATCH/MINOR while
    python-jsonschema finds a document of :data:`DOCS` the old schema accepts and the new
    one rejects."""
    r = random.Random(seed)
    bad = []
    for _ in range(n):
        d = r.choice(D)
        old = schema(r, d)
        new = mutate(r, old, d)
        if d:
            old, new = {"$schema": d, **old}, {"$schema": d, **new}
        try:
            so, sn = sset(old, "old"), sset(new, "new")
            vo, vn = so.validator("s.json"), sn.validator("s.json")
        except InputError:
            continue  # not a valid schema of its dialect (the generator is not meta-schema aware)
        try:
            c = compare(so, sn, search_budget=0).change_class
        except InputError:
            continue  # a refusal is sound
        if c is ChangeClass.MAJOR:
            continue
        lost = [x for x in DOCS if vo.is_valid(x) and not vn.is_valid(x)]
        if lost:
            bad.append((str(c), old, new, lost))
    return bad


@pytest.mark.parametrize("seed", [1, 2])
def test_no_unsound_verdict_on_random_pairs(seed):
    assert unsound(seed, 250) == []
