"""SPEC.md as one source of truth (issue 13): the Markdown reader, the changelog, generated
regions (``spec sync``), rule parameters in prose and the normative change record.

Every edit of the issue's "Why" is made in a scratch copy of the repository; the expected lines
name the values worked out by hand from the schemas, ``rules.json`` and ``spec/VERSION``."""

from __future__ import annotations

import json
from pathlib import Path

import jsonpatch
import pytest

from evalport_spec import changelog, markdown
from evalport_spec.cli import main
from evalport_spec.errors import InputError
from evalport_spec.findings import ChangeClass, Severity
from evalport_spec.gate import run_gate
from evalport_spec.gate.spectext import check_spec_text
from evalport_spec.rfc import load_rfcs
from evalport_spec.spec import SpecRepo
from evalport_spec.specsync import check_draft, sync_draft
from evalport_spec.specsync.record import change_id, record
from evalport_spec.specsync.regions import find
from gate_repo import commit_all, git, make_repo


def finding_line(f) -> str:
    """``file:line: message`` of a finding (the engine's own words, whatever the format)."""
    return f"{f.new.file}:{f.new.line}: {f.message}"

# -- the Markdown reader --------------------------------------------------------------------

DOC = """# Title

Intro with `code` and **bold**.

## A

```
## not a heading
```

| x | y |
| --- | --- |
| `a\\|b` | 2 |

Setext
------

<!-- a comment -->
"""


def test_markdown_headings_sections_tables_and_fences() -> None:
    doc = markdown.parse(DOC)
    assert [(h.level, h.text, h.line, h.end) for h in doc.headings] == [
        (1, "Title", 1, 19), (2, "A", 5, 14), (2, "Setext", 15, 19)]
    assert doc.code_lines == frozenset({7, 8, 9})
    (table,) = doc.tables
    assert (table.header, table.line, table.end) == (("x", "y"), 11, 13)
    assert [(r.cells, r.line) for r in table.rows] == [(("`a|b`", "2"), 13)]
    assert [(p.line, p.source) for p in doc.paragraphs] == [(3, "Intro with `code` and **bold**.")]
    assert [(b.line, b.content.strip()) for b in doc.html_blocks] == [(18, "<!-- a comment -->")]
    assert markdown.plain("Intro with `code` and **bold**.") == "Intro with code and bold."
    assert markdown.code_spans("a `x` b ``y`z`` c") == ["x", "y`z"]



def test_markdown_heading_text_uses_the_documents_link_definitions_and_escapes() -> None:
    # headings are parsed inline on their own (the block pass leaves inline content raw), with
    # the reference definitions of the whole text: [link][ref] and [ref] are links, so their
    # text stays and the syntax goes; \* is a literal star; table cells keep their raw source
    doc = markdown.parse("[ref]: http://example.com\n\n# A [link][ref] and \\*stars\\* `code` **b**\n\n"
                         "Setext [ref] [nodef]\n---\n\n| a | b |\n|---|---|\n| [ref] | *c* |\n")
    assert [(h.level, h.text, h.line) for h in doc.headings] == [
        (1, "A link and *stars* code b", 3), (2, "Setext ref [nodef]", 5)]
    assert [r.cells for r in doc.tables[0].rows] == [("[ref]", "*c*")]

CHANGELOG = """# S

## Changelog

### 1.4.0 — unreleased

- Editorial: moved (`spec:0123abcd`).

### 1.3.0 — 2026-10-19 — MINOR

- RFC 0004.

<!-- end of specification -->
"""


def test_changelog_entries_pending_and_insert() -> None:
    (entry,) = changelog.entries(CHANGELOG)
    assert (entry.version, entry.date, entry.change_class, entry.line, entry.end) == (
        "1.3.0", "2026-10-19", "MINOR", 9, 11)
    assert entry.body == "- RFC 0004." and entry.rfcs() == {4}
    pending = changelog.pending(CHANGELOG)
    assert (pending.version, pending.line, pending.end, pending.body) == (
        "1.4.0", 5, 7, "- Editorial: moved (`spec:0123abcd`).")
    out = changelog.insert(CHANGELOG, "### 1.4.0 — 2026-12-20 — PATCH\n\n- x\n")
    assert out == CHANGELOG.replace("### 1.4.0 — unreleased\n\n- Editorial: moved (`spec:0123abcd`).",
                                    "### 1.4.0 — 2026-12-20 — PATCH\n\n- x")
    with pytest.raises(InputError, match="no '## Changelog' section"):
        changelog.insert("# S\n", "### x")


def test_a_pending_entry_is_allowed_first_in_the_draft_only() -> None:
    text = ("## Status\n\n## Terminology\n\n## Documents\n\n## Grader types\n\n## Validation\n\n"
            "## Cross-field rules\n\n## Versioning and compatibility\n\n## Extension mechanism\n\n"
            "## Conformance\n\n## Governance\n\n" + CHANGELOG.split("\n", 2)[2])
    assert check_spec_text(text, "spec/SPEC.md", draft=True) == []
    (f,) = check_spec_text(text, "spec/releases/1.3.0/SPEC.md")
    assert (f.kind, f.new.line) == ("changelog-heading-malformed", 23)


# -- regions --------------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "message"), [
    ("<!-- evalport:generated a -->\n\n<!-- evalport:generated b -->\n",
     "x.md:3: generated region 'b' starts inside region 'a' (line 1), which has no end marker yet"),
    ("<!-- /evalport:generated -->\n", "x.md:1: '<!-- /evalport:generated -->' without a start marker"),
    ("text\n\n<!-- evalport:generated a -->\n", "x.md:3: generated region 'a' has no end marker "
                                                 "'<!-- /evalport:generated -->'"),
    ("<!-- evalport:generated a -->\n<!-- /evalport:generated -->\n<!-- evalport:generated a -->\n"
     "<!-- /evalport:generated -->\n", "x.md:3: generated region 'a' appears twice (first at line 1)"),
    ("text\n\n<!-- evalport:generated a\n\nmore text\n<!-- /evalport:generated -->\n",
     "x.md:3: malformed generated-region marker '<!-- evalport:generated a': a marker is one line, "
     "'<!-- evalport:generated ID -->' or '<!-- /evalport:generated -->'"),
])
def test_malformed_markers_are_one_line_errors(text: str, message: str) -> None:
    with pytest.raises(InputError) as exc:
        find(text, "x.md")
    assert str(exc.value) == message


def test_markers_inside_code_are_not_markers() -> None:
    assert find("```\n<!-- evalport:generated a -->\n```\n", "x.md") == []


def test_the_repository_draft_is_in_sync_and_on_record() -> None:
    repo = SpecRepo(Path(__file__).resolve().parents[1])
    result = check_draft(repo)
    assert result.findings == [] and not result.stale
    rec = record(repo, load_rfcs(repo))
    assert rec.since == "1.3.0" and all(c.covered for c in rec.changes)


# -- the edits of the issue, each in a scratch copy -----------------------------------------

@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return make_repo(tmp_path)


def kind_lines(root: Path, kind: str) -> list[str]:
    """``file:line: message`` of the draft check's findings of ``kind``, in order."""
    return [finding_line(f) for f in check_draft(SpecRepo(root)).findings if f.kind == kind]


def edit(path: Path, old: str, new: str) -> int:
    """Replace the one occurrence of ``old``; returns the 1-based line it starts on."""
    text = path.read_text()
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new))
    return text[:text.index(old)].count("\n") + 1


def stale_lines(root: Path) -> list[str]:
    stage = run_gate(root, stages=["spec-text"]).stage("spec-text")
    return [finding_line(f) for f in stage.findings if f.kind.startswith("spec-region") or
            f.kind == "rule-parameter-in-prose"]


