"""The gate's failure paths, run in process (``run_gate`` with one stage): each test breaks one
thing in a scratch repository and asserts the exact finding the stage reports (kind, file, JSON
Pointer, line, old location), worked out from the edit itself. Mutation testing (issue 18,
``nox -s mutants``) showed findings that lost their location, or a kind, without a test noticing.
"""

from __future__ import annotations

import json
import re
import shutil

import pytest

from evalport_spec.errors import InputError
from evalport_spec.findings import Location
from evalport_spec.gate import change_to_accept, run_gate
from evalport_spec.gate.context import GateContext
from evalport_spec.spec import SpecRepo
from gate_repo import (
    REPO,
    add_optional_runner_field,
    commit_all,
    edit_json,
    git,
    make_repo,
    remove_error_types,
)

GRADER = "spec/releases/1.1.0/schemas/grader.json"
"""A released file the tests change or remove."""


@pytest.fixture
def repo(tmp_path):
    return make_repo(tmp_path)


def _errors(report, stage):
    result = report.stage(stage)
    assert result.status == "fail" and report.exit_code == 1
    return result.findings


def test_unreadable_and_invalid_examples_are_reported_where_they_are(repo):
    (repo / "spec/examples/zz-broken.json").write_text('{\n  "id": "x",\n  oops\n}\n')
    (repo / "spec/examples/zz-grader.json").write_text(
        '{\n  "id": "exact",\n  "type": "exact_match",\n  "weight": "heavy"\n}\n')
    found = _errors(run_gate(repo, stages=["examples"]), "examples")
    unreadable = [f for f in found if f.kind == "example-unreadable"]
    assert [(f.new.file, f.new.line) for f in unreadable] == [("spec/examples/zz-broken.json", 3)]
    invalid = [f for f in found if f.kind == "example-invalid"]
    # "weight" is a number in the Grader schema; the string sits on line 4 of the file
    assert [(f.new, f.old) for f in invalid] == [(Location("spec/examples/zz-grader.json", "/weight", 4), None)]
    assert invalid[0].message.startswith("grader: ")
    assert {f.kind for f in found} == {"example-unreadable", "example-invalid"}


def test_a_fixture_whose_expectation_is_wrong_is_a_disagreement_at_that_expectation(repo):
    path = repo / "spec/conformance/fixtures/grader-missing-type.json"
    fixture = json.loads(path.read_text())
    fixture["expect"]["schema"]["valid"] = True  # the document lacks the required "type"
    path.write_text(json.dumps(fixture, indent=2))
    found = _errors(run_gate(repo, stages=["conformance"]), "conformance")
    assert [(f.kind, f.new, f.extra) for f in found] == [(
        "conformance-disagreement",
        Location("spec/conformance/fixtures/grader-missing-type.json", "/expect/schema"),
        {"fixture": "grader-missing-type", "path": "schema", "version": "draft"})]


def test_released_files_changed_or_removed_after_their_commit_name_that_commit(repo):
    added_by = git(repo, "rev-parse", "main").strip()[:12]  # make_repo's one commit on main
    (repo / GRADER).write_text((repo / GRADER).read_text().replace('"Grader"', '"Grader!"', 1))
    (repo / "spec/releases/1.0.0/rules.json").unlink()
    found = _errors(run_gate(repo, stages=["history"]), "history")
    assert sorted((f.kind, f.old, f.new) for f in found) == [
        ("released-file-changed", Location(f"{added_by}:{GRADER}"), Location(GRADER)),
        ("released-file-removed", Location(f"{added_by}:spec/releases/1.0.0/rules.json"), None)]


def test_released_files_changed_or_removed_since_the_base_name_the_base(repo):
    (repo / GRADER).write_text((repo / GRADER).read_text().replace('"Grader"', '"Grader!"', 1))
    (repo / "spec/releases/1.0.0/rules.json").unlink()
    sums = repo / "spec/releases/SHA256SUMS"
    gone = next(ln for ln in sums.read_text().splitlines() if ln.endswith("  1.0.0/rules.json"))
    sums.write_text("".join(f"{ln}\n" for ln in sums.read_text().splitlines() if ln != gone))
    commit_all(repo, "edit releases")
    found = _errors(run_gate(repo, base="main", stages=["base"]), "base")
    assert [(f.message, f.new) for f in found if f.kind == "manifest-line-removed"] == [(
        f"spec/releases/SHA256SUMS lost the line '{gone}' present at main: released files are frozen",
        Location("spec/releases/SHA256SUMS"))]
    changed = sorted((f.message.split(" was ")[1].split(" ")[0], f.old, f.new)
                     for f in found if f.kind == "released-file-changed")
    assert changed == [
        ("changed", Location(f"main:{GRADER}"), Location(GRADER)),
        ("removed", Location("main:spec/releases/1.0.0/rules.json"), Location("spec/releases/1.0.0/rules.json"))]


