"""``rfc apply``: an accepted RFC's proposal written into the draft in one step, all files or none;
``rfc check`` before and after it, enforcing what the gate's content stages enforce. Expected
values are worked out from the proposal files by hand (and, for RFC 0005's encoded rule, by
python-jsonschema as the oracle)."""

from __future__ import annotations

import copy
import datetime as dt
import json
from pathlib import Path

import jsonschema
import pytest

from evalport_spec.cli import main
from evalport_spec.errors import InputError
from evalport_spec.findings import Severity
from evalport_spec.gate import run_gate
from evalport_spec.rfc import Change, apply_rfc, lint_rfcs, set_status, write_index
from evalport_spec.rfc import apply as apply_mod
from evalport_spec.rfc.model import find_rfc
from evalport_spec.rfc.proposal import APPLIED, PARTIAL, UNAPPLIED, plan
from evalport_spec.rfc.specrows import changelog_line
from evalport_spec.workflow import check_rfc
from evalport_spec.workflow.rfccheck import GATE_STAGES
from gate_repo import make_repo, tree_hash

RATES = "rfcs/0006-rate-denominators"
LINK = "https://github.com/evalport/spec/discussions/67#decision"
TODAY = dt.date(2026, 12, 1)


@pytest.fixture()
def root(tmp_path: Path) -> Path:
    """A git repository holding a copy of this repository's spec/ and rfcs/."""
    return make_repo(tmp_path)


def decide_6(root: Path) -> None:
    """What a maintainer does to accept RFC 0006's option A: record the decision in the text (the
    Comment period section no longer says the options are open), then `rfc status 6 accepted`."""
    p = root / "rfcs" / "0006-rate-denominators.md"
    text = p.read_text()
    start, end = text.index("## Comment period"), text.index("## Questions")
    p.write_text(text[:start] + "## Comment period\n\nFrom 2026-09-27 to 2026-10-11.\n\n## Decision\n\n"
                 "Option A, with both rules.\n\n" + text[end:])
    set_status(root, 6, "accepted", Change(resolution=LINK, option="A"), today=TODAY)
    write_index(root)


def proposal_files(root: Path, name: str) -> list[Path]:
    return sorted((root / "rfcs" / name / "fixtures").glob("*.json"))


# --- the happy path ----------------------------------------------------------------------------------

