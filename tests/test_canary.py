"""The toolchain canary (``evalport-spec canary``, :mod:`evalport_spec.gate.canary`): the judge's
known breaks, planted in a scratch clone, must each fail the tested toolchain's gate.

Fast tests check each planting by hand on small files and the verdict of a finished run; the
slow ones run the canaries against this toolchain (every one caught), against one with the red
team's weakened ``breaking()`` (the enum canary passes), and ``.ci/run --base`` on a branch
carrying that weakening (CI fails).
"""

from __future__ import annotations

import hashlib
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from evalport_spec.cli import main
from evalport_spec.gate import canary as C
from evalport_spec.gate import canarybreaks as B
from evalport_spec.gate.canarypool import run_pooled
from gate_repo import ENV, commit_all, git, make_repo

CAUGHT_BY = {"enum-value-removed": "enum-value-removed", "major-declared-without-rfc": "policy-major-needs-rfc",
             "required-member-added": "required-added",
             "bound-tightened": "min-length-increased", "released-file-edited": "released-file-changed",
             "released-file-and-sums-edited": "released-file-changed",
             "fixture-contradicts-validator": "conformance-disagreement", "field-table-edited": "spec-region-stale",
             "dangling-ref": "schema-ref-unresolved", "rule-dropped-from-catalogue": "rule-not-catalogued",
             "example-invalid": "example-invalid"}
"""The finding kind each canary's break is caught by today (worked out from what each break is):
a canary caught by some other finding would test another check than the one it names."""

NAMES = ["enum-value-removed", "major-declared-without-rfc", "required-member-added", "bound-tightened", "released-file-edited",
         "released-file-and-sums-edited", "fixture-contradicts-validator", "field-table-edited",
         "dangling-ref", "rule-dropped-from-catalogue", "example-invalid"]
"""The canaries, in order (written out by hand)."""

WEAKENING = ('and (f.change_class == ChangeClass.MAJOR or f.undecided)]',
             'and (f.change_class == ChangeClass.MAJOR or f.undecided) and f.kind != "enum-value-removed"]')
"""The red team's edit of ``breaking()`` in policy.py: a removed enum value is never breaking."""

NO_RFC_NEEDED = ("    for f in br:\n        ignore = _ignored(f, list(ignores))\n",
                 "    for f in br:\n        if version_ok and need is not None:\n"
                 "            out.append(dataclasses.replace(f, severity=Severity.WARNING))\n"
                 "            continue\n        ignore = _ignored(f, list(ignores))\n")
"""An edit of ``apply_major_rule()``: the next major version declared is enough, no RFC needed."""


def weaken(root: Path, edit: tuple[str, str] = WEAKENING) -> None:
    policy = root / "tools/evalport_spec/policy.py"
    text = policy.read_text()
    assert text.count(edit[0]) == 1  # the premise: the code the edit changes
    policy.write_text(text.replace(*edit))


def write(path: Path, doc) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(doc, bytes):
        path.write_bytes(doc)
    else:
        path.write_text(doc if isinstance(doc, str) else json.dumps(doc))
    return path


# --- the plantings, by hand ----------------------------------------------------------------------

def test_enum_removal_takes_an_unconditional_enum_and_leaves_conditions_alone(tmp_path):
    schema = {"allOf": [{"if": {"properties": {"k": {"enum": [1, 2]}}}}],
              "properties": {"a": {"type": "string"}, "b": {"enum": ["x", "y", "z"]}}}
    path = write(tmp_path / "spec/schemas/a.json", schema)
    said = B.remove_enum_value(tmp_path)
    assert said == 'removed "z" from spec/schemas/a.json#/properties/b/enum'
    assert json.loads(path.read_text()) == {
        "allOf": [{"if": {"properties": {"k": {"enum": [1, 2]}}}}],
        "properties": {"a": {"type": "string"}, "b": {"enum": ["x", "y"]}}}


