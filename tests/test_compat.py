"""The compatibility classifier on the cases toolchain.md names (classes worked out by hand)."""

from __future__ import annotations

import json
from typing import Any

import jsonpointer

from compat_corpus.oracle import Validators, lost
from evalport_spec.compat import compare
from evalport_spec.findings import ChangeClass
from evalport_spec.jsonload import loads
from evalport_spec.schemaset import SchemaSet

MAJOR, MINOR, PATCH = ChangeClass.MAJOR, ChangeClass.MINOR, ChangeClass.PATCH


def sset(schemas: dict, label: str) -> SchemaSet:
    return SchemaSet.from_loaded({n: loads(json.dumps(s, indent=1), f"{label}/{n}") for n, s in schemas.items()}, label)


def diff(old, new, **kw):
    if not (isinstance(old, dict) and old and all(k.endswith(".json") for k in old)):
        old, new = {"s.json": old}, {"s.json": new}
    return compare(sset(old, "old"), sset(new, "new"), **kw)


def kinds(c, direction=None):
    return sorted({f.kind for f in c.findings if direction is None or f.direction == direction})


def assert_witnesses(c, old, new):
    """Every MAJOR, non-undecided finding's witness is valid under old and invalid under new."""
    so, sn = sset({"s.json": old}, "o"), sset({"s.json": new}, "n")
    for f in c.findings:
        if f.change_class == MAJOR and not f.undecided and f.kind != "schema-file-removed":
            assert f.witness is not None or f.extra.get("witness_is_null"), f
            assert so.validator("s.json").is_valid(f.witness), f
            assert not sn.validator("s.json").is_valid(f.witness), f


OBJ = {"type": "object", "properties": {"a": {"type": "string"}}}


def test_default_never_rescues_a_new_required():
    new = {**OBJ, "properties": {"a": {"type": "string", "default": "x"}}, "required": ["a"]}
    c = diff(OBJ, new)
    assert c.change_class == MAJOR
    assert "required-added" in kinds(c, "backward")
    assert_witnesses(c, OBJ, new)
    f = next(f for f in c.findings if f.kind == "required-added")
    assert f.witness == {} and f.new.pointer == "/required/0" and f.new.line is not None


def test_typed_property_added_to_open_object_is_major():
    new = {**OBJ, "properties": {**OBJ["properties"], "b": {"type": "integer"}}}
    c = diff(OBJ, new)
    assert c.change_class == MAJOR
    assert kinds(c, "backward") == ["property-added-to-open-object"]
    assert_witnesses(c, OBJ, new)


def test_optional_property_added_to_closed_object_is_minor():
    old = {**OBJ, "additionalProperties": False}
    new = {**old, "properties": {**OBJ["properties"], "b": {"type": "integer"}}}
    c = diff(old, new)
    assert (c.change_class, c.forward_class) == (MINOR, MAJOR)
    assert kinds(c, "forward") == ["property-added-to-closed-object"]
    assert kinds(c, "backward") == []


def test_closing_an_open_object_is_major():
    c = diff(OBJ, {**OBJ, "additionalProperties": False})
    assert c.change_class == MAJOR and kinds(c, "backward") == ["additional-properties-closed"]
    assert_witnesses(c, OBJ, {**OBJ, "additionalProperties": False})


def test_integer_to_number_widens_and_back_narrows():
    c = diff({"type": "integer"}, {"type": "number"})
    assert c.change_class == MINOR and kinds(c, "forward") == ["type-widened"]
    c = diff({"type": "number"}, {"type": "integer"})
    assert c.change_class == MAJOR and kinds(c, "backward") == ["type-narrowed"]
    assert_witnesses(c, {"type": "number"}, {"type": "integer"})


def test_const_equals_single_enum_and_vacuous_keywords_add_nothing():
    assert diff({"const": "x"}, {"enum": ["x"]}).change_class == PATCH
    c = diff({"type": "string"}, {"type": "string", "minLength": 0})
    assert c.change_class == PATCH and c.findings == []
    c = diff({"type": "array"}, {"type": "array", "uniqueItems": False})
    assert c.change_class == PATCH and c.findings == []


def test_annotations_key_order_and_ref_refactor_are_patch():
    old = {"type": "object", "properties": {"a": {"type": "string", "title": "A"}}}
    new = {"properties": {"a": {"$ref": "#/$defs/a"}}, "type": "object",
           "$defs": {"a": {"description": "d", "examples": ["z"], "type": "string"}}, "$comment": "c"}
    c = diff(old, new)
    assert c.change_class == PATCH and c.forward_class == PATCH
    assert all(f.change_class == PATCH for f in c.findings)


