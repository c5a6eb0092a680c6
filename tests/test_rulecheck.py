"""The rule check can fail: mutation tests on a copy of the repository's spec/ and rfcs/, each
asserting the exact new ``path:line: CODE: what is wrong`` lines; plus the drift check, the
listings and the CLI (issue 4)."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from evalport_spec.cli import main
from evalport_spec.rulecheck import check_rules, format_finding
from evalport_spec.rulecheck.render import rules_page, rules_table
from evalport_spec.spec import SpecRepo
from evalport_spec.validation import RULES, Rule

MAIN = Path(__file__).resolve().parents[1]
DOC_KEY = '"document":'
SEED_KEY = '"seed":'




@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A copy of spec/ and rfcs/ with resultset.json re-serialised (indent 2) so tests can
    rewrite it without moving lines of the baseline."""
    shutil.copytree(MAIN / "spec", tmp_path / "spec")
    if (MAIN / "rfcs").is_dir():
        shutil.copytree(MAIN / "rfcs", tmp_path / "rfcs")
    _rewrite(tmp_path / "spec/schemas/resultset.json", lambda s: s)
    return tmp_path


def _rewrite(path: Path, change) -> None:
    value = change(json.loads(path.read_text()))
    path.write_text(json.dumps(value, indent=2, ensure_ascii=False) + "\n")


def lines(root: Path, **kw) -> set[str]:
    return {format_finding(f) for f in check_rules(SpecRepo(root), **kw)}


def line_of(path: Path, needle: str, nth: int = 0) -> int:
    """1-based line of the nth line containing ``needle`` (worked out from the text alone)."""
    hits = [i for i, text in enumerate(path.read_text().splitlines(), 1) if needle in text]
    return hits[nth]


def entry_line(root: Path, code: str) -> int:
    """Line of the ``{`` that opens the catalogue entry of ``code``."""
    return line_of(root / "spec/rules.json", f'"code": "{code}"') - 1


def only_code_fixtures(root: Path, code: str) -> list[Path]:
    out = []
    for p in sorted((root / "spec/conformance/fixtures").glob("*.json")):
        full = json.loads(p.read_text())["expect"]["full"]
        errs = full.get("errors", [])
        if not full["valid"] and errs and all(e["code"] == code for e in errs):
            out.append(p)
    return out


def test_fixture_deleted(repo: Path) -> None:
    before = lines(repo)
    only = only_code_fixtures(repo, "SELF_PARENT")
    assert len(only) == 1, "SELF_PARENT should have exactly one rejecting fixture"
    only[0].unlink()
    new = lines(repo) - before
    assert new == {f"spec/rules.json:{entry_line(repo, 'SELF_PARENT')}: SELF_PARENT: no "
                   "conformance fixture is rejected with this code at its stated instance path"}


def test_code_renamed_in_implementation_only(repo: Path) -> None:
    before = lines(repo)
    registry = {k: v for k, v in RULES.items() if k != "DUPLICATE_ATTEMPT"}
    fn = RULES["DUPLICATE_ATTEMPT"].function
    registry["DUPLICATE_ATTEMPTS"] = Rule("DUPLICATE_ATTEMPTS", "resultset", fn)
    new = lines(repo, rules=registry) - before
    src = Path(MAIN / "tools/evalport_spec/validation/rules/resultset.py")
    impl_line = line_of(src, '@register_items("DUPLICATE_ATTEMPT"')
    assert (f"spec/rules.json:{entry_line(repo, 'DUPLICATE_ATTEMPT')}: DUPLICATE_ATTEMPT: "
            "catalogued but no implementation is registered under this code and the catalogue "
            "does not say the schema encodes it") in new
    assert (f"{src}:{impl_line}: DUPLICATE_ATTEMPTS: implemented "
            "(evalport_spec.validation.rules.resultset.DuplicateAttempt) but catalogued "
            "neither in spec/rules.json nor in an RFC proposal's rules.json") in new
    assert (f"spec/rules.json:{entry_line(repo, 'DUPLICATE_ATTEMPT')}: DUPLICATE_ATTEMPT: no "
            "conformance fixture is rejected with this code at its stated instance path") in new


def _drop_marker(code: str):
    def change(schema):
        for d in schema["$defs"].values():
            if isinstance(d, dict) and "allOf" in d:
                d["allOf"] = [s for s in d["allOf"] if s.get("x-evalport-rule") != code]
                if not d["allOf"]:
                    del d["allOf"]
        return schema
    return change


