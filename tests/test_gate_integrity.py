"""The gate cannot be changed by the change it judges (issue 21), and a breaking change passes
only as accepted, finding by finding (issues 12 and 20).

One scratch git repository (spec, RFCs and the toolchain itself, so its rules are its own
program) serves the whole module: every test starts from its first commit on ``main`` with a
``feature`` branch (``reset``). The judging toolchain is this process's; the branch's code is
only ever run as the branch's own program.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import unicodedata

import pytest
from jsonschema import Draft202012Validator

from evalport_spec.cli import main
from evalport_spec.errors import InputError
from evalport_spec.findings import Location
from evalport_spec.gate import change_to_accept, run_gate
from evalport_spec.gate.output import render
from evalport_spec.rfc import load_rfcs, new_rfc, write_index
from evalport_spec.rfc.accept import entry
from evalport_spec.spec import SpecRepo
from evalport_spec.specsync import sync_draft
from evalport_spec.specsync.record import record
from gate_repo import (
    SHADOW_ORJSON,
    accept_rfc,
    add_optional_runner_field,
    commit_all,
    edit_json,
    git,
    remove_error_types,
    require_summary_total,
    reset,
    reset_fixtures,
    write_rfc,
)

scratch, repo = reset_fixtures("integrity", toolchain=True)


def errors(report, stage):
    return [f for f in report.stage(stage).findings if f.severity.name == "ERROR"]


def kinds(report, stage):
    return sorted({f.kind for f in report.stage(stage).findings})


def entries_for(root, base="main"):
    return [entry(f) for f in change_to_accept(root, base=base)[0]]


# --- route 1: rule code -------------------------------------------------------------------------

INLINE_IDS = '''
    for _, case in items(document, "test_cases"):
        yield from _duplicates(case, "graders", "inline grader")
'''


def tighten_duplicate_id(root):
    """Issue 21's attack: DUPLICATE_ID also compares inline grader ids inside one test case."""
    p = root / "tools/evalport_spec/validation/rules/suite.py"
    text = p.read_text()
    anchor = '    yield from _duplicates(document, "graders", "grader")\n'
    assert anchor in text
    p.write_text(text.replace(anchor, anchor + INLINE_IDS))


def test_rule_code_tightened_on_a_branch_fails_by_its_code_and_shows_a_witness_where_it_runs(repo):
    tighten_duplicate_id(repo)
    commit_all(repo, "DUPLICATE_ID compares inline graders too")
    # the branch's own gate (no --base: .ci/run's second gate, the pre-commit hook) runs the
    # working tree's rules: the releases' shipped rules judge them, with a witness
    local = run_gate(repo, stages=["behaviour"]).stage("behaviour")
    released = [f for f in local.findings if f.kind == "release-rule-tightened"]
    assert local.status == "fail" and len(released) == 1 and released[0].code == "DUPLICATE_ID"
    assert released[0].extra["releases"] == ["1.0.0", "1.1.0", "1.2.0", "1.3.0"]
    witness = released[0].witness
    ids = [g["id"] for case in witness["test_cases"] for g in case["graders"] if isinstance(g, dict)]
    assert len(ids) != len(set(ids))  # two inline graders with one id: valid as released
    # the gate of record never runs code under review: main's rules stand in for the branch's,
    # and the base stage reads the rule code: suite.py changed, so both of its rules are named,
    # each unproven (no run of the branch's code can witness it)
    report = run_gate(repo, base="main", stages=["behaviour", "base"])
    assert report.stage("behaviour").status == "ok"
    assert "the working tree's rules are not run" in report.stage("behaviour").summary
    base = code_findings_of(report.stage("base"))
    assert sorted(base) == ["DANGLING_REFERENCE", "DUPLICATE_ID"]
    assert all(f.undecided and f.witness is None and "unproven" in f.message for f in base.values())
    assert base["DUPLICATE_ID"].extra["versions"] == ["1.0.0", "1.1.0", "1.2.0", "1.3.0", "draft", "main's draft"]
    assert base["DUPLICATE_ID"].extra["modules"] == ["evalport_spec/validation/rules/suite.py"]
    index = [r["code"] for r in json.loads((repo / "spec/rules.json").read_text())["rules"]].index("DUPLICATE_ID")
    assert base["DUPLICATE_ID"].new == Location("spec/rules.json", f"/rules/{index}", base["DUPLICATE_ID"].new.line)
    assert not [f for f in report.stage("base").findings if f.kind == "rule-behaviour-tightened"]
    assert [f.kind for f in report.stage("base").findings][0] == "toolchain-changed"
    assert report.stage("base").status == "fail"


def test_rule_code_loosened_on_a_branch_is_a_warning_naming_the_releases_it_loosens(repo):
    """DUPLICATE_ID stops comparing grader ids: a corpus Suite with two graders of one id, which
    every release rejected with its shipped rules, is now accepted (MINOR, forward, a warning)."""
    edit_rule_code(repo, "validation/rules/suite.py", '    yield from _duplicates(document, "graders", "grader")\n',
                   "", replace=True)
    stage = run_gate(repo, stages=["behaviour"]).stage("behaviour")
    assert stage.status == "warn"
    assert re.fullmatch(r"\d+ document\(s\); compared with the rules 1\.0\.0, 1\.1\.0, 1\.2\.0, 1\.3\.0 "
                        r"shipped with", stage.summary)
    (loose,) = stage.findings
    graders = [g["id"] for g in loose.witness["graders"]]
    second = next(i for i, g in enumerate(graders) if g in graders[:i])  # the repeated id
    assert (loose.kind, loose.code, loose.change_class.name, loose.severity.name, loose.direction) == (
        "release-rule-loosened", "DUPLICATE_ID", "MINOR", "WARNING", "forward")
    assert loose.message == (
        f"DUPLICATE_ID: the working tree's rules accept a document that 1.0.0, 1.1.0, 1.2.0, 1.3.0 rejected "
        f"(DUPLICATE_ID at /graders/{second}/id) with the rules it shipped with; those releases now accept "
        "more than they did")
    assert loose.extra["releases"] == ["1.0.0", "1.1.0", "1.2.0", "1.3.0"]


def test_the_gate_of_record_never_executes_the_branchs_rule_code(repo, tmp_path):
    """Red team: a rule program run by the judge could rewrite the judge's files, its cache and
    the checkout before later stages read them. Only the branch's own gate runs its code."""
    marker = tmp_path / "ran"
    edit_rule_code(repo, "validation/rules/suite.py", "from __future__ import annotations\n",
                   f"import pathlib\npathlib.Path({str(marker)!r}).write_text('ran')\n")
    commit_all(repo, "suite rules: a side effect on import")
    report = run_gate(repo, base="main", stages=["behaviour", "draft", "base"])
    assert not marker.exists()
    # a side effect on import runs before every rule, so it is every rule's code (session 35)
    assert sorted(code_findings_of(report.stage("base"))) == [
        "DANGLING_REFERENCE", "DUPLICATE_ATTEMPT", "DUPLICATE_ID", "ISOLATION_MISMATCH", "SELF_PARENT"]
    run_gate(repo, stages=["behaviour"])
    assert marker.read_text() == "ran"


CASEFOLD = ("        if not isinstance(ident, str):\n            continue\n",
            "        ident = ident.casefold()\n")


def edit_rule_code(root, path, anchor, added, *, replace=False):
    p = root / "tools/evalport_spec" / path
    text = p.read_text()
    assert anchor in text
    p.write_text(text.replace(anchor, added if replace else anchor + added, 1))


def casefold_duplicate_id(root):
    """The red team's repro 04: DUPLICATE_ID compares ids case-insensitively. The gate of record
    never runs the branch's rules, so only the rule code shows it there."""
    edit_rule_code(root, "validation/rules/suite.py", *CASEFOLD)


def code_findings_of(stage):
    return {f.code: f for f in stage.findings if f.kind == "rule-implementation-changed"}


def test_rule_tightened_off_the_corpus_fails_by_its_code(repo):
    casefold_duplicate_id(repo)
    commit_all(repo, "DUPLICATE_ID: ids compare case-insensitively")
    stage = run_gate(repo, base="main", stages=["base"]).stage("base")
    assert stage.status == "fail"
    found = code_findings_of(stage)
    assert sorted(found) == ["DANGLING_REFERENCE", "DUPLICATE_ID"]  # the two rules of suite.py
    dup = found["DUPLICATE_ID"]
    assert dup.severity.name == "ERROR" and dup.undecided and dup.witness is None
    assert dup.extra["modules"] == ["evalport_spec/validation/rules/suite.py"]
    assert dup.extra["versions"] == ["1.0.0", "1.1.0", "1.2.0", "1.3.0", "draft", "main's draft"]
    assert "the change is unproven" in dup.message and "not accepted" in dup.message
    assert dup.item["rule"] == "DUPLICATE_ID" and dup.item["from"] != dup.item["to"]


