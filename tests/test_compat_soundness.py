"""Regression tests for the unsound verdicts and refusals issue 11 lists, one per bug.

Each expected class is worked out by hand in the comment beside it. The engine runs with
``search_budget=0``: no sampled counter-example search, so a right MAJOR here is the engine's own
finding and a right MINOR/PATCH is its proof, not luck. Every MAJOR witness is confirmed by both
python-jsonschema and jsonschema-rs.
"""

from __future__ import annotations

import jsonschema_rs
import pytest

from compat_pair import diff, sset
from evalport_spec.errors import InputError
from evalport_spec.findings import ChangeClass
from evalport_spec.jsonload import loads

MAJOR, MINOR, PATCH = ChangeClass.MAJOR, ChangeClass.MINOR, ChangeClass.PATCH
D4 = "http://json-schema.org/draft-04/schema#"
D2019 = "https://json-schema.org/draft/2019-09/schema"



def both_valid(schema, doc) -> tuple[bool, bool]:
    """(python-jsonschema, jsonschema-rs) verdicts on ``doc``."""
    py = sset(schema, "x").validator("s.json").is_valid(doc)
    rs = jsonschema_rs.validator_for(schema, validate_formats=True).is_valid(doc)
    return py, rs


def confirmed(c, old, new) -> None:
    """Every decided backward MAJOR finding has a witness both validators accept under ``old``
    and reject under ``new``; there is at least one."""
    majors = [f for f in c.findings if f.direction == "backward" and f.change_class == MAJOR]
    assert majors and not any(f.undecided for f in majors), [(f.kind, f.message) for f in majors]
    for f in majors:
        w = f.witness
        assert both_valid(old, w) == (True, True), (f.kind, w)
        assert both_valid(new, w) == (False, False), (f.kind, w)


def classes(c):
    return c.change_class, c.forward_class


def test_anyof_to_oneof_over_overlapping_branches_is_major():
    # 1 matches both `integer` and `number`: one anyOf match, two oneOf matches -> lost
    old = {"anyOf": [{"type": "integer"}, {"type": "number"}]}
    new = {"oneOf": [{"type": "integer"}, {"type": "number"}]}
    c = diff(old, new)
    assert c.change_class == MAJOR
    confirmed(c, old, new)


def test_a_pattern_matching_the_old_sample_name_does_not_hide_additional_properties():
    # names not starting with "x-" were free, now forbidden: {"a": 0} is lost
    old = {"type": "object", "patternProperties": {"^x-": {"type": "string"}}}
    new = {**old, "additionalProperties": False}
    c = diff(old, new)
    assert c.change_class == MAJOR
    confirmed(c, old, new)


def test_a_pattern_whose_sample_is_a_declared_name_is_still_compared():
    # "a" is declared (const "v" passes both); "ab" matches ^a only: "xx" was fine, now too long
    old = {"type": "object", "properties": {"a": {"const": "v"}},
           "patternProperties": {"^a": {"type": "string"}}}
    new = {**old, "patternProperties": {"^a": {"type": "string", "maxLength": 1}}}
    c = diff(old, new)
    assert c.change_class == MAJOR
    confirmed(c, old, new)


def test_unchanged_pattern_properties_beside_a_new_optional_property_are_proved():
    # the closed object gains optional "b"; names matching ^x- keep their schema: MINOR
    old = {"type": "object", "properties": {"a": {"type": "string"}},
           "patternProperties": {"^x-": {"type": "integer"}}, "additionalProperties": False}
    new = {**old, "properties": {"a": {"type": "string"}, "b": {"type": "integer"}}}
    assert classes(diff(old, new)) == (MINOR, MAJOR)


