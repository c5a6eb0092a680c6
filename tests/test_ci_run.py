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

import pytest

from gate_repo import ENV, commit_all, git, make_repo

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
    policy = root / "tools/evalport_spec/gate/policy.py"
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
    judged, own = out.split("ci: this tree's toolchain")
    assert "ci: the gate of record: origin/main's toolchain" in judged
    assert re.search(r"^FAIL\s+base ", judged, re.M) and "not accepted: no accepted MAJOR RFC lists fingerprint" in judged
    assert "toolchain or CI configuration differs from origin/main: tools/evalport_spec/gate/policy.py" in judged
    assert "policy: policy-additive" in own  # the gutted gate would have let it through
    assert os.path.isdir(root / ".git") and git(root, "rev-parse", "--is-shallow-repository").strip() == "false"
