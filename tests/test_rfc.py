"""Tests of the RFC engine: front matter safety, lint rules (dates worked out by hand),
index staleness, status transitions and ``rfc new``. Every repository here is a temporary one."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
import textwrap
from pathlib import Path

import pytest

from evalport_spec.cli import main
from evalport_spec.errors import InputError
from evalport_spec.findings import Severity
from evalport_spec.rfc import (
    Change,
    index_findings,
    index_text,
    lint_rfcs,
    new_rfc,
    set_status,
    slugify,
    write_index,
)
from evalport_spec.rfc.dates import parse_changelog
from evalport_spec.rfc.frontmatter import dump, parse
from evalport_spec.rfc.model import find_rfc

D = dt.date

BODY = """
# RFC

## Summary
s
## The gap
g
## Proposal
p
## Validation rules
v
## Compatibility
c
## Non-goals
n
## Comment period
cp
## Questions
None open.
"""

DECIDED_BODY = BODY.replace("## Questions", "## Decision\nAccepted as proposed.\n## Questions")
"""An RFC body with the Decision section a decided RFC needs (rfc-decision-missing)."""

RESOLUTION = "resolution: https://github.com/evalport/spec/discussions/1#decision"

CHANGELOG = """# SPEC

## Changelog

### 1.1.0 — 2026-06-15 — MINOR

- Added `completed_at` (RFC 0002, MINOR).

### 1.0.0 — 2026-04-06 — INITIAL