def test_a_failed_coinductive_assumption_leaves_no_stale_memo_entry():
    # Branch 0 of new's anyOf (W) compares old T with new T under the assumption that U ⊆ U'
    # holds; T fails at "x" (string -> integer). Branch 1 is exactly U', which must then fail too:
    # {"t": {"x": "s"}} is valid under old U and invalid under new U'.
    def defs(x_type):
        return {"T": {"type": "object", "properties": {"u": {"$ref": "#/$defs/U"}, "x": {"type": x_type}}},
                "U": {"type": "object", "properties": {"t": {"$ref": "#/$defs/T"}}}}
    old = {"$defs": defs("string"), "$ref": "#/$defs/U"}
    new = {"$defs": {**defs("integer"),
                     "W": {"type": "object", "properties": {"t": {"$ref": "#/$defs/T"}}, "required": ["zzz"]}},
           "anyOf": [{"$ref": "#/$defs/W"}, {"$ref": "#/$defs/U"}]}
    c = diff(old, new)
    assert c.change_class == MAJOR
    confirmed(c, old, new)


def test_2020_unevaluated_items_ignores_additional_items():
    # 2020-12 has no additionalItems: new accepts arrays of at most one item, [0, 0] is lost
    old = {"type": "array"}
    new = {"type": "array", "prefixItems": [{}], "additionalItems": False, "unevaluatedItems": False}
    c = diff(old, new)
    assert c.change_class == MAJOR
    confirmed(c, old, new)


def test_2019_unevaluated_items_ignores_prefix_items():
    # 2019-09 has no prefixItems: new accepts only [], so [0] (valid with maxItems 1) is lost
    old = {"$schema": D2019, "type": "array", "maxItems": 1}
    new = {"$schema": D2019, "type": "array", "prefixItems": [{}], "unevaluatedItems": False}
    c = diff(old, new)
    assert c.change_class == MAJOR
    confirmed(c, old, new)


def test_an_adjacent_unevaluated_properties_evaluates_everything():
    # the inner unevaluatedProperties: true evaluates every member, so the outer false forbids
    # nothing: old accepts {"a": 1}; new (closed) does not
    old = {"type": "object", "allOf": [{"unevaluatedProperties": True}], "unevaluatedProperties": False}
    new = {"type": "object", "additionalProperties": False}
    c = diff(old, new)
    assert c.change_class == MAJOR
    confirmed(c, old, new)


def test_draft04_integer_rejects_integral_floats():
    # draft-04: 1.0 is not an integer; a number that is a multiple of 1 may be written 1.0
    old = {"$schema": D4, "type": "number", "multipleOf": 1}
    new = {"$schema": D4, "type": "integer"}
    c = diff(old, new)
    assert classes(c) == (MAJOR, MINOR)
    confirmed(c, old, new)
    assert isinstance(next(f.witness for f in c.findings if f.direction == "backward"), float)


def test_draft04_integer_to_2020_integer_widens():
    # same file moved from draft-04 to 2020-12: 1.0 becomes an integer (MINOR), nothing is lost
    old = {"$schema": D4, "type": "integer"}
    new = {"type": "integer"}
    c = diff(old, new)
    assert classes(c) == (MINOR, MAJOR)
    (f,) = [f for f in c.findings if f.direction == "forward"]
    assert f.witness == 0.0 and isinstance(f.witness, float)


def test_multiple_of_is_exact_on_decimals():
    # 0.3 = 3/10 is a multiple of 1/10: every multiple of 0.3 is one of 0.1 (MINOR); the
    # validator agrees (python-jsonschema alone would say 0.6 is not a multiple of 0.1)
    c = diff({"multipleOf": 0.3}, {"multipleOf": 0.1})
    assert classes(c) == (MINOR, MAJOR)
    assert both_valid({"multipleOf": 0.1}, 0.6) == (True, True)
    c = diff({"multipleOf": 0.1}, {"multipleOf": 0.3})
    assert c.change_class == MAJOR
    confirmed(c, {"multipleOf": 0.1}, {"multipleOf": 0.3})


def test_integers_beyond_64_bits_stay_exact():
    big = 12345678910111213141516171819
    assert loads(f'{{"const": {big}}}'.encode()).value["const"] == big
    c = diff({"const": big}, {"const": big + 1})
    assert c.change_class == MAJOR
    (f,) = [f for f in c.findings if f.direction == "backward"]
    assert f.witness == big and isinstance(f.witness, int)


