"""``validate`` over many files: unreadable files are reported one line each and the others
still validated (exit 2 > 1 > 0), errors listed by line, the document type named per file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evalport_spec.errors import InputError
from evalport_spec.spec import SpecRepo
from evalport_spec.validation.files import EMPTY_FILE, read_document, validate_files
from evalport_spec.validation.report import FileError, FileReport
from validate_cli import cli, write

ROOT = Path(__file__).resolve().parents[1]
GRADER = '{"id": "exact", "type": "exact_match"}\n'
BAD_GRADER = '{"id": "x",\n "type": "contains"}\n'  # REQUIRED /params, reported at the root (1:1)




def test_empty_file_is_an_input_error_at_1_1(tmp_path: Path) -> None:
    with pytest.raises(InputError) as info:
        read_document(write(tmp_path, "e.json", ""))
    assert (info.value.message, info.value.line, info.value.column) == (EMPTY_FILE, 1, 1)
    assert EMPTY_FILE == "malformed JSON: empty file, expected a JSON document"


def test_unreadable_files_do_not_stop_the_others(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    empty = write(tmp_path, "empty.json", "")
    good = write(tmp_path, "good.json", GRADER)
    broken = write(tmp_path, "broken.json", '{"id": "x",\n  "type": }')
    bad = write(tmp_path, "bad.json", BAD_GRADER)
    missing = str(tmp_path / "missing.json")
    assert cli(empty, good, broken, bad, missing) == 2
    captured = capsys.readouterr()
    assert captured.err.splitlines() == [
        f"evalport-spec: error: {empty}:1:1: {EMPTY_FILE}",
        # the value after "type": is missing: line 2, column 11 (the '}')
        f"evalport-spec: error: {broken}:2:11: malformed JSON: Expecting value",
        f"evalport-spec: error: {missing}: no such file",
    ]
    out = captured.out.splitlines()
    assert out[0].startswith(f"ok    {good}  grader (spec draft")
    assert out[-1] == "5 files checked: 1 valid, 1 invalid, 1 error, 3 unreadable"
    assert f"{bad}:1:1: error document-invalid REQUIRED: /params: required member 'params' is missing" in out


def test_invalid_without_unreadable_exits_1(tmp_path: Path) -> None:
    assert cli(write(tmp_path, "g.json", GRADER), write(tmp_path, "b.json", BAD_GRADER)) == 1
    assert cli(write(tmp_path, "g2.json", GRADER)) == 0


def test_json_output_has_an_error_entry_per_unreadable_file(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    empty = write(tmp_path, "empty.json", "")
    good = write(tmp_path, "good.json", GRADER)
    assert cli("--format", "json", empty, good) == 2
    out = json.loads(capsys.readouterr().out)
    assert out["valid"] is False
    assert out["files"][0] == {"file": empty, "error": f"{empty}:1:1: {EMPTY_FILE}"}
    assert (out["files"][1]["file"], out["files"][1]["valid"]) == (good, True)


def test_github_output_annotates_unreadable_files(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    empty = write(tmp_path, "empty.json", "")
    assert cli("--format", "github", empty) == 2
    assert capsys.readouterr().out.splitlines()[0] == (
        f"::error file={empty},line=1,col=1,title=error input-error::{EMPTY_FILE}")


def test_not_an_evalport_document_is_unreadable_for_that_file_only(tmp_path: Path) -> None:
    other = write(tmp_path, "o.json", '{"name": "x"}')
    good = write(tmp_path, "g.json", GRADER)
    entries = validate_files(SpecRepo(ROOT), [other, good])
    assert isinstance(entries[0], FileError) and "not an EvalPort document" in str(entries[0].error)
    assert isinstance(entries[1], FileReport) and entries[1].valid


def test_errors_within_a_file_are_listed_by_line(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    # The validator orders by instance path: /results/0/grader_results/0/score (line 6) sorts
    # before /results/0/passed (line 4) because "g" < "p". Output lists them by line.
    text = """{"version": "1.3.0", "suite_id": "s", "run_id": "r",
 "started_at": "2026-11-01T09:00:00Z",
 "results": [{"test_case_id": "t",
   "passed": "yes",
   "grader_results": [
     {"grader_id": "g", "type": "exact_match", "score": 7, "passed": false}]}]}
"""
    f = write(tmp_path, "rs.json", text)
    assert cli(f) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[1] == f"{f}:4:14: error document-invalid TYPE: /results/0/passed: expected boolean, got string"
    assert lines[2].startswith(f"{f}:6:57: error document-invalid MAXIMUM: /results/0/grader_results/0/score: ")
    assert cli("--format", "json", f) == 1
    errors = json.loads(capsys.readouterr().out)["files"][0]["errors"]
    assert [(e["line"], e["column"]) for e in errors] == [(4, 14), (6, 57)]
