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


def tuple_items(r, d, sub) -> dict:
    """A tuple-form array schema in dialect ``d`` (``None``: 2020-12, ``prefixItems`` and
    ``items``; older: ``items`` as a list and ``additionalItems``), members drawn by ``sub``."""
    if d is None:
        s: dict = {"prefixItems": [sub() for _ in range(r.randint(1, 2))]}
        if r.random() < .6:
            s["items"] = sub() if r.random() < .6 else False
        return s
    s = {"items": [sub() for _ in range(r.randint(1, 2))]}
    if r.random() < .6:
        s["additionalItems"] = sub() if r.random() < .6 else False
    return s


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
        return tuple_items(r, d, sub)
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


# --- focused families (session 34) ----------------------------------------------------------
# Keyword families the wide generator above rarely combines: dependentSchemas/dependentRequired
# (and draft-07 dependencies), prefixItems/items/contains with minContains/maxContains,
# unevaluatedItems/unevaluatedProperties beside applicators, propertyNames, nested
# if/then/else, $ref/$dynamicRef recursion, float multipleOf, format, const/enum of objects and
# arrays, the draft-04/06/07 exclusive bound forms. Each pair's documents are built from the
# literals its two schemas name (member names, values, bounds and their neighbours).

D6 = "http://json-schema.org/draft-06/schema#"
FOCUS_DIALECTS = [None, D4, D6, D7, D2019]
FAMILIES = ["dep", "arr", "uneval", "pnames", "ite", "ref", "num", "fmt", "const"]
KEYS = ["a", "b", "c", "ab", "1", ""]
FLOATS = [0, 1, 1.0, 2, 3, 0.1, 0.2, 0.3, 0.7, 0.07, 1.1, 3.3, 0.6000000000000001, 0.30000000000000004, 2.5,
          -1, -0.5, 1e-3, 0.01, 100, 1e308, 4.35, 1.5, 0.5, 10, 7, 0.21, 1e-7]
TEXTS = ["", "a", "b", "ab", "abc", "1", "aa", "A", "\u00e9", "\U0001F600", "x-y", "2020-01-01", "a@b.co", "1.2.3.4",
         "abcd", "\n"]
MULTIPLES = [0.1, 0.01, 0.2, 0.3, 0.7, 0.07, 1.1, 1e-3, 0.5, 2, 3, 1.5, 0.25, 1e-7]
COUNTS = ("minItems", "maxItems", "minLength", "maxLength", "minContains", "maxContains", "minProperties",
          "maxProperties")


def literal(r: random.Random, depth: int = 0) -> Any:
    """A JSON value for ``const``/``enum`` (objects and arrays included, two levels deep)."""
    c = r.randrange(6 if depth < 2 else 4)
    if c == 0:
        return r.choice([None, True, False])
    if c == 1:
        return r.choice(FLOATS)
    if c in (2, 3):
        return r.choice(TEXTS[:8])
    if c == 4:
        return [literal(r, depth + 1) for _ in range(r.randint(0, 2))]
    return {r.choice(KEYS[:3]): literal(r, depth + 1) for _ in range(r.randint(0, 2))}


def _defs_key(d: str | None) -> str:
    return "definitions" if d in (D4, D6, D7) else "$defs"


def _sub(r: random.Random, d: str | None, depth: int) -> Any:
    if depth < 3:
        return focus_schema(r, d, depth + 1)
    if d == D4:
        return r.choice([{"type": "string"}, {"enum": [literal(r, 2)]}, {"minimum": 1}, {}])
    return r.choice([{"type": r.choice(["string", "integer", "number", "object", "array"])}, {"const": literal(r, 2)},
                     {"minimum": r.choice([0, 1, 2])}, {"maxLength": r.randint(0, 2)}, True, False])


