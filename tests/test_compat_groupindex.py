"""The group index (compat/groupindex.py) narrows which branches a case of a split ``oneOf`` meets;
these tests pin what it may never drop: every branch that can equal a case's part (by shape) and
every branch that can share a value with the case (a branch outside the constants, a type-only
branch), worked out by hand and checked with both validators."""

from __future__ import annotations

import pytest

from compat_corpus.oracle import Validators, classify, witness_of
from evalport_spec.compat.groupindex import shape


def test_shape_is_one_for_schemas_equal_in_json_schema():
    # 1.0 is 1; annotations do not count, at any depth; enum and type are sets; true is {}
    assert shape({"const": 1}) == shape({"const": 1.0, "description": "one"})
    assert shape({"enum": [1, "a"]}) == shape({"enum": ["a", 1.0]})
    assert shape(True) == shape({}) == shape({"title": "anything"})
    assert shape({"properties": {"a": True}}) == shape({"properties": {"a": {"description": "x"}}})
    # a $ref is equal by its target, which the shape does not read: all references alike
    assert shape({"$ref": "#/$defs/a"}) == shape({"$ref": "other.json"})


def test_shape_tells_different_schemas_apart():
    assert shape({"const": 1}) != shape({"const": "1"})
    assert shape({"const": True}) != shape({"const": 1})  # true is not 1
    assert shape({"const": 1}) != shape({"enum": [1]})  # equality compares keyword sets
    assert shape(False) != shape(True)
    tagged = [{"type": "object", "properties": {"kind": {"const": k}}, "required": ["kind"]} for k in "ab"]
    assert shape(tagged[0]) != shape(tagged[1])
    with pytest.raises(ValueError):
        shape({"const": float("nan")})  # not JSON: the engine keeps every branch a candidate


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


def _tagged(n: int, last: dict | None = None) -> dict:
    """A oneOf of ``n`` objects told apart by member ``kind`` (a constant each), the last one
    replaced by ``last`` when given."""
    branches = [{"type": "object", "properties": {"kind": {"const": f"k{i}"}, "value": {"type": "string"}},
                 "required": ["kind"]} for i in range(n)]
    if last is not None:
        branches[-1] = last
    return {"oneOf": branches}


def test_tagged_objects_beside_an_untagged_branch_still_overlap():
    """Thirty objects tagged by ``kind``; the new side adds an object branch that does not
    require ``kind`` (so no tag tells it apart): {"kind": "k3"} now matches two branches."""
    old = _tagged(30)
    new = {"oneOf": [*old["oneOf"], {"type": "object", "properties": {"value": {"type": "string"}}}]}
    result = classify(old, new)
    assert result.change_class.name == "MAJOR"
    vo, vn = Validators(old), Validators(new)
    lost = [w for f in result.findings if f.direction == "backward" and (w := witness_of(f))]
    assert lost and all((vo.py(w[0]), vn.py(w[0]), vo.rs(w[0]), vn.rs(w[0])) == (True, False, True, False)
                        for w in lost)


def test_tagged_objects_sharing_a_tag_value_overlap():
    """Branch 29 of thirty is retagged "k3", the value branch 3 has: {"kind": "k3"} matches both."""
    old = _tagged(30)
    new = _tagged(30, {"type": "object", "properties": {"kind": {"enum": ["k3", "k29"]}}, "required": ["kind"]})
    result = classify(old, new)
    assert result.change_class.name == "MAJOR"
    vo, vn = Validators(old), Validators(new)
    witnesses = [w[0] for f in result.findings if f.direction == "backward" and (w := witness_of(f))]
    assert any(w == {"kind": "k3"} or (isinstance(w, dict) and w.get("kind") == "k3") for w in witnesses)
    assert all(vo.py(w) and not vn.py(w) for w in witnesses)


def test_a_required_member_that_allows_no_value_is_a_tag_of_no_value():
    """Found by the property test: a oneOf branch requiring "a" whose schemas for "a" allow no
    value (0 that must be a string) is tagged with no value at all; the index must read that as
    "no document" rather than fail. The branch accepts nothing, the strings match two branches,
    so no document of the old side remains a string-only match: only objects are lost, and
    none exist. Old accepts nothing; new accepts every string: MINOR, forward MAJOR."""
    old = {"oneOf": [{"type": "string"}, {"type": "string"},
                     {"type": "object", "properties": {}, "additionalProperties": {"allOf": [{"enum": [0]}, {"type": "string"}]},
                      "required": ["a"]}]}
    new = {"type": "string"}
    result = classify(old, new)
    assert result.change_class.name == "MINOR"
    vo, vn = Validators(old), Validators(new)
    assert (vo.py("x"), vn.py("x")) == (False, True)  # two string branches: oneOf fails on every string
