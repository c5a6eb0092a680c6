"""Schema changes found by red-teaming the classifier (session 32): each pair once gave an unsound
PATCH/MINOR verdict, a crash or a missed cycle. Expected classes are worked out from
python-jsonschema's own verdict on a witness document, never from the classifier's output."""

from __future__ import annotations

import json

import jsonschema
import pytest
import referencing.exceptions

from compat_pair import sset
from evalport_spec.compat import compare
from evalport_spec.errors import InputError
from evalport_spec.findings import ChangeClass

D4 = "http://json-schema.org/draft-04/schema#"
D7 = "http://json-schema.org/draft-07/schema#"
D2019 = "https://json-schema.org/draft/2019-09/schema"


def classify(old, new):
    return compare(sset(old, "old"), sset(new, "new"), search_budget=0).change_class


def lost(old, new, doc) -> bool:
    """python-jsonschema: ``doc`` valid under ``old``, invalid under ``new`` (the ground truth)."""
    v = lambda s: jsonschema.validators.validator_for(s)(s)  # noqa: E731
    return v(old).is_valid(doc) and not v(new).is_valid(doc)


@pytest.mark.parametrize(("dialect", "keyword", "defs"), [
    (D7, "$dynamicRef", "definitions"),     # 2020-12 keyword, unknown in draft-07
    (D2019, "$dynamicRef", "$defs"),        # 2020-12 keyword, unknown in 2019-09
    (None, "$recursiveRef", "$defs"),       # 2019-09 keyword, unknown in 2020-12
    (D7, "$recursiveRef", "definitions"),   # 2019-09 keyword, unknown in draft-07
])
def test_dynamic_reference_of_another_dialect_is_ignored(dialect, keyword, defs):
    head = {"$schema": dialect} if dialect else {}
    old = {**head, keyword: f"#/{defs}/s", defs: {"s": {"type": "string"}}}
    new = {**head, "type": "string"}
    assert lost(old, new, 1)  # the keyword asserts nothing: 1 was valid
    assert classify(old, new) is ChangeClass.MAJOR


@pytest.mark.parametrize("schema", [
    {"$schema": D7, "dependencies": {"a": {"$ref": "#"}}},                    # draft-07 dependencies
    {"$schema": D4, "dependencies": {"a": {"not": {"$ref": "#"}}}},
    {"$dynamicAnchor": "n", "$dynamicRef": "#n"},                             # 2020-12
    {"$schema": D2019, "$recursiveAnchor": True, "allOf": [{"$recursiveRef": "#"}]},  # 2019-09
])
@pytest.mark.parametrize("side", ["old", "new"])
def test_in_place_cycle_through_dependencies_or_dynamic_reference_is_refused(schema, side):
    # python-jsonschema never finishes such a schema on {"a": ...}: RecursionError
    cls = jsonschema.validators.validator_for(schema)
    with pytest.raises(RecursionError):
        cls(schema).is_valid({"a": {"a": 1}})
    plain = {"type": "object"}
    old, new = (schema, plain) if side == "old" else (plain, schema)
    with pytest.raises(InputError, match="cycle"):
        classify(old, new)


@pytest.mark.parametrize("schema", [
    {"dependencies": {"a": {"$ref": "#"}}, "maxProperties": 3},   # 2020-12: not a keyword
    {"$recursiveRef": "#", "maxProperties": 3},                     # 2020-12: not a keyword
    {"$schema": D7, "$dynamicRef": "#", "maxProperties": 3},        # draft-07: not a keyword
])
def test_reference_of_another_dialect_is_no_cycle(schema):
    assert jsonschema.validators.validator_for(schema)(schema).is_valid({"a": 1})
    assert classify(schema, {}) is ChangeClass.MINOR


@pytest.mark.parametrize(("dialect", "id_kw"), [(D7, "$id"), ("http://json-schema.org/draft-06/schema#", "$id"),
                                                (D4, "id")])
