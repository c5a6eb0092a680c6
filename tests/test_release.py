"""``evalport-spec release``: freezing the draft, refusals, atomicity."""

from __future__ import annotations

import datetime as dt
import hashlib
import json

import pytest

from evalport_spec import release as rel
from evalport_spec.cli import main
from evalport_spec.errors import InputError
from evalport_spec.gate import run_gate
from evalport_spec.release import (
    ReleasePlan,
    ReleaseRefused,
    add_changelog_entry,
    apply_plan,
    plan_release,
    rewrite_ids,
    set_status_line,
)
from evalport_spec.spec import SpecRepo
from evalport_spec.specsync import sync_draft
from evalport_spec.workflow import release as gated
from gate_repo import accept_rfc, add_optional_runner_field, make_repo, tree_hash

TODAY = dt.date(2026, 11, 30)
"""The day the tests judge release dates against (the fixture's last release, 1.3.0, is dated
2026-10-19 in its changelog heading)."""

@pytest.fixture
def repo(tmp_path):
    return make_repo(tmp_path)


def test_rewrite_ids_only_touches_the_draft_segment():
    text = '{"$id": "https://evalport.github.io/spec/draft/schemas/suite.json", "d": "a draft"}'
    assert rewrite_ids(text, "1.4.0") == ('{"$id": "https://evalport.github.io/spec/1.4.0/schemas/suite.json", '
                                          '"d": "a draft"}')


def test_changelog_entry_goes_first_and_status_line_is_replaced():
    md = "## Status\n\n**Status:** draft.\n\n## Changelog\n\n### 1.0.0 — 2026-01-01 — INITIAL\n\n- a\n"
    out = add_changelog_entry(md, "### 1.1.0 — 2026-02-02 — MINOR\n\n- b\n")
    assert out == ("## Status\n\n**Status:** draft.\n\n## Changelog\n\n### 1.1.0 — 2026-02-02 — MINOR\n\n- b\n\n"
                   "### 1.0.0 — 2026-01-01 — INITIAL\n\n- a\n")
    assert set_status_line(out, "**Status:** released.").count("**Status:** released.") == 1
    with pytest.raises(InputError):
        add_changelog_entry("## Status\n", "x")


def test_refuses_existing_and_non_semver_versions(repo):
    before = tree_hash(repo)
    with pytest.raises(ReleaseRefused, match="already released"):
        plan_release(repo, "1.3.0")
    with pytest.raises(ReleaseRefused, match="not above"):
        plan_release(repo, "1.2.5")
    with pytest.raises(InputError, match="not MAJOR.MINOR.PATCH"):
        plan_release(repo, "1.4")
    with pytest.raises(InputError, match="calendar date"):
        plan_release(repo, "1.4.0", date="2026-02-30")
    assert tree_hash(repo) == before


def test_refuses_when_gate_fails(repo, capsys, monkeypatch):
    # the full gate takes about a minute here; the failing stage alone shows the refusal wiring
    monkeypatch.setattr(gated, "run_gate", lambda r, **kw: run_gate(r, stages=["spec-text"], **kw))
    (repo / "spec/SPEC.md").write_text("truncated\n")
    before = tree_hash(repo)
    rc = main(["-C", str(repo), "release", "1.4.0", "--date", "2026-11-30"])
    assert rc == 1
    assert "refused: the gate fails (spec-text" in capsys.readouterr().err
    assert tree_hash(repo) == before


