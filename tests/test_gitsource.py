"""git and gitsource: revision and path checks, reading trees at a revision, the fetch hint."""

from __future__ import annotations

import pytest

from evalport_spec import git as gitcmd
from evalport_spec import gitsource
from evalport_spec.errors import InputError
from gate_repo import git, make_repo


@pytest.mark.parametrize("ref", ["--upload-pack=x", "-x", "a..b", "main:spec", "HEAD@{1}", "a b",
                                 "a\nb", "x\x00", "refs/heads/x.lock", "a/", "ma*n", ""])
def test_unsafe_revisions_are_refused(ref):
    with pytest.raises(InputError) as exc:
        gitcmd.check_ref(ref)
    assert "refusing" in str(exc.value) or "empty" in str(exc.value)


@pytest.mark.parametrize("ref", ["main", "origin/main", "refs/remotes/origin/main", "v1.2.0", "HEAD~1",
                                 "HEAD^2", "0123abcd"])
def test_safe_revisions_pass(ref):
    assert gitcmd.check_ref(ref) == ref


@pytest.mark.parametrize("path", ["/etc/passwd", "../x", "spec/../../x", "-rf", "a\x01"])
def test_unsafe_paths_are_refused(path):
    with pytest.raises(InputError):
        gitcmd.check_path(path)


@pytest.mark.parametrize("ref,hint", [
    ("origin/main", "git fetch --depth=1 origin main:refs/remotes/origin/main"),
    ("upstream/release-1", "git fetch --depth=1 upstream release-1:refs/remotes/upstream/release-1"),
    ("refs/remotes/origin/dev", "git fetch --depth=1 origin dev:refs/remotes/origin/dev"),
    ("refs/tags/v1.0.0", "git fetch --depth=1 origin refs/tags/v1.0.0:refs/tags/v1.0.0"),
    ("0123456789abcdef0123456789abcdef01234567",
     "git fetch --depth=1 origin 0123456789abcdef0123456789abcdef01234567"),
    ("origin/main~2", "git fetch origin main:refs/remotes/origin/main"),
    ("main", "git fetch --depth=1 origin main:refs/remotes/origin/main"),
])
def test_fetch_hint(ref, hint):
    assert gitcmd.fetch_hint(ref, ["origin", "upstream"]) == hint


def test_a_missing_revision_in_a_full_clone_is_not_blamed_on_shallowness(tmp_path):
    """Session 34: ``--base HEAD~999`` in a full clone said "a shallow CI clone ...: run `git fetch
    --unshallow`": more history cannot bring an ancestor a full clone lacks, and ``--depth=1``
    would make the clone shallow. A shallow clone keeps its hint."""
    import subprocess

    root = make_repo(tmp_path)
    assert git(root, "rev-parse", "--is-shallow-repository").strip() == "false"
    with pytest.raises(InputError) as exc:
        gitcmd.resolve(root, "HEAD~999")
    assert exc.value.message == ("git revision 'HEAD~999' does not exist: 'HEAD' has no such ancestor "
                                 "(this clone has the whole history)")
    with pytest.raises(InputError) as exc:
        gitcmd.resolve(root, "nosuch~2")
    assert exc.value.message == ("git revision 'nosuch~2' not found in this repository (it has the whole "
                                 "history of what it fetched): if a remote has it, run `git fetch origin "
                                 "nosuch:refs/remotes/origin/nosuch` first")
    shallow = tmp_path / "shallow-clone"
    git(root, "commit", "-q", "--allow-empty", "-m", "a second commit, so a depth-1 clone is shallow")
    subprocess.run(["git", "clone", "-q", "--depth", "1", f"file://{root}", str(shallow)], check=True,
                   capture_output=True)
    with pytest.raises(InputError, match=r"shallow CI clone .*run `git fetch --unshallow` first"):
        gitcmd.resolve(shallow, "HEAD~1")
    with pytest.raises(InputError, match=r"shallow CI clone .*run `git fetch --depth=1 origin "
                       r"main:refs/remotes/origin/main` first"):
        gitcmd.resolve(shallow, "origin/main")  # --depth 1 fetched the checked-out branch alone


def test_read_tree_and_file_at_revision(tmp_path):
    root = make_repo(tmp_path)
    committed = (root / "spec" / "VERSION").read_bytes()
    (root / "spec" / "VERSION").write_text("9.9.9\n")  # working tree only: the revision is unchanged
    at_main = gitsource.read_tree(root, "main", "spec")
    assert at_main["VERSION"] == committed != b"9.9.9\n"
    assert "schemas/suite.json" in at_main and "releases/SHA256SUMS" in at_main
    assert gitsource.read_file(root, "main", "spec/VERSION") == at_main["VERSION"]
    assert gitsource.read_file(root, "main", "spec/nope.txt") is None
    assert "suite.json" in gitsource.list_dir(root, "main", "spec/schemas")
    v = gitsource.spec_version_at(root, "main", name="main:spec")
    assert v.label == "main:spec" and v.spec_md.rstrip().endswith("<!-- end of specification -->")
    assert v.schemas.files["suite.json"].loaded.source == "main:spec/schemas/suite.json"


def test_missing_revision_says_what_to_fetch(tmp_path):
    root = make_repo(tmp_path)
    git(root, "remote", "add", "origin", "https://example.invalid/x.git")
    with pytest.raises(InputError) as exc:
        gitcmd.resolve(root, "origin/main")
    # a full clone: the fetch brings history too (--depth=1 would make the clone shallow)
    assert "run `git fetch origin main:refs/remotes/origin/main` first" in str(exc.value)


def test_outside_git(tmp_path):
    with pytest.raises(InputError, match="not a git repository"):
        gitcmd.resolve(tmp_path, "main")
