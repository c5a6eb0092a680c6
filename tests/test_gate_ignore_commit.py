"""A ``gate-ignore.yml`` entry accepts a ``rule-implementation-changed`` finding only when its
``commit`` holds the code it excuses (:mod:`evalport_spec.gate.ignorecommit`). Red team,
sessions 35 and 36: entries of sixteen hex digits landed "for a helper extraction" before the
code existed; the code they excused made SELF_PARENT compare ids without their namespace."""

from __future__ import annotations

import pytest

from evalport_spec.compat.ignore import load_ignore
from evalport_spec.errors import InputError
from evalport_spec.gate import run_gate
from gate_repo import commit_all, git, reset_fixtures

scratch, repo = reset_fixtures("ignorecommit", toolchain=True)

HELPER = "\n\ndef _helper_nothing_calls() -> None:\n    return None\n"


def _refactor(root):
    versions = root / "tools/evalport_spec/validation/versions.py"
    versions.write_text(versions.read_text() + HELPER)


def _land(root, commit_line):
    """The reviewed refactor (a helper nothing calls: every rule's code, undecided) on a branch of
    its own, then entries for its findings landed on ``main`` (each with ``commit_line``, a
    function of the refactor's commit id), then the same edit made again on a new branch from
    ``main``: the tree the gate judges. Returns the refactor's commit id."""
    git(root, "checkout", "-q", "-B", "refactor", "main")
    _refactor(root)
    done = commit_all(root, "a helper nothing calls yet")
    findings = [f for f in run_gate(root, base="main", stages=["base"], cache=False).findings()
                if f.kind == "rule-implementation-changed"]
    assert len(findings) == 5 and all(f.undecided for f in findings), [f.kind for f in findings]
    git(root, "checkout", "-q", "main")
    (root / "gate-ignore.yml").write_text("".join(
        f"- {{kind: rule-implementation-changed, fingerprint: '{f.fingerprint}', reason: a helper, "
        f"{commit_line(done)}}}\n" for f in findings))
    commit_all(root, "accept the reviewed refactor")
    git(root, "checkout", "-q", "-B", "again")
    _refactor(root)
    commit_all(root, "the same helper, again")
    return done


def _base(root):
    return run_gate(root, base="main", stages=["base"], ignore=root / "gate-ignore.yml", cache=False).stage("base")


def test_an_entry_naming_the_commit_that_holds_the_code_accepts_it(repo):
    """The commit need not be on the judged branch: what counts is that its code is the code
    judged (the same rule digest)."""
    _land(repo, lambda c: f"commit: '{c}'")
    stage = _base(repo)
    assert stage.status == "warn", [f.message for f in stage.errors]
    ignored = [f for f in stage.findings if f.kind == "rule-implementation-changed"]
    assert len(ignored) == 5 and all("ignored by the --ignore entry" in f.message for f in ignored)
    assert not [f for f in stage.findings if f.kind == "ignore-entry-commit-mismatch"]


@pytest.mark.parametrize("line, why", [
    (lambda c: "expires: '2999-01-01'", "it names no commit"),
    (lambda c: "commit: '" + "0" * 40 + "'", "is not in this clone"),
])
def test_an_entry_without_a_commit_in_the_clone_accepts_nothing(repo, line, why):
    _land(repo, line)
    stage = _base(repo)
    assert stage.status == "fail"
    errors = [f for f in stage.errors if f.kind == "rule-implementation-changed"]
    assert len(errors) == 5
    warned = [f.message for f in stage.findings if f.kind == "ignore-entry-commit-mismatch"]
    assert len(warned) == 5 and all(why in m for m in warned), warned
    # a withdrawn entry is explained once, not also called stale
    assert not [f for f in stage.findings if f.kind == "ignore-entry-stale"]


def test_an_entry_naming_a_commit_with_other_code_accepts_nothing(repo):
    """The red team's route: the entry's fingerprints are those of the code judged, but the
    commit its reviewer is shown holds other code (here the base's own, without the helper):
    the fingerprint alone would not tell, the commit does."""
    first = git(repo, "rev-parse", "main").strip()
    _land(repo, lambda c: f"commit: '{first}'")
    stage = _base(repo)
    assert stage.status == "fail"
    warned = [f.message for f in stage.findings if f.kind == "ignore-entry-commit-mismatch"]
    assert len(warned) == 5 and all(f"its commit {first[:12]} holds other code" in m for m in warned), warned


def test_an_outside_ignore_file_needs_no_commit(repo, tmp_path):
    """The CI owner's file keeps its full power: no commit asked for."""
    _land(repo, lambda c: "expires: '2999-01-01'")
    outside = tmp_path / "owner.yml"
    outside.write_text((repo / "gate-ignore.yml").read_text())
    stage = run_gate(repo, base="main", stages=["base"], ignore=outside, cache=False).stage("base")
    assert stage.status == "warn", [f.message for f in stage.errors]


def test_a_new_entry_shows_its_reviewer_the_commit_it_names(repo):
    """The entry's reviewer (the change that adds it, where it accepts nothing yet) is shown the
    commit whose code it will excuse, by subject, and how to read that code."""
    _refactor(repo)
    done = commit_all(repo, "a helper nothing calls yet")
    (repo / "gate-ignore.yml").write_text(
        f"- {{kind: rule-implementation-changed, fingerprint: '0123456789abcdef', reason: r, commit: '{done}'}}\n"
        f"- {{kind: rule-implementation-changed, fingerprint: '0123456789abcdee', reason: r, commit: '{'1' * 40}'}}\n")
    commit_all(repo, "entries")
    notes = [f.message for f in _base(repo).findings if f.kind == "ignore-entry-not-at-base"]
    assert len(notes) == 2
    assert notes[0].endswith(f"review the code it excuses: commit {done[:12]} ('a helper nothing calls yet'), "
                             f"`git diff <base> {done[:12]} -- tools/`"), notes[0]
    assert f"commit {'1' * 12} (not in this clone)" in notes[1]


@pytest.mark.parametrize("value", ["abc123", "'" + "A" * 40 + "'", "'" + "0" * 39 + "'", "12345"])
def test_a_commit_that_is_no_full_commit_id_is_an_input_error(tmp_path, value):
    path = tmp_path / "ignore.yml"
    path.write_text(f"- {{kind: rule-implementation-changed, reason: r, commit: {value}}}\n")
    with pytest.raises(InputError) as exc:
        load_ignore(path)
    assert exc.value.pointer == "/0/commit" and "full commit id" in exc.value.message