def test_a_required_member_goes_to_the_first_titled_closed_object(tmp_path):
    schema = {"$defs": {"open": {"title": "Open", "properties": {}},
                        "closed": {"title": "Closed", "additionalProperties": False,
                                   "properties": {"a": {}}, "required": ["a"]}}}
    path = write(tmp_path / "spec/schemas/s.json", schema)
    assert B.add_required_member(tmp_path) == ("made canary_member a new required member of Closed "
                                               "(spec/schemas/s.json#/$defs/closed)")
    closed = json.loads(path.read_text())["$defs"]["closed"]
    assert closed["required"] == ["a", "canary_member"]
    assert closed["properties"] == {"a": {}, "canary_member": {"type": "string"}}


def test_a_bound_is_raised_by_one_and_a_boolean_is_no_bound(tmp_path):
    path = write(tmp_path / "spec/schemas/s.json",
                 {"properties": {"a": {"minimum": True}, "b": {"items": {"minLength": 3}}}})
    assert B.tighten_bound(tmp_path) == "raised spec/schemas/s.json#/properties/b/items/minLength from 3 to 4"
    assert json.loads(path.read_text())["properties"]["b"]["items"] == {"minLength": 4}


def test_nothing_to_break_is_said(tmp_path):
    write(tmp_path / "spec/schemas/s.json", {"properties": {"a": {"type": "string"}}})
    with pytest.raises(B.NothingToBreak, match="no draft schema has an enum of two values"):
        B.remove_enum_value(tmp_path)


def test_a_released_file_edit_with_its_sums_line_rewritten(tmp_path):
    release = tmp_path / "spec/releases"
    write(release / "1.0.0/SPEC.md", "# spec\n")
    write(release / "1.0.0/schemas/a.json", b'{"a": 1}\n')
    sums = ("0" * 64 + "  1.0.0/SPEC.md\n") + ("1" * 64 + "  1.0.0/schemas/a.json\n")
    write(release / "SHA256SUMS", sums)
    assert B.edit_released_file(tmp_path) == "appended a space to spec/releases/1.0.0/schemas/a.json"
    assert (release / "1.0.0/schemas/a.json").read_bytes() == b'{"a": 1}\n '
    assert (release / "SHA256SUMS").read_text() == sums  # the manifest left as it was
    B.edit_released_file_and_sums(tmp_path)  # a second space, and the line rewritten
    digest = hashlib.sha256(b'{"a": 1}\n  ').hexdigest()
    assert (release / "SHA256SUMS").read_text() == "0" * 64 + "  1.0.0/SPEC.md\n" + digest + "  1.0.0/schemas/a.json\n"


def test_the_field_table_cell_is_flipped_inside_the_region_only(tmp_path):
    text = ("| `x` | string | yes | — |\n"
            "<!-- evalport:generated fields suite.Suite -->\n\n| Field | Type | Required |\n| --- | --- | --- |\n"
            "| `id` | string | yes | at least 1 character |\n<!-- /evalport:generated -->\n")
    path = write(tmp_path / "spec/SPEC.md", text)
    assert B.edit_field_table(tmp_path) == ("changed a Required cell of SPEC.md's generated suite.Suite "
                                            "table from yes to no")
    assert path.read_text() == text.replace("| `id` | string | yes |", "| `id` | string | no |")


def test_a_fixture_expected_invalid_is_marked_valid(tmp_path):
    folder = tmp_path / "spec/conformance/fixtures"
    write(folder / "a.json", {"expect": {"schema": {"valid": True}, "full": {"valid": False, "errors": []}}})
    write(folder / "b.json", {"id": "b", "expect": {"schema": {"valid": False},
                                                    "full": {"valid": False, "errors": [{"code": "X"}]}}})
    assert B.flip_fixture(tmp_path) == "marked spec/conformance/fixtures/b.json (an invalid document) as valid"
    assert json.loads((folder / "b.json").read_text()) == {"id": "b", "expect": {"schema": {"valid": True},
                                                                                 "full": {"valid": True}}}


