"""A wider random generator of JSON Schema pairs and instances for the classifier's differential
tests (``tests/test_compat_differential_wide.py``; thousands of seeds run offline): every
keyword family the classifier reads, in four dialects, each new schema a small edit of the old
one, and a pool of documents aimed at the values where readings differ (``1``/``1.0``/``true``,
ECMA-262 against Python ``re`` on digits, words and line terminators, decimal multiples)."""

from __future__ import annotations

import json
import random
from typing import Any

D4 = "http://json-schema.org/draft-04/schema#"
D7 = "http://json-schema.org/draft-07/schema#"
D2019 = "https://json-schema.org/draft/2019-09/schema"
DIALECTS = [None, D4, D7, D2019]
PATTERNS = ["^a", "b", "^.$", "^\\d$", "a$", "^[a-c]+$", "\\w", "^\\S*$", "^.{0,2}$", "^(a|ab)$", "[^a]",
            "^\\p{L}$", "\\s", "^[0-9]*$", "^\\D", "x|^$"]
STRINGS = ["", "a", "b", "ab", "ba", "abc", "1", "12", "\u0663", "\u00e9", "\n", "a\n", " ", "x", "aa", "\u2028",
           "2020-01-01", "a@b.co", "1.2.3.4", "A", "_", "0"]
NUMBERS = [0, 1, 1.0, 2, 2.0, 0.0, 2.5, -1, 0.1, 0.3, 0.30000000000000004, 3, 10, 1.5, 0.5, 1e20, 2**64]
FORMATS = ["date", "email", "ipv4", "uuid", "date-time", "regex"]


def docs(r: random.Random, n: int = 60) -> list:
    """A fixed core of documents plus ``n`` random ones."""
    core: list[Any] = [None, True, False, *NUMBERS, *STRINGS, [], [1], [1, 1.0], [1, "a"], ["a", "a"], [True, 1],
                       ["a", 1, None], [[]], [{}], {}, {"a": 1}, {"a": "x"}, {"b": 1}, {"a": 1, "b": 2}, {"a": 1.0},
                       {"ab": []}, {"1": 1}, {"a": None, "c": True}, {"b": "1", "x": 0.1}, {"\u00e9": 1}]
    return core + [value(r, 0) for _ in range(n)]


def value(r: random.Random, depth: int) -> Any:
    c = r.randrange(6 if depth < 2 else 4)
    if c == 0:
        return r.choice([None, True, False])
    if c == 1:
        return r.choice(NUMBERS)
    if c == 2 or c == 3:
        return r.choice(STRINGS)
    if c == 4:
        return [value(r, depth + 1) for _ in range(r.randint(0, 3))]
    return {r.choice(["a", "b", "ab", "1", "x", "c", "\u0663", "", "_"]): value(r, depth + 1) for _ in range(r.randint(0, 3))}


def leaf(r: random.Random, d: str | None, depth: int) -> dict:
    """One keyword (or a small subschema) of dialect ``d``."""
    sub = (lambda: schema(r, d, depth + 1)) if depth < 2 else (lambda: leaf(r, d, 9))  # noqa: E731
    new = d in (None, D2019)
    c = r.randrange(34)
    if c == 0:
        t = r.sample(["integer", "number", "string", "object", "array", "boolean", "null"], r.randint(1, 2))
        return {"type": t[0] if len(t) == 1 else t}
    if c == 1:
        return {"enum": r.sample([1, 1.0, 2, "a", "", True, None, [1], {"a": 1}, 0.1], r.randint(1, 3))}
    if c == 2:
        return {r.choice(["minimum", "maximum"]): r.choice([0, 1, 1.5, 2])}
    if c == 3:
        if d == D4:
            return {"minimum": r.choice([0, 1]), "exclusiveMinimum": r.choice([True, False])}
        return {r.choice(["exclusiveMinimum", "exclusiveMaximum"]): r.choice([0, 1, 1.5])}
    if c == 4:
        return {"multipleOf": r.choice([1, 1.0, 0.5, 2, 0.1, 0.3, 0.01, 3])}
    if c == 5:
        return {r.choice(["maxLength", "minLength"]): r.randint(0, 3)}
    if c == 6:
        return {"pattern": r.choice(PATTERNS)}
    if c == 7:
        return {"required": r.sample(["a", "b", "c"], r.randint(1, 2))}
    if c == 8:
        return {"properties": {k: sub() for k in r.sample(["a", "b", "1"], r.randint(1, 2))}}
    if c == 9:
        return {"additionalProperties": sub() if r.random() < .5 else False}
    if c == 10:
        return {"items": sub()}
    if c == 11:
        return {"uniqueItems": r.choice([True, True, False])}
    if c == 12:
        return {r.choice(["maxItems", "minItems"]): r.randint(0, 2)}
    if c == 13 and d != D4:
        s = {"contains": sub()}
        if new:
            if r.random() < .5:
                s["minContains"] = r.randint(0, 2)
            if r.random() < .4:
                s["maxContains"] = r.randint(0, 2)
        return s
    if c == 14 and d != D4:
        return {"propertyNames": r.choice([sub(), {"pattern": r.choice(PATTERNS)}, {"maxLength": 1}])}
    if c == 15 and d != D4:
        return {"const": r.choice([1, 1.0, "a", True, None, [1], {"a": 1}, 0.1])}
    if c == 16:
        return {r.choice(["maxProperties", "minProperties"]): r.randint(0, 2)}
    if c == 17 and d != D4:
        s = {"if": sub()}
        if r.random() < .7:
            s["then"] = sub()
        if r.random() < .6:
            s["else"] = sub()
        return s
    if c == 18:
        if new:
            return {"dependentSchemas": {r.choice("ab"): sub()}}
        return {"dependencies": {r.choice("ab"): sub() if r.random() < .5 else r.sample(["a", "b", "c"], 1)}}
    if c == 19:
        if new:
            return {"dependentRequired": {r.choice("ab"): r.sample(["a", "b", "c"], r.randint(0, 2))}}
        return {"dependencies": {r.choice("ab"): r.sample(["a", "b", "c"], r.randint(1, 2))}}
    if c == 20:
        if d is None:  # 2020-12
            s: dict = {"prefixItems": [sub() for _ in range(r.randint(1, 2))]}
            if r.random() < .6:
                s["items"] = sub() if r.random() < .6 else False
            return s
        s = {"items": [sub() for _ in range(r.randint(1, 2))]}
        if r.random() < .6:
            s["additionalItems"] = sub() if r.random() < .6 else False
        return s
    if c == 21 and new:
        return {"unevaluatedProperties": sub() if r.random() < .4 else False,
                **({"properties": {"a": sub()}} if r.random() < .6 else {})}
    if c == 22 and new:
        s = {"unevaluatedItems": sub() if r.random() < .4 else False}
        if r.random() < .6:
            s["prefixItems" if d is None else "items"] = [sub()]
        return s
    if c == 23:
        return {"patternProperties": {r.choice(PATTERNS): sub() for _ in range(r.randint(1, 2))}}
    if c == 24:
        return {"format": r.choice(FORMATS)}
    if c == 25:
        return {"$ref": "#/" + ("definitions" if d in (D4, D7) else "$defs") + "/" + r.choice(["x", "y"])}
    if c == 26:
        return {"not": sub()}
    if c == 27:
        return {r.choice(["anyOf", "oneOf", "allOf"]): [sub() for _ in range(r.randint(1, 3))]}
    if c == 28:
        return {"type": "string", "pattern": r.choice(PATTERNS), "maxLength": r.randint(1, 3)}
    if c == 29:
        return {"type": "number", "multipleOf": r.choice([0.1, 0.25, 0.5]), "maximum": r.choice([1, 0.5])}
    if c == 30:
        return {"required": ["a"], "properties": {"a": sub()}}
    if c == 31:
        return {"type": "array", "items": sub(), "minItems": 1}
    if c == 32:
        return {"enum": r.sample(STRINGS[:8], r.randint(1, 4))}
    return {"type": r.choice(["integer", "number", "string"])}