def apply_rfc_0006(root: Path) -> None:
    """Apply RFC 0006's proposal to the scratch draft's files (its JSON Patch and rules)."""
    pdir = root / "rfcs/0006-rate-denominators"
    for name, ops in json.loads((pdir / "patch.json").read_text()).items():
        p = root / "spec/schemas" / name
        p.write_text(json.dumps(jsonpatch.apply_patch(json.loads(p.read_text()), ops), indent=2) + "\n")
    cat = json.loads((root / "spec/rules.json").read_text())
    cat["rules"] += json.loads((pdir / "rules.json").read_text())["rules"]
    (root / "spec/rules.json").write_text(json.dumps(cat, indent=2) + "\n")


def test_field_row_edit_fails_with_the_schemas_values_and_sync_fixes_it(repo: Path, capsys) -> None:
    md = repo / "spec/SPEC.md"
    line = edit(md, "| `attempt` | integer | no |", "| `attempt` | string | yes |")
    origin = "spec/schemas/resultset.json#/$defs/result/properties/attempt"
    assert stale_lines(repo) == [
        f"spec/SPEC.md:{line}: generated region 'fields resultset.Result' is stale: `attempt` Type "
        f'reads "string"; expected "integer" from the schema ({origin})',
        f"spec/SPEC.md:{line}: generated region 'fields resultset.Result' is stale: `attempt` "
        f'Required reads "yes"; expected "no" from the schema ({origin})']
    stage = run_gate(repo, stages=["spec-text"]).stage("spec-text")
    assert stage.summary.endswith(", all on record; 2 disagreement(s) with the schemas or the rule catalogue")
    assert main(["-C", str(repo), "spec", "sync", "--check"]) == 1
    out = capsys.readouterr().out
    assert "-| `attempt` | string | yes | ≥ 1 |" in out and "+| `attempt` | integer | no | ≥ 1 |" in out
    assert out.endswith("spec/SPEC.md: 1 generated region(s) stale; `evalport-spec spec sync` rewrites them\n")
    assert main(["-C", str(repo), "spec", "sync"]) == 0
    assert capsys.readouterr().out == ("spec/SPEC.md: rewrote 1 generated region(s): "
                                       "fields resultset.Result\n")
    assert stale_lines(repo) == []
    assert run_gate(repo, stages=["spec-text"]).stage("spec-text").status == "ok"


def test_status_line_left_at_another_version_fails(repo: Path) -> None:
    (repo / "spec/VERSION").write_text("2.0.0\n")
    line = (repo / "spec/SPEC.md").read_text().split("\n").index(
        "**Status:** working draft of EvalPort 1.4.0, not yet released. It changes only through "
        "accepted RFCs; the latest release is 1.3.0.") + 1
    assert stale_lines(repo) == [
        f"spec/SPEC.md:{line}: generated region 'status' is stale: Status reads \"…of EvalPort 1.4.0, "
        "not yet…\"; expected \"…of EvalPort 2.0.0, not yet…\" from spec/VERSION and the latest release "
        "(spec/VERSION, spec/releases/1.3.0)"]
    stage = run_gate(repo, stages=["spec-text"]).stage("spec-text")
    pending = [f for f in stage.findings if f.kind == "changelog-pending-version"]
    assert [finding_line(f) for f in pending] == [
        f"spec/SPEC.md:{(repo / 'spec/SPEC.md').read_text().split(chr(10)).index('### 1.4.0 — unreleased') + 1}: "
        "the pending changelog entry names 1.4.0; spec/VERSION says 2.0.0"]
    sync_draft(SpecRepo(repo))
    assert "working draft of EvalPort 2.0.0" in (repo / "spec/SPEC.md").read_text()
    assert stale_lines(repo) == []


def test_rule_fact_edits_fail_with_the_catalogues_values(repo: Path) -> None:
    """RATE_SCORE_MISMATCH is only in RFC 0006's proposal: applied to the scratch draft, `spec
    sync` writes its section, its facts and the new GraderResult rows; then each edit of the
    issue fails with the catalogue's or the schema's value."""
    apply_rfc_0006(repo)
    result = sync_draft(SpecRepo(repo))
    assert result.changed == ["fields resultset.GraderResult", "rule-codes", "rule SUCCESSES_EXCEED_TRIALS",
                              "rule RATE_SCORE_MISMATCH"]
    md = repo / "spec/SPEC.md"
    text = md.read_text()
    assert text.index("### SUCCESSES_EXCEED_TRIALS") < text.index("### RATE_SCORE_MISMATCH")  # catalogue order
    assert ("### RATE_SCORE_MISMATCH\n\nWhen a GraderResult has trials, successes and a non-null score, "
            "abs(score - successes/trials) is at most the tolerance.\n\n"
            "<!-- evalport:generated rule RATE_SCORE_MISMATCH -->\n\n"
            "- Code: `RATE_SCORE_MISMATCH`\n- Document type: resultset\n"
            "- Reported at: `/results/*/grader_results/*/score`\n"
            "- Parameters: `tolerance` = 1e-6 (Largest accepted difference between score and successes/trials)\n"
            "- Since: 1.4.0 (RFC 0006)\n- Expressible in JSON Schema 2020-12: no\n- Encoded in the schema: no\n\n"
            "<!-- /evalport:generated -->\n\n**Why JSON Schema does not carry it:** The rule compares") in text
    assert ("| `trials` | integer | when `successes` is present | ≥ 1 | — | 1.4.0 | For a rate-based grader: "
            "the number of trials the score is a rate over (RFC 0006, option A). |") in text
    assert stale_lines(repo) == []
    rules = (repo / "spec/rules.json").read_text().split("\n")
    entry_line = rules.index('      "code": "RATE_SCORE_MISMATCH",')  # the line of its "{" (1-based)
    cat = f"the catalogue (spec/rules.json:{entry_line})"
    region = "generated region 'rule RATE_SCORE_MISMATCH' is stale"
    row = edit(md, "| `trials` | integer | when `successes` is present |", "| `trials` | string | yes |")
    tol = edit(md, "`tolerance` = 1e-6 (", "`tolerance` = 0.01 (")
    at = edit(md, "- Reported at: `/results/*/grader_results/*/score`\n- Parameters: `tolerance`",
              "- Reported at: `/trials`\n- Parameters: `tolerance`")
    since = edit(md, "- Since: 1.4.0 (RFC 0006)\n- Expressible in JSON Schema 2020-12: no\n- Encoded in the "
                     "schema: no\n\n<!-- /evalport:generated -->\n\n**Why JSON Schema does not carry it:** The "
                     "rule compares",
                 "- Since: 1.2.0 (RFC 0003)\n- Expressible in JSON Schema 2020-12: no\n- Encoded in the "
                 "schema: no\n\n<!-- /evalport:generated -->\n\n**Why JSON Schema does not carry it:** The "
                 "rule compares")
    prose = edit(md, "abs(score - successes/trials) is at most the tolerance.\n",
                 "abs(score - successes/trials) is at most 0.01.\n")
    origin = "spec/schemas/resultset.json#/$defs/grader_result/properties/trials"
    assert stale_lines(repo) == [
        f"spec/SPEC.md:{row}: generated region 'fields resultset.GraderResult' is stale: `trials` Type "
        f'reads "string"; expected "integer" from the schema ({origin})',
        f"spec/SPEC.md:{row}: generated region 'fields resultset.GraderResult' is stale: `trials` Required "
        f'reads "yes"; expected "when `successes` is present" from the schema ({origin})',
        f"spec/SPEC.md:{prose}: RATE_SCORE_MISMATCH: the prose states the number 0.01, but the rule's "
        "parameters (tolerance = 1e-6, spec/rules.json) are shown only in its generated facts; name the "
        "parameter instead",
        f'spec/SPEC.md:{at}: {region}: Reported at reads "`/trials`"; expected '
        f'"`/results/*/grader_results/*/score`" from {cat}',
        f'spec/SPEC.md:{tol}: {region}: Parameters reads "`tolerance` = 0.01 (Largest accepted…"; expected '
        f'"`tolerance` = 1e-6 (Largest accepted…" from {cat}',
        f'spec/SPEC.md:{since}: {region}: Since reads "1.2.0 (RFC 0003)"; expected "1.4.0 (RFC 0006)" '
        f"from {cat}"]
    sync_draft(SpecRepo(repo))  # rewrites the facts; the prose is the author's to fix
    assert stale_lines(repo) == [
        f"spec/SPEC.md:{prose}: RATE_SCORE_MISMATCH: the prose states the number 0.01, but the rule's "
        "parameters (tolerance = 1e-6, spec/rules.json) are shown only in its generated facts; name the "
        "parameter instead"]