def test_encoded_rule_removed_from_schema(repo: Path) -> None:
    before = lines(repo)
    _rewrite(repo / "spec/schemas/resultset.json", _drop_marker("NULL_SCORE_PASSED"))
    new = lines(repo) - before
    assert (f"spec/rules.json:{entry_line(repo, 'NULL_SCORE_PASSED')}: NULL_SCORE_PASSED: the "
            "catalogue says the schema encodes this rule but no subschema carries "
            '"x-evalport-rule": "NULL_SCORE_PASSED"') in new
    fixtures = only_code_fixtures(repo, "NULL_SCORE_PASSED")
    assert fixtures
    for p in fixtures:
        rel = p.relative_to(repo)
        assert (f"{rel}:{line_of(p, DOC_KEY)}: NULL_SCORE_PASSED: the catalogue says the "
                f"schema carries this rule, but the raw schema accepts rejecting fixture "
                f"'{p.stem}'") in new


def test_gap_claimed_but_schema_variant_encodes_it(repo: Path) -> None:
    before = lines(repo)
    (fixture,) = only_code_fixtures(repo, "SELF_PARENT")
    group_id = json.loads(fixture.read_text())["document"]["group"]["group_id"]

    def encode(schema):  # a variant that rejects this fixture: parent_group_id != its group_id
        schema["$defs"]["group"]["not"] = {"required": ["parent_group_id"],
                                           "properties": {"parent_group_id": {"const": group_id}}}
        return schema

    _rewrite(repo / "spec/schemas/resultset.json", encode)
    new = lines(repo) - before
    rel = fixture.relative_to(repo)
    assert (f"{rel}:{line_of(fixture, DOC_KEY)}: SELF_PARENT: the documented gap is "
            f"false: the raw schema rejects rejecting fixture '{fixture.stem}' at /group "
            "(keyword `not`)") in new


def test_spec_md_statement_removed(repo: Path) -> None:
    before = lines(repo)
    md = repo / "spec/SPEC.md"
    text = md.read_text()
    text2 = re.sub(r"(?ms)^### SELF_PARENT\n.*?(?=^## )", "", text)
    assert text2 != text
    md.write_text(text2)
    new = lines(repo) - before
    assert new == {f"spec/SPEC.md:{line_of(md, '## Cross-field rules')}: SELF_PARENT: SPEC.md "
                   "does not state this rule (no '### SELF_PARENT' under '## Cross-field rules')"}


def test_gap_paragraph_missing(repo: Path) -> None:
    before = lines(repo)
    md = repo / "spec/SPEC.md"
    text = md.read_text()
    head = text.index("### SELF_PARENT")
    mark = text.index("**Why JSON Schema does not carry it:**", head)
    md.write_text(text[:mark] + "Because." + text[mark + len("**Why JSON Schema does not carry it:**"):])
    new = lines(repo) - before
    assert new == {f"spec/SPEC.md:{line_of(md, '### SELF_PARENT')}: SELF_PARENT: SPEC.md states "
                   "the rule but does not document its gap (no paragraph starting '**Why JSON "
                   "Schema does not carry it:**')"}


def test_schema_property_spec_md_never_mentions(repo: Path) -> None:
    before = lines(repo)

    def add(schema):
        schema["$defs"]["result"]["properties"]["seed"] = {"type": "integer"}
        return schema

    path = repo / "spec/schemas/resultset.json"
    _rewrite(path, add)
    new = lines(repo) - before
    assert new == {f"spec/schemas/resultset.json:{line_of(path, SEED_KEY)}: "
                   "spec-field-undocumented: property `seed` of Result is not described in "
                   "SPEC.md (not in the Field column of the table under '### Result')"}


def test_spec_md_names_unknown_field_and_code(repo: Path) -> None:
    before = lines(repo)
    md = repo / "spec/SPEC.md"
    text = md.read_text()
    row = "| `isolation` | string | no | at least 1 character | — | 1.2.0 | How the repetitions"
    assert row in text
    text = text.replace(row, "| `bogus_field` | string | no | — | — | 1.4.0 | Nothing. |\n" + row, 1)
    text = text.replace("## Cross-field rules\n", "## Cross-field rules\n\nSee `NO_SUCH_CODE`.\n", 1)
    md.write_text(text)
    new = lines(repo) - before
    assert new == {
        f"spec/SPEC.md:{line_of(md, '`bogus_field`')}: spec-field-unknown: SPEC.md names field "
        "`bogus_field` of Result, which the schemas do not have",
        f"spec/SPEC.md:{line_of(md, 'NO_SUCH_CODE')}: NO_SUCH_CODE: SPEC.md names error code "
        "`NO_SUCH_CODE`, which neither the catalogue nor the schema pass has"}