def test_a_rule_tightened_to_compare_loosely_is_witnessed_by_the_branchs_own_gate(repo):
    """SELF_PARENT comparing the two group ids case-insensitively (adversary, session 33: no
    corpus document had ids differing only by case, so the branch's own gate passed it). The
    corpus now sets each read location nearly equal to another's value (case swapped, a
    trailing space, NFD, 1 as 1.0), so the branch's own gate finds the released rule tightened,
    with a witness whose two ids differ and fold to one case."""
    edit_rule_code(repo, "validation/rules/resultset.py",
                   'if json_key(group["parent_group_id"]) == json_key(group["group_id"]):',
                   'if str(group["parent_group_id"]).casefold() == str(group["group_id"]).casefold():',
                   replace=True)
    commit_all(repo, "SELF_PARENT: ids compare case-insensitively")
    local = run_gate(repo, stages=["behaviour"]).stage("behaviour")
    released = [f for f in local.findings if f.kind == "release-rule-tightened" and f.code == "SELF_PARENT"]
    assert local.status == "fail" and len(released) == 1, [f.kind for f in local.findings]
    group = released[0].witness["group"]
    assert group["group_id"] != group["parent_group_id"]
    assert group["group_id"].casefold() == group["parent_group_id"].casefold()


def test_a_rule_tightened_to_compare_in_nfc_is_witnessed_by_the_branchs_own_gate(repo):
    """Adversary, session 35: SELF_PARENT comparing the two ids in Unicode NFC changed no corpus
    document (the seeds' ids are ASCII, so their NFD and case-swapped variants are themselves),
    and with gate-ignore.yml entries landed first the released rule rejected "café"/"café" as
    its own parent. Pairs of loosely equal strings are now set at two read locations at once."""
    edit_rule_code(repo, "validation/rules/resultset.py",
                   'if json_key(group["parent_group_id"]) == json_key(group["group_id"]):',
                   'if unicodedata.normalize("NFC", str(group["parent_group_id"])) == '
                   'unicodedata.normalize("NFC", str(group["group_id"])):', replace=True)
    edit_rule_code(repo, "validation/rules/resultset.py", "from collections.abc import Iterator\n",
                   "import unicodedata\n")
    commit_all(repo, "SELF_PARENT: ids compare in NFC")
    local = run_gate(repo, stages=["behaviour"]).stage("behaviour")
    released = [f for f in local.findings if f.kind == "release-rule-tightened" and f.code == "SELF_PARENT"]
    assert local.status == "fail" and len(released) == 1, [f.kind for f in local.findings]
    group = released[0].witness["group"]
    assert group["group_id"] != group["parent_group_id"]
    assert unicodedata.normalize("NFC", group["group_id"]) == unicodedata.normalize("NFC", group["parent_group_id"])



@pytest.mark.parametrize("fold, expr", [
    ("namespace", 'str({}).rpartition("/")[2]'),
    ("fragment", 'str({}).split("#")[0]'),
    ("leading space", 'str({}).lstrip()'),
    ("truncation", 'str({})[:200]'),
])
def test_a_rule_tightened_to_compare_loosely_otherwise_is_witnessed_by_the_branchs_own_gate(repo, fold, expr):
    """Adversary 36, attempt 4: SELF_PARENT comparing ids without a path-like namespace
    (``sweeps/a`` is ``a``) changed no corpus document, so with gate-ignore.yml entries landed
    first the released rule rejected a 1.3.0 document; likewise a rule that drops a prefix, a
    fragment, leading space, or cuts ids to a length."""
    a, b = 'group["parent_group_id"]', 'group["group_id"]'
    edit_rule_code(repo, "validation/rules/resultset.py",
                   'if json_key(group["parent_group_id"]) == json_key(group["group_id"]):',
                   f"if {expr.format(a, a)} == {expr.format(b, b)}:", replace=True)
    commit_all(repo, f"SELF_PARENT: ids compare without {fold}")
    local = run_gate(repo, stages=["behaviour"]).stage("behaviour")
    released = [f for f in local.findings if f.kind == "release-rule-tightened" and f.code == "SELF_PARENT"]
    assert local.status == "fail" and len(released) == 1, [f.kind for f in local.findings]
    group = released[0].witness["group"]
    assert group["group_id"] != group["parent_group_id"]

def test_a_module_beside_the_package_is_every_rules_code(repo):
    """Red team: ``tools/orjson.py`` takes the place of the library the JSON reader imports
    (wherever the tree's toolchain runs, and once installed), and made every document declare a
    version no release has; the gate of record gave it only a ``toolchain-changed`` warning.
    It is now every rule's code, as a changed module no rule owns is."""
    (repo / "tools/orjson.py").write_text(SHADOW_ORJSON)
    commit_all(repo, "vendor a faster JSON reader")
    stage = run_gate(repo, base="main", stages=["base"]).stage("base")
    assert stage.status == "fail"
    found = code_findings_of(stage)
    # every rule some catalogue has hand-rolled (NULL_SCORE_PASSED, UNSCORED_RESULT_PASSED: encoded)
    assert sorted(found) == ["DANGLING_REFERENCE", "DUPLICATE_ATTEMPT", "DUPLICATE_ID",
                             "ISOLATION_MISMATCH", "SELF_PARENT"]
    assert all(f.extra["modules"] == ["orjson.py"] and f.undecided for f in found.values())
    # what the tree's own toolchain does with it: reads every document as another version (one
    # padded past jsonload.FAST_MIN_BYTES: smaller files never reach orjson since session 37)
    doc = repo / "big-rag-suite.json"
    doc.write_bytes((repo / "spec/examples/rag-suite.json").read_bytes() + b" " * (1 << 20))
    env = {**os.environ, "PYTHONPATH": str(repo / "tools")}
    proc = subprocess.run([sys.executable, "-I", "-c", "import sys; sys.path.insert(0, sys.argv[1]); "
                           "from evalport_spec.jsonload import load; print(load(sys.argv[2]).value['version'])",
                           str(repo / "tools"), str(doc)], capture_output=True, text=True, env=env, timeout=120)
    assert proc.stdout.strip() == "0.0.1", proc.stderr


LAUNCHER = '''"""Console entry point: refuses graders of weight 0, then runs the CLI."""
import sys


def main():
    if sys.argv[1:2] == ["validate"] and any('"weight": 0' in open(a).read() for a in sys.argv[2:]):
        sys.exit(1)
    from evalport_spec.cli import main as cli_main
    cli_main()
'''

ALL_RULES = ["DANGLING_REFERENCE", "DUPLICATE_ATTEMPT", "DUPLICATE_ID", "ISOLATION_MISMATCH", "SELF_PARENT"]


def test_the_packaging_of_the_installed_command_is_every_rules_code(repo, tmp_path):
    """Red team (session 29): the installed ``evalport-spec`` runs what ``[project.scripts]``
    names, and ``validate`` outside a repository reads the spec ``setup.py`` bundles into the
    wheel. A branch pointing the script at a new module no counted module imports, or bundling a
    1.3.0 ``grader.json`` with ``minimum`` raised to 1, got only a ``toolchain-changed`` warning
    from the gate of record; each is now every hand-rolled rule's code changed, unproven."""
    (repo / "tools/evalport_spec/site/launch.py").write_text(LAUNCHER)
    pyproject = repo / "pyproject.toml"
    pyproject.write_text(pyproject.read_text().replace('"evalport_spec.cli:main"', '"evalport_spec.site.launch:main"'))
    commit_all(repo, "a launcher for the console script")
    stage = run_gate(repo, base="main", stages=["base"]).stage("base")
    assert stage.status == "fail"
    found = code_findings_of(stage)
    assert sorted(found) == ALL_RULES
    assert all(f.extra["modules"] == ["pyproject.toml [project]"] and f.undecided for f in found.values())

    reset(repo, git(repo, "rev-parse", "main").strip())
    setup = repo / "setup.py"
    anchor = "            shutil.copyfile(src, target)\n"
    assert anchor in setup.read_text()
    setup.write_text(setup.read_text().replace(anchor, anchor + (
        "            if target.name == 'grader.json':\n"
        "                target.write_text(target.read_text().replace('\"minimum\": 0,', '\"minimum\": 1,', 1))\n")))
    commit_all(repo, "bundle the spec")
    # what it ships: the wheel's 1.3.0 grader rejects the weights 0 <= w < 1 that 1.3.0 accepts
    namespace = {"__name__": "branch_setup", "__file__": str(setup)}
    exec(compile(setup.read_text(), str(setup), "exec"), namespace)
    namespace["bundle_spec"](repo / "spec", tmp_path / "bundled")
    bundled = json.loads((tmp_path / "bundled/releases/1.3.0/schemas/grader.json").read_text())
    assert bundled["properties"]["weight"]["minimum"] == 1
    stage = run_gate(repo, base="main", stages=["base"]).stage("base")
    assert stage.status == "fail"
    found = code_findings_of(stage)
    assert sorted(found) == ALL_RULES and all(f.extra["modules"] == ["setup.py"] for f in found.values())

    # the toolchain's version, its description and pytest's options install nothing that runs
    reset(repo, git(repo, "rev-parse", "main").strip())
    text = pyproject.read_text()
    assert 'version = "0.1.0"' in text and 'addopts = "-ra"' in text
    pyproject.write_text(text.replace('version = "0.1.0"', 'version = "0.1.1"').replace('addopts = "-ra"', 'addopts = "-ra -q"'))
    commit_all(repo, "toolchain 0.1.1")
    stage = run_gate(repo, base="main", stages=["base"]).stage("base")
    assert stage.status == "warn" and not code_findings_of(stage)
    assert not [f for f in stage.findings if f.severity.name == "ERROR"]
    assert "toolchain-changed" in [f.kind for f in stage.findings]