def test_unknown_regions_are_removed_and_missing_ones_inserted(repo: Path) -> None:
    md = repo / "spec/SPEC.md"
    text = md.read_text()
    start = text.index("<!-- evalport:generated fields resultset.Runner -->")
    end = text.index("<!-- /evalport:generated -->", start) + len("<!-- /evalport:generated -->\n\n")
    md.write_text(text[:start] + "<!-- evalport:generated fields resultset.Gone -->\n\nx\n\n"
                  "<!-- /evalport:generated -->\n\n" + text[end:])
    kinds = [f.kind for f in check_draft(SpecRepo(repo)).findings]
    assert kinds == ["spec-region-missing", "spec-region-unknown"]  # in line order
    sync_draft(SpecRepo(repo))
    assert md.read_text() == text


@pytest.mark.parametrize("wrap", [
    lambda enum: {"type": "string", "allOf": [{"enum": enum}]},
    lambda enum: {"type": "string", "anyOf": [{"enum": enum}]},
    lambda enum: {"type": "string", "oneOf": [{"enum": enum}]},
])
def test_a_constraint_moved_into_a_combinator_stays_in_the_field_table(repo: Path, wrap) -> None:
    """Adversary, session 34: Error.type's enum wrapped in ``allOf`` (same documents) made the
    generated table say "—" for the field's constraints, so SPEC.md no longer named the allowed
    values, with no record of the change."""
    path = repo / "spec/schemas/resultset.json"
    schema = json.loads(path.read_text())
    node = schema["$defs"]["error"]["properties"]["type"]
    enum = node.pop("enum")
    node.pop("type", None)
    node.update(wrap(enum))
    path.write_text(json.dumps(schema, indent=2) + "\n")
    sync_draft(SpecRepo(repo))
    (row,) = [ln for ln in (repo / "spec/SPEC.md").read_text().splitlines()
              if ln.startswith("| `type` |") and "Class of failure" in ln]
    assert '`"timeout"`, `"provider_error"`, `"runner_error"`' in row.split(" | ")[3]


# -- the normative change record ------------------------------------------------------------

@pytest.mark.parametrize("sentence", ["This section is informative.",
                                      "A ResultSet whose `run_id` is shorter than eight characters is invalid."])
def test_a_sentence_changing_normative_force_or_validity_needs_a_record(repo: Path, sentence: str) -> None:
    """A sentence with no BCP 14 key word and no code can still change what the text requires:
    SPEC.md is normative "except where a passage says it is informative", and "is invalid"
    states a validity rule (adversary, session 33: both passed as unrecorded PATCH)."""
    md = repo / "spec/SPEC.md"
    anchor = "In the schema pass the code is derived from the JSON Schema keyword that failed:"
    line = edit(md, anchor, f"{sentence} {anchor}")
    cid = change_id("Validation", "", sentence)
    stage = run_gate(repo, stages=["spec-text"]).stage("spec-text")
    assert [finding_line(f) for f in stage.errors] == [
        f"spec/SPEC.md:{line}: normative change since 1.3.0 [{cid}] is on no record: added in Validation: "
        f'"{sentence}"; list {cid} under spec_changes in the front matter of the RFC that makes it, or '
        "mark it editorial in the pending changelog entry"]

@pytest.mark.parametrize("sentence", [
    "A consumer MU&#83;T reject a ResultSet whose `run_id` is shorter than eight characters.",
    "A consumer M&shy;UST reject a ResultSet whose `started_at` is not in UTC.",
    "A consumer MU<!-- -->ST reject a ResultSet with no results.",
    "A consumer M**UST** reject a ResultSet with no results.",
    "A consumer M\u200dUST reject a ResultSet with no results.",
    "A consumer \u041cUST reject a ResultSet with no results.",
    "A consumer \uff2d\uff35\uff33\uff34 reject a ResultSet with no results.",
    # adversary, session 35: look-alike capitals of other scripts, invisible combining marks
    "A consumer \ua4df\ua4f4\ua4e2\ua4d4 reject a ResultSet with no results.",  # Lisu
    "A consumer \u13b7U\u13da\u13a2 reject a ResultSet with no results.",  # Cherokee
    "A consumer \u2c98U\u054f\u2ca6 reject a ResultSet with no results.",  # Coptic and Armenian
    "A consumer MU\u034fST reject a ResultSet with no results.",  # combining grapheme joiner
    "A consumer M\ufe00UST reject a ResultSet with no results.",  # variation selector
    "A consumer \u15f0\u144c\u1515T reject a ResultSet with no results.",  # Canadian syllabics (no table)
    "A consumer \u1d0d\u1d1c\ua731\u1d1b reject a ResultSet with no results.",  # small capitals (no table)
])
def test_a_key_word_spelled_to_hide_it_from_the_source_still_needs_a_record(repo: Path, sentence: str) -> None:
    """Each renders as MUST on the published site (a character reference, a soft hyphen, an HTML
    comment, emphasis, a zero-width joiner, a Cyrillic capital, full-width letters), but none has
    the letters M-U-S-T in a row in the source (adversary, session 34: all passed as PATCH)."""
    md = repo / "spec/SPEC.md"
    anchor = "In the schema pass the code is derived from the JSON Schema keyword that failed:"
    line = edit(md, anchor, f"{sentence} {anchor}")
    cid = change_id("Validation", "", sentence)
    stage = run_gate(repo, stages=["spec-text"]).stage("spec-text")
    assert [(f.new.line, cid in f.message) for f in stage.errors] == [(line, True)]


@pytest.mark.parametrize("block", [
    "#### A consumer MUST reject a ResultSet whose `run_id` is shorter than four characters",
    "<div>\nA consumer MUST reject a ResultSet whose `run_id` is shorter than four characters.\n</div>",
])
def test_a_normative_heading_or_html_block_needs_a_record(repo: Path, block: str) -> None:
    """Headings and HTML blocks are rendered text as much as paragraphs are (adversary, session
    34: a `####` heading with a plain MUST passed as PATCH)."""
    md = repo / "spec/SPEC.md"
    anchor = "In the schema pass the code is derived from the JSON Schema keyword that failed:"
    line = edit(md, anchor, f"{block}\n\n{anchor}")
    stage = run_gate(repo, stages=["spec-text"]).stage("spec-text")
    assert [(f.kind, f.new.line) for f in stage.errors] == [("spec-change-unrecorded", line)]


