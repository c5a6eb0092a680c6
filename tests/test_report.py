"""The one reporter layer: a MAJOR and a MINOR pull request, built from findings shaped as the
gate reports them, rendered in every format; order, de-duplication, the annotation cap, the job
summary, the additive lines, and SARIF / report JSON validity (the schemas as oracles)."""

from __future__ import annotations

import io
import json
import xml.etree.ElementTree as ET
from importlib.resources import files
from pathlib import Path

import jsonschema
import pytest
from referencing import Registry, Resource

from evalport_spec.findings import ChangeClass, Finding, Location, Severity
from evalport_spec.report import FORMATS, Check, Report, emit, render, use_color
from evalport_spec.report.arrange import arrange
from evalport_spec.report.changelog import change_line, field_path
from evalport_spec.report.escape import gh_data, gh_property, md_cell, md_code, text, xml_text

RS = "spec/schemas/resultset.json"
SARIF_SCHEMA = json.loads((Path(__file__).parent / "data" / "sarif-schema-2.1.0.json").read_text())


def _major(stage_label: str) -> list[Finding]:
    """The breaking change as one classifying stage reports it (re-graded by the policy) and
    the policy's decision on it."""
    f = Finding("enum-value-removed", "value 'runner_error' is in the old enum/const and not in the new one",
                ChangeClass.MAJOR, old=Location(f"{stage_label}:{RS}", "/$defs/error/properties/type/enum", 272),
                new=Location(RS, "/$defs/error/properties/type/enum", 272), witness={"error": {"type": "runner_error"}},
                item="runner_error", extra={"instance_path": ["results", 0, "error", "type"], "file": "resultset.json"})
    d = Finding("policy-major-needs-rfc", f"policy: MAJOR enum-value-removed {stage_label} is not named by "
                "any accepted RFC declaring MAJOR", new=f.new, extra={"finding": f.fingerprint})
    return [f, d]


def _added(name: str, line: int) -> Finding:
    return Finding("property-added-to-closed-object",
                   f"property '{name}' is accepted by the new schema and forbidden by the old schema",
                   ChangeClass.MINOR, severity=Severity.INFO, direction="forward",
                   new=Location(RS, f"/$defs/runner/properties/{name}", line),
                   extra={"instance_path": ["runner", name], "file": "resultset.json"})


def _fixture(i: int) -> Finding:
    return Finding("conformance-disagreement", f"fx-{i} [full]: expected valid; got invalid with REQUIRED /producer",
                   new=Location(f"spec/conformance/fixtures/fx-{i}.json", "/expect/full"))


def gate_like(stages: dict[str, list[Finding]]) -> Report:
    """A report as gate/output.py builds it: the findings of each stage, in run order."""
    pairs = [(f, s) for s, fs in stages.items() for f in fs]
    return Report(command="check", title="EvalPort spec gate: failed", summary={"change class against main": "MAJOR"},
                  entries=arrange(pairs), checks=[Check(s, "fail", 0.5, "") for s in stages],
                  verdict="gate: FAILED")


@pytest.fixture
def major_pr() -> Report:
    rules = Finding("spec-value-unknown", 'SPEC.md names value `"runner_error"`, which no enum or const has',
                    new=Location("spec/SPEC.md", None, 191))
    rfc = Finding("rfc-period-closed-undecided", "comment period closed", severity=Severity.WARNING,
                  new=Location("rfcs/0006-rate-denominators.md", None, 4))
    return gate_like({"conformance": [_fixture(i) for i in range(12)], "rules": [rules],
                      "draft": [*_major("since 1.3.0"), _added("url", 401)],
                      "base": [*_major("against main"), _added("url", 401)], "rfcs": [rfc]})


@pytest.fixture
def minor_pr() -> Report:
    warn = Finding("change-without-rfc", "the draft is MINOR since 1.3.0 but no RFC is tied to the change",
                   severity=Severity.WARNING, new=Location("spec/schemas"))
    return gate_like({"draft": [_added("url", 401), warn], "base": [_added("url", 401)]})


