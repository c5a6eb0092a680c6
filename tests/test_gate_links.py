"""spec/, rfcs/, tools/, .ci/ and the packaging, ignore and module files at the root hold plain
files only: a symbolic link, a gitlink (submodule entry) or a nested git repository there fails
the gate (``spec-symlink``), in the working tree and in
every commit the gate reads from git (red team, session 33: a link inside spec/ passed
``check --base`` with exit 0, and git reads skipped it, so the next base lost the file).

One scratch repository (spec and RFCs only) serves the module; each test starts from its
first commit with a ``feature`` branch.
"""

from __future__ import annotations

import os
import shutil

import pytest

from evalport_spec import gitsource
from evalport_spec.errors import InputError
from evalport_spec.gate import run_gate
from gate_repo import commit_all, git, make_repo, reset


@pytest.fixture(scope="module")
def scratch(tmp_path_factory):
    root = make_repo(tmp_path_factory.mktemp("links"))
    return root, git(root, "rev-parse", "main").strip()


@pytest.fixture
def repo(scratch):
    root, first = scratch
    reset(root, first)
    git(root, "clean", "-ffdq")  # -ff: nested repositories too
    return root


def link_errors(report):
    return sorted((f.new.file, f.extra["what"]) for f in report.stage("schemas").findings
                  if f.kind == "spec-symlink")


def link_grader_to_a_copy(root):
    """The draft's grader.json becomes a link to an identical copy outside spec/."""
    (root / "docs").mkdir(exist_ok=True)
    shutil.copy(root / "spec/schemas/grader.json", root / "docs/grader.json")
    (root / "spec/schemas/grader.json").unlink()
    os.symlink("../../docs/grader.json", root / "spec/schemas/grader.json")


def test_a_link_inside_spec_fails_the_schemas_stage_and_the_gate(repo):
    link_grader_to_a_copy(repo)
    report = run_gate(repo, base="main", stages=["schemas", "base"], cache=False)
    assert link_errors(report) == [("spec/schemas/grader.json", "a symbolic link")]
    assert report.exit_code == 1


def test_a_released_file_linked_to_the_draft_and_a_link_in_rfcs_are_both_named(repo):
    released = repo / "spec/releases/1.3.0/SPEC.md"
    released.unlink()
    os.symlink("../../SPEC.md", released)
    os.symlink("0001-conformance-suite.md", repo / "rfcs/0099-twin.md")
    report = run_gate(repo, stages=["schemas"], cache=False)
    assert link_errors(report) == [("rfcs/0099-twin.md", "a symbolic link"),
                                   ("spec/releases/1.3.0/SPEC.md", "a symbolic link")]


def test_a_nested_repository_and_a_gitlink_under_spec_fail(repo):
    (repo / "spec/vendor").mkdir()
    git(repo / "spec/vendor", "init", "-q")
    head = git(repo, "rev-parse", "HEAD").strip()
    git(repo, "update-index", "--add", "--cacheinfo", f"160000,{head},spec/module")
    report = run_gate(repo, stages=["schemas"], cache=False)
    assert link_errors(report) == [("spec/module", "a gitlink (a submodule entry)"),
                                   ("spec/vendor", "a nested git repository (it holds .git)")]


def test_a_link_under_tools_fails_too(repo):
    (repo / "tools").mkdir()
    os.symlink("../spec/VERSION", repo / "tools/version.txt")
    report = run_gate(repo, stages=["schemas"], cache=False)
    assert link_errors(report) == [("tools/version.txt", "a symbolic link")]


def test_a_plain_tree_has_no_link_finding(repo):
    report = run_gate(repo, stages=["schemas"], cache=False)
    assert link_errors(report) == []
    assert report.stage("schemas").status == "ok"


def test_git_reads_refuse_a_link_under_spec_instead_of_skipping_it(repo):
    link_grader_to_a_copy(repo)
    sha = commit_all(repo, "link")
    with pytest.raises(InputError) as exc:
        gitsource.read_tree(repo, sha, "spec")
    assert exc.value.source == "spec/schemas/grader.json"
    assert "a symbolic link" in exc.value.message
    with pytest.raises(InputError):
        gitsource.read_file(repo, sha, "spec/schemas/grader.json")
    with pytest.raises(InputError):
        gitsource.list_dir(repo, sha, "spec/schemas")


def test_git_reads_refuse_a_gitlink_under_spec_and_under_tools(repo):
    head = git(repo, "rev-parse", "HEAD").strip()
    git(repo, "update-index", "--add", "--cacheinfo", f"160000,{head},spec/releases/9.9.9")
    git(repo, "update-index", "--add", "--cacheinfo", f"160000,{head},tools/evalport_spec")
    git(repo, "commit", "-q", "-m", "gitlinks")
    with pytest.raises(InputError, match="gitlink"):
        gitsource.read_tree(repo, "HEAD", "spec/releases")
    with pytest.raises(InputError, match="gitlink"):
        gitsource.read_tree(repo, "HEAD", "tools")


def test_a_base_holding_a_link_fails_the_next_change_not_reads_it_without_the_file(repo):
    link_grader_to_a_copy(repo)
    base = commit_all(repo, "link lands")
    git(repo, "checkout", "-q", "-b", "next")
    (repo / "spec/schemas/grader.json").unlink()
    shutil.copy(repo / "docs/grader.json", repo / "spec/schemas/grader.json")
    report = run_gate(repo, base=base, stages=["base"], cache=False)
    assert report.exit_code == 1
    messages = [f.message for f in report.stage("base").findings if f.severity.name == "ERROR"]
    assert any("spec/schemas/grader.json is a symbolic link at commit" in m for m in messages), messages


