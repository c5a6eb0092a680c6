"""The gate (``evalport-spec check``), end to end in a temporary git repository."""

from __future__ import annotations

import dataclasses
import json
import subprocess
from pathlib import Path

import pytest

from evalport_spec.cli import main
from evalport_spec.findings import ChangeClass, Finding, Location, Severity
from evalport_spec.gate import run_gate
from evalport_spec.gate.acceptance import BaseLedger, RfcState
from evalport_spec.gate.output import render
from evalport_spec.gate.spectext import END_MARKER, check_spec_text
from evalport_spec.manifest import verify_manifest
from evalport_spec.policy import apply_major_rule, bump_class, version_problem
from gate_repo import add_optional_runner_field, edit_json, git, make_repo


@pytest.fixture
def repo(tmp_path):
    return make_repo(tmp_path)


def remove_enum_value(root):
    def f(d):
        d["$defs"]["error"]["properties"]["type"]["enum"].remove("runner_error")
    edit_json(root / "spec/schemas/resultset.json", f)


# --- pieces that need no engine -------------------------------------------------------------

def test_truncated_spec_md_fails_spec_text(repo):
    md = repo / "spec/SPEC.md"
    text = md.read_text()
    md.write_text(text[: text.index("## Conformance")])
    report = run_gate(repo, stages=["spec-text"])
    stage = report.stage("spec-text")
    assert stage.status == "fail" and report.exit_code == 1
    kinds = {(f.kind, f.where().file) for f in stage.findings}
    assert ("spec-end-marker-missing", "spec/SPEC.md") in kinds
    assert ("spec-section-missing", "spec/SPEC.md") in kinds
    assert {f.message.split("'")[1] for f in stage.findings if f.kind == "spec-section-missing"} == {
        "## Conformance", "## Governance", "## Changelog"}


def test_complete_spec_md_passes():
    text = "\n".join(f"## {h}\n\ntext\n" for h in (
        "Status", "Terminology", "Documents", "Grader types", "Validation", "Cross-field rules",
        "Versioning and compatibility", "Extension mechanism", "Conformance", "Governance",
        "Changelog")) + "\n### 1.1.0 — 2026-01-02 — MINOR\n\n- x\n\n" + END_MARKER + "\n"
    assert check_spec_text(text, "S.md") == []
    swapped = text.replace("## Status", "## Tmp").replace("## Terminology", "## Status").replace("## Tmp", "## Terminology")
    # Terminology now comes first: it is the section out of order, at its own line
    assert [(f.kind, f.new) for f in check_spec_text(swapped, "S.md")] == [
        ("spec-section-out-of-order", Location("S.md", None, swapped.split("\n").index("## Terminology") + 1))]
    fenced = text.replace("## Documents", "```\n## Documents\n```")
    # a missing section points at the last section found before it
    assert [(f.kind, f.new) for f in check_spec_text(fenced, "S.md")] == [
        ("spec-section-missing", Location("S.md", None, fenced.split("\n").index("## Terminology") + 1))]
    bad = text.replace("2026-01-02 — MINOR", "2026-13-02 — MINOR")
    assert [(f.kind, f.where().line) for f in check_spec_text(bad, "S.md")] == [
        ("changelog-heading-malformed", text.split("\n").index("### 1.1.0 — 2026-01-02 — MINOR") + 1)]


def test_changed_released_file_fails_manifest_naming_it(repo):
    released = repo / "spec/releases/1.1.0/schemas/grader.json"
    released.write_text(released.read_text().replace('"Grader"', '"Grader!"', 1))
    stage = run_gate(repo, stages=["manifest"]).stage("manifest")
    assert stage.status == "fail"
    assert [(f.kind, f.where().file) for f in stage.findings] == [
        ("released-file-changed", "spec/releases/1.1.0/schemas/grader.json")]
    (repo / "spec/releases/1.1.0/extra.txt").write_text("x")
    (repo / "spec/releases/1.0.0/rules.json").unlink()
    kinds = sorted(f.kind for f in verify_manifest(repo / "spec/releases"))
    assert kinds == ["released-file-changed", "released-file-missing", "released-file-unlisted"]


def test_manifest_of_this_repository_passes(repo):
    assert run_gate(repo, stages=["manifest"]).stage("manifest").status == "ok"


