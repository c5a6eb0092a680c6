"""The repository's own ignore file (``gate-ignore.yml``) accepts ``rule-implementation-changed``
findings only; every other finding is ignored only by an ``--ignore`` file from outside the
repository (red team, session 33: one entry landed once in the committed file kept excusing
the same break whenever a later change made it again)."""

from __future__ import annotations

import pytest

from evalport_spec.cli import main
from evalport_spec.errors import InputError
from evalport_spec.gate import change_to_accept, run_gate
from evalport_spec.rfc.accept import entry
from gate_repo import commit_all, git, remove_error_types, reset_fixtures

scratch, repo = reset_fixtures("ignores")


def runner_error_entry(root):
    """The ``--ignore`` line accepting the removal of ``runner_error`` (computed on a scratch edit
    of the working tree, then undone)."""
    remove_error_types(root, "runner_error")
    (e,) = [entry(f) for f in change_to_accept(root, base="main")[0]]
    git(root, "checkout", "-q", "--", "spec")
    return f"- {{kind: {e['kind']}, fingerprint: '{e['fingerprint']}', reason: agreed once}}\n"


def test_a_committed_entry_for_a_schema_finding_is_an_input_error_naming_the_file_and_entry(repo, capsys):
    line = runner_error_entry(repo)
    (repo / "gate-ignore.yml").write_text(line)
    commit_all(repo, "an excuse lands first")
    git(repo, "branch", "-f", "main", "HEAD")
    remove_error_types(repo, "runner_error")  # the break the landed entry names
    with pytest.raises(InputError) as exc:
        run_gate(repo, base="main", ignore=repo / "gate-ignore.yml", cache=False)
    assert (exc.value.source, exc.value.pointer) == ("gate-ignore.yml", "/0")
    assert exc.value.message.startswith("entry 0 (enum-value-removed) of the repository's ignore file")
    assert main(["-C", str(repo), "check", "--base", "main", "--stage", "base", "--no-cache",
                 "--ignore", str(repo / "gate-ignore.yml")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "gate-ignore.yml" in err[0] and "entry 0 (enum-value-removed)" in err[0], err
    # without --base (the pre-commit hook, .ci/run on main) the same
    with pytest.raises(InputError, match=r"entry 0 \(enum-value-removed\)"):
        run_gate(repo, stages=["draft"], ignore=repo / "gate-ignore.yml", cache=False)


def test_the_same_entry_from_outside_the_repository_keeps_its_power(repo, tmp_path):
    outside = tmp_path / "owner-ignore.yml"
    outside.write_text(runner_error_entry(repo))
    remove_error_types(repo, "runner_error")
    stage = run_gate(repo, base="main", stages=["base"], ignore=outside, cache=False).stage("base")
    assert stage.status == "warn", [f.message for f in stage.errors]


@pytest.mark.parametrize("via", ["link-to-file", "link-to-checkout"])
def test_the_repositorys_file_given_by_a_path_outside_the_checkout_is_still_the_repositorys(repo, tmp_path, via):
    """A path outside the checkout as written that leads to the repository's own
    gate-ignore.yml (a link to the file, or the checkout reached through a linked folder) is
    that file: its schema-finding entry is refused, it does not get the CI owner's full power."""
    (repo / "gate-ignore.yml").write_text(runner_error_entry(repo))
    commit_all(repo, "an excuse lands first")
    git(repo, "branch", "-f", "main", "HEAD")
    remove_error_types(repo, "runner_error")
    if via == "link-to-file":
        given = tmp_path / "owner-ignore.yml"
        given.symlink_to(repo / "gate-ignore.yml")
    else:
        (tmp_path / "view").symlink_to(repo, target_is_directory=True)
        given = tmp_path / "view/gate-ignore.yml"
    with pytest.raises(InputError) as exc:
        run_gate(repo, base="main", stages=["base"], ignore=given, cache=False)
    assert (exc.value.source, exc.value.pointer) == ("gate-ignore.yml", "/0")
    assert exc.value.message.startswith("entry 0 (enum-value-removed) of the repository's ignore file")


def test_a_committed_entry_for_rule_code_is_still_read(repo):
    (repo / "gate-ignore.yml").write_text(
        "- {kind: rule-implementation-changed, fingerprint: '0123456789abcdef', reason: a renamed local}\n")
    commit_all(repo, "a reviewed refactor's entry")
    report = run_gate(repo, base="HEAD", stages=["base"], ignore=repo / "gate-ignore.yml", cache=False)
    assert report.stage("base").status != "fail"


def test_a_committed_rule_code_entry_carrying_a_schema_findings_fingerprint_accepts_nothing(repo, tmp_path):
    """Red team: the committed file allows kind ``rule-implementation-changed`` only, but an
    entry was matched by fingerprint alone, so that kind with the fingerprint of an
    ``enum-value-removed`` finding still excused the removal."""
    fingerprint = runner_error_entry(repo).split("'")[1]
    (repo / "gate-ignore.yml").write_text(
        f"- {{kind: rule-implementation-changed, fingerprint: '{fingerprint}', reason: disguised}}\n")
    commit_all(repo, "a disguised excuse lands first")
    git(repo, "branch", "-f", "main", "HEAD")
    remove_error_types(repo, "runner_error")
    for ignore in (repo / "gate-ignore.yml", tmp_path / "copy.yml"):
        if ignore.parent == tmp_path:  # the CI owner's file: the kind must match there too
            ignore.write_text((repo / "gate-ignore.yml").read_text())
        report = run_gate(repo, base="main", stages=["draft", "base"], ignore=ignore, cache=False)
        for stage in ("draft", "base"):
            found = [f for f in report.stage(stage).findings if f.kind == "enum-value-removed"]
            assert found and found[0].severity.name == "ERROR", (ignore, stage, found)
            assert report.stage(stage).status == "fail"


@pytest.mark.parametrize("content", ["", "\n\n", "# entries go here\n  # none yet\n", "\ufeff# a BOM first\n",
                                     "---\n# a YAML document with nothing in it\n...\n", "ignore:\n", "null\n",
                                     "ignore: ~  # none yet\n"])
def test_a_blank_ignore_file_is_no_entries_with_a_warning(repo, tmp_path, capsys, content):
    """Session 34: ``check --ignore FILE`` with an empty (or comment-only) file was read as no
    entries in silence; a file named on purpose that says nothing is most likely a mistake."""
    blank = tmp_path / "owner-ignore.yml"
    blank.write_text(content, encoding="utf-8")
    assert main(["-C", str(repo), "check", "--stage", "draft", "--no-cache", "--ignore", str(blank)]) == 0
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"evalport-spec check: warning: {blank} is empty (no entry: nothing but comments, blank "
                   "lines or a null): it accepts nothing; if that is meant, write [] in it, else check the file's "
                   "path and content"]
    report = run_gate(repo, stages=["draft"], ignore=blank, cache=False)
    (found,) = [f for f in report.stage("draft").findings if f.kind == "ignore-file-empty"]
    assert found.severity.name == "WARNING" and found.new.file == str(blank)


def test_the_committed_ignore_file_blank_is_treated_the_same_and_an_explicit_empty_list_is_not(repo, capsys):
    (repo / "gate-ignore.yml").write_text("# reviewed rule-code refactors: none yet\n")
    commit_all(repo, "an ignore file template")
    report = run_gate(repo, base="main", stages=["draft"], ignore=repo / "gate-ignore.yml", cache=False)
    assert [f.new.file for f in report.stage("draft").findings if f.kind == "ignore-file-empty"] == ["gate-ignore.yml"]
    for explicit in ("[]\n", "ignore: []\n", "# none yet\n[]\n"):
        (repo / "gate-ignore.yml").write_text(explicit)
        report = run_gate(repo, stages=["draft"], ignore=repo / "gate-ignore.yml", cache=False)
        assert "ignore-file-empty" not in {f.kind for f in report.stage("draft").findings}, explicit
        assert main(["-C", str(repo), "check", "--stage", "draft", "--no-cache", "--ignore",
                     str(repo / "gate-ignore.yml")]) == 0
        assert "warning" not in capsys.readouterr().err


def test_an_ignore_file_that_was_a_link_at_the_base_is_refused_not_read_as_absent(repo, tmp_path):
    """Any path may be given as --ignore; git reads of the base skipped a link there (so the
    base had no entries) while the checkout followed it: now refused, as gate-ignore.yml is."""
    import os
    (repo / "ci").mkdir()
    (repo / "ci/entries.yml").write_text("[]\n")
    os.symlink("entries.yml", repo / "ci/ignore.yml")
    commit_all(repo, "an ignore file reached through a link")
    with pytest.raises(InputError, match="ci/ignore.yml is a symbolic link at commit"):
        run_gate(repo, base="HEAD", stages=["base"], ignore=repo / "ci/ignore.yml", cache=False)


def _kinds_by_stage(report, kinds):
    return [(s.name, f.kind) for s in report.stages for f in s.findings if f.kind in kinds]


@pytest.mark.parametrize(("base", "stages", "shown_in"), [
    (None, None, "draft"),
    ("main", None, "draft"),
    ("main", ["base"], "base"),
    ("main", ["schemas", "base"], "base"),
])
def test_the_ignore_file_warnings_are_in_the_report_once_whatever_the_stages(repo, tmp_path, base, stages, shown_in):
    """Before session 35 the warnings about the ignore file were the draft stage's only: `check
    --base REF --stage base --ignore FILE` (how a CI job may run the base stage alone) said
    nothing of a blank file or of an expired entry. Now the first stage that applies the file
    (draft, else base) reports each warning, once."""
    blank = tmp_path / "blank.yml"
    blank.write_text("# none yet\n")
    report = run_gate(repo, base=base, stages=stages, ignore=blank, cache=False)
    assert _kinds_by_stage(report, {"ignore-file-empty"}) == [(shown_in, "ignore-file-empty")]
    expired = tmp_path / "expired.yml"
    expired.write_text("- {kind: enum-value-removed, reason: long ago, expires: '2000-01-01'}\n")
    report = run_gate(repo, base=base, stages=stages, ignore=expired, cache=False)
    assert _kinds_by_stage(report, {"ignore-entry-expired"}) == [(shown_in, "ignore-entry-expired")]


def test_an_entry_is_stale_only_when_no_stage_of_the_run_used_it(repo, tmp_path):
    """The base adds an error type the release lacks and the branch removes it again: only the
    base stage sees the removal, and an entry accepting it is used there alone. Before session
    35 the draft stage called that entry stale ("remove it", which would fail the base stage),
    and `--stage base` called no entry stale, however stale."""
    from gate_repo import edit_json
    edit_json(repo / "spec/schemas/resultset.json",
              lambda d: d["$defs"]["error"]["properties"]["type"]["enum"].append("canary_type"))
    git(repo, "branch", "-f", "main", commit_all(repo, "the base adds an error type"))
    remove_error_types(repo, "canary_type")
    (e,) = [entry(f) for f in change_to_accept(repo, base="main")[0]]
    outside = tmp_path / "owner-ignore.yml"
    outside.write_text(f"- {{kind: {e['kind']}, fingerprint: '{e['fingerprint']}', reason: reverted on purpose}}\n"
                       "- {kind: enum-value-removed, fingerprint: '0123456789abcdef', reason: long gone}\n")
    for stages in (None, ["base"], ["draft", "base"]):
        report = run_gate(repo, base="main", stages=stages, ignore=outside, cache=False)
        stale = [(s.name, f.message) for s in report.stages for f in s.findings if f.kind == "ignore-entry-stale"]
        assert [(name, "0123456789abcdef" in message) for name, message in stale] == [("base", True)], (stages, stale)
        assert report.stage("base").status == "warn"  # the removal is accepted by the first entry
    # without --base the draft stage alone applies the file: both entries are stale there
    report = run_gate(repo, stages=["draft"], ignore=outside, cache=False)
    assert [s.name for s in report.stages for f in s.findings if f.kind == "ignore-entry-stale"] == ["draft", "draft"]
