"""Schema changes found by red-teaming the classifier (session 33): each pair once gave a slow,
crashing or unsound verdict. Expected classes are worked out from python-jsonschema's own
verdict on a witness document, never from the classifier's output."""

from __future__ import annotations

import jsonschema
import pytest

from compat_pair import sset
from evalport_spec.compat import compare
from evalport_spec.findings import ChangeClass
from evalport_spec.pyvalidator import exact_validator, library_validator

D4 = "http://json-schema.org/draft-04/schema#"
D7 = "http://json-schema.org/draft-07/schema#"


def classify(old, new):
    return compare(sset(old, "old"), sset(new, "new"), search_budget=0).change_class


def lost(old, new, doc) -> bool:
    """python-jsonschema: ``doc`` valid under ``old``, invalid under ``new`` (the ground truth)."""
    v = lambda s: jsonschema.validators.validator_for(s)(s)  # noqa: E731
    return v(old).is_valid(doc) and not v(new).is_valid(doc)


def test_one_of_many_string_consts_against_max_length_loses_each_const():
    # every const has 6 characters: each is lost under maxLength 5, each its own finding whose
    # witness python-jsonschema confirms (before: a linear oneOf per witness, 250 s)
    consts = [{"const": f"v{i:05d}"} for i in range(5000)]
    old, new = {"oneOf": consts}, {"type": "string", "maxLength": 5}
    assert lost(old, new, "v04999")
    c = compare(sset(old, "old"), sset(new, "new"), search_budget=0)  # its time: nox -s bench
    assert c.change_class is ChangeClass.MAJOR
    values = {f.witness for f in c.findings if f.direction == "backward" and isinstance(f.witness, str)}
    assert values == {f"v{i:05d}" for i in range(5000)}


BRANCHES = [{"const": 1}, {"const": 1.0}, {"enum": [2, "a", True]}, {"const": "a", "title": "t"},
            {"enum": [[1], {"a": 1}]}, {"const": [1.0]}, {"enum": [None, 3], "const": 3},
            {"const": False}, {"enum": ["b"]}, {"const": {"a": 1.0}}, {"enum": [4], "const": 5}]
INSTANCES = [1, 1.0, 2, 2.0, True, False, "a", "b", None, 3, 0, [1], [1.0], {"a": 1}, {"a": True}, [], "c", 4, 5]


@pytest.mark.parametrize("dialect", [None, D7, D4])
@pytest.mark.parametrize("keyword", ["oneOf", "anyOf"])
def test_const_branches_read_as_python_jsonschema_reads_them(dialect, keyword):
    # the toolchain's validator looks const/enum-only branches up by value: same verdicts as the
    # library's own keyword, duplicates counted (oneOf), draft-04 const asserting nothing
    schema = {keyword: BRANCHES, **({"$schema": dialect} if dialect else {})}
    plain = jsonschema.validators.validator_for(schema)
    for ours in (exact_validator(plain), library_validator(plain)):
        for x in INSTANCES:
            assert ours(schema).is_valid(x) is plain(schema).is_valid(x), x


_ROOT = "http://x.test/root.json"
_BELOW_REF = {"$ref": "#/definitions/s", "properties": {"x": {
    "$id": "http://x.test/other/x.json", "properties": {"q": {"$ref": "a.json"}}}}}


@pytest.mark.parametrize(("target", "q_type"), [("integer", "integer"), ("string", "integer")])
def test_draft_07_id_below_a_ref_node_is_read_as_python_jsonschema_reads_it(target, q_type):
    # the $id below a $ref node is still a resource to python-jsonschema (referencing indexes it),
    # and it sets the base of "a.json" inside: reached by pointer, q is the integer schema
    old = {"$schema": D7, "$id": _ROOT, "properties": {"p": {"$ref": "#/definitions/r/properties/x"}},
           "definitions": {"r": _BELOW_REF, "s": {}, "a": {"$id": "http://x.test/a.json", "type": "string"},
                           "b": {"$id": "http://x.test/other/a.json", "type": q_type}}}
    new = {"$schema": D7, "$id": _ROOT, "properties": {"p": {"properties": {"q": {"type": target}}}}}
    broken = lost(old, new, {"p": {"q": 1}}) or lost(old, new, {"p": {"q": "a"}})
    assert classify(old, new) is (ChangeClass.MAJOR if broken else ChangeClass.PATCH)


def test_a_nested_schema_dialect_depends_on_the_path_that_reaches_it():
    # why a subschema naming another dialect is refused, not compared: python-jsonschema reads q
    # as draft-04 when entered through p and as 2020-12 when entered through the $ref of r, so
    # no one dialect per schema node gives its verdicts
    s = {"properties": {"p": {"$schema": D4, "properties": {"q": {"type": "integer"}}},
                        "r": {"$ref": "#/properties/p/properties/q"}}}
    v = jsonschema.Draft202012Validator(s)
    assert not v.is_valid({"p": {"q": 1.0}}) and v.is_valid({"r": 1.0})


D2019 = "https://json-schema.org/draft/2019-09/schema"