def test_id_beside_ref_sets_no_base_in_draft_07_and_older(dialect, id_kw):
    # the sibling id is ignored: "a.json" resolves against the root, to the string schema
    old = {"$schema": dialect, id_kw: "http://x.test/root.json",
           "properties": {"p": {id_kw: "http://x.test/other/sub.json", "$ref": "a.json"}},
           "definitions": {"a": {id_kw: "http://x.test/a.json", "type": "string"},
                           "b": {id_kw: "http://x.test/other/a.json", "type": "integer"}}}
    new = {"$schema": dialect, id_kw: "http://x.test/root.json", "properties": {"p": {"type": "integer"}}}
    registry_free = jsonschema.validators.validator_for(old)
    assert registry_free(old).is_valid({"p": "a"}) and not registry_free(new).is_valid({"p": "a"})
    assert classify(old, new) is ChangeClass.MAJOR


def test_root_id_beside_ref_is_no_base_in_draft_07():
    # python-jsonschema cannot resolve "a.json" (no base): the set is refused, not compared
    old = {"$schema": D7, "$id": "http://x.test/other/root.json", "$ref": "a.json",
           "definitions": {"a": {"$id": "http://x.test/other/a.json", "type": "integer"}}}
    with pytest.raises(referencing.exceptions.Unresolvable):
        jsonschema.Draft7Validator(old).is_valid(1)
    with pytest.raises(InputError, match="unresolvable"):
        classify(old, {"$schema": D7, "type": "integer"})


@pytest.mark.parametrize(("inner", "doc"), [
    ({"$schema": D4, "type": "integer"}, {"p": 1.0}),  # draft-04 integer: 1.0 is not one
    ({"$schema": D7, "$id": "http://x.test/e", "$dynamicRef": "#/definitions/s",
      "definitions": {"s": {"type": "string"}}}, {"p": 1}),  # draft-07: $dynamicRef ignored
])
def test_a_subschema_naming_another_dialect_is_refused(inner, doc):
    # python-jsonschema reads the subschema in the dialect its $schema names: the doc is lost
    old = {"properties": {"p": inner}}
    new = {"properties": {"p": {"type": "integer" if "type" in inner else "string"}}}
    assert lost(new, old, doc) if "type" in inner else lost(old, new, doc)
    for a, b in ((old, new), (new, old)):
        with pytest.raises(InputError, match="another dialect"):
            classify(a, b)


def _two_files(a: dict, b: dict):
    from evalport_spec.jsonload import loads
    from evalport_spec.schemaset import SchemaSet
    return SchemaSet.from_loaded({n: loads(json.dumps(v).encode(), f"x/{n}") for n, v in (("a.json", a), ("b.json", b))}, "x")


def test_a_reference_into_a_file_of_another_dialect_is_refused():
    # b.json (2020-12) is entered from draft-07 a.json at a place without $schema: python-
    # jsonschema reads it as draft-07, where $dynamicRef is no keyword, so {"p": 1} is valid
    b = {"$id": "http://x.test/b", "$defs": {"i": {"$dynamicRef": "#/$defs/s"}, "s": {"type": "string"}}}
    a_old = {"$schema": D7, "$id": "http://x.test/a", "properties": {"p": {"$ref": "http://x.test/b#/$defs/i"}}}
    a_new = {"$schema": D7, "$id": "http://x.test/a", "properties": {"p": {"type": "string"}}}
    old, new = _two_files(a_old, b), _two_files(a_new, b)
    assert old.validator("a.json").is_valid({"p": 1}) and not new.validator("a.json").is_valid({"p": 1})
    with pytest.raises(InputError, match="another dialect"):
        compare(old, new, search_budget=0)


def test_anchor_is_no_keyword_in_draft_07():
    # "#foo" names the "$id": "#foo" subschema (integer); "$anchor" is ignored before 2019-09
    old = {"$schema": D7, "properties": {"p": {"$ref": "#foo"}},
           "definitions": {"f": {"$anchor": "foo", "type": "string"}, "g": {"$id": "#foo", "type": "integer"}}}
    new = {"$schema": D7, "properties": {"p": {"type": "string"}}}
    assert lost(old, new, {"p": 1})
    assert classify(old, new) is ChangeClass.MAJOR
