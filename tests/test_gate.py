"""The gate (``evalport-spec check``), end to end in a temporary git repository, and its pieces
that need no engine (SPEC.md's structure, the policy and acceptance ledgers, git history, ignore
entries), each finding with its exact message and location worked out by hand."""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import subprocess
from pathlib import Path

import pytest

from evalport_spec.cli import main
from evalport_spec.errors import InputError
from evalport_spec.findings import ChangeClass, Finding, Location, Severity
from evalport_spec.gate import history, run_gate
from evalport_spec.gate.acceptance import (
    STEP_NOW,
    BaseLedger,
    HistoryLedger,
    Ledger,
    RfcState,
    states_at,
)
from evalport_spec.gate.ignores import load_check_ignores, stale_entries
from evalport_spec.gate.output import render
from evalport_spec.gate.spectext import END_MARKER, REQUIRED_H2, check_spec_text
from evalport_spec.manifest import verify_manifest
from evalport_spec.policy import apply_major_rule, bump_class, version_problem
from gate_repo import add_optional_runner_field, commit_all, edit_json, git, make_repo


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
    # a full clone (session 34: it was told about shallow CI clones and fetch-depth too)
    assert "not found in this repository" in err and len(err.strip().splitlines()) == 1


def test_a_base_that_is_only_a_remote_tracking_branch_is_named_not_fetched(repo, capsys):
    """`--base cold` with only origin/cold here: git looks for cold under refs/heads, refs/tags
    and refs/remotes/cold, never under a remote's name, so a `git fetch` cannot help; the hint
    names the ref that works (was: "run `git fetch origin cold:refs/remotes/origin/cold` first")."""
    git(repo, "remote", "add", "origin", "https://example.invalid/spec.git")
    git(repo, "update-ref", "refs/remotes/origin/cold", "HEAD")
    rc = main(["-C", str(repo), "check", "--base", "cold", "--stage", "schemas"])
    assert (rc, capsys.readouterr().err) == (2, (
        "evalport-spec: error: git revision 'cold' not found in this clone, but the remote-tracking "
        "branch origin/cold is: use `--base origin/cold`\n"))
    assert main(["-C", str(repo), "check", "--base", "origin/cold", "--stage", "schemas"]) == 0
    capsys.readouterr()
    rc = main(["-C", str(repo), "check", "--base", "warm", "--stage", "schemas"])  # nowhere: fetch it
    assert rc == 2 and "run `git fetch origin warm:refs/remotes/origin/warm` first" in capsys.readouterr().err


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
    # RFC 0007 is accepted, so its list is closed: the removal of timeout needs a new RFC
    assert "no RFC declaring MAJOR is open for it (an accepted RFC's accepts list is closed" in (
        verdicts["timeout"].message)


def test_policy_undecided_counts_as_major_and_minor_passes():
    und = Finding("keyword-undecided", "cannot decide", ChangeClass.PATCH, undecided=True,
                  new=Location("b/suite.json", "/x"))
    _, rule = apply_major_rule([und], latest="1.3.0", declared="1.4.0", ledger=None, label="x")
    assert rule == "policy-major-needs-major-version"
    minor = Finding("property-added-to-closed-object", "added", ChangeClass.MINOR)
    out, rule = apply_major_rule([minor], latest="1.3.0", declared="1.4.0", ledger=None, label="x")
    assert rule == "policy-additive" and all(x.severity == Severity.INFO for x in out)


def test_a_release_finding_names_five_paths_then_how_many_more():
    from evalport_spec.gate.releasecheck import _paths

    names = [f"f{i}.json" for i in range(7)]
    assert _paths(names[:5], "r") == "r/f0.json, r/f1.json, r/f2.json, r/f3.json, r/f4.json"
    assert _paths(names, "r") == "r/f0.json, r/f1.json, r/f2.json, r/f3.json, r/f4.json and 2 more"


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
    assert stage.summary == "MINOR against main (policy: policy-additive)"


