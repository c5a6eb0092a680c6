"""A gate run replayed from disk only while every input it read is unchanged (issue 16,
:mod:`evalport_spec.gate.runmemo`, :mod:`evalport_spec.inputlog`).

Each test runs the gate in a scratch repository, checks that the same run again is a replay,
changes one kind of input (a schema, SPEC.md, an RFC, a fixture, a release file, a new file,
HEAD, the date, the toolchain, a rule implementation of the judged tree) and checks that the
next run is a fresh one whose verdict follows the change.
"""

from __future__ import annotations

import datetime as dt
import os
import subprocess
import sys

import pytest

from evalport_spec import diskcache, git, inputlog, names
from evalport_spec.cli import main
from evalport_spec.gate import run_gate, runmemo, stages
from gate_repo import edit_json, make_repo
from gate_repo import git as commit_git


def replayed(report) -> bool:
    return bool(report.context.get("replayed"))


def kinds(report, stage: str) -> set[str]:
    return {f.kind for f in report.stage(stage).findings}


@pytest.fixture()
def root(tmp_path, monkeypatch):
    monkeypatch.setenv("EVALPORT_CACHE_DIR", str(tmp_path / "cache"))  # a cache of this test's own
    return make_repo(tmp_path)


def primed(root, stages):
    """Run twice; the second run must be a replay of the first with the same report."""
    first = run_gate(root, stages=stages)
    again = run_gate(root, stages=stages)
    assert not replayed(first) and replayed(again)
    strip = [{k: v for k, v in s.items() if k != "seconds"} for s in first.to_json()["stages"]]
    assert [{k: v for k, v in s.items() if k != "seconds"} for s in again.to_json()["stages"]] == strip
    return first


def test_full_run_replays_the_same_report(root):
    first = primed(root, None)
    assert first.ok and len(first.stages) == 11


def test_changed_schema_reruns_with_the_new_verdict(root):
    assert primed(root, ["schemas"]).ok
    edit_json(root / "spec/schemas/suite.json", lambda d: d.__setitem__("type", 5))
    after = run_gate(root, stages=["schemas"])
    assert not replayed(after) and "schema-invalid" in kinds(after, "schemas")


def test_changed_spec_md_reruns(root):
    assert primed(root, ["spec-text"]).ok
    md = root / "spec/SPEC.md"
    md.write_text(md.read_text(encoding="utf-8").split("\n## ")[0], encoding="utf-8")
    after = run_gate(root, stages=["spec-text"])
    assert not replayed(after) and not after.ok


def test_changed_rfc_reruns(root):
    assert primed(root, ["rfcs"]).ok
    rfc = next((root / "rfcs").glob("0006-*.md"))
    text = rfc.read_text(encoding="utf-8")
    rfc.write_text(text.replace("status:", "status: nonsense\nold-status:", 1), encoding="utf-8")
    after = run_gate(root, stages=["rfcs"])
    assert not replayed(after) and not after.ok


def test_changed_fixture_reruns(root):
    assert primed(root, ["conformance"]).ok
    fixture = sorted((root / "spec/conformance/fixtures").glob("*.json"))[0]
    edit_json(fixture, lambda d: d["expect"]["schema"].__setitem__("valid", not d["expect"]["schema"]["valid"]))
    after = run_gate(root, stages=["conformance"])
    assert not replayed(after) and not after.ok


def test_changed_release_file_reruns(root):
    assert primed(root, ["manifest"]).ok
    release = sorted(p for p in (root / "spec/releases").iterdir() if p.is_dir())[0]
    edit_json(release / "schemas/suite.json", lambda d: d.__setitem__("description", "edited"))
    after = run_gate(root, stages=["manifest"])
    assert not replayed(after) and not after.ok


def test_new_file_no_stage_opened_reruns(root):
    """A file appearing where no stage listed or opened anything is still a change (the
    tree listing covers existence checks the recorder cannot see)."""
    assert primed(root, ["examples"]).ok
    (root / "notes.txt").write_text("new", encoding="utf-8")
    assert not replayed(run_gate(root, stages=["examples"]))


