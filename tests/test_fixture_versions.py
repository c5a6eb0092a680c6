"""Versioned conformance fixtures (issue 12): ``since`` required, ``until`` ending a case, releases
freezing the fixtures that apply to them, the 1.0.0-1.3.0 backfill, the gate running every
release's frozen set, ``conformance --spec-version`` and ``--command ... {file}``, and the suite
shipped in the wheel. Expected fixture sets are computed here from the files' own ``since``
values with plain tuple comparisons, not with the code under test."""

from __future__ import annotations

import copy
import datetime as dt
import hashlib
import json
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from evalport_spec import conformance
from evalport_spec.cli import main
from evalport_spec.errors import InputError
from evalport_spec.fixtures import Fixture, Outcome
from evalport_spec.gate import run_gate
from evalport_spec.release import apply_plan, plan_release
from evalport_spec.spec import SpecRepo
from gate_repo import accept_rfc, edit_json, make_repo, tree_hash

ROOT = Path(__file__).resolve().parents[1]
DRAFT_FIXTURES = ROOT / "spec/conformance/fixtures"
BACKFILLED = ("1.0.0", "1.1.0", "1.2.0", "1.3.0")


def vt(text: str) -> tuple[int, ...]:
    return tuple(int(x) for x in text.split("."))


def draft_since() -> dict[str, str]:
    return {p.stem: json.loads(p.read_text())["since"] for p in DRAFT_FIXTURES.glob("*.json")}


@pytest.fixture
def repo(tmp_path):
    return make_repo(tmp_path)


# --- the model ---------------------------------------------------------------------------------------

def test_until_ends_a_fixture_in_semver_order():
    fx = Fixture("x", "d", "grader", {}, Outcome(True), Outcome(True), since="1.2.0", until="2.0.0")
    assert [v for v in ("1.1.9", "1.2.0", "1.10.0", "1.99.3", "2.0.0", "2.1.0") if fx.applies_to(v)] == [
        "1.2.0", "1.10.0", "1.99.3"]


def test_meta_schema_requires_since_and_until_must_be_above_it(tmp_path):
    folder = tmp_path / "conformance" / "fixtures"
    folder.mkdir(parents=True)
    (folder.parent / "fixture.schema.json").write_bytes((ROOT / "spec/conformance/fixture.schema.json").read_bytes())
    doc = json.loads((DRAFT_FIXTURES / "grader-minimal-valid.json").read_text())
    p = folder / "grader-minimal-valid.json"
    p.write_text(json.dumps({k: v for k, v in doc.items() if k != "since"}, indent=2))
    with pytest.raises(InputError, match="not a valid fixture: 'since' is a required property") as exc:
        conformance.load_fixtures(folder)
    assert exc.value.source == str(p) and exc.value.line == 1
    p.write_text(json.dumps({**doc, "until": "1.0.0"}, indent=2))  # since is 1.0.0
    with pytest.raises(InputError, match="until 1.0.0 is not above its since 1.0.0") as exc:
        conformance.load_fixtures(folder)
    assert exc.value.pointer == "/until"


# --- the backfill: releases 1.0.0-1.3.0 hold their applicable fixtures --------------------------------

@pytest.mark.parametrize("version", BACKFILLED)
def test_backfilled_release_holds_its_fixtures_and_agrees_with_them(version):
    repo = SpecRepo(ROOT)
    frozen_dir = repo.releases_dir / version / "conformance"
    frozen = {p.stem for p in (frozen_dir / "fixtures").glob("*.json")}
    assert frozen == {i for i, s in draft_since().items() if vt(s) <= vt(version)}
    meta = json.loads((frozen_dir / "fixture.schema.json").read_text())
    assert meta["$id"] == f"https://evalport.github.io/spec/{version}/conformance/fixture.schema.json"
    spec = repo.version(version)
    assert {fx.id for fx in spec.fixtures} == frozen
    report = conformance.run(spec, spec.fixtures)
    assert (report.fixtures, report.disagreements) == (len(frozen), [])
    sums = (repo.releases_dir / "SHA256SUMS").read_text()
    for p in sorted(frozen_dir.rglob("*.json")):
        rel = p.relative_to(repo.releases_dir).as_posix()
        assert f"{hashlib.sha256(p.read_bytes()).hexdigest()}  {rel}\n" in sums