def test_draft04_root_id_is_the_base_uri():
    # "tree" resolves against the root id http://example.com/tree; a title change is PATCH
    old = {"$schema": D4, "id": "http://example.com/tree", "definitions": {"t": {"type": "string"}},
           "properties": {"a": {"$ref": "tree#/definitions/t"}}}
    assert classes(diff(old, {**old, "title": "x"})) == (PATCH, PATCH)


def test_a_ref_to_a_draft_meta_schema_resolves_offline():
    old = {"properties": {"s": {"$ref": "http://json-schema.org/draft-07/schema#"}}}
    assert classes(diff(old, {**old, "title": "x"})) == (PATCH, PATCH)


def test_draft03_is_refused_in_one_line():
    s = {"$schema": "http://json-schema.org/draft-03/schema#", "type": [{"type": "string"}]}
    with pytest.raises(InputError, match="draft-03"):
        diff(s, s)


def test_draft04_not_of_the_empty_schema_accepts_nothing():
    # {"not": {}} rejects everything: old accepts nothing, so old ⊆ new; new accepts strings
    old = {"$schema": D4, "not": {}}
    new = {"$schema": D4, "type": "string"}
    assert classes(diff(old, new)) == (MINOR, MAJOR)


def test_an_unreached_self_negation_is_no_cycle():
    # the $defs entry is never applied, so validation always ends
    old = {"$defs": {"x": {"not": {"$ref": "#/$defs/x"}}}, "type": "string"}
    assert classes(diff(old, {**old, "title": "t"})) == (PATCH, PATCH)


def test_a_long_alias_chain_is_no_loop():
    defs = {f"d{i}": {"$ref": f"#/$defs/d{i + 1}"} for i in range(200)}
    old = {"$defs": {**defs, "d200": {"type": "object"}}, "$ref": "#/$defs/d0"}
    assert classes(diff(old, {"type": "object"})) == (PATCH, PATCH)


def test_formats_are_asserted_per_dialect():
    # draft-07 has no `uuid` format: adding it asserts nothing there (PATCH); in 2020-12 it does
    d7 = "http://json-schema.org/draft-07/schema#"
    old = {"$schema": d7, "type": "string"}
    assert classes(diff(old, {**old, "format": "uuid"})) == (PATCH, PATCH)
    c = diff({"type": "string"}, {"type": "string", "format": "uuid"})
    assert c.change_class == MAJOR
    confirmed(c, {"type": "string"}, {"type": "string", "format": "uuid"})


def test_equal_dynamic_refs_are_compared_by_their_targets():
    # "$dynamicRef": "#node" reads alike on both sides, but "node" is an integer in old and a
    # string in new (one dynamic anchor in each set): {"t": 1} is lost
    def schema(t):
        return {"properties": {"t": {"$dynamicRef": "#node"}},
                "$defs": {"n": {"$dynamicAnchor": "node", "type": t}}}
    old, new = schema("integer"), schema("string")
    c = diff(old, new)
    assert c.change_class == MAJOR
    confirmed(c, old, new)


def test_two_dynamic_anchors_are_undecided_with_the_reason():
    # two places carry the anchor: the target depends on the dynamic scope
    s = {"$dynamicAnchor": "node", "properties": {"t": {"$dynamicRef": "#node"}},
         "$defs": {"n": {"$id": "other", "$dynamicAnchor": "node", "type": "integer"}}}
    new = {**s, "properties": {"t": {"$dynamicRef": "#node"}, "u": {"type": "string"}}}
    c = diff(s, new)
    reasons = [f.extra.get("reason", "") for f in c.findings if f.undecided]
    assert c.change_class == MAJOR and any("dynamic scope" in r for r in reasons), reasons


def test_a_double_negation_is_the_schema_itself():
    # not not X accepts exactly X: PATCH both ways
    x = {"type": "string", "pattern": "^[a-z]+$", "minLength": 2}
    old = {"type": "object", "properties": {"id": x}}
    new = {"type": "object", "properties": {"id": {"not": {"not": x}}}}
    assert classes(diff(old, new)) == (PATCH, PATCH)
