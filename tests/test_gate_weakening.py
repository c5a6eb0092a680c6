"""A branch that takes evidence away from the draft is shown to the reviewer (``check --base``,
``gate/weakening.py``). Red team (session 34): a draft fixture given an ``until`` equal to the
draft's version (so it no longer ran), a deleted fixture and a deleted example each passed the
base stage with no word in the report.
"""

from __future__ import annotations

import json

from evalport_spec.gate import run_gate
from gate_repo import commit_all, edit_json, git, reset_fixtures

scratch, repo = reset_fixtures("weakening")

FIXTURE = "grader-empty-id"
"""A draft fixture with ``since: 1.0.0`` and no ``until``: it applies to the draft (1.4.0)."""


def weakening(root):
    stage = run_gate(root, base="main", stages=["base"], cache=False).stage("base")
    kinds = ("conformance-fixture-removed", "conformance-fixture-retired", "conformance-fixture-changed",
             "example-removed", "example-changed")
    return stage, sorted((f.kind, f.new.file, f.severity.name) for f in stage.findings if f.kind in kinds)


def test_a_deleted_draft_fixture_is_a_warning(repo):
    (repo / f"spec/conformance/fixtures/{FIXTURE}.json").unlink()
    commit_all(repo, "drop a fixture")
    stage, found = weakening(repo)
    assert found == [("conformance-fixture-removed", f"spec/conformance/fixtures/{FIXTURE}.json", "WARNING")]
    assert stage.status == "warn"


def test_a_draft_fixture_retired_at_the_drafts_version_is_a_warning(repo):
    assert (repo / "spec/VERSION").read_text().strip() == "1.4.0"
    edit_json(repo / f"spec/conformance/fixtures/{FIXTURE}.json", lambda d: d.update(until="1.4.0"))
    commit_all(repo, "retire a fixture at the draft's version")
    stage, found = weakening(repo)
    assert found == [("conformance-fixture-retired", f"spec/conformance/fixtures/{FIXTURE}.json", "WARNING")]
    (finding,) = [f for f in stage.findings if f.kind == "conformance-fixture-retired"]
    assert finding.new.pointer == "/until" and "since 1.0.0, until 1.4.0" in finding.message
    # retired above the draft's version: it still applies, nothing to say
    edit_json(repo / f"spec/conformance/fixtures/{FIXTURE}.json", lambda d: d.update(until="2.0.0"))
    assert weakening(repo)[1] == []


def test_a_deleted_example_is_a_warning(repo):
    (repo / "spec/examples/rag-suite.json").unlink()
    commit_all(repo, "drop an example")
    stage, found = weakening(repo)
    assert found == [("example-removed", "spec/examples/rag-suite.json", "WARNING")]


def test_an_unchanged_draft_and_added_evidence_say_nothing(repo):
    assert weakening(repo)[1] == []
    src = repo / f"spec/conformance/fixtures/{FIXTURE}.json"
    (repo / "spec/conformance/fixtures/grader-empty-id-2.json").write_text(
        src.read_text().replace(f'"{FIXTURE}"', '"grader-empty-id-2"'))
    (repo / "spec/examples/copy.json").write_text((repo / "spec/examples/rag-suite.json").read_text())
    commit_all(repo, "more evidence")
    assert weakening(repo)[1] == []


def test_a_fixture_that_no_longer_applied_at_the_base_may_go_in_silence(repo):
    edit_json(repo / f"spec/conformance/fixtures/{FIXTURE}.json", lambda d: d.update(until="1.4.0"))
    base = commit_all(repo, "retired (reviewed)")
    (repo / f"spec/conformance/fixtures/{FIXTURE}.json").unlink()
    stage = run_gate(repo, base=base, stages=["base"], cache=False).stage("base")
    assert not [f for f in stage.findings if f.kind.startswith("conformance-fixture-")]


def test_a_fixture_kept_by_name_but_pinning_another_case_is_a_warning(repo):
    """Red team: the invalid document swapped for a valid one and the expectation flipped keeps
    the fixture's name and version bounds, and the empty-id case is checked no more."""
    def swap(d):
        d["document"]["id"] = "g1"
        d["expect"] = {"schema": {"valid": True}, "full": {"valid": True, "errors": []}}
    edit_json(repo / f"spec/conformance/fixtures/{FIXTURE}.json", swap)
    commit_all(repo, "the fixture pins a valid grader now")
    assert weakening(repo)[1] == [("conformance-fixture-changed", f"spec/conformance/fixtures/{FIXTURE}.json",
                                   "WARNING")]
    # the description reworded: the same case
    reset_to = repo / f"spec/conformance/fixtures/{FIXTURE}.json"
    git(repo, "checkout", "main", "--", str(reset_to.relative_to(repo)))
    edit_json(reset_to, lambda d: d.update(description="Reworded."))
    assert weakening(repo)[1] == []


