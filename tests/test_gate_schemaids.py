"""Every ``$id`` of a version folder's schemas lies under that version's base URI
(``schema-id-outside-version``, :mod:`evalport_spec.gate.schemaids`): an embedded resource named
by a released version's URI would redefine, for each ``$ref`` of the set, what that released
schema is (red team, session 33)."""

from __future__ import annotations

import pytest

from evalport_spec.gate import run_gate
from evalport_spec.spec import SpecRepo
from gate_repo import REPO, edit_json, reset_fixtures

RELEASED_GRADER = "https://evalport.github.io/spec/1.3.0/schemas/grader.json"


scratch, repo = reset_fixtures("schemaids")


def outside(report):
    return sorted((f.new.file, f.new.pointer) for f in report.stage("schemas").findings
                  if f.kind == "schema-id-outside-version")


def embed(root, schema_id):
    """Suite's ``$defs/shadow``: a Grader copy whose ``$id`` is ``schema_id``."""
    edit_json(root / "spec/schemas/suite.json",
              lambda d: d.setdefault("$defs", {}).__setitem__("shadow", {"$id": schema_id, "type": "object"}))


def test_this_repositorys_own_spec_has_no_id_outside_its_version():
    from evalport_spec.gate.schemaids import schema_id_findings
    repo = SpecRepo(REPO)
    for name in repo.all_versions():
        assert schema_id_findings(repo.version(name).schemas, name) == [], name


@pytest.mark.parametrize("schema_id", [
    RELEASED_GRADER,                                                             # absolute
    "../../1.3.0/schemas/grader.json",                                           # relative to the draft's base
    "https://evalport.github.io/spec/draft/schemas/../../1.3.0/schemas/grader.json",  # dot segments
    "https://elsewhere.example/spec/draft/schemas/grader.json",                  # another host
])
def test_an_embedded_id_outside_the_drafts_base_fails_the_schemas_stage(repo, schema_id):
    embed(repo, schema_id)
    report = run_gate(repo, stages=["schemas"], cache=False)
    assert outside(report) == [("spec/schemas/suite.json", "/$defs/shadow/$id")]
    assert report.stage("schemas").status == "fail"


def test_an_embedded_id_under_the_drafts_base_passes(repo):
    embed(repo, "common.json")  # https://evalport.github.io/spec/draft/schemas/common.json
    report = run_gate(repo, stages=["schemas"], cache=False)
    assert outside(report) == []
    assert report.stage("schemas").status == "ok"


def test_a_root_id_under_another_prefix_is_named(repo):
    edit_json(repo / "spec/schemas/grader.json",
              lambda d: d.__setitem__("$id", "https://elsewhere.example/spec/draft/schemas/grader.json"))
    report = run_gate(repo, stages=["schemas"], cache=False)
    assert outside(report) == [("spec/schemas/grader.json", "/$id")]


def test_a_released_versions_schemas_are_checked_too(repo):
    edit_json(repo / "spec/releases/1.2.0/schemas/suite.json",
              lambda d: d.setdefault("$defs", {}).__setitem__(
                  "shadow", {"$id": "https://evalport.github.io/spec/1.3.0/schemas/grader.json"}))
    report = run_gate(repo, stages=["schemas"], cache=False)
    assert outside(report) == [("spec/releases/1.2.0/schemas/suite.json", "/$defs/shadow/$id")]