def test_a_virtual_environment_in_the_tree_is_not_an_input_but_a_folder_like_it_is(root):
    """A package installed into the repository's ``.venv`` (the quick start's) is no change to
    the spec; a new file in a folder that only looks like one (no ``pyvenv.cfg``) is."""
    venv = root / ".venv"
    (venv / "lib").mkdir(parents=True)
    (venv / "pyvenv.cfg").write_text("home = /usr/bin\n", encoding="utf-8")
    (root / "env" / "lib").mkdir(parents=True)
    primed(root, ["examples"])
    (venv / "lib" / "installed.py").write_text("x = 1\n", encoding="utf-8")
    assert replayed(run_gate(root, stages=["examples"]))
    (root / "env" / "lib" / "installed.py").write_text("x = 1\n", encoding="utf-8")
    assert not replayed(run_gate(root, stages=["examples"]))


def test_new_head_reruns(root):
    primed(root, ["history"])
    commit_git(root, "commit", "-q", "--allow-empty", "-m", "another")
    assert not replayed(run_gate(root, stages=["history"]))


def test_another_day_reruns(root, monkeypatch):
    primed(root, ["rfcs"])

    class Later(dt.date):
        @classmethod
        def today(cls):
            return dt.date(2031, 1, 1)

    monkeypatch.setattr(runmemo.dt, "date", Later)
    assert not replayed(run_gate(root, stages=["rfcs"]))


def test_changed_toolchain_reruns(root, monkeypatch):
    primed(root, ["examples"])
    monkeypatch.setattr(diskcache, "code_digest", lambda: "another toolchain")
    assert not replayed(run_gate(root, stages=["examples"]))