def focus_leaf(r: random.Random, d: str | None, depth: int, fam: str) -> dict:
    """One keyword group of family ``fam`` in dialect ``d`` (``None``: 2020-12)."""
    new = d in (None, D2019)
    sub = lambda: _sub(r, d, depth)  # noqa: E731
    other = lambda *fams: focus_leaf(r, d, depth, r.choice(fams))  # noqa: E731
    c = r.randrange(8)
    if fam == "dep":
        if c < 2:
            return ({"dependentSchemas": {r.choice("ab"): sub() for _ in range(r.randint(1, 2))}} if new
                    else {"dependencies": {r.choice("ab"): sub()}})
        if c < 4:
            return ({"dependentRequired": {r.choice("abc"): r.sample("abc", r.randint(0, 2)) for _ in range(2)}} if new
                    else {"dependencies": {r.choice("abc"): r.sample("abc", r.randint(1, 2))}})
        return other("obj")
    if fam == "arr":
        if c < 2:
            return tuple_items(r, d, sub)
        if c < 4 and d != D4:
            s = {"contains": sub()}
            if new and r.random() < .6:
                s["minContains"] = r.randint(0, 3)
            if new and r.random() < .5:
                s["maxContains"] = r.randint(0, 3)
            return s
        if c == 4:
            return {"items": sub()}
        if c == 5:
            return {r.choice(["minItems", "maxItems"]): r.randint(0, 3)}
        return {"uniqueItems": r.random() < .8}
    if fam == "uneval":
        if not new:
            return other("arr", "obj")
        if c < 2:
            s = {"unevaluatedItems": sub() if r.random() < .5 else False}
            if r.random() < .6:
                s["prefixItems" if d is None else "items"] = [sub() for _ in range(r.randint(1, 2))]
            return s
        if c == 2:
            return {"unevaluatedProperties": sub() if r.random() < .4 else False}
        if c == 3:
            return {r.choice(["allOf", "anyOf", "oneOf"]): [focus_leaf(r, d, depth + 1, r.choice(["arr", "obj"]))
                                                           for _ in range(r.randint(1, 2))]}
        if c == 4:
            return {"if": focus_leaf(r, d, depth + 1, "arr"), "then": focus_leaf(r, d, depth + 1, "arr")}
        return other("arr", "obj")
    if fam == "obj":
        if c < 2:
            return {"properties": {k: sub() for k in r.sample("abc", r.randint(1, 2))}}
        if c == 2:
            return {"patternProperties": {r.choice(["^a", "b", "^.$", "^$", "^[0-9]+$"]): sub()}}
        if c == 3:
            return {"additionalProperties": sub() if r.random() < .5 else False}
        if c < 6:
            return {"required": r.sample("abc", r.randint(1, 2))}
        return {r.choice(["minProperties", "maxProperties"]): r.randint(0, 2)}
    if fam == "pnames":
        if d == D4 or c > 3:
            return other("obj")
        return {"propertyNames": r.choice([
            {"pattern": r.choice(["^a", "^[a-c]*$", "^.$", "b$", "^\\d+$"])}, {"maxLength": r.randint(0, 2)},
            {"minLength": r.randint(1, 2)}, {"enum": r.sample(KEYS, r.randint(1, 3))}, {"const": r.choice(KEYS)},
            {"not": {"const": r.choice(KEYS)}}, False, True, {"type": "string"}, {"type": "number"},
            {"format": "email"}])}
    if fam == "ite":
        if d == D4 or c > 4:
            return other("obj", "num", "str")
        if c < 3:
            s = {"if": sub()}
            if r.random() < .8:
                s["then"] = sub()
            if r.random() < .6:
                s["else"] = sub()
            return s
        return {"then": sub()} if c == 3 else {"else": sub()}
    if fam == "ref":
        if c < 2:
            return {"$ref": f"#/{_defs_key(d)}/" + r.choice(["node", "x"])}
        if c == 2 and d is None:
            return {"$dynamicRef": "#node"}
        if c == 2 and d == D2019:
            return {"$recursiveRef": "#"}
        if c == 3:
            return {"$ref": "#"}
        return other("obj", "arr")
    if fam == "num":
        if c < 2:
            return {"multipleOf": r.choice(MULTIPLES)}
        if c < 4:
            if d == D4:
                return {r.choice(["minimum", "maximum"]): r.choice([0, 1, 0.1, 2.5]),
                        r.choice(["exclusiveMinimum", "exclusiveMaximum"]): r.choice([True, False])}
            return {r.choice(["exclusiveMinimum", "exclusiveMaximum"]): r.choice([0, 1, 0.1, 2.5, 1.0])}
        if c == 4:
            return {r.choice(["minimum", "maximum"]): r.choice([0, 1, 0.1, 2.5, 1.0, 0.30000000000000004])}
        if c == 5:
            return {"type": r.choice(["integer", "number", ["integer", "string"]])}
        return {"enum": r.sample(FLOATS, r.randint(1, 3))}
    if fam == "fmt":
        if c < 3:
            return {"format": r.choice(["date", "email", "ipv4", "uuid", "date-time", "regex", "hostname", "uri",
                                        "foo", "time", "duration"])}
        if c < 5:
            return {"type": r.choice(["string", "number"])}
        return other("str")
    if fam == "str":
        if c < 3:
            return {"pattern": r.choice(["^a", "b", "^.$", "^[a-c]+$", "^.{0,2}$", "\\d", "^\\p{L}+$", "^$"])}
        if c < 6:
            return {r.choice(["minLength", "maxLength"]): r.randint(0, 3)}
        return {"enum": r.sample(TEXTS, r.randint(1, 3))}
    # const
    if c < 2 and d != D4:
        return {"const": literal(r)}
    if c < 4:
        return {"enum": [literal(r) for _ in range(r.randint(1, 3))]}
    if c == 4:
        return {r.choice(["allOf", "anyOf", "oneOf"]): [focus_leaf(r, d, depth + 1, "const") for _ in range(2)]}
    return other("obj", "arr", "num")