def test_a_second_spec_root_below_the_repository_root_fails_the_schemas_stage(repo, tmp_path):
    """Red team (session 29): ``spec/spec/`` (the draft copied, Grader ``weight`` ``minimum`` 1)
    passed the gate of record with no finding, and ``validate`` run inside ``spec/`` took it for
    the repository (the nearest folder holding ``spec/schemas``): a Grader of weight 0, valid
    under the draft, was rejected as "spec draft (1.4.0)"."""
    decoy = repo / "spec/spec"
    shutil.copytree(repo / "spec/schemas", decoy / "schemas")
    shutil.copy2(repo / "spec/VERSION", decoy / "VERSION")
    edit_json(decoy / "schemas/grader.json", lambda g: g["properties"]["weight"].update(minimum=1))
    commit_all(repo, "a copy of the draft")
    grader = tmp_path / "g.json"
    grader.write_text('{"id": "g1", "type": "exact_match", "weight": 0}')
    env = {**os.environ, "PYTHONPATH": str(repo / "tools")}

    def validate(cwd):
        return subprocess.run([sys.executable, "-m", "evalport_spec", "validate", str(grader)], cwd=cwd,
                              capture_output=True, text=True, env=env, timeout=120).returncode
    assert (validate(repo), validate(repo / "spec")) == (0, 1)  # what the decoy does
    report = run_gate(repo, base="main", stages=["schemas", "base"])
    stage = report.stage("schemas")
    assert stage.status == "fail"
    assert [(f.kind, f.new.file) for f in stage.findings] == [("spec-root-nested", "spec/spec/schemas")]
    assert report.stage("base").status != "fail"  # the decoy changes nothing the base stage reads

    # a link to a copy elsewhere is the same decoy (the commands follow links)
    reset(repo, git(repo, "rev-parse", "main").strip())
    shutil.copytree(repo / "spec/schemas", repo / "docs/copy/spec/schemas")
    (repo / "rfcs/spec").symlink_to("../docs/copy/spec")
    commit_all(repo, "a linked copy")
    found = errors(run_gate(repo, stages=["schemas"]), "schemas")
    assert sorted((f.kind, f.new.file) for f in found) == [
        ("spec-root-nested", "docs/copy/spec/schemas"), ("spec-root-nested", "rfcs/spec/schemas"),
        ("spec-symlink", "rfcs/spec")]  # and the link itself is refused (spec/ and rfcs/ hold no links)


def test_paths_naming_one_file_on_a_case_insensitive_file_system_fail_the_schemas_stage(repo):
    """Red team (session 29): ``spec/version`` beside ``spec/VERSION``. Git writes index entries
    in byte order, capitals first, so a checkout on macOS or Windows keeps the name ``VERSION``
    with the content of ``version``: there the draft declares another version (documents naming
    1.4.0 go to 1.3.0), while the gate, on a case-sensitive file system, reads the other file."""
    from evalport_spec.gate.layout import colliding_paths
    assert colliding_paths(["spec/VERSION", "spec/version", "spec/schemas/a.json", "Spec/x", "b/caf\u00e9",
                            "b/cafe\u0301", "b/c"]) == [["Spec", "spec"], ["b/cafe\u0301", "b/caf\u00e9"],
                                                        ["spec/VERSION", "spec/version"]]
    (repo / "spec/version").write_text("2.0.0\n")
    commit_all(repo, "spec/version")
    found = errors(run_gate(repo, base="main", stages=["schemas"]), "schemas")
    assert [(f.kind, f.extra["paths"]) for f in found] == [("path-case-collision", ["spec/VERSION", "spec/version"])]


def test_rule_code_change_passes_only_with_its_fingerprints_accepted_on_the_base(repo):
    casefold_duplicate_id(repo)
    accepts = entries_for(repo)
    assert sorted((e["kind"], e["item"]["rule"]) for e in accepts) == [
        ("rule-implementation-changed", "DANGLING_REFERENCE"), ("rule-implementation-changed", "DUPLICATE_ID")]
    reset(repo, git(repo, "rev-parse", "main").strip())
    write_rfc(repo, 99, "accepted", accepts)
    commit_all(repo, "accept RFC 99: DUPLICATE_ID ignores case")
    git(repo, "branch", "-f", "main", "HEAD")
    casefold_duplicate_id(repo)
    (repo / "spec/VERSION").write_text("2.0.0\n")
    commit_all(repo, "DUPLICATE_ID: ids compare case-insensitively")
    stage = run_gate(repo, base="main", stages=["base"]).stage("base")
    assert stage.status == "warn", [f.message for f in stage.errors]
    assert all(f.message.endswith("accepted by RFC 0099") for f in code_findings_of(stage).values())
    # a later, different edit of the same rule is not what RFC 0099 accepted
    edit_rule_code(repo, "validation/rules/suite.py", "        ident = ident.casefold()\n",
                   "        ident = ident.casefold().strip()\n", replace=True)
    stage = run_gate(repo, base="main", stages=["base"]).stage("base")
    assert stage.status == "fail"
    assert {c for c, f in code_findings_of(stage).items() if f.severity.name == "ERROR"} == {
        "DANGLING_REFERENCE", "DUPLICATE_ID"}


def test_docstring_comment_and_formatting_edits_of_rule_code_pass(repo):
    edit_rule_code(repo, "validation/rules/suite.py", "Inline graders inside test cases are scoped",
                   "Inline graders (inside test cases) are scoped", replace=True)
    edit_rule_code(repo, "validation/rules/suite.py", '    yield from _duplicates(document, "graders", "grader")\n',
                   "    # graders of the suite, not inline ones\n"
                   "    yield from _duplicates(document,\n                           'graders', 'grader')\n",
                   replace=True)
    commit_all(repo, "suite rules: wording and layout")
    stage = run_gate(repo, base="main", stages=["base"]).stage("base")
    assert stage.status == "warn", [f.message for f in stage.errors]
    assert not code_findings_of(stage)
    assert [f.kind for f in stage.findings if f.severity.name != "INFO"] == ["toolchain-changed"]


def test_a_shared_helper_change_names_every_rule_it_affects(repo):
    edit_rule_code(repo, "pointer.py", '        t = str(t)\n', '        t = str(t).lower()\n', replace=True)
    commit_all(repo, "pointer.join lower-cases tokens")
    stage = run_gate(repo, base="main", stages=["base"]).stage("base")
    found = code_findings_of(stage)
    # every rule module imports pointer.py; the rules some catalogue activates are these five
    # (rates.py's two are proposed by RFC 0006 only, so no version's meaning depends on them)
    assert sorted(found) == ["DANGLING_REFERENCE", "DUPLICATE_ATTEMPT", "DUPLICATE_ID", "ISOLATION_MISMATCH",
                             "SELF_PARENT"]
    assert {tuple(f.extra["modules"]) for f in found.values()} == {("evalport_spec/pointer.py",)}
    assert all(f.severity.name == "ERROR" for f in found.values())


def test_a_rule_that_behaves_only_under_the_rule_program_still_fails(repo):
    edit_rule_code(repo, "validation/rules/suite.py", "from collections.abc import Iterator\n",
                   "import sys\n")
    edit_rule_code(repo, "validation/rules/suite.py", CASEFOLD[0],
                   '        if not sys.argv[0].endswith("ruleprogram.py"):\n    ' + CASEFOLD[1])
    commit_all(repo, "DUPLICATE_ID: case-insensitive, except when the gate looks")
    stage = run_gate(repo, base="main", stages=["base"]).stage("base")
    assert stage.status == "fail"
    dup = code_findings_of(stage)["DUPLICATE_ID"]
    assert dup.severity.name == "ERROR" and dup.undecided and "unproven" in dup.message


