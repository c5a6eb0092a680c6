"""Every URI a schema set defines is defined once: ``$id`` (top-level or embedded, resolved
against its base by RFC 3986), ``$anchor`` and ``$dynamicAnchor``. A URI defined twice would
let a registry resolve a ``$ref`` to either definition (python-jsonschema's crawl keeps the one
met last, in hash order), so the set is refused: ``validate``/``diff`` exit 2, ``check``'s
schemas stage fails. Expected URIs are resolved by hand below each case."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evalport_spec.cli import main
from evalport_spec.errors import InputError
from evalport_spec.gate import run_gate
from evalport_spec.jsonload import loads
from evalport_spec.schemaset import SchemaSet
from gate_repo import git, make_repo

BASE = "https://example.org/s/"


def sset(**files: object) -> SchemaSet:
    return SchemaSet.from_loaded({n.replace("_", "."): loads(json.dumps(v, indent=1), n.replace("_", "."))
                                  for n, v in files.items()})


def refused(**files: object) -> str:
    with pytest.raises(InputError) as info:
        sset(**files)
    return str(info.value)


def test_embedded_id_equal_to_another_files_id_is_refused():
    # common.json's $defs/g has "$id": "grader.json", resolved against common.json's base
    # https://example.org/s/common.json -> https://example.org/s/grader.json: grader.json's own $id
    msg = refused(grader_json={"$id": BASE + "grader.json", "type": "object"},
                  common_json={"$id": BASE + "common.json", "$defs": {"g": {"$id": "grader.json"}}})
    assert (f"URI '{BASE}grader.json' is defined twice: by $id at common.json#/$defs/g/$id "
            "and by $id at grader.json#/$id") in msg


def test_embedded_ids_resolve_against_the_enclosing_base():
    # /$defs/x has base .../s/sub/; its /$defs/z "y.json" is .../s/sub/y.json, which /$defs/y
    # ("sub/y.json" against .../s/a.json) defines too
    msg = refused(a_json={"$id": BASE + "a.json", "$defs": {
        "x": {"$id": "sub/", "$defs": {"z": {"$id": "y.json"}}}, "y": {"$id": "sub/y.json"}}})
    assert f"URI '{BASE}sub/y.json' is defined twice" in msg
    assert "a.json#/$defs/y/$id" in msg and "a.json#/$defs/x/$defs/z/$id" in msg
    # "y.json" against .../s/a.json is .../s/y.json: a different URI, accepted
    sset(a_json={"$id": BASE + "a.json", "$defs": {
        "x": {"$id": "sub/", "$defs": {"z": {"$id": "y.json"}}}, "y": {"$id": "y.json"}}})


def test_empty_fragment_is_the_same_resource():
    # "grader.json#" is grader.json: the empty fragment is dropped (2020-12 Core 8.2.1)
    msg = refused(grader_json={"$id": BASE + "grader.json"},
                  common_json={"$id": BASE + "common.json", "$defs": {"g": {"$id": BASE + "grader.json#"}}})
    assert f"URI '{BASE}grader.json' is defined twice" in msg


def test_anchor_collisions_within_one_resource():
    # $anchor "n" and $dynamicAnchor "n" in two subschemas of a.json both define a.json#n
    msg = refused(a_json={"$id": BASE + "a.json", "$defs": {"x": {"$anchor": "n"}, "y": {"$dynamicAnchor": "n"}}})
    assert f"URI '{BASE}a.json#n' is defined twice" in msg
    assert "$anchor at a.json#/$defs/x/$anchor" in msg
    assert "$dynamicAnchor at a.json#/$defs/y/$dynamicAnchor" in msg
    # two $anchor "n" in one resource
    assert f"'{BASE}a.json#n' is defined twice" in refused(
        a_json={"$id": BASE + "a.json", "$defs": {"x": {"$anchor": "n"}, "y": {"$anchor": "n"}}})


def test_same_anchor_name_in_different_resources_and_on_one_subschema_is_fine():
    # /$defs/y is its own resource .../s/sub/y.json, so its "n" is .../s/sub/y.json#n
    s = sset(a_json={"$id": BASE + "a.json", "$defs": {
        "x": {"$anchor": "n"}, "y": {"$id": "sub/y.json", "$anchor": "n"},
        "w": {"$anchor": "m", "$dynamicAnchor": "m"}}})
    assert s.check_refs() == []


def test_draft07_fragment_ids_are_locations():
    # draft-07 "$id": "#n" names a.json#n; two of them collide
    msg = refused(a_json={"$schema": "http://json-schema.org/draft-07/schema#", "$id": BASE + "a.json",
                          "definitions": {"x": {"$id": "#n"}, "y": {"$id": "#n"}}})
    assert f"URI '{BASE}a.json#n' is defined twice" in msg


def test_ids_inside_data_keywords_are_not_definitions():
    sset(a_json={"$id": BASE + "a.json", "enum": [{"$id": BASE + "a.json"}],
                 "examples": [{"$anchor": "n"}], "$defs": {"x": {"$anchor": "n"}}})


def _embed_grader_copy(root: Path) -> None:
    """The red team's common.json: grader.json embedded under its own $id, with grader ids
    limited to 64 characters."""
    schemas = root / "spec" / "schemas"
    grader = json.loads((schemas / "grader.json").read_text())
    grader.pop("$schema", None)
    grader["properties"]["id"]["maxLength"] = 64
    common = {"$schema": "https://json-schema.org/draft/2020-12/schema",
              "$id": grader["$id"].replace("grader.json", "common.json"),
              "title": "Common definitions", "$defs": {"grader": grader}}
    (schemas / "common.json").write_text(json.dumps(common, indent=2) + "\n")


@pytest.fixture
def shadowed(tmp_path):
    root = make_repo(tmp_path)
    _embed_grader_copy(root)
    git(root, "add", "-A")
    git(root, "commit", "-qm", "common.json")
    return root


def test_validate_and_diff_exit_2_naming_both_places(shadowed, tmp_path, capsys):
    doc = tmp_path / "suite.json"
    doc.write_text(json.dumps({"version": "1.3.0", "id": "s", "graders": [], "test_cases": []}))
    assert main(["-C", str(shadowed), "validate", "--spec-version", "draft", str(doc)]) == 2
    err = capsys.readouterr().err
    assert "grader.json' is defined twice: by $id at common.json#/$defs/grader/$id" in err
    assert "grader.json#/$id" in err and "Traceback" not in err
    assert main(["-C", str(shadowed), "diff", "main:spec/schemas", str(shadowed / "spec" / "schemas")]) == 2
    assert "is defined twice" in capsys.readouterr().err


def test_check_schemas_stage_fails(shadowed):
    stage = run_gate(shadowed, stages=["schemas"]).stage("schemas")
    assert stage.status == "fail"
    assert any(f.kind == "schema-unreadable" and "is defined twice" in f.message for f in stage.findings)
