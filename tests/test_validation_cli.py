"""``evalport-spec validate``: exit codes, the three output shapes, input errors on one line."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from evalport_spec.spec import SpecRepo
from validate_cli import cli, write

ROOT = Path(__file__).resolve().parents[1]
DRAFT_VERSION = SpecRepo(ROOT).declared_draft_version()

VALID_GRADER = '{"id": "exact", "type": "exact_match"}\n'
# line 4 holds results[1]; its attempt (line 5, column 16) duplicates results[0]'s
DUP_ATTEMPT = """{"version": "1.3.0", "suite_id": "s", "run_id": "r", "started_at": "2026-11-01T09:00:00Z",
 "results": [
  {"test_case_id": "t", "grader_results": [], "passed": false, "attempt": 1},
  {"test_case_id": "t", "grader_results": [], "passed": false,
   "attempt": 1}]}
"""




def test_valid_file_exits_0_with_summary(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = write(tmp_path, "g.json", VALID_GRADER)
    assert cli(f) == 0
    assert capsys.readouterr().out == (f"ok    {f}  grader (spec draft ({DRAFT_VERSION})): valid\n"
                                       "1 file checked: 1 valid, 0 invalid, 0 errors\n")


def test_text_output_names_file_line_column_code_and_path(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = write(tmp_path, "rs.json", DUP_ATTEMPT)
    good = write(tmp_path, "g.json", VALID_GRADER)
    assert cli(bad, good) == 1
    lines = capsys.readouterr().out.splitlines()
    # DUP_ATTEMPT names version 1.3.0, a release: validated against it
    assert lines[0] == f"FAIL  {bad}  resultset (spec 1.3.0): 1 error"
    assert lines[1] == f"ok    {good}  grader (spec draft ({DRAFT_VERSION})): valid"
    assert lines[2].startswith(f"{bad}:5:15: error document-invalid DUPLICATE_ATTEMPT: /results/1/attempt: ")
    assert lines[3] == "2 files checked: 1 valid, 1 invalid, 1 error"


def test_json_output_shape(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = write(tmp_path, "rs.json", DUP_ATTEMPT)
    assert cli("--format", "json", bad) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["valid"] is False
    [entry] = out["files"]
    assert (entry["file"], entry["type"], entry["valid"]) == (bad, "resultset", False)
    [err] = entry["errors"]
    assert set(err) == {"code", "instance_path", "message", "line", "column"}
    assert (err["code"], err["instance_path"], err["line"], err["column"]) == (
        "DUPLICATE_ATTEMPT", "/results/1/attempt", 5, 15)


def test_github_annotations(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = write(tmp_path, "g.json", '{"id": "x",\n "type": "contains"}')
    assert cli("--format", "github", bad) == 1
    out = capsys.readouterr().out.splitlines()
    assert out == [f"::error file={bad},line=1,col=1,title=error document-invalid REQUIRED::/params: "
                   "required member 'params' is missing",
                   "::notice title=evalport-spec validate::1 file checked: 0 valid, 1 invalid, 1 error"]


def test_type_option_overrides_detection(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = write(tmp_path, "g.json", VALID_GRADER)
    assert cli("--type", "testcase", "--format", "json", f) == 1
    errors = json.loads(capsys.readouterr().out)["files"][0]["errors"]
    assert [(e["code"], e["instance_path"]) for e in errors] == [
        ("ADDITIONAL_PROPERTIES", ""), ("REQUIRED", "/graders"), ("REQUIRED", "/input")]


def test_released_version_is_selectable(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # attempt arrived in 1.2.0: a 1.0.0 Result is closed against it
    bad = write(tmp_path, "rs.json", DUP_ATTEMPT)
    assert cli("--spec-version", "1.0.0", "--format", "json", bad) == 1
    errors = json.loads(capsys.readouterr().out)["files"][0]["errors"]
    assert {(e["code"], e["instance_path"]) for e in errors} == {
        ("ADDITIONAL_PROPERTIES", "/results/0"), ("ADDITIONAL_PROPERTIES", "/results/1")}


def test_stdin(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(VALID_GRADER.encode())))
    assert cli("-") == 0
    assert "1 valid" in capsys.readouterr().out


@pytest.mark.parametrize(("text", "message"), [
    ('{"id": "x", "type": "a"', "malformed JSON"),
    ('{"id": "x", "id": "y", "type": "a"}', "duplicate object key 'id'"),
    ('{"id": "x", "type": "a", "weight": NaN}', "NaN/Infinity is not JSON"),
    ('{"name": "not evalport"}', "not an EvalPort document"),
])
def test_input_errors_exit_2_with_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                           text: str, message: str) -> None:
    f = write(tmp_path, "x.json", text)
    assert cli(f) == 2
    captured = capsys.readouterr()
    assert captured.out == "1 file checked: 0 valid, 0 invalid, 0 errors, 1 unreadable\n"
    [line] = captured.err.splitlines()
    assert line.startswith(f"evalport-spec: error: {f}:1:") and message in line


def test_missing_file_and_unknown_version_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli(str(tmp_path / "nope.json")) == 2
    assert "no such file" in capsys.readouterr().err
    assert cli("--spec-version", "9.9.9", write(tmp_path, "g.json", VALID_GRADER)) == 2
    assert "unknown spec version '9.9.9'" in capsys.readouterr().err


def test_root_pointer_is_shown_as_root_in_text(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = write(tmp_path, "g.json", '{"id": "x", "type": "exact_match", "extra": 1}')
    assert cli(f) == 1
    second = capsys.readouterr().out.splitlines()[1]
    assert second == (f"{f}:1:1: error document-invalid ADDITIONAL_PROPERTIES: (root): member 'extra' "
                      "not allowed (closed object)")