def test_a_guard_that_does_not_cover_the_implementation_fails(repo):
    def f(d):
        rule = next(r for r in d["rules"] if r["code"] == "DANGLING_REFERENCE")
        rule["guard"] = ["/graders/*/id"]  # the rule fires on references of a suite without graders
    edit_json(repo / "spec/rules.json", f)
    stage = run_gate(repo, stages=["behaviour"]).stage("behaviour")
    bad = [f for f in stage.errors if f.kind == "rule-guard-contradicted"]
    assert [f.code for f in bad] == ["DANGLING_REFERENCE"]
    assert "graders" not in bad[0].witness or not any(
        isinstance(g, dict) and "id" in g for g in bad[0].witness.get("graders", []))


# --- route 2: hand-made release -----------------------------------------------------------------

def hand_made_release(root):
    """Copy 1.3.0 to 2.0.0, lower a bound, add a MAJOR heading and the hashes, declare 2.1.0."""
    rel = root / "spec/releases"
    shutil.copytree(rel / "1.3.0", rel / "2.0.0")
    for schema in (rel / "2.0.0/schemas").glob("*.json"):
        schema.write_text(schema.read_text().replace("/spec/1.3.0/", "/spec/2.0.0/"))
    edit_json(rel / "2.0.0/schemas/resultset.json",
              lambda d: d["$defs"]["result"]["properties"]["attempt"].__setitem__("minimum", 2))
    md = rel / "2.0.0/SPEC.md"
    md.write_text(md.read_text().replace("## Changelog\n", "## Changelog\n\n### 2.0.0 — 2026-11-30 — MAJOR\n\n"
                                         "- Attempts start at 2.\n", 1))
    import hashlib
    lines = [f"{hashlib.sha256(p.read_bytes()).hexdigest()}  {p.relative_to(rel).as_posix()}\n"
             for p in sorted((rel / "2.0.0").rglob("*")) if p.is_file()]
    with (rel / "SHA256SUMS").open("a") as fh:
        fh.writelines(lines)
    (root / "spec/VERSION").write_text("2.1.0\n")


def test_hand_made_release_fails_with_and_without_base(repo):
    hand_made_release(repo)
    # not committed yet: without --base it is judged against HEAD
    stage = run_gate(repo, stages=["manifest", "history"]).stage("history")
    assert run_gate(repo, stages=["manifest"]).stage("manifest").status == "ok"  # hashes appended
    made = [f for f in stage.errors if f.kind == "release-hand-made"]
    assert made and "spec/releases/2.0.0 was not made by `release`" in made[0].message
    commit_all(repo, "release 2.0.0 by hand")
    report = run_gate(repo, base="main", stages=["schemas", "manifest", "releases", "base"])
    assert [report.stage(s).status for s in ("schemas", "manifest", "releases")] == ["ok"] * 3
    made = [f for f in errors(report, "base") if f.kind == "release-hand-made"]
    assert made and made[0].where().file == "spec/releases/2.0.0"
    assert "refuses from main's draft" in made[0].message


def test_a_release_without_its_changelog_heading_is_hand_made_at_its_spec_md(repo):
    hand_made_release(repo)
    md = repo / "spec/releases/2.0.0/SPEC.md"
    md.write_text(md.read_text().replace("### 2.0.0 — 2026-11-30 — MAJOR\n", "", 1))
    made = [(f.message, f.new) for f in run_gate(repo, stages=["history"]).stage("history").errors
            if f.kind == "release-hand-made"]
    assert made == [("spec/releases/2.0.0/SPEC.md has no changelog heading for 2.0.0; "
                     "`evalport-spec release 2.0.0` writes one", Location("spec/releases/2.0.0/SPEC.md"))]


def test_a_major_release_names_each_breaking_change_no_rfc_accepted_at_the_base(repo):
    """main's draft drops the Error type runner_error (MAJOR since 1.3.0); a branch adding
    release 2.0.0 is held to an RFC, accepted and declared MAJOR at main, accepting that
    finding by its fingerprint (the one `rfc accept-findings` writes)."""
    remove_error_types(repo, "runner_error")
    (runner_error,) = entries_for(repo)
    (repo / "spec/VERSION").write_text("2.0.0\n")
    commit_all(repo, "runner_error goes")
    git(repo, "branch", "-f", "main", "HEAD")
    hand_made_release(repo)

    def not_accepted():
        stage = run_gate(repo, base="main", stages=["base"]).stage("base")
        return [(f.message, f.new) for f in stage.errors if f.kind == "release-major-not-accepted"]

    ((message, where),) = not_accepted()
    assert where == Location("spec/releases/2.0.0")
    assert message.startswith(f"release 2.0.0 is MAJOR but enum-value-removed [{runner_error['fingerprint']}] (")
    assert message.endswith(") is accepted by no RFC that was accepted and declared MAJOR at main")
    git(repo, "stash", "-q", "-u")
    write_rfc(repo, 98, "accepted", [runner_error])
    commit_all(repo, "accept RFC 98: runner_error goes")
    git(repo, "branch", "-f", "main", "HEAD")
    git(repo, "stash", "pop", "-q")
    assert not_accepted() == []


def add_documented_runner_build(root):
    """The ordinary additive change: an optional field, its SPEC.md row written by `spec sync`."""
    add_optional_runner_field(root)
    sync_draft(SpecRepo(root))
    assert "| `build` | string | no |" in (root / "spec/SPEC.md").read_text()


def propose_runner_build(root):
    """The RFC proposing the field (status draft). SPEC.md's only normative change, the Runner
    table's new row, is generated from the schema, so the schema change records it."""
    repo = SpecRepo(root)
    assert [c.where for c in record(repo, load_rfcs(repo)).changes if not c.covered] == []
    new_rfc(repo, "Runner build", "A", documents=["resultset"])
    write_index(repo)


def test_release_made_by_release_passes_the_base_stage(repo):
    from evalport_spec.release import apply_plan, plan_release

    add_documented_runner_build(repo)
    accept_rfc(repo, 7)  # it records SPEC.md's normative changes since 1.3.0, so it is in the release
    commit_all(repo, "optional runner build")
    git(repo, "branch", "-f", "main", "HEAD")  # the additive change landed
    # the whole gate is not run first: RFC 0007's comment period is still open on the real
    # calendar, so its rfcs stage refuses the scratch acceptance; the base stage is the subject
    apply_plan(repo, plan_release(repo, "1.4.0", date="2026-12-01"))
    commit_all(repo, "release 1.4.0")
    stage = run_gate(repo, base="main", stages=["base"]).stage("base")
    assert not [f for f in stage.findings if f.kind.startswith("release")], render(
        run_gate(repo, base="main", stages=["base"]), "text")
    # the same folder with its class edited by hand is caught
    md = repo / "spec/releases/1.4.0/SPEC.md"
    md.write_text(md.read_text().replace("— MINOR", "— PATCH", 1))
    kinds_now = {f.kind for f in run_gate(repo, base="main", stages=["base"]).stage("base").errors}
    assert {"release-hand-made", "release-class-hand-made"} <= kinds_now


# --- route 3: acceptance inside the same change ------------------------------------------------

def test_acceptance_in_the_same_change_fails_and_before_it_passes(repo):
    remove_error_types(repo, "runner_error")
    accepts = entries_for(repo)
    assert [e["kind"] for e in accepts] == ["enum-value-removed"]
    write_rfc(repo, 99, "accepted", accepts)
    (repo / "spec/VERSION").write_text("2.0.0\n")
    commit_all(repo, "accept RFC 99 and drop runner_error")
    stage = run_gate(repo, base="main", stages=["base"]).stage("base")
    late = [f for f in stage.errors if f.kind == "policy-acceptance-same-change"]
    assert len(late) == 1 and late[0].message.startswith(
        "policy: RFC 0099 accepts 1 breaking finding(s) against main but was not accepted with them at main")
    # the decision landed first (on main), the change after it: accepted
    reset(repo, git(repo, "rev-parse", "main").strip())
    write_rfc(repo, 99, "accepted", accepts)
    commit_all(repo, "accept RFC 99")
    git(repo, "branch", "-f", "main", "HEAD")
    remove_error_types(repo, "runner_error")
    (repo / "spec/VERSION").write_text("2.0.0\n")
    stage = run_gate(repo, base="main", stages=["base"]).stage("base")
    assert stage.status == "warn", [f.message for f in stage.errors]
    accepted = [f for f in stage.findings if f.kind == "enum-value-removed"]
    assert len(accepted) == 1 and accepted[0].message.endswith("accepted by RFC 0099")


