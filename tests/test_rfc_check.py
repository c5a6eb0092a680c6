"""Tests of ``rfc check``: the proposal applied in memory, rules listed, the gate's content stages
run on the draft it produces, examples validated. The diff engine is stubbed in the fast tests
(it is slow and tested on its own); one ``slow`` test runs it for real on RFC 0006."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import shutil
from pathlib import Path

import pytest

from evalport_spec.compat import Classification
from evalport_spec.errors import InputError
from evalport_spec.findings import ChangeClass, Finding, Severity
from evalport_spec.rfc import lint, lint_rfcs
from evalport_spec.rfc.model import find_rfc
from evalport_spec.validation import Validator
from evalport_spec.workflow import check_rfc, rfccheck
from evalport_spec.workflow.rfccheck import apply_proposal

REPO = Path(__file__).resolve().parent.parent


def digest(folder: Path) -> str:
    h = hashlib.sha256()
    for p in sorted(folder.rglob("*")):
        if p.is_file():
            h.update(str(p.relative_to(folder)).encode() + b"\0" + p.read_bytes())
    return h.hexdigest()


@pytest.fixture()
def repo(tmp_path: Path) -> Path:
    """A copy of the real spec (draft, fixtures, releases), RFCs 5 and 6, and RFC 7 (which puts
    the draft's normative changes since 1.3.0 on record: without it the gate's spec-text stage fails)."""
    shutil.copytree(REPO / "spec", tmp_path / "spec")
    (tmp_path / "rfcs").mkdir()
    for name in ("0005-hard-constraints", "0006-rate-denominators"):
        shutil.copy(REPO / "rfcs" / f"{name}.md", tmp_path / "rfcs" / f"{name}.md")
        shutil.copytree(REPO / "rfcs" / name, tmp_path / "rfcs" / name)
    shutil.copy(REPO / "rfcs" / "0007-version-scope.md", tmp_path / "rfcs")
    return tmp_path


def stub_classify(monkeypatch, cls: ChangeClass, findings: list[Finding]) -> None:
    """``compare_versions`` answers ``cls`` with ``findings`` wherever ``rfc check`` and ``rfc
    lint`` call it."""
    def fake(old, new, **kw):
        return Classification(cls, ChangeClass.PATCH, findings)
    for module in (rfccheck, lint):
        monkeypatch.setattr(module, "compare_versions", fake)


def test_hard_constraints_proposal(repo, monkeypatch):
    stub_classify(monkeypatch, ChangeClass.MINOR, [
        Finding("rule-added", "x", ChangeClass.MINOR, code="CONSTRAINT_INVALIDATES_PASS", direction="forward")])
    before = digest(repo / "spec")
    report = check_rfc(repo, 5)
    assert digest(repo / "spec") == before  # the draft is never modified
    assert (report.declared, report.computed) == (ChangeClass.MINOR, ChangeClass.MINOR)
    assert [(r.code, r.additive, r.encoded) for r in report.rules] == [("CONSTRAINT_INVALIDATES_PASS", True, True)]
    assert report.fixtures == 8 and report.examples == 1
    assert report.ok, [f.message for f in report.findings if f.severity >= Severity.ERROR]
    assert {f.kind for f in report.findings} == {"rfc-class", "rfc-rule-added", "rfc-gate", "rfc-examples"}


def test_proposed_version_encodes_the_rule(repo):
    rfc = find_rfc(repo, 5)
    draft, proposed, added = apply_proposal(repo, rfc)
    assert [r.code for r in added] == ["CONSTRAINT_INVALIDATES_PASS"]
    assert proposed.catalogue.get("CONSTRAINT_INVALIDATES_PASS").encoded is True
    assert draft.catalogue.get("CONSTRAINT_INVALIDATES_PASS") is None
    fixture = json.loads((repo / "rfcs/0005-hard-constraints/fixtures/hard-constraints-invalidating-passed.json")
                         .read_text())
    doc = fixture["document"]
    raw = draft.schemas.validator(draft.schema_name("resultset"))
    assert list(raw.iter_errors(doc))  # the draft does not know the member at all
    codes = [(v.code, v.instance_path) for v in Validator(proposed).validate(doc, "resultset")]
    assert codes == [("CONSTRAINT_INVALIDATES_PASS", "/results/0/passed")]
    doc["results"][0]["passed"] = False
    assert Validator(proposed).validate(doc, "resultset") == []


def test_example_with_passed_true_is_rejected(repo, monkeypatch):
    stub_classify(monkeypatch, ChangeClass.MINOR, [])
    p = repo / "rfcs" / "0005-hard-constraints.md"
    text = p.read_text()
    lines = text.split("\n")
    start = next(i for i, line in enumerate(lines) if line.startswith("```json evalport-resultset"))
    passed = next(i for i in range(start, len(lines)) if '"passed": false,' in lines[i])
    lines[passed] = lines[passed].replace('"passed": false', '"passed": true')
    p.write_text("\n".join(lines))
    report = check_rfc(repo, 5)
    bad = [f for f in report.findings if f.kind == "rfc-example-invalid"]
    assert [(f.extra["code"], f.new.line) for f in bad] == [("CONSTRAINT_INVALIDATES_PASS", passed + 1)]
    assert not report.ok


def test_rate_denominators_rules_and_class_mismatch(repo, monkeypatch):
    stub_classify(monkeypatch, ChangeClass.MAJOR, [
        Finding("rule-tightened", "x", ChangeClass.MAJOR, code="RATE_SCORE_MISMATCH")])
    report = check_rfc(repo, 6)
    assert [(r.code, r.additive) for r in report.rules] == [("SUCCESSES_EXCEED_TRIALS", None),
                                                            ("RATE_SCORE_MISMATCH", False)]
    errors = {f.kind for f in report.findings if f.severity >= Severity.ERROR}
    assert errors == {"rfc-class-mismatch", "rfc-rule-added", "rule-tightened"}  # MAJOR diff findings shown
    assert report.fixtures == 9
    assert [f.severity for f in report.findings if f.kind == "rfc-gate"] == [Severity.INFO]


def test_lint_compares_declared_class_with_proposal(repo, monkeypatch):
    stub_classify(monkeypatch, ChangeClass.MAJOR, [])
    findings = lint_rfcs(repo, today=dt.date(2026, 11, 30))
    mism = [(f.new.file, f.new.line) for f in findings if f.kind == "rfc-class-mismatch"]
    assert mism == [("rfcs/0005-hard-constraints.md", 18), ("rfcs/0006-rate-denominators.md", 18)]


def test_patch_that_does_not_apply(repo):
    patch = repo / "rfcs/0006-rate-denominators/patch.json"
    ops = json.loads(patch.read_text())
    ops["resultset.json"][2]["path"] = "/$defs/no_such_def/dependentRequired"
    patch.write_text(json.dumps(ops, indent=2))
    before = digest(repo)
    with pytest.raises(InputError) as exc:
        check_rfc(repo, 6)
    assert str(exc.value).startswith("rfcs/0006-rate-denominators/patch.json:")
    assert "JSON Patch operation does not apply" in str(exc.value) and "'/resultset.json/2'" in str(exc.value)
    assert digest(repo) == before


def test_patch_naming_unknown_schema_and_duplicate_rule(repo):
    patch = repo / "rfcs/0006-rate-denominators/patch.json"
    patch.write_text(json.dumps({"../evil.json": []}))
    with pytest.raises(InputError, match="not a schema file of the draft"):
        check_rfc(repo, 6)
    patch.write_text("{}")
    rules = repo / "rfcs/0006-rate-denominators/rules.json"
    data = json.loads(rules.read_text())
    data["rules"][0]["code"] = "DUPLICATE_ATTEMPT"
    rules.write_text(json.dumps(data))
    with pytest.raises(InputError) as exc:
        check_rfc(repo, 6)
    # the location is the draft's catalogue entry the code collides with, not the proposal
    assert str(exc.value).startswith("spec/rules.json:")
    assert "rule DUPLICATE_ATTEMPT is already in the draft's catalogue with another definition" in str(exc.value)


@pytest.mark.slow
def test_real_diff_engine_classifies_rate_denominators_as_minor(repo):
    report = check_rfc(repo, 6)
    assert report.computed == ChangeClass.MINOR
    assert [(r.code, r.additive) for r in report.rules] == [("SUCCESSES_EXCEED_TRIALS", True),
                                                            ("RATE_SCORE_MISMATCH", True)]
    assert report.ok


def test_lint_accepts_a_proposal_already_applied_to_the_draft(tmp_path) -> None:
    """The step before release: RFC 0005's proposal merged into the draft. Re-applying its patch
    changes nothing, so comparing draft -> proposed would say PATCH; lint must instead check the
    declared MINOR against the draft's class since 1.3.0 (MINOR: one optional property added)."""
    from evalport_spec.rfc import proposal_applied
    from evalport_spec.rfc.model import load_rfc

    root = tmp_path / "repo"
    shutil.copytree(REPO / "spec", root / "spec")
    shutil.copytree(REPO / "rfcs", root / "rfcs")
    rfc = load_rfc(root, root / "rfcs" / "0005-hard-constraints.md")
    assert not proposal_applied(root, rfc)
    _, proposed, added = apply_proposal(root, rfc)
    for name in proposed.schemas.files:
        (root / "spec" / "schemas" / name).write_bytes(proposed._read(f"schemas/{name}"))
    catalogue = json.loads((root / "spec" / "rules.json").read_text())
    catalogue["rules"] += json.loads((root / "rfcs" / "0005-hard-constraints" / "rules.json").read_text())["rules"]
    (root / "spec" / "rules.json").write_text(json.dumps(catalogue, indent=2))
    assert added and proposal_applied(root, rfc)

    findings = lint_rfcs(root, files=[root / "rfcs" / "0005-hard-constraints.md"], today=None)
    kinds = {f.kind for f in findings}
    assert "rfc-class-mismatch" not in kinds
    applied = [f for f in findings if f.kind == "rfc-proposal-applied"]
    assert len(applied) == 1
    assert applied[0].message == ("proposal is applied to the draft (draft is MINOR since 1.3.0; "
                                  "declared MINOR)")


