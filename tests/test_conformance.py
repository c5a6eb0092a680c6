"""Conformance fixtures and runner: the repository's fixtures, loading errors, disagreements,
and the ``--command`` protocol with a small Python script as the other implementation."""

from __future__ import annotations

import io
import json
import os
import shlex
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from evalport_spec import conformance
from evalport_spec.cli import main
from evalport_spec.errors import InputError
from evalport_spec.spec import DOC_TYPES, SpecRepo

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "spec" / "conformance" / "fixtures"


@pytest.fixture(scope="module")
def draft():
    return SpecRepo(ROOT).version("draft")


@pytest.fixture(scope="module")
def fixtures() -> list[conformance.Fixture]:
    return conformance.load_fixtures(FIXTURES)


def test_every_fixture_agrees_with_the_validator(draft, fixtures) -> None:
    report = conformance.run(draft, fixtures)
    assert [d.describe() for d in report.disagreements] == []
    assert report.fixtures == len(fixtures) >= 45


def test_fixture_coverage(draft, fixtures) -> None:
    for t in DOC_TYPES:
        assert any(f.document_type == t and f.full.valid for f in fixtures), f"no valid {t}"
        assert any(f.document_type == t and not f.full.valid for f in fixtures), f"no invalid {t}"
    for entry in draft.catalogue.rules:
        rejecting = [f for f in fixtures if entry.code in {c for c, _ in f.full.errors or ()}]
        assert rejecting, f"no fixture rejected with {entry.code}"
        # the gap: a hand-rolled rule's rejecting fixture passes the raw schema; an encoded one does not
        assert any(f.schema.valid is not entry.encoded for f in rejecting), entry.code
        assert any(f.full.valid and entry.code in f.rules for f in fixtures), f"no near neighbour of {entry.code}"
    codes = {c for f in fixtures for c, _ in f.full.errors or ()}
    assert {"FORMAT", "ADDITIONAL_PROPERTIES", "TYPE", "REQUIRED"} <= codes


def copy_fixtures(tmp_path: Path, *ids: str) -> Path:
    folder = tmp_path / "fixtures"
    folder.mkdir()
    shutil.copy(ROOT / "spec/conformance/fixture.schema.json", tmp_path / "fixture.schema.json")
    for i in ids:
        shutil.copy(FIXTURES / f"{i}.json", folder / f"{i}.json")
    return folder


def edit(path: Path, change) -> None:
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data))


def test_runner_reports_a_deliberately_wrong_fixture(tmp_path: Path, draft) -> None:
    folder = copy_fixtures(tmp_path, "resultset-duplicate-attempt", "grader-minimal-valid",
                           "suite-duplicate-test-case-id")
    # wrong instance path; wrong schema verdict (the gap is real: the schema accepts it)
    edit(folder / "resultset-duplicate-attempt.json",
         lambda d: d["expect"]["full"]["errors"][0].update(instance_path="/results/0/attempt"))
    edit(folder / "suite-duplicate-test-case-id.json",
         lambda d: d["expect"].update(schema={"valid": False}))
    report = conformance.run(draft, conformance.load_fixtures(folder))
    assert not report.ok and report.fixtures == 3
    got = [(d.fixture_id, d.path) for d in report.disagreements]
    assert got == [("resultset-duplicate-attempt", "full"), ("suite-duplicate-test-case-id", "schema")]
    d = report.disagreements[0]
    assert d.expected.errors == {("DUPLICATE_ATTEMPT", "/results/0/attempt")}
    assert d.actual.errors == {("DUPLICATE_ATTEMPT", "/results/1/attempt")}