# --- order and de-duplication ----------------------------------------------------------------

def test_major_pr_order_and_dedup(major_pr: Report) -> None:
    kinds = [e.finding.kind for e in major_pr.entries]
    # compatibility first (MAJOR, then MINOR), then rules, conformance, RFCs; each finding once
    assert kinds == ["enum-value-removed", "property-added-to-closed-object", "spec-value-unknown",
                     *["conformance-disagreement"] * 12, "rfc-period-closed-undecided"]
    top = major_pr.entries[0]
    assert top.stages == ["draft", "base"]
    assert [d.kind for d in top.decisions] == ["policy-major-needs-rfc"]  # one decision, deduplicated too
    assert major_pr.entries[1].stages == ["draft", "base"]


def test_class_order_inside_compatibility() -> None:
    und = Finding("undecided", "could not decide", ChangeClass.MAJOR, undecided=True, new=Location("a.json", "/x", 2))
    patch = Finding("annotation-changed", "title changed", ChangeClass.PATCH, new=Location("a.json", "/t", 1))
    major = Finding("type-narrowed", "integer", ChangeClass.MAJOR, new=Location("a.json", "/y", 3))
    minor = Finding("max-length-increased", "5 -> 9", ChangeClass.MINOR, new=Location("a.json", "/z", 4))
    other = Finding("rfc-x", "an RFC finding")
    got = [e.finding.kind for e in arrange((f, None) for f in (other, patch, minor, und, major))]
    assert got == ["type-narrowed", "undecided", "max-length-increased", "annotation-changed", "rfc-x"]


def test_two_distinct_findings_sharing_a_fingerprint_in_one_stage_stay_two() -> None:
    a = Finding("document-invalid", "(root): 'a' is missing", code="REQUIRED", new=Location("x.json", "", 1))
    b = Finding("document-invalid", "(root): 'b' is missing", code="REQUIRED", new=Location("x.json", "", 1))
    assert a.fingerprint == b.fingerprint
    assert [e.finding.message for e in arrange([(a, "examples"), (b, "examples")])] == [a.message, b.message]
    # ... while the same pair reported by a second stage is merged pairwise
    merged = arrange([(a, "s1"), (b, "s1"), (a, "s2"), (b, "s2")])
    assert [e.stages for e in merged] == [["s1", "s2"], ["s1", "s2"]]


# --- every format -------------------------------------------------------------------------------

def test_major_pr_first_line_is_the_breaking_finding(major_pr: Report) -> None:
    md = render(major_pr, "markdown")  # the item once: the sentence gives it (`what(f, said)`)
    assert md.splitlines()[0] == ('## MAJOR `enum-value-removed`: Removed enum value '
                                  '"runner_error" from `results[].error.type` in ResultSet')
    gh = render(major_pr, "github").splitlines()
    assert gh[0].startswith(f"::error file={RS},line=272,title=MAJOR enum-value-removed \"runner_error\" "
                            "(draft%2C base)::Removed enum value")
    text_out = render(major_pr, "text", color=False).splitlines()
    first_entry = next(ln for ln in text_out if ln.startswith(RS))
    assert first_entry.startswith(f"{RS}:272: MAJOR enum-value-removed: Removed enum value \"runner_error\"")
    assert first_entry.endswith("[draft, base]")
    assert "    error: policy: MAJOR enum-value-removed since 1.3.0 is not named" in render(major_pr, "text")


def test_github_annotations_are_capped_most_severe_first(major_pr: Report) -> None:
    lines = render(major_pr, "github").splitlines()
    annotations, notice = lines[:-1], lines[-1]
    assert len(annotations) == 10
    assert [ln.split(" ", 1)[0] for ln in annotations] == ["::error"] * 10
    assert sum("enum-value-removed" in ln for ln in lines) == 1  # once, not once per stage
    # 16 entries: 10 errors annotated; 4 errors, 1 warning and the MINOR notice left out
    assert notice == ("::notice title=evalport-spec check::gate: FAILED; 6 more findings not annotated "
                      "(the 10 most severe are); `--format markdown` writes the full report")