def test_a_new_normative_sentence_needs_a_record(repo: Path, capsys) -> None:
    md = repo / "spec/SPEC.md"
    sentence = "A consumer MUST NOT send documents over plain HTTP."
    line = edit(md, "A consumer MUST NOT reject a document because of the content of an open object",
                sentence + " A consumer MUST NOT reject a document because of the content of an open object")
    cid = change_id("Extension mechanism", "", sentence)
    stage = run_gate(repo, stages=["spec-text"]).stage("spec-text")
    assert stage.status == "fail"
    assert [finding_line(f) for f in stage.errors] == [
        f"spec/SPEC.md:{line}: normative change since 1.3.0 [{cid}] is on no record: added in Extension "
        f'mechanism: "{sentence}"; list {cid} under spec_changes in the front matter of the RFC that '
        "makes it, or mark it editorial in the pending changelog entry"]
    assert main(["-C", str(repo), "spec", "changes"]) == 1
    out = capsys.readouterr().out
    assert out.startswith(f"spec/SPEC.md:{line}: error spec-change-unrecorded: normative change since "
                          f"1.3.0 [{cid}] is on no record: added in Extension mechanism")
    assert out.endswith("spec changes: 19 normative change(s) since 1.3.0, 1 on no record\n")
    # an RFC's front matter records it ...
    rfc = repo / "rfcs/0007-version-scope.md"
    edit(rfc, "spec_changes:\n", f"spec_changes:\n  - {cid}\n")
    assert run_gate(repo, stages=["spec-text"]).stage("spec-text").status == "ok"
    assert [c.rfcs for c in record(SpecRepo(repo), load_rfcs(repo)).changes if c.id == cid] == [[7]]
    # ... but not once that RFC is withdrawn
    edit(rfc, "status: comment", "status: withdrawn")
    assert [c.covered for c in record(SpecRepo(repo), load_rfcs(repo)).changes if c.id == cid] == [False]
    edit(rfc, "status: withdrawn", "status: comment")
    edit(rfc, f"spec_changes:\n  - {cid}\n", "spec_changes:\n")
    # an editorial mark in the pending changelog entry records it too
    edit(md, "### 1.4.0 — unreleased\n\n", f"### 1.4.0 — unreleased\n\n- Editorial: wording (`{cid}`).\n")
    assert run_gate(repo, stages=["spec-text"]).stage("spec-text").status == "ok"
    assert [c.editorial for c in record(SpecRepo(repo), load_rfcs(repo)).changes if c.id == cid] == [True]


def test_a_record_the_change_adds_itself_is_a_warning_in_the_gate_of_record(repo: Path) -> None:
    """Red team: a branch states a limit the schema lacks and marks it editorial itself. The gate
    cannot judge prose; with ``--base`` it shows the self-made record to the reviewer."""
    md = repo / "spec/SPEC.md"
    sentence = "A TestCase MUST NOT carry more than five tags."
    line = edit(md, "A consumer MUST NOT reject a document because of the content of an open object",
                sentence + " A consumer MUST NOT reject a document because of the content of an open object")
    cid = change_id("Extension mechanism", "", sentence)
    mark = f"- Editorial: wording (`{cid}`).\n"
    edit(md, "### 1.4.0 — unreleased\n\n", "### 1.4.0 — unreleased\n\n" + mark)
    commit_all(repo, "tags: a limit in words, marked editorial by the same change")
    stage = run_gate(repo, base="main", stages=["spec-text"]).stage("spec-text")
    assert stage.status == "warn"
    [warning] = [f for f in stage.findings if f.kind == "spec-change-self-recorded"]
    assert warning.severity == Severity.WARNING and warning.extra == {"change": cid}
    assert finding_line(warning) == (
        f"spec/SPEC.md:{line}: normative change [{cid}] is on record only by this change itself (editorial, "
        "which main did not have): the gate cannot judge prose, so a reviewer confirms SPEC.md still agrees "
        f'with the schemas and catalogue: added in Extension mechanism: "{sentence}"')
    # without --base there is no base to compare records with
    assert run_gate(repo, stages=["spec-text"]).stage("spec-text").status == "ok"
    # the same mark landed on main first: on record before the change, no warning
    git(repo, "checkout", "-q", "main")
    edit(md, "### 1.4.0 — unreleased\n\n", "### 1.4.0 — unreleased\n\n" + mark)
    commit_all(repo, "mark the coming wording change editorial")
    git(repo, "checkout", "-q", "feature")
    stage = run_gate(repo, base="main", stages=["spec-text"]).stage("spec-text")
    assert stage.status == "ok" and not [f for f in stage.findings if f.kind == "spec-change-self-recorded"]
    # an RFC listing it at the base records it before the change too
    rfc = "rfcs/0007-version-scope.md"
    (repo / rfc).write_text((repo / rfc).read_text().replace("spec_changes:\n", f"spec_changes:\n  - {cid}\n", 1))
    (repo / "spec/SPEC.md").write_text((repo / "spec/SPEC.md").read_text().replace(mark, "", 1))
    commit_all(repo, "the RFC lists it instead of the mark")
    git(repo, "checkout", "-q", "main")
    (repo / rfc).write_text((repo / rfc).read_text().replace("spec_changes:\n", f"spec_changes:\n  - {cid}\n", 1))
    (repo / "spec/SPEC.md").write_text((repo / "spec/SPEC.md").read_text().replace(mark, "", 1))
    commit_all(repo, "RFC 0007 lists the change")
    git(repo, "checkout", "-q", "feature")
    assert not [f for f in run_gate(repo, base="main", stages=["spec-text"]).stage("spec-text").findings
                if f.kind == "spec-change-self-recorded"]


def test_a_change_the_base_recorded_by_an_rfc_relabelled_editorial_is_a_warning(repo: Path) -> None:
    """Adversary, session 34: RFC 0007 deferred (no longer a covering status) and its changes
    marked editorial in the same pull request passed with no word: the ids were on record at the
    base, though by the RFC, not as editorial."""
    rfc = repo / "rfcs/0007-version-scope.md"
    cids = [c.id for c in record(SpecRepo(repo), load_rfcs(repo)).changes if c.rfcs == [7]]
    assert cids  # RFC 0007 records some of SPEC.md's changes since 1.3.0
    text = rfc.read_text()
    assert "\nstatus: comment\n" in text
    rfc.write_text(text.replace("\nstatus: comment\n", "\nstatus: withdrawn\n", 1))
    md = repo / "spec/SPEC.md"
    edit(md, "### 1.4.0 — unreleased\n\n", "### 1.4.0 — unreleased\n\n"
         + "".join(f"- Editorial: wording (`{cid}`).\n" for cid in cids))
    commit_all(repo, "RFC 0007 withdrawn, its changes called editorial")
    stage = run_gate(repo, base="main", stages=["spec-text"]).stage("spec-text")
    assert sorted(f.extra["change"] for f in stage.findings if f.kind == "spec-change-self-recorded") == sorted(cids)


def test_a_key_word_written_into_a_description_or_rule_statement_needs_a_record(repo: Path) -> None:
    """Adversary, session 34: "MUST" added to ``run_id``'s schema description reached SPEC.md's
    generated field table, on record by construction (the classifier reads a description as an
    annotation), and one added to a rule's catalogue statement was a PATCH ``rule-reworded``."""
    path = repo / "spec/schemas/resultset.json"
    schema = json.loads(path.read_text())
    said = "A consumer MUST reject a run_id shorter than eight characters."
    schema["properties"]["run_id"]["description"] += " " + said
    path.write_text(json.dumps(schema, indent=2) + "\n")
    sync_draft(SpecRepo(repo))
    stage = run_gate(repo, stages=["spec-text"]).stage("spec-text")
    assert [f.kind for f in stage.errors] == ["spec-change-unrecorded"]
    assert "added in description of `run_id` in fields resultset.ResultSet" in stage.errors[0].message
    assert said in stage.errors[0].message
    git(repo, "checkout", "-q", "--", "spec")
    rules = repo / "spec/rules.json"
    catalogue = json.loads(rules.read_text())
    entry = next(r for r in catalogue["rules"] if r["code"] == "DUPLICATE_ID")
    entry["statement"] += " Ids MUST also differ when compared case-insensitively."
    rules.write_text(json.dumps(catalogue, indent=2) + "\n")
    stage = run_gate(repo, stages=["spec-text"]).stage("spec-text")
    assert [(f.kind, "statement of DUPLICATE_ID in rules.json" in f.message) for f in stage.errors] == [
        ("spec-change-unrecorded", True)]