def test_without_base_history_dates_the_acceptance(repo):
    """`check` on a release line: the acceptance must land in an earlier first-parent step."""
    remove_error_types(repo, "runner_error")
    accepts = entries_for(repo, base=None)  # the draft since the latest release
    assert accepts == entries_for(repo)
    write_rfc(repo, 99, "accepted", accepts)
    (repo / "spec/VERSION").write_text("2.0.0\n")
    commit_all(repo, "accept and change at once")
    stage = run_gate(repo, stages=["draft"]).stage("draft")
    assert "policy-acceptance-same-change" in {f.kind for f in stage.errors}
    git(repo, "reset", "-q", "--hard", "HEAD~1")
    write_rfc(repo, 99, "accepted", accepts)
    commit_all(repo, "accept RFC 99")
    remove_error_types(repo, "runner_error")
    (repo / "spec/VERSION").write_text("2.0.0\n")
    commit_all(repo, "drop runner_error")
    stage = run_gate(repo, stages=["draft"]).stage("draft")
    assert stage.status == "warn", [f.message for f in stage.errors]
    assert not [f for f in stage.findings if f.kind == "change-without-rfc"]  # one truth per stage


def test_without_base_an_uncommitted_change_is_a_step_after_the_commit_accepting_it(repo):
    """A working tree whose spec/ differs from HEAD is a step of its own, after HEAD: the RFC
    accepted at HEAD came before the (uncommitted) break, unlike the commit above holding both."""
    remove_error_types(repo, "runner_error")
    accepts = entries_for(repo, base=None)
    git(repo, "checkout", "-q", "--", "spec")
    write_rfc(repo, 99, "accepted", accepts)
    commit_all(repo, "accept RFC 99")
    remove_error_types(repo, "runner_error")
    (repo / "spec/VERSION").write_text("2.0.0\n")
    stage = run_gate(repo, stages=["draft"]).stage("draft")
    assert stage.status == "warn", [f.message for f in stage.errors]
    accepted = [f for f in stage.findings if f.kind == "enum-value-removed"]
    assert len(accepted) == 1 and accepted[0].message.endswith("accepted by RFC 0099")


# --- scoped acceptance -------------------------------------------------------------------------

def test_accepting_runner_error_does_not_accept_the_rest_of_the_change(repo):
    """Issue 12's over-broad branch: an RFC accepted the removal of runner_error; the branch also
    makes summary.total required. Each breaking finding is listed with its own verdict."""
    remove_error_types(repo, "runner_error")
    only_runner_error = entries_for(repo)
    git(repo, "checkout", "-q", "--", "spec")
    write_rfc(repo, 99, "accepted", only_runner_error)
    commit_all(repo, "accept RFC 99: runner_error goes")
    git(repo, "branch", "-f", "main", "HEAD")
    remove_error_types(repo, "runner_error")
    require_summary_total(repo)
    (repo / "spec/VERSION").write_text("2.0.0\n")
    stage = run_gate(repo, base="main", stages=["base"]).stage("base")
    verdicts = {f.fingerprint: f for f in stage.findings if f.extra.get("accepted_by") is not None}
    accepted = verdicts.pop(only_runner_error[0]["fingerprint"])
    assert accepted.severity.name == "WARNING" and accepted.message.endswith("accepted by RFC 0099")
    assert [f.kind for f in verdicts.values()] == ["required-added"]
    other = next(iter(verdicts.values()))
    assert other.severity.name == "ERROR"
    assert "not accepted: no accepted MAJOR RFC lists fingerprint" in other.message
    assert "no RFC declaring MAJOR is open for it (an accepted RFC's accepts list is closed" in other.message
    summary = [f for f in stage.errors if f.kind == "policy-major-needs-rfc"]
    assert summary[0].message.endswith(f"MAJOR required-added [{other.fingerprint}]")


def test_stale_fingerprint_is_reported(repo, capsys):
    remove_error_types(repo, "runner_error")
    accepts = entries_for(repo)
    git(repo, "checkout", "-q", "--", "spec")  # the change is gone, the acceptance stays
    write_rfc(repo, 99, "accepted", accepts)
    stage = run_gate(repo, stages=["draft"]).stage("draft")
    stale = [f for f in stage.findings if f.kind == "acceptance-stale"]
    assert len(stale) == 1 and stale[0].severity.name == "WARNING"
    assert stale[0].message == (
        f"RFC 0099 accepts [{accepts[0]['fingerprint']}] (enum-value-removed at {accepts[0]['location']}) but no "
        "breaking finding of the draft has that fingerprint: the change is gone or changed shape (run "
        "`evalport-spec rfc accept-findings 99` again and remove stale entries)")
    # write_rfc's front matter: `accepts:` follows 15 lines (fences, fields, period, decision date)
    assert stale[0].new == Location("rfcs/0099-scratch-change-99.md", None, 16)