def test_history_of_this_repository_passes_with_its_grandfathered_commits():
    """This repository's own early commits edited released files before the ``history`` stage
    existed (``frozen.GRANDFATHERED``); the stage takes what they left as frozen. Without them
    in force (an ancestor test read the wrong way round, as a mutant did), it would fail here."""
    from evalport_spec.gate import frozen, history

    top = subprocess.run(["git", "rev-parse", "--show-toplevel"], cwd=Path(__file__).parent,
                         capture_output=True, text=True)
    if top.returncode != 0:
        pytest.skip("not a git checkout of the repository")
    root = Path(top.stdout.strip())  # the checkout, also from a copy of the tests inside it (mutmut)
    assert not history.is_ancestor(root, "0" * 40, "HEAD")
    if not any(history.is_ancestor(root, c, "HEAD") for c in frozen.GRANDFATHERED):
        pytest.skip("a checkout without the repository's early history (a squashed copy)")
    stage = run_gate(root, stages=["history"]).stage("history")
    assert stage.status == "ok", [f.message for f in stage.findings]


def test_missing_base_ref_prints_fetch_hint_exit_2(repo, capsys):
    git(repo, "remote", "add", "origin", "https://example.invalid/spec.git")
    rc = main(["-C", str(repo), "check", "--base", "origin/main", "--stage", "schemas"])
    err = capsys.readouterr().err
    assert rc == 2
    assert "run `git fetch origin main:refs/remotes/origin/main` first" in err  # whole history
    assert "fetch-depth: 0" in err and len(err.strip().splitlines()) == 1


def test_option_like_revision_is_refused(repo, capsys):
    rc = main(["-C", str(repo), "check", "--base=--upload-pack=x"])
    err = capsys.readouterr().err
    assert rc == 2 and "refusing git revision '--upload-pack=x'" in err


def test_unknown_stage_is_usage_error(repo, capsys):
    with pytest.raises(SystemExit) as exc:
        main(["-C", str(repo), "check", "--stage", "nope"])
    assert exc.value.code == 2 and "invalid choice: 'nope'" in capsys.readouterr().err
    with pytest.raises(Exception, match="unknown stage 'nope'"):
        run_gate(repo, stages=["nope"])


def test_text_output_is_ascii_when_not_a_tty(repo, capsys):
    rc = main(["-C", str(repo), "check", "--stage", "spec-text", "--stage", "manifest"])
    out = capsys.readouterr().out.splitlines()
    assert rc == 0
    assert out[0].startswith("ok    spec-text ") and out[1].startswith("ok    manifest ")
    assert out[-1] == "gate: passed (2 stages)"
    assert all(line.isascii() for line in out)


def test_one_stage_is_singular_and_rules_stage_has_counts(repo, capsys):
    rc = main(["-C", str(repo), "check", "--stage", "rules"])
    out = capsys.readouterr().out.splitlines()
    n = len(json.loads((repo / "spec/rules.json").read_text())["rules"])  # 7 in this repository
    assert rc == 0 and out[0].startswith("ok    rules ") and out[0].endswith(f"  {n} catalogued rule(s)")
    assert out[-1] == "gate: passed (1 stage)"


def test_no_such_directory_for_dash_c(tmp_path, capsys):
    missing = tmp_path / "nope"
    assert main(["-C", str(missing), "check"]) == 2
    assert capsys.readouterr().err == f"evalport-spec: error: no such directory: {missing} (-C)\n"


def _hand_report(status, findings, summary=""):
    from evalport_spec.gate.model import GateReport, StageResult
    return GateReport([StageResult("rfcs", status, findings, 0.25, summary)])