def test_branch_removing_enum_value_fails_as_major_with_witness(repo, capsys):
    remove_enum_value(repo)
    stage = run_gate(repo, base="main", stages=["base"]).stage("base")
    assert stage.status == "fail" and stage.change_class == ChangeClass.MAJOR
    # spec/VERSION still declares 1.4.0: the version rule decides before any RFC is looked for
    assert stage.summary == "MAJOR against main (policy: policy-major-needs-major-version)"
    major = [f for f in stage.errors if f.change_class == ChangeClass.MAJOR]
    assert major and major[0].witness is not None
    assert major[0].witness["results"][0]["error"]["type"] == "runner_error" or \
        "runner_error" in json.dumps(major[0].witness)
    rc = main(["-C", str(repo), "check", "--base", "main", "--stage", "base", "--format", "markdown"])
    md = capsys.readouterr().out
    # the headline names the removed value, now each value is its own finding (issue 20), once
    assert rc == 1 and md.startswith('## MAJOR `enum-value-removed`: Removed enum value "runner_error" ')
    assert "<details>" in md
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
    assert (warned[0].message, warned[0].new) == (
        "the draft is MINOR since 1.3.0 but no RFC is tied to the change (no new catalogue rule cites one, "
        "and no open or accepted RFC's proposal is applied to the draft); SPEC.md Governance: schema "
        "changes go through an RFC", Location("spec/schemas"))
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


# --- SPEC.md's structure: an empty file, a truncated end, the changelog headings -----------------

SECTIONS = "".join(f"## {h}\n\ntext\n\n" for h in REQUIRED_H2)
"""Every required section, 4 lines each: ``## Changelog`` is line 41, the first line after it 45."""


def test_an_empty_or_blank_spec_md_is_one_finding_at_line_1():
    for text in ("", " \n\n"):
        assert [(f.kind, f.message, f.new) for f in check_spec_text(text, "spec/SPEC.md")] == [
            ("spec-md-missing", "SPEC.md is missing or empty", Location("spec/SPEC.md", None, 1))]


def test_a_missing_end_marker_is_reported_at_the_last_line():
    text = SECTIONS + "### 1.1.0 — 2026-01-02 — MINOR\n\n- x\n\n\n"  # lines 45-47, blank 48-49
    assert [(f.kind, f.message, f.new) for f in check_spec_text(text, "S.md")] == [
        ("spec-end-marker-missing", f"the last line is not '{END_MARKER}': SPEC.md is truncated",
         Location("S.md", None, 47))]
    # the marker (line 50), then blank lines, is complete; words after it (line 51) are not
    assert check_spec_text(text + END_MARKER + "\n\n", "S.md") == []
    assert [f.new.line for f in check_spec_text(text + END_MARKER + "\nmore\n", "S.md")] == [51]


def test_only_the_drafts_first_changelog_heading_may_be_pending():
    pending = "### 1.4.0 — unreleased\n\n"
    dated = "### 1.3.0 — 2026-10-19 — MINOR\n\n"
    draft_ok = SECTIONS + pending + dated + END_MARKER + "\n"
    assert check_spec_text(draft_ok, "spec/SPEC.md", draft=True) == []
    # in a release, the pending heading (line 45) is malformed, without the draft's allowance
    assert [(f.kind, f.message, f.new) for f in check_spec_text(draft_ok, "R.md")] == [(
        "changelog-heading-malformed", "changelog heading '### 1.4.0 — unreleased' is not "
        "'### X.Y.Z — YYYY-MM-DD — PATCH|MINOR|MAJOR|INITIAL'", Location("R.md", None, 45))]
    # in the draft, a pending heading after a dated one (line 47) is malformed, saying what is allowed
    late = SECTIONS + dated + pending + END_MARKER + "\n"
    assert [(f.message, f.new) for f in check_spec_text(late, "spec/SPEC.md", draft=True)] == [(
        "changelog heading '### 1.4.0 — unreleased' is not '### X.Y.Z — YYYY-MM-DD — PATCH|MINOR|MAJOR|INITIAL'"
        " (or, first in the draft, '### X.Y.Z — unreleased')", Location("spec/SPEC.md", None, 47))]