def schema(r: random.Random, d: str | None, depth: int = 0) -> dict:
    """A schema of one to three keyword groups."""
    s: dict = {}
    for _ in range(r.randint(1, 3 if depth == 0 else 2)):
        s.update(leaf(r, d, depth))
    return s


def defs(r: random.Random, d: str | None) -> dict:
    key = "definitions" if d in (D4, D7) else "$defs"
    return {key: {"x": leaf(r, d, 2), "y": {"type": r.choice(["string", "integer", "object"])}}}


def mutate(r: random.Random, s: dict, d: str | None) -> dict:
    """``s`` with one edit: a keyword dropped, added or replaced, a nested subschema edited,
    or the whole wrapped in ``allOf``/``anyOf``/``oneOf``/``not``."""
    s = json.loads(json.dumps(s))
    c = r.randrange(6)
    keys = [k for k in s if k not in ("$defs", "definitions", "$schema")]
    if c == 0 and keys:
        s.pop(r.choice(keys))
    elif c == 1:
        s.update(leaf(r, d, 1))
    elif c == 2 and keys:
        k = r.choice(keys)
        v = s[k]
        if isinstance(v, dict) and v and all(isinstance(x, dict) for x in v.values()) and k not in ("not", "if", "then",
                                                                                                  "else", "items"):
            kk = r.choice(list(v))
            v[kk] = mutate(r, v[kk], d)
        elif isinstance(v, dict):
            s[k] = mutate(r, v, d)
        elif isinstance(v, list) and v and all(isinstance(x, dict) for x in v):
            i = r.randrange(len(v))
            v[i] = mutate(r, v[i], d)
        elif isinstance(v, (int, float)) and not isinstance(v, bool):
            s[k] = r.choice([v + 1, max(0, v - 1), v * 2, v / 2 if v else 0.5]) if k != "multipleOf" else r.choice(
                [0.1, 0.5, 1, 0.2, 0.3])
        elif isinstance(v, list):
            s[k] = v[:-1] if len(v) > 1 and r.random() < .5 else v + [r.choice(["a", "b", "c", 1, 2.5, None])]
        else:
            s.update(leaf(r, d, 1))
    elif c == 3:
        s.update(leaf(r, d, 0))
    else:
        body = {k: v for k, v in s.items() if k not in ("$defs", "definitions")}
        keep = {k: v for k, v in s.items() if k in ("$defs", "definitions")}
        w = r.choice(["allOf", "anyOf", "oneOf", "if"])
        if w == "if" and d != D4:
            return {"if": leaf(r, d, 1), "then": body, **({"else": leaf(r, d, 1)} if r.random() < .5 else {}), **keep}
        return {"allOf" if w == "if" else w: [body, leaf(r, d, 1)], **keep}
    return s


def pair(r: random.Random) -> tuple[dict, dict]:
    """One (old, new) pair of one dialect, both carrying the same definitions block."""
    d = r.choice(DIALECTS)
    old = {**schema(r, d), **defs(r, d)}
    new = mutate(r, old, d)
    if r.random() < .15:  # the definitions edited too
        key = "definitions" if d in (D4, D7) else "$defs"
        new[key] = {**new[key], "x": mutate(r, new[key]["x"], d)}
    if d:
        old, new = {"$schema": d, **old}, {"$schema": d, **new}
    return old, new
