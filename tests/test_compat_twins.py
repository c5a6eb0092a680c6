"""Subschemas written alike are compared once (issue 16): a pair of canons proved or refuted
serves every pair with the same content key (same side, dialect, base URI and JSON text), its
failures moved to the pair's own locations; two sets alike but for annotations are equal at
every pointer without a walk. The expected classes, locations and witnesses below are worked
out by hand from the schemas (and the witnesses checked with python-jsonschema)."""

from __future__ import annotations

import jsonschema

from compat_corpus import shapes
from compat_corpus.oracle import classify
from compat_pair import diff, sset
from evalport_spec.compat.canon import alike
from evalport_spec.compat.fail import Fail
from evalport_spec.compat.nodes import Node, Side
from evalport_spec.findings import NO_ITEM

D2020 = "https://json-schema.org/draft/2020-12/schema"


def _obj(max_len: int) -> dict:
    return {"type": "object", "properties": {"s": {"type": "string", "maxLength": max_len}}}


def _twice(x: dict) -> dict:
    return {"type": "object", "properties": {"a": x, "b": x}}


def test_a_twin_failure_is_reported_at_its_own_place_with_its_own_witness():
    # a and b hold the same subschema; maxLength 10 -> 5 under both loses {"a": {"s": 6 chars}}
    # and {"b": {"s": 6 chars}}: two findings, one per place, not one place twice
    old, new = _twice(_obj(10)), _twice(_obj(5))
    c = diff(old, new)
    assert str(c.change_class) == "MAJOR"
    back = sorted((f.new.pointer, tuple(f.extra["instance_path"])) for f in c.findings if f.direction == "backward")
    assert back == [("/properties/a/properties/s/maxLength", ("a", "s")),
                    ("/properties/b/properties/s/maxLength", ("b", "s"))]
    for f in c.findings:
        assert jsonschema.Draft202012Validator(old).is_valid(f.witness)
        assert not jsonschema.Draft202012Validator(new).is_valid(f.witness)
        assert next(iter(f.witness)) == f.extra["instance_path"][0]


def test_a_twin_proof_is_reused_and_named_in_the_derivation():
    # maxLength 10 -> 20 under both: MINOR; b's pair is written like a's, so its proof is a's
    c = diff(_twice(_obj(10)), _twice(_obj(20)))
    assert str(c.change_class) == "MINOR"
    twin = [p for p in c.proof if p["direction"] == "backward" and p["rule"] == "same-as-proved"]
    assert [(p["old"], p["new"]) for p in twin] == [("s.json#/properties/b", "s.json#/properties/b")]


def test_the_same_text_under_another_base_uri_is_another_schema():
    # {"$ref": "#/$defs/t", "minLength": 0} is written alike in resources a and b, but "#/$defs/t"
    # is a string in a and an integer in b; only b's integer gets a maximum: 10 is lost at /y/p
    def schema(t_of_b: dict) -> dict:
        return {"$schema": D2020, "type": "object", "properties": {
            "x": {"$id": "http://e.org/a", "$defs": {"t": {"type": "string"}}, "type": "object",
                  "properties": {"p": {"$ref": "#/$defs/t", "minLength": 0}}},
            "y": {"$id": "http://e.org/b", "$defs": {"t": t_of_b}, "type": "object",
                  "properties": {"p": {"$ref": "#/$defs/t", "minLength": 0}}}}}
    old, new = schema({"type": "integer"}), schema({"type": "integer", "maximum": 5})
    c = diff(old, new)
    back = [f for f in c.findings if f.direction == "backward"]
    assert str(c.change_class) == "MAJOR" and len(back) == 1
    assert back[0].new.pointer == "/properties/y/$defs/t/maximum"
    w = back[0].witness
    assert w["y"]["p"] > 5 and jsonschema.Draft202012Validator(old).is_valid(w)
    assert not jsonschema.Draft202012Validator(new).is_valid(w)
    so = Side("old", sset(old, "old"))
    xa, yb = Node("old", "s.json", "/properties/x/properties/p"), Node("old", "s.json", "/properties/y/properties/p")
    assert so.value(xa) == so.value(yb) and so.content_id(xa) != so.content_id(yb)


def test_content_ids_tell_1_from_1_0_and_share_written_alike():
    s = {"properties": {"a": {"maximum": 1}, "b": {"maximum": 1.0}, "c": {"maximum": 1}}}
    side = Side("old", sset(s, "old"))
    a, b, c = (Node("old", "s.json", f"/properties/{k}") for k in "abc")
    assert side.content_id(a) == side.content_id(c) != side.content_id(b)


def test_nested_oneof_is_decided_with_linear_work():
    # issue 16's shape, 2**7 leaves, each maxLength 10 -> 20: MINOR (forward MAJOR), decided
    c = diff(shapes.nested_oneof(7, 10), shapes.nested_oneof(7, 20))
    assert str(c.change_class) == "MINOR"
    assert not any(f.undecided for f in c.findings)
    assert c.stats["cases"] < 1000  # one per distinct pair (480); each of the 2**7 paths apart: 10,388