# --- the verdict of one run ----------------------------------------------------------------------

def done(code: int, report: object | None, stderr: str = "") -> subprocess.CompletedProcess:
    out = b"" if report is None else json.dumps(report).encode()
    return subprocess.CompletedProcess([], code, out, stderr.encode())


@pytest.mark.parametrize(("proc", "expected"), [
    (done(1, {"stages": [{"name": "base", "status": "fail", "findings": [
        {"kind": "b", "severity": "error"}, {"kind": "w", "severity": "warning"}, {"kind": "a", "severity": "error"},
        {"kind": "b", "severity": "error"}]}]}), ("caught", "", ["a", "b"])),
    (done(0, {"stages": [{"name": "base", "status": "ok"}]}), ("passed", "", [])),
    (done(0, {"stages": [{"name": "base", "status": "warn"}]}), ("passed", "", [])),
    (done(2, None, "evalport-spec: error: boom"), ("error", "its gate exited 2 (evalport-spec: error: boom)", [])),
    (done(1, None, "Traceback\nZeroDivisionError: x"),
     ("error", "its gate (exit 1) wrote no JSON report with a `base` stage (ZeroDivisionError: x)", [])),
    (done(1, {"stages": [{"name": "base", "status": "ok"}]}),
     ("error", "its gate exited 1 with the `base` stage 'ok'", [])),
    (done(1, {"stages": [{"name": "draft", "status": "fail"}]}),
     ("error", "its gate (exit 1) wrote no JSON report with a `base` stage", [])),
    (done(1, ["not", "a", "report"]), ("error", "its gate (exit 1) wrote no JSON report with a `base` stage", [])),
], ids=["caught", "passed", "warned", "exit-2", "crash", "other-stage-failed", "stage-missing", "not-an-object"])
def test_the_verdict_of_a_run(proc, expected):
    assert C._verdict(proc, "base") == expected


# --- whole runs ----------------------------------------------------------------------------------

