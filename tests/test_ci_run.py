"""``.ci/run`` in clones of a scratch repository that holds the toolchain: a plain full clone
passes; a shallow clone is deepened from its remote, or refused (exit 2) without one; with
``--base REF`` the base's toolchain judges, so a branch that guts the gate still fails.

The toolchains run from their own ``tools/`` (``EVALPORT_CI_NO_INSTALL=1``) with this
interpreter's packages: nothing is installed and nothing is downloaded.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from gate_repo import ENV, commit_all, git, make_repo

MAIN_CI = Path(__file__).resolve().parent.parent / ".ci" / "run"
"""This repository's CI script (the one under test)."""

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def origin(tmp_path_factory):
    return make_repo(tmp_path_factory.mktemp("ci"), toolchain=True)


def clone(origin, dest, *args):
    subprocess.run(["git", "clone", "-q", *args, f"file://{origin}", str(dest)], check=True,
                   capture_output=True, env=ENV)
    return dest


def ci_run(root, *args):
    env = {**ENV, "EVALPORT_CI_NO_INSTALL": "1", "PYTHON": sys.executable, "NO_COLOR": "1"}
    env.pop("PYTHONPATH", None)
    return subprocess.run([str(root / ".ci/run"), "--check-only", *args], stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, env=env, cwd=root, timeout=600)


def test_plain_full_clone_passes(origin, tmp_path):
    done = ci_run(clone(origin, tmp_path / "full"))
    assert done.returncode == 0, done.stdout
    assert re.search(r"^ok\s+history ", done.stdout, re.M) and "gate: passed" in done.stdout


def test_shallow_clone_without_a_remote_is_refused(origin, tmp_path):
    root = clone(origin, tmp_path / "shallow", "--depth", "1")
    git(root, "remote", "remove", "origin")
    done = ci_run(root)
    assert done.returncode == 2
    assert done.stdout.strip().splitlines() == [
        "ci: error: this clone is shallow and its history could not be fetched (no reachable remote); "
        "the gate needs it: clone without --depth, run `git fetch --unshallow`, or use "
        "actions/checkout with fetch-depth: 0"]


def test_shallow_pull_request_is_deepened_and_judged_by_the_base(origin, tmp_path):
    root = clone(origin, tmp_path / "pr", "--depth", "1", "--branch", "main")
    git(root, "checkout", "-q", "-b", "attack")
    policy = root / "tools/evalport_spec/policy.py"
    policy.write_text(policy.read_text() + "\n\ndef breaking(findings):\n    return []\n")
    schema = root / "spec/schemas/resultset.json"
    doc = json.loads(schema.read_text())
    doc["$defs"]["error"]["properties"]["type"]["enum"].remove("runner_error")
    schema.write_text(json.dumps(doc, indent=2) + "\n")
    commit_all(root, "nothing is breaking any more")
    done = ci_run(root, "--base", "origin/main")
    out = done.stdout
    assert "ci: the clone was shallow; fetched its whole history from origin" in out
    assert done.returncode == 1, out
    assert "ci: the gate of record: origin/main's toolchain" in out
    assert re.search(r"^FAIL\s+base ", out, re.M) and "not accepted: no accepted MAJOR RFC lists fingerprint" in out
    assert "toolchain or CI configuration differs from origin/main: tools/evalport_spec/policy.py" in out
    assert "ci: this tree's toolchain" not in out  # the gutted gate never runs after a failed record
    assert os.path.isdir(root / ".git") and git(root, "rev-parse", "--is-shallow-repository").strip() == "false"


def _break_enum(root):
    """Drop ``runner_error`` from ``Error.type``: a MAJOR no RFC accepts."""
    schema = root / "spec/schemas/resultset.json"
    doc = json.loads(schema.read_text())
    doc["$defs"]["error"]["properties"]["type"]["enum"].remove("runner_error")
    schema.write_text(json.dumps(doc, indent=2) + "\n")


def _pr(origin, tmp_path, name):
    root = clone(origin, tmp_path / name, "--branch", "main")
    git(root, "checkout", "-q", "-b", name)
    return root