def test_changed_rule_implementation_of_the_judged_tree_reruns(tmp_path, monkeypatch):
    monkeypatch.setenv("EVALPORT_CACHE_DIR", str(tmp_path / "cache"))
    root = make_repo(tmp_path, toolchain=True)
    primed(root, ["behaviour"])  # runs the tree's rules as its own program
    rules = sorted((root / "tools/evalport_spec/validation/rules").glob("*.py"))
    rules[-1].write_text(rules[-1].read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    assert not replayed(run_gate(root, stages=["behaviour"]))


def test_no_cache_always_runs(root, monkeypatch, capsys):
    monkeypatch.setenv("EVALPORT_CACHE_DIR", str(root.parent / "cache"))
    argv = ["-C", str(root), "check", "--stage", "examples"]
    assert main(argv) == 0 and main(argv) == 0
    assert "replayed" in capsys.readouterr().err
    assert main([*argv, "--no-cache"]) == 0
    assert "replayed" not in capsys.readouterr().err
    # --no-cache holds for its own run only: the process's cache folder is back, and the next
    # run in the same process replays again
    assert os.environ["EVALPORT_CACHE_DIR"] == str(root.parent / "cache")
    assert main(argv) == 0 and "replayed" in capsys.readouterr().err


def test_cache_off_records_nothing_and_reports_the_same(root, monkeypatch):
    recorded = run_gate(root, stages=["schemas", "behaviour"])  # cache on: recorded and stored
    monkeypatch.setenv("EVALPORT_CACHE_DIR", "off")
    assert not runmemo.enabled()

    def refuse():
        raise AssertionError("recorded with the cache off")
    monkeypatch.setattr(runmemo, "recording", refuse)
    monkeypatch.setattr(runmemo, "replay", lambda key: refuse())
    off = run_gate(root, stages=["schemas", "behaviour"])
    assert not replayed(off)
    strip = [{k: v for k, v in s.items() if k != "seconds"} for s in recorded.to_json()["stages"]]
    assert [{k: v for k, v in s.items() if k != "seconds"} for s in off.to_json()["stages"]] == strip


def test_recorder_logs_reads_writes_and_git(root, tmp_path):
    out = tmp_path / "out.txt"
    with inputlog.recording() as log:
        (root / "spec/VERSION").read_text()
        list((root / "spec").iterdir())
        out.write_text("x")
        git.run(root, "rev-parse", "HEAD")
    assert str(root / "spec/VERSION") in log.files and str(root / "spec") in log.dirs
    assert str(out) in log.written and str(out) not in log.files
    assert [c[0] for c in log.commands] == [["git", str(root), "rev-parse", "HEAD"]]
    assert log.tainted is None


def test_recorder_logs_each_kind_of_event_and_ignores_the_rest(root, tmp_path):
    """Every audit event the recorder acts on, one by one (inputlog._EVENTS), and a flood of
    the ones it does not (``builtins.id`` from ``deepcopy``) logging nothing."""
    import copy
    import shutil
    import tempfile

    listed, scanned = root / "spec", root / "rfcs"
    with inputlog.recording() as log:
        copy.deepcopy({"a": [{"b": 1}] * 50})
        os.listdir(listed)
        with os.scandir(scanned) as entries:
            list(entries)
        fd, written = tempfile.mkstemp(dir=tmp_path)
        os.close(fd)
        scratch = tempfile.mkdtemp(dir=tmp_path)
        os.mkdir(os.path.join(scratch, "inner"))
        shutil.rmtree(scratch)
    # shutil.rmtree opens the temporary folder itself, which the snapshot leaves out as a temp
    assert log.dirs == {str(listed), str(scanned)} and log.files - log.temps == set()
    assert log.written == {written} and log.temps == {scratch}
    assert log.tainted is None and getattr(inputlog._doors, "removing", None) is None


def test_a_size_decision_is_noted_and_a_change_refuses_the_snapshot(root, tmp_path):
    big = root / "big.json"
    big.write_text("[]")
    with inputlog.recording() as log:
        inputlog.note(big)  # as cache.tree_digest does for a file it keys by stat alone
    assert str(big) in log.files
    big.write_text("[1]")  # a change after it was read
    assert inputlog.snapshot(log, root, excluded=[], kept=[]) is None


def test_stage_names_are_the_stage_functions_in_order():
    assert tuple(stages.STAGE_FUNCS) == names.STAGES


@pytest.mark.parametrize("start", [
    lambda: subprocess.run([sys.executable, "-c", "pass"], check=True),
    lambda: git.run(".", "commit", "--allow-empty", "-m", "x", env={"GIT_AUTHOR_NAME": "x"}, check=False),
])
def test_a_process_outside_the_doors_taints(start, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with inputlog.recording() as log:
        start()
    assert log.tainted is not None


def test_tainted_runs_are_not_stored(root, monkeypatch):
    def starts_a_process(ctx):
        subprocess.run([sys.executable, "-c", "pass"], check=True)
        return [], "ran a process", None

    monkeypatch.setitem(stages.STAGE_FUNCS, "examples", starts_a_process)
    assert run_gate(root, stages=["examples"]).ok
    assert not replayed(run_gate(root, stages=["examples"]))


@pytest.mark.stage_crash
def test_crashed_runs_are_not_stored(root, monkeypatch):
    def crash(ctx):
        raise RuntimeError("engine bug")

    monkeypatch.setitem(stages.STAGE_FUNCS, "examples", crash)
    first = run_gate(root, stages=["examples"])
    assert "stage-crashed" in kinds(first, "examples")
    assert not replayed(run_gate(root, stages=["examples"]))


def test_input_modified_during_the_run_is_not_stored(root, monkeypatch):
    """Its digest at the end of the run may not be what the stage read (racy-git rule); an
    input the run itself rewrote counts as modified too."""
    examples = stages.STAGE_FUNCS["examples"]
    example = sorted((root / "spec/examples").glob("*.json"))[0]

    def edits_while_running(ctx):
        out = examples(ctx)
        example.write_bytes(example.read_bytes())  # the same bytes, a new modification time
        return out

    monkeypatch.setitem(stages.STAGE_FUNCS, "examples", edits_while_running)
    assert run_gate(root, stages=["examples"]).ok
    assert not replayed(run_gate(root, stages=["examples"]))


def test_a_fifo_read_is_digested_without_opening_it(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with inputlog.recording() as log:
        inputlog.note(fifo)
    snap = inputlog.snapshot(log, tmp_path, excluded=[], kept=[])  # would block if opened
    assert snap is not None and snap["files"][str(fifo)].startswith("special")
