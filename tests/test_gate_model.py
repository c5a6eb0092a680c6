"""The gate's result types (``gate/model.py``): a stage's status from its findings' severities,
the report's verdict, exit code and class, and the JSON shapes ``check --format json`` prints;
and the report made of them (``gate/output.py``): counts, verdict line, what is shown.
Expected values are written out by hand from the documented rules (docstrings of the module)."""

from __future__ import annotations

from evalport_spec.findings import ChangeClass, Finding, Location, Severity
from evalport_spec.gate.model import GateReport, StageResult, status_of

INFO = Finding("note", "a note", severity=Severity.INFO)
WARN = Finding("acceptance-stale", "a warning", severity=Severity.WARNING)
ERR = Finding("schema-invalid", "an error")  # error is a finding's default severity


def test_a_stage_status_is_its_worst_finding():
    assert [status_of(fs) for fs in ([], [INFO], [INFO, WARN], [WARN, ERR, INFO], [ERR])] == [
        "ok", "ok", "warn", "fail", "fail"]


def test_a_stage_result_lists_its_errors_and_serialises_with_its_class_only_when_it_has_one():
    draft = StageResult("draft", "fail", [WARN, ERR, INFO], 1.23456, "MAJOR since 1.3.0", ChangeClass.MAJOR)
    assert draft.errors == [ERR]
    assert draft.to_json() == {"name": "draft", "status": "fail", "seconds": 1.235,
                               "summary": "MAJOR since 1.3.0", "change_class": "MAJOR",
                               "findings": [WARN.to_json(), ERR.to_json(), INFO.to_json()]}
    plain = StageResult("schemas", "ok")
    assert plain.errors == []
    assert plain.to_json() == {"name": "schemas", "status": "ok", "seconds": 0.0, "summary": "",
                               "findings": []}


def test_the_report_fails_when_a_stage_fails_and_takes_the_base_class_before_the_draft_class():
    draft = StageResult("draft", "warn", [WARN], summary="MINOR since 1.3.0", change_class=ChangeClass.MINOR)
    base = StageResult("base", "fail", [ERR], summary="MAJOR against main", change_class=ChangeClass.MAJOR)
    skipped = StageResult("manifest", "skip", summary="no release yet")
    report = GateReport([skipped, draft, base], "main")
    assert (report.ok, report.exit_code, report.change_class) == (False, 1, ChangeClass.MAJOR)
    assert report.stage("base") is base and report.stage("rules") is None
    assert report.findings() == [WARN, ERR]
    assert report.to_json() == {"ok": False, "base": "main", "change_class": "MAJOR",
                                "stages": [skipped.to_json(), draft.to_json(), base.to_json()]}
    # a base stage without a class (it could not read the base) leaves the draft's
    unread = StageResult("base", "fail", [ERR], summary="cannot read main:spec")
    assert GateReport([unread, draft], "main").change_class == ChangeClass.MINOR
    # warnings and skips pass; no classifying stage, no class
    quiet = GateReport([skipped, StageResult("rfcs", "warn", [WARN])])
    assert (quiet.ok, quiet.exit_code, quiet.change_class) == (True, 0, None)
    assert quiet.to_json() == {"ok": True, "base": None, "change_class": None,
                               "stages": [skipped.to_json(), quiet.stages[1].to_json()]}


# --- the gate's report (gate/output.py) ----------------------------------------------------------

def test_a_stage_without_a_summary_is_summarised_by_its_counts_and_the_verdict_names_failures():
    from evalport_spec.gate.output import plural, stage_summary, to_check, verdict

    assert (plural(1, "stage"), plural(0, "note"), plural(3, "error")) == ("1 stage", "0 notes", "3 errors")
    assert stage_summary(StageResult("x", "fail", [ERR, INFO, INFO])) == "1 error, 2 notes"
    assert stage_summary(StageResult("x", "warn", [WARN, WARN])) == "2 warnings"
    assert stage_summary(StageResult("x", "ok")) == "no findings"
    assert stage_summary(StageResult("x", "fail", [ERR], summary="own words")) == "own words"
    check = to_check(StageResult("rfcs", "warn", [WARN], 0.5))
    assert (check.name, check.status, check.seconds, check.summary) == ("rfcs", "warn", 0.5, "1 warning")
    failed = GateReport([StageResult("rules", "fail", [ERR]), StageResult("draft", "ok", change_class=ChangeClass.MINOR),
                         StageResult("examples", "fail", [ERR])])
    assert verdict(failed) == "gate: FAILED (2 of 3 stages: rules, examples); change class MINOR"
    assert verdict(GateReport([StageResult("rfcs", "warn", [WARN])])) == "gate: passed (1 stage)"


def test_the_report_shows_changes_and_problems_once_and_leaves_out_what_the_base_did_not_change():
    """The draft stage reports two additive changes as information; the base stage only one of
    them (the other was already on the base branch): that one is shown once under both stages,
    the other left out. A note that is no change is not shown; a warning is."""
    from evalport_spec.gate.output import gate_report

    ours = Finding("property-added", "build added", ChangeClass.MINOR, Severity.INFO,
                   new=Location("spec/schemas/resultset.json", "/$defs/runner/properties/build"))
    theirs = Finding("property-added", "tag added", ChangeClass.MINOR, Severity.INFO,
                     new=Location("spec/schemas/resultset.json", "/$defs/runner/properties/tag"))
    draft = StageResult("draft", "warn", [ours, theirs, INFO, WARN], change_class=ChangeClass.MINOR)
    base = StageResult("base", "ok", [ours], change_class=ChangeClass.MINOR)
    report = gate_report(GateReport([draft, base], "main"))
    assert sorted((e.finding.message, tuple(e.stages)) for e in report.entries) == [
        ("a warning", ("draft",)), ("build added", ("draft", "base"))]
    assert (report.command, report.title, report.summary) == (
        "check", "EvalPort spec gate: passed", {"change class against main": "MINOR"})
    assert report.verdict == "gate: passed (2 stages); change class MINOR"
    # without the base stage (or with it skipped), the draft's changes are all shown
    for stages in ([StageResult("draft", "warn", [ours, theirs, INFO, WARN])],
                   [StageResult("draft", "warn", [ours, theirs, INFO, WARN]), StageResult("base", "skip")]):
        alone = gate_report(GateReport(stages))
        assert sorted(e.finding.message for e in alone.entries) == ["a warning", "build added", "tag added"]
        assert alone.summary == {}  # no class, no summary line
