"""Decision records (issue 12) and one rule set for ``rfc new``/``rfc status``/``rfc lint``
(issue 14): resolution, chosen option, approvers, deferral, period history, waiting without a
date, supersession cycles, the RFC-only guard. Dates are worked out by hand in each test."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from evalport_spec.errors import InputError
from evalport_spec.rfc import Change, lint_rfcs, new_rfc, set_status
from evalport_spec.rfc.frontmatter import dump, parse
from evalport_spec.rfc.model import find_rfc
from test_rfc import (
    BODY,
    DECIDED_BODY,
    comment_rfc,
    draft,
    kinds,
    make_rfc_repo,
    run_cli,
    tree_digest,
    write_rfc,
)

D = dt.date
LINK = "https://github.com/evalport/spec/discussions/7#decision"

OPTIONS_BODY = BODY.replace("## Proposal\np\n", "## Options\n\n**Option A: fields.** a\n\n**Option B: flags.** b\n")
"""A body whose Options section names options A and B (and no Proposal section)."""


@pytest.fixture()
def repo(tmp_path: Path) -> Path:
    return make_rfc_repo(tmp_path)


def accepted(extra: str = "", declared: str = "MINOR") -> str:
    return (comment_rfc(extra=f"decision_date: 2026-10-12\n        resolution: {LINK}\n        {extra}")
            .replace("status: comment", "status: accepted").replace("declared_class: MINOR",
                                                                   f"declared_class: {declared}"))


# --- lint: the decision record ----------------------------------------------------------------------

def test_decided_rfc_needs_a_decision_section(repo):
    write_rfc(repo, "0007-x.md", accepted())  # BODY has no '## Decision'
    findings = lint_rfcs(repo, today=D(2026, 11, 30))
    assert kinds(findings) == [("rfc-decision-missing", 4)]  # at the status line
    write_rfc(repo, "0007-x.md", accepted(), BODY.replace("## Questions", "## Decision\n\n## Questions"))
    assert "no non-empty '## Decision'" in lint_rfcs(repo, today=D(2026, 11, 30))[0].message
    write_rfc(repo, "0007-x.md", accepted(), DECIDED_BODY)
    assert lint_rfcs(repo, today=D(2026, 11, 30)) == []


def test_accepted_with_options_records_one_of_them(repo):
    body = OPTIONS_BODY.replace("## Questions", "## Decision\nOption A.\n## Questions")
    write_rfc(repo, "0007-x.md", accepted(), body)
    findings = lint_rfcs(repo, today=D(2026, 11, 30))
    assert kinds(findings) == [("rfc-option-missing", 4)]
    assert "the Options section names A, B" in findings[0].message
    write_rfc(repo, "0007-x.md", accepted("chosen_option: C"), body)
    [f] = lint_rfcs(repo, today=D(2026, 11, 30))
    assert (f.kind, f.new.line) == ("rfc-option-missing", 18)  # the chosen_option line
    write_rfc(repo, "0007-x.md", accepted("chosen_option: A"), body)
    assert lint_rfcs(repo, today=D(2026, 11, 30)) == []


@pytest.mark.parametrize("sentence", [
    "No decision has been recorded since it closed.",
    "Options A, B and C and the five questions below are all still open.",
    "Every option is still open.",
    "All three options remain on the table.",
    "The three options and the five questions below are all still open.",
])
def test_accepted_rfc_whose_text_says_the_options_are_open(repo, sentence):
    body = OPTIONS_BODY.replace("## Questions", f"## Decision\nOption A.\n\n{sentence}\n## Questions")
    write_rfc(repo, "0007-x.md", accepted("chosen_option: A"), body)
    findings = lint_rfcs(repo, today=D(2026, 11, 30))
    assert [f.kind for f in findings] == ["rfc-options-open"]
    # the same text is fine while the RFC is still in comment: the options are open then
    write_rfc(repo, "0007-x.md", comment_rfc(), body)
    assert [f.kind for f in lint_rfcs(repo, today=D(2026, 10, 1))] == []


def test_major_needs_the_spec_leads_approval(repo):
    write_rfc(repo, "0007-x.md", accepted(declared="MAJOR"), DECIDED_BODY)
    assert [f.kind for f in lint_rfcs(repo, today=D(2026, 11, 30), classes=False)] == ["rfc-approval-missing"]
    maintainer = "approvers:\n          - name: Bo\n            role: maintainer"
    write_rfc(repo, "0007-x.md", accepted(maintainer, declared="MAJOR"), DECIDED_BODY)
    assert [f.kind for f in lint_rfcs(repo, today=D(2026, 11, 30), classes=False)] == ["rfc-approval-missing"]
    lead = maintainer + "\n          - name: Ana\n            role: spec-lead"
    write_rfc(repo, "0007-x.md", accepted(lead, declared="MAJOR"), DECIDED_BODY)
    assert lint_rfcs(repo, today=D(2026, 11, 30), classes=False) == []


def test_period_history_must_grow_and_each_entry_last_14_days(repo):
    # earlier period 2026-09-21 -> 2026-10-05 (14 days), extended to 2026-10-11 (the one in force)
    ok = ("period_history:\n          - opens: 2026-09-21\n            closes: 2026-10-05\n"
          "            reason: a reviewer asked for more time")
    write_rfc(repo, "0007-x.md", comment_rfc(opens="2026-09-21", extra=ok))
    assert lint_rfcs(repo, today=D(2026, 10, 1)) == []
    # 2026-09-21 -> 2026-09-30 is 9 days
    write_rfc(repo, "0007-x.md", comment_rfc(opens="2026-09-21", extra=ok.replace("2026-10-05", "2026-09-30")))
    assert [f.kind for f in lint_rfcs(repo, today=D(2026, 10, 1))] == ["rfc-period-too-short"]
    # an earlier period closing after the one in force (2026-10-20 > 2026-10-11) is a shortening
    write_rfc(repo, "0007-x.md", comment_rfc(opens="2026-09-21", extra=ok.replace("2026-10-05", "2026-10-20")))
    [f] = lint_rfcs(repo, today=D(2026, 10, 1))
    assert f.kind == "rfc-period-history"
    assert "the period 2026-09-21 to 2026-10-20 is followed by 2026-09-21 to 2026-10-11" in f.message
    write_rfc(repo, "0007-x.md", comment_rfc(opens="2026-09-21", extra=ok.replace("reason:", "why:")))
    assert "rfc-front-matter" in [f.kind for f in lint_rfcs(repo, today=D(2026, 10, 1))]


def test_waiting_rfc_is_information_not_a_stale_period(repo):
    write_rfc(repo, "0007-x.md", comment_rfc(extra="waiting_on: a fixture from a real run"))
    [f] = lint_rfcs(repo, today=D(2026, 11, 30))
    assert (f.kind, f.severity.name) == ("rfc-waiting", "INFO")
    assert f.message == ("comment period closed 2026-10-11 and stays open with no closing date, waiting on a "
                         "fixture from a real run")
    # waiting belongs to the comment status only
    write_rfc(repo, "0007-x.md", accepted("waiting_on: x"), DECIDED_BODY)
    assert "rfc-front-matter" in [f.kind for f in lint_rfcs(repo, today=D(2026, 11, 30))]


def test_supersession_cycles_and_unknown_targets(repo):
    sup = (draft(7).replace("status: draft", "status: superseded") + "\n        superseded_by: 8")
    write_rfc(repo, "0007-x.md", sup)
    write_rfc(repo, "0008-y.md", draft(8).replace("status: draft", "status: superseded") + "\n        superseded_by: 7")
    found = [(f.kind, f.new.file) for f in lint_rfcs(repo, today=D(2026, 10, 1))]
    assert found == [("rfc-supersession-cycle", "rfcs/0007-x.md"), ("rfc-supersession-cycle", "rfcs/0008-y.md")]
    write_rfc(repo, "0008-y.md", draft(8))
    assert lint_rfcs(repo, today=D(2026, 10, 1)) == []
    write_rfc(repo, "0007-x.md", sup.replace("superseded_by: 8", "superseded_by: 9"))
    assert [f.kind for f in lint_rfcs(repo, today=D(2026, 10, 1))] == ["rfc-superseded-unknown"]


# --- status: the same rules, refused before anything is written -------------------------------------

def test_backdated_period_then_same_day_acceptance_is_refused(repo, capsys):
    """Issue 14: `rfc status 7 comment --opens 2026-11-01` then `accepted` the same day both
    succeeded, skipping the 14 days. A period cannot open before today, so the acceptance can
    only come 15 days after the real opening."""
    write_rfc(repo, "0007-x.md", draft().replace("created: 2026-09-20", "created: 2026-10-20"), DECIDED_BODY)
    before = tree_digest(repo)
    code, out, err = run_cli(repo, "status", "7", "comment", "--opens", "2026-11-01", "--today", "2026-12-01",
                             capsys=capsys)
    assert (code, out) == (2, "") and err.count("\n") == 1
    assert "--opens 2026-11-01 is in the past (today is 2026-12-01)" in err
    assert tree_digest(repo) == before
    assert run_cli(repo, "status", "7", "comment", "--today", "2026-12-01", capsys=capsys)[0] == 0
    code, _, err = run_cli(repo, "status", "7", "accepted", "--resolution", LINK, "--today", "2026-12-01",
                           capsys=capsys)
    assert code == 2 and "closes 2026-12-15; it can be accepted from 2026-12-16 on" in err
    assert run_cli(repo, "status", "7", "accepted", "--resolution", LINK, "--today", "2026-12-16",
                   capsys=capsys)[0] == 0


def test_acceptance_is_refused_when_lint_would_reject_the_result(repo):
    write_rfc(repo, "0007-x.md", comment_rfc(), OPTIONS_BODY)  # no Decision section yet
    before = tree_digest(repo)
    with pytest.raises(InputError, match="refused: rfc lint would reject the result: status is accepted but "
                                         "there is no '## Decision' section"):
        set_status(repo, 7, "accepted", Change(resolution=LINK, option="A"), today=D(2026, 10, 12))
    with pytest.raises(InputError, match="accepted needs --resolution URL"):
        set_status(repo, 7, "accepted", Change(option="A"), today=D(2026, 10, 12))
    assert tree_digest(repo) == before
    write_rfc(repo, "0007-x.md", comment_rfc(), OPTIONS_BODY.replace("## Questions", "## Decision\nA.\n## Questions"))
    with pytest.raises(InputError, match="chosen_option 'C' is not one of the options"):
        set_status(repo, 7, "accepted", Change(resolution=LINK, option="C"), today=D(2026, 10, 12))
    set_status(repo, 7, "accepted", Change(resolution=LINK, option="A", approvers=[("Bo", "maintainer")]),
               today=D(2026, 10, 12))
    meta = find_rfc(repo, 7).meta
    assert (meta["decision_date"], meta["resolution"], meta["chosen_option"], meta["approvers"]) == (
        "2026-10-12", LINK, "A", [{"name": "Bo", "role": "maintainer"}])


def test_major_acceptance_needs_the_spec_lead(repo):
    write_rfc(repo, "0007-x.md", comment_rfc().replace("declared_class: MINOR", "declared_class: MAJOR"),
              DECIDED_BODY)
    with pytest.raises(InputError, match="without the spec lead's sign-off"):
        set_status(repo, 7, "accepted", Change(resolution=LINK), today=D(2026, 10, 12))
    set_status(repo, 7, "accepted", Change(resolution=LINK, approvers=[("Ana", "spec-lead")]), today=D(2026, 10, 12))
    assert find_rfc(repo, 7).meta["approvers"] == [{"name": "Ana", "role": "spec-lead"}]


def test_defer_then_reopen_keeps_the_history(repo):
    write_rfc(repo, "0007-x.md", comment_rfc(), DECIDED_BODY)
    set_status(repo, 7, "deferred", Change(resolution=LINK, date=D(2026, 10, 20)), today=D(2026, 10, 20))
    meta = find_rfc(repo, 7).meta
    assert (meta["status"], meta["decision_date"], meta["resolution"]) == ("deferred", "2026-10-20", LINK)
    with pytest.raises(InputError, match="reopening it needs --reason TEXT"):
        set_status(repo, 7, "comment", today=D(2026, 11, 2))
    set_status(repo, 7, "comment", Change(reason="a second implementation is ready"), today=D(2026, 11, 2))
    meta = find_rfc(repo, 7).meta
    # reopened today for the default 14 days: 2026-11-02 + 14 = 2026-11-16
    assert meta["comment_period"] == {"opens": "2026-11-02", "closes": "2026-11-16"}
    assert meta["period_history"] == [{
        "opens": "2026-09-27", "closes": "2026-10-11",
        "reason": f"deferred on 2026-10-20 ({LINK}); reopened: a second implementation is ready"}]
    assert "decision_date" not in meta and "resolution" not in meta
    assert lint_rfcs(repo, today=D(2026, 11, 3)) == []


def test_waiting_extension_then_a_dated_one(repo):
    write_rfc(repo, "0007-x.md", comment_rfc(), DECIDED_BODY)
    set_status(repo, 7, "comment", Change(waiting_on="a fixture from a real run"), today=D(2026, 10, 5))
    meta = find_rfc(repo, 7).meta
    assert meta["waiting_on"] == "a fixture from a real run"
    assert meta["comment_period"] == {"opens": "2026-09-27", "closes": "2026-10-11"}  # no date invented
    with pytest.raises(InputError, match="is waiting on a fixture from a real run: end the wait first"):
        set_status(repo, 7, "accepted", Change(resolution=LINK), today=D(2026, 11, 1))
    set_status(repo, 7, "comment", Change(closes=D(2026, 11, 20), reason="the fixture arrived"), today=D(2026, 11, 1))
    meta = find_rfc(repo, 7).meta
    assert "waiting_on" not in meta
    assert meta["comment_period"] == {"opens": "2026-09-27", "closes": "2026-11-20"}
    assert meta["period_history"] == [{
        "opens": "2026-09-27", "closes": "2026-10-11",
        "reason": "extended with no closing date, waiting on a fixture from a real run; then: the fixture arrived"}]
    set_status(repo, 7, "accepted", Change(resolution=LINK), today=D(2026, 11, 21))


def test_superseding_into_a_cycle_is_refused(repo):
    write_rfc(repo, "0007-x.md", comment_rfc())
    write_rfc(repo, "0008-y.md", draft(8).replace("status: draft", "status: superseded") + "\n        superseded_by: 7")
    before = tree_digest(repo)
    with pytest.raises(InputError, match=r"superseded_by leads back to this RFC \(RFC 0007 -> RFC 0008 -> RFC 0007\)"):
        set_status(repo, 7, "superseded", Change(by=8), today=D(2026, 10, 1))
    assert tree_digest(repo) == before


# --- new: --class, --documents, and what lint would reject ------------------------------------------

def test_new_takes_class_and_documents(repo, capsys):
    code, out, _ = run_cli(repo, "new", "Stricter error codes", "--class", "MAJOR", "--documents", "resultset,grader",
                           "--documents", "suite", "--today", "2026-12-01", capsys=capsys)
    assert code == 0
    meta = find_rfc(repo, 1).meta
    assert (meta["declared_class"], meta["affected_documents"]) == ("MAJOR", ["resultset", "grader", "suite"])
    code, _, err = run_cli(repo, "new", "Other", "--documents", "report", capsys=capsys)
    assert code == 2 and "'report' is not one of" in err and not list((repo / "rfcs").glob("0002-*"))


def test_a_60_word_title_is_refused_by_new(repo, capsys):
    title = " ".join(["word"] * 60)  # 299 characters; the front matter allows 200
    before = tree_digest(repo)
    code, out, err = run_cli(repo, "new", title, capsys=capsys)
    assert (code, out) == (2, "") and err.count("\n") == 1
    assert "rfc new refused: rfc lint would reject the result: 'title':" in err and "is too long" in err
    assert tree_digest(repo) == before
    with pytest.raises(InputError, match="is too long"):
        new_rfc(repo, title)


def test_dump_writes_lists_of_mappings_that_parse_back():
    data = {"number": 7, "title": "x", "comment_period": {"opens": "2026-09-01", "closes": "2026-10-11"},
            "period_history": [{"opens": "2026-09-01", "closes": "2026-09-15", "reason": "asked: more time, #12"}],
            "approvers": [{"name": "Ana", "role": "spec-lead"}], "resolution": LINK}
    text = dump(data)
    assert "period_history:\n  - opens: 2026-09-01\n    closes: 2026-09-15\n" in text
    assert parse(f"---\n{text}---\nbody", "x").data == data


# --- the guard: no rfc command outside a spec repository unless asked ------------------------------

def test_rfc_commands_refuse_outside_a_spec_repository(tmp_path, capsys, monkeypatch):
    from evalport_spec.cli import main

    monkeypatch.chdir(tmp_path)
    assert main(["rfc", "new", "An idea"]) == 2
    err = capsys.readouterr().err
    assert "not inside an EvalPort spec repository" in err and "--rfcs-only" in err
    assert list(tmp_path.iterdir()) == []  # no rfcs/, no lock file
    assert main(["rfc", "lint"]) == 2
    capsys.readouterr()
    assert main(["rfc", "new", "An idea", "--rfcs-only"]) == 0
    assert (tmp_path / "rfcs" / "0001-an-idea.md").is_file()
    assert main(["-C", str(tmp_path), "rfc", "lint", "--rfcs-only"]) == 0


def test_rfc_commands_find_the_repository_from_a_subfolder(repo, capsys, monkeypatch):
    write_rfc(repo, "0007-x.md", comment_rfc())
    (repo / "docs").mkdir()
    monkeypatch.chdir(repo / "docs")
    from evalport_spec.cli import main

    assert main(["rfc", "lint", "--today", "2026-10-01"]) == 0
    assert not (Path(repo / "docs") / "rfcs").exists()