def test_a_key_word_in_a_rules_gap_needs_a_record(repo: Path) -> None:
    """Adversary, session 35: the catalogue's ``gap`` (frozen into each release with rules.json)
    gained "A validator MUST also reject a group whose parent_group_id differs from group_id only
    in letter case." and the gate passed it as PATCH with no finding: only ``statement`` was read,
    and ``spec sync`` copies a gap into SPEC.md only when it first makes the rule's section."""
    rules = repo / "spec/rules.json"
    catalogue = json.loads(rules.read_text())
    entry = next(r for r in catalogue["rules"] if r["code"] == "SELF_PARENT")
    said = "A validator MUST also reject a group whose parent_group_id differs from group_id only in letter case."
    entry["gap"] += " " + said
    rules.write_text(json.dumps(catalogue, indent=2) + "\n")
    stage = run_gate(repo, stages=["spec-text"]).stage("spec-text")
    assert [(f.kind, "gap of SELF_PARENT in rules.json" in f.message, "A validator MUST also reject" in f.message)
            for f in stage.errors] == [("spec-change-unrecorded", True, True)]


def test_a_declarative_sentence_changed_by_the_branch_is_shown_to_the_reviewer(repo: Path) -> None:
    """Adversary, session 34: "the document conforms when neither reports an error" gained "and
    its `run_id` has at least eight characters": no key word, so the record did not follow it and
    the gate said nothing. With ``--base`` it is now a warning naming the line."""
    md = repo / "spec/SPEC.md"
    old = "and the document conforms when neither reports an error."
    line = edit(md, old, "and the document conforms when neither reports an error and its `run_id` has at "
                "least eight characters.")
    commit_all(repo, "a length condition in words")
    stage = run_gate(repo, base="main", stages=["spec-text"]).stage("spec-text")
    assert stage.status == "warn" and not stage.errors
    assert [(f.kind, f.new.line) for f in stage.findings if f.severity == Severity.WARNING] == [
        ("spec-sentence-changed", line)]
    assert [f for f in stage.findings if "`run_id` has at least eight characters" in f.message]
    # without --base nothing is compared (the record since the release has its own reading)
    assert run_gate(repo, stages=["spec-text"]).stage("spec-text").status == "ok"


def test_a_mark_naming_no_current_change_is_a_warning(repo: Path) -> None:
    md = repo / "spec/SPEC.md"
    line = edit(md, "- Editorial: the list of rule codes", "- Editorial: gone (`spec:00000000`).\n"
                "- Editorial: the list of rule codes")
    stage = run_gate(repo, stages=["spec-text"]).stage("spec-text")
    assert stage.status == "warn"
    assert [finding_line(f) for f in stage.findings if f.severity == Severity.WARNING] == [
        f"spec/SPEC.md:{line}: the pending changelog entry marks spec:00000000 editorial, which is no "
        "change to SPEC.md since 1.3.0"]


def test_generated_regions_compare_by_facts_with_the_release(repo: Path) -> None:
    """A release written before regions existed compares by what its schemas say: a new field
    is one change, in its object's region, recorded by the schema change it mirrors (no RFC
    needed for an additive field), and the spec-text stage passes."""
    from gate_repo import add_optional_runner_field

    before = {c.id for c in record(SpecRepo(repo), load_rfcs(repo)).changes}
    add_optional_runner_field(repo)
    sync_draft(SpecRepo(repo))
    (change,) = [c for c in record(SpecRepo(repo), load_rfcs(repo)).changes if c.id not in before]
    assert (change.where, change.kind) == ("region fields resultset.Runner", "changed")
    assert "| `build` | string | no | — | — | 1.4.0 |" in change.new and "`build`" not in change.old
    assert change.covered and not change.rfcs and change.coverage() == "generated from the schemas and catalogue"
    assert run_gate(repo, stages=["spec-text"]).stage("spec-text").status in ("ok", "warn")


def test_spec_sync_refuses_malformed_markers_with_one_line(repo: Path, capsys) -> None:
    md = repo / "spec/SPEC.md"
    edit(md, "<!-- /evalport:generated -->\n\nEvalPort is an interchange format", "EvalPort is an interchange format")
    lines = md.read_text().split("\n")
    status = lines.index("<!-- evalport:generated status -->") + 1
    suite = lines.index("<!-- evalport:generated fields suite.Suite -->") + 1
    before = md.read_bytes()
    assert main(["-C", str(repo), "spec", "sync"]) == 2
    assert capsys.readouterr().err == (
        f"evalport-spec: error: spec/SPEC.md:{suite}: generated region 'fields suite.Suite' starts inside "
        f"region 'status' (line {status}), which has no end marker yet\n")
    assert md.read_bytes() == before


def test_spec_sync_refuses_a_schema_with_a_broken_ref_and_writes_nothing(repo: Path, capsys) -> None:
    """A field table rendered around a ``$ref`` that resolves nowhere would describe another
    schema (``graders`` items read as "any"): ``spec sync`` refuses, naming the ref and its file,
    and SPEC.md keeps its bytes; the gate's spec-text stage fails with the same line, as a
    schema-unreadable finding (the code every stage gives a schema it cannot read)."""
    schema = repo / "spec/schemas/testcase.json"
    text = schema.read_text()
    assert text.count('"$ref": "grader.json"') == 1
    schema.write_text(text.replace('"$ref": "grader.json"', '"$ref": "grader-gone.json"'))
    md = repo / "spec/SPEC.md"
    before = md.read_bytes()
    assert main(["-C", str(repo), "spec", "sync"]) == 2
    message = ("spec/schemas/testcase.json: $ref 'grader-gone.json' does not resolve in the schema set: "
               "generated regions are not rendered from a broken schema")
    assert capsys.readouterr().err == f"evalport-spec: error: {message}\n"
    assert md.read_bytes() == before
    found = run_gate(repo, stages=["spec-text"]).stage("spec-text").findings
    assert [(f.kind, f.new.file) for f in found] == [("schema-unreadable", "spec/schemas/testcase.json")]
    assert found[0].message == message.split(": ", 1)[1]


# -- field tables and rule parameters, on small schemas worked out by hand -----------------------

