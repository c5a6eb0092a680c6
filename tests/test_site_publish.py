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
    assert tree == {".nojekyll", "1.0.0", "1.1.0", "draft", "latest", "index.html", "versions.json", "404.html"}
    # the site's not-found page is the newest release's, whose links point into /spec/1.1.0/
    top_404 = git(gitrepo, "show", "gh-pages:404.html")
    assert top_404 == git(gitrepo, "show", "gh-pages:1.1.0/404.html")
    assert '"base": "/spec/1.1.0/"' in top_404
    versions = json.loads(git(gitrepo, "show", "gh-pages:versions.json"))
    # releases newest first, the draft last (mike alone would put "draft" first)
    assert [(v["version"], v["aliases"]) for v in versions] == [("1.1.0", ["latest"]), ("1.0.0", []),
                                                                ("draft", [])]
    assert git(gitrepo, "log", "-1", "--format=%s", "gh-pages").startswith("Top-level 404.html")
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
    versions = json.loads(git(gitrepo, "show", "gh-pages:versions.json"))
    assert [v["version"] for v in versions] == ["1.1.0", "1.0.0", "draft"]


def test_publish_refuses_a_symlink_leaving_the_repository(gitrepo, tmp_path, capsys):
    (gitrepo / "spec" / "examples").mkdir()
    (gitrepo / "spec" / "examples" / "evil.json").symlink_to("/etc/passwd")
    assert main(["-C", str(gitrepo), "docs", "publish", "--allow-dirty"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["evalport-spec: error: spec/examples/evil.json: refusing a symlink that leaves the "
                   "repository (it points to /etc/passwd)"]
    assert git(gitrepo, "branch", "--list", "gh-pages") == ""


def test_order_branch_versions_with_plumbing(tmp_path):
    """Without mike: a branch whose versions.json is in mike's order gets one re-ordering commit
    (other files untouched), a second call writes nothing, and the two commits count as the same
    publication; a branch that ends where it started is moved back."""
    from evalport_spec.site.ghpages import (
        drop_noop_commits,
        order_branch_versions,
        same_publication,
    )

    root = tmp_path / "r"
    root.mkdir()
    git(root, "init", "-q", "-b", "gh-pages")
    mike_order = [{"version": "draft", "title": "draft", "aliases": []},
                  {"version": "1.1.0", "title": "1.1.0", "aliases": ["latest"]},
                  {"version": "1.0.0", "title": "1.0.0", "aliases": []}]
    (root / "versions.json").write_text(json.dumps(mike_order, indent=2) + "\n")
    (root / "1.0.0").mkdir()
    (root / "1.0.0" / "index.html").write_text("x\n")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "mike")
    start = git(root, "rev-parse", "gh-pages")
    new = order_branch_versions(root, "gh-pages")
    assert new == git(root, "rev-parse", "gh-pages") and new != start
    assert git(root, "rev-parse", "gh-pages^") == start
    assert git(root, "show", "gh-pages:versions.json") == json.dumps(
        [mike_order[1], mike_order[2], mike_order[0]], indent=2)
    assert git(root, "diff-tree", "-r", "--name-only", start, new) == "versions.json"
    assert order_branch_versions(root, "gh-pages") is None
    assert same_publication(root, start, new)
    assert not drop_noop_commits(root, "gh-pages", start)  # the tree did change
    assert drop_noop_commits(root, "gh-pages", new) is False  # already there
    # a later commit that only restores mike's order ends on the same tree as `start`
    (root / "versions.json").write_text(json.dumps(mike_order, indent=2) + "\n")
    git(root, "commit", "-q", "-am", "mike again")
    assert git(root, "rev-parse", "gh-pages^{tree}") == git(root, "rev-parse", f"{start}^{{tree}}")
    assert drop_noop_commits(root, "gh-pages", start)
    assert git(root, "rev-parse", "gh-pages") == start
