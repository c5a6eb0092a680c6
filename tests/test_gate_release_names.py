"""``spec/releases/`` holds release folders (``MAJOR.MINOR.PATCH``) and ``SHA256SUMS`` only
(``release-folder-name``, manifest stage): every reader of releases passes any other entry over,
so a copy of a release as ``spec/releases/1.3``, listed in the manifest, passed every stage
unchecked (red team, session 33)."""

from __future__ import annotations

import hashlib
import shutil

import pytest

from evalport_spec.gate import run_gate
from gate_repo import reset_fixtures

scratch, repo = reset_fixtures("release-names")


def listed_copy(root, name):
    """``spec/releases/1.3.0`` copied to ``spec/releases/NAME`` and listed in SHA256SUMS."""
    releases = root / "spec/releases"
    shutil.copytree(releases / "1.3.0", releases / name)
    lines = [f"{hashlib.sha256(p.read_bytes()).hexdigest()}  {p.relative_to(releases).as_posix()}\n"
             for p in sorted((releases / name).rglob("*")) if p.is_file()]
    with (releases / "SHA256SUMS").open("a") as f:
        f.writelines(lines)


def names(report):
    return [f.new.file for f in report.stage("manifest").findings if f.kind == "release-folder-name"]


@pytest.mark.parametrize("name", ["1.3", "v1.3.0", "1.3.0-rc.1", "01.3.0"])
def test_a_listed_folder_not_named_as_a_release_fails_the_manifest_stage(repo, name):
    listed_copy(repo, name)
    report = run_gate(repo, base="main", cache=False)
    assert names(report) == [f"spec/releases/{name}"]
    assert report.exit_code == 1


def test_a_stray_file_beside_the_releases_fails_too(repo):
    (repo / "spec/releases/NOTES.md").write_text("notes\n")
    assert names(run_gate(repo, stages=["manifest"], cache=False)) == ["spec/releases/NOTES.md"]


def test_the_releases_as_made_pass(repo):
    report = run_gate(repo, stages=["manifest"], cache=False)
    assert names(report) == [] and report.stage("manifest").status == "ok"