def test_spec_md_names_unknown_enum_value(repo: Path) -> None:
    before = lines(repo)
    md = repo / "spec/SPEC.md"
    text = md.read_text()
    cell = '`"runner_error"` |'
    assert cell in text
    md.write_text(text.replace(cell, '`"runner_error"`, `"deadline"` |', 1))
    new = lines(repo) - before
    row = line_of(md, "deadline")
    assert new == {f"spec/SPEC.md:{row}: spec-value-unknown: SPEC.md "
                   'names value `"deadline"`, which no enum or const of the schemas has'}


def test_a_pattern_spec_sync_writes_into_a_field_row_is_a_known_value(repo: Path) -> None:
    """Red team, session 36: a pattern added to a documented property was written by ``spec
    sync`` into the row's constraints as `"^.{1,80}$"`, and the rules stage called it an unknown
    value (spec-value-unknown), so no table property could gain a pattern and pass the gate. A
    quoted value that no schema holds is still reported."""
    before = lines(repo)
    path = repo / "spec/schemas/grader.json"
    _rewrite(path, lambda s: s["properties"]["id"].update(pattern="^.{1,80}$") or s)
    md = repo / "spec/SPEC.md"
    row = "| `id` | string | yes | at least 1 character | — | 1.0.0 | Identifier of the grader"
    assert row in md.read_text()
    md.write_text(md.read_text().replace(row, row.replace("at least 1 character |",
                                                            'at least 1 character; pattern `"^.{1,80}$"` |'), 1))
    assert lines(repo) - before == set()
    md.write_text(md.read_text().replace('pattern `"^.{1,80}$"`', 'pattern `"^.{1,99}$"`', 1))
    assert lines(repo) - before == {f"spec/SPEC.md:{line_of(md, '1,99')}: spec-value-unknown: SPEC.md "
                                    'names value `"^.{1,99}$"`, which no enum or const of the schemas has'}


@pytest.mark.parametrize("old, new, kind, token", [
    # Result's prose names a member the schemas lack (the mutation sweep's `run_idx`)
    ("interrupted run keeps its `run_id`", "interrupted run keeps its `run_idx`", "spec-name-unknown", "`run_idx`"),
    # the Grader types table's description column
    ("passes when the output contains `substring` |", "passes when the output contains `substr` |",
     "spec-name-unknown", "`substr`"),
    # a conventional isolation value misspelt in prose
    ('the values `"fresh"`', 'the values `"freshly"`', "spec-value-unknown", '`"freshly"`'),
    # the Terminology section
    ("the Results of one run that share a `test_case_id`", "the Results of one run that share a `test_case_idx`", "spec-name-unknown", "`test_case_idx`"),
    # a dotted name whose second segment is no member
    ("MUST carry `params.handler`", "MUST carry `params.handlr`", "spec-name-unknown", "`params.handlr`"),
])
def test_prose_names_only_what_the_schemas_have(repo: Path, old: str, new: str, kind: str, token: str) -> None:
    """Session 37 mutation sweep of SPEC.md: before, only the Documents tables were read, and
    prose naming a member or value no schema has passed the gate."""
    md = repo / "spec/SPEC.md"
    before = lines(repo)
    assert md.read_text().count(old) == 1, old
    md.write_text(md.read_text().replace(old, new, 1))
    found = lines(repo) - before
    assert len(found) == 1, found
    (line,) = found
    assert line.startswith(f"spec/SPEC.md:{line_of(md, new)}: {kind}: SPEC.md names ") and token in line, line


def test_prose_may_name_keywords_and_schema_files_and_changelog_history(repo: Path) -> None:
    """JSON Schema keywords (`allOf`, `then`, `additionalProperties`) and schema files are names
    prose uses; the Changelog names members of history and is not read."""
    md = repo / "spec/SPEC.md"
    before = lines(repo)
    text = md.read_text().replace("## Cross-field rules\n", "## Cross-field rules\n\nSee `allOf`, `then`, "
                                  "`additionalProperties`, `unevaluatedItems` in `grader.json` and `rules.json`.\n", 1)
    text = text.replace("## Changelog\n", "## Changelog\n\nOnce there was `old_member`.\n", 1)
    md.write_text(text)
    assert lines(repo) == before