def focus_schema(r: random.Random, d: str | None, depth: int = 0, fam: str | None = None) -> dict:
    """One to three keyword groups, most of family ``fam`` (a random one when ``None``)."""
    fam = fam or r.choice(FAMILIES)
    s: dict = {}
    for _ in range(r.randint(1, 3 if depth == 0 else 2)):
        s.update(focus_leaf(r, d, depth, fam if r.random() < .8 else r.choice(FAMILIES)))
    return s


def focus_defs(r: random.Random, d: str | None) -> dict:
    """A recursive ``node`` (a tree through ``a`` and items; a ``$dynamicAnchor`` in 2020-12)
    and one more definition ``x``."""
    k = _defs_key(d)
    node: dict = {"type": ["object", "array", "integer"], "properties": {"a": {"$ref": f"#/{k}/node"}},
                  "items": {"$ref": f"#/{k}/node"}}
    if d is None:
        node = {"$dynamicAnchor": "node", **node}
    if r.random() < .5:
        node.update(focus_leaf(r, d, 2, r.choice(FAMILIES)))
    return {k: {"node": node, "x": focus_leaf(r, d, 2, r.choice(FAMILIES))}}


def _edit_value(r: random.Random, k: str, v: Any) -> Any:
    if isinstance(v, bool):
        return not v
    if k == "multipleOf":
        return r.choice([*MULTIPLES, v * 2, v / 2, v * 3])
    if isinstance(v, (int, float)):
        if k in COUNTS:
            return max(0, v + r.choice([-1, 1]))
        return r.choice([v + 1, max(0, v - 1), v * 2, v / 2 if v else 0.5, v + 0.1, float(v)])
    if k == "const":
        return literal(r) if r.random() < .5 else [v]
    if isinstance(v, list):
        return v[:-1] if len(v) > 1 and r.random() < .5 else v + [literal(r, 1) if k == "enum" else r.choice("abc")]
    return v


def focus_mutate(r: random.Random, s: Any, d: str | None, fam: str, depth: int = 0) -> Any:
    """``s`` with one edit at any depth: a keyword dropped or added, a value changed, a member
    renamed, a branch added or dropped, or the whole wrapped (``allOf``/``anyOf``/``oneOf``,
    ``if``/``then``, ``not``/``not``)."""
    s = json.loads(json.dumps(s))
    if not isinstance(s, dict):
        return focus_schema(r, d, 2, fam) if r.random() < .5 else not s
    c = r.randrange(7)
    keys = [k for k in s if k not in ("$defs", "definitions", "$schema")]
    if c == 0 and keys:
        s.pop(r.choice(keys))
    elif c < 4 and keys:
        k = r.choice(keys)
        v = s[k]
        if isinstance(v, dict) and v and k in ("properties", "patternProperties", "dependentSchemas", "dependencies"):
            kk = r.choice(list(v))
            if isinstance(v[kk], list):
                v[kk] = v[kk][:-1] if v[kk] and r.random() < .5 else v[kk] + [r.choice("abc")]
            elif r.random() < .2:
                v[r.choice("abc")] = v.pop(kk)
            else:
                v[kk] = focus_mutate(r, v[kk], d, fam, depth + 1)
        elif isinstance(v, dict) and k != "const":
            s[k] = focus_mutate(r, v, d, fam, depth + 1)
        elif isinstance(v, list) and v and k not in ("enum", "type", "required", "const") and all(
                isinstance(x, (dict, bool)) for x in v):
            i = r.randrange(len(v))
            if r.random() < .2:
                v.pop(i)
            elif r.random() < .2:
                v.append(_sub(r, d, 2))
            else:
                v[i] = focus_mutate(r, v[i], d, fam, depth + 1)
        elif isinstance(v, bool) and k not in ("uniqueItems", "exclusiveMinimum", "exclusiveMaximum"):
            s[k] = focus_mutate(r, v, d, fam, depth + 1)
        else:
            s[k] = _edit_value(r, k, v)
    elif c == 4:
        s.update(focus_leaf(r, d, 1, fam))
    else:
        body = {k: v for k, v in s.items() if k not in ("$defs", "definitions", "$schema")}
        keep = {k: v for k, v in s.items() if k in ("$defs", "definitions", "$schema")}
        w = r.choice(["allOf", "anyOf", "oneOf", "if", "not"])
        if w == "if" and d != D4:
            return {"if": focus_leaf(r, d, 1, fam), "then": body,
                    **({"else": focus_leaf(r, d, 1, fam)} if r.random() < .5 else {}), **keep}
        if w == "not":
            return {"not": {"not": body}, **keep}
        return {"allOf" if w == "if" else w: [body, focus_leaf(r, d, 1, fam)], **keep}
    return s