def test_junit_shows_warnings_and_empty_summaries_get_counts():
    warn = Finding("rfc-period-closed-undecided", "comment period closed 2026-10-11, 50 days ago",
                   severity=Severity.WARNING, new=Location("rfcs/0006-x.md", None, 4))
    report = _hand_report("warn", [warn])
    attrs = 'name="EvalPort spec gate: passed" tests="1" failures="0" errors="0" skipped="0" time="0.250"'
    assert render(report, "junit") == (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<testsuites {attrs}>\n'
        f'  <testsuite {attrs}>\n'
        '    <testcase classname="evalport-spec.check.rfcs" name="rfc-period-closed-undecided at rfcs/0006-x.md:4">\n'
        '      <system-out>warning rfc-period-closed-undecided at rfcs/0006-x.md:4\n'
        'stages: rfcs\n'
        'comment period closed 2026-10-11, 50 days ago</system-out>\n'
        '    </testcase>\n'
        '  </testsuite>\n'
        '</testsuites>\n')
    assert render(report, "text") == ("warn  rfcs            0.25s  1 warning\n"
                                      "EvalPort spec gate: passed\n"
                                      "rfcs/0006-x.md:4: warning rfc-period-closed-undecided: comment period "
                                      "closed 2026-10-11, 50 days ago [rfcs]\n"
                                      "gate: passed (1 stage)\n")
    err = Finding("x-bad", "broken", new=Location("a.json", None, 2))
    two_errors = _hand_report("fail", [err, err, warn])
    assert render(two_errors, "text").splitlines()[0] == "FAIL  rfcs            0.25s  2 errors, 1 warning"
    assert render(two_errors, "text").splitlines()[-1] == "gate: FAILED (1 of 1 stage: rfcs)"
    assert "| rfcs | fail | 0.25s | 2 errors, 1 warning |" in render(two_errors, "markdown")
    assert render(_hand_report("ok", []), "text").splitlines()[0] == "ok    rfcs            0.25s  no findings"


def test_failing_stage_details_and_formats(repo, capsys):
    (repo / "spec/SPEC.md").write_text("## Status\n")
    rc = main(["-C", str(repo), "check", "--stage", "spec-text"])
    out = capsys.readouterr().out
    assert rc == 1 and out.startswith("FAIL  spec-text")
    assert ("spec/SPEC.md:1: error spec-end-marker-missing: the last line is not "
            "'<!-- end of specification -->': SPEC.md is truncated [spec-text]") in out
    report = run_gate(repo, stages=["spec-text"])
    data = json.loads(render(report, "json"))
    assert data["ok"] is False and data["stages"][0]["status"] == "fail"
    gh = render(report, "github")
    # 11 errors: ten annotated, the eleventh counted in the closing notice
    assert gh.count("::error file=spec/SPEC.md,line=1,title=error spec-section-missing (spec-text)::") == 10
    assert gh.splitlines()[-1].endswith("1 more finding not annotated (the 10 most severe are); "
                                        "`--format markdown` writes the full report")
    junit = render(report, "junit")
    assert 'failures="11"' in junit and "<failure" in junit  # one test case per finding
    md = render(report, "markdown")
    assert md.startswith("## EvalPort spec gate: failed") and "| spec-text | fail |" in md


@pytest.mark.stage_crash
def test_an_engine_that_crashes_fails_its_stage_only(repo, monkeypatch):
    import evalport_spec.gate.stages as stages

    def boom(*a, **k):
        raise RuntimeError("rule table corrupted")
    monkeypatch.setattr(stages, "check_rules", boom)
    report = run_gate(repo, stages=["rules", "spec-text"])
    rules = report.stage("rules")
    assert rules.status == "fail" and [f.kind for f in rules.findings] == ["stage-crashed"]
    assert rules.findings[0].message == "stage 'rules' crashed: RuntimeError: rule table corrupted"
    assert report.stage("spec-text").status == "ok"


def test_a_relative_repository_path_is_read_from_the_working_directory(repo, monkeypatch):
    monkeypatch.chdir(repo / "spec")
    report = run_gate("..", stages=["rules", "rfcs"])
    assert [s.name for s in report.stages] == ["rules", "rfcs"]
    assert all(s.status in ("ok", "warn") for s in report.stages)  # rfcs warns: a closed period
    assert not [f for s in report.stages for f in s.findings if f.kind == "stage-crashed"]


# --- the policy, on hand-made findings -----------------------------------------------------

def _major(kind="enum-value-removed", ptr="/$defs/error/properties/type/enum/2"):
    return Finding(kind, "value removed", ChangeClass.MAJOR, old=Location("a/resultset.json", ptr),
                   new=Location("b/resultset.json", ptr), witness={"x": 1})