def test_allow_list_comment_silences_a_token(repo: Path) -> None:
    md = repo / "spec/SPEC.md"
    text = md.read_text().replace("## Cross-field rules\n",
                                  "## Cross-field rules\n\nSee `NO_SUCH_CODE`.\n", 1)
    md.write_text(text)
    assert any("NO_SUCH_CODE" in x for x in lines(repo))
    md.write_text(text + "\n<!-- rulecheck: allow `NO_SUCH_CODE` -->\n")
    assert not any("NO_SUCH_CODE" in x for x in lines(repo))


def test_expressible_not_encoded_is_a_warning_with_suggestion(repo: Path) -> None:
    _rewrite(repo / "spec/rules.json", lambda c: {"rules": [
        dict(r, expressible=True) if r["code"] == "SELF_PARENT" else r for r in c["rules"]]})
    found = [f for f in check_rules(SpecRepo(repo)) if f.kind == "rule-expressible-not-encoded"]
    assert [format_finding(f) for f in found] == [
        f"spec/rules.json:{entry_line(repo, 'SELF_PARENT')}: SELF_PARENT: expressible in JSON "
        "Schema 2020-12 but not encoded; suggestion: add a subschema with \"x-evalport-rule\": "
        "\"SELF_PARENT\" (e.g. if/then) and set encoded: true, so schema-only consumers enforce "
        "it too"]
    assert found[0].severity.name == "WARNING"


def test_duplicate_code_in_catalogue(repo: Path) -> None:
    before = lines(repo)
    _rewrite(repo / "spec/rules.json", lambda c: {"rules": c["rules"] + [
        next(r for r in c["rules"] if r["code"] == "SELF_PARENT")]})
    new = lines(repo) - before
    second = line_of(repo / "spec/rules.json", '"code": "SELF_PARENT"', nth=1) - 1
    assert (f"spec/rules.json:{second}: SELF_PARENT: code is catalogued twice (first entry at "
            f"line {entry_line(repo, 'SELF_PARENT')})") in new


def test_rfc_proposal_catalogue_covers_implemented_codes(repo: Path) -> None:
    rates = {"RATE_SCORE_MISMATCH", "SUCCESSES_EXCEED_TRIALS"}
    for p in (repo / "rfcs").glob("*/rules.json") if (repo / "rfcs").is_dir() else []:
        p.unlink()
    without = {f.code for f in check_rules(SpecRepo(repo)) if f.kind == "rule-not-catalogued"}
    assert without == rates
    folder = repo / "rfcs" / "0099-rates"
    folder.mkdir(parents=True)
    entry = {"document": "resultset", "statement": "s", "reads": ["/results"], "since": "1.5.0",
             "expressible": False, "encoded": False}
    (folder / "rules.json").write_text(json.dumps(
        {"rules": [dict(entry, code=c) for c in sorted(rates)]}))
    assert not [f for f in check_rules(SpecRepo(repo)) if f.kind == "rule-not-catalogued"]


def test_current_repository_rules_are_true(repo: Path) -> None:
    """Every catalogued rule of the draft passes checks 2-4 today (no rule-specific errors)."""
    findings = check_rules(SpecRepo(repo))
    catalogued = {r["code"] for r in json.loads((repo / "spec/rules.json").read_text())["rules"]}
    bad = [format_finding(f) for f in findings
           if f.code in catalogued and f.severity.name == "ERROR"]
    assert bad == []


def test_rules_list_and_page(repo: Path) -> None:
    text = rules_table(SpecRepo(repo))
    header = text.splitlines()[0].split()
    assert header[:5] == ["CODE", "STATUS", "DOCUMENT", "SINCE", "SCHEMA"]
    row = next(x for x in text.splitlines() if x.startswith("NULL_SCORE_PASSED "))
    assert "encoded in schema" in row and "schema" in row.split()
    data = json.loads(rules_table(SpecRepo(repo), "json"))
    sp = next(d for d in data if d["code"] == "SELF_PARENT")
    (fixture,) = only_code_fixtures(repo, "SELF_PARENT")
    assert sp["since"] == "1.3.0" and sp["claim"] == "not-expressible"
    assert sp["fixtures"]["rejecting"] == [{"id": fixture.stem, "agrees": True,
                                            "raw_schema_valid": True}]
    assert sp["implementation"]["function"] == "evalport_spec.validation.rules.resultset.SelfParent"
    page = rules_page(SpecRepo(repo))
    assert page == rules_table(SpecRepo(repo), "markdown")
    section = page[page.index("## SELF_PARENT"):]
    assert "- **Since:** 1.3.0 (RFC 0004)" in section
    assert "**Why JSON Schema does not carry it:** comparing two instance values" in section
    assert f"- `{fixture.stem}`: rejected at `/group/parent_group_id`" in section
    nsp = page[page.index("## NULL_SCORE_PASSED"):]
    assert nsp.split("\n## ")[0].count("**Carried by the schema:**") == 1