def test_one_program_run_over_two_corpora_keeps_each_corpus_result(tmp_path):
    """Program runs are memoised per process by (program, corpus): a second repository whose
    corpus has more documents must get a run with as many results, not the first one's."""
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    first, second = make_repo(tmp_path / "a"), make_repo(tmp_path / "b")
    example = json.loads((second / "spec/examples/grouped-sweep-resultset.json").read_text())
    example["run_id"] = "one-more"  # a seed of the corpus (resultsets have rules)
    (second / "spec/examples/zz-one-more.json").write_text(json.dumps(example))
    runs = []
    for root in (first, second):
        ctx = GateContext(SpecRepo(root))
        try:
            program, corpus = ctx.program(None, "the working tree"), ctx.corpus()
            runs.append((len(corpus.documents), len(ctx.run(program).fired)))
        finally:
            ctx.close()
    assert runs[0][0] < runs[1][0]
    assert [n for n, _ in runs] == [fired for _, fired in runs]



def test_a_missing_fixture_folder_is_one_finding_at_that_folder(repo):
    fixtures = repo / "spec/conformance/fixtures"
    for p in fixtures.iterdir():
        p.unlink()
    fixtures.rmdir()
    report = run_gate(repo, stages=["conformance"])
    found = _errors(report, "conformance")
    assert [(f.kind, f.new) for f in found] == [
        ("conformance-fixtures-missing", Location("spec/conformance/fixtures"))]
    assert report.stage("conformance").summary == ""


def test_spec_version_missing_not_a_successor_or_too_low_is_reported_at_its_line(repo):
    """With an optional field added the draft is MINOR since 1.3.0: 1.3.1 is too low (a warning),
    1.3.0 is no successor of 1.3.0 (an error)."""
    add_optional_runner_field(repo)
    version = repo / "spec/VERSION"

    def draft_findings(kind):
        return [(f.severity.name, f.new) for f in run_gate(repo, stages=["draft"]).stage("draft").findings
                if f.kind == kind]

    version.write_text("1.3.1\n")
    assert draft_findings("draft-version-too-low") == [("WARNING", Location("spec/VERSION", None, 1))]
    version.write_text("1.3.0\n")
    assert draft_findings("draft-version-invalid") == [("ERROR", Location("spec/VERSION", None, 1))]
    version.unlink()
    assert draft_findings("draft-version-missing") == [("ERROR", Location("spec/VERSION"))]


def test_catalogued_rules_without_an_implementation_are_named_in_one_finding(repo):
    def add(d):
        entry = next(r for r in d["rules"] if r["code"] == "DUPLICATE_ID")
        d["rules"] += [dict(entry, code="ZZ_ONE"), dict(entry, code="ZZ_TWO")]
    edit_json(repo / "spec/rules.json", add)
    found = [f for f in run_gate(repo, stages=["examples"]).stage("examples").findings
             if f.kind == "rule-unimplemented"]
    assert [(f.message, f.new) for f in found] == [(
        "catalogued rule(s) ZZ_ONE, ZZ_TWO have no implementation: examples cannot be fully validated",
        Location("spec/rules.json"))]


def test_without_a_release_the_manifest_stage_is_skipped_saying_why(repo):
    shutil.rmtree(repo / "spec/releases")
    stage = run_gate(repo, stages=["manifest"]).stage("manifest")
    assert (stage.status, stage.summary, stage.findings) == ("skip", "no release yet", [])


@pytest.mark.parametrize("folder, stage", [("spec/schemas", "rfcs"), ("spec/examples", "behaviour"),
                                           ("spec/conformance", "behaviour")])