def test_field_table_of_a_small_schema() -> None:
    from evalport_spec.jsonload import loads
    from evalport_spec.schemaset import SchemaSet
    from evalport_spec.specsync.fields import FieldTables

    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://example.org/spec/draft/schemas/grader.json", "title": "Thing", "type": "object",
        "required": ["a"], "additionalProperties": False,
        "properties": {
            "a": {"type": "string", "minLength": 1, "description": "A | pipe."},
            "b": {"type": "integer", "minimum": 0, "maximum": 10, "default": 3},
            "c": {"type": "array", "items": {"enum": ["x", "y"]}, "minItems": 2, "uniqueItems": True},
            "d": {"$ref": "#/$defs/inner", "description": "Inner one."},
            "e": {"type": ["number", "null"], "exclusiveMinimum": 0},
            "f": {"type": "object"}},
        "dependentRequired": {"b": ["e"]},
        "allOf": [{"if": {"required": ["a"], "properties": {"a": {"const": "k"}}}, "then": {"required": ["c"]}},
                  {"if": {"required": ["a"], "properties": {"a": {"const": "m"}}}, "then": {"required": ["c", "d"]}}],
        "$defs": {"inner": {"title": "Inner", "type": "object", "properties": {"z": {"type": "boolean"}}}}}
    schemas = SchemaSet.from_loaded({"grader.json": loads(json.dumps(schema), "spec/schemas/grader.json")})
    thing, inner = FieldTables(schemas, {("Thing", "a"): "1.0.0"}, "9.9.9").blocks()
    assert (thing.region, inner.region) == ("fields grader.Thing", "fields grader.Inner")
    rows = [[r.cells[c] for c in ("Field", "Type", "Required", "Constraints", "Default", "Since", "Description")]
            for r in thing.rows]
    assert rows == [
        ["`a`", "string", "yes", "at least 1 character", "—", "1.0.0", "A | pipe."],
        ["`b`", "integer", "no", "≥ 0; ≤ 10", "`3`", "9.9.9", "—"],
        ["`c`", "array of string", 'when `a` is `"k"` or `"m"`', 'at least 2 items; items unique; each item: '
         'one of `"x"`, `"y"`', "—", "9.9.9", "—"],
        ["`d`", "[Inner](#inner)", 'when `a` is `"m"`', "—", "—", "9.9.9", "Inner one."],
        ["`e`", "number or null", "when `b` is present", "> 0", "—", "9.9.9", "—"],
        ["`f`", "object", "no", "open: any members", "—", "9.9.9", "—"]]
    assert thing.render()[:3] == ["| Field | Type | Required | Constraints | Default | Since | Description |",
                                  "| --- | --- | --- | --- | --- | --- | --- |",
                                  "| `a` | string | yes | at least 1 character | — | 1.0.0 | A \\| pipe. |"]
    assert [r.cells["Type"] for r in inner.rows] == ["boolean"]


def test_rule_check_reports_parameters_the_implementation_does_not_take(repo: Path) -> None:
    from evalport_spec.rulecheck import check_rules

    cat = json.loads((repo / "spec/rules.json").read_text())
    cat["rules"][4]["parameters"] = {"limit": {"value": 3}}  # DUPLICATE_ATTEMPT takes none
    (repo / "spec/rules.json").write_text(json.dumps(cat, indent=2) + "\n")
    found = [f for f in check_rules(SpecRepo(repo), drift=False) if f.kind == "rule-parameter-mismatch"]
    assert [(f.code, f.message) for f in found] == [
        ("DUPLICATE_ATTEMPT", "DUPLICATE_ATTEMPT: catalogue parameters disagree with the implementation: the entry gives "
                              "limit, which its implementation does not take")]


@pytest.mark.parametrize("tolerance", [1e-9, 4e-8])
def test_a_changed_tolerance_is_classified_not_reworded(repo: Path, tolerance: float) -> None:
    """A parameter decides what a rule rejects: changing it is a rule change for the classifier,
    never the PATCH ``rule-reworded``; a tighter one is never MINOR (4e-8: no sampled document
    falls between the bounds, so only failing closed keeps it from passing as MINOR)."""
    from evalport_spec.rulechanges import rule_changes

    apply_rfc_0006(repo)
    old = SpecRepo(repo).version("draft")
    assert old.catalogue.get("RATE_SCORE_MISMATCH").parameter_values() == {"tolerance": 1e-6}  # read now
    cat = json.loads((repo / "spec/rules.json").read_text())
    cat["rules"][-1]["parameters"]["tolerance"]["value"] = tolerance
    (repo / "spec/rules.json").write_text(json.dumps(cat, indent=2) + "\n")
    new = SpecRepo(repo).version("draft")
    found = [f for f in rule_changes(old, new, n=3) if f.code == "RATE_SCORE_MISMATCH"]
    kinds = {f.kind for f in found}
    assert kinds and kinds <= {"rule-tightened", "rule-changed-unwitnessed"}
    # a smaller tolerance loses the documents between the two bounds: never MINOR, witnessed or not
    assert all(f.change_class == ChangeClass.MAJOR and (f.witness is not None or f.undecided) for f in found)


@pytest.mark.parametrize(("content", "message"), [
    (None, "spec/SPEC.md: no such file"), (b"\xff\xfe", "spec/SPEC.md: invalid UTF-8 at byte 0")],
    ids=["missing", "not-utf-8"])
def test_spec_changes_refuses_an_unreadable_draft(repo: Path, capsys, content, message) -> None:
    """Not a list of 'removed' sections: one input-error line and exit 2, as `spec sync` gives."""
    md = repo / "spec/SPEC.md"
    md.unlink() if content is None else md.write_bytes(content)
    assert main(["-C", str(repo), "spec", "changes"]) == 2
    assert capsys.readouterr().err == f"evalport-spec: error: {message}\n"


# -- prose against the schemas --------------------------------------------------------------

def test_a_quoted_pointer_that_does_not_resolve_is_reported(repo: Path) -> None:
    """``file.json#/pointer`` in a code span must name a location of that schema file (RFC 6901);
    the current draft quotes only pointers that resolve, so it has no such finding."""
    assert [f for f in check_draft(SpecRepo(repo)).findings if f.kind == "spec-pointer-dangling"] == []
    md = repo / "spec/SPEC.md"
    line = edit(md, "The conformance suite (RFC 0001) makes these requirements testable.",
                "See `grader.json#/allOf/8` and `grader.json#/allOf/7` and `nothing.json#/a`. "
                "The conformance suite (RFC 0001) makes these requirements testable.")
    edit(md, "The only format the schemas use", "The branch `resultset.json#/$defs/result/allOf/01` "
         "is one. The only format the schemas use")
    found = [finding_line(f) for f in check_draft(SpecRepo(repo)).findings if f.kind == "spec-pointer-dangling"]
    # grader.json's allOf has 8 entries (0..7); "01" is not an array index (RFC 6901 section 4)
    schema_line = (md.read_text().split("\n").index(next(x for x in md.read_text().split("\n")
                                                          if "allOf/01" in x)) + 1)
    assert found == [
        f"spec/SPEC.md:{schema_line}: the prose quotes `resultset.json#/$defs/result/allOf/01`, but nothing "
        "is at /$defs/result/allOf/01 in resultset.json",
        f"spec/SPEC.md:{line}: the prose quotes `grader.json#/allOf/8`, but nothing is at /allOf/8 in grader.json",
        f"spec/SPEC.md:{line}: the prose quotes `nothing.json#/a`, but the version has no schema file nothing.json",
    ]
    stage = run_gate(repo, stages=["spec-text"]).stage("spec-text")
    assert stage.status == "fail"


def test_the_grader_types_table_agrees_with_grader_json(repo: Path) -> None:
    """Each row's required params are those of the if/then branches that select its type; the
    rows are the schema's well-known types (/properties/type/examples). Expected values by hand
    from grader.json: `code` needs language and source; custom's handler comes from the branch
    it shares with extension types."""
    def found() -> list[str]:
        return kind_lines(repo, "spec-grader-types")
    assert found() == []
    md = repo / "spec/SPEC.md"
    code = edit(md, "| `code` | `language` (`\"python\"` or `\"javascript\"`), `source` (string) |",
                "| `code` | `source` (string) |")
    custom = edit(md, "| `custom` | `handler` (string) |", "| `custom` | none |")
    extra = edit(md, "| `human` | none | a person scores the output |",
                 "| `human` | none | a person scores the output |\n| `fuzzy` | none | made up |")
    edit(md, "| `model_graded` | none | a model scores the output, configured through `params` |\n", "")
    heading = md.read_text().split("\n").index("## Grader types") + 1
    assert found() == [
        f"spec/SPEC.md:{heading}: grader.json has the well-known grader type `model_graded`, which the "
        "table does not list",
        f"spec/SPEC.md:{code}: the table says `code` requires in params source, but grader.json's if/then "
        "branches require language, source",
        f"spec/SPEC.md:{extra + 1}: the table lists grader type `fuzzy`, which is not among the well-known "
        "types of grader.json (/properties/type/examples)",
        f"spec/SPEC.md:{custom + 1}: the table says `custom` requires in params none, but grader.json's "
        "if/then branches require handler",
    ]
    assert run_gate(repo, stages=["spec-text"]).stage("spec-text").status == "fail"