def _ledger(now, before):
    """A ledger over RFC states now and at a base (``{number: (status, class, [fingerprints])}``)."""
    def st(d):
        return {n: RfcState(n, a, b, frozenset(fps)) for n, (a, b, fps) in d.items()}
    return BaseLedger(st(now), st(before), "main")


def test_policy_accepts_a_breaking_finding_only_by_fingerprint_listed_before_the_change():
    f = _major()
    out, rule = apply_major_rule([f], latest="1.3.0", declared="1.4.0", ledger=None, label="since 1.3.0")
    assert rule == "policy-major-needs-major-version"
    assert {x.kind for x in out if x.severity == Severity.ERROR} == {
        "enum-value-removed", "policy-major-needs-major-version", "policy-major-needs-rfc"}
    # an RFC in comment, or accepted but MINOR, or accepted MAJOR listing another fingerprint: no
    other = "0123456789abcdef"
    for now in ({5: ("comment", "MAJOR", [f.fingerprint])}, {6: ("accepted", "MINOR", [f.fingerprint])},
                {7: ("accepted", "MAJOR", [other])}):
        _, rule = apply_major_rule([f], latest="1.3.0", declared="2.0.0", ledger=_ledger(now, now), label="x")
        assert rule == "policy-major-needs-rfc", now
    accepted = {7: ("accepted", "MAJOR", [f.fingerprint])}
    out, rule = apply_major_rule([f], latest="1.3.0", declared="2.0.0", ledger=_ledger(accepted, accepted),
                                 label="x")
    assert rule == "policy-major-accepted"
    assert [x.severity for x in out if x.kind == "enum-value-removed"] == [Severity.WARNING]
    assert [x.message.endswith("accepted by RFC 0007") for x in out if x.kind == "enum-value-removed"] == [True]
    assert [x.extra.get("rfcs") for x in out if x.kind == "policy-major-accepted"] == [[7]]
    # the same RFC, accepted only now (in comment at the base): the acceptance does not predate
    out, rule = apply_major_rule([f], latest="1.3.0", declared="2.0.0", label="x",
                                 ledger=_ledger(accepted, {7: ("comment", "MAJOR", [f.fingerprint])}))
    assert rule == "policy-acceptance-same-change"
    late = [x for x in out if x.kind == "policy-acceptance-same-change"]
    assert len(late) == 1 and late[0].message.startswith("policy: RFC 0007 accepts 1 breaking finding(s)")


def test_policy_accepting_one_removed_value_does_not_accept_another():
    """Issue 20: two values lost from one enum are two findings with two fingerprints; an RFC
    listing runner_error's removal accepts that one only, and the report lists both."""
    ptr = "/$defs/error/properties/type/enum"
    gone = [dataclasses.replace(_major(ptr=ptr), item=v) for v in ("runner_error", "timeout")]
    assert gone[0].fingerprint != gone[1].fingerprint
    accepted = {7: ("accepted", "MAJOR", [gone[0].fingerprint])}
    out, rule = apply_major_rule(gone, latest="1.3.0", declared="2.0.0", label="x",
                                 ledger=_ledger(accepted, accepted))
    assert rule == "policy-major-needs-rfc"
    verdicts = {f.item: f for f in out if f.kind == "enum-value-removed"}
    assert verdicts["runner_error"].severity == Severity.WARNING
    assert verdicts["timeout"].severity == Severity.ERROR
    assert "not accepted: no accepted MAJOR RFC lists fingerprint" in verdicts["timeout"].message
    assert "RFC 0007 would need it" in verdicts["timeout"].message


def test_policy_undecided_counts_as_major_and_minor_passes():
    und = Finding("keyword-undecided", "cannot decide", ChangeClass.PATCH, undecided=True,
                  new=Location("b/suite.json", "/x"))
    _, rule = apply_major_rule([und], latest="1.3.0", declared="1.4.0", ledger=None, label="x")
    assert rule == "policy-major-needs-major-version"
    minor = Finding("property-added-to-closed-object", "added", ChangeClass.MINOR)
    out, rule = apply_major_rule([minor], latest="1.3.0", declared="1.4.0", ledger=None, label="x")
    assert rule == "policy-additive" and all(x.severity == Severity.INFO for x in out)