def test_spec_version_input_finds_rfcs_and_lists_proposals(repo: Path) -> None:
    draft = SpecRepo(repo).version("draft")
    assert {format_finding(f) for f in check_rules(draft)} == lines(repo)
    proposed = {c["code"] for p in (repo / "rfcs").glob("*/rules.json")
                for c in json.loads(p.read_text())["rules"]} if (repo / "rfcs").is_dir() else set()
    listed = {row.split()[0] for row in rules_table(draft).splitlines()[1:] if " proposed (RFC " in row}
    drafted = {r["code"] for r in json.loads((repo / "spec/rules.json").read_text())["rules"]}
    assert listed == proposed - drafted


def _row(text: str, code: str) -> list[str]:
    return re.split(r"\s{2,}", next(x for x in text.splitlines() if x.startswith(code + " ")))


def test_rfc_proposals_are_listed_as_proposed_not_released(repo: Path) -> None:
    """RFC 0005/0006 rules (rfcs/*/rules.json, ``since`` 1.4.0, status comment) are proposals:
    their own table, STATUS ``proposed (RFC 000N, STATUS)``, no SINCE; catalogued rules whose
    ``since`` is a release are ``released``; a catalogued rule of an unreleased version is ``draft``."""
    text = rules_table(SpecRepo(repo))
    lines_ = text.splitlines()
    split = lines_.index("")
    assert lines_[split + 1].startswith("Proposed by RFCs (not in the rule catalogue")
    main_codes = {x.split()[0] for x in lines_[1:split]}
    assert "SELF_PARENT" in main_codes and "CONSTRAINT_INVALIDATES_PASS" not in main_codes
    assert _row(text, "SELF_PARENT")[1:4] == ["released", "resultset", "1.3.0"]
    assert _row(text, "CONSTRAINT_INVALIDATES_PASS") == [
        "CONSTRAINT_INVALIDATES_PASS", "proposed (RFC 0005, comment)", "resultset", "-",
        "encoded in schema", "-", "1 reject, 3 accept", "-", "raw schema rejects 1/1 rejecting fixtures"]
    assert _row(text, "SUCCESSES_EXCEED_TRIALS")[1:4] == ["proposed (RFC 0006, comment)", "resultset", "-"]

    data = {d["code"]: d for d in json.loads(rules_table(SpecRepo(repo), "json"))}
    assert data["SELF_PARENT"]["status"] == "released" and data["SELF_PARENT"]["proposal"] is None
    cip = data["CONSTRAINT_INVALIDATES_PASS"]
    assert (cip["status"], cip["status_text"], cip["since"]) == ("proposed", "proposed (RFC 0005, comment)", None)
    assert cip["proposal"] == {"rfc": 5, "rfc_status": "comment", "target_version": "1.4.0"}

    page = rules_table(SpecRepo(repo), "markdown")
    assert "## CONSTRAINT_INVALIDATES_PASS" not in page  # no rule section as if catalogued
    tail = page[page.index("## Proposed by RFCs"):]
    assert ("| `RATE_SCORE_MISMATCH` | proposed (RFC 0006, comment) | resultset | When a GraderResult "
            "has trials, successes and a non-null score, abs(score - successes/trials) is at most the "
            "tolerance. |") in tail

    # the RFC's front matter decides the status shown; an unreleased catalogued rule is "draft"
    rfc6 = repo / "rfcs/0006-rate-denominators.md"
    rfc6.write_text(rfc6.read_text().replace("status: comment", "status: draft", 1))
    _rewrite(repo / "spec/rules.json", lambda d: {"rules": [
        dict(r, since="1.4.0") if r["code"] == "SELF_PARENT" else r for r in d["rules"]]})
    text = rules_table(SpecRepo(repo))
    assert _row(text, "RATE_SCORE_MISMATCH")[1] == "proposed (RFC 0006, draft)"
    assert _row(text, "SELF_PARENT")[1:4] == ["draft (unreleased)", "resultset", "1.4.0"]