def test_a_reviewed_toolchain_edit_passes_only_with_gate_ignore_entries_landed_first(origin, tmp_path):
    """An edit of the validation path is every rule's code (fail closed, undecided); reviewers who
    agree it keeps every verdict land ``gate-ignore.yml`` entries for its fingerprints, each naming
    the commit that holds the code, on the base first, and both gates of ``.ci/run --base`` then pass. The same entries added by the branch
    itself accept nothing."""
    from evalport_spec.gate import run_gate

    root = _pr(origin, tmp_path, "refactor")
    versions = root / "tools/evalport_spec/validation/versions.py"
    versions.write_text(versions.read_text() + "\n\ndef _helper_nothing_calls() -> None:\n    return None\n")
    reviewed = commit_all(root, "a helper nothing calls yet")
    findings = [f for f in run_gate(root, base="main").findings()
                if f.kind == "rule-implementation-changed"]
    assert findings and all(f.undecided for f in findings)
    entries = "".join(f"- {{kind: rule-implementation-changed, fingerprint: '{f.fingerprint}', "
                      f"commit: '{reviewed}', reason: a renamed local}}\n" for f in findings)
    # the branch excusing itself: reported, not applied
    (root / "gate-ignore.yml").write_text(entries)
    commit_all(root, "excuse myself")
    done = ci_run(root, "--base", "main")
    assert done.returncode == 1 and "ignore-entry-not-at-base" in done.stdout, done.stdout
    # entries landed on the base first: accepted
    git(root, "checkout", "-q", "main")
    (root / "gate-ignore.yml").write_text(entries)
    commit_all(root, "accept the reviewed refactor of versions.py")
    git(root, "checkout", "-q", "-b", "refactor2")
    versions.write_text(versions.read_text() + "\n\ndef _helper_nothing_calls() -> None:\n    return None\n")
    commit_all(root, "a helper nothing calls yet")
    done = ci_run(root, "--base", "main")
    assert done.returncode == 0, done.stdout
    assert "ignored by the --ignore entry" in done.stdout


def test_the_judge_is_archived_without_the_bases_export_attributes(origin, tmp_path):
    """``git archive`` applies the archived tree's ``export-ignore``/``export-subst`` (and
    conversion) attributes, so a base whose ``.gitattributes`` names judge files would have them
    dropped or rewritten (commit data such as a subject written into code). The judge is the
    base's files as committed: here ``policy.py`` marked ``export-ignore`` on the base is still
    there, and the gate of record passes a harmless branch (before: the judge could not import
    ``policy`` and the run failed)."""
    root = clone(origin, tmp_path / "attrs", "--branch", "main")
    (root / ".gitattributes").write_text("tools/evalport_spec/policy.py export-ignore\n"
                                         "tools/evalport_spec/*.py export-subst\n")
    commit_all(root, "$Format:%H$ archive attributes on the base")
    git(root, "checkout", "-q", "-b", "harmless")
    (root / "NOTES.txt").write_text("a harmless file\n")
    commit_all(root, "a harmless edit")
    done = ci_run(root, "--base", "main")
    assert done.returncode == 0, done.stdout
    assert "ci: the gate of record: main's toolchain" in done.stdout

FAKE_PASS = 'print("gate: passed"); raise SystemExit(0)\n'


def test_a_branch_package_shadowing_the_judge_is_not_imported(origin, tmp_path):
    """A top-level ``evalport_spec/`` (and ``pip/``, ``venv/``) in the branch would be what
    ``python -m`` imports in the checkout; the judge never starts there, so the break still
    fails, and the reviewer sees the new packages listed as toolchain."""
    root = _pr(origin, tmp_path, "shadow")
    _break_enum(root)
    for pkg in ("evalport_spec", "pip", "venv"):
        (root / pkg).mkdir()
        (root / pkg / "__init__.py").write_text("")
        (root / pkg / "__main__.py").write_text(FAKE_PASS)
    commit_all(root, "shadow the judge")
    done = ci_run(root, "--base", "origin/main")
    judged = done.stdout.split("ci: this tree's toolchain")[0]
    assert done.returncode == 1, done.stdout
    assert re.search(r"^FAIL\s+base ", judged, re.M), judged
    assert "evalport_spec/__main__.py" in judged and "pip/__init__.py" in judged, judged