def test_failure_part_way_leaves_the_tree_unchanged_or_released(repo, monkeypatch):
    """A failure while staging (before the journal's switch) leaves the tree exactly as it was;
    one after the switch leaves a committed journal that the next command completes, so the
    release is whole. No staging folder either way (the step-by-step signal test is in
    test_hostile.py)."""
    from evalport_spec import journal

    before = tree_hash(repo)
    plan = ReleasePlan("9.9.9", "2026-11-30", "1.3.0", "MAJOR",
                       {"SPEC.md": b"frozen", "schemas/suite.json": b"{}"},
                       {"spec/VERSION": b"9.10.0\n", "spec/SPEC.md": b"changed",
                        "rfcs/0100-new.md": b"new file", "spec/releases/SHA256SUMS": b"x"}, [], "")
    names: list[str] = []

    def fail_at(name: str):
        def hook(_i: int, step: str) -> None:
            names.append(step)
            if step == name:
                raise OSError("disk full (injected)")
        return hook

    monkeypatch.setattr(journal, "_fault_hook", fail_at("stage spec/VERSION"))
    with pytest.raises(OSError, match="injected"):
        apply_plan(repo, plan)
    assert names[-1] == "stage spec/VERSION" and "switch" not in names
    assert tree_hash(repo) == before and not journal.journal_dir(repo).exists()

    names.clear()
    monkeypatch.setattr(journal, "_fault_hook", fail_at("install spec/VERSION"))
    with pytest.raises(OSError, match="injected"):
        apply_plan(repo, plan)
    assert "switch" in names and journal.journal_dir(repo).exists()
    monkeypatch.setattr(journal, "_fault_hook", None)
    assert "completed the interrupted release" in journal.recover(repo)
    for path in plan.paths():
        assert (repo / path).read_bytes() == plan.data(path), path
    assert not journal.journal_dir(repo).exists() and not list(repo.glob(".evalport-*"))


def test_release_after_minor_branch(repo):
    add_optional_runner_field(repo)
    sync_draft(SpecRepo(repo))  # the Runner table gains `build`
    with pytest.raises(ReleaseRefused, match=r"not accepted: rfcs/0007-version-scope.md \(comment\)"):
        plan_release(repo, "1.4.0", date="2026-11-30", today=TODAY)
    accept_rfc(repo, 7)  # it records SPEC.md's normative changes since 1.3.0, so it is in the release
    plan = plan_release(repo, "1.4.0", date="2026-11-30", today=TODAY)
    assert plan.change_class == "MINOR" and plan.previous == "1.3.0" and 7 in plan.rfcs
    # the pending entry's own lines first (its RFC 0007 line stands for the RFC), then the rest
    assert plan.entry.startswith("### 1.4.0 — 2026-11-30 — MINOR\n\n- RFC 0007: a validator reports a document")
    assert "- RFC 0007: Version scope" not in plan.entry
    assert "- MINOR `property-added-to-closed-object`" in plan.entry
    # the pending entry's own lines, then each normative change of SPEC.md with its record
    assert "\n- Editorial: the list of rule codes in Validation is generated from the catalogue" in plan.entry
    assert ('- SPEC.md, added in Validation: "A document whose `version` has a higher major version than '
            'every version') in plan.entry and "(RFC 0007; spec:b716d39d)." in plan.entry
    assert "region fields resultset.Runner" in plan.entry and "(generated from the schemas and catalogue;" in plan.entry
    assert "schema-id-changed" not in plan.entry  # draft -> 1.4.0 $id segment is not a change
    apply_plan(repo, plan)
    frozen = repo / "spec/releases/1.4.0"
    suite = json.loads((frozen / "schemas/suite.json").read_text())
    assert suite["$id"] == "https://evalport.github.io/spec/1.4.0/schemas/suite.json"
    rs = json.loads((frozen / "schemas/resultset.json").read_text())
    assert rs["$defs"]["runner"]["properties"]["build"] == {"type": "string"}
    assert (frozen / "rules.json").read_bytes() == (repo / "spec/rules.json").read_bytes()
    md = (frozen / "SPEC.md").read_text()
    assert "**Status:** EvalPort 1.4.0, released 2026-11-30." in md
    assert md.index("### 1.4.0 — 2026-11-30 — MINOR") < md.index("### 1.3.0 —")
    draft_md = (repo / "spec/SPEC.md").read_text()
    assert "### 1.4.0 — 2026-11-30 — MINOR" in draft_md and "— unreleased" not in draft_md
    assert "working draft of EvalPort 1.5.0" in draft_md and "the latest release is 1.4.0" in draft_md
    assert (repo / "spec/VERSION").read_text() == "1.5.0\n"
    sums = (repo / "spec/releases/SHA256SUMS").read_text()
    digest = hashlib.sha256((frozen / "schemas/resultset.json").read_bytes()).hexdigest()
    assert f"{digest}  1.4.0/schemas/resultset.json\n" in sums
    for stage in ("manifest", "spec-text", "schemas"):
        assert run_gate(repo, stages=[stage]).stage(stage).status == "ok", stage
    with pytest.raises(ReleaseRefused, match="already released"):
        plan_release(repo, "1.4.0")


