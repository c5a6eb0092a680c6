"""``docs publish`` with mike on a throwaway git repository: refuses a dirty tree, deploys every
release and the draft (latest = newest release, a real copy), is idempotent, never removes a
version, prints one progress line per version."""

from __future__ import annotations

import json
import os
import subprocess

import pytest

from evalport_spec.cli import main
from test_site import make_repo

pytestmark = pytest.mark.slow

ENV = dict(GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@test.invalid", GIT_COMMITTER_NAME="t",
           GIT_COMMITTER_EMAIL="t@test.invalid", GIT_AUTHOR_DATE="2026-11-30T12:00:00Z",
           GIT_COMMITTER_DATE="2026-11-30T12:00:00Z")


def git(root, *args) -> str:
    r = subprocess.run(["git", *args], cwd=root, env={**os.environ, **ENV}, capture_output=True, text=True,
                       check=True)
    return r.stdout.strip()


@pytest.fixture
def gitrepo(tmp_path):
    root = make_repo(tmp_path / "repo")
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "spec")
    return root


def test_dirty_tree_is_refused(gitrepo, capsys):
    (gitrepo / "spec" / "SPEC.md").write_text("# changed\n")
    assert main(["-C", str(gitrepo), "docs", "publish"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1
    assert err[0].startswith("evalport-spec: error: ")
    assert "uncommitted changes (e.g. spec/SPEC.md)" in err[0] and "--allow-dirty" in err[0]
    assert git(gitrepo, "branch", "--list", "gh-pages") == ""


def test_publish_is_complete_idempotent_and_additive(gitrepo, capsys):
    assert main(["-C", str(gitrepo), "docs", "publish"]) == 0
    err = capsys.readouterr().err.splitlines()
    progress = [ln.removeprefix("docs: ").rsplit(": ", 1)[0] for ln in err if ln.startswith("docs: [")]
    assert progress == ["[1/3] 1.0.0", "[2/3] 1.1.0 (latest)", "[3/3] draft"]
    assert all("deployed" in ln for ln in err if ln.startswith("docs: ["))
    tree = set(git(gitrepo, "ls-tree", "--name-only", "gh-pages").split())
    assert tree == {".nojekyll", "1.0.0", "1.1.0", "draft", "latest", "index.html", "versions.json"}
    versions = json.loads(git(gitrepo, "show", "gh-pages:versions.json"))
    assert [(v["version"], v["aliases"]) for v in versions] == [("draft", []), ("1.1.0", ["latest"]),
                                                                ("1.0.0", [])]
    # latest is a copy (a tree, not a symlink) and the schema bytes equal the release's file
    assert git(gitrepo, "ls-tree", "gh-pages", "latest").split()[1] == "tree"
    want = (gitrepo / "spec" / "releases" / "1.1.0" / "schemas" / "resultset.json").read_text()
    assert git(gitrepo, "show", "gh-pages:latest/schemas/resultset.json") == want.strip()
    assert git(gitrepo, "show", "gh-pages:1.1.0/schemas/resultset.json") == want.strip()
    first = git(gitrepo, "rev-parse", "gh-pages")

    # publishing the same commit again changes nothing
    assert main(["-C", str(gitrepo), "docs", "publish"]) == 0
    err = capsys.readouterr().err.splitlines()
    assert sum("unchanged" in ln for ln in err if ln.startswith("docs: [")) == 3
    assert git(gitrepo, "rev-parse", "gh-pages") == first

    # a version no longer in the repository stays published
    git(gitrepo, "rm", "-q", "-r", "spec/releases/1.0.0")
    git(gitrepo, "commit", "-q", "-m", "drop 1.0.0")
    assert main(["-C", str(gitrepo), "docs", "publish"]) == 0
    tree = set(git(gitrepo, "ls-tree", "--name-only", "gh-pages").split())
    assert "1.0.0" in tree