def test_cli_exit_codes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = copy_fixtures(tmp_path, "grader-minimal-valid", "grader-missing-type")
    assert main(["-C", str(ROOT), "conformance", "--fixtures", str(folder)]) == 0
    assert capsys.readouterr().out == "2 fixtures: 2 agree, 0 disagree\n"
    edit(folder / "grader-missing-type.json",
         lambda d: d["expect"]["full"].update(errors=[{"code": "TYPE", "instance_path": "/type"}]))
    assert main(["-C", str(ROOT), "conformance", "--fixtures", str(folder), "--format", "json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["agree"] is False and out["fixtures"] == 2
    assert out["disagreements"] == [{
        "fixture": "grader-missing-type", "path": "full", "detail": "",
        "expected": {"valid": False, "errors": [{"code": "TYPE", "instance_path": "/type"}]},
        "actual": {"valid": False, "errors": [{"code": "REQUIRED", "instance_path": "/type"}]}}]


@pytest.mark.parametrize(("change", "message"), [
    (lambda d: d.update(id="other-name"), "differs from the file name"),
    (lambda d: d.pop("expect"), "not a valid fixture"),
    (lambda d: d["expect"].update(full={"valid": False}), "not a valid fixture"),
    (lambda d: d["expect"].update(schema={"valid": False}, full={"valid": True}), "not a valid fixture"),
    (lambda d: d.update(document_type="result"), "not a valid fixture"),
])
def test_load_fixtures_rejects_bad_fixtures(tmp_path: Path, change, message: str) -> None:
    folder = copy_fixtures(tmp_path, "grader-minimal-valid")
    edit(folder / "grader-minimal-valid.json", change)
    with pytest.raises(InputError, match=message) as exc:
        conformance.load_fixtures(folder)
    assert "grader-minimal-valid.json" in str(exc.value)


def test_load_fixtures_rejects_malformed_json_and_missing_folder(tmp_path: Path) -> None:
    folder = copy_fixtures(tmp_path)
    (folder / "broken.json").write_text('{"id": "broken",')
    with pytest.raises(InputError, match="malformed JSON"):
        conformance.load_fixtures(folder)
    with pytest.raises(InputError, match="does not exist"):
        conformance.load_fixtures(tmp_path / "nowhere")


# --- the --command protocol ----------------------------------------------------------------------

OTHER_IMPL = '''
import json, os, sys
doc = json.load(sys.stdin)
kind = os.environ["EVALPORT_DOCUMENT_TYPE"]
errors = []
if kind == "grader" and "type" not in doc:
    errors.append({"code": "REQUIRED", "instance_path": "/type"})
if kind == "resultset":
    seen = set()
    for n, r in enumerate(doc["results"]):
        key = (r["test_case_id"], r.get("attempt"))
        if r.get("attempt") is not None and key in seen:
            errors.append({"code": "DUPLICATE_ATTEMPT", "instance_path": "/results/%d/attempt" % n})
        seen.add(key)
print(json.dumps({"valid": not errors, "errors": errors}))
'''


def command_for(tmp_path: Path, source: str) -> str:
    script = tmp_path / "impl.py"
    script.write_text(source)
    return shlex.join([sys.executable, str(script)])


def test_command_protocol_agreement_and_disagreement(tmp_path: Path, draft) -> None:
    folder = copy_fixtures(tmp_path, "grader-minimal-valid", "grader-missing-type",
                           "resultset-duplicate-attempt", "resultset-distinct-attempts",
                           "resultset-started-at-date-only")
    report = conformance.run(draft, conformance.load_fixtures(folder), command=command_for(tmp_path, OTHER_IMPL))
    # the toy implementation does not check formats: exactly that fixture disagrees
    assert [(d.fixture_id, d.path, d.actual) for d in report.disagreements] == [
        ("resultset-started-at-date-only", "full", conformance.Outcome(True, frozenset()))]


def test_command_bad_output_and_timeout_are_disagreements(tmp_path: Path) -> None:
    [fx] = conformance.load_fixtures(copy_fixtures(tmp_path, "grader-minimal-valid"))
    outcome, detail = conformance.run_command(command_for(tmp_path, "print('hello')"), fx)
    assert outcome is None and detail.startswith("no answer: output is not JSON")
    outcome, detail = conformance.run_command(command_for(tmp_path, "print('{\"valid\": 1}')"), fx)
    assert outcome is None and "boolean 'valid'" in detail
    outcome, detail = conformance.run_command(
        command_for(tmp_path, "import time; time.sleep(30)"), fx, timeout=0.5)
    assert outcome is None and detail == "no answer: timed out after 0.5 s"


def test_a_command_that_never_answers_ends_the_run_after_a_few_time_outs(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Red team: 91 fixtures of 10 s each kept `conformance --command "sleep 30"` running for
    15 minutes; after MAX_TIMEOUTS (3) time-outs the rest are not run, and counted as not run
    (they were counted as disagreements: "91 fixtures: 0 agree, 91 disagree")."""
    names = ["grader-minimal-valid", "grader-missing-type", "resultset-distinct-attempts",
             "resultset-duplicate-attempt", "resultset-started-at-date-only"]  # the run's order
    folder = copy_fixtures(tmp_path, *names)
    slow = command_for(tmp_path, "import time; time.sleep(30)")
    args = ["-C", str(ROOT), "conformance", "--fixtures", str(folder), "--command", slow, "--timeout", "0.5"]
    assert main(args) == 1
    assert capsys.readouterr().out.splitlines()[-1] == (
        "5 fixtures: 0 agree, 3 disagree, 2 not run (the command timed out on 3 fixtures, 0.5 s each)")
    assert main([*args, "--format", "json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert [d["detail"] for d in out["disagreements"]] == ["no answer: timed out after 0.5 s"] * 3
    assert (out["not_run"], out["agree"]) == (names[3:], False)
    assert [(f["kind"], f["severity"], f["new"]["file"]) for f in out["findings"]] == [
        ("conformance-disagreement", "error", f"{folder}/{n}.json") for n in names[:3]] + [
        ("conformance-not-run", "error", str(folder))]
    assert out["findings"][-1]["message"] == ("2 fixture(s) not run: the command timed out on 3 "
                                              "fixtures, 0.5 s each")


def test_a_command_that_writes_too_much_disagrees_fixture_by_fixture(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """fresh36: `conformance --command 'cat {file} /dev/zero'` stopped the whole run with one line
    naming only the program (`output of --command 'cat' is larger than the 16777216-byte limit`),
    exit 2. Too much output is the command's answer to one fixture, as a time-out is: each such
    fixture disagrees by name, and after 3 of them the rest are not run (16 MiB each)."""
    names = ["grader-minimal-valid", "grader-missing-type", "resultset-distinct-attempts",
             "resultset-duplicate-attempt", "resultset-started-at-date-only"]  # the run's order
    folder = copy_fixtures(tmp_path, *names)
    args = ["-C", str(ROOT), "conformance", "--fixtures", str(folder), "--command", "cat {file} /dev/zero",
            "--format", "json"]
    assert main(args) == 1
    out = json.loads(capsys.readouterr().out)
    too_much = "no answer: output larger than the 16777216-byte limit; stopped it"
    assert [(d["fixture"], d["detail"]) for d in out["disagreements"]] == [(n, too_much) for n in names[:3]]
    assert out["not_run"] == names[3:]
    assert out["stopped"] == "the command wrote more than the 16777216-byte limit on 3 fixtures"
    assert [(f["kind"], f["new"]["file"]) for f in out["findings"]][:3] == [
        ("conformance-disagreement", f"{folder}/{n}.json") for n in names[:3]]


def test_command_that_cannot_start_is_an_input_error(tmp_path: Path) -> None:
    [fx] = conformance.load_fixtures(copy_fixtures(tmp_path, "grader-minimal-valid"))
    with pytest.raises(InputError, match="cannot run command"):
        conformance.run_command(str(tmp_path / "no-such-program"), fx)


# --- time limits, Ctrl-C and progress -----------------------------------------------------------

def _alive(pid: int) -> bool:
    """Whether process ``pid`` runs (exists and is no zombie), read from /proc (Linux)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def _waiting_command(pidfile: Path) -> str:
    # a shell that starts a child of its own, records the child's pid and waits on it
    return shlex.join(["sh", "-c", f"sleep 300 & echo $! > {shlex.quote(str(pidfile))}; wait"])


def _started(pidfile: Path) -> int:
    deadline = time.monotonic() + 60
    while not (pidfile.exists() and pidfile.read_text().strip()) and time.monotonic() < deadline:
        time.sleep(0.05)
    return int(pidfile.read_text())


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_timed_out_command_is_killed_with_the_processes_it_started(tmp_path: Path) -> None:
    [fx] = conformance.load_fixtures(copy_fixtures(tmp_path, "grader-minimal-valid"))
    pidfile = tmp_path / "pid"
    # 3 s: time for the shell to start its child and record it even on a loaded machine
    outcome, detail = conformance.run_command(_waiting_command(pidfile), fx, timeout=3)
    assert outcome is None and detail == "no answer: timed out after 3 s"
    assert not _alive(_started(pidfile))  # the shell's child went with it


def test_cli_timeout_reports_each_fixture_and_refuses_nonsense(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    folder = copy_fixtures(tmp_path, "grader-minimal-valid", "grader-missing-type")
    slow = command_for(tmp_path, "import time; time.sleep(30)")
    assert main(["-C", str(ROOT), "conformance", "--fixtures", str(folder), "--command", slow,
                 "--timeout", "0.5", "--format", "json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert [(f["extra"]["fixture"], f["message"].split("; got ")[1]) for f in report["findings"]] == [
        ("grader-minimal-valid", "no answer: timed out after 0.5 s"),
        ("grader-missing-type", "no answer: timed out after 0.5 s")]
    for value in ("0", "-1", "nan", "inf", "ten"):
        with pytest.raises(SystemExit) as exc:
            main(["conformance", "--command", slow, "--timeout", value])
        assert exc.value.code == 2
        err = capsys.readouterr().err.strip()
        assert err == f"evalport-spec conformance: error: argument --timeout: must be a number greater than 0 and at most 86400, not '{value}'"
    assert main(["-C", str(ROOT), "conformance", "--timeout", "5"]) == 2
    assert "--timeout applies to --command" in capsys.readouterr().err


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
@pytest.mark.parametrize(("signum", "code", "said"), [
    (signal.SIGINT, 130, "evalport-spec: interrupted"),  # what Ctrl-C sends to the foreground process
    (signal.SIGTERM, 128 + 15, "evalport-spec: terminated"),  # `kill PID`, a CI runner's cancel
], ids=["ctrl-c", "sigterm"])
def test_an_interrupt_leaves_no_process_behind(tmp_path: Path, signum: int, code: int, said: str) -> None:
    """Ctrl-C and SIGTERM alike: the command's process group is killed, the exit status is 128
    plus the signal's number (SIGTERM's default action used to end evalport-spec alone, with
    the command's processes left running)."""
    folder = copy_fixtures(tmp_path, "grader-minimal-valid", "grader-missing-type")
    pidfile = tmp_path / "pid"
    proc = subprocess.Popen([sys.executable, "-m", "evalport_spec", "-C", str(ROOT), "conformance",
                             "--fixtures", str(folder), "--command", _waiting_command(pidfile)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        child = _started(pidfile)
        assert _alive(child)  # the command's shell and its child are running
        proc.send_signal(signum)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    alive = _alive(child)
    if alive:
        os.kill(child, signal.SIGKILL)
    assert (proc.returncode, err.decode().strip(), alive) == (code, said, False)


def test_progress_counts_fixtures_on_a_terminal(tmp_path: Path, draft, monkeypatch: pytest.MonkeyPatch) -> None:
    from evalport_spec.report import progress

    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True
    monkeypatch.setattr(progress, "MIN_SECONDS", 0)
    monkeypatch.delenv("EVALPORT_PROGRESS", raising=False)
    folder = copy_fixtures(tmp_path, "grader-minimal-valid", "grader-missing-type")
    for stream, shown in ((io.StringIO(), False), (Tty(), True)):
        monkeypatch.setattr(sys, "stderr", stream)
        conformance.run(draft, conformance.load_fixtures(folder),
                        command=command_for(tmp_path, OTHER_IMPL))
        text = stream.getvalue()
        # the first frame at least (tqdm may skip later ones: its refresh is rate-limited)
        assert ("conformance" in text and "/2 " in text and "fixture" in text) is shown, text
