"""``check --base REF``: the RFC status changes a branch makes follow the lifecycle, and an
acceptance rests on a comment period the base's history shows.

An RFC's acceptance is what lets a MAJOR change land (:mod:`evalport_spec.gate.acceptance`), so
the gate judges the acceptance itself, not only the front matter that records it. SPEC.md,
"Governance": an RFC moves through draft, comment, then a decision, and is open for comment for
at least fourteen days before it can be accepted. Front matter alone cannot show either: a
branch can write ``status: accepted`` with any dates. What the base shows can:

* ``rfc-status-transition`` (error): an RFC the branch adds has a status other than ``draft`` or
  ``comment`` (an RFC enters the repository undecided), or an RFC's status at REF and on the
  branch is a step :data:`evalport_spec.rfc.status.TRANSITIONS` does not allow
  (``draft`` straight to ``accepted``, ``rejected`` back to ``comment``).
* ``rfc-period-unobserved`` (error): the branch moves an RFC from ``comment`` to ``accepted``, but
  on REF's first-parent history the RFC has been in ``comment``, listing every ``accepts``
  entry the branch's accepted RFC lists, for less than
  :data:`~evalport_spec.rfc.lint.MIN_PERIOD_DAYS` days before today (UTC): counted from the
  committer date of the earliest first-parent step from which that held without a break, up to
  REF, a step never dated before the steps it follows (:func:`step_dates`: a fast-forward puts a
  branch's backdated commits on REF's chain). The announced ``comment_period`` dates are the RFC's own claim; the steps of the base (one
  per merged pull request, dated when it merged) are what the repository saw. An entry is part
  of what is decided: one added on the day of the decision was never open for comment.
* ``rfc-accepts-after-decision`` (error): an RFC accepted at REF and still accepted on the
  branch lists an ``accepts`` entry (fingerprint and ``to``) it did not list at REF. An
  acceptance covers what was open for comment; a later breaking change needs its own RFC.

An RFC whose front matter does not parse at REF counts as absent there (it said nothing).
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from .. import git
from ..errors import InputError
from ..findings import Finding, Location
from ..rfc.lint import MIN_PERIOD_DAYS
from ..rfc.status import TRANSITIONS
from . import history
from .acceptance import metas_at, state_of
from .context import GateContext

ENTRY_STATUSES = frozenset({"draft", "comment"})
"""The statuses an RFC may have when it first appears (SPEC.md Governance; ``rfc new`` writes ``draft``)."""

MAX_STEPS = 10_000
"""Most first-parent steps of REF read back while measuring a comment period (bounded work)."""


def lifecycle_findings(ctx: GateContext, today: dt.date | None = None) -> list[Finding]:
    """The ``rfc-status-transition``, ``rfc-period-unobserved`` and ``rfc-accepts-after-decision`` errors of the branch against
    ``ctx.base`` (module docstring). ``today`` defaults to today's UTC date.

    Returns:
        One finding per RFC that breaks a rule, located at its ``status`` line.

    Raises:
        InputError: git cannot read REF or its history; the history is shallow before the
            comment period it must measure (with the fetch hint).
    """
    assert ctx.base is not None
    if not (ctx.root / "rfcs").is_dir():
        return []
    commit = ctx.base_sha or ctx.base
    before = metas_at(ctx.root, commit)
    today = today or dt.datetime.now(dt.UTC).date()
    out: list[Finding] = []
    for rfc in ctx.rfcs():
        status = str(rfc.meta.get("status", ""))
        where = Location(rfc.rel, None, rfc.fm.line("status"))
        meta = before.get(rfc.number)
        if meta is None:
            if status not in ENTRY_STATUSES:
                out.append(Finding("rfc-status-transition",
                                   f"RFC {rfc.number:04d} is added with status {status}: an RFC enters as "
                                   f"draft or comment and is decided after its comment period (SPEC.md "
                                   f"Governance); land it in comment first", new=where))
            continue
        was = str(meta.get("status", ""))
        if was == status:
            added = _bindings(rfc.number, rfc.meta) - _bindings(rfc.number, meta)
            if status == "accepted" and added:
                out.append(Finding("rfc-accepts-after-decision",
                                   f"RFC {rfc.number:04d} was accepted at {ctx.base} and now lists "
                                   f"{len(added)} more accepts entr{'y' if len(added) == 1 else 'ies'} "
                                   f"({', '.join(sorted(fp for fp, _ in added))}): an acceptance covers "
                                   f"only what was open for comment; a new breaking change needs its own RFC",
                                   new=Location(rfc.rel, None, rfc.fm.line("accepts"))))
            continue
        if status not in TRANSITIONS.get(was, frozenset()):
            out.append(Finding("rfc-status-transition",
                               f"RFC {rfc.number:04d} goes from {was} at {ctx.base} to {status}, which the RFC "
                               f"lifecycle does not allow (from {was}: "
                               f"{', '.join(sorted(TRANSITIONS.get(was, ()))) or 'nothing'})", new=where))
        elif status == "accepted":
            since = comment_since(ctx.root, commit, rfc.number, today - dt.timedelta(days=MIN_PERIOD_DAYS),
                                  need=_bindings(rfc.number, rfc.meta))
            if since is None or (today - since).days < MIN_PERIOD_DAYS:
                shown = "never" if since is None else f"only since {since} ({(today - since).days} day(s))"
                out.append(Finding("rfc-period-unobserved",
                                   f"RFC {rfc.number:04d} is accepted, but {ctx.base}'s history shows it in "
                                   f"comment with these accepts entries {shown}; it must be open for comment on the base for at least "
                                   f"{MIN_PERIOD_DAYS} days before it is accepted (SPEC.md Governance)",
                                   new=where))
    return out


def _bindings(number: int, meta: dict) -> frozenset[tuple[str, str | None]]:
    """The ``(fingerprint, to)`` pairs of ``meta``'s ``accepts`` (:func:`~.acceptance.state_of`)."""
    return state_of(number, meta).bindings or frozenset()