def test_the_base_script_judges_a_branch_that_rewrote_ci_run(origin, tmp_path):
    """The branch's ``.ci/run`` is part of the change; CI runs the base's copy with ``--tree``,
    so a ``.ci/run`` gutted to ``exit 0`` decides nothing."""
    root = _pr(origin, tmp_path, "gutci")
    _break_enum(root)
    (root / ".ci/run").write_text("#!/bin/sh\necho 'gate: passed'\nexit 0\n")
    commit_all(root, "a quieter CI")
    script = tmp_path / "base-ci-run"
    script.write_text(git(root, "show", "origin/main:.ci/run"))
    env = {**ENV, "EVALPORT_CI_NO_INSTALL": "1", "PYTHON": sys.executable, "NO_COLOR": "1"}
    env.pop("PYTHONPATH", None)
    done = subprocess.run(["bash", str(script), "--tree", str(root), "--base", "origin/main", "--check-only"],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env,
                          cwd=tmp_path, timeout=600)
    assert done.returncode == 1, done.stdout
    assert "ci: the gate of record: origin/main's toolchain" in done.stdout
    assert "toolchain or CI configuration differs from origin/main: .ci/run" in done.stdout


REWRITER = """#!/bin/sh
# the branch's code run under .ci/run (here: its own gate): overwrite the running CI script with
# blank lines and a final `exit 0`, so whatever offset bash reads from next says "pass"
case " $* " in
  *" -m evalport_spec "*)
    size=$(wc -c < "$CI_SCRIPT")
    { head -c "$size" /dev/zero | tr '\\0' '\\n'; echo 'exit 0'; } > "$CI_SCRIPT.new"
    cat "$CI_SCRIPT.new" > "$CI_SCRIPT"
    exit 1 ;;
esac
exec "$REAL_PYTHON" "$@"
"""


def test_the_branchs_code_cannot_rewrite_the_running_ci_script(origin, tmp_path):
    """bash reads a script as it runs it; ``.ci/run`` is one brace group, read whole before the
    branch's own code (bootstrap, gate, tests) runs under it, so a failed gate stays failed."""
    root = clone(origin, tmp_path / "rewriter")
    script = tmp_path / "ci-run"
    script.write_text(MAIN_CI.read_text())
    fake = tmp_path / "python"
    fake.write_text(REWRITER)
    fake.chmod(0o755)
    env = {**ENV, "EVALPORT_CI_NO_INSTALL": "1", "PYTHON": str(fake), "REAL_PYTHON": sys.executable,
           "CI_SCRIPT": str(script), "NO_COLOR": "1"}
    env.pop("PYTHONPATH", None)
    done = subprocess.run(["bash", str(script), "--tree", str(root), "--check-only"], stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, env=env, cwd=tmp_path, timeout=600)
    assert script.read_text().endswith("\nexit 0\n")  # the rewrite happened
    assert done.returncode == 1, done.stdout
    assert done.stdout.strip().splitlines()[-1] == "ci: the gate failed"


PARENT_EXIT = '''"""The branch's ``python -m evalport_spec``: leaves a mark, then ends the CI script (its parent)
with status 0, as ``gdb -p PPID -ex 'call exit(0)'`` does (same user; root on a hosted runner)."""
import os, pathlib, signal
pathlib.Path(os.environ["MARK"]).write_text("the branch's code ran")
os.kill(os.getppid(), signal.SIGKILL)
'''


def test_no_branch_code_runs_after_a_failed_gate_of_record(origin, tmp_path):
    """Red team: code running under ``.ci/run`` after the gate of record failed could end the
    script with status 0 through ptrace; the script now ends at the failure, so none runs."""
    root = _pr(origin, tmp_path, "parent")
    _break_enum(root)
    (root / "tools/evalport_spec/__main__.py").write_text(PARENT_EXIT)
    commit_all(root, "break, then end the script")
    mark = tmp_path / "ran"
    env = {**ENV, "EVALPORT_CI_NO_INSTALL": "1", "PYTHON": sys.executable, "NO_COLOR": "1", "MARK": str(mark)}
    env.pop("PYTHONPATH", None)
    done = subprocess.run([str(root / ".ci/run"), "--check-only", "--base", "origin/main"], stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, env=env, cwd=root, timeout=600)
    assert done.returncode == 1, done.stdout
    assert re.search(r"^FAIL\s+base ", done.stdout, re.M), done.stdout
    assert done.stdout.strip().splitlines()[-1].startswith("ci: the gate failed (the gate of record)")
    assert not mark.exists()


