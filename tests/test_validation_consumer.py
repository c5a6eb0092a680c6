"""``validate --consumer``: a document that fails the version it names only through members a
later minor defines is accepted with a warning and checked against that later version; unknown
members of a newer minor are ignored with a warning; everything else stays an error; the
default stays strict. Expected outcomes are worked out from the releases' history: ``completed_at``
on a Result arrives in 1.1.0, ``group`` on the ResultSet in 1.3.0."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from evalport_spec.validation.consumer import consumer_outcome
from evalport_spec.validation.violation import Violation
from validate_cli import cli

ROOT = Path(__file__).resolve().parents[1]
GROUPED = json.loads((ROOT / "spec" / "examples" / "grouped-sweep-resultset.json").read_text())
STALE_WARNING = "stamped 1.0.0, uses `completed_at` from 1.1.0, `group` from 1.3.0"


def write(tmp_path: Path, name: str, doc: Any) -> str:
    path = tmp_path / name
    path.write_text(json.dumps(doc, indent=2), encoding="utf-8")
    return str(path)


def stale(**changes: Any) -> dict[str, Any]:
    """The grouped example (valid 1.3.0, three Results with ``completed_at``) stamped 1.0.0."""
    doc = copy.deepcopy(GROUPED)
    doc["version"] = "1.0.0"
    doc.update(changes)
    return doc


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, Any]]:
    code = cli("--format", "json", *args)
    return code, json.loads(capsys.readouterr().out)["files"][0]


def test_the_example_is_valid_under_the_version_it_names() -> None:
    assert GROUPED["version"] == "1.3.0" and "group" in GROUPED
    assert all("completed_at" in r for r in GROUPED["results"])


def test_default_stays_strict(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, entry = run(capsys, write(tmp_path, "stale.json", stale()))
    assert code == 1 and entry["spec_version"] == "1.0.0" and "warnings" not in entry
    assert [(e["code"], e["instance_path"]) for e in entry["errors"]] == [
        ("ADDITIONAL_PROPERTIES", ""), ("ADDITIONAL_PROPERTIES", "/results/0"),
        ("ADDITIONAL_PROPERTIES", "/results/1"), ("ADDITIONAL_PROPERTIES", "/results/2")]


def test_a_stale_stamp_is_accepted_with_a_warning(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    code, entry = run(capsys, "--consumer", write(tmp_path, "stale.json", stale()))
    assert code == 0
    assert (entry["spec_version"], entry["valid"], entry["errors"]) == ("1.3.0", True, [])
    assert entry["warnings"] == [STALE_WARNING]


def test_the_text_report_shows_the_warning_at_the_version(tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "stale.json", stale())
    assert cli("--consumer", path) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"ok    {path}  resultset (spec 1.3.0): valid, 1 warning"
    # "version" is the second member of the indented document: line 3, its value at column 14
    assert f"{path}:3:14: warning document-consumer-version: {STALE_WARNING}" in out


def test_other_errors_stay_errors_checked_against_the_later_version(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = stale()
    doc["results"][0]["passed"] = "yes"
    doc["results"][1]["colour"] = "red"  # defined by no version
    code, entry = run(capsys, "--consumer", write(tmp_path, "bad.json", doc))
    assert code == 1 and entry["spec_version"] == "1.3.0"
    assert [(e["code"], e["instance_path"], e["message"]) for e in entry["errors"]] == [
        ("TYPE", "/results/0/passed", "expected boolean, got string"),
        ("ADDITIONAL_PROPERTIES", "/results/1", "member 'colour' not allowed (closed object)")]
    assert entry["warnings"] == [STALE_WARNING]


def test_an_unknown_member_alone_is_not_tolerated_under_a_known_version(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = copy.deepcopy(GROUPED)
    doc["results"][0]["colour"] = "red"
    code, entry = run(capsys, "--consumer", write(tmp_path, "unknown.json", doc))
    assert code == 1 and "warnings" not in entry and entry["spec_version"] == "1.3.0"
    assert [e["code"] for e in entry["errors"]] == ["ADDITIONAL_PROPERTIES"]


def test_unknown_members_of_a_newer_minor_are_ignored(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    doc = copy.deepcopy(GROUPED)
    doc["version"] = "1.9.0"
    doc["results"][0]["colour"] = "red"
    path = write(tmp_path, "newer.json", doc)
    code, entry = run(capsys, path)
    assert code == 1 and entry["spec_version"].startswith("draft (")
    code, entry = run(capsys, "--consumer", path)
    draft = (ROOT / "spec" / "VERSION").read_text().strip()
    assert code == 0 and entry["spec_version"] == f"draft ({draft})" and entry["errors"] == []
    assert entry["warnings"] == [f"stamped 1.9.0, newer than every known 1.x version: ignored "
                                 f"`colour` (unknown to draft ({draft}))"]


def test_the_json_output_names_the_draft_number(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    grader = write(tmp_path, "grader.json", {"id": "exact", "type": "exact_match"})
    draft = (ROOT / "spec" / "VERSION").read_text().strip()
    assert run(capsys, grader)[1]["spec_version"] == f"draft ({draft})"


def v(code: str, where: str, *members: str) -> Violation:
    return Violation(code, where, f"{code} at {where}", members=members)


def test_outcome_keeps_errors_of_the_named_version_a_later_one_relaxed() -> None:
    # 1.0 requires /x (the document lacks it) and closes the root; 1.1 defines "group" and
    # makes /x optional: the REQUIRED error of 1.0 is not about a member, so it stays
    checks = {"1.0": [v("ADDITIONAL_PROPERTIES", "", "group"), v("REQUIRED", "/x")],
              "1.1": [], "1.2": []}
    out = consumer_outcome(checks.__getitem__, "1.0", "1.0.0", ["1.1", "1.2"], str, False)
    assert (out.name, [x.key() for x in out.violations]) == ("1.1", [("REQUIRED", "/x")])
    assert out.warnings == ["stamped 1.0.0, uses `group` from 1.1"]


def test_outcome_names_each_member_with_its_first_version() -> None:
    checks = {"1.0": [v("ADDITIONAL_PROPERTIES", "", "a", "b"), v("ADDITIONAL_PROPERTIES", "/r/0", "c")],
              "1.1": [v("ADDITIONAL_PROPERTIES", "", "b"), v("ADDITIONAL_PROPERTIES", "/r/0", "c")],
              "1.2": [v("ADDITIONAL_PROPERTIES", "/r/0", "c")],
              "1.3": []}
    out = consumer_outcome(checks.__getitem__, "1.0", "1.0.0", ["1.1", "1.2", "1.3"], str, False)
    assert out.name == "1.3" and out.violations == []
    assert out.warnings == ["stamped 1.0.0, uses `a` from 1.1, `b` from 1.2, `c` from 1.3"]


def test_outcome_is_strict_when_no_later_version_defines_the_members() -> None:
    strict = [v("ADDITIONAL_PROPERTIES", "", "zzz")]
    checks = {"1.0": strict, "1.1": strict}
    out = consumer_outcome(checks.__getitem__, "1.0", "1.0.0", ["1.1"], str, False)
    assert (out.name, out.violations, out.warnings) == ("1.0", strict, [])