def comment_since(root: Path, commit: str, number: int, enough: dt.date | None = None,
                  need: frozenset[tuple[str, str | None]] = frozenset()) -> dt.date | None:
    """The date (UTC; each step dated by :func:`step_dates`) of the earliest first-parent step
    of ``commit`` from which RFC ``number`` has status ``comment`` and lists every
    ``(fingerprint, to)`` pair of ``need`` in its ``accepts``, at every step up to ``commit``;
    ``None`` when that does not hold at ``commit``. With ``enough``, the walk back stops at the
    first such step dated on or before ``enough`` (its date is returned: the period is long
    enough). Only the steps that change
    ``rfcs/`` are read (``git log --first-parent -- rfcs``): between two of them the RFC is as
    it was.

    Raises:
        InputError: git fails; the run of ``comment`` steps reaches a shallow boundary (its
            start is not in this clone).
    """
    # Only the steps that change rfcs/ can change the RFC (a first-parent step's tree differs
    # from its parent's in the paths it touches alone), so those are the steps read.
    rows = git.run(root, "log", "--first-parent", f"--max-count={MAX_STEPS}", "--format=%H",
                   commit, "--", "rfcs").stdout.decode("ascii", "replace").split("\n")
    dated = step_dates(root, commit)
    cut = history.shallow_boundaries(root)
    since: dt.date | None = None
    for sha in rows:
        if not sha:
            continue
        stamp = dated.get(sha)
        if stamp is None:  # not on the chain step_dates read (cannot happen for a first-parent step)
            return since
        meta = metas_at(root, sha).get(number, {})
        if str(meta.get("status", "")) != "comment" or not need <= _bindings(number, meta):
            return since
        since = dt.datetime.fromtimestamp(stamp, dt.UTC).date()
        if enough is not None and since <= enough:
            return since
        if sha in cut:
            raise InputError(f"this clone is shallow: RFC {number:04d}'s comment period reaches back past "
                             f"{sha[:12]}, where history stops; {history.UNSHALLOW}")
    return since


def step_dates(root: Path, commit: str) -> dict[str, int]:
    """``{sha: seconds}`` for every first-parent step of ``commit``: the step's committer date,
    but never earlier than the date given to any step before it on that chain (a running
    maximum from the oldest step). A commit's dates are whatever its author wrote; a merge
    commit made when a pull request lands is dated then, but a pull request taken by
    fast-forward puts the branch's own commits on the base's first-parent chain with their own
    dates. Red team, session 35: an RFC put in comment by a commit dated 33 days before its
    parent, fast-forwarded onto main, was accepted the same day as "observed for 33 days". A
    step can have been seen by the repository only after the step it follows.

    Raises:
        InputError: git fails.
    """
    rows = git.run(root, "log", "--first-parent", "--format=%H %ct", commit).stdout.decode("ascii", "replace")
    out: dict[str, int] = {}
    latest = 0
    for row in reversed(rows.splitlines()):
        sha, _, stamp = row.partition(" ")
        latest = max(latest, int(stamp))
        out[sha] = latest
    return out
