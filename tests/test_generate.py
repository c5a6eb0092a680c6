"""Tests of evalport_spec.generate: minimal, varied and candidate instances.

Every "valid" claim is re-checked here with an independently built jsonschema validator, so a
broken internal filter would fail these tests.
"""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
import referencing
import referencing.jsonschema
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema.validators import validator_for

from evalport_spec.errors import InputError
from evalport_spec.generate import (
    NOTHING,
    generate_candidates,
    generate_valid,
    minimal_valid,
    mutate_duplicates,
    schema_kwargs,
)
from evalport_spec.jsonload import loads
from evalport_spec.schemaset import SchemaSet

ROOT = Path(__file__).resolve().parents[1]
D04 = "http://json-schema.org/draft-04/schema#"
D07 = "http://json-schema.org/draft-07/schema#"
D2019 = "https://json-schema.org/draft/2019-09/schema"


def is_valid(schema, instance, registry=None):
    """Independent check: the dialect's validator with format assertion on."""
    cls = validator_for(schema, default=jsonschema.Draft202012Validator)
    kwargs = {"format_checker": cls.FORMAT_CHECKER}
    if registry is not None:
        kwargs["registry"] = registry
    return cls(schema, **kwargs).is_valid(instance)


# --- minimal_valid: values worked out by hand ------------------------------------------------

@pytest.mark.parametrize("schema, expected", [
    ({"type": "integer", "minimum": 5, "multipleOf": 3}, 6),
    ({"type": "integer", "exclusiveMaximum": -2}, -3),
    ({"type": "string", "minLength": 3}, "aaa"),
    ({"type": "string", "pattern": r"^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$"}, "0.0.0"),
    ({"type": "string", "pattern": "^[a-z]+$", "minLength": 4}, "aaaa"),
    ({"type": "string", "format": "date-time"}, "2024-01-02T03:04:05Z"),
    ({"type": "string", "format": "uuid"}, "00000000-0000-4000-8000-000000000000"),
    ({"type": "string", "format": "email"}, "a@example.com"),
    ({"type": "object", "required": ["b"], "properties": {"a": {"type": "string"}, "b": {"type": "boolean"}}},
     {"b": False}),
    ({"type": "array", "minItems": 2, "uniqueItems": True, "items": {"enum": [1, 2, 3]}}, [1, 2]),
    ({"type": "array", "contains": {"const": 5}, "minContains": 2}, [5, 5]),
    ({"type": "object", "dependentRequired": {"a": ["b"]}, "required": ["a"]}, {"a": None, "b": None}),
    ({"type": "object", "required": ["k"], "dependentSchemas": {"k": {"required": ["m"]}}},
     {"k": None, "m": None}),
    ({"enum": ["x", "y"], "not": {"const": "x"}}, "y"),
    ({"const": {"a": [1]}}, {"a": [1]}),
    ({"type": "object", "required": ["t"], "properties": {"t": {"type": "string"}},
      "if": {"properties": {"t": {"const": "x"}}, "required": ["t"]}, "then": {"required": ["y"]}},
     {"t": ""}),
    ({"$defs": {"a": {"$anchor": "pos", "type": "integer", "minimum": 1}}, "$ref": "#pos"}, 1),
    ({"$schema": D04, "type": "integer", "minimum": 5, "exclusiveMinimum": True}, 6),
    # drafts 04-07 ignore $ref siblings; 2020-12 applies them
    ({"$schema": D07, "definitions": {"s": {"type": "string"}}, "$ref": "#/definitions/s",
      "minLength": 5}, ""),
    ({"$defs": {"s": {"type": "string"}}, "$ref": "#/$defs/s", "minLength": 5}, "aaaaa"),
    ({"$schema": D07, "type": "array", "items": [{"const": 1}, {"const": "x"}],
      "additionalItems": False, "minItems": 2}, [1, "x"]),
    ({"type": "array", "prefixItems": [{"const": 1}], "items": False, "minItems": 1}, [1]),
    ({"$schema": D04, "type": "object", "dependencies": {"a": ["b"]}, "required": ["a"]},
     {"a": None, "b": None}),
])
def test_minimal_valid_by_hand(schema, expected):
    got = minimal_valid(schema)
    assert got == expected and type(got) is type(expected)
    assert is_valid(schema, got)