POISON = '''"""The branch's ``python -m evalport_spec``: writes a PATCH answer for the base's gate into the
classifier's disk cache, then claims a pass."""
import os, subprocess, sys, tempfile
d = tempfile.mkdtemp()
subprocess.run(f"git archive origin/main tools | tar -x -C {d}", shell=True, check=True)
code = ("import sys; sys.path.insert(0, %r)\\n"
        "import evalport_spec.compat.versions as V\\n"
        "real = V._compare_versions\\n"
        "def fake(old, new, repo, **kw):\\n"
        "    if new.name != 'draft': return real(old, new, repo, **kw)\\n"
        "    r = real(old, old, repo, **kw); r.new_label = new.name; return r\\n"
        "V._compare_versions = fake\\n"
        "V._from_disk = lambda key: None\\n"
        "from evalport_spec.cli import main\\n"
        "main(['-C', %r, 'check', '--base', 'origin/main'])\\n") % (d + "/tools", os.getcwd())
subprocess.run([sys.executable, "-c", code], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
print("gate: passed")
'''


def test_a_cache_the_branch_wrote_is_never_read_by_the_judge(origin, tmp_path):
    """Run 1: the judge fails the break, then the branch's own code writes a false PATCH under
    the judge's cache key into the user's cache. Run 2 (a re-run on the same machine): the judge
    reads a cache of its own, so it fails again."""
    root = _pr(origin, tmp_path, "poison")
    _break_enum(root)
    (root / "tools/evalport_spec/__main__.py").write_text(POISON)
    commit_all(root, "poison the cache")
    cache = tmp_path / "user-cache"
    env = {**ENV, "EVALPORT_CI_NO_INSTALL": "1", "PYTHON": sys.executable, "NO_COLOR": "1",
           "EVALPORT_CACHE_DIR": str(cache)}
    env.pop("PYTHONPATH", None)
    # the branch's code ran on this machine before (.ci/run no longer runs it after a failed
    # gate of record): its false answer is in the user's cache
    subprocess.run([sys.executable, "-m", "evalport_spec"], env={**env, "PYTHONPATH": str(root / "tools")},
                   cwd=root, check=True, capture_output=True, timeout=600)
    for run in (1, 2):
        done = subprocess.run([str(root / ".ci/run"), "--check-only", "--base", "origin/main"],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env,
                              cwd=root, timeout=600)
        assert done.returncode == 1, (run, done.stdout)
        assert re.search(r"^FAIL\s+base ", done.stdout, re.M), done.stdout
    assert any(cache.rglob("*")), "the branch's code wrote its answer (the test's premise)"


@pytest.mark.parametrize(("setup", "message"), [
    (lambda t: t / "missing", "--tree @: not a folder"),
    (lambda t: t, "@ is not a git checkout (the gate reads its history)"),
    (lambda t: (git(t, "init", "-q"), t)[1], "@ is not an EvalPort spec repository (no spec/ folder)"),
], ids=["missing", "not-git", "not-a-spec-repository"])
def test_a_bad_tree_is_one_line_and_exit_2(tmp_path, setup, message):
    """``--tree`` naming no folder, a folder outside git, or a git checkout without spec/: one
    ``ci: error:`` line naming it, exit 2, before anything is installed or judged."""
    folder = tmp_path / "t"
    folder.mkdir()
    tree = setup(folder)
    done = subprocess.run(["bash", str(MAIN_CI), "--tree", str(tree), "--check-only"], stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, env=ENV, cwd=tmp_path, timeout=60)
    assert done.returncode == 2
    assert done.stdout.splitlines() == [f"ci: error: {message.replace('@', str(tree))}"]
