"""``check --base``: an RFC enters undecided, moves only along the lifecycle, and is accepted only
after the base's history shows it in comment for fourteen days (``rfc-status-transition``,
``rfc-period-unobserved``). Before, a branch could add an RFC already "accepted", with a comment
period that never happened, and the next pull request's MAJOR change was accepted by it
(adversary, session 33)."""

from __future__ import annotations

import datetime as dt

import pytest

from evalport_spec.gate import run_gate
from evalport_spec.gate.rfclifecycle import comment_since
from gate_repo import commit_all, git, reset_fixtures, write_rfc

# the base commit is a year old, so that the RFC steps on_main dates in the past come after it
scratch, repo = reset_fixtures("rfc-lifecycle", dated="2025-01-01T00:00:00+0000")

TODAY = dt.datetime.now(dt.UTC).date()


def on_main(root, status, days_ago, number=99, accepts=None):
    """Commit RFC ``number`` with ``status`` (and ``accepts``) on ``main``, dated ``days_ago``
    days before now."""
    git(root, "checkout", "-q", "main")
    write_rfc(root, number, status, accepts)
    git(root, "add", "-A")
    stamp = (dt.datetime.now(dt.UTC) - dt.timedelta(days=days_ago)).strftime("%Y-%m-%dT%H:%M:%S+0000")
    git(root, "commit", "-q", "--allow-empty", "-m", f"RFC {number} {status}",
        env={"GIT_COMMITTER_DATE": stamp, "GIT_AUTHOR_DATE": stamp})
    git(root, "checkout", "-q", "-B", "feature")


def lifecycle(root):
    stage = run_gate(root, base="main", stages=["base"], cache=False).stage("base")
    return sorted((f.kind, f.new.file) for f in stage.findings if f.kind.startswith("rfc-"))


RFC = "rfcs/0099-scratch-change-99.md"


@pytest.mark.parametrize("status", ["accepted", "rejected", "implemented"])
def test_an_rfc_added_already_decided_fails(repo, status):
    write_rfc(repo, 99, status)
    commit_all(repo, "RFC 99 arrives decided")
    assert lifecycle(repo) == [("rfc-status-transition", RFC)]


@pytest.mark.parametrize("status", ["draft", "comment"])
def test_an_rfc_added_undecided_passes(repo, status):
    write_rfc(repo, 99, status)
    commit_all(repo, "RFC 99 proposed")
    assert lifecycle(repo) == []


def test_a_skipped_or_backward_step_fails(repo):
    on_main(repo, "draft", 30)
    write_rfc(repo, 99, "accepted")  # draft -> accepted skips the comment period
    commit_all(repo, "accept")
    assert lifecycle(repo) == [("rfc-status-transition", RFC)]
    on_main(repo, "rejected", 30)
    write_rfc(repo, 99, "comment")  # a rejected RFC is only ever superseded
    commit_all(repo, "reopen")
    assert lifecycle(repo) == [("rfc-status-transition", RFC)]


def test_acceptance_needs_fourteen_days_in_comment_on_the_base(repo):
    on_main(repo, "comment", 3)
    write_rfc(repo, 99, "accepted")
    commit_all(repo, "accept")
    found = run_gate(repo, base="main", stages=["base"], cache=False).stage("base").findings
    (f,) = [f for f in found if f.kind == "rfc-period-unobserved"]
    assert f"only since {TODAY - dt.timedelta(days=3)} (3 day(s))" in f.message
    assert f.new.line == 4  # the status line of write_rfc's front matter


def test_acceptance_after_fourteen_days_in_comment_passes(repo):
    on_main(repo, "comment", 20)
    on_main(repo, "comment", 0, number=98)  # main moved on since; RFC 99 stayed in comment
    write_rfc(repo, 99, "accepted")
    commit_all(repo, "accept")
    assert lifecycle(repo) == []