def test_apply_6_then_check_passes_and_apply_again_is_a_no_op(root, capsys):
    before = {p.name for p in (root / "spec/conformance/fixtures").glob("*.json")}
    proposal = proposal_files(root, "0006-rate-denominators")
    decide_6(root)
    assert main(["-C", str(root), "rfc", "apply", "6", "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    # 9 fixtures, the patched resultset schema, the catalogue, SPEC.md, and the RFC itself (its
    # front matter records the normative changes to SPEC.md it makes: spec_changes)
    assert out == {"number": 6, "already": False, "written": sorted(
        ["rfcs/0006-rate-denominators.md", "spec/SPEC.md", "spec/rules.json", "spec/schemas/resultset.json"]
        + [f"spec/conformance/fixtures/{p.name}" for p in proposal])}
    for p in proposal:  # each fixture arrives with since = the draft's version (spec/VERSION 1.4.0)
        written = json.loads((root / "spec/conformance/fixtures" / p.name).read_text())
        assert written == {**json.loads(p.read_text()), "since": "1.4.0"}
        assert list(written).index("since") == list(written).index("document_type") + 1 + ("rules" in written)
    catalogue = json.loads((root / "spec/rules.json").read_text())["rules"]
    assert [(r["code"], r["since"], r["rfc"]) for r in catalogue[-2:]] == [
        ("SUCCESSES_EXCEED_TRIALS", "1.4.0", 6), ("RATE_SCORE_MISMATCH", "1.4.0", 6)]
    grader_result = json.loads((root / "spec/schemas/resultset.json").read_text())["$defs"]["grader_result"]
    assert grader_result["dependentRequired"] == {"successes": ["trials"]}
    md = (root / "spec/SPEC.md").read_text()  # the generated regions as the proposed version gives them
    assert "| `trials` | integer | when `successes` is present | ≥ 1 | — | 1.4.0 |" in md
    assert "| `successes` | integer | no | ≥ 0 | — | 1.4.0 |" in md
    assert "### SUCCESSES_EXCEED_TRIALS\n" in md and "- Since: 1.4.0 (RFC 0006)\n" in md
    assert "- Reported at: `/results/*/grader_results/*/score`\n" in md
    assert ("### 1.4.0 — unreleased\n\n- RFC 0007: " in md and "\n- RFC 0006 (MINOR): GraderResult gains "
            "`trials`, `successes`; cross-field rules SUCCESSES_EXCEED_TRIALS and RATE_SCORE_MISMATCH.\n" in md)
    ties = find_rfc(root, 6).meta["spec_changes"]  # every change it makes to SPEC.md, on record
    assert len(ties) == 6 and all(t.startswith("spec:") for t in ties)
    assert len(before) + 9 == len(list((root / "spec/conformance/fixtures").glob("*.json")))

    report = run_gate(root)  # the whole gate: `check` passes once applied
    assert report.ok, [(s.name, [f.message for f in s.errors]) for s in report.stages if s.errors]
    checked = check_rfc(root, 6)  # and `rfc check` works after applying
    assert checked.ok and {"rfc-proposal-applied", "rfc-gate"} <= {f.kind for f in checked.findings}

    snapshot = tree_hash(root)
    assert main(["-C", str(root), "rfc", "apply", "6"]) == 0
    assert capsys.readouterr().out == "RFC 0006: its proposal is already in the draft; nothing written\n"
    assert tree_hash(root) == snapshot


def test_pending_changelog_lines_go_into_the_pending_entry():
    from evalport_spec import changelog

    text = "## Changelog\n\n### 1.3.0 — 2026-10-19 — MINOR\n\n- c.\n"
    once = changelog.add_pending(text, "1.4.0", "- RFC 0006 (MINOR): a.")
    assert once == "## Changelog\n\n### 1.4.0 — unreleased\n\n- RFC 0006 (MINOR): a.\n\n### 1.3.0 — 2026-10-19 — MINOR\n\n- c.\n"
    twice = changelog.add_pending(once, "1.4.0", "- RFC 0007 (MAJOR): b.")
    assert changelog.pending(twice).body == "- RFC 0006 (MINOR): a.\n- RFC 0007 (MAJOR): b."
    assert callable(changelog_line)


# --- rfc check enforces what the gate enforces ----------------------------------------------------

def test_a_proposal_failing_rfc_check_fails_check_once_applied(root):
    """The issue's case: near-neighbour fixtures that do not list their rule. `rfc check` now
    reports what the gate's rules stage reports after applying, at the proposal's files."""
    for p in proposal_files(root, "0006-rate-denominators"):
        fx = json.loads(p.read_text())
        if fx["expect"]["full"]["valid"]:
            fx.pop("rules", None)
            p.write_text(json.dumps(fx, indent=2) + "\n")
    report = check_rfc(root, 6)
    gate = [f for f in report.findings if f.kind == "rfc-gate"]
    assert not report.ok
    assert sorted((f.extra["stage"], f.code, f.new.file, f.new.pointer) for f in gate) == [
        ("rules", "RATE_SCORE_MISMATCH", f"{RATES}/rules.json", "/rules/1"),
        ("rules", "SUCCESSES_EXCEED_TRIALS", f"{RATES}/rules.json", "/rules/0")]
    assert all("no near-neighbour fixture" in f.message for f in gate)
    decide_6(root)
    apply_rfc(root, 6)
    rules_stage = run_gate(root, stages=["rules"]).stage("rules")
    assert sorted(f.code for f in rules_stage.errors) == ["RATE_SCORE_MISMATCH", "SUCCESSES_EXCEED_TRIALS"]
    assert [f.kind for f in check_rfc(root, 6).findings if f.severity >= Severity.ERROR] == ["rfc-gate", "rfc-gate"]


def test_a_fixture_at_a_path_the_catalogue_does_not_allow(root):
    p = root / RATES / "fixtures" / "rates-score-mismatch.json"
    fx = json.loads(p.read_text())
    fx["expect"]["full"]["errors"][0]["instance_path"] = "/results/0/grader_results/0/trials"
    p.write_text(json.dumps(fx, indent=2) + "\n")
    report = check_rfc(root, 6)
    stages = {(f.extra["stage"], f.new.file) for f in report.findings if f.kind == "rfc-gate"}
    # the validator still reports at score (a disagreement) and the stated path is not reported_at
    assert ("conformance", f"{RATES}/fixtures/rates-score-mismatch.json") in stages
    assert ("rules", f"{RATES}/fixtures/rates-score-mismatch.json") in stages


def test_gate_stages_are_the_content_ones():
    assert GATE_STAGES == ("schemas", "spec-text", "conformance", "rules", "examples")


# --- refusals: one line, exit 2, nothing written -------------------------------------------------------

@pytest.mark.parametrize(("status", "needle"), [
    ("rejected", "RFC 6 is rejected, not accepted: only an accepted RFC's proposal is applied; a rejected "
                 "proposal never enters the draft"),
    ("comment", "RFC 6 is comment, not accepted"),
])
def test_apply_refuses_an_rfc_that_is_not_accepted(root, capsys, status, needle):
    if status == "rejected":
        decide_6(root)  # the Decision section exists; then make it a rejection by hand
        p = root / "rfcs/0006-rate-denominators.md"
        p.write_text(p.read_text().replace("status: accepted", "status: rejected").replace("chosen_option: A\n", ""))
    before = tree_hash(root)
    assert main(["-C", str(root), "rfc", "apply", "6"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1
    assert err.startswith("evalport-spec: error: rfcs/0006-rate-denominators.md:4: ") and needle in err
    assert tree_hash(root) == before


def test_apply_and_check_refuse_a_malformed_proposal_fixture(root, capsys):
    decide_6(root)
    p = root / RATES / "fixtures" / "rates-zero-trials.json"
    fx = json.loads(p.read_text())
    fx["expect"]["full"] = {"valid": "no"}
    p.write_text(json.dumps(fx, indent=2) + "\n")
    before = tree_hash(root)
    for cmd in ("apply", "check"):
        assert main(["-C", str(root), "rfc", cmd, "6"]) == 2
        out, err = capsys.readouterr()
        assert out == "" and err.count("\n") == 1
        assert err.startswith(f"evalport-spec: error: {RATES}/fixtures/rates-zero-trials.json:")
        assert "not a valid fixture: 'no' is not of type 'boolean'" in err
    assert tree_hash(root) == before


def test_partly_applied_proposal_is_refused_and_reported(root):
    decide_6(root)
    apply_rfc(root, 6)
    (root / "spec/conformance/fixtures/rates-zero-trials.json").unlink()
    p = plan(root, find_rfc(root, 6))
    assert (p.state, p.missing, p.change_applied) == (PARTIAL, ["fixture rates-zero-trials"], True)
    before = tree_hash(root)
    with pytest.raises(InputError, match="partly in the draft"):
        apply_rfc(root, 6)
    assert tree_hash(root) == before
    report = check_rfc(root, 6)
    assert [f.kind for f in report.findings if f.severity >= Severity.ERROR] == ["rfc-proposal-partial"]


def test_a_failed_write_restores_every_file(root, monkeypatch):
    decide_6(root)
    before = tree_hash(root)
    real = apply_mod.atomic_write
    calls = []

    def flaky(path, data, **kw):
        calls.append(path)
        if len(calls) == 4:  # SPEC.md, two fixtures written, then the disk fills up
            raise OSError(28, "No space left on device")
        real(path, data, **kw)

    monkeypatch.setattr(apply_mod, "atomic_write", flaky)
    with pytest.raises(OSError):
        apply_rfc(root, 6)
    assert tree_hash(root) == before
    assert plan(root, find_rfc(root, 6)).state == UNAPPLIED


def test_accepted_with_text_still_saying_the_options_are_open_is_refused(root):
    """Issue 12: `rfc lint` accepted an RFC marked accepted whose text says every option is open.
    RFC 0006 as committed says so in its Comment period section."""
    p = root / "rfcs/0006-rate-denominators.md"
    p.write_text(p.read_text().replace("## Questions", "## Decision\n\nOption A.\n\n## Questions"))
    with pytest.raises(InputError, match="the text still says the options are open: 'No decision has been "
                                         "recorded'"):
        set_status(root, 6, "accepted", Change(resolution=LINK, option="A"), today=TODAY)


# --- RFC 0005: the encoded rule agrees with a hand-written implementation -----------------------------

def _guardless(subschema: dict) -> dict:
    out = copy.deepcopy(subschema)
    cv = out["if"]["properties"]["constraint_violations"]
    cv.pop("type")
    cv["contains"].pop("type")
    return out


@pytest.mark.parametrize(("violations", "where"), [
    ({"id": "refund_authority", "invalidates_result": True}, "/results/0/constraint_violations"),
    (["refund_authority"], "/results/0/constraint_violations/0"),
])
def test_rfc_0005_rule_does_not_fire_on_malformed_lists(root, violations, where):
    p = plan(root, find_rfc(root, 5))
    assert p.state == APPLIED or p.state == UNAPPLIED
    schema = json.loads(p.proposed.read("schemas/resultset.json"))
    doc = {"version": "1.4.0", "suite_id": "s", "run_id": "r", "started_at": "2026-09-15T08:00:00Z",
           "results": [{"test_case_id": "t", "passed": True, "grader_results": [],
                        "constraint_violations": violations}]}
    marked = next(s for s in schema["$defs"]["result"]["allOf"]
                  if s.get("x-evalport-rule") == "CONSTRAINT_INVALIDATES_PASS")
    result_schema = {"$defs": schema["$defs"], **schema["$defs"]["result"]}

    def keywords(allof_entry: dict) -> set[tuple[str, str]]:
        one = {**result_schema, "allOf": [allof_entry]}
        v = jsonschema.Draft202012Validator(one)
        return {(e.validator, "/results/0" + "".join(f"/{x}" for x in e.absolute_path))
                for e in v.iter_errors(doc["results"][0])}

    # python-jsonschema as the oracle: with the type guards only the type error remains ...
    assert keywords(marked) == {("type", where)}
    # ... without them `contains`/`required` pass vacuously and `passed: const false` fires too
    assert keywords(_guardless(marked)) == {("type", where), ("const", "/results/0/passed")}


# --- lint and the applied state ----------------------------------------------------------------------

def test_lint_after_apply_checks_the_declared_class_against_the_draft(root):
    decide_6(root)
    apply_rfc(root, 6)
    findings = lint_rfcs(root, files=[root / "rfcs/0006-rate-denominators.md"], today=TODAY)
    assert [(f.kind, f.message) for f in findings] == [
        ("rfc-proposal-applied", "proposal is applied to the draft (draft is MINOR since 1.3.0; declared MINOR)")]
