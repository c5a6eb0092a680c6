"""One finding per lost (backward) or added (forward) item, each with its own witness and item
(issue 20); expected findings worked out by hand."""

from __future__ import annotations

import json

import pytest

from compat_pair import diff
from evalport_spec.cli import main
from evalport_spec.errors import InputError
from evalport_spec.findings import NO_ITEM, ChangeClass

MAJOR, MINOR = ChangeClass.MAJOR, ChangeClass.MINOR
D4 = "http://json-schema.org/draft-04/schema#"



def of(c, kind):
    return [f for f in c.findings if f.kind == kind]


def items(c, kind):
    return sorted((f.item for f in of(c, kind)), key=json.dumps)


ERROR = {"type": "object", "properties": {"type": {"enum": ["assertion", "runner_error", "timeout"]}}}
NARROW = {"type": "object", "properties": {"type": {"enum": ["assertion"]}}}


def test_two_removed_values_are_two_findings_with_two_witnesses():
    c = diff(ERROR, NARROW)
    found = of(c, "enum-value-removed")
    assert sorted(f.item for f in found) == ["runner_error", "timeout"]
    assert sorted(f.witness["type"] for f in found) == ["runner_error", "timeout"]
    assert len({f.fingerprint for f in found}) == 2
    assert all(f.change_class == MAJOR and not f.undecided for f in found)


def test_reordering_the_enum_keeps_the_fingerprints():
    reordered = {"type": "object", "properties": {"type": {"enum": ["timeout", "assertion", "runner_error"]}}}
    a = {f.fingerprint for f in of(diff(ERROR, NARROW), "enum-value-removed")}
    b = {f.fingerprint for f in of(diff(reordered, NARROW), "enum-value-removed")}
    assert a == b and len(a) == 2


def test_one_removed_value_has_its_own_fingerprint():
    one = {"type": "object", "properties": {"type": {"enum": ["assertion", "timeout"]}}}
    (f,) = of(diff(ERROR, one), "enum-value-removed")
    both = {g.fingerprint: g.item for g in of(diff(ERROR, NARROW), "enum-value-removed")}
    assert f.item == "runner_error" and both[f.fingerprint] == "runner_error"


def test_a_type_list_narrowed_by_two_members_gives_two_findings():
    c = diff({"type": ["string", "integer", "null"]}, {"type": "string"})
    assert items(c, "type-narrowed") == ["integer", "null"]
    assert {json.dumps(f.witness) for f in of(c, "type-narrowed")} >= {"null"}


def test_number_dropped_is_one_member_integer_inside_it():
    # integer is inside number: dropping number loses one member, not two
    c = diff({"type": ["string", "number"]}, {"type": "string"})
    assert items(c, "type-narrowed") == ["number"]
    c = diff({"type": "number"}, {"type": "integer"})
    assert items(c, "type-narrowed") == ["number"]
    assert c.findings[0].witness % 1 != 0


def test_one_added_value_is_one_minor_finding_naming_it():
    c = diff(NARROW, {"type": "object", "properties": {"type": {"enum": ["assertion", "timeout"]}}})
    assert c.change_class == MINOR
    (f,) = of(c, "enum-value-added")
    assert f.item == "timeout" and f.direction == "forward" and f.witness == {"type": "timeout"}


def test_a_changed_const_names_its_old_and_new_value():
    c = diff({"const": "x"}, {"const": "y"})
    assert items(c, "enum-value-removed") == ["x"] and items(c, "enum-value-added") == ["y"]


def test_one_and_one_point_zero_are_one_value_in_2020():
    c = diff({"enum": [1, 1.0, 2]}, {"enum": [2]})
    (f,) = of(c, "enum-value-removed")
    assert f.item == 1
    assert not of(diff({"enum": [1, 2]}, {"enum": [1.0, 2]}), "enum-value-removed")


