"""The fixtures' ``since``: the first version from which each holds in every later one; runs
against older versions skip newer fixtures and say how many."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from evalport_spec import conformance
from evalport_spec.cli import main
from evalport_spec.errors import InputError
from evalport_spec.spec import SpecRepo

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "spec" / "conformance" / "fixtures"
REPO = SpecRepo(ROOT)


@pytest.fixture(scope="module")
def fixtures() -> dict[str, conformance.Fixture]:
    return {fx.id: fx for fx in conformance.load_fixtures(FIXTURES)}


def copy_fixtures(tmp_path: Path, *ids: str) -> Path:
    folder = tmp_path / "spec" / "conformance" / "fixtures"
    folder.mkdir(parents=True)
    shutil.copy(FIXTURES.parent / "fixture.schema.json", folder.parent)
    for i in ids:
        shutil.copy(FIXTURES / f"{i}.json", folder)
    return folder


@pytest.mark.parametrize(("fixture_id", "since"), [
    ("resultset-self-parent", "1.3.0"),  # group (and SELF_PARENT) arrived in 1.3.0
    ("resultset-duplicate-attempt", "1.2.0"),  # attempt arrived in 1.2.0
    ("resultset-attempt-mistyped", "1.2.0"),  # in 1.0.0 'attempt' is an unknown member
    ("resultset-completed-at-without-offset", "1.1.0"),  # Result.completed_at: 1.1.0
    ("grader-minimal-valid", "1.0.0"),
])
def test_hand_checked_since_values(fixtures, fixture_id: str, since: str) -> None:
    assert fixtures[fixture_id].since == since


def test_every_fixture_has_since_and_it_is_what_the_runner_computes(fixtures) -> None:
    assert all(fx.since for fx in fixtures.values())
    versions = [(REPO.declared_draft_version() if n == "draft" else n, REPO.version(n))
                for n in REPO.all_versions()]
    computed = conformance.compute_since(fixtures.values(), versions)
    assert {i: fx.since for i, fx in fixtures.items()} == computed


def test_applies_to_compares_semver_not_text() -> None:
    fx = conformance.Fixture("x", "d", "grader", {}, conformance.Outcome(True),
                             conformance.Outcome(True), since="1.10.0")
    assert fx.applies_to("1.10.0") and fx.applies_to("2.0.0") and fx.applies_to(None)
    assert not fx.applies_to("1.9.0")  # "1.9.0" > "1.10.0" as text, not as semver


def test_run_skips_fixtures_newer_than_the_version(fixtures) -> None:
    chosen = [fixtures[i] for i in ("resultset-self-parent", "resultset-duplicate-attempt",
                                    "grader-minimal-valid")]
    report = conformance.run(REPO.version("1.2.0"), chosen, version="1.2.0")
    assert (report.fixtures, report.skipped, report.ok) == (2, 1, True)
    assert report.to_json()["skipped"] == 1
    # without a version every fixture runs: self-parent disagrees under 1.2.0 (no 'group')
    report = conformance.run(REPO.version("1.2.0"), chosen)
    assert (report.fixtures, report.skipped) == (3, 0)
    assert {d.fixture_id for d in report.disagreements} == {"resultset-self-parent"}


def test_cli_release_run_agrees_and_reports_skips(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # --spec-version 1.0.0 runs 1.0.0's frozen set: the draft fixtures whose since is 1.0.0
    ran = sum(json.loads(p.read_text())["since"] == "1.0.0" for p in FIXTURES.glob("*.json"))
    assert main(["-C", str(ROOT), "conformance", "--spec-version", "1.0.0"]) == 0
    assert capsys.readouterr().out == f"{ran} fixtures: {ran} agree, 0 disagree\n"
    # a folder given with --fixtures is filtered by version: newer fixtures are skipped and counted
    folder = copy_fixtures(tmp_path, "resultset-self-parent", "grader-minimal-valid")
    assert main(["-C", str(ROOT), "conformance", "--spec-version", "1.0.0", "--fixtures", str(folder)]) == 0
    assert capsys.readouterr().out == ("1 fixtures: 1 agree, 0 disagree, 1 skipped "
                                       "(not applying to 1.0.0)\n")
    assert ran >= 20


def test_cli_compute_since_flags_a_wrong_value(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    folder = copy_fixtures(tmp_path, "resultset-self-parent", "grader-minimal-valid")
    args = ["-C", str(ROOT), "conformance", "--fixtures", str(folder), "--compute-since"]
    assert main(args) == 0
    assert capsys.readouterr().out == "grader-minimal-valid 1.0.0\nresultset-self-parent 1.3.0\n"
    p = folder / "resultset-self-parent.json"
    p.write_text(json.dumps({**json.loads(p.read_text()), "since": "1.2.0"}))
    assert main(args) == 1
    assert "resultset-self-parent 1.3.0  (file says 1.2.0)" in capsys.readouterr().out


@pytest.mark.parametrize("since", ["1.2", "v1.2.0", "1.2.0-rc.1", 120])
def test_meta_schema_rejects_a_malformed_since(tmp_path: Path, since: object) -> None:
    folder = copy_fixtures(tmp_path, "grader-minimal-valid")
    p = folder / "grader-minimal-valid.json"
    p.write_text(json.dumps({**json.loads(p.read_text()), "since": since}))
    with pytest.raises(InputError, match="not a valid fixture"):
        conformance.load_fixtures(folder)