def test_links_outside_the_guarded_folders_are_still_skipped_by_git_reads(repo):
    os.symlink("spec/VERSION", repo / "version.txt")
    (repo / "docs").mkdir(exist_ok=True)
    os.symlink("../spec/VERSION", repo / "docs/VERSION-link")
    sha = commit_all(repo, "links at the root and in docs")
    assert gitsource.read_file(repo, sha, "version.txt") is None
    assert gitsource.read_file(repo, sha, "docs/VERSION-link") is None


def test_a_link_at_the_root_that_could_be_a_package_folder_is_refused(repo):
    """A root ``yaml`` linked to a folder holding ``__init__.py`` is a package ``python -m``
    imports from the root in place of PyYAML; git holds only the link's text, so git reads
    would see no module at all (session 34)."""
    (repo / "docs/fake").mkdir(parents=True)
    (repo / "docs/fake/__init__.py").write_text("def safe_load(text):\n    return []\n")
    os.symlink("docs/fake", repo / "yaml")
    sha = commit_all(repo, "a package folder linked at the root")
    with pytest.raises(InputError, match="yaml is a symbolic link at commit"):
        gitsource.list_files(repo, sha)
    report = run_gate(repo, stages=["schemas"], cache=False)
    assert link_errors(report) == [("yaml", "a symbolic link")]


def test_a_link_below_a_root_package_is_refused(repo):
    (repo / "orjson").mkdir()
    (repo / "docs").mkdir(exist_ok=True)
    (repo / "docs/fake.py").write_text("loads = None\n")
    os.symlink("../docs/fake.py", repo / "orjson/__init__.py")
    sha = commit_all(repo, "a root package whose __init__ is a link")
    with pytest.raises(InputError, match="orjson/__init__.py is a symbolic link at commit"):
        gitsource.list_files(repo, sha)
    report = run_gate(repo, stages=["schemas"], cache=False)
    assert link_errors(report) == [("orjson/__init__.py", "a symbolic link (in the index)")]


def test_a_link_committed_under_tools_is_listed_as_toolchain_changed_and_refused_by_git_reads(repo):
    (repo / "tools").mkdir()
    os.symlink("../spec/VERSION", repo / "tools/version.txt")
    sha = commit_all(repo, "a link under tools")
    report = run_gate(repo, base="main", stages=["base"], cache=False)
    (changed,) = [f for f in report.stage("base").findings if f.kind == "toolchain-changed"]
    assert changed.extra["paths"] == ["tools/version.txt"]
    with pytest.raises(InputError, match="tools/version.txt is a symbolic link at commit"):
        gitsource.read_tree(repo, sha, "tools")


@pytest.mark.parametrize("name", ["pyproject.toml", "setup.py", "setup.cfg", "MANIFEST.in", "gate-ignore.yml",
                                  "noxfile.py", "orjson.py"])
def test_git_reads_refuse_a_link_at_the_root_in_place_of_a_packaging_ignore_or_module_file(repo, name):
    """Red team (session 34): a base whose pyproject.toml or gate-ignore.yml was a symbolic link
    read as having none (git reads skipped the link) while its checkout followed it."""
    (repo / "docs").mkdir(exist_ok=True)
    (repo / "docs/target.txt").write_text("[project]\nname = 'x'\n")
    os.symlink("docs/target.txt", repo / name)
    sha = commit_all(repo, f"{name} as a link")
    with pytest.raises(InputError, match=f"{name} is a symbolic link at commit"):
        gitsource.read_file(repo, sha, name)
    with pytest.raises(InputError, match=f"{name} is a symbolic link at commit"):
        gitsource.list_dir(repo, sha, "")
    report = run_gate(repo, stages=["schemas"], cache=False)
    assert link_errors(report) == [(name, "a symbolic link")]


def test_git_reads_refuse_a_link_under_ci(repo):
    (repo / ".ci").mkdir()
    os.symlink("../spec/VERSION", repo / ".ci/run")
    sha = commit_all(repo, "a link under .ci")
    with pytest.raises(InputError, match=r"\.ci/run is a symbolic link at commit"):
        gitsource.read_file(repo, sha, ".ci/run")
    report = run_gate(repo, stages=["schemas"], cache=False)
    assert link_errors(report) == [(".ci/run", "a symbolic link")]


@pytest.mark.parametrize("name", ["Pyproject.toml", "Tools/x.py", "SPEC/VERSION", "ORJSON.PY"])
def test_guarded_names_in_another_letter_case_are_guarded_too(repo, name):
    """A case-insensitive checkout (macOS, Windows) reads ``Pyproject.toml`` as pyproject.toml."""
    (repo / name).parent.mkdir(parents=True, exist_ok=True)
    os.symlink("README-target", repo / name)
    sha = commit_all(repo, f"{name} as a link")
    with pytest.raises(InputError, match="is a symbolic link at commit"):
        gitsource.list_files(repo, sha)


def test_an_ignored_link_at_the_root_is_no_part_of_the_change(repo):
    """A developer's ``venv`` link, ignored by .gitignore, never lands: no finding (a committed
    one would be refused)."""
    (repo / ".gitignore").write_text("/venv\n")
    commit_all(repo, "ignore venv")
    os.symlink(str(repo / "docs"), repo / "venv")
    assert link_errors(run_gate(repo, stages=["schemas"], cache=False)) == []
    (repo / ".gitignore").write_text("")
    assert link_errors(run_gate(repo, stages=["schemas"], cache=False)) == [("venv", "a symbolic link")]