def test_enum_value_removed_has_verified_witness_and_added_is_minor():
    old = {"type": "object", "properties": {"t": {"enum": ["a", "b", "c"]}}, "required": ["t"]}
    new = {"type": "object", "properties": {"t": {"enum": ["a", "b"]}}, "required": ["t"]}
    c = diff(old, new)
    assert c.change_class == MAJOR and kinds(c, "backward") == ["enum-value-removed"]
    assert next(f for f in c.findings if f.kind == "enum-value-removed").witness == {"t": "c"}
    assert diff(new, old).change_class == MINOR


def test_numeric_and_string_bounds():
    assert kinds(diff({"type": "integer", "minimum": 0}, {"type": "integer", "minimum": 1}), "backward") == ["minimum-increased"]
    # exclusiveMinimum 0 on integers is minimum 1: same set
    assert diff({"type": "integer", "minimum": 1}, {"type": "integer", "exclusiveMinimum": 0}).change_class == PATCH
    c = diff({"type": "string", "maxLength": 10}, {"type": "string", "maxLength": 5})
    assert kinds(c, "backward") == ["max-length-decreased"]
    assert_witnesses(c, {"type": "string", "maxLength": 10}, {"type": "string", "maxLength": 5})
    assert diff({"type": "number", "multipleOf": 4}, {"type": "number", "multipleOf": 2}).change_class == MINOR
    assert diff({"type": "number", "multipleOf": 2}, {"type": "number", "multipleOf": 4}).change_class == MAJOR


def test_ref_across_files_by_id_and_recursion():
    tree = {"$id": "https://x.test/tree.json", "type": "object",
            "properties": {"kids": {"type": "array", "items": {"$ref": "node.json"}}}}
    node = {"$id": "https://x.test/node.json", "type": "object",
            "properties": {"v": {"type": "integer"}, "kids": {"type": "array", "items": {"$ref": "#"}}}}
    old = {"tree.json": tree, "node.json": node}
    assert diff(old, old).change_class == PATCH
    node2 = {**node, "properties": {**node["properties"], "v": {"type": "integer", "maximum": 5}}}
    new = {"tree.json": tree, "node.json": node2}
    c = diff(old, new)
    assert c.change_class == MAJOR
    f = next(f for f in c.findings if f.kind == "maximum-decreased" and f.extra["file"] == "tree.json")
    assert f.extra["instance_path"][:2] == ["kids", 0]
    assert sset(old, "o").validator("tree.json").is_valid(f.witness)
    assert not sset(new, "n").validator("tree.json").is_valid(f.witness)


def test_oneof_reordered_is_patch_and_overlapping_branch_is_major():
    a, b = {"type": "string"}, {"type": "integer"}
    assert diff({"oneOf": [a, b]}, {"oneOf": [b, a]}).change_class == PATCH
    old = {"oneOf": [a, b]}
    new = {"oneOf": [a, b, {"type": "string", "maxLength": 3}]}
    c = diff(old, new)
    assert c.change_class == MAJOR
    assert "oneof-branch-added-overlapping" in kinds(c, "backward")
    assert_witnesses(c, old, new)


def test_if_then_and_dependent_required():
    base = {"type": "object", "properties": {"k": {"type": "string"}, "p": {"type": "string"}}}
    new = {**base, "if": {"properties": {"k": {"const": "x"}}, "required": ["k"]}, "then": {"required": ["p"]}}
    c = diff(base, new)
    assert c.change_class == MAJOR and kinds(c, "backward") == ["if-then-tightened"]
    assert_witnesses(c, base, new)
    new2 = {**base, "dependentRequired": {"k": ["p"]}}
    c = diff(base, new2)
    assert kinds(c, "backward") == ["dependent-required-added"]
    assert_witnesses(c, base, new2)
    assert diff(new2, base).change_class == MINOR


def test_format_is_an_assertion_only_when_on():
    old, new = {"type": "string"}, {"type": "string", "format": "date-time"}
    c = diff(old, new)
    assert c.change_class == MAJOR and kinds(c, "backward") == ["format-added"]
    assert_witnesses(c, old, new)
    assert diff(old, new, format_assertion=False).change_class == PATCH