def test_minimal_oneof_exactly_one():
    schema = {"oneOf": [{"type": "integer"}, {"type": "number", "minimum": 0}]}
    got = minimal_valid(schema)
    # an integer >= 0 satisfies both branches, so the instance must avoid that overlap
    assert got is not NOTHING and is_valid(schema, got)
    assert not (isinstance(got, int) and got >= 0)


def test_minimal_not_and_unevaluated():
    schema = {"type": "object", "properties": {"a": {"type": "integer"}}, "minProperties": 1,
              "unevaluatedProperties": False, "not": {"required": ["a"]}}
    assert minimal_valid(schema) is NOTHING  # only "a" may appear and "a" is forbidden
    schema["properties"]["b"] = {"type": "null"}
    assert minimal_valid(schema) == {"b": None}


@pytest.mark.parametrize("schema", [
    {"type": "string", "minLength": 3, "maxLength": 2},
    False,
    {"not": {}},
    {"type": "integer", "minimum": 1, "maximum": 2, "multipleOf": 5},
    {"type": "array", "minItems": 3, "uniqueItems": True, "items": {"type": "boolean"}},
    {"allOf": [{"type": "string"}, {"type": "integer"}]},
    {"type": "object", "required": ["a"], "properties": {"a": {"$ref": "#"}}},  # infinite only
])
def test_unsatisfiable_gives_nothing(schema):
    assert minimal_valid(schema) is NOTHING
    assert generate_valid(schema, n=5) == []


def test_nothing_sentinel():
    assert not NOTHING and repr(NOTHING) == "NOTHING"
    import copy
    assert copy.deepcopy(NOTHING) is NOTHING


def test_bad_input_is_input_error():
    with pytest.raises(InputError, match="must be an object or a boolean"):
        minimal_valid("not a schema")
    with pytest.raises(InputError, match="unresolvable \\$ref 'other.json'"):
        minimal_valid({"$ref": "other.json"})


# --- recursion and termination ---------------------------------------------------------------

TREE = {"$defs": {"node": {"type": "object", "required": ["v"], "additionalProperties": False,
                           "properties": {"v": {"type": "integer"},
                                          "kids": {"type": "array", "items": {"$ref": "#/$defs/node"}}}}},
        "$ref": "#/$defs/node"}

MUTUAL = {"$defs": {"A": {"type": "object", "required": ["b"], "properties": {"b": {"$ref": "#/$defs/B"}}},
                    "B": {"anyOf": [{"$ref": "#/$defs/A"}, {"type": "null"}]}},
          "$ref": "#/$defs/A"}


def _depth(v):
    if isinstance(v, dict):
        return 1 + max((_depth(x) for x in v.values()), default=0)
    if isinstance(v, list):
        return 1 + max((_depth(x) for x in v), default=0)
    return 0


def test_recursive_tree_terminates_and_varies():
    assert minimal_valid(TREE) == {"v": 0}
    got = generate_valid(TREE, n=30, seed=4, max_depth=6)
    assert len(got) == 30
    assert all(is_valid(TREE, g) and _depth(g) <= 7 for g in got)
    assert any(_depth(g) >= 3 for g in got)  # some trees do nest


def test_mutually_recursive_terminates():
    assert minimal_valid(MUTUAL) == {"b": None}
    got = generate_valid(MUTUAL, n=10, seed=1)
    assert got and all(is_valid(MUTUAL, g) for g in got)
    assert any(isinstance(g["b"], dict) for g in got)