def test_release_number_disagreeing_with_class_is_refused_and_changes_nothing(repo):
    add_optional_runner_field(repo)
    (repo / "spec/VERSION").write_text("1.3.1\n")  # declared, so the class check is what refuses
    before = tree_hash(repo)
    with pytest.raises(ReleaseRefused, match="needs 1.4.0"):
        plan_release(repo, "1.3.1", date="2026-11-30", today=TODAY)
    with pytest.raises(ReleaseRefused, match="does not follow"):
        gated.cut_release(repo, "1.5.0", date="2026-11-30", today=TODAY)
    assert tree_hash(repo) == before


def test_version_must_be_the_one_spec_version_declares(repo, capsys):
    # the fixture's spec/VERSION says 1.4.0; 1.3.1 is an exact successor of 1.3.0 but not declared
    before = tree_hash(repo)
    with pytest.raises(ReleaseRefused) as info:
        plan_release(repo, "1.3.1", date="2026-11-30", today=TODAY)
    assert str(info.value) == ("1.3.1 is not the version the draft declares: spec/VERSION says 1.4.0. "
                               "Release 1.4.0 instead, or edit spec/VERSION to 1.3.1 first (SPEC.md "
                               "Governance: a release freezes the draft under the version in VERSION)")
    rc = main(["-C", str(repo), "release", "1.3.1", "--dry-run"])
    assert rc == 1
    assert "refused: 1.3.1 is not the version the draft declares: spec/VERSION says 1.4.0" in capsys.readouterr().err
    rc = main(["-C", str(repo), "release", "1.3.1", "--dry-run", "--format", "json"])
    assert rc == 1
    out = json.loads(capsys.readouterr().out)
    assert out["status"] == "refused" and out["version"] == "1.3.1"
    assert out["reason"].startswith("1.3.1 is not the version the draft declares")
    (repo / "spec/VERSION").unlink()
    with pytest.raises(ReleaseRefused, match="^spec/VERSION is missing"):
        plan_release(repo, "1.4.0", date="2026-11-30", today=TODAY)
    (repo / "spec/VERSION").write_text("1.4.0\n")
    assert tree_hash(repo) == before


def test_previous_release_date_comes_from_its_changelog_heading(repo):
    # spec/releases/1.3.0/SPEC.md: "### 1.3.0 — 2026-10-19 — MINOR"
    assert rel.previous_release_date(rel.SpecRepo(repo), "1.3.0") == dt.date(2026, 10, 19)
    assert rel.previous_release_date(rel.SpecRepo(repo), "1.0.0") == dt.date(2026, 4, 6)


@pytest.mark.parametrize(("date", "problem"), [
    ("2026-10-18", "--date 2026-10-18 is earlier than the previous release 1.3.0 (2026-10-19, from its "
                   "changelog heading); a release cannot be dated before the one it follows"),
    ("2026-10-19", None),   # the same day as the previous release is allowed
    ("2026-12-01", None),   # today + 1 day is allowed
    ("2026-12-02", "--date 2026-12-02 is in the future: today is 2026-11-30 (UTC) and a release may be "
                   "dated at most one day ahead (2026-12-01)"),
])
def test_date_bounds(repo, date, problem):
    spec = rel.SpecRepo(repo)
    assert rel.date_problem(spec, "1.3.0", dt.date.fromisoformat(date), TODAY) == problem
    assert rel.date_problem(spec, None, dt.date(2020, 1, 1), TODAY) is None  # first release: no lower bound