def test_github_writes_the_full_markdown_to_the_step_summary(major_pr: Report, tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    summary = tmp_path / "summary.md"
    summary.write_text("earlier step\n")
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    out = io.StringIO()
    emit(major_pr, "github", stream=out)
    assert summary.read_text() == "earlier step\n" + render(major_pr, "markdown")  # appended, whole
    assert out.getvalue().splitlines()[-1].endswith("the job summary has the full report")


def test_step_summary_that_cannot_be_written_is_one_warning(major_pr: Report, tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(tmp_path / "missing-dir" / "s.md"))
    emit(major_pr, "github", stream=io.StringIO())
    [line] = capsys.readouterr().err.splitlines()
    assert line.startswith("evalport-spec: warning: cannot write the job summary ")


def test_markdown_folds_long_sections_but_never_compatibility(major_pr: Report) -> None:
    md = render(major_pr, "markdown")
    conf = md[md.index("### Conformance (12)"):md.index("### RFCs")]
    assert "<details><summary>12 conformance findings</summary>" in conf and conf.count("| error |") == 12
    compat = md[md.index("### Compatibility (2)"):md.index("### Rules")]
    assert "<summary>2 compatibility" not in compat
    assert "<details><summary>Witness for <code>enum-value-removed</code>" in compat
    assert md.index("### Compatibility") < md.index("### Rules") < md.index("### Conformance") < md.index("### RFCs")


@pytest.mark.parametrize("fmt", FORMATS)
def test_minor_pr_lists_the_additive_change_in_every_format(minor_pr: Report, fmt: str) -> None:
    out = render(minor_pr, fmt, color=False)
    if fmt == "json":
        [added] = [f for f in json.loads(out)["findings"] if f["kind"] == "property-added-to-closed-object"]
        assert added["change"] == "Added optional `runner.url` to ResultSet"
        assert added["stages"] == ["draft", "base"] and added["new"]["line"] == 401
    elif fmt == "sarif":
        [res] = [r for r in json.loads(out)["runs"][0]["results"] if r["ruleId"].startswith("property-")]
        assert res["level"] == "note" and res["message"]["text"].startswith("Added optional `runner.url` to ResultSet")
        assert res["locations"][0]["physicalLocation"]["region"] == {"startLine": 401}
    elif fmt == "github":
        assert (f"::notice file={RS},line=401,title=MINOR property-added-to-closed-object (draft%2C base)::"
                "Added optional `runner.url` to ResultSet%0A") in out
    else:
        assert out.count("Added optional `runner.url` to ResultSet") == 1


def test_minor_pr_markdown_and_text(minor_pr: Report) -> None:
    md = render(minor_pr, "markdown")
    assert md.startswith("## EvalPort spec gate: failed\n")  # no breaking finding to lead with
    assert ("| MINOR | `property-added-to-closed-object`: Added optional `runner.url` to ResultSet<br>"
            "property 'url' is accepted by the new schema and forbidden by the old schema | "
            f"`{RS}:401` | draft, base |") in md
    assert (f"{RS}:401: MINOR property-added-to-closed-object: Added optional `runner.url` to ResultSet "
            "[draft, base]") in render(minor_pr, "text", color=False)


def test_junit_fails_errors_and_lists_the_rest(major_pr: Report, minor_pr: Report) -> None:
    suite = ET.fromstring(render(major_pr, "junit")).find("testsuite")
    assert (suite.get("tests"), suite.get("failures")) == ("16", "14")
    first = suite.find("testcase")
    assert first.get("classname") == "evalport-spec.check.compatibility"
    assert first.find("failure").get("type") == "enum-value-removed"
    minor = ET.fromstring(render(minor_pr, "junit")).find("testsuite")
    assert minor.get("failures") == "0"
    outs = [c.find("system-out").text for c in minor.findall("testcase")]
    assert any("Added optional `runner.url` to ResultSet" in o for o in outs)


@pytest.mark.parametrize("which", ["major", "minor"])
def test_sarif_is_valid_sarif_2_1_0(which: str, major_pr: Report, minor_pr: Report) -> None:
    log = json.loads(render(major_pr if which == "major" else minor_pr, "sarif"))
    jsonschema.validators.validator_for(SARIF_SCHEMA)(SARIF_SCHEMA).validate(log)
    results = log["runs"][0]["results"]
    rules = [r["id"] for r in log["runs"][0]["tool"]["driver"]["rules"]]
    assert all(rules[r["ruleIndex"]] == r["ruleId"] for r in results)
    if which == "major":
        assert results[0]["level"] == "error" and results[0]["properties"]["stages"] == ["draft", "base"]
        assert results[0]["partialFingerprints"]["evalportFingerprint/v1"] == major_pr.entries[0].finding.fingerprint
        assert "locations" in results[2] and results[2]["locations"][0]["physicalLocation"]["artifactLocation"] == {
            "uri": "spec/SPEC.md", "uriBaseId": "%SRCROOT%"}


def test_sarif_locations_are_uris_and_git_revisions_are_not_files() -> None:
    f = Finding("x-y", "m", new=Location("dir with space/a#b.json", None, 3))
    g = Finding("x-y", "m", new=Location("main:spec/schemas/a.json", None, 3))
    log = json.loads(render([f, g], "sarif"))
    jsonschema.validators.validator_for(SARIF_SCHEMA)(SARIF_SCHEMA).validate(log)
    first, second = log["runs"][0]["results"]
    assert first["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "dir%20with%20space/a%23b.json"
    assert "locations" not in second and "main:spec/schemas/a.json:3" not in second["message"]["text"]


def _report_validator():
    data = files("evalport_spec").joinpath("data")
    schemas = [json.loads(data.joinpath(n).read_text()) for n in ("report.schema.json", "diff-report.schema.json")]
    registry = Registry().with_resources((s["$id"], Resource.from_contents(s)) for s in schemas)
    return jsonschema.Draft202012Validator(schemas[0], registry=registry)


@pytest.mark.parametrize("which", ["major", "minor"])
def test_json_is_valid_against_the_report_schema(which: str, major_pr: Report, minor_pr: Report) -> None:
    rep = major_pr if which == "major" else minor_pr
    rep.data = {"ok": False, "base": "main", "change_class": "MAJOR", "stages": []}
    data = json.loads(render(rep, "json"))
    _report_validator().validate(data)
    fps = [f["fingerprint"] for f in data["findings"]]
    assert len(fps) == len(set(fps))
    if which == "major":
        assert [f["kind"] for f in data["findings"][:2]] == ["enum-value-removed", "policy-major-needs-rfc"]


def test_plain_findings_json_has_command_title_summary() -> None:
    data = json.loads(render([Finding("rfc-x", "m", severity=Severity.WARNING)], "json"))
    _report_validator().validate(data)
    assert data["findings"][0]["section"] == "rfcs" and "stages" not in data["findings"][0]


# --- the one escaper per format, the one colour rule -----------------------------------------

def test_markdown_escaping_keeps_tables_whole() -> None:
    assert md_cell("a | b\nc") == "a \\| b<br>c"
    assert md_cell("`x|y` <script> 1 <= 2") == "`x\\|y` &lt;script> 1 <= 2"
    assert md_code("a`b") == "``a`b``" and md_code("`x`") == "`` `x` ``" and md_code("") == "` `"
    rep = Report.of([Finding("x-y", "pipe | in\nmessage", new=Location("a|b.json", None, 1))])
    row = next(ln for ln in render(rep, "markdown").splitlines() if ln.startswith("| error"))
    assert row == "| error | `x-y`: pipe \\| in<br>message | `a\\|b.json:1` |"


def test_github_and_text_and_xml_escaping() -> None:
    assert gh_data("50%\r\nx") == "50%25%0D%0Ax"
    assert gh_property("a:b,c%") == "a%3Ab%2Cc%25"
    assert text("key\x1b[31m\x07") == "key\\x1b[31m\\x07"
    assert xml_text("a\x00b\tc") == "a\\x00b\tc"
    f = Finding("x-y", "line1\nline2 \x1b[2J", new=Location("a,b:c.json", None, 2))
    assert render([f], "github") == "::error title=error x-y::line1%0Aline2 \x1b[2J%0Aat a,b:c.json:2\n"
    assert "\x1b" not in render([f], "text", color=False)
    ET.fromstring(render([Finding("x-y", "nul \x00 here")], "junit"))  # still well-formed XML


def test_colour_only_on_a_terminal_without_no_color(monkeypatch: pytest.MonkeyPatch) -> None:
    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True
    monkeypatch.delenv("NO_COLOR", raising=False)
    assert use_color(Tty()) and not use_color(io.StringIO())
    monkeypatch.setenv("NO_COLOR", "1")
    assert not use_color(Tty())
    f = Finding("enum-value-removed", "m", ChangeClass.MAJOR)
    assert "\x1b[31mMAJOR\x1b[0m" in render([f], "text", color=True)
    assert "\x1b" not in render([f], "text", color=False)


# --- the changelog sentence ----------------------------------------------------------------------

def test_change_lines() -> None:
    assert field_path(["results", 0, "error", "type"]) == "results[].error.type"
    req = Finding("required-added", "m", ChangeClass.MAJOR, item="producer", new=Location(RS, "/required", 13),
                  extra={"instance_path": [], "file": "resultset.json"})
    prop = Finding("property-added-to-closed-object", "m", ChangeClass.MINOR, direction="forward",
                   new=Location(RS, "/properties/producer", 90), extra={"instance_path": ["producer"]})
    assert change_line(req) == "Made `producer` required in ResultSet"
    assert change_line(prop, [req, prop]) == "Added required `producer` to ResultSet"
    assert change_line(prop) == "Added optional `producer` to ResultSet"
    ml = Finding("max-length-increased", "m", ChangeClass.MINOR, new=Location("spec/schemas/suite.json", "/properties/id/maxLength", 9),
                 extra={"instance_path": ["id"]})
    assert change_line(ml) == "Increased max length of `id` in Suite"
    assert change_line(Finding("rule-x", "m")) is None  # not a change
    assert change_line(Finding("undecided", "m", ChangeClass.MAJOR, undecided=True)) is None


def test_renderers_are_generic_over_item_and_extra() -> None:
    f = Finding("acceptance-missing", "not accepted", item={"a": [1, 2]}, extra={"rfc": None, "nested": {"x": 1}})
    for fmt in FORMATS:
        out = render([f], fmt, color=False)
        assert "acceptance-missing" in out
    assert 'acceptance-missing {"a":[1,2]}: not accepted' in render([f], "text", color=False)


# --- progress ----------------------------------------------------------------------------------

def test_progress_is_silent_off_a_terminal_and_shown_on_one(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    from evalport_spec.report import progress

    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True
    monkeypatch.setattr(progress, "MIN_SECONDS", 0)
    for stream, env, shown in ((io.StringIO(), None, False), (Tty(), None, True), (Tty(), "0", False)):
        monkeypatch.setattr(sys, "stderr", stream)
        if env is None:
            monkeypatch.delenv("EVALPORT_PROGRESS", raising=False)
        else:
            monkeypatch.setenv("EVALPORT_PROGRESS", env)
        assert list(progress.track(range(3), "validating", unit="file")) == [0, 1, 2]
        with progress.task("comparing", total=2) as step:
            step(note="a.json")
            step()
        assert ("validating" in stream.getvalue()) is shown, stream.getvalue()


# --- input errors in a machine format ------------------------------------------------------------

BAD_JSON = '{"type": "object",\n  "properties": {"a": ]}\n'  # line 2 column 23 (the "]"): a value expected


@pytest.mark.parametrize("command", ["diff", "conformance", "check", "rules check", "rfc lint",
                                     "rfc index --check", "rfc check"])
def test_an_input_error_in_a_machine_format_is_a_report_of_that_error(
        command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from evalport_spec.cli import main

    root = str(Path(__file__).resolve().parents[1])
    bad = tmp_path / "old.json"
    bad.write_text(BAD_JSON)
    rfcs = tmp_path / "rfcs-only"
    (rfcs / "rfcs").mkdir(parents=True)  # front matter whose YAML flow list never closes: 3:1
    (rfcs / "rfcs" / "0001-bad.md").write_text("---\ntitle: [oops\n---\n# RFC 0001: x\n")
    empty = tmp_path / "empty"  # no spec/schemas here or above
    empty.mkdir()
    args, file, line, column = {
        "diff": (["diff", str(bad), "draft"], str(bad), 2, 23),
        "conformance": (["conformance", "--fixtures", str(tmp_path / "none")], str(tmp_path / "none"), None, None),
        "check": (["check", "--base", "no-such-ref-anywhere"], None, None, None),
        "rules check": (["rules", "check", "-C", str(empty)], str(empty), None, None),
        "rfc lint": (["rfc", "lint", "--rfcs-only", "-C", str(rfcs)], "rfcs/0001-bad.md", 3, 1),
        "rfc index --check": (["rfc", "index", "--check", "--rfcs-only", "-C", str(rfcs)],
                              "rfcs/0001-bad.md", 3, 1),
        "rfc check": (["rfc", "check", "9999"], f"{root}/rfcs", None, None)}[command]
    for fmt in FORMATS:
        assert main(["-C", root, *args, "--format", fmt]) == 2
        out, err = capsys.readouterr()
        assert len(err.splitlines()) == 1 and err.startswith("evalport-spec: error: "), err
        if fmt == "text":
            assert out == ""  # the line on standard error is the whole answer
            continue
        assert out.strip(), fmt
        if fmt == "json":
            data = json.loads(out)
            _report_validator().validate(data)
            [f] = data["findings"]
            assert (data["command"], f["kind"], f["severity"]) == (command, "input-error", "error")
            assert (f["new"]["file"], f["new"]["line"], f.get("extra", {}).get("column")) == (file, line, column)
            assert f["message"] in err
        elif fmt == "sarif":
            [result] = json.loads(out)["runs"][0]["results"]
            assert result["ruleId"] == "input-error" and result["level"] == "error"
        elif fmt == "junit":
            assert ET.fromstring(out).find(".//failure").get("type") == "input-error"


def test_text_says_when_a_finding_is_unverified_or_its_witness_holds_in_one_reading():
    """A forward finding no document shows (``extra.proof == "unverified"``) and a witness that
    only the ECMA-262 reading of ``pattern`` confirms each get a line of their own under the
    finding: the text output hides neither."""
    from evalport_spec.report.arrange import Entry
    from evalport_spec.report.text import entry_lines

    new = Location("n/s.json", "/pattern", 1)
    unverified = Finding("enum-removed", "an enum/const in the old schema restricts string values the new "
                         "schema accepts", ChangeClass.MINOR, direction="forward", new=new,
                         extra={"instance_path": [], "file": "s.json", "proof": "unverified"})
    lines = entry_lines(Entry(unverified))
    assert "    proof: unverified (no document shows it; kept, fail closed)" in lines
    ecma = Finding("pattern-added", "a pattern was added", ChangeClass.MAJOR, new=new, witness="\n",
                   extra={"instance_path": [], "file": "s.json", "witness_reading": "ecma-262"})
    lines = entry_lines(Entry(ecma))
    assert lines[-2:] == ['    witness: "\\n"', "    witness holds in the ECMA-262 reading of 'pattern' only: "
                          "plain python-jsonschema (Python re) judges it otherwise"]
    plain = Finding("pattern-added", "a pattern was added", ChangeClass.MAJOR, new=new, witness="\na",
                    extra={"instance_path": [], "file": "s.json"})
    assert not any("reading" in x or "unverified" in x for x in entry_lines(Entry(plain)))