@pytest.mark.parametrize(("old", "new", "doc"), [
    # 2020-12: python-jsonschema's unevaluatedProperties matched patternProperties with Python
    # re, where "\d" also matches U+0663; ECMA-262 (and the classifier, and jsonschema-rs) not
    ({"patternProperties": {"^\\d$": {}}, "unevaluatedProperties": False},
     {"patternProperties": {"^[0-9]$": {}}, "unevaluatedProperties": False}, {"\u0663": 1}),
    ({"patternProperties": {"^\\d$": {}}, "unevaluatedProperties": False},
     {"patternProperties": {"^\\d$": {}}, "additionalProperties": False}, {"\u0663": 1}),
    # 2019-09: python-jsonschema counted the keywords of an additionalProperties schema as the
    # member names it evaluates; the specification (Core 9.3.2.3, 11.3) evaluates every member
    ({"$schema": D2019, "additionalProperties": {"type": "integer"}},
     {"$schema": D2019, "additionalProperties": {"type": "integer"}, "unevaluatedProperties": False}, {"b": 1}),
    ({"$schema": D2019, "properties": {"a": {}}, "additionalProperties": {"type": "integer"}},
     {"$schema": D2019, "allOf": [{"properties": {"a": {}}, "additionalProperties": {"type": "integer"}}],
      "unevaluatedProperties": False}, {"b": 1}),
])
def test_unevaluated_properties_read_alike_by_the_toolchain_validators(old, new, doc):
    # PATCH (no document lost, ECMA-262 and the specification's annotations); the toolchain's
    # python-jsonschema reading must agree with jsonschema-rs on the document that differed,
    # or the classifier's ground truth calls that PATCH unsound
    import jsonschema_rs
    so, sn = sset(old, "old"), sset(new, "new")
    for s, schema in ((so, old), (sn, new)):
        assert s.validator("s.json").is_valid(doc) is jsonschema_rs.validator_for(schema).is_valid(doc)
    assert not (so.validator("s.json").is_valid(doc) and not sn.validator("s.json").is_valid(doc))
    assert classify(old, new) is ChangeClass.PATCH


@pytest.mark.parametrize(("old", "new"), [
    # draft-04: 1 and 1.0 are one enum value (JSON equality) but only 1 is an integer, so
    # {"type": "integer", "enum": [1.0]} accepts the document 1 (it was read as accepting nothing)
    ({"type": "integer", "enum": [1.0]}, {"not": {}}),
    ({"type": "integer", "enum": [1.0]}, {"type": "number", "enum": [2]}),
    ({"type": "integer", "enum": [1.0, "a"]}, {"enum": ["a"]}),
    ({"anyOf": [{"type": "integer", "enum": [1.0]}, {"enum": ["a"]}]}, {"enum": ["a"]}),
    ({"allOf": [{"type": "integer"}, {"enum": [1.0, 2.0]}]}, {"enum": [2]}),
    ({"type": "integer"}, {"type": "integer", "not": {"enum": [1.0]}}),
    ({"properties": {"a": {"type": "integer", "enum": [1.0]}}}, {"properties": {"a": {"not": {}}}}),
    # ... and the document 1.0 equals an enum value 1 that an integer type then rejects
    ({"enum": [1]}, {"type": "integer"}),
    ({"enum": [1, "a"]}, {"type": ["integer", "string"]}),
    ({"oneOf": [{"type": "integer", "enum": [1.0]}, {"enum": [1]}]}, {"type": "integer"}),
    ({"additionalProperties": False, "properties": {"a": {"enum": [1]}}},
     {"additionalProperties": False, "properties": {"a": {"type": "integer"}}}),
])
def test_draft_04_integer_tells_the_two_spellings_of_an_enum_value_apart(old, new):
    old, new = {"$schema": D4, **old}, {"$schema": D4, **new}
    docs = [1, 1.0, 2, 2.0, "a", {"a": 1}, {"a": 1.0}]
    assert any(lost(old, new, d) for d in docs)
    assert classify(old, new) is ChangeClass.MAJOR


@pytest.mark.parametrize(("old", "new", "expected"), [
    ({"type": "integer", "enum": [1.0]}, {"enum": [1], "type": "integer"}, ChangeClass.PATCH),
    ({"type": "integer", "enum": [1.0, 2]}, {"type": "integer", "enum": [1]}, ChangeClass.MAJOR),
    ({"enum": [1.0]}, {"enum": [1]}, ChangeClass.PATCH),
    ({"type": "integer", "enum": [1.0]}, {"enum": [1, 1.5]}, ChangeClass.MINOR),
])
def test_draft_04_integer_enum_values_still_compare_exactly(old, new, expected):
    old, new = {"$schema": D4, **old}, {"$schema": D4, **new}
    docs = [1, 1.0, 2, 2.0, 1.5]
    broken = any(lost(old, new, d) for d in docs)
    assert broken is (expected is ChangeClass.MAJOR)
    assert classify(old, new) is expected