def test_recursive_ref_2019():
    schema = {"$schema": D2019, "$recursiveAnchor": True, "type": "object",
              "properties": {"kids": {"type": "array", "items": {"$recursiveRef": "#"}}}}
    got = generate_valid(schema, n=15, seed=2)
    assert got and all(is_valid(schema, g) for g in got)
    assert any(g.get("kids") for g in got)


def test_dynamic_ref_through_registry():
    tree = {"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": "https://example.com/tree",
            "$dynamicAnchor": "node", "type": "object",
            "properties": {"data": True, "children": {"type": "array", "items": {"$dynamicRef": "#node"}}}}
    strict = {"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": "https://example.com/strict",
              "$dynamicAnchor": "node", "$ref": "tree", "unevaluatedProperties": False}
    registry = referencing.Registry().with_resources(
        [(s["$id"], referencing.jsonschema.DRAFT202012.create_resource(s)) for s in (tree, strict)])
    got = generate_valid(strict, registry=registry, base_uri=strict["$id"], n=20, seed=0)
    assert got and all(is_valid(strict, g, registry) for g in got)
    # children's members are checked against the *strict* tree ($dynamicRef): no extra names there
    assert all(set(g) <= {"data", "children"} for g in got)


def test_step_budget_bounds_work():
    # 3**12 branch combinations, all inconsistent with the last conjunct: NOTHING, quickly
    schema = {"allOf": [{"anyOf": [{"type": "string"}, {"type": "integer"}, {"type": "object"}]}
                        for _ in range(12)] + [{"type": "boolean"}]}
    assert minimal_valid(schema, max_steps=3000) is NOTHING
    assert generate_valid(schema, n=5, max_steps=3000) == []


# --- generate_valid: variety and determinism -------------------------------------------------

RICH = {"type": "object", "required": ["id", "kind"],
        "properties": {"id": {"type": "string", "minLength": 1, "maxLength": 8},
                       "kind": {"enum": ["a", "b", "c", "d"]},
                       "n": {"type": "integer", "minimum": -3, "maximum": 9},
                       "tags": {"type": "array", "items": {"type": "string"}},
                       "value": {"type": ["string", "integer", "null"]},
                       "shape": {"oneOf": [{"type": "object", "required": ["r"], "properties": {"r": {"type": "number"}}},
                                           {"type": "array", "maxItems": 2},
                                           {"type": "boolean"}]},
                       "meta": {"type": "object"}}}


def test_generate_valid_all_valid_and_distinct():
    got = generate_valid(RICH, n=50, seed=0)
    assert len(got) == 50
    assert all(is_valid(RICH, g) for g in got)
    assert len({json.dumps(g, sort_keys=True) for g in got}) == 50
    assert got[0] == minimal_valid(RICH) == {"id": "a", "kind": "a"}


def test_generate_valid_deterministic_per_seed():
    assert generate_valid(RICH, n=20, seed=7) == generate_valid(RICH, n=20, seed=7)
    assert generate_valid(RICH, n=20, seed=7) != generate_valid(RICH, n=20, seed=8)


def test_generate_valid_covers_choices():
    got = generate_valid(RICH, n=50, seed=0)
    assert {g["kind"] for g in got} == {"a", "b", "c", "d"}                      # each enum value
    assert {type(g["value"]).__name__ for g in got if "value" in g} == {"str", "int", "NoneType"}
    shapes = {type(g["shape"]).__name__ for g in got if "shape" in g}
    assert shapes == {"dict", "list", "bool"}                                    # each oneOf branch
    assert any("n" in g for g in got) and any("n" not in g for g in got)         # optional on/off
    assert {-3, 9} <= {g["n"] for g in got if "n" in g}                          # numeric bounds
    assert {1, 8} <= {len(g["id"]) for g in got}                                 # length bounds
    extras = [g for g in got if set(g) - set(RICH["properties"])]                # open object
    assert extras
    extra_types = {type(v).__name__ for g in extras for k, v in g.items() if k not in RICH["properties"]}
    assert len(extra_types) >= 3