def test_alike_lets_only_pure_annotations_differ():
    base = {"type": "object", "description": "d", "properties": {"description": {"type": "string"}},
            "enum": [{"description": "x"}], "$defs": {"t": {"title": "t", "minimum": 1}}}

    def edited(**kw):
        import copy
        out = copy.deepcopy(base)
        for path, value in kw.items():
            node = out
            *head, last = path.split("__")
            for k in head:
                node = node[k]
            node[last] = value
        return out

    assert alike(base, edited(description="other"))
    assert alike(base, edited(**{"$defs__t__title": "renamed"}))
    assert not alike(base, edited(properties__description={"type": "integer"}))  # a property, not an annotation
    assert not alike(base, edited(enum=[{"description": "y"}]))  # data, not an annotation
    assert not alike(base, edited(**{"$defs__t__minimum": 1.0}))  # 1 and 1.0 written apart
    assert not alike(base, edited(**{"$defs__t__minimum": 2}))


def test_sets_alike_but_for_descriptions_are_patch_and_a_definition_change_is_not():
    s = {"$defs": {"n": {"type": "integer", "description": "n"}}, "type": "object",
         "properties": {"a": {"$ref": "#/$defs/n"}, "b": {"type": "string", "description": "b"}}}
    described = {**s, "properties": {**s["properties"], "b": {"type": "string", "description": "changed"}}}
    assert str(diff(s, described).change_class) == "PATCH"
    narrowed = {**s, "$defs": {"n": {"type": "integer", "description": "n", "minimum": 0}}}
    c = diff(s, narrowed)
    assert str(c.change_class) == "MAJOR"
    assert [f.new.pointer for f in c.findings if f.direction == "backward"] == ["/$defs/n/minimum"]


def test_a_failure_key_follows_a_replaced_item():
    from dataclasses import replace
    f = Fail("anyOf", "m", None, None)
    assert f.key()[-1] is None and f.item is NO_ITEM
    g = replace(f, item={"type": "string"})
    assert g.key()[-1] == '{"type":"string"}'


def test_case_budget_binds_each_file_and_direction_on_its_own():
    # the case-split budget is per file and direction (compare's max_cases): a budget that one
    # file's whole comparison fits in also fits each of two such files. Each file raises the leaf
    # maxLength 10 -> 20 of a depth-3 nested oneOf: MINOR (forward MAJOR), by hand, decided.
    # Before: the count ran on across directions and files, so the second file came out
    # 'case-split budget exceeded' (undecided, a MAJOR nobody made).
    old, new = shapes.nested_oneof(3, 10), shapes.nested_oneof(3, 20)
    one = classify({"a.json": old}, {"a.json": new}, search_budget=0)
    assert not any(f.undecided for f in one.findings)
    budget = one.stats["cases"]  # both directions of one file together
    two = classify({"a.json": old, "b.json": old}, {"a.json": new, "b.json": new},
                   search_budget=0, max_cases=budget)
    assert [f.kind for f in two.findings if f.undecided] == []
    assert str(two.change_class) == "MINOR" and str(two.forward_class) == "MAJOR"
    assert two.stats["cases"] == 2 * budget  # every case of both files counted


def test_a_check_keeping_disjunctions_whole_is_no_twin_of_the_full_check():
    """Old: members p and q each an anyOf of two string branches (length >= 2, or empty); new:
    p an anyOf of [string but not "a", null], q that string-but-not-"a" branch alone. Member p's
    group branch is first tried with p's own anyOf kept whole (anything ⊆ string-not-"a" fails:
    "not proved this way"); that pair is written like q's, which holds (every old string is
    empty or longer than "a"). Before, q got p's whole-attempt failures through the content
    memo: MAJOR, three undecided type findings at /properties/q; with the members swapped, MINOR.
    By hand and by python-jsonschema: MINOR both ways (no old document lost; "b" at the plain
    member is new-valid and old-invalid)."""
    grp = {"anyOf": [{"type": "string", "minLength": 2}, {"type": "string", "maxLength": 0}]}
    not_a = {"type": "string", "not": {"const": "a"}}
    for grouped, plain in (("p", "q"), ("q", "p")):  # members are compared in name order
        old = {"type": "object", "properties": {"p": grp, "q": grp}}
        new = {"type": "object", "properties": {grouped: {"anyOf": [not_a, {"type": "null"}]}, plain: not_a}}
        c = classify(old, new)
        assert str(c.change_class) == "MINOR", (grouped, [(f.kind, f.old and f.old.pointer) for f in c.findings])
        assert [f for f in c.findings if f.direction == "backward"] == []
        doc = {plain: "b"}
        assert jsonschema.Draft202012Validator(new).is_valid(doc) and not jsonschema.Draft202012Validator(old).is_valid(doc)