def test_version_bumps():
    assert bump_class("1.3.0", "2.0.0") == ChangeClass.MAJOR
    assert bump_class("1.3.0", "1.4.0") == ChangeClass.MINOR
    assert bump_class("1.3.0", "1.3.1") == ChangeClass.PATCH
    assert bump_class("1.3.0", "1.5.0") is None and bump_class("1.3.0", "2.0.1") is None
    assert version_problem("1.3.0", "1.4.0", ChangeClass.MINOR) is None
    assert version_problem("1.3.0", "2.0.0", ChangeClass.MINOR) is None
    assert "needs 2.0.0" in version_problem("1.3.0", "1.4.0", ChangeClass.MAJOR)
    assert "needs 1.4.0" in version_problem("1.3.0", "1.3.1", ChangeClass.MINOR)
    assert "does not follow" in version_problem("1.3.0", "1.5.0", ChangeClass.PATCH)


# --- end to end with the diff engine ------------------------------------------------------

def test_branch_adding_optional_field_on_closed_object_passes_as_minor(repo):
    add_optional_runner_field(repo)
    report = run_gate(repo, base="main", stages=["base"])
    stage = report.stage("base")
    assert stage.status == "ok", [f.message for f in stage.errors]
    assert stage.change_class == ChangeClass.MINOR
    assert "policy-additive" in stage.summary


def test_branch_removing_enum_value_fails_as_major_with_witness(repo, capsys):
    remove_enum_value(repo)
    stage = run_gate(repo, base="main", stages=["base"]).stage("base")
    assert stage.status == "fail" and stage.change_class == ChangeClass.MAJOR
    major = [f for f in stage.errors if f.change_class == ChangeClass.MAJOR]
    assert major and major[0].witness is not None
    assert major[0].witness["results"][0]["error"]["type"] == "runner_error" or \
        "runner_error" in json.dumps(major[0].witness)
    rc = main(["-C", str(repo), "check", "--base", "main", "--stage", "base", "--format", "markdown"])
    md = capsys.readouterr().out
    # the headline names the removed value, now each value is its own finding (issue 20)
    assert rc == 1 and md.startswith('## MAJOR `enum-value-removed "runner_error"`: ') and "<details>" in md
    assert "- **change class against main**: `MAJOR`" in md


def test_branch_editing_released_file_fails(repo):
    p = repo / "spec/releases/1.2.0/SPEC.md"
    p.write_text(p.read_text().replace("EvalPort", "EvalPort!", 1))
    stage = run_gate(repo, base="main", stages=["base"]).stage("base")
    assert stage.status == "fail"
    assert [f.where().file for f in stage.errors if f.kind == "released-file-changed"] == [
        "spec/releases/1.2.0/SPEC.md"]


def test_change_without_rfc_warns_and_an_applied_proposal_ties_it(repo):
    """Governance (SPEC.md): a MINOR draft change that no RFC accounts for is a warning; the
    same kind of change made by applying RFC 0005's proposal is tied to that RFC."""
    add_optional_runner_field(repo)
    stage = run_gate(repo, stages=["draft"]).stage("draft")
    assert stage.change_class == ChangeClass.MINOR
    warned = [f for f in stage.findings if f.kind == "change-without-rfc"]
    assert len(warned) == 1 and warned[0].severity == Severity.WARNING
    assert warned[0].message.startswith("the draft is MINOR since 1.3.0 but no RFC is tied")
    assert stage.status == "warn"

    git(repo, "checkout", "-q", "--", "spec")
    from evalport_spec.rfc.model import load_rfc
    from evalport_spec.workflow.rfccheck import apply_proposal

    rfc = load_rfc(repo, repo / "rfcs" / "0005-hard-constraints.md")
    _, proposed, _ = apply_proposal(repo, rfc)
    (repo / "spec/schemas/resultset.json").write_bytes(proposed._read("schemas/resultset.json"))
    edit_json(repo / "spec/rules.json", lambda d: d["rules"].extend(
        json.loads((repo / "rfcs/0005-hard-constraints/rules.json").read_text())["rules"]))
    stage = run_gate(repo, stages=["draft"]).stage("draft")
    assert stage.change_class == ChangeClass.MINOR
    assert not [f for f in stage.findings if f.kind == "change-without-rfc"]