def focus_pair(r: random.Random) -> tuple[dict, dict, str]:
    """``(old, new, family)``: one dialect, both with the same recursive definitions."""
    d = r.choice(FOCUS_DIALECTS)
    fam = r.choice(FAMILIES)
    old = {**focus_schema(r, d, 0, fam), **focus_defs(r, d)}
    new = focus_mutate(r, old, d, fam)
    if r.random() < .2:
        k, which = _defs_key(d), r.choice(["x", "node"])
        new[k] = {**new[k], which: focus_mutate(r, new[k][which], d, fam, 1)}
    if d:
        old, new = {"$schema": d, **old}, {"$schema": d, **new}
    return old, new, fam


def _literals(s: Any, out: dict) -> None:
    """Member names, ``const``/``enum`` values and numeric bounds (with neighbours) of ``s``."""
    if isinstance(s, list):
        for x in s:
            _literals(x, out)
    if not isinstance(s, dict):
        return
    for k, v in s.items():
        if k == "const":
            out["vals"].append(v)
        elif k == "enum" and isinstance(v, list):
            out["vals"] += v
        elif k == "required" and isinstance(v, list):
            out["keys"] += [x for x in v if isinstance(x, str)]
        elif k in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf") and isinstance(
                v, (int, float)) and not isinstance(v, bool):
            out["nums"] += [v, v + 1, v - 1, v * 2, v * 3, v * 7, v / 2]
        else:
            if k in ("properties", "dependentSchemas", "dependencies", "dependentRequired") and isinstance(v, dict):
                out["keys"] += list(v)
            _literals(v, out)


def focus_docs(r: random.Random, old: Any, new: Any, n: int = 80) -> list:
    """A fixed core, the literals of both schemas, and ``n`` objects and arrays built from them."""
    pool: list[Any] = [None, True, False, *FLOATS, *TEXTS, [], {}, [1], [1, 1], [1, "a"], ["a", 1, None], [[]], [{}],
                       [1, 2, 3], [1, 1.0], ["a", "b", "a"], [0.1, 0.2], [[1]], [{"a": 1}], {"a": 1}, {"b": 1},
                       {"a": 1, "b": 2}, {"a": {"a": {}}}, {"a": [1]}, {"c": "x"}, {"a": "a", "b": "b", "c": "c"},
                       {"1": 1}, {"": 0}, {"ab": 1}, {"a": None}]
    info: dict = {"vals": [], "keys": [], "nums": []}
    _literals(old, info)
    _literals(new, info)
    keys = list(dict.fromkeys(info["keys"] + KEYS))
    vals = info["vals"] + info["nums"] + [literal(r, 1) for _ in range(6)]
    pool += info["vals"] + info["nums"]
    for _ in range(n):
        c = r.randrange(4)
        names = r.sample(keys, r.randint(1, min(3, len(keys))))
        if c == 0:
            pool.append({k: r.choice(vals) for k in names})
        elif c == 1:
            pool.append([r.choice(vals) for _ in range(r.randint(1, 4))])
        elif c == 2:
            pool.append({k: r.choice(vals) if r.random() < .5 else {r.choice(keys): r.choice(vals)} for k in names})
        else:
            pool.append([[r.choice(vals)] if r.random() < .3 else r.choice(vals) for _ in range(r.randint(0, 5))])
    return pool
