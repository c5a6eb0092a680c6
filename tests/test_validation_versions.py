"""The spec version a document is validated against: its own ``version`` (SPEC.md,
"Versioning and compatibility"), as chosen by ``choose_version`` and used by ``validate``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evalport_spec.cli import main
from evalport_spec.spec import SpecRepo
from evalport_spec.validation.versions import UNSUPPORTED_VERSION, choose_version

ROOT = Path(__file__).resolve().parents[1]
DRAFT_VERSION = SpecRepo(ROOT).declared_draft_version()
RELEASES = ["1.0.0", "1.1.0", "1.2.0", "1.3.0"]


def choose(version: object, doc_type: str = "resultset", releases: list[str] = RELEASES,
           draft: str | None = "1.4.0"):
    doc = {"results": []} if version is None else {"version": version, "results": []}
    return choose_version(doc, doc_type, releases, draft)


@pytest.mark.parametrize(("version", "expected"), [
    ("1.0.0", "1.0.0"), ("1.3.0", "1.3.0"),  # exact releases
    ("1.4.0", "draft"),  # the draft's declared version
])
def test_exact_versions_need_no_note(version: str, expected: str) -> None:
    choice = choose(version)
    assert (choice.name, choice.note, choice.rejection) == (expected, None, None)


@pytest.mark.parametrize(("version", "expected", "words"), [
    ("1.9.0", "draft", "newer than every known 1.x"),  # higher minor: newest of major 1
    ("1.4.2", "draft", "newer than every known 1.x"),  # higher patch of the draft
    ("1.2.5", "1.2.0", "not a known spec version"),  # between releases: newest not above
    ("1.1.7", "1.1.0", "not a known spec version"),
])
def test_unknown_versions_of_a_known_major_get_the_nearest_with_a_note(
        version: str, expected: str, words: str) -> None:
    choice = choose(version)
    assert choice.name == expected and choice.rejection is None
    assert words in choice.note and version in choice.note


def test_higher_major_is_rejected_naming_both_versions() -> None:
    choice = choose("2.0.0")
    assert choice.name is None
    v = choice.rejection
    assert (v.code, v.instance_path) == (UNSUPPORTED_VERSION, "/version")
    assert "2.0.0" in v.message and "1.4.0" in v.message


def test_lower_major_without_any_known_version_is_rejected() -> None:
    choice = choose("0.9.0")
    assert choice.name is None and choice.rejection.code == UNSUPPORTED_VERSION
    assert "major version 0" in choice.rejection.message


@pytest.mark.parametrize("version", [None, 140, "abc", "1.4", "1.4.0-rc.1", "01.0.0"])
def test_absent_or_malformed_or_prerelease_version_goes_to_the_draft(version: object) -> None:
    assert choose(version) == choose_version({}, "suite", RELEASES, "1.4.0")
    assert choose(version).name == "draft" and choose(version).note is None


@pytest.mark.parametrize("doc_type", ["testcase", "grader"])
def test_unversioned_document_types_go_to_the_draft(doc_type: str) -> None:
    assert choose("2.0.0", doc_type).name == "draft"


def test_newest_of_the_major_is_the_latest_release_when_the_draft_is_a_new_major() -> None:
    assert choose("1.5.0", draft="2.0.0").name == "1.3.0"
    assert choose("2.1.0", draft="2.0.0").name == "draft"
    assert choose("3.0.0", draft="2.0.0").rejection.code == UNSUPPORTED_VERSION


def test_without_a_draft_version_the_releases_decide() -> None:
    assert choose("1.9.0", draft=None).name == "1.3.0"
    assert choose("1.0.5", releases=["1.1.0"], draft=None).name == "1.1.0"
    assert choose("1.0.0", releases=[], draft=None).name == "draft"


# --- through the command line ---------------------------------------------------------------

RS = {"suite_id": "s", "run_id": "r", "started_at": "2026-11-01T09:00:00Z",
      "results": [{"test_case_id": "t", "grader_results": [], "passed": False, "attempt": 1}]}


def write_rs(tmp_path: Path, version: str) -> str:
    p = tmp_path / f"rs-{version}.json"
    p.write_text(json.dumps({"version": version, **RS}))
    return str(p)


def cli(*args: str) -> int:
    return main(["-C", str(ROOT), "validate", *args])


def test_a_document_is_validated_against_the_version_it_names(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # attempt arrived in 1.2.0, so a 1.0.0 Result carrying it has a member too many
    old, new = write_rs(tmp_path, "1.0.0"), write_rs(tmp_path, "1.2.0")
    assert cli("--format", "json", old, new) == 1
    files = json.loads(capsys.readouterr().out)["files"]
    assert [(f["spec_version"], f["valid"]) for f in files] == [("1.0.0", False), ("1.2.0", True)]
    assert [(e["code"], e["instance_path"]) for e in files[0]["errors"]] == [
        ("ADDITIONAL_PROPERTIES", "/results/0")]


def test_spec_version_option_forces_one_version(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    assert cli("--spec-version", "1.3.0", write_rs(tmp_path, "1.0.0")) == 0
    assert "(spec 1.3.0): valid" in capsys.readouterr().out


def test_higher_major_exits_1_with_unsupported_version(tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    f = write_rs(tmp_path, "2.0.0")
    assert cli(f) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"FAIL  {f}  resultset (spec unsupported): 1 error"
    # the document is one line: "version" is its first member, its value at column 13
    assert lines[1].startswith(f"{f}:1:13: error document-invalid UNSUPPORTED_VERSION: /version: document version 2.0.0 ")


def test_newer_minor_is_validated_with_a_note_on_stderr(tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    f = write_rs(tmp_path, "1.7.0")
    assert cli(f) == 0
    captured = capsys.readouterr()
    assert captured.out.splitlines()[0] == f"ok    {f}  resultset (spec draft ({DRAFT_VERSION})): valid"
    assert captured.err == (f"evalport-spec: note: {f}: document version 1.7.0 is newer than "
                            "every known 1.x spec version; validated against the newest, "
                            f"draft ({DRAFT_VERSION})\n")