def test_backfill_counts():
    # the draft's since values: 71 fixtures since 1.0.0, 1 since 1.1.0, 15 since 1.2.0, 4 since 1.3.0
    counts = {v: len(list((ROOT / "spec/releases" / v / "conformance/fixtures").glob("*.json"))) for v in BACKFILLED}
    since = list(draft_since().values())
    assert counts == {v: sum(vt(s) <= vt(v) for s in since) for v in BACKFILLED}
    assert counts == {"1.0.0": 71, "1.1.0": 72, "1.2.0": 87, "1.3.0": 91}


# --- the gate runs every version's own set --------------------------------------------------------------

def test_gate_conformance_runs_each_release_against_its_frozen_set(repo):
    stage = run_gate(repo, stages=["conformance"]).stage("conformance")
    assert stage.status == "ok" and stage.summary == "fixture(s): 71 1.0.0, 72 1.1.0, 87 1.2.0, 91 1.3.0, 91 draft"
    frozen = repo / "spec/releases/1.2.0/conformance/fixtures/resultset-duplicate-attempt.json"
    edit_json(frozen, lambda d: d["expect"]["full"]["errors"][0].__setitem__("instance_path", "/results/0/attempt"))
    stage = run_gate(repo, stages=["conformance"]).stage("conformance")
    [f] = stage.errors
    assert (f.kind, f.new.file, f.extra["version"]) == (
        "conformance-disagreement", "spec/releases/1.2.0/conformance/fixtures/resultset-duplicate-attempt.json", "1.2.0")


def test_gate_refuses_a_draft_fixture_without_since_and_a_release_without_fixtures(repo):
    edit_json(repo / "spec/conformance/fixtures/grader-empty-id.json", lambda d: d.pop("since"))
    stage = run_gate(repo, stages=["conformance"]).stage("conformance")
    assert stage.status == "fail"
    assert [(f.new.file, f.new.line) for f in stage.errors] == [("spec/conformance/fixtures/grader-empty-id.json", 1)]
    assert "'since' is a required property" in stage.errors[0].message
    edit_json(repo / "spec/conformance/fixtures/grader-empty-id.json", lambda d: d.__setitem__("since", "1.5.0"))
    for p in (repo / "spec/releases/1.1.0/conformance/fixtures").glob("*.json"):
        p.unlink()
    found = sorted((f.kind, f.new.file, f.new.pointer) for f in
                   run_gate(repo, stages=["conformance"]).stage("conformance").errors)
    assert found == [("conformance-release-unfrozen", "spec/releases/1.1.0/conformance/fixtures", None),
                     ("conformance-since-ahead", "spec/conformance/fixtures/grader-empty-id.json", "/since")]


# --- release: freezing, refusing a fixture without since ------------------------------------------------

def test_release_freezes_what_applies_and_leaves_out_retired_fixtures(repo):
    fixtures = repo / "spec/conformance/fixtures"
    edit_json(fixtures / "resultset-error-type-unknown.json", lambda d: d.__setitem__("until", "1.4.0"))
    new = json.loads((fixtures / "grader-minimal-valid.json").read_text())
    new.update(id="grader-minimal-valid-again", since="1.4.0")
    (fixtures / "grader-minimal-valid-again.json").write_text(json.dumps(new, indent=2) + "\n")
    accept_rfc(repo, 7)  # it records SPEC.md's normative changes since 1.3.0, so it is in the release
    plan = plan_release(repo, "1.4.0", date="2026-11-30", today=dt.date(2026, 11, 30))
    frozen = {k for k in plan.release_files if k.startswith("conformance/fixtures/")}
    expected = {f"conformance/fixtures/{i}.json" for i in draft_since()} - {
        "conformance/fixtures/resultset-error-type-unknown.json"} | {"conformance/fixtures/grader-minimal-valid-again.json"}
    assert frozen == expected
    assert plan.release_files["conformance/fixtures/grader-minimal-valid-again.json"] == (
        fixtures / "grader-minimal-valid-again.json").read_bytes()
    apply_plan(repo, plan)
    assert run_gate(repo, stages=["manifest"]).stage("manifest").status == "ok"
    spec = SpecRepo(repo).version("1.4.0")
    assert len(spec.fixtures) == len(expected) and not conformance.run(spec, spec.fixtures).disagreements