def test_dialects_draft04_exclusive_minimum_and_draft07_tuple_items():
    d4 = {"$schema": "http://json-schema.org/draft-04/schema#", "type": "number", "minimum": 0,
          "exclusiveMinimum": True}
    c = diff(d4, {"type": "number", "exclusiveMinimum": 0})
    assert c.change_class == PATCH and "dialect-changed" in kinds(c)
    assert diff(d4, {"type": "number", "minimum": 0}).change_class == MINOR
    d7 = {"$schema": "http://json-schema.org/draft-07/schema#", "type": "array",
          "items": [{"type": "string"}], "additionalItems": False}
    assert diff(d7, {"type": "array", "prefixItems": [{"type": "string"}], "items": False}).change_class == PATCH
    # the same tuple without additionalItems: false accepts longer arrays
    c = diff(d7, {"type": "array", "prefixItems": [{"type": "string"}]})
    assert c.change_class == MINOR and "dialect-changed" in kinds(c)


def test_unevaluated_properties_counts():
    old = {"type": "object", "allOf": [{"properties": {"a": {}}}], "unevaluatedProperties": False}
    new = {"type": "object", "allOf": [{"properties": {"a": {}, "b": {}}}], "unevaluatedProperties": False}
    assert diff(old, new).change_class == MINOR
    assert diff(new, old).change_class == MAJOR


