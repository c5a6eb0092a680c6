"""The gate's result types (``gate/model.py``): a stage's status from its findings' severities,
the report's verdict, exit code and class, and the JSON shapes ``check --format json`` prints.
Expected values are written out by hand from the documented rules (docstrings of the module)."""

from __future__ import annotations

from evalport_spec.findings import ChangeClass, Finding, Severity
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