def test_duplicates_only_where_allowed():
    loose = {"type": "array", "items": {"type": "integer", "minimum": 0, "maximum": 3}}
    strict = dict(loose, uniqueItems=True)

    def has_dup(a):
        return len({json.dumps(x) for x in a}) < len(a)

    assert any(has_dup(a) for a in generate_valid(loose, n=30, seed=1))
    got = generate_valid(strict, n=30, seed=1)
    assert got and not any(has_dup(a) for a in got)


def test_equal_values_across_siblings_happen():
    schema = {"type": "object", "required": ["a", "b"],
              "properties": {"a": {"type": "string"}, "b": {"type": "string"}}}
    assert any(g["a"] == g["b"] for g in generate_valid(schema, n=30, seed=0))


# --- random small schemas (hypothesis) -------------------------------------------------------

_leaf = st.one_of(
    st.just({"type": "null"}),
    st.just({"type": "boolean"}),
    st.builds(lambda lo, span, m: {"type": "integer", "minimum": lo, "maximum": lo + span,
                                   **({"multipleOf": m} if m else {})},
              st.integers(-50, 50), st.integers(0, 40), st.sampled_from([None, 2, 3, 7])),
    st.builds(lambda lo, ex: {"type": "number", "exclusiveMinimum": lo, "maximum": lo + ex},
              st.integers(-5, 5), st.sampled_from([0.5, 1, 10])),
    st.builds(lambda a, b, p: {"type": "string", "minLength": a, "maxLength": a + b + 1, **({"pattern": p} if p else {})},
              st.integers(0, 4), st.integers(0, 6), st.sampled_from([None, "^[a-z]*$", "[0-9]", "^x"])),
    st.builds(lambda f: {"type": "string", "format": f},
              st.sampled_from(["date-time", "date", "email", "uri", "uuid", "ipv4", "hostname"])),
    st.lists(st.one_of(st.integers(-3, 3), st.text("ab", max_size=2), st.none()), min_size=1, max_size=4,
             unique_by=lambda x: json.dumps(x)).map(lambda vs: {"enum": vs}),
)


def _compound(children):
    names = st.sampled_from(["a", "b", "c", "d"])
    obj = st.builds(
        lambda props, req, addl: {"type": "object", "properties": props,
                                  "required": sorted(set(req) & set(props)), "additionalProperties": addl},
        st.dictionaries(names, children, max_size=3), st.lists(names, max_size=3),
        st.one_of(st.booleans(), children))
    arr = st.builds(lambda it, lo, span, u: {"type": "array", "items": it, "minItems": lo,
                                             "maxItems": lo + span, "uniqueItems": u},
                    children, st.integers(0, 2), st.integers(0, 3), st.booleans())
    comb = st.builds(lambda kw, subs: {kw: subs}, st.sampled_from(["anyOf", "oneOf", "allOf"]),
                     st.lists(children, min_size=1, max_size=3))
    neg = st.builds(lambda a, b: {"allOf": [a, {"not": b}]}, children, children)
    cond = st.builds(lambda i, t, e: {"if": i, "then": t, "else": e}, children, children, children)
    return st.one_of(obj, arr, comb, neg, cond)


SCHEMAS = st.recursive(_leaf, _compound, max_leaves=6)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(SCHEMAS, st.integers(0, 3))
def test_every_returned_instance_is_valid(schema, seed):
    for v in generate_valid(schema, n=4, seed=seed, max_depth=4, max_steps=4000):
        assert is_valid(schema, v), (schema, v)
    m = minimal_valid(schema, max_steps=4000)
    assert m is NOTHING or is_valid(schema, m)


@settings(max_examples=60, deadline=None)
@given(st.recursive(_leaf, lambda ch: st.builds(
    lambda props: {"type": "object", "properties": props, "required": sorted(props)},
    st.dictionaries(st.sampled_from(["a", "b", "c"]), ch, max_size=3)), max_leaves=5))
