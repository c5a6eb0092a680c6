"""Mutation operators over JSON Schemas: one small, seeded edit at one subschema.

Every operator is ``op(root, pointer, ctx) -> new root | None``: it returns a modified deep copy
of ``root`` with the subschema at ``pointer`` (RFC 6901) edited, or ``None`` when it does not
apply there. Operators cover the edits schema authors make (bounds, ``enum``, ``type``,
``required``, ``pattern``/``format``, properties on open and closed objects, ``multipleOf``,
``contains``, ``uniqueItems``, ``not``) and rewrites that keep the meaning (combinator branches
reordered, ``if``/``then``/``else`` <-> ``anyOf``/``oneOf`` of cases, ``not`` of ``not``, a
subschema moved into ``$defs`` behind a ``$ref``, a ``$ref`` inlined, draft-04 boolean
``exclusiveMinimum``). The class of the result is never assumed: the oracle decides with real
validators.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

D4 = "http://json-schema.org/draft-04/schema#"

SCHEMA_MAPS = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")
SCHEMA_ONE = ("additionalProperties", "additionalItems", "contains", "propertyNames", "not", "if", "then",
              "else", "unevaluatedItems", "unevaluatedProperties")
SCHEMA_LISTS = ("allOf", "anyOf", "oneOf", "prefixItems")
TYPES = ("null", "boolean", "integer", "number", "string", "array", "object")
FORMATS = ("date-time", "date", "email", "ipv4", "uuid", "uri", "hostname")


@dataclass
class Ctx:
    """What an operator may use: the seeded RNG and the dialect (``4``, ``6``, ``7``, ``2019``, ``2020``)."""

    rng: random.Random
    dialect: int


def dialect_of(schema: Any) -> int:
    """The dialect number of a root schema (2020-12 when ``$schema`` is absent)."""
    uri = schema.get("$schema", "") if isinstance(schema, dict) else ""
    for key, n in (("draft-04", 4), ("draft-06", 6), ("draft-07", 7), ("2019-09", 2019)):
        if key in uri:
            return n
    return 2020


def _esc(k: str) -> str:
    return str(k).replace("~", "~0").replace("/", "~1")


def subschemas(schema: Any, ptr: str = "") -> Iterator[tuple[str, dict]]:
    """Every object subschema of ``schema`` with its pointer, root first (keyword semantics:
    values of ``enum``, ``const``, ``default`` and ``examples`` are not schemas)."""
    stack = [(ptr, schema)]
    while stack:
        p, s = stack.pop()
        if not isinstance(s, dict):
            continue
        yield p, s
        for k in SCHEMA_MAPS:
            if isinstance(s.get(k), dict):
                stack.extend((f"{p}/{_esc(k)}/{_esc(n)}", v) for n, v in s[k].items())
        if isinstance(s.get("dependencies"), dict):
            stack.extend((f"{p}/dependencies/{_esc(n)}", v) for n, v in s["dependencies"].items()
                         if isinstance(v, dict))
        for k in SCHEMA_ONE:
            if k in s:
                stack.append((f"{p}/{k}", s[k]))
        for k in SCHEMA_LISTS:
            if isinstance(s.get(k), list):
                stack.extend((f"{p}/{k}/{i}", v) for i, v in enumerate(s[k]))
        items = s.get("items")
        if isinstance(items, list):
            stack.extend((f"{p}/items/{i}", v) for i, v in enumerate(items))
        elif items is not None:
            stack.append((f"{p}/items", items))


def get(root: Any, ptr: str) -> Any:
    """The value at JSON Pointer ``ptr``."""
    for part in ptr.split("/")[1:]:
        part = part.replace("~1", "/").replace("~0", "~")
        root = root[int(part)] if isinstance(root, list) else root[part]
    return root


def _with(root: Any, ptr: str, value: Any) -> Any:
    """``root`` with the value at ``ptr`` replaced: only the containers on the path are copied
    (the rest is shared with ``root``, which is never modified)."""
    if ptr == "":
        return value
    head, _, rest = ptr[1:].partition("/")
    head = head.replace("~1", "/").replace("~0", "~")
    out = copy.copy(root)
    key: Any = int(head) if isinstance(root, list) else head
    out[key] = _with(root[key], "/" + rest if rest else "", value)
    return out


def _local(edit: Callable[[dict, Ctx], dict | None]) -> Callable[[Any, str, Ctx], Any]:
    """An operator from an edit of one subschema (given a copy; returns the new subschema)."""
    def op(root: Any, ptr: str, ctx: Ctx) -> Any:
        node = get(root, ptr)
        if not isinstance(node, dict):
            return None
        new = edit(copy.deepcopy(node), ctx)
        if new is None or new == node:
            return None
        return _with(root, ptr, new)
    op.__doc__ = edit.__doc__
    return op


def _types(s: dict) -> set[str]:
    t = s.get("type")
    return {t} if isinstance(t, str) else set(t) if isinstance(t, list) else set()


def _num(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def _step(ctx: Ctx, x: Any) -> Any:
    return ctx.rng.choice([1, 1, 2, 10]) if isinstance(x, int) else ctx.rng.choice([0.5, 1, 0.25])


# ------------------------------------------------------------------ numbers
def _num_bound(tighter: bool):
    def edit(s: dict, ctx: Ctx) -> dict | None:
        keys = [k for k in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum") if _num(s.get(k))]
        if not keys:
            if not tighter or not _types(s) & {"integer", "number"}:
                return None
            s[ctx.rng.choice(["minimum", "maximum", "exclusiveMinimum"]) if ctx.dialect != 4
              else ctx.rng.choice(["minimum", "maximum"])] = ctx.rng.choice([0, 1, -1, 100])
            return s
        k = ctx.rng.choice(keys)
        up = k.endswith("inimum") == tighter  # raising a lower bound / lowering an upper one tightens
        s[k] = s[k] + _step(ctx, s[k]) * (1 if up else -1)
        return s
    edit.__doc__ = f"{'tighten' if tighter else 'loosen'} a numeric bound (or add one)"
    return edit


def _draft4_exclusive(s: dict, ctx: Ctx) -> dict | None:
    """draft-04: toggle the boolean ``exclusiveMinimum``/``exclusiveMaximum`` of a bound."""
    if ctx.dialect != 4:
        return None
    pairs = [(b, e) for b, e in (("minimum", "exclusiveMinimum"), ("maximum", "exclusiveMaximum")) if _num(s.get(b))]
    if not pairs:
        return None
    b, e = ctx.rng.choice(pairs)
    s[e] = not s.get(e, False)
    return s


def _multiple_of(s: dict, ctx: Ctx) -> dict | None:
    """add ``multipleOf`` to a numeric schema, or double/halve/drop the one there."""
    if _num(s.get("multipleOf")):
        how = ctx.rng.choice(["double", "halve", "drop"])
        if how == "drop":
            del s["multipleOf"]
        else:
            m = s["multipleOf"]
            s["multipleOf"] = m * 2 if how == "double" else (m // 2 if isinstance(m, int) and m % 2 == 0 else m / 2)
        return s
    if not _types(s) & {"integer", "number"}:
        return None
    s["multipleOf"] = ctx.rng.choice([1, 2, 0.5, 3])
    return s


# ------------------------------------------------------------------ lengths and counts
LENGTHS = {"string": ("minLength", "maxLength"), "array": ("minItems", "maxItems"),
           "object": ("minProperties", "maxProperties")}


def _len_bound(tighter: bool):
    def edit(s: dict, ctx: Ctx) -> dict | None:
        keys = [k for pair in LENGTHS.values() for k in pair if isinstance(s.get(k), int) and not isinstance(s.get(k), bool)]
        if not keys:
            kinds = [t for t in _types(s) if t in LENGTHS]
            if not tighter or not kinds:
                return None
            lo, hi = LENGTHS[ctx.rng.choice(kinds)]
            if ctx.rng.random() < 0.5:
                s[lo] = ctx.rng.choice([1, 2])
            else:
                s[hi] = ctx.rng.choice([0, 3, 10])
            return s
        k = ctx.rng.choice(keys)
        up = k.startswith("min") == tighter
        s[k] = max(0, s[k] + (1 if up else -1) * ctx.rng.choice([1, 1, 2]))
        return s
    edit.__doc__ = f"{'tighten' if tighter else 'loosen'} a length/count bound (or add one)"
    return edit


# ------------------------------------------------------------------ enum, const, type
def _fresh_value(values: list, ctx: Ctx) -> Any:
    kinds = {type(v) for v in values}
    if kinds <= {int} and values:
        return max(values) + ctx.rng.choice([1, 7])
    if kinds <= {str} and values:
        return ctx.rng.choice(values) + "-x" if ctx.rng.random() < 0.5 else "zz-new"
    return ctx.rng.choice(["new", 12345, None, False])


def _enum_remove(s: dict, ctx: Ctx) -> dict | None:
    """remove one or two values of an ``enum`` (at least one stays)."""
    e = s.get("enum")
    if not isinstance(e, list) or len(e) < 2:
        return None
    for _ in range(min(len(e) - 1, ctx.rng.choice([1, 1, 2]))):
        e.pop(ctx.rng.randrange(len(e)))
    return s


def _enum_add(s: dict, ctx: Ctx) -> dict | None:
    """add a value to an ``enum`` (or turn a ``const`` into a two-value ``enum``)."""
    if isinstance(s.get("enum"), list):
        v = _fresh_value(s["enum"], ctx)
        if v in s["enum"]:
            return None
        s["enum"].insert(ctx.rng.randrange(len(s["enum"]) + 1), v)
        return s
    if "const" in s and ctx.dialect != 4:
        v = s.pop("const")
        s["enum"] = [v, _fresh_value([v], ctx)]
        return s
    return None


def _enum_reorder(s: dict, ctx: Ctx) -> dict | None:
    """reorder an ``enum`` or a ``type`` list (meaning kept)."""
    k = ctx.rng.choice([k for k in ("enum", "type", "required") if isinstance(s.get(k), list) and len(s[k]) > 1] or [None])
    if k is None:
        return None
    s[k] = list(reversed(s[k]))
    return s


def _type_remove(s: dict, ctx: Ctx) -> dict | None:
    """drop a member of a ``type`` list, or turn ``number`` into ``integer``."""
    t = s.get("type")
    if isinstance(t, list) and len(t) > 1:
        t.pop(ctx.rng.randrange(len(t)))
        if len(t) == 1 and ctx.rng.random() < 0.5:
            s["type"] = t[0]
        return s
    if t == "number":
        s["type"] = "integer"
        return s
    return None


def _type_add(s: dict, ctx: Ctx) -> dict | None:
    """add a member to ``type`` (``null`` mostly), or turn ``integer`` into ``number``."""
    t = s.get("type")
    if t == "integer" and ctx.rng.random() < 0.5:
        s["type"] = "number"
        return s
    have = _types(s)
    if not have:
        return None
    extra = "null" if "null" not in have and ctx.rng.random() < 0.6 else ctx.rng.choice(
        [x for x in TYPES if x not in have] or ["null"])
    if extra in have:
        return None
    s["type"] = ([t] if isinstance(t, str) else list(t)) + [extra]
    return s


# ------------------------------------------------------------------ objects
def _is_object(s: dict) -> bool:
    return "object" in _types(s) or "properties" in s or "required" in s


def _required_add(s: dict, ctx: Ctx) -> dict | None:
    """require a declared property not yet required (or a fresh name)."""
    if not _is_object(s):
        return None
    req = s.get("required", [])
    if not isinstance(req, list):
        return None
    cands = [n for n in s.get("properties", {}) if n not in req] or ["x-new-required"]
    s["required"] = req + [ctx.rng.choice(cands)]
    return s


def _required_remove(s: dict, ctx: Ctx) -> dict | None:
    """drop one ``required`` name."""
    req = s.get("required")
    if not isinstance(req, list) or not req:
        return None
    req.pop(ctx.rng.randrange(len(req)))
    if not req and (ctx.dialect == 4 or ctx.rng.random() < 0.5):
        del s["required"]
    return s


def _prop_add(s: dict, ctx: Ctx) -> dict | None:
    """add an optional property (typed) to an object schema, open or closed."""
    if not _is_object(s) or not isinstance(s.get("properties", {}), dict):
        return None
    props = s.setdefault("properties", {})
    name = ctx.rng.choice(["added", "x-extra", "note"])
    if name in props:
        return None
    props[name] = ctx.rng.choice([{"type": "string"}, {"type": "integer"}, {}, {"type": "boolean"}])
    return s


def _prop_remove(s: dict, ctx: Ctx) -> dict | None:
    """remove a property declaration (and its ``required`` entry)."""
    props = s.get("properties")
    if not isinstance(props, dict) or not props:
        return None
    name = ctx.rng.choice(sorted(props))
    del props[name]
    if isinstance(s.get("required"), list) and name in s["required"]:
        s["required"] = [r for r in s["required"] if r != name]
        if not s["required"] and ctx.dialect == 4:
            del s["required"]
    return s


def _additional(s: dict, ctx: Ctx) -> dict | None:
    """close an open object (``additionalProperties: false``) or open a closed one."""
    if not _is_object(s):
        return None
    if s.get("additionalProperties") is False:
        del s["additionalProperties"]
    elif "additionalProperties" not in s:
        s["additionalProperties"] = False
    else:
        return None
    return s


def _property_names(s: dict, ctx: Ctx) -> dict | None:
    """add a ``propertyNames`` bound, or drop the one there (draft-06 and later)."""
    if ctx.dialect == 4 or not _is_object(s):
        return None
    if "propertyNames" in s:
        del s["propertyNames"]
    else:
        s["propertyNames"] = ctx.rng.choice([{"maxLength": 20}, {"pattern": "^[a-zA-Z_$][a-zA-Z0-9_-]*$"},
                                             {"minLength": 2}])
    return s


# ------------------------------------------------------------------ strings
def _pattern(s: dict, ctx: Ctx) -> dict | None:
    """relax (drop an anchor), tighten (anchor, bound a repetition), replace or add a ``pattern``."""
    p = s.get("pattern")
    if isinstance(p, str):
        how = ctx.rng.choice(["unanchor", "anchor", "drop", "dot", "plus-star"])
        if how == "unanchor" and (p.startswith("^") or p.endswith("$")):
            s["pattern"] = p[1:] if p.startswith("^") else p[:-1]
        elif how == "anchor" and not (p.startswith("^") and p.endswith("$")):
            s["pattern"] = ("" if p.startswith("^") else "^") + p + ("" if p.endswith("$") else "$")
        elif how == "dot":
            s["pattern"] = "^.*$" if p != "^.*$" else "^.+$"
        elif how == "plus-star" and ("+" in p or "*" in p):
            s["pattern"] = p.replace("+", "\0").replace("*", "+").replace("\0", "*")
        else:
            del s["pattern"]
        return s
    if "string" not in _types(s):
        return None
    s["pattern"] = ctx.rng.choice(["^[a-z]", "^[A-Za-z0-9_-]+$", "\\S", "^.{0,40}$", "^[^\\s]+$"])
    return s


def _format(s: dict, ctx: Ctx) -> dict | None:
    """add, replace or drop an asserted ``format``."""
    f = s.get("format")
    if isinstance(f, str):
        if ctx.rng.random() < 0.5:
            del s["format"]
        else:
            s["format"] = ctx.rng.choice([x for x in FORMATS if x != f])
        return s
    if "string" not in _types(s):
        return None
    s["format"] = ctx.rng.choice(FORMATS)
    return s


# ------------------------------------------------------------------ arrays
def _is_array(s: dict) -> bool:
    return "array" in _types(s) or "items" in s or "prefixItems" in s


def _contains(s: dict, ctx: Ctx) -> dict | None:
    """add ``contains`` (with ``minContains``/``maxContains`` where the dialect has them), change
    its counts, or drop it."""
    if ctx.dialect == 4 or not _is_array(s):
        return None
    has_counts = ctx.dialect >= 2019
    if "contains" in s:
        how = ctx.rng.choice(["drop", "min", "max"] if has_counts else ["drop"])
        if how == "drop":
            for k in ("contains", "minContains", "maxContains"):
                s.pop(k, None)
        elif how == "min":
            s["minContains"] = max(0, s.get("minContains", 1) + ctx.rng.choice([1, -1]))
        else:
            s["maxContains"] = max(0, s.get("maxContains", 3) + ctx.rng.choice([1, -1]))
        return s
    items = s.get("items") if isinstance(s.get("items"), dict) else {}
    s["contains"] = copy.deepcopy(items) if items and ctx.rng.random() < 0.5 else {
        "type": ctx.rng.choice(["string", "integer", "object"])}
    if has_counts and ctx.rng.random() < 0.5:
        s[ctx.rng.choice(["minContains", "maxContains"])] = ctx.rng.choice([0, 1, 2])
    return s


def _unique(s: dict, ctx: Ctx) -> dict | None:
    """toggle ``uniqueItems``."""
    if not _is_array(s):
        return None
    if s.get("uniqueItems") is True:
        del s["uniqueItems"]
    else:
        s["uniqueItems"] = True
    return s


# ------------------------------------------------------------------ not, combinators, conditionals
def _core(s: dict) -> dict:
    """``s`` without its annotations and identifiers (what a rewrite may move around)."""
    return {k: v for k, v in s.items() if k not in ("$schema", "$id", "id", "$defs", "definitions",
                                                   "$anchor", "$dynamicAnchor", "$recursiveAnchor",
                                                   "title", "description", "$comment")}


def _shell(s: dict) -> dict:
    return {k: v for k, v in s.items() if k not in _core(s)}


def _not_not(s: dict, ctx: Ctx) -> dict | None:
    """``S`` -> ``{"not": {"not": S}}`` (meaning kept)."""
    core = _core(s)
    if not core or _refs_in_place(core):
        return None
    return {**_shell(s), "not": {"not": core}}


def _not_add(s: dict, ctx: Ctx) -> dict | None:
    """exclude one value (``not`` of a ``const``/``enum`` value or of a type)."""
    if "not" in s:
        del s["not"]
        return s
    if isinstance(s.get("enum"), list) and s["enum"]:
        v = ctx.rng.choice(s["enum"])
        s["not"] = {"enum": [v]} if ctx.dialect == 4 else {"const": v}
        return s
    t = _types(s)
    if len(t) > 1:
        s["not"] = {"type": ctx.rng.choice(sorted(t))}
        return s
    return None


def _reorder_branches(s: dict, ctx: Ctx) -> dict | None:
    """reverse the branches of an ``anyOf``/``oneOf``/``allOf`` (meaning kept)."""
    ks = [k for k in ("anyOf", "oneOf", "allOf") if isinstance(s.get(k), list) and len(s[k]) > 1]
    if not ks:
        return None
    k = ctx.rng.choice(ks)
    s[k] = list(reversed(s[k]))
    return s


def _kind_swap(s: dict, ctx: Ctx) -> dict | None:
    """``anyOf`` <-> ``oneOf`` (same branches; the meaning changes when branches overlap)."""
    for a, b in (("anyOf", "oneOf"), ("oneOf", "anyOf")):
        if isinstance(s.get(a), list) and b not in s:
            s[b] = s.pop(a)
            return s
    return None


def _if_to_cases(s: dict, ctx: Ctx) -> dict | None:
    """``if``/``then``/``else`` -> ``anyOf`` (or ``oneOf``: the cases are disjoint) of
    ``allOf [if, then]`` and ``allOf [not if, else]`` (meaning kept)."""
    if "if" not in s or ctx.dialect < 7:
        return None
    i, t, e = s.pop("if"), s.pop("then", True), s.pop("else", True)
    cases = [{"allOf": [i, t]}, {"allOf": [{"not": i}, e]}]
    s.setdefault("allOf", []).append({ctx.rng.choice(["anyOf", "oneOf"]): cases})
    return s


def _cases_to_if(s: dict, ctx: Ctx) -> dict | None:
    """``anyOf [A, B, ...]`` -> ``if A else (if B else ...)``; ``oneOf [A, B]`` -> ``if A then
    not B else B`` (meaning kept)."""
    if ctx.dialect < 7:
        return None
    if isinstance(s.get("anyOf"), list) and len(s["anyOf"]) >= 2:
        branches = s.pop("anyOf")
        cond: Any = branches[-1]
        for b in reversed(branches[:-1]):
            cond = {"if": b, "else": cond}
    elif isinstance(s.get("oneOf"), list) and len(s["oneOf"]) == 2:
        a, b = s.pop("oneOf")
        cond = {"if": a, "then": {"not": b}, "else": b}
    else:
        return None
    s.setdefault("allOf", []).append(cond)
    return s


# ------------------------------------------------------------------ $ref refactors
def _refs_in_place(s: Any) -> bool:
    """Whether moving ``s`` could change what references mean: it holds an ``$id``/``id``, an
    anchor or a dynamic reference (pointers into ``s`` are checked by :func:`refs_into`)."""
    text = json.dumps(s)
    return any(k in text for k in ('"$id"', '"id"', '"$anchor"', '"$dynamicAnchor"', '"$recursiveAnchor"',
                                   '"$dynamicRef"', '"$recursiveRef"'))


def _defs_key(root: dict, ctx: Ctx) -> str:
    if "definitions" in root and "$defs" not in root:
        return "definitions"
    return "definitions" if ctx.dialect <= 7 else "$defs"


def ref_extract(root: Any, ptr: str, ctx: Ctx) -> Any:
    """Move the subschema at ``ptr`` into the root's ``$defs`` (``definitions`` up to draft-07)
    and put a ``$ref`` to it in its place (meaning kept)."""
    if ptr == "" or not isinstance(root, dict):
        return None
    node = get(root, ptr)
    if not isinstance(node, dict) or not node or _refs_in_place(node) or "$ref" in node:
        return None
    key = _defs_key(root, ctx)
    defs = root.get(key, {})
    if not isinstance(defs, dict):
        return None
    name = f"extracted{len(defs)}"
    new = {**root, key: {**defs, name: node}}
    return _with(new, ptr, {"$ref": f"#/{key}/{name}"})


def ref_inline(root: Any, ptr: str, ctx: Ctx) -> Any:
    """Replace a local ``{"$ref": "#/..."}`` by its target when the target holds no reference and
    no identifier (meaning kept; beside other keywords, the target goes into an ``allOf``)."""
    node = get(root, ptr)
    if not isinstance(node, dict) or not isinstance(node.get("$ref"), str) or not node["$ref"].startswith("#/"):
        return None
    try:
        target = get(root, node["$ref"][1:])
    except (KeyError, IndexError, ValueError, TypeError):
        return None
    if not isinstance(target, (dict, bool)) or '"$ref"' in json.dumps(target) or _refs_in_place(target):
        return None
    rest = {k: v for k, v in node.items() if k != "$ref"}
    if rest and ctx.dialect <= 7:
        rest = {}  # $ref beside other keywords: they are ignored up to draft-07
    new = copy.deepcopy(target) if not rest else {**rest, "allOf": [*rest.get("allOf", []), copy.deepcopy(target)]}
    return _with(root, ptr, new)


def wrap_all_of(root: Any, ptr: str, ctx: Ctx) -> Any:
    """``S`` -> ``{"allOf": [S]}`` (meaning kept)."""
    node = get(root, ptr)
    if not isinstance(node, dict) or not _core(node) or _refs_in_place(_core(node)):
        return None
    return _with(root, ptr, {**_shell(node), "allOf": [_core(node)]})


OPERATORS: dict[str, Callable[[Any, str, Ctx], Any]] = {
    "num-tighten": _local(_num_bound(True)), "num-loosen": _local(_num_bound(False)),
    "draft4-exclusive": _local(_draft4_exclusive), "multipleOf": _local(_multiple_of),
    "len-tighten": _local(_len_bound(True)), "len-loosen": _local(_len_bound(False)),
    "enum-remove": _local(_enum_remove), "enum-add": _local(_enum_add), "reorder-list": _local(_enum_reorder),
    "type-remove": _local(_type_remove), "type-add": _local(_type_add),
    "required-add": _local(_required_add), "required-remove": _local(_required_remove),
    "property-add": _local(_prop_add), "property-remove": _local(_prop_remove),
    "additional-toggle": _local(_additional), "propertyNames": _local(_property_names),
    "pattern": _local(_pattern), "format": _local(_format),
    "contains": _local(_contains), "uniqueItems": _local(_unique),
    "not-not": _local(_not_not), "not-value": _local(_not_add),
    "reorder-branches": _local(_reorder_branches), "anyOf-oneOf": _local(_kind_swap),
    "if-to-cases": _local(_if_to_cases), "cases-to-if": _local(_cases_to_if),
    "ref-extract": ref_extract, "ref-inline": ref_inline, "wrap-allOf": wrap_all_of,
}
"""Every operator by name (the name is part of a pair's id)."""

def _has(*keys: str) -> Callable[[dict, int], bool]:
    return lambda s, d: any(k in s for k in keys)


def _typed(*types: str) -> Callable[[dict, int], bool]:
    return lambda s, d: bool(_types(s) & set(types))


def _longer(k: str, n: int = 2) -> Callable[[dict, int], bool]:
    return lambda s, d: isinstance(s.get(k), list) and len(s[k]) >= n


_NUM_KEYS = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum")
_LEN_KEYS = tuple(k for pair in LENGTHS.values() for k in pair)
_OBJ = lambda s, d: _is_object(s)  # noqa: E731
_ARR = lambda s, d: _is_array(s)  # noqa: E731

APPLIES: dict[str, Callable[[dict, int], bool]] = {
    "num-tighten": lambda s, d: _typed("integer", "number")(s, d) or _has(*_NUM_KEYS)(s, d),
    "num-loosen": _has(*_NUM_KEYS),
    "draft4-exclusive": lambda s, d: d == 4 and _has("minimum", "maximum")(s, d),
    "multipleOf": lambda s, d: _typed("integer", "number")(s, d) or "multipleOf" in s,
    "len-tighten": lambda s, d: _typed(*LENGTHS)(s, d) or _has(*_LEN_KEYS)(s, d),
    "len-loosen": _has(*_LEN_KEYS),
    "enum-remove": _longer("enum"), "enum-add": _has("enum", "const"),
    "reorder-list": lambda s, d: any(_longer(k)(s, d) for k in ("enum", "type", "required")),
    "type-remove": lambda s, d: _longer("type")(s, d) or s.get("type") == "number",
    "type-add": _has("type"),
    "required-add": _OBJ, "required-remove": lambda s, d: bool(s.get("required")),
    "property-add": _OBJ, "property-remove": lambda s, d: bool(s.get("properties")),
    "additional-toggle": _OBJ, "propertyNames": lambda s, d: d != 4 and _is_object(s),
    "pattern": lambda s, d: "pattern" in s or "string" in _types(s),
    "format": lambda s, d: "format" in s or "string" in _types(s),
    "contains": lambda s, d: d != 4 and _is_array(s), "uniqueItems": _ARR,
    "not-not": lambda s, d: bool(_core(s)),
    "not-value": lambda s, d: "not" in s or _longer("enum", 1)(s, d) or _longer("type")(s, d),
    "reorder-branches": lambda s, d: any(_longer(k)(s, d) for k in ("anyOf", "oneOf", "allOf")),
    "anyOf-oneOf": _has("anyOf", "oneOf"),
    "if-to-cases": lambda s, d: d >= 7 and "if" in s,
    "cases-to-if": lambda s, d: d >= 7 and (_longer("anyOf")(s, d) or _longer("oneOf")(s, d)),
    "ref-extract": lambda s, d: bool(s) and "$ref" not in s,
    "ref-inline": lambda s, d: isinstance(s.get("$ref"), str) and s["$ref"].startswith("#/"),
    "wrap-allOf": lambda s, d: bool(_core(s)),
}
"""A cheap test of whether an operator may apply at a subschema (the operator decides)."""

MEANING_KEPT = frozenset({"reorder-list", "not-not", "reorder-branches", "if-to-cases", "cases-to-if",
                          "ref-extract", "ref-inline", "wrap-allOf"})
"""Operators that never change which documents are valid (a PATCH is expected of them; the
oracle still checks, it does not assume)."""


NOT_IN_DRAFT04 = frozenset({"const", "contains", "propertyNames", "if", "then", "else", "prefixItems",
                          "dependentRequired", "dependentSchemas", "unevaluatedItems",
                          "unevaluatedProperties", "$anchor", "$dynamicRef", "$dynamicAnchor",
                          "$recursiveRef", "$recursiveAnchor", "minContains", "maxContains", "$id",
                          "$defs", "examples"})


def to_draft04(schema: Any) -> Any:
    """A draft-04 schema with the meaning of ``schema`` (draft-06/07 without the keywords draft-04
    lacks), or ``None``: ``definitions`` kept, numeric ``exclusiveMinimum``/``exclusiveMaximum``
    turned into a bound with the boolean flag, ``const`` into a one-value ``enum``."""
    if not isinstance(schema, dict) or dialect_of(schema) not in (6, 7):
        return None
    text = json.dumps(schema)
    for kw in NOT_IN_DRAFT04 - {"const", "examples"}:
        if f'"{kw}"' in text:
            return None
    out = copy.deepcopy(schema)
    for _, s in list(subschemas(out)):
        s.pop("examples", None)
        if "const" in s:
            s["enum"] = [s.pop("const")]
        for ex, b in (("exclusiveMinimum", "minimum"), ("exclusiveMaximum", "maximum")):
            if _num(s.get(ex)):
                if b in s:
                    return None  # both bounds: no single draft-04 spelling keeps the meaning
                s[b] = s.pop(ex)
                s[ex] = True
        if any(isinstance(s.get(k), bool) for k in SCHEMA_ONE + ("items",) if k not in (
                "additionalProperties", "additionalItems")):
            return None  # boolean subschemas are draft-06 and later
        if any(isinstance(v, bool) for k in SCHEMA_MAPS for v in (s.get(k) or {}).values()
               if isinstance(s.get(k), dict)):
            return None
        if isinstance(s.get("required"), list) and not s["required"]:
            del s["required"]
    out["$schema"] = D4
    return out


def refs_into(root: Any, ptr: str) -> bool:
    """Whether a local ``$ref`` of ``root`` points strictly inside the subschema at ``ptr`` (an
    edit there could make it dangle or change its target)."""
    prefix = "#" + ptr + "/"
    return any(isinstance(s.get("$ref"), str) and s["$ref"].startswith(prefix) for _, s in subschemas(root))