def test_the_grader_types_notes_say_what_grader_json_says(repo: Path) -> None:
    """Red team, session 37: the parenthesised note after each member was never compared, so a
    table calling `threshold` an integer or `source` an integer passed. Expected lines by hand
    from grader.json: threshold is {type: number, minimum: 0, maximum: 1}, source a string,
    language the enum python/javascript, model and prompt strings."""
    def found() -> list[str]:
        return kind_lines(repo, "spec-grader-types")
    md = repo / "spec/SPEC.md"
    sim = edit(md, "`threshold` (number in [0, 1])", "`threshold` (integer in [0, 1])")
    code = edit(md, '`language` (`"python"` or `"javascript"`), `source` (string)',
                '`language` (`"python"`), `source` (integer)')
    judge = edit(md, "`model`, `prompt` (strings)", "`model`, `prompt` (string)")
    assert found() == [
        f"spec/SPEC.md:{sim}: the table says `semantic_similarity`'s param `threshold` is (integer in "
        "[0, 1]), but grader.json's if/then branch makes it (number in [0, 1])",
        f"spec/SPEC.md:{judge}: the table says `llm_judge`'s param `model` is (string), but grader.json's "
        "if/then branch makes it (strings)",
        f"spec/SPEC.md:{judge}: the table says `llm_judge`'s param `prompt` is (string), but grader.json's "
        "if/then branch makes it (strings)",
        f"spec/SPEC.md:{code}: the table says `code`'s param `language` is (`\"python\"`), but grader.json's "
        "if/then branch makes it (`\"python\"` or `\"javascript\"`)",
        f"spec/SPEC.md:{code}: the table says `code`'s param `source` is (integer), but grader.json's "
        "if/then branch makes it (string)",
    ]
    assert run_gate(repo, stages=["spec-text"]).stage("spec-text").status == "fail"


def test_grader_types_notes_follow_a_schema_change(repo: Path) -> None:
    """The schema narrows `threshold` to [0.5, 1] and gives `substring` a minLength: the notes
    the table kept are reported, in the words the field tables use."""
    path = repo / "spec/schemas/grader.json"
    schema = json.loads(path.read_text())
    schema["allOf"][0]["then"]["properties"]["params"]["properties"]["substring"]["minLength"] = 1
    schema["allOf"][2]["then"]["properties"]["params"]["properties"]["threshold"]["minimum"] = 0.5
    path.write_text(json.dumps(schema, indent=2) + "\n")
    lines = (repo / "spec/SPEC.md").read_text().split("\n")
    row = {name: next(n for n, x in enumerate(lines, start=1) if x.startswith(f"| `{name}` |"))
           for name in ("contains", "semantic_similarity")}
    assert [finding_line(f) for f in check_draft(SpecRepo(repo)).findings if f.kind == "spec-grader-types"] == [
        f"spec/SPEC.md:{row['contains']}: the table says `contains`'s param `substring` is (string), but "
        "grader.json's if/then branch makes it (string, at least 1 character)",
        f"spec/SPEC.md:{row['semantic_similarity']}: the table says `semantic_similarity`'s param `threshold` is "
        "(number in [0, 1]), but grader.json's if/then branch makes it (number in [0.5, 1])"]


def test_grader_types_follow_a_schema_change(repo: Path) -> None:
    """A schema edit the prose does not follow: the shared custom/extension branch stops
    requiring handler, so the `custom` row's `handler` is reported."""
    path = repo / "spec/schemas/grader.json"
    schema = json.loads(path.read_text())
    schema["allOf"][7]["then"]["properties"]["params"]["required"] = []
    path.write_text(json.dumps(schema, indent=2) + "\n")
    row = next(n for n, x in enumerate((repo / "spec/SPEC.md").read_text().split("\n"), start=1)
               if x.startswith("| `custom` |"))
    assert [finding_line(f) for f in check_draft(SpecRepo(repo)).findings if f.kind == "spec-grader-types"] == [
        f"spec/SPEC.md:{row}: the table says `custom` requires in params handler, but grader.json's "
        "if/then branches require none"]


def test_the_dialect_the_prose_names_is_the_schemas(repo: Path) -> None:
    """Session 37 mutation sweep: "JSON Schema 2020-12" turned into another dialect passed every
    stage. The schemas declare https://json-schema.org/draft/2020-12/schema; a mention of
    2019-09 or draft-07 outside the Changelog is reported on its line, one in it is history."""
    def found() -> list[str]:
        return kind_lines(repo, "spec-dialect-claim")
    assert found() == []
    md = repo / "spec/SPEC.md"
    first = edit(md, "Each schema is written in the JSON Schema 2020-12 dialect.",
                 "Each schema is written in the JSON Schema 2019-09 dialect.")
    text = md.read_text()
    md.write_text(text.replace("## Changelog\n", "## Changelog\n\nOnce JSON Schema draft-07 was considered.\n", 1)
                  .replace("## Extension mechanism\n", "## Extension mechanism\n\nAs in JSON Schema draft-07.\n", 1))
    second = line_of_text(md, "As in JSON Schema draft-07.")
    assert found() == [
        f"spec/SPEC.md:{first}: the prose names JSON Schema 2019-09, but the schemas are written in 2020-12 "
        "(their $schema)",
        f"spec/SPEC.md:{second}: the prose names JSON Schema draft-07, but the schemas are written in 2020-12 "
        "(their $schema)"]


@pytest.mark.parametrize("old, new, message", [
    ("`role` (an open string)", "`role` (an open integer)", "`role` is an integer, but the schemas give it the type(s) string"),
    ("`type` is an open string", "`type` is an open integer", "`type` is an integer, but the schemas give it the type(s) string"),
    ("`grader_results` is an array", "`grader_results` is an object",
     "`grader_results` is an object, but the schemas give it the type(s) array"),
])
def test_a_members_type_in_the_prose_is_the_schemas(repo: Path, old: str, new: str, message: str) -> None:
    """Session 37 mutation sweep: a type claim in prose turned into another type passed every
    stage. Expected by hand: Group.role, Grader.type and Error.type are strings,
    Result.grader_results an array; TestCase.input is a string or an array, so "When `input`
    is an array" holds."""
    def found() -> list[str]:
        return kind_lines(repo, "spec-type-claim")
    assert found() == []
    line = edit(repo / "spec/SPEC.md", old, new)
    assert found() == [f"spec/SPEC.md:{line}: the prose says {message}"]


def line_of_text(path: Path, needle: str) -> int:
    """1-based line of the one line holding ``needle``."""
    (n,) = [i for i, x in enumerate(path.read_text().split("\n"), start=1) if needle in x]
    return n


def test_a_claim_about_the_formats_used_follows_the_schemas(repo: Path) -> None:
    """SPEC.md says the only format the schemas use is `date-time`; a schema that gains
    ``format: uri`` contradicts it. A property merely *named* format is not the keyword."""
    def found() -> list[str]:
        return kind_lines(repo, "spec-format-claim")
    assert found() == []
    path = repo / "spec/schemas/testcase.json"
    schema = json.loads(path.read_text())
    schema["properties"]["format"] = {"type": "string"}          # a member name, not the keyword
    path.write_text(json.dumps(schema, indent=2) + "\n")
    assert found() == []
    schema["properties"]["format"] = {"type": "string", "format": "uri"}
    path.write_text(json.dumps(schema, indent=2) + "\n")
    line = next(n for n, x in enumerate((repo / "spec/SPEC.md").read_text().split("\n"), start=1)
                if "The only format the schemas use is" in x)
    assert found() == [f"spec/SPEC.md:{line}: the prose says the schemas use the format(s) date-time, "
                       "but their format keywords are date-time, uri"]