def canary(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(["canary", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def fake_toolchain(tmp_path: Path, main_py: str) -> Path:
    tools = tmp_path / "fake-tools"
    write(tools / "evalport_spec/__init__.py", "")
    write(tools / "evalport_spec/__main__.py", main_py)
    return tools


@pytest.fixture
def spec_repo(tmp_path):
    return make_repo(tmp_path)


def test_a_crashing_toolchain_is_an_error_for_every_canary(spec_repo, tmp_path, capsys):
    tools = fake_toolchain(tmp_path, "raise RuntimeError('the judge fell over')\n")
    code, out, err = canary(capsys, "-C", str(spec_repo), "--toolchain", str(tools), "--format", "json")
    assert code == 1, err
    report = json.loads(out)
    assert [(c["name"], c["status"]) for c in report["canaries"]] == [(n, "error") for n in NAMES]
    assert {f["kind"] for f in report["findings"]} == {"toolchain-canary-error"}
    assert "RuntimeError: the judge fell over" in report["findings"][0]["message"]
    assert "canary: enum-value-removed: error (" in err  # progress on standard error


def test_a_toolchain_that_says_nothing_and_exits_0_does_not_pass(spec_repo, tmp_path, capsys):
    tools = fake_toolchain(tmp_path, "raise SystemExit(0)\n")
    code, out, _ = canary(capsys, "-C", str(spec_repo), "--toolchain", str(tools), "--format", "json")
    assert code == 1
    assert {f["kind"] for f in json.loads(out)["findings"]} == {"toolchain-canary-error"}


FAILS_EVERY_STAGE = """import json, sys
args = sys.argv[1:]
stages = [args[i + 1] for i, a in enumerate(args) if a == "--stage"]
print(json.dumps({"stages": [{"name": s, "status": "fail", "findings": [{"kind": "x", "severity": "error"}]}
                             for s in stages]}))
raise SystemExit(1)
"""
"""A toolchain whose gate fails every stage it is asked for, whatever the tree."""


def test_a_toolchain_that_fails_everything_fails_the_control_run(spec_repo, tmp_path, capsys):
    """Each canary's stage fails, as it should on a break; but it fails on HEAD with no break
    too (the control run), so no canary is caught: every one is unproven and CI fails."""
    tools = fake_toolchain(tmp_path, FAILS_EVERY_STAGE)
    code, out, err = canary(capsys, "-C", str(spec_repo), "--toolchain", str(tools), "--format", "json")
    assert code == 1, err
    report = json.loads(out)
    assert [(c["name"], c["status"]) for c in report["canaries"]] == [(n, "unproven") for n in NAMES]
    (control,) = report["controls"]
    used = ["schemas", "spec-text", "manifest", "history", "conformance", "rules", "draft", "base", "examples"]
    assert (control["status"], control["stages"]) == ("failed", used)
    assert control["failing"] == {s: ["x"] for s in used}
    assert [f["kind"] for f in report["findings"]] == ["toolchain-canary-control-failed"]
    assert "fails HEAD with no break planted" in report["findings"][0]["message"]
    assert "canary: control: failed (HEAD with no break planted (check --base HEAD: schemas, " in err
    assert "canary: enum-value-removed: unproven (" in err
    code, out, _ = canary(capsys, "-C", str(spec_repo), "--toolchain", str(tools))
    assert code == 1
    assert f"canary: FAILED ({len(NAMES)} of {len(NAMES)} known breaks not caught; the control run " in out


def test_the_control_run_is_head_as_committed_with_the_canaries_stages(spec_repo, tmp_path):
    """The control run's gate gets what a canary's gets, with every stage of the canaries: an
    empty commit on HEAD, and ``--base HEAD``."""
    tools = fake_toolchain(tmp_path, "import json, os, subprocess, sys\n"
                           f"open({str(tmp_path / 'argv')!r}, 'a').write(json.dumps([sys.argv[1:], "
                           "subprocess.run(['git', '-C', sys.argv[2], 'show', '--stat', '--format=%s', 'HEAD'], "
                           "capture_output=True, text=True).stdout]) + '\\n')\n" + FAILS_EVERY_STAGE)
    run = C.run_canaries(spec_repo, tools, canaries=B.CANARIES[:2] + B.CANARIES[4:5])
    head = git(spec_repo, "rev-parse", "HEAD").strip()
    calls = [json.loads(line) for line in (tmp_path / "argv").read_text().splitlines()]
    (argv,) = [argv for argv, shown in calls if shown.strip() == "canary: control (no break planted)"]
    assert argv[2:] == ["check", "--base", head, "--stage", "manifest", "--stage", "base", "--format", "json"]
    assert len(calls) == 4  # the control (an empty commit: no file changed, as shown) and 3 canaries
    assert [c.status for c in run.controls] == ["failed"]
    assert [o.status for o in run.outcomes] == ["unproven"] * 3


def test_pooled_jobs_never_share_a_folder_and_keep_their_order(tmp_path):
    import threading
    import time

    held: set[Path] = set()
    lock = threading.Lock()
    clash = []

    def job(n):
        def run(folder):
            with lock:
                clash.extend([folder] if folder in held else [])
                held.add(folder)
            time.sleep(0.02 * (n % 3))
            with lock:
                held.discard(folder)
            return n * 10
        return run

    ended = []
    folders = [tmp_path / "a", tmp_path / "b"]
    assert run_pooled([job(n) for n in range(7)], folders, lambda i, r: ended.append((i, r))) == [
        0, 10, 20, 30, 40, 50, 60]
    assert clash == [] and sorted(ended) == [(n, n * 10) for n in range(7)]


def test_a_pooled_job_that_raises_stops_the_jobs_not_started(tmp_path):
    started = []

    def job(n):
        def run(folder):
            started.append(n)
            if n == 1:
                raise OSError("boom")
            return n
        return run

    with pytest.raises(OSError, match="boom"):
        run_pooled([job(n) for n in range(50)], [tmp_path], None)
    assert started == [0, 1]  # one folder: one job at a time, none after the failure


def test_a_hanging_toolchain_is_stopped(spec_repo, tmp_path):
    tools = fake_toolchain(tmp_path, "import time\ntime.sleep(60)\n")
    (outcome,) = C.run_canaries(spec_repo, tools, canaries=B.CANARIES[:1], timeout=1).outcomes
    assert (outcome.status, outcome.detail) == ("error", "its gate ran longer than 1s")
    assert outcome.seconds < 30


def test_nothing_to_test_when_the_toolchain_did_not_change(spec_repo, capsys):
    code, out, err = canary(capsys, "-C", str(spec_repo), "--base", "main")
    assert code == 0
    assert "canary: not run (the toolchain does not differ from main: nothing to test)" in err


@pytest.mark.parametrize(("args", "message"), [
    (lambda r, t: ["-C", str(r), "--toolchain", str(t)], "@t: no evalport_spec package to test (--toolchain)"),
    (lambda r, t: ["-C", str(r), "--base", "nosuch"], "git revision 'nosuch' not found"),
    (lambda r, t: ["-C", str(r), "--timeout", "0"], "argument --timeout: must be a number greater than 0"),
    # beyond a day the operating system's wait overflows (OverflowError), so the bound is checked first
    (lambda r, t: ["-C", str(r), "--timeout", "1e30"], "must be a number greater than 0 and at most 86400, not '1e30'"),
], ids=["no-package", "unknown-base", "bad-timeout", "huge-timeout"])
def test_bad_input_is_one_line_and_exit_2(spec_repo, tmp_path, capsys, args, message):
    try:
        code = main(["canary", *args(spec_repo, tmp_path)])
    except SystemExit as exc:  # argparse
        code = exc.code
    err = capsys.readouterr().err
    assert code == 2
    lines = err.splitlines()
    assert len(lines) == 1 and message.replace("@t", str(tmp_path)) in lines[0], err


@pytest.fixture(scope="module")
def toolchain_repo(tmp_path_factory):
    return make_repo(tmp_path_factory.mktemp("canary"), toolchain=True)


@pytest.mark.slow
def test_this_toolchain_catches_every_canary(toolchain_repo, capsys):
    code, out, err = canary(capsys, "-C", str(toolchain_repo), "--format", "json")
    assert code == 0, err
    report = json.loads(out)
    assert [(c["name"], c["status"]) for c in report["canaries"]] == [(n, "caught") for n in NAMES]
    assert report["findings"] == []
    for c in report["canaries"]:  # each caught by the check it names, not by a side effect
        assert CAUGHT_BY[c["name"]] in c["caught_by"], c


@pytest.mark.slow
@pytest.mark.parametrize(("edit", "passed"), [
    (WEAKENING, ["enum-value-removed", "major-declared-without-rfc"]),  # both remove an enum value
    (NO_RFC_NEEDED, ["major-declared-without-rfc"]),
], ids=["enum-not-breaking", "no-rfc-needed"])
def test_a_weakened_major_rule_is_caught_by_a_canary(toolchain_repo, tmp_path, capsys, edit, passed):
    root = tmp_path / "weak"
    git(toolchain_repo, "worktree", "add", "-q", "-b", f"weak-{len(passed)}", str(root), "main")
    weaken(root, edit)
    commit_all(root, "a kinder major rule")
    code, out, err = canary(capsys, "-C", str(root))
    assert code == 1, err
    for name in passed:
        assert re.search(rf"^FAIL\s+{name} ", out, re.M), out
        assert re.search(r"error toolchain-canary-passed: the changed toolchain passes a known break "
                         rf"\({name}: removed \"[^\"]+\" from spec/schemas/", out), out
    assert out.count("toolchain-canary-") == len(passed)  # the others still fail
    assert f"canary: FAILED ({len(passed)} of {len(NAMES)} known breaks not caught)" in out


@pytest.mark.slow
def test_ci_run_fails_a_branch_that_weakens_the_breaking_rule(toolchain_repo, tmp_path):
    """The gate of record passes the branch (a toolchain edit is only a warning), then the
    base's canary runs the branch's toolchain on the base's known breaks and fails CI, before
    the branch's own gate runs. A harmless toolchain edit still passes."""
    def ci(root):
        env = {**ENV, "EVALPORT_CI_NO_INSTALL": "1", "PYTHON": sys.executable, "NO_COLOR": "1"}
        env.pop("PYTHONPATH", None)
        return subprocess.run([str(root / ".ci/run"), "--check-only", "--base", "main"], stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True, env=env, cwd=root, timeout=900)

    weak = tmp_path / "weak"
    git(toolchain_repo, "worktree", "add", "-q", "-b", "weak-ci", str(weak), "main")
    weaken(weak)
    commit_all(weak, "enum removals are fine")
    run = ci(weak)
    judged, _, after = run.stdout.partition("ci: the toolchain canary")
    assert run.returncode == 1, run.stdout
    assert "toolchain or CI configuration differs from main: tools/evalport_spec/policy.py" in judged
    assert "gate: passed" in judged  # the gate of record passed it
    assert "toolchain-canary-passed" in after and "enum-value-removed" in after, run.stdout
    assert "ci: this tree's toolchain" not in run.stdout
    assert run.stdout.strip().splitlines()[-1].startswith("ci: the toolchain canary failed")

    fine = tmp_path / "fine"
    git(toolchain_repo, "worktree", "add", "-q", "-b", "fine-ci", str(fine), "main")
    policy = fine / "tools/evalport_spec/policy.py"
    policy.write_text(policy.read_text() + "\n# a comment\n")
    commit_all(fine, "a harmless toolchain edit")
    run = ci(fine)
    assert run.returncode == 0, run.stdout
    assert "canary: passed (11 of 11 known breaks caught)" in run.stdout


def test_no_git_hook_runs_when_a_canary_is_committed(spec_repo, tmp_path, monkeypatch):
    """A global ``core.hooksPath`` (the CI user's) would run its ``post-commit`` (which
    ``--no-verify`` does not skip) at each planted commit; the scratch clone has no hooks."""
    hooks = tmp_path / "hooks"
    mark = tmp_path / "hook-ran"
    write(hooks / "post-commit", f"#!/bin/sh\necho ran > {mark}\n").chmod(0o755)
    write(hooks / "pre-commit", f"#!/bin/sh\necho ran > {mark}\n").chmod(0o755)
    home = tmp_path / "home"
    write(home / ".gitconfig", f"[core]\n\thooksPath = {hooks}\n")
    monkeypatch.setenv("HOME", str(home))
    tools = fake_toolchain(tmp_path, "raise SystemExit(2)\n")
    (outcome,) = C.run_canaries(spec_repo, tools, canaries=B.CANARIES[:1]).outcomes
    assert outcome.status == "error"  # the premise: the break was planted and committed, then judged
    assert not mark.exists()


def test_uncommitted_tools_are_named_as_untested(spec_repo, capsys):
    """The canary tests the toolchain as committed; a file under tools/ not committed yet is
    said on standard error (here the committed tree has no toolchain at all: exit 2)."""
    write(spec_repo / "tools/evalport_spec/__init__.py", "")
    code, _, err = canary(capsys, "-C", str(spec_repo))
    assert code == 2
    assert ("canary: note: 1 file(s) under tools/ differ from HEAD (tools/evalport_spec/__init__.py...); "
            "the committed toolchain is the one tested") in err
    assert "evalport-spec: error: the checkout's tools/: no evalport_spec package to test" in err