def test_release_with_a_fixture_lacking_since_is_refused(repo, capsys):
    edit_json(repo / "spec/conformance/fixtures/suite-minimal-valid.json", lambda d: d.pop("since"))
    before = tree_hash(repo)
    assert main(["-C", str(repo), "release", "1.4.0"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1
    assert err.startswith(f"evalport-spec: error: {repo}/spec/conformance/fixtures/suite-minimal-valid.json:1:1: ")
    assert "'since' is a required property" in err
    assert tree_hash(repo) == before


@pytest.mark.slow
def test_after_a_major_release_older_versions_still_agree_on_every_fixture(repo, capsys):
    """Issue 12's 2.0.0 scenario: 1.4.0 released, then a MAJOR change (provider_error leaves
    Error.type) ends one fixture (until 2.0.0) and adds two; after 2.0.0 each version still
    agrees with every fixture of its own."""
    today = dt.date(2026, 11, 30)
    accept_rfc(repo, 7)  # it records SPEC.md's normative changes since 1.3.0, so it is in the release
    apply_plan(repo, plan_release(repo, "1.4.0", date="2026-11-30", today=today))
    edit_json(repo / "spec/schemas/resultset.json",
              lambda d: d["$defs"]["error"]["properties"]["type"]["enum"].remove("provider_error"))
    fixtures = repo / "spec/conformance/fixtures"
    old = json.loads((fixtures / "resultset-all-optional-fields.json").read_text())
    edit_json(fixtures / "resultset-all-optional-fields.json", lambda d: d.__setitem__("until", "2.0.0"))
    again = copy.deepcopy(old)
    again.update(id="resultset-all-optional-fields-2", since="2.0.0")
    n = next(i for i, r in enumerate(again["document"]["results"]) if r.get("error", {}).get("type") == "provider_error")
    again["document"]["results"][n]["error"]["type"] = "runner_error"
    (fixtures / "resultset-all-optional-fields-2.json").write_text(json.dumps(again, indent=2) + "\n")
    gone = copy.deepcopy(old)
    gone.update(id="resultset-provider-error-gone", since="2.0.0", description="provider_error left Error.type in 2.0.0.")
    gone.pop("rules", None)
    gone["expect"] = {"schema": {"valid": False},
                      "full": {"valid": False, "errors": [{"code": "ENUM", "instance_path": f"/results/{n}/error/type"}]}}
    (fixtures / "resultset-provider-error-gone.json").write_text(json.dumps(gone, indent=2) + "\n")
    (repo / "spec/VERSION").write_text("2.0.0\n")
    plan = plan_release(repo, "2.0.0", date="2026-11-30", today=today)
    assert plan.change_class == "MAJOR"
    apply_plan(repo, plan)
    ran = {}
    for version in ("1.3.0", "1.4.0", "2.0.0"):
        assert main(["-C", str(repo), "conformance", "--spec-version", version]) == 0
        ran[version] = capsys.readouterr().out
    n_draft = len(draft_since())  # the draft as copied: 91 fixtures
    assert ran == {"1.3.0": "91 fixtures: 91 agree, 0 disagree\n",
                   "1.4.0": f"{n_draft} fixtures: {n_draft} agree, 0 disagree\n",
                   "2.0.0": f"{n_draft + 1} fixtures: {n_draft + 1} agree, 0 disagree\n"}
    assert not (repo / "spec/releases/2.0.0/conformance/fixtures/resultset-all-optional-fields.json").exists()
    assert (repo / "spec/releases/1.4.0/conformance/fixtures/resultset-all-optional-fields.json").exists()
    assert run_gate(repo, stages=["conformance"]).stage("conformance").status == "ok"


# --- conformance --command with {file}; the suite in the wheel ------------------------------------------

ECHO_IMPL = """import json, os, sys
path = sys.argv[1]
doc = json.load(open(path))
assert json.loads(sys.stdin.read()) == doc  # the same document on stdin
open(sys.argv[2], "a").write(path + "\\n")
print(json.dumps({"valid": True, "errors": []}))
"""


def test_command_reads_the_document_from_a_file(tmp_path, capsys):
    impl = tmp_path / "impl.py"
    impl.write_text(ECHO_IMPL)
    seen = tmp_path / "seen.txt"
    cmd = f"{sys.executable} {impl} {{file}} {seen}"
    assert main(["-C", str(ROOT), "conformance", "--spec-version", "1.0.0", "--command", cmd]) == 1
    out = capsys.readouterr().out
    valid = sum(json.loads(p.read_text())["expect"]["full"]["valid"]
                for p in (ROOT / "spec/releases/1.0.0/conformance/fixtures").glob("*.json"))
    assert out.endswith(f"71 fixtures: {valid} agree, {71 - valid} disagree\n")  # it calls everything valid
    paths = seen.read_text().split()
    assert len(paths) == 71 and all(p.endswith(".json") and not Path(p).exists() for p in paths)


@pytest.mark.slow
def test_conformance_from_an_installed_wheel_outside_the_repository(tmp_path):
    """Build the wheel, unpack it as an installation, and run a release's suite from a folder
    outside any spec repository with an adapter around the unpacked package's validator."""
    src, dist = tmp_path / "src", tmp_path / "dist"
    ignore = shutil.ignore_patterns("__pycache__", "*.egg-info", "build")
    for name in ("tools", "spec"):
        shutil.copytree(ROOT / name, src / name, ignore=ignore)
    for name in ("setup.py", "pyproject.toml", "MANIFEST.in", "README.md"):
        shutil.copy(ROOT / name, src / name)
    subprocess.run([sys.executable, "-m", "pip", "wheel", str(src), "--no-deps", "--no-build-isolation",
                    "-q", "-w", str(dist)], check=True, capture_output=True, cwd=tmp_path)
    [wheel] = dist.glob("evalport_spec-*.whl")
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    frozen = site / "evalport_spec/_bundled/spec/releases/1.3.0/conformance/fixtures"
    assert {p.name for p in frozen.glob("*.json")} == {
        p.name for p in (ROOT / "spec/releases/1.3.0/conformance/fixtures").glob("*.json")}
    adapter = tmp_path / "adapter.py"
    adapter.write_text(
        f"import json, os, sys\nsys.path.insert(0, {str(site)!r})\n"
        "from evalport_spec.validation import Validator\nfrom evalport_spec.validation.bundled import find_spec\n"
        "spec = find_spec().version('1.3.0')\n"
        "errs = Validator(spec).validate(json.load(open(sys.argv[1])), os.environ['EVALPORT_DOCUMENT_TYPE'])\n"
        "print(json.dumps({'valid': not errs, 'errors': [{'code': e.code, 'instance_path': e.instance_path} "
        "for e in errs]}))\n")
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    code = (f"import sys\nsys.path.insert(0, {str(site)!r})\nimport evalport_spec\n"
            f"assert evalport_spec.__file__.startswith({str(site)!r}), evalport_spec.__file__\n"
            "from evalport_spec.cli import main\n"
            f"sys.exit(main(['conformance', '--spec-version', '1.3.0', '--command', "
            f"{sys.executable + ' ' + str(adapter) + ' {file}'!r}]))\n")
    proc = subprocess.run([sys.executable, "-c", code], cwd=outside, capture_output=True, text=True, timeout=600)
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, "91 fixtures: 91 agree, 0 disagree\n", "")


def test_a_fixture_meta_schema_that_is_no_schema_is_refused_each_time_it_is_read():
    """The meta-schema check is kept per content (fixtures.parse_fixtures): a broken one is
    refused on every read, with the validator's message, and a valid one still parses."""
    from evalport_spec.fixtures import parse_fixtures

    for _ in range(2):
        with pytest.raises(InputError) as err:
            parse_fixtures([], {"type": 5}, "meta/fixture.schema.json")
        assert "not a valid schema (JSON Schema 2020-12): 5 is not valid under any of the given schemas" \
            in str(err.value) and "meta/fixture.schema.json" in str(err.value)
    assert parse_fixtures([], {"type": "object"}) == []
