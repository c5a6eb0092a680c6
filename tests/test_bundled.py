"""``validate`` outside a spec repository: the spec bundled in the package (setup.py's build
hook) or, in an editable install, the repository the package lives in."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from evalport_spec.cli import main
from evalport_spec.errors import InputError
from evalport_spec.spec import SpecRepo
from evalport_spec.validation import Validator, bundled
from evalport_spec.validation.bundled import find_spec

ROOT = Path(__file__).resolve().parents[1]
RELEASES = SpecRepo(ROOT).releases()

_setup_spec = importlib.util.spec_from_file_location("evalport_setup", ROOT / "setup.py")
setup_py = importlib.util.module_from_spec(_setup_spec)
_setup_spec.loader.exec_module(setup_py)  # the __main__ guard keeps setup() from running

RS_100 = {"version": "1.0.0", "suite_id": "s", "run_id": "r", "started_at": "2026-11-01T09:00:00Z",
          "results": [{"test_case_id": "t", "grader_results": [], "passed": False, "attempt": 1}]}


def test_bundle_spec_copies_schemas_rules_and_version_of_every_version(tmp_path: Path) -> None:
    dest = tmp_path / "_bundled" / "spec"
    copied = setup_py.bundle_spec(ROOT / "spec", dest)
    rel = {str(p.relative_to(dest)) for p in copied}
    assert {"VERSION", "rules.json", "schemas/resultset.json", "schemas/suite.json"} <= rel
    for version in RELEASES:
        assert {f"releases/{version}/rules.json", f"releases/{version}/schemas/grader.json"} <= rel
    assert not any(r.endswith("SPEC.md") for r in rel)
    for version in RELEASES:  # every release's frozen conformance suite ships too
        frozen = {f"releases/{version}/conformance/fixtures/{p.name}"
                  for p in (ROOT / "spec/releases" / version / "conformance/fixtures").glob("*.json")}
        assert frozen and frozen <= rel
        assert f"releases/{version}/conformance/fixture.schema.json" in rel
    repo = SpecRepo(tmp_path / "_bundled")
    assert repo.releases() == RELEASES
    assert repo.declared_draft_version() == SpecRepo(ROOT).declared_draft_version()
    for name in repo.all_versions():  # every bundled version loads and validates
        validator = Validator(repo.version(name))
        assert validator.unimplemented == ()
        assert validator.validate({"id": "x", "type": "exact_match"}, "grader") == []


def test_bundle_spec_refuses_a_folder_without_schemas(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        setup_py.bundle_spec(tmp_path, tmp_path / "out")


def test_fallback_to_the_package_repository_from_a_tmp_cwd(tmp_path: Path) -> None:
    # an editable install: no _bundled folder, the package's own repository is used
    assert find_spec(cwd=tmp_path).root == ROOT


def test_bundled_copy_is_used_when_present(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    setup_py.bundle_spec(ROOT / "spec", tmp_path / "_bundled" / "spec")
    monkeypatch.setattr(bundled, "BUNDLED_ROOT", tmp_path / "_bundled")
    elsewhere = tmp_path / "work"
    elsewhere.mkdir()
    assert find_spec(cwd=elsewhere).root == tmp_path / "_bundled"


def test_enclosing_repository_and_repo_option_come_first(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    other = tmp_path / "other"
    (other / "spec" / "schemas").mkdir(parents=True)
    inside = other / "docs"
    inside.mkdir()
    assert find_spec(cwd=inside).root == other
    assert find_spec(explicit=inside).root == other
    with pytest.raises(InputError, match="not inside an EvalPort spec repository"):
        find_spec(explicit=tmp_path / "nowhere")


def test_no_repository_and_nothing_bundled_is_an_input_error(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bundled, "bundled_repo", lambda: None)
    with pytest.raises(InputError, match="not inside an EvalPort spec repository"):
        find_spec(cwd=tmp_path)


def test_validate_works_from_a_tmp_cwd(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    setup_py.bundle_spec(ROOT / "spec", tmp_path / "_bundled" / "spec")
    monkeypatch.setattr(bundled, "BUNDLED_ROOT", tmp_path / "_bundled")
    work = tmp_path / "work"
    work.mkdir()
    (work / "x.json").write_text(json.dumps(RS_100))
    monkeypatch.chdir(work)
    assert main(["validate", "x.json"]) == 1  # 1.0.0 has no 'attempt'
    assert capsys.readouterr().out.splitlines()[:2] == [
        "FAIL  x.json        resultset (spec 1.0.0): 1 error",
        # the first Result opens at column 104 of the one-line document
        "x.json:1:104: error document-invalid ADDITIONAL_PROPERTIES: /results/0: member 'attempt' not "
        "allowed (closed object)"]


def test_validate_help_states_the_resolution_order(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["validate", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "-C/--repo, else the one around the working directory, else the copy bundled" in text