# --- acceptance dated by the release line's history (HistoryLedger) ------------------------------

EARLY = Finding("enum-value-removed", "runner_error goes", change_class=ChangeClass.MAJOR,
                new=Location("spec/schemas/resultset.json", "/$defs/error/properties/type/enum"))
LATE = Finding("required-added", "total is required", change_class=ChangeClass.MAJOR,
               new=Location("spec/schemas/resultset.json", "/$defs/summary/required"))
MID = Finding("type-narrowed", "attempt is an integer", change_class=ChangeClass.MAJOR,
              new=Location("spec/schemas/resultset.json", "/$defs/result/properties/attempt/type"))


def _rfc(status: str, accepts: list[Finding]) -> str:
    lines = ["---", "number: 9", "title: Scratch", f"status: {status}", "declared_class: MAJOR"]
    if accepts:
        lines += ["accepts:"] + [f"  - {json.dumps({'fingerprint': f.fingerprint})}" for f in accepts]
    return "\n".join([*lines, "---", "", "Text.", ""])


HISTORY = [("accepted", [LATE]), ("accepted", [EARLY, LATE, MID]), ("accepted", [LATE, MID]),
           ("accepted", [EARLY, LATE, MID])]
"""RFC 0009 at commits c0..c3: LATE accepted throughout, MID from c1, EARLY at c1, withdrawn at
c2, back at c3."""
BREAKING = [set(), {MID.fingerprint}, {EARLY.fingerprint, MID.fingerprint}, {EARLY.fingerprint, MID.fingerprint}]
"""The draft's breaking findings at c0..c3: MID from c1, EARLY from c2; LATE only in the tree
under review."""


@pytest.fixture
def ledger(tmp_path):
    root = tmp_path / "repo"
    (root / "rfcs").mkdir(parents=True)
    git(root, "init", "-q", "-b", "main")
    commits = []
    for status, accepts in HISTORY:
        (root / "rfcs/0009-scratch.md").write_text(_rfc(status, accepts))
        commits.append(commit_all(root, status))
    now = {9: RfcState(9, "accepted", "MAJOR", frozenset({EARLY.fingerprint, LATE.fingerprint, MID.fingerprint}))}
    asked: list[str] = []

    def breaking_at(commit):
        asked.append(commit)
        return BREAKING[commits.index(commit)]

    return HistoryLedger(now, root, [*commits, STEP_NOW], breaking_at), commits, asked


def test_the_rfc_states_at_a_commit_are_read_from_its_tree(ledger):
    _, commits, _ = ledger
    assert states_at(ledger[0].root, commits[0]) == {9: RfcState(9, "accepted", "MAJOR", frozenset({LATE.fingerprint}))}


def test_a_finding_is_introduced_at_the_first_step_that_has_it(ledger):
    """EARLY: c3 has it, so a binary search over c0..c3 (mid c1: no; mid c2: yes) gives c2,
    asking each commit once; MID: c3 and c1 (remembered) have it, c0 not: c1; LATE: c3 lacks
    it, so the tree under review (step 4) made it."""
    history, commits, asked = ledger
    assert history.introduced(EARLY.fingerprint) == 2
    assert asked == [commits[3], commits[1], commits[2]]
    assert history.introduced(MID.fingerprint) == 1
    assert history.introduced(LATE.fingerprint) == 4
    assert asked == [commits[3], commits[1], commits[2], commits[0]]  # each commit asked once