def test_accept_findings_writes_fingerprints_and_refuses_a_minor_rfc(repo, capsys):
    remove_error_types(repo, "runner_error")
    require_summary_total(repo)
    write_rfc(repo, 98, "comment", declared="MINOR")
    assert main(["-C", str(repo), "rfc", "accept-findings", "98", "--base", "main"]) == 2
    assert "only an RFC declaring MAJOR accepts breaking findings" in capsys.readouterr().err
    path = write_rfc(repo, 99, "comment")
    before = path.read_text()
    assert main(["-C", str(repo), "rfc", "accept-findings", "99", "--base", "main", "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert sorted(e["kind"] for e in out["added"]) == ["enum-value-removed", "required-added"]
    assert {e["fingerprint"] for e in out["added"]} == {e["fingerprint"] for e in entries_for(repo)}
    text = path.read_text()  # only the accepts block is new
    head, body = before.split("\n---\n", 1)
    assert text.startswith(head + "\naccepts:\n  - {") and text.endswith("\n---\n" + body)
    assert main(["-C", str(repo), "rfc", "accept-findings", "99", "--base", "main"]) == 0
    assert "0 breaking finding(s) against main added to accepts, 2 already listed" in capsys.readouterr().out
    main(["-C", str(repo), "rfc", "lint", str(path)])
    assert "accepts" not in capsys.readouterr().out  # the front matter schema knows the key
    # an accepted RFC's list is what was decided: refused, one line, the file unchanged
    path = write_rfc(repo, 97, "accepted")
    before = path.read_bytes()
    assert main(["-C", str(repo), "rfc", "accept-findings", "97", "--base", "main"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "RFC 0097 is accepted: it accepts what was open for comment" in err
    assert path.read_bytes() == before


# --- route 4: the gate's own code and CI -------------------------------------------------------

def test_a_branch_gutting_the_gate_is_judged_by_the_base_toolchain(repo):
    policy = repo / "tools/evalport_spec/policy.py"
    policy.write_text(policy.read_text() + "\n\ndef breaking(findings):\n    return []\n")
    remove_error_types(repo, "runner_error")
    commit_all(repo, "nothing is breaking any more")
    # the branch's own toolchain lets its change through ...
    env = {**os.environ, "PYTHONPATH": str(repo / "tools")}
    own = subprocess.run([sys.executable, "-m", "evalport_spec", "-C", str(repo), "check", "--base", "main",
                          "--stage", "base"], capture_output=True, text=True, env=env, cwd=repo)
    assert own.returncode == 0, own.stdout + own.stderr
    # ... the base's does not, and names the changed toolchain
    report = run_gate(repo, base="main", stages=["base"])
    stage = report.stage("base")
    assert stage.status == "fail"
    changed = [f for f in stage.findings if f.kind == "toolchain-changed"]
    assert changed[0].extra["paths"] == ["tools/evalport_spec/policy.py"]
    assert changed[0].severity.name == "WARNING"
    assert "toolchain-changed" in render(report, "markdown")


# --- route 5: released files without --base ----------------------------------------------------

def test_released_file_and_its_hash_edited_together_fail_without_base(repo):
    import hashlib

    p = repo / "spec/releases/1.3.0/schemas/resultset.json"
    edit_json(p, lambda d: d["$defs"]["result"]["properties"]["attempt"].__setitem__("minimum", 2))
    sums = repo / "spec/releases/SHA256SUMS"
    digest = hashlib.sha256(p.read_bytes()).hexdigest()
    sums.write_text("".join(digest + ln[64:] if ln.endswith(" 1.3.0/schemas/resultset.json\n") else ln
                            for ln in sums.read_text().splitlines(keepends=True)))
    commit_all(repo, "tamper with 1.3.0")
    report = run_gate(repo, stages=["manifest", "history"])
    assert report.stage("manifest").status == "ok"
    changed = errors(report, "history")
    assert [f.where().file for f in changed] == ["spec/releases/1.3.0/schemas/resultset.json"]
    assert "differs from the commit that first added it" in changed[0].message


def test_shallow_clone_is_bad_input_naming_the_fetch(repo, tmp_path, capsys):
    clone = tmp_path / "shallow"
    subprocess.run(["git", "clone", "-q", "--depth", "1", f"file://{repo}", str(clone)], check=True,
                   capture_output=True)
    with pytest.raises(InputError, match="git fetch --unshallow"):
        run_gate(clone, stages=["history"])
    assert main(["-C", str(clone), "check", "--stage", "history"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "fetch-depth: 0" in err[0]


# --- the ordinary additive change ------------------------------------------------------------

@pytest.mark.parametrize("with_rfc", [False, True], ids=["no-rfc", "draft-rfc"])
def test_an_optional_field_documented_in_spec_md_passes_every_stage(repo, with_rfc):
    """An additive change needs no RFC (the policy only notes its absence), and the SPEC.md row
    ``spec sync`` writes for it is recorded by the schema change it mirrors."""
    add_documented_runner_build(repo)
    if with_rfc:
        propose_runner_build(repo)
    commit_all(repo, "optional runner build")
    report = run_gate(repo, base="main")
    assert report.exit_code == 0, render(report, "text")
    assert report.stage("base").change_class.name == "MINOR"
    assert not [f for f in report.findings() if f.kind == "toolchain-changed"]


# --- check --ignore, the fixture backfill ------------------------------------------------------

def test_check_ignore_accepts_a_breaking_finding_only_by_its_fingerprint(repo, tmp_path):
    remove_error_types(repo, "runner_error")
    fp = entries_for(repo)[0]["fingerprint"]
    ignore = tmp_path / "ignore.yml"
    ignore.write_text("- {kind: enum-value-removed, reason: a kind names no finding}\n")
    assert run_gate(repo, base="main", stages=["base"], ignore=ignore).stage("base").status == "fail"
    ignore.write_text(f"- {{kind: enum-value-removed, fingerprint: '{fp}', reason: agreed, expires: 2999-01-01}}\n"
                      "- {kind: type-narrowed, reason: long gone, expires: 2000-01-01}\n")
    report = run_gate(repo, base="main", stages=["draft", "base"], ignore=ignore)
    base = report.stage("base")
    assert base.status == "warn", [f.message for f in base.errors]
    shown = [f for f in base.findings if f.kind == "enum-value-removed"]
    assert shown[0].message.endswith(f"ignored by the --ignore entry for [{fp}] (agreed) until 2999-01-01")
    notes = {f.kind for f in report.stage("draft").findings if f.severity.name == "WARNING"}
    assert "ignore-entry-expired" in notes
    # the repository's own ignore file accepts rule-code findings only (tests/test_gate_ignores.py)
    inside = repo / "gate-ignore.yml"
    inside.write_text(ignore.read_text())
    with pytest.raises(InputError, match=r"entry 0 \(enum-value-removed\)"):
        run_gate(repo, base="main", stages=["base"], ignore=inside)


def test_an_ignore_file_committed_as_a_link_out_of_the_checkout_is_refused(repo, tmp_path, capsys):
    # red team: gate-ignore.yml as a symbolic link to a file outside the repository was read as
    # an outside file, so the entries-at-the-base rule did not apply and the branch excused itself
    remove_error_types(repo, "runner_error")
    fp = entries_for(repo)[0]["fingerprint"]
    outside = tmp_path / "evil-ignore.yml"
    outside.write_text(f"- {{kind: enum-value-removed, fingerprint: '{fp}', reason: mine}}\n")
    (repo / "gate-ignore.yml").symlink_to(outside)
    commit_all(repo, "excuse myself")
    with pytest.raises(InputError, match="refusing a symlink that leaves the repository"):
        run_gate(repo, base="main", stages=["base"], ignore=repo / "gate-ignore.yml")
    assert main(["-C", str(repo), "check", "--base", "main", "--stage", "base",
                 "--ignore", str(repo / "gate-ignore.yml")]) == 2
    assert "refusing a symlink that leaves the repository" in capsys.readouterr().err


def test_a_draft_schema_in_another_dialect_fails_the_schemas_stage(repo):
    # red team: testcase.json switched to draft-07 made a 2020-12-only format look like an
    # annotation to the classifier, while a TestCase inside a Suite was still checked as 2020-12
    edit_json(repo / "spec/schemas/testcase.json",
              lambda d: d.update({"$schema": "http://json-schema.org/draft-07/schema#"}))
    stage = run_gate(repo, stages=["schemas"]).stage("schemas")
    found = [f for f in stage.errors if f.kind == "schema-dialect"]
    assert stage.status == "fail" and len(found) == 1
    assert found[0].where().file == "spec/schemas/testcase.json" and "draft-07" in found[0].message


def test_fixture_backfill_of_a_release_is_allowed_only_exactly(repo):
    from evalport_spec.release import release_conformance_files
    from evalport_spec.spec import DRAFT, SpecRepo

    # a base where release 1.2.0 was cut before fixtures were frozen
    shutil.rmtree(repo / "spec/releases/1.2.0/conformance")
    sums = repo / "spec/releases/SHA256SUMS"
    sums.write_text("".join(line for line in sums.read_text().splitlines(True)
                            if "1.2.0/conformance/" not in line))
    git(repo, "checkout", "-q", "main")
    commit_all(repo, "1.2.0 as cut before fixtures were frozen")
    git(repo, "checkout", "-q", "-B", "feature")

    files = release_conformance_files(SpecRepo(repo).version(DRAFT), "1.2.0")
    names = {n for n in files if n.startswith("conformance/fixtures/")}
    since_13 = {f"conformance/fixtures/{p.name}" for p in (repo / "spec/conformance/fixtures").glob("*.json")
                if '"since": "1.3.0"' in p.read_text()}
    assert names and since_13 and not names & since_13 and "conformance/fixture.schema.json" in files
    for rel, data in files.items():
        (repo / "spec/releases/1.2.0" / rel).parent.mkdir(parents=True, exist_ok=True)
        (repo / "spec/releases/1.2.0" / rel).write_bytes(data)
    commit_all(repo, "backfill 1.2.0's fixtures")
    assert not [f for f in run_gate(repo, base="main", stages=["base"]).stage("base").findings
                if f.kind == "released-file-added"]
    extra = repo / "spec/releases/1.2.0/conformance/fixtures" / sorted(since_13)[0].rsplit("/", 1)[1]
    extra.write_bytes((repo / "spec/conformance/fixtures" / extra.name).read_bytes())
    added = [f for f in run_gate(repo, base="main", stages=["base"]).stage("base").errors
             if f.kind == "released-file-added"]
    assert len(added) == 1 and f"spec/releases/1.2.0/conformance/fixtures/{extra.name}" in added[0].message
    assert "must be exactly the base draft's fixtures that apply to 1.2.0" in added[0].message


# --- the checkout is what lands ----------------------------------------------------------------

def _grader_label(root, pattern):
    edit_json(root / "spec/schemas/grader.json", lambda d: d["properties"].update(
        {"label": {"type": "string", "allOf": [{"pattern": pattern}], "description": "A short label."}}))


def test_a_git_attribute_rewriting_the_spec_on_checkout_is_refused(repo, capsys):
    # red team: with `ident`, git stores the pattern ^[$Id$]*$ (it rejects ":") while the checkout
    # the gate reads has ^[$Id: <blob name> $]*$ (it accepts ":"): judged MINOR, landed breaking
    git(repo, "checkout", "-q", "main")
    _grader_label(repo, "^[$Id: ]*$")
    commit_all(repo, "optional grader label")
    git(repo, "checkout", "-q", "-B", "feature")
    _grader_label(repo, "^[$Id$]*$")
    (repo / ".gitattributes").write_text("spec/schemas/*.json ident\n")
    commit_all(repo, "label tightened in git")
    (repo / "spec/schemas/grader.json").unlink()
    git(repo, "checkout", "--", "spec/schemas/grader.json")  # what a CI checkout writes
    assert "[$Id: " in (repo / "spec/schemas/grader.json").read_text()
    assert "[$Id$]" in git(repo, "show", "HEAD:spec/schemas/grader.json")
    with pytest.raises(InputError, match="attribute `ident`") as caught:
        run_gate(repo, base="main", stages=["base"])
    assert caught.value.source == "spec/schemas/grader.json"
    assert main(["-C", str(repo), "check", "--base", "main", "--stage", "base"]) == 2
    assert "rewrites this file on checkout" in capsys.readouterr().err
    # attributes that leave the content alone on this platform are no reason to refuse
    (repo / ".gitattributes").write_text("* text=auto\n*.png binary\n")
    commit_all(repo, "harmless attributes")
    git(repo, "checkout", "--", "spec/schemas/grader.json")
    assert run_gate(repo, base="main", stages=["base"]).stage("base").status != "fail"


def test_a_crlf_checkout_of_the_spec_is_refused_in_one_line(repo):
    # fresh user: with core.autocrlf=true (a Windows contributor's default) every file reads as
    # changed against the LF blobs git holds: ~700 released-file-changed lines and no word of why
    git(repo, "config", "core.autocrlf", "true")
    (repo / "spec/VERSION").unlink()
    git(repo, "checkout", "--", "spec/VERSION")
    assert (repo / "spec/VERSION").read_bytes().endswith(b"\r\n")
    with pytest.raises(InputError, match=r"core.autocrlf=true turned this file's LF line endings into CRLF") as caught:
        run_gate(repo, stages=["manifest"])
    assert caught.value.source == "spec/VERSION"
    # saved with CRLF by its author, no conversion configured: that is what lands, judged as is
    git(repo, "config", "core.autocrlf", "false")
    assert run_gate(repo, stages=["manifest"]).stage("manifest").status == "ok"


def _checked_out_again(repo, rel: str = "spec/VERSION") -> None:
    (repo / rel).unlink()
    git(repo, "checkout", "--", rel)


@pytest.mark.parametrize(("setup", "why"), [
    # core.eol applies to files marked text (gitattributes(5)): text=auto at the root marks them
    ({"config": {"core.eol": "crlf"}, "root": "* text=auto\n"}, "core.eol=crlf"),
    # a boolean git spells many ways (git-config(1), "true"): each one converts
    ({"config": {"core.autocrlf": "yes"}}, "core.autocrlf=true"),
    ({"config": {"core.autocrlf": "1"}}, "core.autocrlf=true"),
    # an attribute file of spec/ itself, no configuration at all
    ({"spec": "* eol=crlf\n"}, "the eol=crlf attribute"),
    ({"spec": "*.json text eol=crlf\nVERSION text eol=crlf\n"}, "the eol=crlf attribute"),
], ids=["core.eol", "autocrlf-yes", "autocrlf-1", "spec-gitattributes", "spec-gitattributes-text"])
def test_every_crlf_conversion_of_a_checkout_is_refused(repo, setup, why):
    """Each way git is told to write CRLF on checkout (core.autocrlf, core.eol with the text
    attribute, the eol attribute in a .gitattributes under spec/) is refused, naming it."""
    config = setup.get("config", {})
    try:
        for key, value in config.items():
            git(repo, "config", key, value)
        for where, path in (("root", repo / ".gitattributes"), ("spec", repo / "spec/.gitattributes")):
            if where in setup:
                path.write_text(setup[where])
        if "root" in setup or "spec" in setup:
            commit_all(repo, "line-ending attributes")
        _checked_out_again(repo)
        assert (repo / "spec/VERSION").read_bytes().endswith(b"\r\n")  # git did convert it
        with pytest.raises(InputError, match=re.escape(why) + r" turned this file's LF line endings into CRLF"):
            run_gate(repo, stages=["manifest"])
    finally:  # the scratch repository is shared by the module's tests: leave no setting behind
        for key in config:
            git(repo, "config", "--unset", key)
        for path in (repo / ".gitattributes", repo / "spec/.gitattributes"):
            path.unlink(missing_ok=True)
        _checked_out_again(repo)


# --- spec/VERSION decides which version validates a document -------------------------------------

def test_a_version_bump_sending_the_drafts_documents_to_an_older_release_is_breaking(repo):
    # red team: after an optional Runner.build landed, a branch editing only spec/VERSION
    # (1.4.0 -> 2.0.0) sent every ResultSet declaring 1.4.0 to release 1.3.0, which has no build
    (repo / "spec/VERSION").write_text("2.0.0\n")
    commit_all(repo, "call the next release 2.0.0")
    report = run_gate(repo, base="main", stages=["base"])
    # the draft accepts what 1.3.0 does: its documents lose nothing there
    assert report.stage("base").status != "fail" and "draft-version-rerouted" not in kinds(report, "base")
    git(repo, "checkout", "-q", "main")
    add_optional_runner_field(repo)
    commit_all(repo, "optional runner build")
    git(repo, "checkout", "-q", "-B", "feature")
    (repo / "spec/VERSION").write_text("2.0.0\n")
    commit_all(repo, "call the next release 2.0.0")
    report = run_gate(repo, base="main", stages=["base"])
    (found,) = [f for f in errors(report, "base") if f.kind == "draft-version-rerouted"]
    assert found.item == {"version": "1.4.0", "validated_by": "1.3.0"} and not found.undecided
    assert "not accepted" in found.message
    witness = found.witness
    assert witness["version"] == "1.4.0" and "build" in json.dumps(witness)
    main_suite = json.loads(git(repo, "show", "main:spec/schemas/resultset.json"))
    released = json.loads((repo / "spec/releases/1.3.0/schemas/resultset.json").read_text())
    assert Draft202012Validator(main_suite).is_valid(witness)
    assert not Draft202012Validator(released).is_valid(witness)


# --- an acceptance is spent once its change has landed ------------------------------------------

def _weight_minimum(root, value):
    edit_json(root / "spec/schemas/grader.json",
              lambda d: d["properties"]["weight"].__setitem__("minimum", value))


def test_an_acceptance_whose_change_has_landed_accepts_no_further_change_at_its_place(repo):
    # red team: the fingerprint of `minimum-increased` at Grader.weight is the same for 0 -> 1
    # and 1 -> 1000; RFC 99 accepted the first, and once it had landed a later branch raising
    # the minimum to 1000 passed as "accepted by RFC 0099"
    _weight_minimum(repo, 1)
    (repo / "spec/VERSION").write_text("2.0.0\n")
    commit_all(repo, "weight >= 1")
    accepts = entries_for(repo)
    assert {e["kind"] for e in accepts} >= {"minimum-increased"}
    git(repo, "checkout", "-q", "main")
    write_rfc(repo, 99, "accepted", accepts)
    commit_all(repo, "accept RFC 99: weight >= 1")
    git(repo, "checkout", "-q", "feature")
    git(repo, "rebase", "-q", "main")
    stage = run_gate(repo, base="main", stages=["base"]).stage("base")
    assert stage.status == "warn", [f.message for f in stage.errors]  # the accepted change itself
    git(repo, "checkout", "-q", "main")
    git(repo, "merge", "-q", "--ff-only", "feature")
    git(repo, "checkout", "-q", "-B", "later")
    _weight_minimum(repo, 1000)
    commit_all(repo, "weight >= 1000")
    stage = run_gate(repo, base="main", stages=["base"]).stage("base")
    assert stage.status == "fail"
    (lost,) = {f.fingerprint for f in stage.errors if f.kind == "minimum-increased"}
    assert lost in {e["fingerprint"] for e in accepts}  # the same fingerprint RFC 99 lists
    assert any("RFC 0099 lists it but was not accepted with it at main for a change it does not have yet"
               in f.message for f in stage.errors)
    grader = {"id": "g", "type": "exact_match", "weight": 5}
    assert Draft202012Validator(json.loads(git(repo, "show", "main:spec/schemas/grader.json"))).is_valid(grader)
    assert not Draft202012Validator(json.loads((repo / "spec/schemas/grader.json").read_text())).is_valid(grader)


# --- an acceptance names the value it accepted, not only the place --------------------------------

def _schema_uri_min_length(root, n):
    """The draft's ResultSet ``$schema`` minLength (1 on main): raising it is MAJOR, a finding
    without an item whose fingerprint is the same for every new value."""
    edit_json(root / "spec/schemas/resultset.json",
              lambda d: d["properties"]["$schema"].__setitem__("minLength", n))


def test_an_rfc_accepting_one_value_does_not_accept_another_at_the_same_place(repo):
    """Red team: an RFC accepted on the base for ``minLength 1 -> 2`` let a branch through with
    ``1 -> 50`` (one fingerprint for both); its entry now carries ``to``, the new value's digest."""
    _schema_uri_min_length(repo, 2)
    accepts = entries_for(repo)
    assert [e["kind"] for e in accepts] == ["min-length-increased"]
    assert re.fullmatch(r"[0-9a-f]{16}", accepts[0]["to"])
    git(repo, "checkout", "-q", "--", "spec")
    write_rfc(repo, 99, "accepted", accepts)
    commit_all(repo, "accept RFC 99")
    git(repo, "branch", "-f", "main", "HEAD")
    (repo / "spec/VERSION").write_text("2.0.0\n")
    _schema_uri_min_length(repo, 50)
    stage = run_gate(repo, base="main", stages=["base"]).stage("base")
    (lost,) = [f for f in stage.errors if f.kind == "min-length-increased"]
    assert lost.fingerprint == accepts[0]["fingerprint"]
    assert "RFC 0099 lists fingerprint" in lost.message and "for another value" in lost.message
    # the value the RFC names passes
    _schema_uri_min_length(repo, 2)
    stage = run_gate(repo, base="main", stages=["base"]).stage("base")
    assert stage.status == "warn", [f.message for f in stage.errors]
    (ok,) = [f for f in stage.findings if f.kind == "min-length-increased"]
    assert ok.message.endswith("accepted by RFC 0099")


def test_an_ignore_entry_for_one_value_does_not_excuse_another(repo, tmp_path):
    """Red team: an ignore entry for ``minLength 1 -> 2`` (no RFC, no major version) also
    passed a later ``2 -> 50``; an entry binds the value by ``to``, and an entry without ``to``
    accepts no finding that lacks an item. (The file is the CI owner's, outside the
    repository: the repository's own accepts rule-code findings only.)"""
    _schema_uri_min_length(repo, 2)
    (e,) = entries_for(repo)
    git(repo, "checkout", "-q", "--", "spec")
    ignore = tmp_path / "owner-ignore.yml"
    ignore.write_text(json.dumps([{"kind": e["kind"], "fingerprint": e["fingerprint"], "to": e["to"],
                                   "reason": "reviewed"},
                                  {"kind": e["kind"], "fingerprint": e["fingerprint"], "reason": "unbound"}]))
    _schema_uri_min_length(repo, 2)
    stage = run_gate(repo, base="main", stages=["base"], ignore=ignore).stage("base")
    assert stage.status == "warn", [f.message for f in stage.errors]
    _schema_uri_min_length(repo, 50)
    stage = run_gate(repo, base="main", stages=["base"], ignore=ignore).stage("base")
    assert "min-length-increased" in {f.kind for f in stage.errors}


def test_a_major_release_of_a_value_bound_change_is_accepted_for_that_value_only(repo):
    """main's draft raises ResultSet ``$schema`` minLength 1 -> 2 (MAJOR, a finding without an
    item). An RFC accepted and declared MAJOR at main accepting it with the ``to`` of 2 accepts
    release 2.0.0; one whose ``to`` names another value (minLength 3) accepts nothing."""
    _schema_uri_min_length(repo, 3)
    (other,) = entries_for(repo)
    _schema_uri_min_length(repo, 2)
    (two,) = entries_for(repo)
    assert two["fingerprint"] == other["fingerprint"] and two["to"] != other["to"]
    first = git(repo, "rev-parse", "main").strip()

    def not_accepted(accepts):
        reset(repo, first)
        git(repo, "checkout", "-q", "main")
        _schema_uri_min_length(repo, 2)
        (repo / "spec/VERSION").write_text("2.0.0\n")
        write_rfc(repo, 98, "accepted", [accepts])
        commit_all(repo, "$schema minLength 2, accepted by RFC 98")
        git(repo, "checkout", "-q", "-B", "release", "main")
        hand_made_release(repo)
        stage = run_gate(repo, base="main", stages=["base"]).stage("base")
        return [f.message for f in stage.errors if f.kind == "release-major-not-accepted"]

    assert not_accepted(two) == []
    (message,) = not_accepted(other)
    assert message.startswith(f"release 2.0.0 is MAJOR but min-length-increased [{two['fingerprint']}] (")


def test_a_major_release_made_by_release_still_needs_its_breaking_changes_accepted(repo):
    """`release` itself runs no gate: from a draft dropping the Error type runner_error with no
    RFC accepting it, it makes release 2.0.0 (MAJOR) byte for byte, and the base stage must
    still name the one breaking change nobody accepted."""
    import datetime

    from evalport_spec.release import apply_plan, plan_release

    remove_error_types(repo, "runner_error")
    (runner_error,) = entries_for(repo)
    (repo / "spec/VERSION").write_text("2.0.0\n")
    accept_rfc(repo, 7)  # it records SPEC.md's normative changes since 1.3.0, so it is in the release
    commit_all(repo, "runner_error goes, no RFC accepting it")
    git(repo, "branch", "-f", "main", "HEAD")
    today = datetime.datetime.now(datetime.UTC).date()
    plan = plan_release(repo, "2.0.0", date=today.isoformat(), today=today)
    assert plan.change_class == "MAJOR"
    apply_plan(repo, plan)
    commit_all(repo, "release 2.0.0")
    stage = run_gate(repo, base="main", stages=["base"]).stage("base")
    assert not [f.message for f in stage.errors if f.kind.startswith("release-") and "hand-made" in f.kind]
    (lost,) = [f for f in stage.errors if f.kind == "release-major-not-accepted"]
    assert lost.message.startswith(f"release 2.0.0 is MAJOR but enum-value-removed [{runner_error['fingerprint']}] (")


def test_one_file_added_to_a_released_folder_is_refused(repo):
    """A single file (with its SHA256SUMS line, so the manifest agrees) added to release 1.3.0,
    which has its fixtures, is no backfill: the base stage names it. (A NOTES.md is no schema,
    fixture or rules file, so no other stage of ``check --base`` sees it: with the base stage
    skipping a folder that gains one file, mutant rel08, the whole run passed.)"""
    import hashlib

    extra = repo / "spec/releases/1.3.0/NOTES.md"
    extra.write_text("# Notes\n")
    with (repo / "spec/releases/SHA256SUMS").open("a") as fh:
        fh.write(f"{hashlib.sha256(extra.read_bytes()).hexdigest()}  1.3.0/NOTES.md\n")
    commit_all(repo, "notes in 1.3.0")
    stage = run_gate(repo, base="main", stages=["base"]).stage("base")
    assert [(f.message, f.new) for f in stage.errors if f.kind == "released-file-added"] == [
        ("spec/releases/1.3.0 gains spec/releases/1.3.0/NOTES.md since main: files are never "
         "added to a release", Location("spec/releases/1.3.0/NOTES.md"))]


def test_a_release_folder_lacking_a_file_release_makes_is_hand_made(repo):
    """Release 1.4.0 made by `release`, then its rules.json dropped with its SHA256SUMS line
    (so the manifest agrees): the folder is not what `release` makes, by the file it lacks."""
    import datetime

    from evalport_spec.release import apply_plan, plan_release

    add_documented_runner_build(repo)
    accept_rfc(repo, 7)
    commit_all(repo, "optional runner build")
    git(repo, "branch", "-f", "main", "HEAD")
    today = datetime.datetime.now(datetime.UTC).date()
    apply_plan(repo, plan_release(repo, "1.4.0", date=today.isoformat(), today=today))
    (repo / "spec/releases/1.4.0/rules.json").unlink()
    sums = repo / "spec/releases/SHA256SUMS"
    sums.write_text("".join(line for line in sums.read_text().splitlines(True) if "  1.4.0/rules.json" not in line))
    commit_all(repo, "release 1.4.0 without its rules")
    stage = run_gate(repo, base="main", stages=["base"]).stage("base")
    (made,) = [f for f in stage.errors if f.kind == "release-hand-made"]
    assert made.extra["paths"] == ["rules.json"] and made.where().file == "spec/releases/1.4.0/rules.json"


def test_the_fixture_backfill_is_refused_once_the_release_has_any_conformance_file(repo):
    """Release 1.2.0 whose conformance/ holds only a NOTES.md at main has had its conformance
    folder: the exact backfill of its fixtures is then files added to a release, refused."""
    import hashlib

    from evalport_spec.release import release_conformance_files
    from evalport_spec.spec import DRAFT, SpecRepo

    shutil.rmtree(repo / "spec/releases/1.2.0/conformance")
    notes = repo / "spec/releases/1.2.0/conformance/NOTES.md"
    notes.parent.mkdir()
    notes.write_text("# Fixtures come later\n")
    sums = repo / "spec/releases/SHA256SUMS"
    sums.write_text("".join(line for line in sums.read_text().splitlines(True) if "1.2.0/conformance/" not in line)
                    + f"{hashlib.sha256(notes.read_bytes()).hexdigest()}  1.2.0/conformance/NOTES.md\n")
    git(repo, "checkout", "-q", "main")
    commit_all(repo, "1.2.0 with a conformance note and no fixtures")
    git(repo, "checkout", "-q", "-B", "feature")
    files = release_conformance_files(SpecRepo(repo).version(DRAFT), "1.2.0")
    for rel, data in files.items():
        (repo / "spec/releases/1.2.0" / rel).parent.mkdir(parents=True, exist_ok=True)
        (repo / "spec/releases/1.2.0" / rel).write_bytes(data)
    commit_all(repo, "backfill 1.2.0's fixtures after all")
    (added,) = [f for f in run_gate(repo, base="main", stages=["base"]).stage("base").errors
                if f.kind == "released-file-added"]
    assert added.extra["paths"] == sorted(files)
    assert added.message.endswith("since main: files are never added to a release")
