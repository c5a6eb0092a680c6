"""Property tests of the classifier on random small schemas (Hypothesis)."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from evalport_spec.compat import compare
from evalport_spec.findings import ChangeClass
from evalport_spec.jsonload import loads
from evalport_spec.schemaset import SchemaSet

POOL = [None, True, False, 0, 1, -1, 2, 0.5, 7, 100, "", "a", "ab", "abcdef", [], [1], [1, 1], ["a", 2],
        {}, {"a": 1}, {"a": "x"}, {"b": None}, {"a": 1, "b": "y"}, {"a": "x", "c": []}, {"a": 0.5}]

leaf = st.one_of(
    st.fixed_dictionaries({"type": st.sampled_from(["string", "integer", "number", "boolean", "null"])}),
    st.fixed_dictionaries({"enum": st.lists(st.sampled_from([0, 1, 2, "a", "x", None, True]), min_size=1,
                                            max_size=3, unique_by=repr)}),
    st.fixed_dictionaries({"type": st.just("integer")}, optional={"minimum": st.integers(-2, 3),
                                                                   "maximum": st.integers(0, 8)}),
    st.fixed_dictionaries({"type": st.just("string")}, optional={"maxLength": st.integers(0, 4),
                                                                  "minLength": st.integers(0, 3)}),
    st.booleans(),
)
schemas = st.recursive(leaf, lambda inner: st.one_of(
    st.fixed_dictionaries({"type": st.just("object"),
                           "properties": st.dictionaries(st.sampled_from(["a", "b", "c"]), inner, max_size=2)},
                          optional={"required": st.lists(st.sampled_from(["a", "b"]), max_size=2, unique=True),
                                    "additionalProperties": st.booleans()}),
    st.fixed_dictionaries({"type": st.just("array"), "items": inner},
                          optional={"maxItems": st.integers(0, 2)}),
    st.fixed_dictionaries({"anyOf": st.lists(inner, min_size=1, max_size=2)}),
), max_leaves=4)


def sset(s, label):
    return SchemaSet.from_loaded({"s.json": loads(json.dumps(s), f"{label}/s.json")}, label)


CFG = settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)


@CFG
@given(schemas)
def test_a_schema_against_itself_is_patch_without_findings(s):
    c = compare(sset(s, "o"), sset(s, "n"), search_budget=10)
    assert c.change_class == ChangeClass.PATCH and c.forward_class == ChangeClass.PATCH
    assert c.findings == []


@CFG
@given(schemas, schemas)
def test_verdicts_hold_on_random_pairs(a, b):
    so, sn = sset(a, "o"), sset(b, "n")
    c = compare(so, sn, search_budget=10)
    vo, vn = so.validator("s.json"), sn.validator("s.json")
    if c.change_class != ChangeClass.MAJOR:
        for doc in POOL:  # no counter-example among these documents
            assert not (vo.is_valid(doc) and not vn.is_valid(doc)), doc
    for f in c.findings:
        if f.change_class == ChangeClass.MAJOR and not f.undecided:
            assert vo.is_valid(f.witness) and not vn.is_valid(f.witness), f
    if c.change_class == ChangeClass.PATCH:
        for doc in POOL:
            assert vo.is_valid(doc) == vn.is_valid(doc), doc