def test_acceptance_counts_from_the_step_after_which_it_always_held(ledger):
    """EARLY is accepted at c1, withdrawn at c2, accepted again from c3: since step 3, which is
    after its introduction (2): not before the change. MID is accepted from c1, the step that
    introduced it: not strictly before. LATE is accepted from c0, before its introduction (4)."""
    history, _, _ = ledger
    assert history.accepted_since(9, EARLY.fingerprint) == 3
    assert history.accepted_since(9, MID.fingerprint) == 1
    assert history.accepted_since(9, LATE.fingerprint) == 0
    assert [history.predates(9, f) for f in (EARLY, MID, LATE)] == [False, False, True]
    assert history.accepted_since(8, LATE.fingerprint) is None  # no such RFC now


def test_on_a_one_or_two_step_line_the_first_step_with_the_finding_introduced_it(tmp_path):
    one = HistoryLedger({}, tmp_path, [STEP_NOW], lambda commit: pytest.fail("nothing to ask"))
    assert one.introduced(EARLY.fingerprint) == 0 and one.accepted_since(9, EARLY.fingerprint) is None
    two = HistoryLedger({}, tmp_path, ["c0", STEP_NOW], lambda commit: {EARLY.fingerprint})
    assert (two.introduced(EARLY.fingerprint), two.introduced(LATE.fingerprint)) == (0, 1)


def test_the_rfcs_that_could_accept_are_the_undecided_major_ones():
    now = {n: RfcState(n, status, declared, frozenset({EARLY.fingerprint}))
           for n, status, declared in [(1, "draft", "MAJOR"), (2, "comment", "MAJOR"), (3, "accepted", "MAJOR"),
                                       (4, "rejected", "MAJOR"), (5, "accepted", "MINOR"), (6, "withdrawn", "MAJOR")]}
    ledger = Ledger(now, "at main")
    assert ledger.candidates() == [1, 2]  # an accepted RFC's accepts list is closed
    assert ledger.accepting(EARLY) == [3] and ledger.accepting(LATE) == []
    assert ledger.predates(3, EARLY) is False  # outside git nothing can be dated


# --- what the gate reads from git history --------------------------------------------------------

@pytest.fixture
def root(tmp_path):
    r = tmp_path / "repo"
    r.mkdir()
    git(r, "init", "-q", "-b", "main")
    return r


def _write(root, rel, text):
    p = root / rel
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(text)


def test_a_file_is_first_added_by_the_oldest_commit_adding_it_and_a_rename_adds_anew(root):
    _write(root, "spec/releases/1.0.0/a.json", "1")
    first = commit_all(root, "a")
    _write(root, "spec/releases/1.0.0/a.json", "2")
    _write(root, "spec/releases/1.0.0/b.json", "b")
    second = commit_all(root, "b, a edited")
    git(root, "rm", "-q", "spec/releases/1.0.0/a.json")
    commit_all(root, "a gone")
    _write(root, "spec/releases/1.0.0/a.json", "3")
    git(root, "mv", "spec/releases/1.0.0/b.json", "spec/releases/1.0.0/c.json")
    third = commit_all(root, "a back, b renamed to c")
    _write(root, "other/x.json", "x")
    commit_all(root, "outside the folder")
    added = history.first_added(root, "spec/releases")
    assert {path: (a.commit, a.short) for path, a in added.items()} == {
        "spec/releases/1.0.0/a.json": (first, first[:12]),
        "spec/releases/1.0.0/b.json": (second, second[:12]),
        "spec/releases/1.0.0/c.json": (third, third[:12])}
    a = added["spec/releases/1.0.0/a.json"]
    assert a.blob == git(root, "rev-parse", f"{first}:spec/releases/1.0.0/a.json").strip()
    assert a.date == git(root, "show", "-s", "--format=%cs", first).strip()


def test_blob_names_are_gits(root):
    _write(root, "f.txt", "some bytes\n")
    assert history.blob_name(root, b"some bytes\n") == git(root, "hash-object", "f.txt").strip()