def test_cli_exit_codes(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["-C", str(repo), "rules", "list"]) == 0
    (repo / "spec/SPEC.md").write_text(
        re.sub(r"(?ms)^### SELF_PARENT\n.*?(?=^## )", "", (repo / "spec/SPEC.md").read_text()))
    capsys.readouterr()
    assert main(["-C", str(repo), "rules", "check"]) == 1
    out = capsys.readouterr().out
    assert "SELF_PARENT: SPEC.md does not state this rule" in out
    (repo / "spec/rules.json").write_text('{"rules": [1]}')
    assert main(["-C", str(repo), "rules", "check"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "rules.json:1" in err[0] and "catalogue entry must be an object" in err[0]


def test_proposed_rules_count_their_proposals_own_fixtures(repo: Path) -> None:
    """A rule only an RFC proposes is evidenced by rfcs/NNNN-slug/fixtures/, run against the
    proposed version (draft + patch.json + rules.json). RFC 0006 has one fixture rejecting with
    only RATE_SCORE_MISMATCH (rates-score-mismatch) and one with only SUCCESSES_EXCEED_TRIALS;
    neither code has a schema keyword, so the raw schema accepts both (the gap holds). Its valid
    fixtures list the rules they are near neighbours of (4 for RATE_SCORE_MISMATCH, 3 for
    SUCCESSES_EXCEED_TRIALS, by their ``rules`` members)."""
    text = rules_table(SpecRepo(repo))
    assert _row(text, "RATE_SCORE_MISMATCH")[6:] == [
        "1 reject, 4 accept", "-", "raw schema accepts 1/1 rejecting fixtures (gap holds)"]
    data = {d["code"]: d for d in json.loads(rules_table(SpecRepo(repo), "json"))}
    assert data["SUCCESSES_EXCEED_TRIALS"]["fixtures"] == {
        "rejecting": [{"id": "rates-successes-exceed-trials", "agrees": True, "raw_schema_valid": True}],
        "accepting": [{"id": i, "agrees": True} for i in ("rates-all-trials-succeed", "rates-counts-agree",
                                                          "rates-trials-without-successes")]}
    # a valid proposal fixture counts as an accepting neighbour only while it names the rule in ``rules``
    fx = repo / "rfcs/0006-rate-denominators/fixtures/rates-within-tolerance.json"
    _rewrite(fx, lambda d: {k: v for k, v in d.items() if k != "rules"})
    data = {d["code"]: d for d in json.loads(rules_table(SpecRepo(repo), "json"))}
    assert [a["id"] for a in data["RATE_SCORE_MISMATCH"]["fixtures"]["accepting"]] == [
        "rates-all-trials-succeed", "rates-counts-agree", "rates-null-score-with-counts"]
    # the proposal's fixtures are not the draft's: without the proposal folder's fixtures, none
    shutil.rmtree(repo / "rfcs/0006-rate-denominators/fixtures")
    assert _row(rules_table(SpecRepo(repo)), "RATE_SCORE_MISMATCH")[6] == "0 reject, 0 accept"


def test_fixture_invalid_for_another_reason_is_reported_as_that_reason(repo: Path) -> None:
    """A required member added to ResultSet makes every ResultSet fixture invalid: the rules
    stage names that cause, and neither claims the documented gap is false nor that the rule
    lost its fixtures (issue 15, "Causes, not symptoms")."""
    def add_required(schema):
        schema["required"].append("producer")
        schema["properties"]["producer"] = {"type": "string"}
        return schema

    _rewrite(repo / "spec/schemas/resultset.json", add_required)
    found = check_rules(SpecRepo(repo), drift=False)
    dup = [f for f in found if f.code == "DUPLICATE_ATTEMPT"]
    assert {f.kind for f in dup} == {"rule-fixture-invalid-otherwise"}
    (fixture,) = [p for p in only_code_fixtures(repo, "DUPLICATE_ATTEMPT") if p.stem == "resultset-duplicate-attempt"]
    [msg] = [f.message for f in dup if f.where().file == str(fixture.relative_to(repo))]
    assert msg == ("DUPLICATE_ATTEMPT: rejecting fixture 'resultset-duplicate-attempt' became invalid for "
                   "another reason: REQUIRED at /producer (schema) (besides the expected DUPLICATE_ATTEMPT "
                   "at /results/1/attempt)")
    assert not [f for f in found if f.kind in ("rule-gap-false", "rule-encoding-false",
                                               "rule-no-rejecting-fixture", "rule-no-accepted-neighbour")]
