"""Property tests of the classifier on random schemas (Hypothesis), toolchain.md "Prove it".

* ``diff(a, a)`` is PATCH both ways with no findings, and so is ``a`` against a copy with
  annotations added and keys reordered (which skips the byte-identity shortcut);
* a MINOR or PATCH verdict has no counter-example among documents generated from the OLD schema
  (``generate.generate_valid`` and ``generate.generate_candidates``) plus a fixed pool; a PATCH
  verdict none in either direction (documents of the new schema too);
* every decided MAJOR finding's witness is valid under old and invalid under new.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from evalport_spec.compat import compare
from evalport_spec.findings import ChangeClass
from evalport_spec.generate import generate_candidates, generate_valid, schema_kwargs
from evalport_spec.jsonload import loads
from evalport_spec.schemaset import SchemaSet

# compare() raises the recursion limit for deep $ref graphs while it runs (and restores it); the
# sampler's nested Hypothesis search notices and warns
pytestmark = pytest.mark.filterwarnings("ignore:The recursion limit will not be reset")

POOL = [None, True, False, 0, 1, -1, 2, 3, 0.5, 7, 100, "", "a", "ab", "abcdef", "x", [], [1], [1, 1],
        ["a", 2], ["a", "a"], [None], {}, {"a": 1}, {"a": "x"}, {"b": None}, {"a": 1, "b": "y"},
        {"a": "x", "c": []}, {"a": 0.5}, {"c": {"a": 1}}, {"a": [1, 2, 3]}, {"b": {}}, {"k": "z", "a": 2}]

NAMES = ["a", "b", "c"]
leaf = st.one_of(
    st.fixed_dictionaries({"type": st.sampled_from(["string", "integer", "number", "boolean", "null"])}),
    st.fixed_dictionaries({"enum": st.lists(st.sampled_from([0, 1, 2, "a", "x", None, True]), min_size=1,
                                            max_size=3, unique_by=repr)}),
    st.fixed_dictionaries({"const": st.sampled_from([0, 1, "a", None])}),
    st.fixed_dictionaries({"type": st.sampled_from(["integer", "number"])},
                          optional={"minimum": st.integers(-2, 3), "maximum": st.integers(0, 8),
                                    "exclusiveMinimum": st.integers(-2, 3),
                                    "multipleOf": st.sampled_from([1, 2, 0.5])}),
    st.fixed_dictionaries({"type": st.just("string")},
                          optional={"maxLength": st.integers(0, 4), "minLength": st.integers(0, 3),
                                    "pattern": st.sampled_from(["^a", "b$", "^[a-c]*$"])}),
    st.booleans(),
)


def _composite(inner):
    return st.one_of(
        st.fixed_dictionaries(
            {"type": st.just("object"), "properties": st.dictionaries(st.sampled_from(NAMES), inner, max_size=2)},
            optional={"required": st.lists(st.sampled_from(NAMES), max_size=2, unique=True),
                      "additionalProperties": st.one_of(st.booleans(), inner),
                      "minProperties": st.integers(0, 2), "maxProperties": st.integers(1, 3)}),
        st.fixed_dictionaries({"type": st.just("array"), "items": inner},
                              optional={"maxItems": st.integers(0, 2), "minItems": st.integers(0, 2),
                                        "uniqueItems": st.booleans()}),
        st.fixed_dictionaries({"type": st.just("array"), "prefixItems": st.lists(inner, min_size=1, max_size=2)},
                              optional={"items": st.booleans()}),
        st.fixed_dictionaries({"anyOf": st.lists(inner, min_size=1, max_size=2)}),
        st.fixed_dictionaries({"oneOf": st.lists(inner, min_size=1, max_size=3)}),
        st.fixed_dictionaries({"allOf": st.lists(inner, min_size=1, max_size=2)}),
        st.fixed_dictionaries({"not": inner}),
        st.fixed_dictionaries({"if": inner, "then": inner}, optional={"else": inner}),
    )


schemas = st.recursive(leaf, _composite, max_leaves=5)


def with_defs(s):
    """Wrap ``s`` in ``$defs`` reached through ``$ref`` (exercises reference resolution)."""
    return {"$defs": {"main": s}, "$ref": "#/$defs/main"}


top = st.one_of(schemas, schemas.map(with_defs))


def sset(s, label):
    return SchemaSet.from_loaded({"s.json": loads(json.dumps(s), f"{label}/s.json")}, label)


def decorate(s):
    """The same schema with annotations added and keys in reverse order (same meaning)."""
    if isinstance(s, list):
        return [decorate(x) for x in s]
    if not isinstance(s, dict):
        return s
    out = {k: (v if k in ("enum", "const", "required", "pattern", "type") else decorate(v))
           for k, v in reversed(list(s.items()))}
    for k in ("properties", "$defs"):
        if k in out:
            out[k] = {n: decorate(v) for n, v in reversed(list(s[k].items()))}
    out["description"] = "annotated"
    out["$comment"] = "c"
    return out


def documents(s: SchemaSet, n: int = 25) -> list:
    kw = schema_kwargs(s, "s.json")
    return POOL + generate_valid(**kw, n=n, seed=1) + generate_candidates(**kw, n=n, seed=2)


CFG = settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)


@CFG
@given(top)
def test_a_schema_against_itself_is_patch_without_findings(s):
    c = compare(sset(s, "o"), sset(s, "n"), search_budget=10)
    assert (c.change_class, c.forward_class) == (ChangeClass.PATCH, ChangeClass.PATCH)
    assert c.findings == []
    d = decorate(s)
    c = compare(sset(s, "o"), sset(d, "n"), search_budget=10)
    assert (c.change_class, c.forward_class) == (ChangeClass.PATCH, ChangeClass.PATCH), c.findings
    assert all(f.change_class == ChangeClass.PATCH for f in c.findings), c.findings


@settings(CFG, max_examples=120)
@given(top, top)
def test_verdicts_hold_on_random_pairs(a, b):
    so, sn = sset(a, "o"), sset(b, "n")
    c = compare(so, sn, search_budget=10)
    assert not c.stats.get("unaccounted_edits"), c.stats["unaccounted_edits"]  # no silent edit
    vo, vn = so.validator("s.json"), sn.validator("s.json")
    if c.change_class != ChangeClass.MAJOR:
        for doc in documents(so):  # no counter-example among the old schema's documents
            assert not (vo.is_valid(doc) and not vn.is_valid(doc)), (doc, c.change_class)
    for f in c.findings:
        if f.change_class == ChangeClass.MAJOR and not f.undecided:
            assert vo.is_valid(f.witness) and not vn.is_valid(f.witness), f
    if c.change_class == ChangeClass.PATCH:
        for doc in documents(sn):
            assert vo.is_valid(doc) == vn.is_valid(doc), doc


@CFG
@given(top)
def test_a_tightened_copy_is_major_with_a_verified_witness(s):
    """Adding ``not`` of a value the old schema accepts always removes a document: MAJOR."""
    so = sset(s, "o")
    valid = generate_valid(**schema_kwargs(so, "s.json"), n=1, seed=0)
    if not valid:
        return
    ban = {"not": {"const": valid[0]}}
    new = {**s, **ban} if isinstance(s, dict) and "$defs" in s else {"allOf": [s, ban]}
    c = compare(so, sset(new, "n"), search_budget=10)
    assert c.change_class == ChangeClass.MAJOR
    decided = [f for f in c.findings if f.change_class == ChangeClass.MAJOR and not f.undecided]
    assert decided, c.findings
    vo, vn = so.validator("s.json"), sset(new, "n").validator("s.json")
    for f in decided:
        assert vo.is_valid(f.witness) and not vn.is_valid(f.witness), f