def test_the_period_counts_from_the_last_time_it_entered_comment(repo):
    on_main(repo, "comment", 40)
    on_main(repo, "deferred", 30)
    on_main(repo, "comment", 5)
    assert comment_since(repo, git(repo, "rev-parse", "main").strip(), 99) == TODAY - dt.timedelta(days=5)
    write_rfc(repo, 99, "accepted")
    commit_all(repo, "accept")
    assert lifecycle(repo) == [("rfc-period-unobserved", RFC)]


def test_a_period_written_into_front_matter_on_the_branch_is_not_evidence(repo):
    """The branch's own commits, however dated, are not the base's history: an RFC put in comment
    by a backdated commit on the branch and accepted in the next is still added as decided."""
    write_rfc(repo, 99, "comment")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "comment", env={"GIT_COMMITTER_DATE": "2020-01-01T00:00:00+0000"})
    write_rfc(repo, 99, "accepted")
    commit_all(repo, "accept")
    assert lifecycle(repo) == [("rfc-status-transition", RFC)]


A = {"fingerprint": "aaaaaaaaaaaaaaaa", "kind": "enum-value-removed", "location": "resultset.json#/x", "item": "a"}
B = {"fingerprint": "bbbbbbbbbbbbbbbb", "kind": "enum-value-removed", "location": "resultset.json#/x", "item": "b"}


def test_an_accepted_rfc_gains_no_accepts_entry(repo):
    """Before, a pull request could add a fingerprint to an RFC accepted long ago, and the next one
    land that breaking change as accepted, with no comment period for it."""
    on_main(repo, "accepted", 30, accepts=[A])
    write_rfc(repo, 99, "accepted", [A, B])
    commit_all(repo, "one more")
    found = run_gate(repo, base="main", stages=["base"], cache=False).stage("base").findings
    (f,) = [f for f in found if f.kind.startswith("rfc-")]
    assert f.kind == "rfc-accepts-after-decision" and "(bbbbbbbbbbbbbbbb)" in f.message
    write_rfc(repo, 99, "accepted", [])  # dropping entries narrows the acceptance: fine
    commit_all(repo, "one less")
    assert lifecycle(repo) == []


def test_the_accepts_entries_must_have_been_open_for_comment(repo):
    on_main(repo, "comment", 30, accepts=[A])
    on_main(repo, "comment", 2, accepts=[A, B])  # B listed two days ago
    write_rfc(repo, 99, "accepted", [A, B])
    commit_all(repo, "accept both")
    assert lifecycle(repo) == [("rfc-period-unobserved", RFC)]
    write_rfc(repo, 99, "accepted", [A])  # A was open for comment for 30 days
    commit_all(repo, "accept A only")
    assert lifecycle(repo) == []


def test_a_period_opened_by_a_merge_counts_from_the_merge(repo):
    """A pull request merged with a merge commit is one first-parent step, dated when it merged:
    the branch's own commit, dated 40 days ago, does not count, the merge 20 days ago does."""
    git(repo, "checkout", "-q", "-b", "pr", "main")
    write_rfc(repo, 99, "comment")
    git(repo, "add", "-A")
    old = (dt.datetime.now(dt.UTC) - dt.timedelta(days=40)).strftime("%Y-%m-%dT%H:%M:%S+0000")
    git(repo, "commit", "-q", "-m", "open", env={"GIT_COMMITTER_DATE": old, "GIT_AUTHOR_DATE": old})
    git(repo, "checkout", "-q", "main")
    for days, expect in ((20, TODAY - dt.timedelta(days=20)), (5, TODAY - dt.timedelta(days=5))):
        stamp = (dt.datetime.now(dt.UTC) - dt.timedelta(days=days)).strftime("%Y-%m-%dT%H:%M:%S+0000")
        git(repo, "merge", "-q", "--no-ff", "-m", "merge pr", "pr", env={"GIT_COMMITTER_DATE": stamp})
        assert comment_since(repo, git(repo, "rev-parse", "main").strip(), 99) == expect
        git(repo, "reset", "-q", "--hard", "HEAD~1")