def test_out_of_range_dates_are_refused_and_change_nothing(repo):
    before = tree_hash(repo)
    with pytest.raises(ReleaseRefused, match="earlier than the previous release 1.3.0"):
        plan_release(repo, "1.4.0", date="2026-10-18", today=TODAY)
    with pytest.raises(ReleaseRefused, match="is in the future: today is 2026-11-30"):
        gated.cut_release(repo, "1.4.0", date="2026-12-02", today=TODAY)
    assert tree_hash(repo) == before


def test_dry_run_json_is_the_plan(repo, capsys, monkeypatch):
    # the full gate takes about a minute here (and SPEC.md does not describe the new field);
    # one passing stage keeps the CLI wiring real
    monkeypatch.setattr(gated, "run_gate", lambda r, **kw: run_gate(r, stages=["schemas"], **kw))
    add_optional_runner_field(repo)
    accept_rfc(repo, 7)
    today = dt.datetime.now(dt.UTC).date().isoformat()  # the CLI judges dates against today
    rc = main(["-C", str(repo), "release", "1.4.0", "--dry-run", "--format", "json", "--date", today])
    assert rc == 0
    out = json.loads(capsys.readouterr().out)
    assert out["status"] == "planned" and out["version"] == "1.4.0" and out["previous"] == "1.3.0"
    assert out["change_class"] == "MINOR" and out["date"] == today
    release_files = [f for f in out["files"] if f.startswith("spec/releases/1.4.0/")]
    assert [f for f in release_files if "/conformance/" not in f] == [
        "spec/releases/1.4.0/SPEC.md", "spec/releases/1.4.0/rules.json",
        "spec/releases/1.4.0/schemas/grader.json", "spec/releases/1.4.0/schemas/resultset.json",
        "spec/releases/1.4.0/schemas/suite.json", "spec/releases/1.4.0/schemas/testcase.json"]
    fixtures = sorted(p.name for p in (repo / "spec/conformance/fixtures").glob("*.json"))
    assert [f for f in release_files if "/conformance/" in f] == (
        ["spec/releases/1.4.0/conformance/fixture.schema.json"]
        + [f"spec/releases/1.4.0/conformance/fixtures/{n}" for n in fixtures])
    assert "spec/VERSION" in out["files"] and "spec/releases/SHA256SUMS" in out["files"]
    assert out["changelog_entry"].startswith(f"### 1.4.0 — {today} — MINOR\n")
    assert not (repo / "spec/releases/1.4.0").exists()


def test_a_byte_order_mark_in_spec_version_is_named_once_at_its_place(repo, capsys):
    """fresh36: spec/VERSION saved with a UTF-8 BOM made `release 1.4.0` answer "Release \\ufeff1.4.0
    instead" (the mark invisible) and the draft stage quote it; reading the file names it."""
    (repo / "spec/VERSION").write_bytes(b"\xef\xbb\xbf1.4.0\n")
    with pytest.raises(InputError) as info:
        SpecRepo(repo).declared_draft_version()
    assert (info.value.source, info.value.line, info.value.column) == ("spec/VERSION", 1, 1)
    assert main(["-C", str(repo), "release", "1.4.0", "--dry-run"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith("evalport-spec: error: spec/VERSION:1:1: starts with a UTF-8 byte "
                                               "order mark"), err
    assert "\ufeff" not in err[0]
    (found,) = [f for f in run_gate(repo, stages=["draft"]).stage("draft").findings if f.severity.name == "ERROR"]
    assert (found.kind, found.new.file, found.new.line) == ("input-error", "spec/VERSION", 1)
