"""The group index (compat/groupindex.py) narrows which branches a case of a split ``oneOf`` meets;
these tests pin what it may never drop: every branch that can equal a case's part (by shape) and
every branch that can share a value with the case (a branch outside the constants, a type-only
branch), worked out by hand and checked with both validators."""

from __future__ import annotations

from compat_corpus.oracle import Validators, classify, witness_of
from evalport_spec.compat.groupindex import OTHER, shape


def test_shape_is_one_for_schemas_equal_in_json_schema():
    # 1.0 is 1; annotations do not count; enum and type are sets; a lone type is its one-element set
    assert shape({"const": 1}) == shape({"const": 1.0, "description": "one"})
    assert shape({"enum": [1, "a"]}) == shape({"enum": ["a", 1.0]})
    assert shape({"type": "string"}) == shape({"type": ["string"]})
    assert shape(True) == shape({}) == ()


def test_shape_tells_different_constants_and_other_schemas_apart():
    assert shape({"const": 1}) != shape({"const": "1"})
    assert shape({"const": True}) != shape({"const": 1})  # true is not 1
    assert shape({"const": 1}) != shape({"enum": [1]})  # other keywords: _eq compares keyword sets
    assert shape(False) == shape({"$ref": "#"}) == shape({"type": "string", "pattern": "^a"}) == OTHER
    assert shape({"const": float("nan")}) is None  # not JSON: every branch stays a candidate


def _overlap_findings(old: dict, new: dict) -> list:
    result = classify(old, new)
    return [f for f in result.findings if f.kind == "oneof-branch-added-overlapping"]


def test_a_pattern_branch_added_beside_constants_is_found_overlapping():
    """Old: "a1", "b2" or an integer. New adds a string branch ``^a1``: "a1" now matches two
    branches, so a oneOf rejects it. The added branch is no constant (the index keeps it among the
    branches every case meets), and the finding's witness is lost by both validators."""
    old = {"oneOf": [{"const": "a1"}, {"const": "b2"}, {"type": "integer"}]}
    new = {"oneOf": [*old["oneOf"], {"type": "string", "pattern": "^a1"}]}
    found = _overlap_findings(old, new)
    assert len(found) == 1
    (w,) = witness_of(found[0])
    assert w == "a1"  # the only old document the new branch also matches
    vo, vn = Validators(old), Validators(new)
    assert (vo.py(w), vo.rs(w), vn.py(w), vn.rs(w)) == (True, True, False, False)


def test_a_constant_added_beside_a_type_only_branch_is_found_overlapping():
    """Old: "a".."c" or an integer; 5 matched the integer branch alone. New adds the constant 5:
    5 matches two branches. The type-only branch holds no enum, so it is met by every case."""
    old = {"oneOf": [{"const": "a"}, {"const": "b"}, {"const": "c"}, {"type": "integer"}]}
    new = {"oneOf": [*old["oneOf"], {"const": 5}]}
    found = _overlap_findings(old, new)
    assert [witness_of(f) for f in found] == [(5,)]