- Initial release.
"""


def write_rfc(root: Path, name: str, fm: str, body: str = BODY) -> Path:
    p = root / "rfcs" / name
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text("---\n" + textwrap.dedent(fm).strip() + "\n---\n" + body, encoding="utf-8")
    return p


def comment_rfc(n: int = 7, opens: str = "2026-09-27", closes: str = "2026-10-11", extra: str = "") -> str:
    return f"""\
        number: {n}
        title: Something
        status: comment
        authors:
          - a
        created: 2026-09-20
        comment_period:
          opens: {opens}
          closes: {closes}
        discussion: https://github.com/evalport/spec/discussions/1
        affected_documents:
          - resultset
        declared_class: MINOR
        implemented_in: null
        {extra}"""


@pytest.fixture()
def repo(tmp_path: Path) -> Path:
    return make_rfc_repo(tmp_path)


def make_rfc_repo(tmp_path: Path) -> Path:
    """A spec repository with one release (1.1.0, its SPEC.md holding :data:`CHANGELOG`), an empty
    draft schemas folder and an empty ``rfcs/``."""
    rel = tmp_path / "spec" / "releases" / "1.1.0"
    (rel / "schemas").mkdir(parents=True)
    (rel / "SPEC.md").write_text(CHANGELOG, encoding="utf-8")
    (tmp_path / "spec" / "schemas").mkdir(parents=True)
    (tmp_path / "rfcs").mkdir()
    return tmp_path


def kinds(findings):
    return [(f.kind, f.new.line) for f in findings]


def tree_digest(root: Path) -> str:
    h = hashlib.sha256()
    for p in sorted(root.rglob("*")):
        if p.is_file() and ".lock" not in p.name:
            h.update(str(p.relative_to(root)).encode() + b"\0" + p.read_bytes())
    return h.hexdigest()


# --- bad input: one line, exit 2, nothing written ------------------------------------------------

def run_cli(root: Path, *argv: str, capsys) -> tuple[int, str, str]:
    code = main(["-C", str(root), "rfc", *argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(("fm", "needle", "line"), [
    ("number: 7\ntitle: [unclosed\n", "not valid YAML", 4),
    ("number: 7\ntitle: !!python/object/apply:os.system ['echo hi']\n", "tag 'tag:yaml.org,2002:python/object/apply:os.system'", 3),
    ("a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: [*b, *b, *b, *b, *b, *b, *b, *b, *b]\n",
     "alias '*a'", 3),
    ("- just\n- a list\n", "must be a YAML mapping", 2),
])
def test_unsafe_or_broken_front_matter_is_one_line_exit_2(repo, capsys, fm, needle, line):
    p = repo / "rfcs" / "0007-x.md"
    p.write_text("---\n" + fm + "---\n" + BODY, encoding="utf-8")
    before = tree_digest(repo)
    code, out, err = run_cli(repo, "lint", capsys=capsys)
    assert code == 2
    assert err.count("\n") == 1 and needle in err
    assert err.startswith(f"evalport-spec: error: rfcs/0007-x.md:{line}:")
    assert out == ""
    assert tree_digest(repo) == before


def test_huge_front_matter_refused_before_parsing(repo, capsys):
    p = repo / "rfcs" / "0007-x.md"
    p.write_text("---\n" + "k: " + "v" * 70_000 + "\n---\n" + BODY, encoding="utf-8")
    code, _, err = run_cli(repo, "lint", capsys=capsys)
    assert code == 2
    assert err == "evalport-spec: error: rfcs/0007-x.md:1: front matter is larger than 64 KiB; refusing to parse it\n"


def test_missing_front_matter(repo):
    p = repo / "rfcs" / "0007-x.md"
    p.write_text("# no front matter\n", encoding="utf-8")
    with pytest.raises(InputError, match="first line must be '---'"):
        lint_rfcs(repo, today=D(2026, 11, 30))


def test_a_byte_order_mark_before_the_front_matter_is_named(repo, capsys):
    """Session 35: an RFC saved with a BOM was told "the first line must be '---'", which it
    seems to be in most editors."""
    p = write_rfc(repo, "0007-x.md", comment_rfc())
    p.write_bytes(b"\xef\xbb\xbf" + p.read_bytes())
    code, _, err = run_cli(repo, "lint", capsys=capsys)
    assert (code, err) == (2, "evalport-spec: error: rfcs/0007-x.md:1:1: a byte-order mark (U+FEFF) before the "
                              "front matter's '---': save the file as UTF-8 without a BOM\n")


def test_title_escaping_rfcs_is_refused_and_nothing_written(repo, capsys):
    before = tree_digest(repo)
    code, out, err = run_cli(repo, "new", "../../etc/x", capsys=capsys)
    assert code == 2
    assert "would leave rfcs/" in err and err.count("\n") == 1
    assert tree_digest(repo) == before
    assert not (repo.parent / "etc").exists()


def test_number_already_taken(repo, capsys):
    write_rfc(repo, "0001-first.md", comment_rfc(1))
    before = tree_digest(repo)
    code, _, err = run_cli(repo, "new", "Another idea", "--number", "1", capsys=capsys)
    assert code == 2
    assert err == "evalport-spec: error: RFC number 1 is already taken by rfcs/0001-first.md\n"
    assert tree_digest(repo) == before


def test_unknown_status_refused(repo, capsys):
    write_rfc(repo, "0007-x.md", comment_rfc())
    before = tree_digest(repo)
    code, _, err = run_cli(repo, "status", "7", "approved", capsys=capsys)
    assert code == 2
    assert err.startswith("evalport-spec: error: unknown status 'approved' (expected one of draft, comment,")
    assert tree_digest(repo) == before


def _no_status_word(shown: str) -> str:
    """The one error line every ``rfc`` subcommand gives for RFC 0007 (rfcs/0007-x.md) whose
    ``status`` (line 4) is ``shown``, no status word (the list is RFC 0001's lifecycle)."""
    return (f"evalport-spec: error: rfcs/0007-x.md:4: RFC 0007 has status {shown}, which is no status word (one of "
            "draft, comment, accepted, rejected, deferred, withdrawn, implemented, superseded): fix its front "
            "matter (see `rfc lint`) first\n")


@pytest.mark.parametrize(("status", "shown"), [("ACCEPTED", "'ACCEPTED'"), ("[accepted]", "['accepted']"),
                                             ("null", "None")])
def test_accept_findings_names_a_status_that_is_no_status_word(repo, capsys, status, shown):
    """Session 34: ``status: ACCEPTED`` or ``[accepted]`` was reported as "RFC 0007 is
    ['accepted']: its decision record is closed", as if it were a decided status."""
    write_rfc(repo, "0007-x.md", comment_rfc().replace("status: comment", f"status: {status}")
              .replace("declared_class: MINOR", "declared_class: MAJOR"))
    before = tree_digest(repo)
    code, _, err = run_cli(repo, "accept-findings", "7", capsys=capsys)
    assert (code, err) == (2, _no_status_word(shown))
    assert tree_digest(repo) == before


@pytest.mark.parametrize(("status", "shown"), [("[comment]", "['comment']"), ("COMMENT", "'COMMENT'"),
                                             ("null", "None")])
def test_status_names_a_status_that_is_no_status_word(repo, capsys, status, shown):
    """Session 36: ``rfc status 7 comment`` on an RFC whose front matter says ``status: [comment]``
    ended in a traceback (``TypeError: unhashable type: 'list'``, exit 1); ``COMMENT`` gave a line
    naming no file. Both now as ``accept-findings`` says it, at the status line; nothing written."""
    write_rfc(repo, "0007-x.md", comment_rfc().replace("status: comment", f"status: {status}"))
    before = tree_digest(repo)
    code, _, err = run_cli(repo, "status", "7", "comment", "--closes", "2099-01-01", "--reason", "more time",
                           capsys=capsys)
    assert (code, err) == (2, _no_status_word(shown))
    assert tree_digest(repo) == before


@pytest.mark.parametrize(("status", "shown"), [("[accepted]", "['accepted']"), ("5", "5")])
def test_apply_names_a_status_that_is_no_status_word(repo, capsys, status, shown):
    """Session 36: ``rfc apply 7`` with ``status: [accepted]`` was a traceback (``TypeError:
    unhashable type: 'list'`` from the hint table, exit 1)."""
    write_rfc(repo, "0007-x.md", comment_rfc().replace("status: comment", f"status: {status}"))
    before = tree_digest(repo)
    code, _, err = run_cli(repo, "apply", "7", capsys=capsys)
    assert (code, err) == (2, _no_status_word(shown))
    assert tree_digest(repo) == before


def test_lint_names_a_key_a_status_forbids_not_the_whole_front_matter(repo):
    """``waiting_on`` is allowed only with status ``comment``: python-jsonschema's message for the
    schema's ``not`` printed the whole front matter as a Python dict, at line 1."""
    fm = comment_rfc(extra="waiting_on: a fixture").replace("status: comment", "status: ACCEPTED")
    write_rfc(repo, "0007-x.md", fm)
    found = [f for f in lint_rfcs(repo, today=D(2026, 9, 30)) if "waiting_on" in f.message]
    assert [(f.new.line, f.message) for f in found] == [
        (16, "front matter: 'waiting_on' not allowed with status 'ACCEPTED'")]


NOT_UTF8 = b"a\xed\xa0\x80b".decode("utf-8", "surrogateescape")  # how Python reads such an argv byte string


@pytest.mark.parametrize("argv", [["new", NOT_UTF8], ["new", "Fine", "--author", NOT_UTF8],
                                  ["status", "7", "comment", "--closes", "2026-12-01", "--reason", NOT_UTF8],
                                  ["status", "7", "accepted", "--approver", NOT_UTF8]])
def test_text_arguments_that_are_not_utf8_are_a_usage_error(repo, capsys, argv):
    """Session 35: bytes that are not UTF-8 in a title, author or reason reached the writer as
    lone surrogates: a UnicodeEncodeError traceback. Nothing is written."""
    write_rfc(repo, "0007-x.md", comment_rfc())
    before = tree_digest(repo)
    with pytest.raises(SystemExit) as exc:
        main(["-C", str(repo), "rfc", *argv])
    err = capsys.readouterr().err
    assert exc.value.code == 2 and len(err.splitlines()) == 1, err
    assert "not UTF-8 text: 'a\\udced\\udca0\\udc80b'" in err
    assert tree_digest(repo) == before


# --- front matter round trip ----------------------------------------------------------------------

def test_dump_round_trips_and_keeps_dates_as_strings():
    data = {"number": 3, "title": "Rate: a/b #1", "status": "comment", "authors": ["x y"],
            "created": "2026-09-20", "comment_period": {"opens": "2026-09-27", "closes": "2026-10-11"},
            "discussion": "https://github.com/evalport/spec/discussions/3", "references": ["#58", "o/r#2"],
            "affected_documents": [], "declared_class": "MINOR", "implemented_in": None, "odd": "yes"}
    fm = parse("---\n" + dump(data) + "---\nbody\n", "x.md")
    assert fm.data == data
    assert fm.lines["comment_period.closes"] == 10
    assert fm.body == "body\n"


# --- lint rules, dates worked out by hand ---------------------------------------------------------

def test_closed_period_without_decision_warns_with_day_count(repo):
    write_rfc(repo, "0007-x.md", comment_rfc())
    # 2026-10-11 -> 2026-11-30: 20 days left in October + 30 in November = 50.
    findings = lint_rfcs(repo, today=D(2026, 11, 30))
    assert kinds(findings) == [("rfc-period-closed-undecided", 4)]
    assert findings[0].severity == Severity.WARNING
    assert "closed 2026-10-11, 50 days ago" in findings[0].message
    # On the closing day itself the period is still open.
    assert lint_rfcs(repo, today=D(2026, 10, 11)) == []
    assert "1 day ago" in lint_rfcs(repo, today=D(2026, 10, 12))[0].message


def test_period_shorter_than_14_days(repo):
    # 2026-09-27 -> 2026-10-10 is 13 days.
    write_rfc(repo, "0007-x.md", comment_rfc(closes="2026-10-10"))
    findings = lint_rfcs(repo, today=D(2026, 10, 1))
    assert kinds(findings) == [("rfc-period-too-short", 10)]
    assert "lasts 13 days; at least 14 are required" in findings[0].message


def test_accepted_before_period_closed_is_an_error(repo):
    fm = comment_rfc(extra=f"decision_date: 2026-10-09\n        {RESOLUTION}").replace("status: comment",
                                                                                   "status: accepted")
    write_rfc(repo, "0007-x.md", fm, DECIDED_BODY)
    findings = lint_rfcs(repo, today=D(2026, 11, 30))
    assert kinds(findings) == [("rfc-decided-early", 16)]
    assert "decision dated 2026-10-09, before its comment period closed (2026-10-11)" in findings[0].message


def test_accepted_after_period_is_clean(repo):
    fm = comment_rfc(extra=f"decision_date: 2026-10-12\n        {RESOLUTION}").replace("status: comment",
                                                                                   "status: accepted")
    write_rfc(repo, "0007-x.md", fm, DECIDED_BODY)
    assert lint_rfcs(repo, today=D(2026, 11, 30)) == []


def test_future_dates_and_period_before_creation(repo):
    write_rfc(repo, "0007-x.md", comment_rfc(opens="2026-09-10", closes="2026-09-30"))
    findings = lint_rfcs(repo, today=D(2026, 9, 25))
    assert kinds(findings) == [("rfc-date-order", 9)]
    assert "opens 2026-09-10, before the RFC was created (2026-09-20)" in findings[0].message
    findings = lint_rfcs(repo, today=D(2026, 9, 1))
    assert ("rfc-date-order", 7) in kinds(findings)  # created 2026-09-20 is after 'today'


def test_front_matter_schema_errors_point_at_the_key(repo):
    fm = comment_rfc().replace("status: comment", "status: approved").replace("created: 2026-09-20",
                                                                              "created: 2026-02-30")
    write_rfc(repo, "0007-x.md", fm)
    findings = lint_rfcs(repo, today=D(2026, 9, 30))
    assert ("rfc-front-matter", 4) in kinds(findings)  # status
    assert ("rfc-front-matter", 7) in kinds(findings)  # not a calendar date
    assert any("'approved' is not one of" in f.message for f in findings)


def test_number_must_match_file_name_and_be_unique(repo):
    write_rfc(repo, "0007-x.md", comment_rfc(8))
    write_rfc(repo, "0008-y.md", comment_rfc(8))
    findings = lint_rfcs(repo, today=D(2026, 10, 1))
    assert ("rfc-number-mismatch", 2) in kinds(findings)
    assert [f.new.file for f in findings if f.kind == "rfc-number-mismatch"] == ["rfcs/0007-x.md"]


def implemented(n: int, version: str, decided: str = "2026-05-21") -> str:
    return (comment_rfc(n, "2026-05-04", "2026-05-18", f"decision_date: {decided}")
            .replace("status: comment", "status: implemented")
            .replace("implemented_in: null", f"implemented_in: {version}")
            .replace("created: 2026-09-20", "created: 2026-04-27"))


def test_implemented_release_must_exist_and_name_the_rfc(repo):
    write_rfc(repo, "0002-ok.md", implemented(2, "1.1.0"), DECIDED_BODY)
    write_rfc(repo, "0003-missing.md", implemented(3, "1.2.0"), DECIDED_BODY)
    write_rfc(repo, "0004-unnamed.md", implemented(4, "1.1.0"), DECIDED_BODY)
    findings = lint_rfcs(repo, today=D(2026, 11, 30), classes=False)
    assert [(f.new.file, f.kind) for f in findings] == [
        ("rfcs/0003-missing.md", "rfc-release-missing"),
        ("rfcs/0004-unnamed.md", "rfc-not-in-changelog")]
    assert "no release spec/releases/1.2.0/ (releases: 1.1.0)" in findings[0].message
    assert "does not name RFC 0004" in findings[1].message


def test_released_before_decision(repo):
    write_rfc(repo, "0002-ok.md", implemented(2, "1.1.0", decided="2026-06-20"), DECIDED_BODY)
    findings = lint_rfcs(repo, today=D(2026, 11, 30), classes=False)
    assert kinds(findings) == [("rfc-released-before-decision", 15)]


def test_required_sections_and_references(repo):
    body = BODY.replace("## Non-goals\n", "## Nongoals\n") + "\nSee [x](http://example.com/a) and #0.\n"
    write_rfc(repo, "0007-x.md", comment_rfc(), body)
    findings = lint_rfcs(repo, today=D(2026, 10, 1))
    assert ("rfc-section-missing", 16) in kinds(findings)
    refs = [f.message for f in findings if f.kind == "rfc-reference"]
    assert refs == ["link http://example.com/a is not https", "issue reference #0 is malformed (#N, N >= 1)"]
    write_rfc(repo, "0007-x.md", comment_rfc().replace("https://github.com", "http://github.com"))
    assert ("rfc-front-matter", 11) in kinds(lint_rfcs(repo, today=D(2026, 10, 1)))


def test_example_blocks_must_be_json_of_a_known_type(repo):
    body = BODY + "\n```json evalport-resultset\n{\"a\": 1,}\n```\n\n```json evalport-report\n{}\n```\n"
    write_rfc(repo, "0007-x.md", comment_rfc(), body)
    findings = [f for f in lint_rfcs(repo, today=D(2026, 10, 1)) if f.kind == "rfc-example"]
    assert len(findings) == 2
    assert "not valid JSON" in findings[0].message
    assert "evalport-report is not one of" in findings[1].message


def test_changelog_parsing():
    entries = parse_changelog(CHANGELOG)
    assert entries["1.1.0"].rfcs == {2}
    assert entries["1.1.0"].date == D(2026, 6, 15)
    assert entries["1.0.0"].change_class is None


# --- index ------------------------------------------------------------------------------------------

def test_index_staleness(repo, capsys):
    write_rfc(repo, "0007-x.md", comment_rfc())
    assert [f.kind for f in index_findings(repo)] == ["rfc-index-stale"]
    write_index(repo)
    assert index_findings(repo) == []
    text = (repo / "rfcs" / "README.md").read_text()
    assert "| [0007](0007-x.md) | Something | comment | 2026-09-27 to 2026-10-11 | MINOR | — |" in text
    p = repo / "rfcs" / "0007-x.md"
    p.write_text(p.read_text().replace("title: Something", "title: Something else"))
    assert index_text(repo) != text
    code, out, _ = run_cli(repo, "index", "--check", capsys=capsys)
    assert code == 1 and out.startswith("rfcs/README.md:1:") and "rfcs/README.md is out of date" in out
    assert run_cli(repo, "index", capsys=capsys)[0] == 0
    assert run_cli(repo, "index", "--check", capsys=capsys)[0] == 0


# --- status transitions -----------------------------------------------------------------------------

def draft(n: int = 7) -> str:
    return comment_rfc(n).replace("status: comment", "status: draft").replace(
        "comment_period:\n          opens: 2026-09-27\n          closes: 2026-10-11\n        ", "")


def test_draft_to_comment_sets_a_14_day_period(repo):
    write_rfc(repo, "0007-x.md", draft())
    set_status(repo, 7, "comment", today=D(2026, 12, 1))
    meta = find_rfc(repo, 7).meta
    assert meta["status"] == "comment"
    assert meta["comment_period"] == {"opens": "2026-12-01", "closes": "2026-12-15"}
    assert find_rfc(repo, 7).fm.body == BODY


def test_comment_period_explicit_and_too_short(repo):
    write_rfc(repo, "0007-x.md", draft())
    with pytest.raises(InputError, match="lasts 10 days"):
        set_status(repo, 7, "comment", Change(opens=D(2026, 12, 1), closes=D(2026, 12, 11)), today=D(2026, 12, 1))
    set_status(repo, 7, "comment", Change(opens=D(2026, 12, 3), closes=D(2026, 12, 20)), today=D(2026, 12, 1))
    assert find_rfc(repo, 7).meta["comment_period"] == {"opens": "2026-12-03", "closes": "2026-12-20"}


def test_accept_only_after_the_period_and_then_implement(repo):
    write_rfc(repo, "0007-x.md", comment_rfc(), DECIDED_BODY)
    decision = Change(resolution="https://github.com/evalport/spec/discussions/1#accept")
    with pytest.raises(InputError, match="closes 2026-10-11; it can be accepted from 2026-10-12 on, not 2026-10-11"):
        set_status(repo, 7, "accepted", decision, today=D(2026, 10, 11))
    set_status(repo, 7, "accepted", decision, today=D(2026, 10, 12))
    assert find_rfc(repo, 7).meta["decision_date"] == "2026-10-12"
    with pytest.raises(InputError, match=r"no release 1\.2\.0"):
        set_status(repo, 7, "implemented", Change(release="1.2.0"), today=D(2026, 11, 1))
    # one rule set with lint: 1.1.0 (2026-06-15) predates the decision and does not name the RFC
    with pytest.raises(InputError, match="refused: rfc lint would reject the result: implemented_in 1.1.0, "
                                         "but the 1.1.0 changelog entry does not name RFC 0007"):
        set_status(repo, 7, "implemented", Change(release="1.1.0"), today=D(2026, 11, 1))
    rel = repo / "spec" / "releases" / "1.2.0"
    (rel / "schemas").mkdir(parents=True)
    (rel / "SPEC.md").write_text("# SPEC\n\n## Changelog\n\n### 1.2.0 — 2026-10-30 — MINOR\n\n- RFC 0007.\n")
    set_status(repo, 7, "implemented", Change(release="1.2.0"), today=D(2026, 11, 1))
    meta = find_rfc(repo, 7).meta
    assert (meta["status"], meta["implemented_in"]) == ("implemented", "1.2.0")


@pytest.mark.parametrize(("start", "to", "msg"), [
    ("draft", "accepted", "cannot go from draft to accepted (allowed from draft: comment, superseded, withdrawn)"),
    ("comment", "implemented", "cannot go from comment to implemented"),
])
def test_disallowed_transitions(repo, start, to, msg):
    write_rfc(repo, "0007-x.md", draft() if start == "draft" else comment_rfc())
    before = tree_digest(repo)
    with pytest.raises(InputError, match=msg.replace("(", r"\(").replace(")", r"\)")):
        set_status(repo, 7, to, today=D(2026, 11, 1))
    assert tree_digest(repo) == before


def test_a_refused_transition_names_the_rfcs_file_at_its_status_line(repo, capsys):
    """fresh36: `rfc status` refusals computed by status.plan (which knows no file) named the RFC
    (`RFC 7: its comment period closes ...`) but not its file, unlike every other error. The
    status line (line 4 of rfcs/0007-x.md, counted in comment_rfc) is the line a transition rewrites."""
    write_rfc(repo, "0007-x.md", comment_rfc(), DECIDED_BODY)
    decision = Change(resolution="https://github.com/evalport/spec/discussions/1#accept")
    with pytest.raises(InputError) as info:
        set_status(repo, 7, "accepted", decision, today=D(2026, 10, 11))
    assert (info.value.source, info.value.line) == ("rfcs/0007-x.md", 4)
    assert info.value.message.startswith("RFC 7: its comment period closes 2026-10-11;")
    write_rfc(repo, "0007-x.md", draft())
    before = tree_digest(repo)
    code, _, err = run_cli(repo, "status", "7", "accepted", capsys=capsys)
    assert (code, err) == (2, "evalport-spec: error: rfcs/0007-x.md:4: RFC 7: cannot go from draft to accepted "
                              "(allowed from draft: comment, superseded, withdrawn)\n")
    assert tree_digest(repo) == before


def test_extend_comment_period_and_supersede(repo):
    write_rfc(repo, "0007-x.md", comment_rfc())
    write_rfc(repo, "0008-y.md", draft(8))
    with pytest.raises(InputError, match="does not extend"):
        set_status(repo, 7, "comment", Change(closes=D(2026, 10, 1), reason="r"), today=D(2026, 10, 1))
    with pytest.raises(InputError, match="extend it with --closes DATE --reason TEXT"):
        set_status(repo, 7, "comment", Change(closes=D(2026, 12, 14)), today=D(2026, 10, 1))
    set_status(repo, 7, "comment", Change(closes=D(2026, 12, 14), reason="a second implementer asked for time"),
               today=D(2026, 10, 1))
    meta = find_rfc(repo, 7).meta
    assert meta["comment_period"] == {"opens": "2026-09-27", "closes": "2026-12-14"}
    assert meta["period_history"] == [{"opens": "2026-09-27", "closes": "2026-10-11",
                                       "reason": "a second implementer asked for time"}]
    with pytest.raises(InputError, match="--by 7: not another RFC"):
        set_status(repo, 7, "superseded", Change(by=7), today=D(2026, 10, 1))
    set_status(repo, 7, "superseded", Change(by=8), today=D(2026, 10, 1))
    assert find_rfc(repo, 7).meta["superseded_by"] == 8
    assert lint_rfcs(repo, [repo / "rfcs" / "0007-x.md"], today=D(2026, 10, 2)) == []


# --- new --------------------------------------------------------------------------------------------

def test_slugify():
    assert slugify("Rate denominators: trials/successes (GraderResult)") == "rate-denominators-trials-successes-graderresult"
    assert slugify("Équipe  naïve") == "equipe-naive"
    with pytest.raises(InputError):
        slugify("!!!")


def test_new_rfc_next_number_template_and_no_overwrite(repo, capsys):
    write_rfc(repo, "0002-old.md", comment_rfc(2))
    (repo / "rfcs" / "0003-proposal-only").mkdir()
    path = new_rfc(repo, "Hard constraints", "Ada", today=D(2026, 12, 1))
    assert path.name == "0004-hard-constraints.md"
    meta = find_rfc(repo, 4).meta
    assert (meta["status"], meta["created"], meta["authors"]) == ("draft", "2026-12-01", ["Ada"])
    findings = lint_rfcs(repo, [path], today=D(2026, 12, 1))
    # a fresh template is well-formed (no errors) but unfilled: warnings only (see below)
    assert {f.kind for f in findings} == {"rfc-template-unfilled"}
    assert all(f.severity == Severity.WARNING for f in findings)
    with pytest.raises(InputError, match="already taken"):
        new_rfc(repo, "Hard constraints", number=4)
    code, out, _ = run_cli(repo, "new", "Second idea", capsys=capsys)
    assert code == 0 and out.strip() == "rfcs/0005-second-idea.md"
    assert "0005-second-idea.md" in (repo / "rfcs" / "README.md").read_text()


# --- named-file lint, periods that close before they open, slug clashes, --format json ------------

BROKEN = "---\nnumber: 9\ntitle: [unclosed\n---\n" + BODY


def test_lint_of_named_file_is_not_blocked_by_a_broken_other_rfc(repo, capsys):
    write_rfc(repo, "0007-x.md", comment_rfc())
    (repo / "rfcs" / "0009-broken.md").write_text(BROKEN, encoding="utf-8")
    findings = lint_rfcs(repo, ["rfcs/0007-x.md"], today=D(2026, 10, 1))
    assert [(f.kind, f.severity, f.new.file) for f in findings] == [
        ("rfc-other-unreadable", Severity.WARNING, "rfcs/0009-broken.md")]
    assert "not linted (only the named files are) and cannot be read: front matter is not valid YAML" \
        in findings[0].message
    code, out, err = run_cli(repo, "lint", "rfcs/0007-x.md", "--today", "2026-10-01", capsys=capsys)
    assert code == 0 and err == "" and "rfcs/0009-broken.md" in out and "warning" in out
    # the broken file itself, named or in a lint of everything, is still an input error (exit 2)
    code, _, err = run_cli(repo, "lint", "rfcs/0009-broken.md", capsys=capsys)
    assert code == 2 and err.startswith("evalport-spec: error: rfcs/0009-broken.md:")
    code, _, err = run_cli(repo, "lint", capsys=capsys)
    assert code == 2 and "rfcs/0009-broken.md" in err


def test_duplicate_number_counts_an_unreadable_file_by_its_name(repo):
    # 0007-a.md sorts before 0007-x.md, so 0007-x.md is the duplicate even though 0007-a.md is broken
    write_rfc(repo, "0007-x.md", comment_rfc())
    (repo / "rfcs" / "0007-a.md").write_text(BROKEN.replace("number: 9", "number: 7"), encoding="utf-8")
    findings = lint_rfcs(repo, ["rfcs/0007-x.md"], today=D(2026, 10, 1))
    assert sorted((f.kind, f.new.file, f.severity) for f in findings) == [
        ("rfc-duplicate-number", "rfcs/0007-x.md", Severity.ERROR),
        ("rfc-other-unreadable", "rfcs/0007-a.md", Severity.WARNING)]
    dup = next(f for f in findings if f.kind == "rfc-duplicate-number")
    assert dup.message == "RFC number 7 is also used by rfcs/0007-a.md"


def test_period_that_closes_before_it_opens(repo):
    write_rfc(repo, "0007-x.md", draft())
    before = tree_digest(repo)
    with pytest.raises(InputError) as info:
        set_status(repo, 7, "comment", Change(opens=D(2026, 12, 10), closes=D(2026, 12, 1)), today=D(2026, 11, 30))
    assert info.value.message == ("comment period 2026-12-10 to 2026-12-01 closes before it opens; the "
                                  "closing date must be at least 14 days after the opening date")
    assert tree_digest(repo) == before
    write_rfc(repo, "0008-y.md", comment_rfc(8, opens="2026-10-11", closes="2026-09-27"))
    (f,) = [f for f in lint_rfcs(repo, ["rfcs/0008-y.md"], today=D(2026, 9, 21))
            if f.kind == "rfc-period-too-short"]
    assert f.message == ("comment period 2026-10-11 to 2026-09-27 closes before it opens; at least 14 "
                         "days are required")


def test_new_rfc_with_a_slug_already_used_warns_and_overwrites_nothing(repo, capsys):
    old = write_rfc(repo, "0003-hard-constraints.md", comment_rfc(3))
    before = old.read_bytes()
    code, out, err = run_cli(repo, "new", "Hard constraints", "--today", "2026-12-01", capsys=capsys)
    assert code == 0 and out == "rfcs/0004-hard-constraints.md\n"
    assert err == ("evalport-spec rfc new: warning: rfcs/0003-hard-constraints.md already uses the slug "
                   "'hard-constraints'; rfcs/0004-hard-constraints.md was created beside it under its own "
                   "number (nothing was overwritten); consider a more specific title\n")
    assert old.read_bytes() == before
    code, out, err = run_cli(repo, "new", "Something else", "--format", "json", "--today", "2026-12-01",
                             capsys=capsys)
    assert code == 0 and err == ""
    assert json.loads(out) == {"path": "rfcs/0005-something-else.md", "number": 5, "status": "draft",
                               "index": "rfcs/README.md", "warnings": []}


def test_status_and_index_json_name_the_files_written(repo, capsys):
    write_rfc(repo, "0007-x.md", draft())
    code, out, _ = run_cli(repo, "status", "7", "comment", "--format", "json", "--today", "2026-12-01",
                           capsys=capsys)
    assert code == 0
    assert json.loads(out) == {"path": "rfcs/0007-x.md", "number": 7, "status": "comment",
                               "index": "rfcs/README.md"}
    code, out, _ = run_cli(repo, "index", "--format", "json", capsys=capsys)
    assert code == 0 and json.loads(out) == {"path": "rfcs/README.md", "changed": False}  # status wrote it


def test_index_says_when_nothing_changed(repo, capsys):
    """fresh36: `rfc index` printed "wrote rfcs/README.md" when the index was already current."""
    write_rfc(repo, "0007-x.md", comment_rfc())
    assert run_cli(repo, "index", capsys=capsys)[:2] == (0, "wrote rfcs/README.md\n")
    index = repo / "rfcs" / "README.md"
    os.utime(index, (1_000_000_000, 1_000_000_000))
    assert run_cli(repo, "index", capsys=capsys)[:2] == (0, "rfcs/README.md is up to date (unchanged)\n")
    assert index.stat().st_mtime == 1_000_000_000  # not rewritten
    code, out, _ = run_cli(repo, "index", "--format", "json", capsys=capsys)
    assert code == 0 and json.loads(out) == {"path": "rfcs/README.md", "changed": False}
    index.write_text(index.read_text() + "edited by hand\n")
    code, out, _ = run_cli(repo, "index", "--format", "json", capsys=capsys)
    assert code == 0 and json.loads(out) == {"path": "rfcs/README.md", "changed": True}


def test_rfc_0003_states_the_threads_net_result():
    """Issue 12: the thread kept the members as sketched and added three refinements; RFC 0003
    says exactly that (the four clauses below, worded as the issue states them) and calls nothing
    of it superseded. SPEC.md's DUPLICATE_ATTEMPT agrees: Results without ``attempt`` are not
    compared."""
    root = Path(__file__).resolve().parents[1]
    text = " ".join((root / "rfcs" / "0003-repetitions.md").read_text(encoding="utf-8").split())
    spec = (root / "spec" / "SPEC.md").read_text(encoding="utf-8")
    assert "Results without `attempt` are not compared." in spec
    assert "supersed" not in text.lower()
    for clause in ("absent or 1 is a single attempt", "a producer that cannot tell says `unknown`",
                   "uniqueness applies only where `attempt` is present",
                   "isolation agrees within a group or is omitted by all"):
        assert clause in text


# --- an unfilled template warns (rfc-template-unfilled) ---------------------------------------------

def test_fresh_template_warns_per_unfilled_part(repo, capsys):
    """`rfc new` front matter: line 8 discussion (the index URL), line 9 ``affected_documents: []``;
    the body's H2 headings at lines 16, 20, 24, 31, 36, 40, 44 still hold the placeholder text;
    '## Questions' (line 48, "None open.") is a valid answer and does not warn."""
    path = new_rfc(repo, "Some idea", "Ada", today=D(2026, 12, 1))
    findings = lint_rfcs(repo, [path], today=D(2026, 12, 1))
    assert kinds(findings) == [("rfc-template-unfilled", n) for n in (8, 9, 16, 20, 24, 31, 36, 40, 44)]
    assert all(f.severity == Severity.WARNING for f in findings)
    code, out, _ = run_cli(repo, "lint", "--today", "2026-12-01", capsys=capsys)
    assert code == 0  # warnings do not fail lint
    assert "0001-some-idea.md:24: warning rfc-template-unfilled: section '## Proposal' still holds" in out


def test_filled_template_parts_stop_warning(repo):
    path = new_rfc(repo, "Some idea", "Ada", today=D(2026, 12, 1))
    text = path.read_text(encoding="utf-8")
    text = text.replace("discussion: https://github.com/evalport/spec/discussions",
                        "discussion: https://github.com/evalport/spec/discussions/42")
    text = text.replace("affected_documents: []", "affected_documents:\n- resultset")
    text = text.replace("One paragraph: what changes, for whom, and why now.", "Adds rate fields.")
    text = text.replace("## The gap\n", "## The gap\n\nProducers cannot state trials.\n")
    path.write_text(text, encoding="utf-8")
    findings = lint_rfcs(repo, [path], today=D(2026, 12, 1))
    msgs = [f.message for f in findings]
    assert not any("discussion" in m or "affected_documents" in m or "'## Summary'" in m for m in msgs)
    # placeholder kept below the author's own text still counts as unfilled
    assert any("'## The gap'" in m for m in msgs) and len(findings) == 6


def test_hand_written_rfc_does_not_warn_as_template(repo):
    write_rfc(repo, "0007-something.md", comment_rfc(7, extra="") )
    findings = lint_rfcs(repo, [repo / "rfcs/0007-something.md"], today=D(2026, 9, 28))
    assert [f for f in findings if f.kind == "rfc-template-unfilled"] == []