def test_first_parent_steps_are_one_per_merge_and_start_where_the_path_appears(root):
    _write(root, "README", "r")
    c0 = commit_all(root, "c0")
    _write(root, "spec/releases/1.0.0/a.json", "1")
    c1 = commit_all(root, "release 1.0.0")
    git(root, "checkout", "-q", "-b", "topic")
    _write(root, "spec/x", "x")
    commit_all(root, "topic 1")
    _write(root, "spec/y", "y")
    commit_all(root, "topic 2")
    git(root, "checkout", "-q", "main")
    git(root, "merge", "-q", "--no-ff", "-m", "merge topic", "topic")
    merge = git(root, "rev-parse", "HEAD").strip()
    assert history.first_parent_steps(root, "HEAD") == [c0, c1, merge]
    assert history.first_parent_steps(root, merge, "spec/releases/1.0.0") == [c1, merge]
    assert history.first_parent_steps(root, "HEAD", "spec/releases/9.9.9") == [c0, c1, merge]
    assert history.is_ancestor(root, c1, "HEAD") and not history.is_ancestor(root, merge, c1)


def test_a_shallow_boundary_before_the_release_is_refused_with_the_fetch_hint(root, tmp_path):
    _write(root, "README", "r")
    commit_all(root, "c0")
    _write(root, "spec/releases/1.0.0/a.json", "1")
    commit_all(root, "release")
    _write(root, "spec/x", "x")
    tip = commit_all(root, "after")
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", "--depth", "1", f"file://{root}", str(clone))
    assert history.shallow_boundaries(clone) == {tip} and history.shallow_boundaries(root) == set()
    with pytest.raises(InputError) as exc:
        history.first_parent_steps(clone, "HEAD", "spec/releases/1.0.0")
    assert exc.value.message == (f"this clone is shallow: the history of HEAD stops at {tip[:12]} before "
                                 f"spec/releases/1.0.0; {history.UNSHALLOW}")
    with pytest.raises(InputError) as exc:
        history.first_added(clone, "spec/releases")
    assert exc.value.message == (f"this clone is shallow: the commit that added spec/releases/1.0.0/a.json "
                                 f"is not in it (history stops at {tip[:12]}); {history.UNSHALLOW}")


def test_changed_paths_are_tracked_changes_and_new_files_not_ignored_ones(root):
    _write(root, ".gitignore", "*.tmp\n")
    _write(root, "spec/a.json", "1")
    _write(root, "spec/b.json", "1")
    _write(root, "rfcs/0001-x.md", "x")
    base = commit_all(root, "base")
    assert history.changed_paths(root, base, ("spec", "rfcs")) == []
    _write(root, "spec/b.json", "2")
    _write(root, "spec/new.json", "n")
    _write(root, "spec/scratch.tmp", "t")
    _write(root, "other.json", "o")
    (root / "rfcs/0001-x.md").unlink()
    assert history.changed_paths(root, base, ("spec", "rfcs")) == ["rfcs/0001-x.md", "spec/b.json", "spec/new.json"]


def test_materialize_writes_the_commits_files_under_the_folders_asked(root, tmp_path):
    _write(root, "spec/a.json", "old")
    _write(root, "rfcs/0001-x.md", "x")
    _write(root, "tools/t.py", "t")
    commit = commit_all(root, "tree")
    _write(root, "spec/a.json", "new")
    dest = tmp_path / "out"
    dest.mkdir()
    assert history.materialize(root, commit, dest, ("spec", "rfcs")) == dest
    assert sorted(p.relative_to(dest).as_posix() for p in dest.rglob("*") if p.is_file()) == [
        "rfcs/0001-x.md", "spec/a.json"]
    assert (dest / "spec/a.json").read_text() == "old"
    whole = tmp_path / "whole"
    whole.mkdir()
    history.materialize(root, commit, whole)
    assert (whole / "tools/t.py").read_text() == "t"


# --- check --ignore: live entries, and warnings about the others ---------------------------------

OLD = {"kind": "enum-value-added", "reason": "agreed in RFC 0004"}
EXPIRED = {"kind": "description-changed", "reason": "wording", "expires": "2026-11-30"}
LAST_DAY = {"kind": "default-changed", "reason": "tuning", "expires": "2026-12-01"}
TODAY = dt.date(2026, 12, 1)


