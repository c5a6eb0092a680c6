"""``rfc status N STATUS``: validated lifecycle transitions and decision records, written atomically.

Lifecycle (toolchain.md, "RFCs"; SPEC.md "Governance"): ``draft -> comment -> accepted |
rejected | deferred | withdrawn``, ``deferred -> comment`` (reopened with a new period),
``accepted -> implemented``, and any status but ``superseded`` -> ``superseded``. A draft may
be withdrawn, and an accepted RFC may be withdrawn before it is implemented.

The comment period (SPEC.md "Governance": at least fourteen days, extended but never shortened):

* ``comment`` from ``draft`` opens it, today or later (``--opens``; a period cannot be announced
  in the past), for at least fourteen days (``--closes``, default opens + 14 days);
* ``comment`` again extends it: ``--closes`` a later date with ``--reason`` (the period that
  ended is kept in ``period_history`` with that reason), or ``--waiting-on WHAT``: extended with
  no closing date until WHAT arrives (``waiting_on``); a later ``--closes --reason`` ends the
  wait;
* ``comment`` from ``deferred`` reopens it with a new period and ``--reason``.

A decision (``accepted``, ``rejected``, ``deferred``) records ``decision_date`` (``--date``,
default today, after the period closed for accepted and rejected) and ``resolution``
(``--resolution URL``, the post that records it). Accepting records ``chosen_option``
(``--option``) and ``approvers`` (``--approver NAME``, ``--spec-lead NAME``). No decision is
taken while the RFC is waiting.

Every transition is refused (one line, nothing written) when the RFC it would write is one that
``rfc lint`` rejects (:func:`evalport_spec.rfc.lint.refusals`: one rule set for both): a missing
``## Decision`` section, options still described as open, a MAJOR accepted without the spec
lead, a supersession cycle, dates out of order.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import InputError
from ..fsutil import atomic_write, repo_lock
from ..spec import SpecRepo
from .dates import days, parse_date
from .frontmatter import render
from .lint import MIN_PERIOD_DAYS, refusals
from .model import STATUSES, find_rfc, repo_root, rfc_paths

TRANSITIONS: dict[str, frozenset[str]] = {
    "draft": frozenset({"comment", "withdrawn", "superseded"}),
    "comment": frozenset({"comment", "accepted", "rejected", "deferred", "withdrawn", "superseded"}),
    "deferred": frozenset({"comment", "withdrawn", "superseded"}),
    "accepted": frozenset({"implemented", "withdrawn", "superseded"}),
    "rejected": frozenset({"superseded"}),
    "withdrawn": frozenset({"superseded"}),
    "implemented": frozenset({"superseded"}),
    "superseded": frozenset(),
}
"""Allowed ``from -> {to}`` status transitions."""


@dataclass
class Change:
    """The options of one transition (the ``rfc status`` flags).

    Attributes:
        opens, closes: comment period dates; date: decision date (default today).
        release: version for ``implemented``; by: superseding RFC number.
        reason: why the period is extended or reopened.
        waiting_on: what an open-ended extension waits for.
        resolution: link to the decision post; option: the chosen option.
        approvers: ``(name, role)`` pairs, role ``spec-lead`` or ``maintainer``.
    """

    opens: dt.date | None = None
    closes: dt.date | None = None
    date: dt.date | None = None
    release: str | None = None
    by: int | None = None
    reason: str | None = None
    waiting_on: str | None = None
    resolution: str | None = None
    option: str | None = None
    approvers: list[tuple[str, str]] = field(default_factory=list)


def _only_for(change: Change, status: str) -> None:
    """Refuse flags that do not belong to a transition to ``status``."""
    allowed = {"comment": {"opens", "closes", "reason", "waiting_on"},
               "accepted": {"date", "resolution", "option", "approvers"},
               "rejected": {"date", "resolution"}, "deferred": {"date", "resolution"},
               "withdrawn": {"date"}, "implemented": {"release"}, "superseded": {"by"}}.get(status, set())
    for name in ("opens", "closes", "date", "release", "by", "reason", "waiting_on", "resolution",
                 "option", "approvers"):
        if getattr(change, name) and name not in allowed:
            flag = "--" + name.replace("_", "-").replace("approvers", "approver")
            raise InputError(f"{flag} does not apply when moving to {status}")


def _period(meta: dict[str, Any]) -> dict[str, Any] | None:
    period = meta.get("comment_period")
    return period if isinstance(period, dict) else None


def _comment(meta: dict[str, Any], new: dict[str, Any], number: int, current: str, c: Change,
             today: dt.date) -> None:
    """Open, extend or reopen the comment period (module docstring)."""
    period = _period(meta)
    old_opens = parse_date(period.get("opens")) if period else None
    old_closes = parse_date(period.get("closes")) if period else None
    if current == "comment":
        if c.opens is not None:
            raise InputError(f"RFC {number} is already in comment: extend it with --closes DATE --reason TEXT, "
                             "or --waiting-on WHAT")
        if c.waiting_on:
            if c.closes is not None:
                raise InputError("--waiting-on extends the period with no closing date; give it without --closes")
            if meta.get("waiting_on"):
                raise InputError(f"RFC {number} is already waiting on {meta['waiting_on']}")
            new["waiting_on"] = c.waiting_on
            return
        if c.closes is None or not c.reason:
            raise InputError(f"RFC {number} is already in comment: extend it with --closes DATE --reason TEXT")
        if old_closes and c.closes <= old_closes:
            raise InputError(f"--closes {c.closes} does not extend the period (it closes {old_closes})")
        if c.closes <= today:
            raise InputError(f"--closes {c.closes} is not after today ({today}): an extension ends in the future")
        reason = c.reason
        if meta.get("waiting_on"):
            reason = f"extended with no closing date, waiting on {meta['waiting_on']}; then: {reason}"
            new.pop("waiting_on", None)
        start = old_opens
    else:
        if c.waiting_on:
            raise InputError("--waiting-on only extends a period that is already open")
        start = c.opens or today
        if start < today:
            raise InputError(f"--opens {start} is in the past (today is {today}): a comment period is "
                             "announced when it opens, never backdated")
        if current == "deferred":
            if not c.reason:
                raise InputError(f"RFC {number} is deferred: reopening it needs --reason TEXT")
            reason = f"deferred on {meta.get('decision_date')} ({meta.get('resolution')}); reopened: {c.reason}"
            for key in ("decision_date", "resolution"):
                new.pop(key, None)
        elif c.reason:
            raise InputError("--reason applies to extending or reopening a period, not to opening the first")
        else:
            reason = None
    end = c.closes or start + dt.timedelta(days=MIN_PERIOD_DAYS)
    if start is not None and end < start:
        raise InputError(f"comment period {start} to {end} closes before it opens; the closing date "
                         f"must be at least {MIN_PERIOD_DAYS} days after the opening date")
    if start is not None and (end - start).days < MIN_PERIOD_DAYS:
        raise InputError(f"comment period {start} to {end} lasts {days((end - start).days)}; "
                         f"at least {MIN_PERIOD_DAYS} are required")
    if reason is not None and period:
        new["period_history"] = [*meta.get("period_history", []),
                                 {"opens": period.get("opens"), "closes": period.get("closes"), "reason": reason}]
    new["comment_period"] = {"opens": start.isoformat() if start else period.get("opens"),  # type: ignore[union-attr]
                             "closes": end.isoformat()}


def _decide(meta: dict[str, Any], new: dict[str, Any], number: int, status: str, c: Change,
            today: dt.date) -> None:
    """Record a decision (accepted, rejected, deferred, withdrawn)."""
    period = _period(meta)
    old_closes = parse_date(period.get("closes")) if period else None
    decided_on = c.date or today
    if decided_on > today:
        raise InputError(f"decision date {decided_on} is in the future")
    if status in ("accepted", "rejected", "deferred"):
        if meta.get("waiting_on"):
            raise InputError(f"RFC {number} is waiting on {meta['waiting_on']}: end the wait first "
                             f"(rfc status {number} comment --closes DATE --reason TEXT)")
        if not c.resolution:
            raise InputError(f"{status} needs --resolution URL: the post that records the decision")
        new["resolution"] = c.resolution
    if status in ("accepted", "rejected"):
        if old_closes is None:
            raise InputError(f"RFC {number} has no comment period to decide after")
        if decided_on <= old_closes:
            raise InputError(f"RFC {number}: its comment period closes {old_closes}; it can be {status} "
                             f"from {old_closes + dt.timedelta(days=1)} on, not {decided_on}")
    if status == "accepted":
        if c.option:
            new["chosen_option"] = c.option
        if c.approvers:
            new["approvers"] = [{"name": n, "role": r} for n, r in c.approvers]
    new["decision_date"] = decided_on.isoformat()


def plan(meta: dict[str, Any], number: int, status: str, change: Change | None = None, *,
         today: dt.date, releases: list[str] = (), numbers: set[int] = frozenset()) -> dict[str, Any]:
    """The new front matter for a transition of RFC ``number`` to ``status`` (pure; no I/O).

    Args:
        meta: current front matter; change: the transition's options (:class:`Change`);
        releases: existing release versions; numbers: existing RFC numbers.

    Raises:
        InputError: unknown status, a transition :data:`TRANSITIONS` does not allow, a flag that
            does not belong to it, a period shorter than 14 days, opening in the past or not
            extending the current one, an extension or reopening without a reason, a decision
            before the period closed, while waiting, or without its resolution link, an unknown
            release, or an unknown/self superseding RFC.
    """
    c = change or Change()
    if status not in STATUSES:
        raise InputError(f"unknown status {status!r} (expected one of {', '.join(STATUSES)})")
    current = meta.get("status")
    if not isinstance(current, str) or current not in TRANSITIONS:
        raise InputError(f"RFC {number} has an unknown current status {current!r}; fix its front matter first")
    if status not in TRANSITIONS[current]:
        allowed = ", ".join(sorted(TRANSITIONS[current])) or "none"
        raise InputError(f"RFC {number}: cannot go from {current} to {status} (allowed from {current}: {allowed})")
    _only_for(c, status)
    new = dict(meta)
    new["status"] = status
    if status == "comment":
        _comment(meta, new, number, current, c, today)
    if status in ("accepted", "rejected", "deferred", "withdrawn"):
        _decide(meta, new, number, status, c, today)
    if status == "implemented":
        if not c.release:
            raise InputError("implemented needs --release X.Y.Z (the release that carries the change)")
        if c.release not in releases:
            raise InputError(f"no release {c.release} in spec/releases/ (releases: {', '.join(releases) or 'none'})")
        new["implemented_in"] = c.release
    if status == "superseded":
        if c.by is None:
            raise InputError("superseded needs --by N (the RFC that supersedes this one)")
        if c.by == number or c.by not in numbers:
            raise InputError(f"--by {c.by}: not another RFC of this repository")
        new["superseded_by"] = c.by
    if status not in ("implemented", "superseded"):
        new["implemented_in"] = None
    return new


def set_status(repo: SpecRepo | str | Path, number: int, status: str, change: Change | None = None, *,
               today: dt.date | None = None) -> Path:
    """Move RFC ``number`` to ``status`` (see :func:`plan`), rewriting its front matter in the
    canonical key order atomically under the repository lock. Returns the RFC's path.

    Raises:
        InputError: as :func:`plan`, located at the RFC's ``status`` line (``rfcs/0007-x.md:4``,
            the line the transition rewrites); the RFC cannot be found or read; or ``rfc lint`` would
            reject the RFC as written (the first such error, with its line). Nothing is written
            then.
    """
    root = repo_root(repo)
    today = today or dt.date.today()
    with repo_lock(root, "rfc status"):
        rfc = find_rfc(root, number)
        rfc.status_word()  # [comment], ACCEPTED: one line at its status line (was a TypeError)
        numbers = {int(p.name[:4]) for p in rfc_paths(root)}
        try:
            new = plan(rfc.meta, number, status, change, today=today,
                       releases=SpecRepo(root).releases(), numbers=numbers)
        except InputError as exc:  # plan is pure and knows no file: the refusal is at the status line
            if exc.source is not None or status not in STATUSES:  # an unknown target is the command's
                raise
            raise InputError(exc.message, rfc.rel, rfc.fm.line("status") or 1) from None
        text = render(new, rfc.fm.body)
        refuse(root, rfc.path, text, today, f"rfc status {number} {status}")
        atomic_write(rfc.path, text)
    return rfc.path


def refuse(root: Path, path: Path, text: str, today: dt.date, what: str) -> None:
    """Raise the first :func:`~evalport_spec.rfc.lint.refusals` error of ``text`` (the RFC as
    ``what`` would write it to ``path``) as one :class:`InputError` line; return otherwise."""
    found = refusals(root, path, text, today)
    if found:
        f = found[0]
        more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
        raise InputError(f"{what} refused: rfc lint would reject the result: {f.message}{more}",
                         f.new.file if f.new else None, f.new.line if f.new else None)
