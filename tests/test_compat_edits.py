"""compat/edits.py: the structural edits between two schema trees are the ones deepdiff reports
on the whole pair, although equal subtrees are pruned before deepdiff sees them."""

from __future__ import annotations

import json

from deepdiff import DeepDiff
from hypothesis import given, settings
from hypothesis import strategies as st

from evalport_spec.compat.edits import Edit, same_json, structural_edits
from evalport_spec.pointer import join


def whole_deepdiff(old, new) -> list[Edit]:
    """The edits as deepdiff reports them on the unpruned pair (the reference)."""
    out = {Edit(kind, join("", *item.path(output_format="list")))
           for kind, items in DeepDiff(old, new, verbose_level=2, view="tree").items() for item in items}
    return sorted(out, key=lambda e: (e.pointer, e.kind))


SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-3, 3), st.sampled_from([0.0, 1.0, 2.5]),
                    st.sampled_from(["a", "b", "~x", "y/z"]))
KEYS = st.sampled_from(["type", "a", "b", "properties", "~0", "x/y"])
JSON = st.recursive(SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                      st.dictionaries(KEYS, inner, max_size=4)), max_leaves=15)


def _mutate(value, data):
    """``value`` with a few members or items edited, added or removed (most of it shared)."""
    if isinstance(value, dict) and value and data.draw(st.booleans()):
        k = data.draw(st.sampled_from(sorted(value)))
        copy = dict(value)
        choice = data.draw(st.integers(0, 2))
        if choice == 0:
            del copy[k]
        elif choice == 1:
            copy[k] = _mutate(value[k], data)
        else:
            copy[data.draw(KEYS)] = data.draw(JSON)
        return copy
    if isinstance(value, list) and value and data.draw(st.booleans()):
        i = data.draw(st.integers(0, len(value) - 1))
        return value[:i] + [_mutate(value[i], data)] + value[i + 1:]
    return data.draw(JSON) if data.draw(st.booleans()) else value


@settings(max_examples=300, deadline=None)
@given(JSON, st.data())
def test_pruned_edits_are_deepdiffs_on_the_whole_pair(old, data):
    new = _mutate(old, data)
    assert structural_edits(old, new) == whole_deepdiff(old, new)


def test_equal_looking_values_of_different_json_types_are_edits():
    # Python says True == 1 and 1 == 1.0; JSON (and deepdiff) do not
    old = {"properties": {"a": {"const": True}, "b": {"minimum": 1}}, "title": "t"}
    new = {"properties": {"a": {"const": 1}, "b": {"minimum": 1.0}}, "title": "t"}
    assert [e.pointer for e in structural_edits(old, new)] == ["/properties/a/const", "/properties/b/minimum"]
    assert not same_json(True, 1) and not same_json([1], [1.0]) and same_json({"a": [1, {"b": None}]},
                                                                              {"a": [1, {"b": None}]})


def test_one_edit_deep_in_a_large_schema_is_found_at_its_pointer():
    defs = {f"D{i}": {"type": "object", "properties": {"x": {"type": "string", "title": f"x{i}"}}}
            for i in range(300)}
    old = {"$defs": defs, "items": [{"$ref": "#/$defs/D1"}, {"enum": [1, 2]}]}
    new = json.loads(json.dumps(old))
    new["$defs"]["D7"]["properties"]["x"]["title"] = "edited"
    new["items"][1]["enum"].append(3)
    assert [(e.kind, e.pointer) for e in structural_edits(old, new)] == [
        ("values_changed", "/$defs/D7/properties/x/title"), ("iterable_item_added", "/items/1/enum/2")]
    assert structural_edits(old, json.loads(json.dumps(old))) == []


def test_an_edit_inside_a_finitely_enumerated_subschema_is_accounted_for():
    # both sides accept no document ({} lacks a member, and no member is allowed): the proof
    # enumerates the old side's candidate documents, each validated against the whole new side,
    # so the dropped maxProperties is decided (found by the random-pair property test)
    from compat_corpus.oracle import classify

    main = {"type": "object", "properties": {}, "required": [], "minProperties": 1, "additionalProperties": False}
    old = {"$defs": {"main": {**main, "maxProperties": 1}}, "$ref": "#/$defs/main"}
    new = {"$defs": {"main": main}, "$ref": "#/$defs/main"}
    result = classify(old, new)
    assert (str(result.change_class), str(result.forward_class)) == ("PATCH", "PATCH")
    assert "finite-enumeration" in {p["rule"] for p in result.proof}
    assert not result.stats.get("unaccounted_edits")


def test_a_keyword_added_at_its_neutral_value_is_accounted_for():
    # minItems 0 asserts nothing (found by the random-pair property test); minItems 1 does
    from compat_corpus.oracle import classify

    old = {"$defs": {"main": {"type": "array", "items": {"type": "string"}}}, "$ref": "#/$defs/main"}
    for extra in ({"minItems": 0}, {"required": [], "uniqueItems": False}):
        new = {"$defs": {"main": {**old["$defs"]["main"], **extra}}, "$ref": "#/$defs/main"}
        result = classify(old, new)
        assert str(result.change_class) == "PATCH" and not result.stats.get("unaccounted_edits"), extra
    new = {"$defs": {"main": {**old["$defs"]["main"], "minItems": 1}}, "$ref": "#/$defs/main"}
    assert str(classify(old, new).change_class) == "MAJOR"


def test_a_subschema_keyword_added_as_true_is_accounted_for():
    # items: true beside prefixItems accepts every further item, as no items keyword does
    from compat_corpus.oracle import classify

    old = {"type": "array", "prefixItems": [{"type": "string"}]}
    for extra in ({"items": True}, {"items": {}, "additionalProperties": True}):
        result = classify(old, {**old, **extra})
        assert str(result.change_class) == "PATCH" and not result.stats.get("unaccounted_edits"), extra
    assert str(classify(old, {**old, "items": False}).change_class) == "MAJOR"