def test_prefix_items_and_contains_count():
    old = {"type": "array", "prefixItems": [{"type": "string"}]}
    new = {"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}]}
    c = diff(old, new)
    assert c.change_class == MAJOR
    assert_witnesses(c, old, new)
    c = diff({"type": "array"}, {"type": "array", "contains": {"type": "string"}})
    assert kinds(c, "backward") == ["contains-tightened"]


def test_fail_closed_undecided_is_major_with_reason():
    # a lookahead is outside the regular fragment: "^(?=a)a+$" and "^a+$" accept the same
    # strings (the lookahead repeats what a+ needs), so no witness exists and the engine cannot
    # prove the inclusion either: MAJOR, undecided, with its reason (never PATCH on a guess)
    old = {"$dynamicAnchor": "n", "type": "object",
           "properties": {"c": {"$dynamicRef": "#n"}, "s": {"type": "string", "pattern": "^(?=a)a+$"}}}
    new = {"$dynamicAnchor": "n", "type": "object",
           "properties": {"c": {"$dynamicRef": "#n"}, "s": {"type": "string", "pattern": "^a+$"}}}
    c = diff(old, new)
    assert c.change_class == MAJOR
    assert any(f.undecided and f.extra.get("reason") for f in c.findings)


def test_max_properties_added_under_a_dynamic_ref_has_a_witness_of_eleven_members():
    # c is again the whole schema (one dynamic anchor): any object, so {"c": <11 members>} is
    # valid under old and breaks the new maxProperties 10 (by both validators)
    old = {"$dynamicAnchor": "n", "type": "object", "properties": {"c": {"$dynamicRef": "#n"}}}
    new = {"$dynamicAnchor": "n", "type": "object",
           "properties": {"c": {"$dynamicRef": "#n", "maxProperties": 10}}}
    c = diff(old, new)
    assert c.change_class == MAJOR
    (f,) = [f for f in c.findings if f.direction == "backward"]
    assert not f.undecided and len(f.witness["c"]) == 11
    assert lost(Validators(old), Validators(new), f.witness)


def test_hostile_repetition_counts_are_undecided_and_fail_closed():
    # ^(a{1000}){1000}$ has one member, a million a's: no automaton, no sample within budget, so
    # neither direction can be decided; the change stays MAJOR with the budget as its reason
    old = {"type": "string", "pattern": "^(a{1000}){1000}$"}
    new = {"type": "string", "pattern": "^(a{1000}){1000}b?$"}
    c = diff(old, new)
    assert c.change_class == MAJOR
    undecided = [f for f in c.findings if f.undecided]
    assert undecided and all(f.new.pointer == "/pattern" for f in undecided)
    assert any("size budget exceeded" in f.message for f in undecided)


def test_identity_changes_are_their_own_kinds():
    old = {"$id": "https://x.test/1/s.json", "$defs": {"a": {"type": "string"}}, "$ref": "#/$defs/a"}
    new = {"$id": "https://x.test/2/s.json", "$defs": {"b": {"type": "string"}}, "$ref": "#/$defs/b"}
    c = diff(old, new)
    assert c.change_class == PATCH
    assert {"schema-id-changed", "ref-target-changed"} <= set(kinds(c))
    assert all(f.change_class == PATCH for f in c.findings)


def test_files_added_and_removed():
    c = compare(sset({"a.json": {}, "b.json": {}}, "o"), sset({"a.json": {}, "c.json": {}}, "n"))
    assert c.change_class == MAJOR
    assert {"schema-file-removed", "schema-file-added"} <= set(kinds(c))


def test_counter_example_search_uses_candidates(monkeypatch):
    from evalport_spec.compat import subset
    old, new = {"type": "string"}, {"type": "string", "maxLength": 3}
    monkeypatch.setattr(subset.Checker, "_strings", lambda self, A, B: [])  # blind the engine
    c = diff(old, new, candidates=["abcdef"], search_budget=0)
    assert c.change_class == MAJOR
    f = next(f for f in c.findings if f.kind == "counter-example-found")
    assert f.witness == "abcdef"


def test_counter_example_search_calls_candidates_given_as_a_function(monkeypatch):
    """``candidates`` may be a function of the file name (engine.Candidates): it is called once per
    side with that name, and its documents are searched like a list's."""
    from evalport_spec.compat import subset
    old, new = {"type": "string"}, {"type": "string", "maxLength": 3}
    monkeypatch.setattr(subset.Checker, "_strings", lambda self, A, B: [])  # blind the engine
    asked: list[str] = []

    def candidates(name):
        asked.append(name)
        return ["ab", "abcdef"]

    c = diff(old, new, candidates=candidates, search_budget=0)
    assert asked == ["s.json", "s.json"]
    assert c.change_class == MAJOR
    f = next(f for f in c.findings if f.kind == "counter-example-found")
    assert f.witness == "abcdef"
    assert lost(Validators(old), Validators(new), "abcdef")  # python-jsonschema and jsonschema-rs agree


def test_to_json_matches_report_schema():
    from importlib.resources import files

    import jsonschema
    schema = json.loads(files("evalport_spec").joinpath("data/diff-report.schema.json").read_text())
    c = diff(OBJ, {**OBJ, "required": ["a"]})
    jsonschema.Draft202012Validator(schema).validate(c.to_json())


def test_tightened_then_is_major_and_loosened_then_is_minor():
    base = {"type": "object", "properties": {"k": {"type": "string"}, "p": {}, "q": {}},
            "if": {"properties": {"k": {"const": "x"}}, "required": ["k"]}}
    old = {**base, "then": {"required": ["p"]}}
    new = {**base, "then": {"required": ["p", "q"]}}
    c = diff(old, new)
    # {"k": "x", "p": 0} passes the old then and lacks the q the new then demands
    assert c.change_class == MAJOR and kinds(c, "backward") == ["if-then-tightened"]
    assert_witnesses(c, old, new)
    w = next(f for f in c.findings if f.kind == "if-then-tightened").witness
    assert w["k"] == "x" and "p" in w and "q" not in w
    assert diff(new, old).change_class == MINOR


def test_mutually_recursive_refs_across_files():
    a = {"$id": "https://x.test/a.json", "type": "object",
         "properties": {"v": {"type": "integer"}, "b": {"$ref": "b.json"}}}
    b = {"$id": "https://x.test/b.json", "type": "object",
         "properties": {"w": {"type": "string"}, "a": {"$ref": "a.json"}}}
    old = {"a.json": a, "b.json": b}
    assert diff(old, {"a.json": dict(a), "b.json": {**b, "description": "d"}}).change_class == PATCH
    b2 = {**b, "properties": {**b["properties"], "w": {"type": "string", "maxLength": 3}}}
    c = diff(old, {"a.json": a, "b.json": b2})
    assert c.change_class == MAJOR
    f = next(f for f in c.findings if f.extra.get("file") == "a.json" and f.kind == "max-length-decreased")
    assert f.extra["instance_path"] == ["b", "w"] and f.new.pointer == "/properties/w/maxLength"
    assert sset(old, "o").validator("a.json").is_valid(f.witness)
    assert not sset({"a.json": a, "b.json": b2}, "n").validator("a.json").is_valid(f.witness)


def test_mutually_recursive_defs_in_one_file():
    old = {"$ref": "#/$defs/x", "$defs": {
        "x": {"type": "object", "properties": {"y": {"$ref": "#/$defs/y"}, "n": {"type": "number"}}},
        "y": {"type": "array", "items": {"$ref": "#/$defs/x"}}}}
    new = json.loads(json.dumps(old))
    new["$defs"]["x"]["properties"]["n"] = {"type": "integer"}
    c = diff(old, new)
    assert c.change_class == MAJOR and kinds(c, "backward") == ["type-narrowed"]
    assert_witnesses(c, old, new)
    assert diff(new, old).change_class == MINOR


def test_schema_change_that_alters_meaning():
    d7 = "http://json-schema.org/draft-07/schema#"
    d2020 = "https://json-schema.org/draft/2020-12/schema"
    # draft-07 ignores siblings of $ref; 2020-12 applies them: "a" was valid and is not any more
    old = {"$schema": d7, "$ref": "#/definitions/any", "type": "integer", "definitions": {"any": {}}}
    new = {**old, "$schema": d2020}
    c = diff(old, new)
    assert c.change_class == MAJOR and "dialect-changed" in kinds(c)
    assert_witnesses(c, old, new)
    # "dependencies" is a draft-07 keyword and means nothing in 2020-12: loosened, MINOR
    old = {"$schema": d7, "type": "object", "dependencies": {"a": ["b"]}}
    c = diff(old, {**old, "$schema": d2020})
    assert c.change_class == MINOR and "dependent-required-removed" in kinds(c, "forward")


def test_deep_ref_graph_reports_a_deep_change_once_with_its_path():
    defs = {f"d{i}": {"type": "object", "properties": {
        "s": {"type": "string", "maxLength": 9}, "next": {"$ref": f"#/$defs/d{i + 1}"},
        "alt": {"$ref": f"#/$defs/d{i + 2}"}}} for i in range(40)}
    defs["d40"] = defs["d41"] = {"type": "string"}
    old = {"$ref": "#/$defs/d0", "$defs": defs}
    new = json.loads(json.dumps(old))
    new["$defs"]["d37"]["properties"]["s"]["maxLength"] = 2
    c = diff(old, new)
    # 40 definitions, ~10^8 instance paths to d37: one finding (schema locations), one witness
    assert c.change_class == MAJOR
    assert [f.kind for f in c.findings if f.direction == "backward"] == ["max-length-decreased"]
    f = c.findings[0]
    assert f.new.pointer == "/$defs/d37/properties/s/maxLength" and f.new.line is not None
    assert f.extra["instance_path"][-1] == "s" and len(f.extra["instance_path"]) >= 19
    assert_witnesses(c, old, new)
    annotated = json.loads(json.dumps(old))
    annotated["$defs"]["d37"]["properties"]["s"]["description"] = "changed"
    c = diff(old, annotated)
    assert c.change_class == PATCH and kinds(c) == ["annotation-changed"]


def test_a_null_witness_counts_as_a_witness():
    c = diff({"type": ["null", "string"]}, {"type": "string"})
    f = next(f for f in c.findings if f.direction == "backward")
    assert c.change_class == MAJOR and not f.undecided
    assert f.witness is None and f.extra["witness_is_null"] is True


def test_line_of_walks_only_the_path():
    from evalport_spec.compat.nodes import line_of
    text = '{\n "a": [1,\n  {"b~/": 2}],\n "c": {"d": "}"},\n "e": 3\n}'
    assert line_of(text, "") == 1
    assert line_of(text, "/a/1/b~0~1") == 3
    assert line_of(text, "/e") == 5
    assert line_of(text, "/c/zz") == 4       # nearest existing ancestor
    assert line_of('{"a": }', "/b") is None  # malformed along the path


def test_versioned_id_move_is_expected_other_id_changes_warn():
    from evalport_spec.compat.engine import version_moved
    base = "https://evalport.github.io/spec/{}/schemas/suite.json"
    assert version_moved(base.format("1.2.0"), base.format("1.3.0"))
    assert version_moved(base.format("1.3.0"), base.format("draft"))
    assert not version_moved(base.format("1.2.0"), base.format("1.3.0").replace("suite", "suites"))
    assert not version_moved("https://a.invalid/x.json", "https://b.invalid/x.json")
    typed = {"type": "object", "properties": {"a": {"type": "string"}}}
    c = diff({**typed, "$id": base.format("1.2.0")}, {**typed, "$id": base.format("1.3.0"),
                                                      "properties": {"a": {"type": ["string", "null"]}}})
    assert [f.kind for f in c.findings] == ["type-widened", "schema-id-changed"]  # class-deciding first
    assert c.findings[1].message.endswith(": identity moved with the version (expected for versioned $ids)")
    c = diff({**typed, "$id": "https://a.invalid/x.json"}, {**typed, "$id": "https://b.invalid/x.json"})
    assert c.findings[0].message.endswith("(consumers keyed on the old URL break)")


def test_derivation_shows_a_shared_sub_pair_once():
    """proof.Derivations.tree: a sub-pair relied on twice is expanded the first time only, the
    second use says "proved above"; a co-inductive reference is marked, never expanded."""
    from evalport_spec.compat.proof import Derivations, Step

    d = Derivations()
    for key in ("top", "sub"):
        d.begin(key)
    d.steps["top"].append(Step("case-split", "anyOf at /: 2 cases"))
    d.steps["sub"].append(Step("type-included", "string"))
    d.children["top"] += ["sub", "sub", ("coinduction", "top")]
    assert d.tree("top") == [
        (0, Step("case-split", "anyOf at /: 2 cases")),
        (1, Step("type-included", "string")),
        (1, Step("same-subschema", "proved above (shared subschema)")),
        (1, Step("coinduction", "this pair was being proved further up")),
    ]


def test_explain_lines_name_the_file_only_when_a_step_is_in_another():
    """proof.explain_lines (``diff --explain``): a location in the heading's file is shown by its
    pointer, one in another file in full, a missing one as ``-``."""
    from evalport_spec.compat.proof import explain_lines

    steps = [{"file": "a.json", "direction": "backward", "depth": 0, "rule": "same-subschema",
              "detail": "the same subschema", "old": "a.json#", "new": "b.json#/$defs/x"},
             {"file": "a.json", "direction": "forward", "depth": 1, "rule": "new-accepts-anything",
              "detail": "no constraint", "old": "a.json#/properties/p", "new": None}]
    assert explain_lines(steps) == [
        "proof of old ⊆ new for a.json:",
        "  same-subschema: the same subschema  [old /, new b.json#/$defs/x]",
        "proof of new ⊆ old for a.json:",
        "    new-accepts-anything: no constraint  [old /properties/p, new -]",
    ]


def test_proof_of_a_dropped_required_member_cites_its_rules():
    """The kept proof of old ⊆ new when ``required`` loses a name (worked by hand: both sides
    accept objects only, and the one name new requires, ``a``, old requires too); every step
    names a rule of the registry (proof.RULES)."""
    from evalport_spec.compat.proof import RULES

    c = diff({"type": "object", "required": ["a", "b"]}, {"type": "object", "required": ["a"]},
             search_budget=0)
    assert c.change_class == MINOR and kinds(c) == ["required-removed"]
    assert c.proof == [
        {"file": "s.json", "direction": "backward", "depth": 0, "rule": "type-included",
         "detail": "type object", "old": "s.json#/type", "new": "s.json#/type"},
        {"file": "s.json", "direction": "backward", "depth": 0, "rule": "required-included",
         "detail": "a", "old": "s.json#", "new": "s.json#"},
    ]
    assert all(p["rule"] in RULES for p in c.proof)


def test_an_edit_inside_an_unused_definition_is_accounted_for():
    """edits.unaccounted: a ``$defs`` entry no ``$ref`` reaches changes nothing, so its edit is no
    silent edit even when the root is not proved the same whole (its maxLength decreased: one
    finding, at /maxLength on both sides, a string of 4 code points lost); the same kind of edit
    in a used entry is a finding at its own pointer."""
    old = {"type": "string", "maxLength": 5, "$defs": {"u": {"type": "integer"}}}
    new = {"type": "string", "maxLength": 3, "$defs": {"u": {"type": "boolean"}}}
    c = diff(old, new, search_budget=0)
    [f] = c.findings
    assert (c.change_class, f.kind, f.old.pointer, f.new.pointer) == (MAJOR, "max-length-decreased",
                                                                       "/maxLength", "/maxLength")
    assert lost(Validators(old), Validators(new), f.witness) and len(f.witness) in (4, 5)
    assert "unaccounted_edits" not in c.stats
    old = {"$ref": "#/$defs/u", "$defs": {"u": {"type": ["integer", "string"]}}}
    new = {"$ref": "#/$defs/u", "$defs": {"u": {"type": "string"}}}
    used = diff(old, new, search_budget=0)
    f = next(f for f in used.findings if f.direction == "backward")
    assert (used.change_class, f.kind, f.new.pointer) == (MAJOR, "type-narrowed", "/$defs/u/type")
    assert lost(Validators(old), Validators(new), f.witness)


def test_max_items_decreased_and_increased():
    """maxItems 5 -> 3 loses arrays of 4 and 5 items (MAJOR, max-items-decreased at /maxItems
    on both sides); 3 -> 5 gains them (MINOR, max-items-increased, forward)."""
    old, new = {"type": "array", "maxItems": 5}, {"type": "array", "maxItems": 3}
    c = diff(old, new, search_budget=0)
    [f] = c.findings
    assert (c.change_class, f.kind, f.direction, f.old.pointer, f.new.pointer) == (
        MAJOR, "max-items-decreased", "backward", "/maxItems", "/maxItems")
    assert lost(Validators(old), Validators(new), f.witness) and len(f.witness) in (4, 5)
    back = diff(new, old, search_budget=0)
    [g] = back.findings
    assert (back.change_class, g.kind, g.direction, g.old.pointer, g.new.pointer) == (
        MINOR, "max-items-increased", "forward", "/maxItems", "/maxItems")


def test_a_dynamic_reference_moved_to_an_equal_definition_is_no_silent_edit():
    """edits.unaccounted: a ``$dynamicRef`` (no ``$dynamicAnchor``: a plain reference) moved from
    ``a`` to an equal ``b`` is followed wherever its schema is compared, so the edit is accounted
    for; the root's maxLength 5 -> 3 is the one finding (a string of 4 or 5 code points lost)."""
    defs = {"a": {"type": "string"}, "b": {"type": "string"}}
    old = {"$dynamicRef": "#/$defs/a", "maxLength": 5, "$defs": defs}
    new = {"$dynamicRef": "#/$defs/b", "maxLength": 3, "$defs": defs}
    c = diff(old, new, search_budget=0)
    [f] = c.findings
    assert (c.change_class, f.kind, f.old.pointer, f.new.pointer) == (
        MAJOR, "max-length-decreased", "/maxLength", "/maxLength")
    assert lost(Validators(old), Validators(new), f.witness) and len(f.witness) in (4, 5)
    assert "unaccounted_edits" not in c.stats


_NOWHERE = object()


def _resolves(doc: Any, pointer: str) -> bool:
    """Whether JSON Pointer ``pointer`` (RFC 6901) names a value inside ``doc`` (by the
    ``jsonpointer`` library, not the toolchain's own reader)."""
    return jsonpointer.resolve_pointer(doc, pointer, _NOWHERE) is not _NOWHERE


def test_a_negated_schema_split_into_atoms_is_located_at_its_not():
    """new = not (a string of at least 3): the engine reads it as "not a string, or shorter than
    3", an anyOf no file holds. Strings of 3 or more are lost; the finding points at the ``not``
    that is written, /not, never at /not/anyOf (mutation testing: a pointer into nothing)."""
    old, new = {"type": "string"}, {"not": {"type": "string", "minLength": 3}}
    c = diff(old, new)
    (lost_finding,) = [f for f in c.findings if f.direction == "backward"]
    assert (lost_finding.kind, lost_finding.new.pointer) == ("anyof-narrowed", "/not")
    assert_witnesses(c, old, new)
    for f in c.findings:
        assert f.old is None or _resolves(old, f.old.pointer), f
        assert f.new is None or _resolves(new, f.new.pointer), f


def test_items_no_old_array_reaches_are_accounted_for():
    """Old arrays are empty (prefixItems [false]); new adds items: false. No old array has an
    item for either to judge, so the inclusion holds, and the added keyword is discharged by a
    proof step (items-unreached at /items), not left as an unaccounted edit (property test)."""
    old = {"type": "array", "prefixItems": [False]}
    new = {"type": "array", "prefixItems": [{"type": "string"}], "items": False}
    c = diff(old, new)
    assert (c.change_class, c.forward_class) == (MINOR, MAJOR)  # ["a"] is new; [] is in both
    assert not c.stats.get("unaccounted_edits"), c.stats["unaccounted_edits"]
    assert Validators(new).py(["a"]) and not Validators(old).py(["a"])
