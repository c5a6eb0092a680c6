"""The public API (``import evalport_spec``; docs/api.md): load, schema_set, compare, validate, check.

Expected values are worked out by hand from the schemas, with python-jsonschema as the oracle
where a class depends on which documents each side accepts.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from pathlib import Path

import jsonschema
import pytest

import evalport_spec as ep
from evalport_spec.findings import ChangeClass
from evalport_spec.schemaset import SchemaSet
from evalport_spec.spec import SpecVersion
from gate_repo import REPO, make_repo

NON_NEGATIVE = {"type": "object", "properties": {"n": {"type": "integer", "minimum": 0}}}
ANY_INTEGER = {"type": "object", "properties": {"n": {"type": "integer"}}}


def test_the_entry_points_are_exported_with_docstrings():
    assert set(ep.__all__) == {"InputError", "__version__", "check", "compare", "load", "schema_set",
                               "validate"}
    for name in ("check", "compare", "load", "schema_set", "validate"):
        doc = getattr(ep, name).__doc__
        assert doc and "Raises:" in doc, name


def test_importing_the_package_loads_no_engine():
    out = subprocess.run([sys.executable, "-c", "import evalport_spec, sys, json; "
                          "print(json.dumps(sorted(sys.modules)))"],
                         capture_output=True, text=True, check=True)
    mods = set(json.loads(out.stdout))
    assert not {"jsonschema", "referencing", "evalport_spec.compat", "evalport_spec.gate",
                "evalport_spec.validation"} & mods


def test_py_typed_is_shipped():
    assert (Path(ep.__file__).parent / "py.typed").is_file()
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    assert "py.typed" in config["tool"]["setuptools"]["package-data"]["evalport_spec"]


# ---- schema_set and compare ------------------------------------------------------------------

def test_widening_is_minor_narrowing_is_major_identity_is_patch():
    old, new = ep.schema_set({"s.json": NON_NEGATIVE}), ep.schema_set({"s.json": ANY_INTEGER})
    # the oracle: {"n": -1} is accepted by the new side only
    assert not jsonschema.Draft202012Validator(NON_NEGATIVE).is_valid({"n": -1})
    assert jsonschema.Draft202012Validator(ANY_INTEGER).is_valid({"n": -1})
    assert ep.compare(old, new, search_budget=0).change_class is ChangeClass.MINOR
    back = ep.compare(new, old, search_budget=0)
    assert back.change_class is ChangeClass.MAJOR
    assert any(f.change_class is ChangeClass.MAJOR for f in back.findings)
    assert ep.compare(old, ep.schema_set({"s.json": NON_NEGATIVE}), search_budget=0).change_class \
        is ChangeClass.PATCH


def test_schemas_reference_each_other_by_id_offline():
    item = {"$id": "https://example.org/item.json", "type": "integer"}
    top = {"$id": "https://example.org/top.json", "type": "array",
           "items": {"$ref": "https://example.org/item.json"}}
    s = ep.schema_set({"item.json": item, "top.json": top}, label="mem")
    assert isinstance(s, SchemaSet) and sorted(s.files) == ["item.json", "top.json"]
    narrowed = ep.schema_set({"item.json": {**item, "maximum": 9}, "top.json": top}, label="mem2")
    assert ep.compare(s, narrowed, search_budget=0).change_class is ChangeClass.MAJOR


@pytest.mark.parametrize("schema, words", [
    ({"type": 5}, "not a valid schema"),
    ([1, 2], "object or a boolean"),
    ({"minimum": float("nan")}, "not JSON"),
])
def test_schema_set_refuses_what_is_not_a_schema(schema, words):
    with pytest.raises(ep.InputError) as err:
        ep.schema_set({"bad.json": schema}, label="mem")
    assert words in str(err.value) and "bad.json" in str(err.value)


def test_compare_with_an_ignore_file_leaves_the_matched_findings_out(tmp_path):
    old, new = ep.schema_set({"s.json": ANY_INTEGER}), ep.schema_set({"s.json": NON_NEGATIVE})
    full = ep.compare(old, new, search_budget=0)
    assert full.change_class is ChangeClass.MAJOR
    kinds = sorted({f.kind for f in full.findings if f.change_class is ChangeClass.MAJOR})
    ignore = tmp_path / "ignore.json"
    ignore.write_text(json.dumps([{"kind": k, "reason": "accepted"} for k in kinds]))
    quiet = ep.compare(old, new, search_budget=0, ignore=ignore)
    assert quiet.change_class < ChangeClass.MAJOR
    assert quiet.ignored["silenced"] == len(full.findings) - len(quiet.findings) > 0


# ---- load ------------------------------------------------------------------------------------

def test_load_reads_versions_folders_and_files():
    draft = ep.load("draft", repo=REPO)
    assert isinstance(draft, SpecVersion) and draft.name == "draft"
    folder = ep.load(REPO / "spec" / "schemas")
    assert isinstance(folder, SchemaSet) and "grader.json" in folder.files
    one = ep.load(REPO / "spec" / "schemas" / "grader.json")
    assert isinstance(one, SchemaSet) and one.focus == "grader.json"
    with pytest.raises(ep.InputError, match="no such file, folder or version"):
        ep.load("no-such-thing", repo=REPO)


def test_two_releases_compare_as_versions():
    result = ep.compare(ep.load("1.0.0", repo=REPO), ep.load("1.1.0", repo=REPO))
    # the repository declares 1.0.0 -> 1.1.0 a MINOR step (SPEC.md changelog), and the gate holds it
    assert result.change_class is ChangeClass.MINOR


# ---- validate --------------------------------------------------------------------------------

def test_validate_reports_violations_by_instance_path():
    version = ep.load("draft", repo=REPO)
    grader = json.loads((REPO / "spec/examples/llm-judge-grader.json").read_text())
    assert ep.validate(grader, version) == []
    bad = {**grader, "weight": -1}
    # the draft grader schema: "weight": {"type": "number", "minimum": 0}
    assert json.loads((REPO / "spec/schemas/grader.json").read_text())["properties"]["weight"]["minimum"] == 0
    assert [(v.instance_path, v.code) for v in ep.validate(bad, version)] == [("/weight", "MINIMUM")]
    assert [(v.instance_path, v.code) for v in ep.validate(bad, version, "grader")] == [("/weight", "MINIMUM")]


def test_validate_refuses_what_it_cannot_type_or_a_version_that_is_not_one():
    version = ep.load("draft", repo=REPO)
    with pytest.raises(ep.InputError, match="not an EvalPort document"):
        ep.validate({"x": 1}, version)
    with pytest.raises(ep.InputError, match="not a spec version"):
        ep.validate({"id": "g", "type": "exact_match"}, REPO / "spec" / "schemas")


# ---- check -----------------------------------------------------------------------------------

def test_check_passes_a_sound_repository_and_fails_a_changed_release(tmp_path):
    root = make_repo(tmp_path)
    report = ep.check(root, stages=["manifest"])
    assert report.ok and report.exit_code == 0 and [s.name for s in report.stages] == ["manifest"]
    released = root / "spec/releases/1.1.0/schemas/grader.json"
    released.write_text(released.read_text().replace('"Grader"', '"Grader!"', 1))
    report = ep.check(root / "spec", stages=["manifest"])  # a folder inside the repository
    assert not report.ok and report.exit_code == 1
    assert [(f.kind, f.where().file) for f in report.findings()] == [
        ("released-file-changed", "spec/releases/1.1.0/schemas/grader.json")]


def test_check_outside_a_repository_is_an_input_error(tmp_path):
    with pytest.raises(ep.InputError, match="not inside an EvalPort spec repository"):
        ep.check(tmp_path)