def test_a_backdated_step_fast_forwarded_onto_the_base_counts_from_the_step_before_it(repo):
    """Red team, session 35: a pull request taken by fast-forward puts the branch's own commit on
    main's first-parent chain with the date its author chose. An RFC put in comment by a commit
    dated 33 days before its parent (main, dated today) was accepted the next day as observed
    for 33 days, and the MAJOR change it listed landed. A step is never older than the one
    before it."""
    on_main(repo, "comment", 0, number=98)  # main today
    git(repo, "checkout", "-q", "-B", "pr", "main")
    write_rfc(repo, 99, "comment")
    git(repo, "add", "-A")
    old = (dt.datetime.now(dt.UTC) - dt.timedelta(days=33)).strftime("%Y-%m-%dT%H:%M:%S+0000")
    git(repo, "commit", "-q", "-m", "open", env={"GIT_COMMITTER_DATE": old, "GIT_AUTHOR_DATE": old})
    git(repo, "checkout", "-q", "main")
    git(repo, "merge", "-q", "--ff-only", "pr")
    assert comment_since(repo, git(repo, "rev-parse", "main").strip(), 99) == TODAY
    git(repo, "checkout", "-q", "-B", "feature")
    write_rfc(repo, 99, "accepted")
    commit_all(repo, "accept")
    assert lifecycle(repo) == [("rfc-period-unobserved", RFC)]


def test_fourteen_days_in_comment_is_enough_and_thirteen_is_not(repo):
    """The boundary of SPEC.md Governance's "at least fourteen days" (session 36 mutants: the
    period compared with ``<= 14`` or ``< 13``). Committed 14 days before now, the step's date is
    today minus 14: accepted; 13 days before: not."""
    on_main(repo, "comment", 14)
    write_rfc(repo, 99, "accepted")
    commit_all(repo, "accept after 14 days")
    assert lifecycle(repo) == []
    on_main(repo, "comment", 13, number=97)
    write_rfc(repo, 97, "accepted")
    commit_all(repo, "accept after 13 days")
    assert lifecycle(repo) == [("rfc-period-unobserved", "rfcs/0097-scratch-change-97.md")]


def test_a_step_thirteen_days_ago_does_not_end_the_walk_back(repo):
    """Session 36 mutant: comment_since stopped at the first step dated 13 days ago (``enough``
    one day short), so an RFC in comment for 20 days, with an unrelated RFC step 13 days ago,
    was measured as 13 days and refused. The walk stops only at a step 14 or more days old."""
    on_main(repo, "comment", 20)
    on_main(repo, "comment", 13, number=98)  # another RFC changes rfcs/ 13 days ago
    write_rfc(repo, 99, "accepted")
    commit_all(repo, "accept")
    assert lifecycle(repo) == []


def test_an_entry_never_open_for_comment_or_a_draft_period_is_not_a_comment_period(repo):
    """Session 36 mutants: a period never observed (the accepted RFC lists an entry the base's
    RFC in comment never listed) gave no finding, and ``draft`` steps counted as comment. Both
    acceptances rest on no observed comment period: rfc-period-unobserved."""
    on_main(repo, "comment", 30, accepts=[A])
    write_rfc(repo, 99, "accepted", [A, B])  # B was never open for comment
    commit_all(repo, "accept with B")
    assert lifecycle(repo) == [("rfc-period-unobserved", RFC)]
    on_main(repo, "draft", 30, number=97)
    on_main(repo, "comment", 3, number=97)  # a draft for 27 days, in comment for 3
    write_rfc(repo, 97, "accepted")
    commit_all(repo, "accept 97")
    assert lifecycle(repo) == [("rfc-period-unobserved", "rfcs/0097-scratch-change-97.md")]