def test_claims_of_closed_and_open_objects_follow_the_schemas(repo: Path) -> None:
    """"Every object is closed" fails when a titled object (Retry) loses additionalProperties
    false; an exception named open (`params` of TestCase) fails when its schema closes it."""
    def found() -> list[str]:
        return kind_lines(repo, "spec-openness")
    assert found() == []
    suite = repo / "spec/schemas/suite.json"
    schema = json.loads(suite.read_text())
    del schema["$defs"]["retry"]["additionalProperties"]
    suite.write_text(json.dumps(schema, indent=2) + "\n")
    testcase = repo / "spec/schemas/testcase.json"
    schema = json.loads(testcase.read_text())
    schema["properties"]["params"]["additionalProperties"] = False
    testcase.write_text(json.dumps(schema, indent=2) + "\n")
    line = next(n for n, x in enumerate((repo / "spec/SPEC.md").read_text().split("\n"), start=1)
                if x.startswith("Every object is closed"))
    ext = next(n for n, x in enumerate((repo / "spec/SPEC.md").read_text().split("\n"), start=1)
               if x.startswith("- `params` on TestCase"))
    assert found() == [
        f"spec/SPEC.md:{line}: the prose says every object is closed, but Retry (suite.json#/$defs/retry) "
        "admits undeclared members",
        f"spec/SPEC.md:{line}: the prose names `params` of TestCase as open, but its schema closes it",
        f"spec/SPEC.md:{ext}: the Extension mechanism list names `params` of TestCase as open, but its "
        "schema closes it",
    ]


def test_a_pointer_said_to_be_marked_must_carry_that_rule(repo: Path) -> None:
    """"`file#/ptr`, marked `"x-evalport-rule": "CODE"`" must name the subschema carrying CODE:
    NULL_SCORE_PASSED's marker is on /$defs/grader_result/allOf/0, not /$defs/result/allOf/0
    (which carries UNSCORED_RESULT_PASSED), and /$defs/result carries none."""
    def found() -> list[str]:
        return kind_lines(repo, "spec-pointer-marker")
    assert found() == []
    md = repo / "spec/SPEC.md"
    line = edit(md, "the subschema `resultset.json#/$defs/grader_result/allOf/0`, marked",
                "the subschema `resultset.json#/$defs/result/allOf/0`, marked")
    other = edit(md, "The conformance suite (RFC 0001) makes these requirements testable.",
                 'See `resultset.json#/$defs/result`, marked `"x-evalport-rule": "SELF_PARENT"`. '
                 "The conformance suite (RFC 0001) makes these requirements testable.")
    assert found() == [
        f"spec/SPEC.md:{line}: the prose says `resultset.json#/$defs/result/allOf/0` is marked "
        "NULL_SCORE_PASSED, but that subschema carries UNSCORED_RESULT_PASSED",
        f"spec/SPEC.md:{other}: the prose says `resultset.json#/$defs/result` is marked SELF_PARENT, but "
        "that subschema carries no x-evalport-rule",
    ]

def test_keyword_table_follows_the_schema_pass_and_covers_the_schemas(repo: Path) -> None:
    """A row with another code than the schema pass reports (`maxLength` -> MIN_LENGTH) is
    found; a keyword the schemas use without a row (`unevaluatedProperties: false`) is found, a
    `false` subschema needs the `false` row, and keywords used only inside an `if` (grader.json's
    `not`) need none."""
    def found() -> list[str]:
        return kind_lines(repo, "spec-keyword-code")
    spec = repo / "spec/SPEC.md"
    assert found() == []
    row = edit(spec, "| `maxLength` | MAX_LENGTH |", "| `maxLength` | MIN_LENGTH |")
    edit(spec, "| `not` | NOT | the value |\n", "")
    assert found() == [f"spec/SPEC.md:{row}: the table codes `maxLength` as MIN_LENGTH, but the schema "
                       "pass reports MAX_LENGTH"]
    edit(spec, "| `maxLength` | MIN_LENGTH |", "| `maxLength` | MAX_LENGTH |")
    table = next(n for n, x in enumerate(spec.read_text().split("\n"), start=1) if x.startswith("| Keyword |"))
    path = repo / "spec/schemas/resultset.json"
    schema = json.loads(path.read_text())
    schema["$defs"]["runner"]["unevaluatedProperties"] = False
    schema["$defs"]["runner"]["properties"]["legacy"] = False
    path.write_text(json.dumps(schema, indent=2) + "\n")
    assert found() == [f"spec/SPEC.md:{table}: the schemas use `unevaluatedProperties` (resultset.json#/$defs/"
                       "runner/unevaluatedProperties), which can fail with its own code "
                       "UNEVALUATED_PROPERTIES, but the table gives no code for it"]
    edit(spec, "| `false` | FALSE_SCHEMA | the value |\n", "")
    assert found()[-1] == (f"spec/SPEC.md:{table}: the schemas use `false` (resultset.json#/$defs/runner/"
                           "properties/legacy), which can fail with its own code FALSE_SCHEMA, but the "
                           "table gives no code for it")

def test_every_open_member_is_named_in_both_lists(repo: Path) -> None:
    """A new open member (Runner `extensions`, an object with no additionalProperties) makes
    "every object is closed" false and is missing from the Extension mechanism list: one finding
    on each claim. An array whose items are open objects is open too; one whose items are a
    titled (closed) object is not. A wrong name in the Extension list is found."""
    def found() -> list[str]:
        return kind_lines(repo, "spec-openness")
    text = (repo / "spec/SPEC.md").read_text().split("\n")
    closed_line = next(n for n, x in enumerate(text, start=1) if x.startswith("Every object is closed"))
    ext_line = next(n for n, x in enumerate(text, start=1) if x.startswith("- `metadata`, on TestCase"))
    path = repo / "spec/schemas/resultset.json"
    schema = json.loads(path.read_text())
    runner = schema["$defs"]["runner"]["properties"]
    runner["hosts"] = {"type": "array", "items": {"$ref": "testcase.json#/$defs/provider"}}
    path.write_text(json.dumps(schema, indent=2) + "\n")
    assert found() == []
    runner["extensions"] = {"type": "object"}
    runner["tags"] = {"type": "array", "items": {"type": "object", "properties": {"k": {"type": "string"}}}}
    path.write_text(json.dumps(schema, indent=2) + "\n")
    where = "resultset.json#/$defs/runner/properties"
    assert found() == [
        f"spec/SPEC.md:{closed_line}: `extensions` of Runner ({where}/extensions) admits undeclared "
        "members, but the prose does not name it as open",
        f"spec/SPEC.md:{closed_line}: `tags` of Runner ({where}/tags) admits undeclared members, but "
        "the prose does not name it as open",
        f"spec/SPEC.md:{ext_line}: `extensions` of Runner ({where}/extensions) admits undeclared "
        "members, but the Extension mechanism list does not name it as open",
        f"spec/SPEC.md:{ext_line}: `tags` of Runner ({where}/tags) admits undeclared members, but "
        "the Extension mechanism list does not name it as open",
    ]
    del runner["extensions"], runner["tags"]
    path.write_text(json.dumps(schema, indent=2) + "\n")
    params_line = edit(repo / "spec/SPEC.md", "`extra` on Provider,", "`extra` on Provider and Runner,")
    assert found() == [f"spec/SPEC.md:{params_line}: the Extension mechanism list names `extra` of Runner "
                       "as open, but Runner has no such member"]
