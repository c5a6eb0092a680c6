"""``rfc status N STATUS``: validated lifecycle transitions, written atomically.

Lifecycle (toolchain.md, "RFCs"): ``draft -> comment -> accepted | rejected | withdrawn``,
``accepted -> implemented``, and any status but ``superseded`` -> ``superseded``. A ``comment``
RFC may move to ``comment`` again to extend its period (a later ``closes``); a draft may be
withdrawn, and an accepted RFC may be withdrawn before it is implemented.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

from ..errors import InputError
from ..fsutil import atomic_write, repo_lock
from ..spec import SpecRepo
from .dates import days, parse_date
from .frontmatter import render
from .lint import MIN_PERIOD_DAYS
from .model import STATUSES, find_rfc, repo_root, rfc_paths

TRANSITIONS: dict[str, frozenset[str]] = {
    "draft": frozenset({"comment", "withdrawn", "superseded"}),
    "comment": frozenset({"comment", "accepted", "rejected", "withdrawn", "superseded"}),
    "accepted": frozenset({"implemented", "withdrawn", "superseded"}),
    "rejected": frozenset({"superseded"}),
    "withdrawn": frozenset({"superseded"}),
    "implemented": frozenset({"superseded"}),
    "superseded": frozenset(),
}
"""Allowed ``from -> {to}`` status transitions."""


def _date_arg(value: str | dt.date | None, name: str) -> dt.date | None:
    if value is None or isinstance(value, dt.date):
        return value
    d = parse_date(value)
    if d is None:
        raise InputError(f"--{name} {value!r} is not an ISO date (YYYY-MM-DD)")
    return d


def plan(meta: dict[str, Any], number: int, status: str, *, opens: dt.date | None = None,
         closes: dt.date | None = None, date: dt.date | None = None, release: str | None = None,
         by: int | None = None, today: dt.date, releases: list[str] = (), numbers: set[int] = frozenset()
         ) -> dict[str, Any]:
    """The new front matter for a transition of RFC ``number`` to ``status`` (pure; no I/O).

    Args:
        meta: current front matter; opens/closes: comment period dates; date: decision date
        (default ``today``); release: version for ``implemented``; by: superseding RFC number;
        releases: existing release versions; numbers: existing RFC numbers.

    Raises:
        InputError: unknown status, a transition :data:`TRANSITIONS` does not allow, a period
            shorter than 14 days or not extending the current one, a decision before the period
            closed, an unknown release, or an unknown/self superseding RFC.
    """
    if status not in STATUSES:
        raise InputError(f"unknown status {status!r} (expected one of {', '.join(STATUSES)})")
    current = meta.get("status")
    if current not in TRANSITIONS:
        raise InputError(f"RFC {number} has an unknown current status {current!r}; fix its front matter first")
    if status not in TRANSITIONS[current]:
        allowed = ", ".join(sorted(TRANSITIONS[current])) or "none"
        raise InputError(f"RFC {number}: cannot go from {current} to {status} (allowed from {current}: {allowed})")
    new = dict(meta)
    new["status"] = status
    period = meta.get("comment_period") if isinstance(meta.get("comment_period"), dict) else None
    old_closes = parse_date(period.get("closes")) if period else None
    decided_on = date or today
    if status == "comment":
        if current == "comment":
            if closes is None or opens is not None:
                raise InputError(f"RFC {number} is already in comment: extend it with --closes DATE only")
            if old_closes and closes <= old_closes:
                raise InputError(f"--closes {closes} does not extend the period (it closes {old_closes})")
            start = parse_date(period.get("opens")) if period else None
        else:
            start = opens or today
        end = closes or start + dt.timedelta(days=MIN_PERIOD_DAYS)
        if start is not None and end < start:
            raise InputError(f"comment period {start} to {end} closes before it opens; the closing date "
                             f"must be at least {MIN_PERIOD_DAYS} days after the opening date")
        if start is not None and (end - start).days < MIN_PERIOD_DAYS:
            raise InputError(f"comment period {start} to {end} lasts {days((end - start).days)}; "
                             f"at least {MIN_PERIOD_DAYS} are required")
        new["comment_period"] = {"opens": start.isoformat() if start else period.get("opens"),
                                 "closes": end.isoformat()}
    elif opens is not None or closes is not None:
        raise InputError("--opens/--closes only apply when moving to comment")
    if status in ("accepted", "rejected"):
        if old_closes is None:
            raise InputError(f"RFC {number} has no comment period to decide after")
        if decided_on <= old_closes:
            raise InputError(f"RFC {number}: its comment period closes {old_closes}; it can be {status} "
                             f"from {old_closes + dt.timedelta(days=1)} on, not {decided_on}")
    if status in ("accepted", "rejected", "withdrawn"):
        if decided_on > today:
            raise InputError(f"decision date {decided_on} is in the future")
        new["decision_date"] = decided_on.isoformat()
    if status == "implemented":
        if not release:
            raise InputError("implemented needs --release X.Y.Z (the release that carries the change)")
        if release not in releases:
            raise InputError(f"no release {release} in spec/releases/ (releases: {', '.join(releases) or 'none'})")
        new["implemented_in"] = release
    elif release is not None:
        raise InputError("--release only applies when moving to implemented")
    if status == "superseded":
        if by is None:
            raise InputError("superseded needs --by N (the RFC that supersedes this one)")
        if by == number or by not in numbers:
            raise InputError(f"--by {by}: not another RFC of this repository")
        new["superseded_by"] = by
    elif by is not None:
        raise InputError("--by only applies when moving to superseded")
    if status not in ("implemented", "superseded"):
        new["implemented_in"] = None
    return new


def set_status(repo: SpecRepo | str | Path, number: int, status: str, *,
               opens: str | dt.date | None = None, closes: str | dt.date | None = None,
               date: str | dt.date | None = None, release: str | None = None, by: int | None = None,
               today: dt.date | None = None) -> Path:
    """Move RFC ``number`` to ``status`` (see :func:`plan`), rewriting its front matter in the
    canonical key order atomically under the repository lock. Returns the RFC's path.

    Raises:
        InputError: as :func:`plan`, or the RFC cannot be found or read. Nothing is written then.
    """
    root = repo_root(repo)
    today = today or dt.date.today()
    o, c, d = _date_arg(opens, "opens"), _date_arg(closes, "closes"), _date_arg(date, "date")
    with repo_lock(root, "rfc status"):
        rfc = find_rfc(root, number)
        numbers = {int(p.name[:4]) for p in rfc_paths(root)}
        new = plan(rfc.meta, number, status, opens=o, closes=c, date=d, release=release, by=by,
                   today=today, releases=SpecRepo(root).releases(), numbers=numbers)
        atomic_write(rfc.path, render(new, rfc.fm.body))
    return rfc.path