def _write_ignores(path, entries):
    path.write_text(json.dumps(entries, indent=2) + "\n")


def test_an_expired_entry_is_a_warning_and_one_expiring_today_still_applies(tmp_path):
    path = tmp_path / "ignore.json"
    _write_ignores(path, [OLD, EXPIRED, LAST_DAY])
    (tmp_path / "repo").mkdir()
    live, notes = load_check_ignores(tmp_path / "repo", path, None, today=TODAY)  # the CI owner's file
    assert live == [OLD, LAST_DAY]
    assert notes == [Finding("ignore-entry-expired", f"{path}: the entry for description-changed expired on "
                             "2026-11-30 and no longer applies (wording)",
                             severity=Severity.WARNING, new=Location(str(path)))]


CODE_OLD = {"kind": "rule-implementation-changed", "fingerprint": "0123456789abcdef", "reason": "renamed local"}
CODE_EXPIRED = {**CODE_OLD, "fingerprint": "1123456789abcdef", "expires": "2026-11-30"}
CODE_LAST_DAY = {**CODE_OLD, "fingerprint": "2123456789abcdef", "expires": "2026-12-01"}


def test_with_a_base_only_the_entries_the_base_had_apply(tmp_path):
    """The file inside the repository is the change's own: an entry it gains on the branch is
    reported at its index (JSON Pointer ``/1``) and not applied; an expired entry the base had
    is still reported as expired. (The repository's own file names rule-code findings only.)"""
    root = tmp_path / "repo"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    _write_ignores(root / "ignore.json", [CODE_OLD, CODE_EXPIRED])
    commit_all(root, "ignore file")
    _write_ignores(root / "ignore.json", [CODE_OLD, CODE_LAST_DAY, CODE_EXPIRED])
    live, notes = load_check_ignores(root, root / "ignore.json", "main", today=TODAY)
    assert live == [CODE_OLD]
    assert [(f.kind, f.message, f.severity, f.new) for f in notes] == [
        ("ignore-entry-not-at-base", f"{root / 'ignore.json'} entry 1 (rule-implementation-changed) is not in main's "
         "ignore.json: an ignore entry added by the change it would excuse is not applied; it names no commit, so "
         "once landed it will accept nothing",
         Severity.WARNING, Location("ignore.json", "/1")),
        ("ignore-entry-expired", f"{root / 'ignore.json'}: the entry for rule-implementation-changed expired "
         "on 2026-11-30 and no longer applies (renamed local)", Severity.WARNING, Location(str(root / "ignore.json")))]
    # a file the base did not have at all: none of its entries predates the change
    _write_ignores(root / "new.json", [CODE_OLD])
    live, notes = load_check_ignores(root, root / "new.json", "main", today=TODAY)
    assert live == [] and [(f.kind, f.new) for f in notes] == [("ignore-entry-not-at-base", Location("new.json", "/0"))]
    # a file outside the repository is not the change's own: every entry applies
    outside = tmp_path / "outside.json"
    _write_ignores(outside, [CODE_OLD, CODE_LAST_DAY])
    assert load_check_ignores(root, outside, "main", today=TODAY) == ([CODE_OLD, CODE_LAST_DAY], [])


def test_an_entry_that_matched_nothing_is_stale_named_with_its_fingerprint_when_it_has_one():
    pinned = {"kind": "required-added", "fingerprint": "0123456789abcdef", "reason": "RFC 0099"}
    assert stale_entries([OLD, pinned], [OLD], "since 1.3.0") == [Finding(
        "ignore-entry-stale", "--ignore entry for required-added [0123456789abcdef] matched no finding "
        "since 1.3.0: remove it (RFC 0099)", severity=Severity.WARNING)]
    assert [f.message for f in stale_entries([OLD], [], "against main")] == [
        "--ignore entry for enum-value-added matched no finding against main: remove it (agreed in RFC 0004)"]