@pytest.mark.parametrize(("schema", "doc"), [
    ({"if": {}, "then": {"properties": {"a": {}}}, "unevaluatedProperties": False}, {"a": 1}),
    ({"if": False, "else": {"properties": {"a": {}}}, "unevaluatedProperties": False}, {"a": 1}),
    ({"anyOf": [{"properties": {"a": {"type": "string"}}}, {"type": "object"}], "unevaluatedProperties": False},
     {"a": 1}),
    ({"dependentSchemas": {"b": {"properties": {"a": {}, "b": {}}}}, "unevaluatedProperties": False},
     {"a": 1, "b": 1}),
    ({"dependentSchemas": {"b": {"properties": {"a": {}, "b": {}}}}, "unevaluatedProperties": False}, {"a": 1}),
    ({"$ref": "#/$defs/p", "$defs": {"p": {"properties": {"a": {}}}}, "unevaluatedProperties": False}, {"a": 1}),
    ({"$schema": D2019, "$ref": "#/$defs/p", "$defs": {"p": {"properties": {"a": {}}}},
      "unevaluatedProperties": False}, {"a": 1, "b": 2}),
    ({"unevaluatedProperties": {"type": "integer"}, "allOf": [{"unevaluatedProperties": {"type": "string"}}]},
     {"a": "x"}),
])
def test_unevaluated_properties_annotations_as_jsonschema_rs_reads_them(schema, doc):
    import jsonschema_rs
    assert sset(schema, "s").validator("s.json").is_valid(doc) is jsonschema_rs.validator_for(schema).is_valid(doc)


def test_an_integer_past_two_to_the_53_is_one_document():
    # 2**53 + 1 has no float spelling: only the integer document equals it (draft-04 integer)
    old, new = {"$schema": D4, "enum": [2**53 + 1]}, {"$schema": D4, "type": "integer"}
    assert not lost(old, new, 2**53 + 1) and not lost(old, new, float(2**53 + 1))
    assert classify(old, new) is ChangeClass.MINOR


@pytest.mark.parametrize("old", [{"anyOf": [{"enum": [1.0]}, {"type": "integer"}]}, {"type": "integer"}])
def test_a_oneof_of_an_enum_and_draft_04_integer_is_not_disjoint(old):
    # 1 is both {"enum": [1.0]} and a draft-04 integer: the oneOf rejects it
    old = {"$schema": D4, **old}
    new = {"$schema": D4, "oneOf": [{"enum": [1.0]}, {"type": "integer"}]}
    assert lost(old, new, 1)
    assert classify(old, new) is ChangeClass.MAJOR


def test_one_of_many_string_consts_with_a_pattern_loses_each_const():
    # a pattern makes python-jsonschema as shipped (Python re) a second reader of each witness
    # (docs/classifier.md, "Witnesses and proofs"): its oneOf walked 5,000 branches per witness
    consts = [{"const": f"v{i:05d}"} for i in range(5000)]
    old, new = {"oneOf": consts, "pattern": "^v\\d+$"}, {"type": "string", "maxLength": 5}
    assert lost(old, new, "v00001")
    c = compare(sset(old, "old"), sset(new, "new"), search_budget=0)  # its time: nox -s bench
    assert c.change_class is ChangeClass.MAJOR
    assert sum(isinstance(f.witness, str) for f in c.findings if f.direction == "backward") == 5000


@pytest.mark.parametrize(("old", "new"), [
    # the two spellings of a number inside an array or object enum value are two documents too
    ({"enum": [{"a": 1}]}, {"properties": {"a": {"type": "integer"}}}),
    ({"enum": [[1]]}, {"items": {"type": "integer"}}),
    ({"enum": [[1], "x"]}, {"items": {"type": "integer"}}),
    ({"enum": [{"a": [1]}]}, {"properties": {"a": {"items": {"type": "integer"}}}}),
    ({"properties": {"p": {"enum": [{"a": 1}]}}}, {"properties": {"p": {"properties": {"a": {"type": "integer"}}}}}),
    # a mix: the first item an integer, the second not (every combination is tried)
    ({"enum": [[1, 1]]}, {"not": {"items": [{"type": "integer"}, {"not": {"type": "integer"}}]}}),
])
def test_draft_04_integer_inside_an_enum_value(old, new):
    old, new = {"$schema": D4, **old}, {"$schema": D4, **new}
    docs = [{"a": 1.0}, [1.0], {"a": [1.0]}, {"p": {"a": 1.0}}, [1, 1.0]]
    assert any(lost(old, new, d) for d in docs)
    c = compare(sset(old, "old"), sset(new, "new"), search_budget=0)
    assert c.change_class is ChangeClass.MAJOR
    assert any(lost(old, new, f.witness) for f in c.findings if f.direction == "backward" and f.witness is not None)


def test_draft_04_enum_value_with_too_many_numbers_to_respell_is_undecided():
    # seven integral numbers: 128 documents; only a sample is tried, so no PATCH/MINOR is claimed
    # ([1, 1.0, 1, 1, 1, 1, 1] is lost)
    old = {"$schema": D4, "enum": [[1] * 7]}
    new = {"$schema": D4, "not": {"items": [{"type": "integer"}, {"not": {"type": "integer"}}]}}
    assert lost(old, new, [1, 1.0, 1, 1, 1, 1, 1])
    assert classify(old, new) is ChangeClass.MAJOR