def test_the_proposed_draft_names_the_real_files(repo):
    """A message about a file of the proposed draft names a file that exists: the draft's own
    when the proposal leaves it alone, else the draft's and the proposal file that changes it;
    never a ``rfcs/NNNN-slug (proposed)/`` folder."""
    _, proposed, _ = apply_proposal(repo, find_rfc(repo, 6))
    assert proposed.path_label("schemas/grader.json") == "spec/schemas/grader.json"
    assert proposed.path_label("schemas/resultset.json") == \
        "spec/schemas/resultset.json as rfcs/0006-rate-denominators/patch.json changes it"
    assert proposed.path_label("rules.json") == \
        "spec/rules.json as rfcs/0006-rate-denominators/rules.json changes it"
    fixture = sorted((repo / "rfcs/0006-rate-denominators/fixtures").glob("*.json"))[0]
    assert proposed.path_label(f"conformance/fixtures/{fixture.name}") == \
        f"rfcs/0006-rate-denominators/fixtures/{fixture.name}"
    grader = repo / "spec/schemas/grader.json"  # a schema RFC 6 does not patch, broken at line 2
    lines = grader.read_text().split("\n")
    lines[1] += " oops"
    grader.write_text("\n".join(lines))
    [found] = [f for f in lint_rfcs(repo, [repo / "rfcs/0006-rate-denominators.md"])
               if f.kind == "rfc-proposal"]
    column = len(lines[1]) - len("oops") + 1  # where the stray word starts
    assert found.message.startswith(f"proposal cannot be applied: spec/schemas/grader.json:2:{column}: "
                                    "malformed JSON"), found.message
    assert "(proposed)" not in found.message