def test_a_draft04_enum_listing_a_value_twice_is_refused(tmp_path, capsys):
    s = {"$schema": D4, "enum": ["a", "b", "a"]}
    with pytest.raises(InputError, match="twice"):
        diff(s, s)
    (tmp_path / "o.json").write_text(json.dumps(s))
    assert main(["diff", str(tmp_path / "o.json"), str(tmp_path / "o.json")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "enum/2" in err[0]


def test_required_names_are_items():
    c = diff({"type": "object", "required": ["a"]}, {"type": "object", "required": ["a", "b", "c"]})
    assert items(c, "required-added") == ["b", "c"]


def test_dependent_required_names_are_items():
    c = diff({"type": "object", "dependentRequired": {"a": ["b"]}},
             {"type": "object", "dependentRequired": {"a": ["b", "c", "d"]}})
    assert items(c, "dependent-required-added") == ["c", "d"]
    assert {json.dumps(f.witness, sort_keys=True) for f in of(c, "dependent-required-added")} == {'{"a": {}, "b": {}}'}


def test_a_removed_pattern_properties_entry_is_the_item():
    old = {"type": "object", "patternProperties": {"^a": {}, "^b": {}}, "additionalProperties": False}
    new = {"type": "object", "patternProperties": {"^a": {}}, "additionalProperties": False}
    c = diff(old, new)
    (f,) = [f for f in c.findings if f.direction == "backward"]
    assert f.item == "^b" and next(iter(f.witness)).startswith("b")


def test_each_dropped_anyof_branch_is_a_finding():
    c = diff({"anyOf": [{"type": "string"}, {"type": "integer"}, {"type": "null"}]},
             {"anyOf": [{"type": "string"}]})
    assert items(c, "anyof-narrowed") == [{"type": "integer"}, {"type": "null"}]
    assert [f for f in c.findings if f.direction == "backward" and f.kind != "anyof-narrowed"] == []


def test_a_dropped_oneof_branch_is_located_at_the_branch_and_printed_once(tmp_path, capsys):
    """Fresh user: a root oneOf whose third branch is narrowed gave `old: old.json:1` (the
    group's owner, the whole schema) and the branch's JSON twice on the text line. Written with
    json.dumps(indent=2), old /oneOf/2 opens line 9 and new /oneOf is on line 2."""
    branches = [{"type": "string"}, {"type": "integer"}, {"type": "boolean"}]
    old, new = tmp_path / "old.json", tmp_path / "new.json"
    old.write_text(json.dumps({"oneOf": branches}, indent=2))
    new.write_text(json.dumps({"oneOf": [*branches[:2], {"type": "boolean", "const": True}]}, indent=2))
    assert main(["diff", str(old), str(new), "--no-cache", "--format", "json"]) == 1
    [f] = [f for f in json.loads(capsys.readouterr().out)["findings"] if f["kind"] == "oneof-narrowed"]
    assert (f["item"], f["old"], f["new"]) == (
        {"type": "boolean"}, {"file": str(old), "pointer": "/oneOf/2", "line": 9},
        {"file": str(new), "pointer": "/oneOf", "line": 2})
    assert main(["diff", str(old), str(new), "--no-cache"]) == 1
    out = capsys.readouterr().out
    [line] = [ln for ln in out.splitlines() if "oneof-narrowed" in ln]
    assert line == f'{new}:2: MAJOR oneof-narrowed: Narrowed oneOf {{"type":"boolean"}} in new.json'
    assert f"    old: {old}:9" in out.splitlines()


def test_a_oneof_of_constants_is_compared_as_the_enum_it_is(tmp_path, capsys):
    """A oneOf of constants accepts exactly its values (compat/canon.py, finite groups): the
    third constant made an integer accepts nothing, so "skip" is one removed enum value,
    located at each side's oneOf (line 2), printed once."""
    consts = [{"const": "pass"}, {"const": "fail"}, {"const": "skip"}]
    old, new = tmp_path / "old.json", tmp_path / "new.json"
    old.write_text(json.dumps({"oneOf": consts}, indent=2))
    new.write_text(json.dumps({"oneOf": [*consts[:2], {"const": "skip", "type": "integer"}]}, indent=2))
    assert main(["diff", str(old), str(new), "--no-cache", "--format", "json"]) == 1
    [f] = json.loads(capsys.readouterr().out)["findings"]
    assert (f["kind"], f["item"], f["old"]["line"], f["new"]["line"], f["witness"]) == (
        "enum-value-removed", "skip", 2, 2, "skip")


def test_keyword_findings_name_no_item():
    c = diff({"type": "string"}, {"type": "string", "maxLength": 3})
    (f,) = of(c, "max-length-decreased")
    assert f.item is NO_ITEM


def test_half_of_a_large_enum_removed_is_one_finding_per_value():
    values = [f"v{i}" for i in range(5000)]
    c = diff({"enum": values}, {"enum": values[:2500]})
    found = of(c, "enum-value-removed")
    assert len(found) == 2500 and {f.item for f in found} == set(values[2500:])
    assert len({f.fingerprint for f in found}) == 2500