def test_a_fifo_among_the_spec_files_is_refused_not_waited_on(tmp_path, folder, stage):
    """A named pipe blocks whoever opens it: the RFC proposals' draft copy and the rule corpus's
    folder digest read through the one bounded reader, so the stage reports it and ends."""
    import os
    import subprocess
    import sys

    from gate_repo import make_repo

    root = make_repo(tmp_path)
    os.mkfifo(root / folder / "x.json")
    done = subprocess.run([sys.executable, "-m", "evalport_spec", "-C", str(root), "check", "--no-cache",
                           "--stage", stage], capture_output=True, text=True, timeout=300)
    assert done.returncode == 1
    assert f"is a FIFO (named pipe), not a regular file; refusing to read it [{stage}]" in done.stdout
    assert "Traceback" not in done.stderr


def test_a_fifo_in_a_release_folder_fails_the_manifest_and_history_not_waited_on(tmp_path):
    """A release folder holds regular files only: a named pipe there is no file `released_files`
    may pass over. The manifest does not list it; history refuses to read it (opening would
    block)."""
    import os
    import subprocess
    import sys

    root = make_repo(tmp_path)
    os.mkfifo(root / "spec/releases/1.1.0/stray")
    done = subprocess.run([sys.executable, "-m", "evalport_spec", "check", "-C", str(root), "--no-cache",
                           "--stage", "manifest", "--stage", "history"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 1, done.stdout + done.stderr
    assert ("spec/releases/1.1.0/stray: error released-file-unlisted: spec/releases/1.1.0/stray is not "
            "listed in SHA256SUMS [manifest]") in done.stdout
    assert ("spec/releases/1.1.0/stray: error input-error: is a FIFO (named pipe), not a regular file; "
            "refusing to read it [history]") in done.stdout


def test_a_symlink_in_a_release_folder_is_an_unlisted_released_file(repo):
    """A symlink is an entry of the release folder like any file (not followed into a folder):
    one the manifest does not list is reported where it is."""
    (repo / "spec/releases/1.1.0/schemas/alias.json").symlink_to("grader.json")
    (repo / "spec/releases/1.1.0/elsewhere").symlink_to(repo / "spec/schemas", target_is_directory=True)
    found = _errors(run_gate(repo, stages=["manifest"]), "manifest")
    assert sorted((f.kind, f.new.file) for f in found) == [
        ("released-file-unlisted", "spec/releases/1.1.0/elsewhere"),
        ("released-file-unlisted", "spec/releases/1.1.0/schemas/alias.json")]


def test_an_example_that_is_no_evalport_document_is_reported_at_its_file(repo):
    """An example is typed by its members: one with none of them is named, with no advice to pass
    a ``--type`` the gate does not take."""
    (repo / "spec/examples/zz-other.json").write_text('{"foo": 1}\n')
    found = _errors(run_gate(repo, stages=["examples"]), "examples")
    assert [(f.kind, f.new.file, f.message) for f in found] == [(
        "example-unreadable", "spec/examples/zz-other.json",
        "not an EvalPort document: no 'test_cases', 'results', 'input' and 'graders', or 'id' and "
        "'type' member")]


def _break_draft_grader(repo) -> int:
    """Make line 2 of the draft's grader.json malformed JSON; returns the column where the
    stray word starts (the parser's column)."""
    path = repo / "spec/schemas/grader.json"
    lines = path.read_text().split("\n")
    lines[1] = lines[1] + " oops"  # line 2 of the file
    path.write_text("\n".join(lines))
    return len(lines[1]) - len("oops") + 1


def test_a_broken_draft_schema_is_reported_once_by_the_examples_stage(repo):
    """Every grader example is validated with the draft's grader.json: when that file is malformed
    JSON, the examples stage says so once, at the schema's line and column, not once per example,
    and under the schemas stage's kind (the schema is unreadable, no example is)."""
    column = _break_draft_grader(repo)
    graders = [p for p in (repo / "spec/examples").glob("*.json") if '"type"' in p.read_text()
               and '"test_cases"' not in p.read_text() and '"results"' not in p.read_text()]
    assert graders  # the repository has grader examples to validate
    found = _errors(run_gate(repo, stages=["examples"]), "examples")
    assert [(f.kind, f.new.file, f.new.line, f.extra.get("column")) for f in found] == [
        ("schema-unreadable", "spec/schemas/grader.json", 2, column)]


def test_a_broken_draft_schema_is_one_line_in_the_report_under_every_stage_it_stopped(repo, capsys):
    """The one cause (a malformed draft schema) read by six stages is one line of the text
    report, with its column, listing the stages; the RFC proposals it stops name the real file."""
    from evalport_spec.cli import main

    column = _break_draft_grader(repo)
    stages = ["schemas", "spec-text", "conformance", "rules", "draft", "examples", "rfcs"]
    assert main(["-C", str(repo), "check", "--format", "text",
                 *(a for s in stages for a in ("--stage", s))]) == 1
    lines = [ln for ln in capsys.readouterr().out.splitlines() if "grader.json" in ln]
    where = f"spec/schemas/grader.json:2:{column}"
    assert [ln for ln in lines if ln.startswith(where)] == [
        f"{where}: error schema-unreadable: malformed JSON: Expecting property name enclosed in double "
        "quotes [schemas, spec-text, conformance, rules, draft, examples]"]
    others = [ln for ln in lines if not ln.startswith(where)]
    assert others and all(ln.startswith("rfcs/") and f"proposal cannot be applied: {where}: " in ln
                          for ln in others), others


def test_examples_in_a_subfolder_are_reported_not_skipped(repo):
    """spec/examples/ holds its documents at the top; a JSON file below (even an invalid one)
    is named as misplaced, and a folder with only such files is no reason to skip the stage."""
    nested = repo / "spec/examples/more/deeper"
    nested.mkdir(parents=True)
    (nested / "bad.json").write_text('{"id": "x", "type": 5}\n')
    (nested.parent / "notes.txt").write_text("not JSON, not an example\n")
    result = run_gate(repo, stages=["examples"]).stage("examples")
    assert result.status == "fail" and result.summary.endswith(", 1 misplaced")
    assert [(f.kind, f.new.file) for f in result.findings] == [
        ("example-misplaced", "spec/examples/more/deeper/bad.json")]
    for top in (repo / "spec/examples").glob("*.json"):
        top.unlink()
    result = run_gate(repo, stages=["examples"]).stage("examples")
    assert (result.status, result.summary) == ("fail", "0 example(s), 1 misplaced")


def test_an_example_whose_extension_is_not_lower_case_is_reported_not_skipped(repo):
    """spec/examples/Upper.JSON (an invalid document: were it read, example-invalid) was passed
    over in silence by the gate, the site and the rule corpus; it is named, with the name to
    give it, as a JSON file in a subfolder is (Sub/x.Json too)."""
    examples = repo / "spec/examples"
    (examples / "Upper.JSON").write_text('{"id": "x", "type": 5}\n')
    (examples / "sub").mkdir()
    (examples / "sub" / "x.Json").write_text("{}\n")
    (examples / "notes.txt").write_text("not JSON, not an example\n")
    shown = len(list(examples.glob("*.json")))
    result = run_gate(repo, stages=["examples"]).stage("examples")
    assert (result.status, result.summary) == ("fail", f"{shown} example(s), 1 misnamed, 1 misplaced")
    assert [(f.kind, f.new.file) for f in result.findings] == [
        ("example-misnamed", "spec/examples/Upper.JSON"), ("example-misplaced", "spec/examples/sub/x.Json")]
    assert result.findings[0].message.endswith(": rename it Upper.json")


def test_a_bad_draft_schema_is_reported_at_its_keyword(repo):
    """A draft schema with an invalid keyword, a ``$ref`` to nowhere and another version's
    ``$id``: one finding each, at the file, the pointer and the line (json.dumps, indent 2:
    ``$id`` on line 3, ``"type": 5`` on line 7, the ``$ref`` on line 10)."""
    doc = {"$schema": "https://json-schema.org/draft/2020-12/schema",
           "$id": "https://evalport.github.io/spec/1.3.0/schemas/zz.json",
           "type": "object",
           "properties": {"a": {"type": 5}, "b": {"$ref": "#/$defs/nope"}}}
    (repo / "spec/schemas/zz.json").write_text(json.dumps(doc, indent=2) + "\n")
    report = run_gate(repo, stages=["schemas"])
    found = _errors(report, "schemas")
    assert sorted((f.kind, f.new.file, f.new.pointer, f.new.line) for f in found) == [
        ("schema-id-version", "spec/schemas/zz.json", "/$id", 3),
        ("schema-invalid", "spec/schemas/zz.json", "/properties/a/type", 7),
        ("schema-ref-unresolved", "spec/schemas/zz.json", "/properties/b/$ref", 10)]
    (id_version,) = [f for f in found if f.kind == "schema-id-version"]
    assert id_version.message == ("$id 'https://evalport.github.io/spec/1.3.0/schemas/zz.json' should "
                                  "contain '/spec/draft/schemas/'")
    assert report.stage("schemas").summary == "5 version(s)"


def test_releases_whose_class_disagrees_with_their_number_or_changelog_are_reported(repo):
    """1.1.0's own changelog calls it PATCH (it is MINOR); 1.2.0's SPEC.md has no heading for
    it (the draft's lost its one too, which is not required there); 1.3.0 drops the Error type
    ``runner_error`` that 1.2.0 allows (MAJOR), so 1.3.0 is a minor bump where 2.0.0 is needed
    and both changelogs naming it MINOR (1.3.0's line 420, the draft's heading of 1.3.0) are wrong."""
    releases = repo / "spec/releases"
    md = releases / "1.1.0/SPEC.md"
    md.write_text(md.read_text().replace("### 1.1.0 — 2026-06-15 — MINOR", "### 1.1.0 — 2026-06-15 — PATCH"))
    for path in (releases / "1.2.0/SPEC.md", repo / "spec/SPEC.md"):
        lines = path.read_text().split("\n")
        path.write_text("\n".join(ln for ln in lines if ln != "### 1.2.0 — 2026-08-24 — MINOR"))
    edit_json(releases / "1.3.0/schemas/resultset.json",
              lambda d: d["$defs"]["error"]["properties"]["type"]["enum"].remove("runner_error"))
    report = run_gate(repo, stages=["releases"])
    found = _errors(report, "releases")
    assert report.stage("releases").summary == "1.1.0 MINOR, 1.2.0 MINOR, 1.3.0 MAJOR"
    told = [(f.kind, f.message, f.new) for f in found if f.kind.startswith(("release-", "changelog-"))]
    draft = (repo / "spec/SPEC.md").read_text().split("\n")
    heading = next(n for n, x in enumerate(draft, start=1) if x.startswith("### 1.3.0 "))
    assert told == [
        ("changelog-class-mismatch", "changelog says 1.1.0 is PATCH but 1.0.0 -> 1.1.0 is MINOR",
         Location("spec/releases/1.1.0/SPEC.md", None, 373)),
        ("changelog-entry-missing", "no changelog heading for 1.2.0", Location("spec/releases/1.2.0/SPEC.md")),
        ("release-version-mismatch", "release 1.3.0 is a minor bump from 1.2.0 but the change since 1.2.0 "
         "is MAJOR: it needs 2.0.0", Location("spec/releases/1.3.0")),
        ("changelog-class-mismatch", "changelog says 1.3.0 is MINOR but 1.2.0 -> 1.3.0 is MAJOR",
         Location("spec/releases/1.3.0/SPEC.md", None, 420)),
        ("changelog-class-mismatch", "changelog says 1.3.0 is MINOR but 1.2.0 -> 1.3.0 is MAJOR",
         Location("spec/SPEC.md", None, heading))]
    # the breaking change itself comes with the mismatch: the enum value lost, in 1.2.0's file
    (lost,) = [f for f in found if not f.kind.startswith(("release-", "changelog-"))]
    assert (lost.change_class.name, lost.old.file) == ("MAJOR", "spec/releases/1.2.0/schemas/resultset.json")
    assert lost.old.pointer.startswith("/$defs/error/properties/type")


def test_a_malformed_file_fails_the_stage_reading_it_as_an_input_error(repo):
    """spec/rules.json with a bare word on line 2: the examples stage, whose validator reads the
    catalogue, fails with one input-error finding at that file and line; the stage's summary
    says so and other stages still run."""
    (repo / "spec/rules.json").write_text('{\n  oops\n}\n')
    report = run_gate(repo, stages=["manifest", "examples"])
    rules = report.stage("examples")
    assert (rules.status, rules.summary) == ("fail", "input error")
    assert [(f.kind, f.new.file, f.new.line) for f in rules.findings] == [("input-error", "spec/rules.json", 2)]
    assert report.stage("manifest").status == "ok" and report.exit_code == 1


def test_the_base_stage_asked_for_without_a_base_is_a_usage_error(repo):
    with pytest.raises(InputError, match=r"^stage 'base' needs --base REF$"):
        run_gate(repo, stages=["base"])


def test_each_stage_says_what_it_checked_and_a_file_added_to_a_release_is_refused(repo):
    """The summaries of a complete scratch copy (5 examples, 8 RFCs, 4 releases holding 349
    files, counted with ls and find), then one file added to release 1.3.0 and not committed:
    judged against HEAD, where 1.3.0 already froze its fixtures, so no backfill excuses it."""
    stages = ["schemas", "spec-text", "manifest", "history", "rfcs", "examples"]
    report = run_gate(repo, stages=stages)
    summaries = {s.name: s.summary for s in report.stages}
    assert re.fullmatch(r"5 SPEC\.md file\(s\); \d+ normative change\(s\) since 1\.3\.0, all on record",
                        summaries.pop("spec-text"))
    assert summaries == {"schemas": "5 version(s)", "manifest": "4 release(s)",
                         "history": "349 released file(s) as first committed", "rfcs": "8 RFC(s)",
                         "examples": "5 example(s)"}
    (repo / "spec/releases/1.3.0/notes.txt").write_text("added later\n")
    history = run_gate(repo, stages=["history"]).stage("history")
    assert history.summary == "349 released file(s) as first committed, 1 not committed yet"
    assert [(f.kind, f.message, f.new, f.extra) for f in history.findings] == [(
        "released-file-added", "spec/releases/1.3.0 gains spec/releases/1.3.0/notes.txt since HEAD: files are "
        "never added to a release", Location("spec/releases/1.3.0/notes.txt"), {"paths": ["notes.txt"]})]


def test_stages_with_nothing_to_check_are_skipped_saying_why(repo, tmp_path):
    for folder in ("spec/releases", "spec/examples", "rfcs"):
        shutil.rmtree(repo / folder)
    report = run_gate(repo, stages=["manifest", "history", "releases", "draft", "rfcs", "examples"])
    assert [(s.name, s.status, s.summary, s.findings) for s in report.stages] == [
        ("manifest", "skip", "no release yet", []), ("history", "skip", "no release yet", []),
        ("releases", "skip", "fewer than two releases", []),
        ("draft", "skip", "no release to compare the draft with", []),
        ("rfcs", "skip", "no rfcs/ folder", []), ("examples", "skip", "no spec/examples/*.json", [])]
    assert report.exit_code == 0
    plain = tmp_path / "plain"  # the same files outside any git work tree
    shutil.copytree(repo / "spec", plain / "spec")
    shutil.copytree(REPO / "spec/releases", plain / "spec/releases")
    history = run_gate(plain, stages=["history"]).stage("history")
    assert (history.status, history.summary) == (
        "skip", "not a git repository: released files are checked against SHA256SUMS only")


def test_an_unreadable_schema_or_fixture_is_one_finding_and_the_other_versions_are_still_checked(repo):
    """A bare word on line 2 of a new draft schema, then of a new draft fixture: the draft's
    schemas (or fixtures) cannot be read, each release's still are (counts as in
    tests/test_fixture_versions.py)."""
    (repo / "spec/schemas/zz.json").write_text('{\n  oops\n}\n')
    report = run_gate(repo, stages=["schemas"])
    found = _errors(report, "schemas")
    assert [(f.kind, f.new.file, f.new.line) for f in found] == [("schema-unreadable", "spec/schemas/zz.json", 2)]
    assert report.stage("schemas").summary == "5 version(s)"
    (repo / "spec/schemas/zz.json").unlink()
    (repo / "spec/conformance/fixtures/zz.json").write_text('{\n  oops\n}\n')
    report = run_gate(repo, stages=["conformance"])
    found = _errors(report, "conformance")
    assert [(f.kind, f.new.file, f.new.line) for f in found] == [
        ("input-error", "spec/conformance/fixtures/zz.json", 2)]
    assert report.stage("conformance").summary == "fixture(s): 71 1.0.0, 72 1.1.0, 87 1.2.0, 91 1.3.0"


def test_progress_sees_every_stage_run_or_replayed_and_no_cache_always_runs(repo):
    seen = []
    first = run_gate(repo, stages=["rfcs", "manifest"], progress=lambda r: seen.append((r.name, r.status)))
    assert [s.name for s in first.stages] == ["manifest", "rfcs"] and "ctx" in first.context
    assert seen == [(s.name, s.status) for s in first.stages]
    seen.clear()
    again = run_gate(repo, stages=["manifest", "rfcs"], progress=lambda r: seen.append((r.name, r.status)))
    assert again.context == {"replayed": True} and seen == [(s.name, s.status) for s in first.stages]
    fresh = run_gate(repo, stages=["rfcs", "manifest"], cache=False)
    assert "ctx" in fresh.context and "replayed" not in fresh.context


def test_without_a_base_the_change_to_accept_is_the_drafts_since_the_latest_release(repo):
    remove_error_types(repo, "runner_error")
    findings, label = change_to_accept(repo)
    assert ([(f.kind, f.item) for f in findings], label) == ([("enum-value-removed", "runner_error")], "since 1.3.0")
    shutil.rmtree(repo / "spec/releases")
    with pytest.raises(InputError, match=r"^no release to compare the draft with: give --base REF$"):
        change_to_accept(repo)


def test_a_release_whose_schemas_cannot_be_read_is_an_input_error_and_the_other_pairs_are_classified(repo):
    """A bare word on line 2 of a new schema of release 1.2.0: the pairs 1.1.0 -> 1.2.0 and
    1.2.0 -> 1.3.0 cannot be classified (one finding each, at that file and line, under the
    schemas stage's kind for an unreadable schema); 1.0.0 -> 1.1.0 is."""
    (repo / "spec/releases/1.2.0/schemas/zz.json").write_text('{\n  oops\n}\n')
    report = run_gate(repo, stages=["releases"])
    found = _errors(report, "releases")
    assert [(f.kind, f.new.file, f.new.line) for f in found] == [
        ("schema-unreadable", "spec/releases/1.2.0/schemas/zz.json", 2)] * 2
    assert report.stage("releases").summary == "1.1.0 MINOR"


def test_a_rule_the_branch_drops_from_the_catalogue_is_a_loosened_behaviour_against_the_base(repo):
    """The branch removes DUPLICATE_ID (entry 0) from the draft's catalogue: with the same rule
    code on both sides, documents with duplicate ids that main's draft rejected are accepted."""
    edit_json(repo / "spec/rules.json", lambda d: d["rules"].pop(0))
    commit_all(repo, "DUPLICATE_ID dropped")
    found = [f for f in run_gate(repo, base="main", stages=["base"]).stage("base").findings
             if f.kind == "rule-behaviour-loosened"]
    assert [(f.code, f.change_class.name, f.direction, f.old.file, f.old.pointer, f.new) for f in found] == [
        ("DUPLICATE_ID", "MINOR", "forward", "main:spec/rules.json", "/rules/0", None)]
    assert found[0].message.startswith("DUPLICATE_ID: this branch accepts a document main rejects with "
                                       "DUPLICATE_ID at /")


def test_a_released_file_replaced_by_a_link_to_the_same_bytes_fails_the_manifest(repo):
    """A link reads the same bytes today and whatever its target holds tomorrow: a released file
    must stay the regular file that was released (fresh-user report: the gate passed)."""
    released = repo / "spec/releases/1.1.0/rules.json"
    copy = repo / "spec/rules-1.1.0-copy.json"
    copy.write_bytes(released.read_bytes())
    released.unlink()
    released.symlink_to("../../rules-1.1.0-copy.json")
    found = _errors(run_gate(repo, stages=["manifest"]), "manifest")
    assert [(f.kind, f.new.file, f.message) for f in found] == [(
        "released-file-changed", "spec/releases/1.1.0/rules.json",
        "released file spec/releases/1.1.0/rules.json was replaced by a symbolic link; released files are "
        "regular files, frozen as released")]


def test_rules_stage_paths_are_from_the_repository_root_wherever_check_runs(repo, monkeypatch):
    """``check -C DIR`` run from another folder: the rules stage names ``spec/rules.json`` as
    every other stage names its files, not the path as seen from the working directory."""
    def add_rule(d):
        d["rules"].append({**d["rules"][0], "code": "ZZ_UNIMPLEMENTED"})
    edit_json(repo / "spec/rules.json", add_rule)
    for cwd in (repo.parent, repo / "spec", repo):
        monkeypatch.chdir(cwd)
        found = _errors(run_gate(repo, stages=["rules"]), "rules")
        assert {f.new.file for f in found if "ZZ_UNIMPLEMENTED" in (f.code or f.message)} == {
            "spec/rules.json", "spec/SPEC.md"}, cwd