def test_a_changed_example_is_a_warning_and_a_relaid_one_is_not(repo):
    """Before session 35 an example edited into another document (here: its first member's value
    changed) passed the base stage with no word; only a deleted one was shown."""
    path = repo / "spec/examples/rag-suite.json"
    text = path.read_text()
    import json
    doc = json.loads(text)
    path.write_text(json.dumps(doc, indent=4, sort_keys=True) + "\n")  # layout and key order only
    commit_all(repo, "re-laid example")
    assert weakening(repo)[1] == []
    doc["name"] = doc.get("name", "") + " (simplified)"
    path.write_text(json.dumps(doc, indent=2) + "\n")
    commit_all(repo, "edited example")
    stage, found = weakening(repo)
    assert found == [("example-changed", "spec/examples/rag-suite.json", "WARNING")]
    (finding,) = [f for f in stage.findings if f.kind == "example-changed"]
    assert finding.old.file == "main:spec/examples/rag-suite.json"


def test_a_rule_encoding_changed_under_the_same_statement_is_a_warning_naming_the_rule(repo):
    """Red team, session 35: NULL_SCORE_PASSED (encoded in resultset.json) had its ``if`` narrowed
    to graders whose id has two characters: its fixture (grader ``judge``) was still rejected, a
    null score now passed for grader ``j``, and the gate said only ``MINOR if-then-loosened``,
    naming no rule, while the statement still says a null score never passes."""
    import jsonschema

    path = repo / "spec/schemas/resultset.json"
    doc = {"grader_id": "j", "type": "exact_match", "score": None, "passed": True}
    before = jsonschema.Draft202012Validator(json.loads(path.read_text())["$defs"]["grader_result"])
    edit_json(path, lambda d: d["$defs"]["grader_result"]["allOf"][0]["if"]["properties"].update(
        grader_id={"minLength": 2}))
    after = jsonschema.Draft202012Validator(json.loads(path.read_text())["$defs"]["grader_result"])
    assert not before.is_valid(doc) and after.is_valid(doc)  # the premise: a rejected document now passes
    commit_all(repo, "NULL_SCORE_PASSED for named graders")
    stage = run_gate(repo, base="main", stages=["base"], cache=False).stage("base")
    found = [(f.kind, f.code, f.new.file, f.new.pointer, f.severity.name) for f in stage.findings
             if f.kind == "rule-encoding-changed"]
    assert found == [("rule-encoding-changed", "NULL_SCORE_PASSED", "spec/schemas/resultset.json",
                      "/$defs/grader_result/allOf/0", "WARNING")]
    # the statement changed with it: still said (a statement without a key word is on no record),
    # with a message asking whether the new statement says what the subschema rejects
    edit_json(repo / "spec/rules.json", lambda d: next(r for r in d["rules"] if r["code"] == "NULL_SCORE_PASSED")
              .update(statement="A GraderResult of a grader with an id of two or more characters whose score is "
                                "null has passed false."))
    commit_all(repo, "and its statement")
    stage = run_gate(repo, base="main", stages=["base"], cache=False).stage("base")
    (f,) = [f for f in stage.findings if f.kind == "rule-encoding-changed"]
    assert f.code == "NULL_SCORE_PASSED" and "so does its catalogue statement" in f.message


def test_a_rule_encoding_loosened_beside_a_statement_edited_in_its_spacing_is_still_warned_about(repo):
    """Adversary 36, attempt 1: NULL_SCORE_PASSED's ``if`` narrowed as above, and its statement
    given a second space between two words (no word changed). A differing statement silenced
    the warning, and the statement has no key word, so it is no unit of the normative record:
    the gate said nothing naming the rule, and python-jsonschema now accepts a null score that
    passed for grader ``j``."""
    import jsonschema

    path = repo / "spec/schemas/resultset.json"
    doc = {"grader_id": "j", "type": "exact_match", "score": None, "passed": True}
    edit_json(path, lambda d: d["$defs"]["grader_result"]["allOf"][0]["if"]["properties"].update(
        grader_id={"minLength": 2}))
    assert jsonschema.Draft202012Validator(json.loads(path.read_text())["$defs"]["grader_result"]).is_valid(doc)

    def spaced(d):
        rule = next(r for r in d["rules"] if r["code"] == "NULL_SCORE_PASSED")
        assert " has " in rule["statement"]
        rule["statement"] = rule["statement"].replace(" has ", " has  ", 1)

    edit_json(repo / "spec/rules.json", spaced)
    commit_all(repo, "NULL_SCORE_PASSED for named graders")
    stage = run_gate(repo, base="main", stages=["base"], cache=False).stage("base")
    assert [(f.kind, f.code, f.severity.name) for f in stage.findings if f.kind == "rule-encoding-changed"] == [
        ("rule-encoding-changed", "NULL_SCORE_PASSED", "WARNING")]