def test_satisfiable_schemas_are_satisfied(schema):
    # every leaf above is satisfiable and objects only combine them: an instance must be found
    # (the leaf strategy's integer ranges all contain a multiple, e.g. span 0 with multipleOf 7?)
    m = minimal_valid(schema)
    if _has_empty_integer_range(schema):
        return
    assert m is not NOTHING and is_valid(schema, m)


def _has_empty_integer_range(s):
    if isinstance(s, dict):
        if s.get("type") == "integer" and "multipleOf" in s:
            lo, hi, m = s["minimum"], s["maximum"], s["multipleOf"]
            if not any(x % m == 0 for x in range(lo, hi + 1)):
                return True
        return any(_has_empty_integer_range(v) for v in s.get("properties", {}).values())
    return False


# --- candidates and duplicates ---------------------------------------------------------------

def test_candidates_include_targeted_violations():
    schema = {"type": "object", "required": ["a"], "additionalProperties": False,
              "properties": {"a": {"type": "integer", "maximum": 3}, "s": {"enum": ["x", "y"]}}}
    got = generate_candidates(schema, n=200, seed=0)
    assert {} in got                                   # required member removed
    assert any(g == {"a": 4} or g.get("a") == 4 for g in got if isinstance(g, dict))   # bound + 1
    assert any(isinstance(g, dict) and "zz_unknown" in g for g in got)  # closed object, new member
    assert any(isinstance(g, dict) and isinstance(g.get("a"), str) for g in got)  # wrong type
    assert any(not is_valid(schema, g) for g in got) and any(is_valid(schema, g) for g in got)
    assert generate_candidates(schema, n=30, seed=3) == generate_candidates(schema, n=30, seed=3)
    assert len(generate_candidates(schema, n=30, seed=3)) == 30


def test_mutate_duplicates():
    doc = {"a": [1, 2], "b": {"c": [{"x": 1}]}, "d": []}
    before = json.dumps(doc)
    got = list(mutate_duplicates(doc))
    assert got == [{"a": [1, 2, 1], "b": {"c": [{"x": 1}]}, "d": []},
                   {"a": [1, 2, 2], "b": {"c": [{"x": 1}]}, "d": []},
                   {"a": [1, 2], "b": {"c": [{"x": 1}, {"x": 1}]}, "d": []}]
    assert json.dumps(doc) == before
    assert len(list(mutate_duplicates({"a": list(range(10))}, per_array=2))) == 2
    assert list(mutate_duplicates(5)) == []


# --- schema sets and the EvalPort schemas ----------------------------------------------------

def test_schema_set_with_relative_refs():
    a = {"$id": "https://example.com/s/a.json", "type": "object", "required": ["b"],
         "properties": {"b": {"$ref": "b.json"}}}
    b = {"$id": "https://example.com/s/b.json", "type": "string", "pattern": "^v[0-9]+$"}
    ss = SchemaSet.from_loaded({"a.json": loads(json.dumps(a), "a.json"), "b.json": loads(json.dumps(b), "b.json")})
    got = minimal_valid(**schema_kwargs(ss, "a.json"))
    assert got == {"b": "v0"}
    assert all(ss.validator("a.json").is_valid(g) for g in generate_valid(**schema_kwargs(ss, "a.json"), n=10))


SCHEMA_DIR = ROOT / "spec" / "schemas"
EVALPORT = sorted(p.name for p in SCHEMA_DIR.glob("*.json"))


@pytest.fixture(scope="module")
def evalport_set():
    from evalport_spec.spec import SpecRepo
    return SpecRepo(ROOT).version("draft").schemas


@pytest.mark.parametrize("name", EVALPORT)
def test_evalport_schemas(evalport_set, name):
    v = evalport_set.validator(name)
    m = minimal_valid(**schema_kwargs(evalport_set, name))
    assert m is not NOTHING and v.is_valid(m)
    got = generate_valid(**schema_kwargs(evalport_set, name), n=15, seed=0)
    assert len(got) == 15 and all(v.is_valid(g) for g in got)
