"""ISO 8601 calendar dates for RFC front matter (``YYYY-MM-DD``), and the release changelog.

A release's ``SPEC.md`` has a ``## Changelog`` section whose entries start with a heading
``### X.Y.Z — YYYY-MM-DD — CLASS`` (em dashes; hyphens accepted) followed by bullets that name
the RFCs the release implements as ``RFC 000N``.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field

from .. import changelog
from ..findings import ChangeClass

_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def parse_date(value: object) -> dt.date | None:
    """``"2026-09-27"`` -> ``date(2026, 9, 27)``; ``None`` for anything that is not a real ISO date."""
    if not isinstance(value, str) or not _DATE.match(value):
        return None
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        return None


def days(n: int) -> str:
    """``1 -> "1 day"``, ``5 -> "5 days"``."""
    return f"{n} day" if n == 1 else f"{n} days"


@dataclass
class ChangelogEntry:
    """One ``### X.Y.Z — DATE — CLASS`` entry of a SPEC.md changelog.

    Attributes:
        version, date, change_class: from the heading (``change_class`` is ``None`` for a
            word that is not PATCH, MINOR or MAJOR, such as ``INITIAL``).
        rfcs: RFC numbers named as ``RFC 000N`` in the entry's text.
    """

    version: str
    date: dt.date | None
    change_class: ChangeClass | None
    rfcs: set[int] = field(default_factory=set)


def parse_changelog(spec_md: str) -> dict[str, ChangelogEntry]:
    """Every released changelog entry of a SPEC.md text, keyed by version (the first entry of a
    version wins), read by :func:`evalport_spec.changelog.entries`."""
    out: dict[str, ChangelogEntry] = {}
    for e in changelog.entries(spec_md):
        out.setdefault(e.version, ChangelogEntry(e.version, parse_date(e.date),
                                                 ChangeClass.__members__.get(e.change_class or ""),
                                                 e.rfcs()))
    return out
