"""The RFC pages of the site: the index as a table with comment periods, and each RFC with its
worked examples shown as highlighted JSON.

* The index gives each RFC's status, its comment period (opens, closes) and where that period
  stands on a given date: ``opens in N days``, ``closes in N days``, ``closes today``,
  ``closed N days ago`` (:func:`period_note`). The date is passed in (the build's ``as_of``),
  so a page is a function of the repository and that date.
* An RFC's worked examples are fenced `````json evalport-TYPE``; no Markdown extension knows
  that info string, so :func:`example_fences` rewrites each opening fence as a JSON block with a
  title. The examples are validated as ``evalport-spec rfc check N`` validates them (it is run,
  and its example findings are kept: :func:`check_examples`); an invalid example stops the build.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from ..errors import InputError
from ..findings import Severity
from ..report.changelog import DOC_TITLES
from ..report.escape import md_cell
from ..rfc.dates import days, parse_date
from ..rfc.lint import examples
from ..spec import SpecRepo

_OPENING = re.compile(r"^(\s*)(`{3,})\s*json\s+evalport-([A-Za-z0-9_-]+)\s*$")


def period_note(period: Any, as_of: dt.date, waiting: object = None) -> str:
    """Where a comment period ``{"opens": DATE, "closes": DATE}`` stands on ``as_of``:
    ``"opens in 3 days"``, ``"closes in 1 day"``, ``"closes today"``, ``"closed 51 days ago"``
    (day counts are calendar days between the dates), or, once the closing date has passed on an
    RFC whose period was extended with no closing date (front matter ``waiting_on``, see
    :mod:`evalport_spec.rfc.status`), ``"extended, no closing date (waiting)"``; ``""`` without a
    readable period."""
    if not isinstance(period, dict):
        return ""
    opens, closes = parse_date(period.get("opens")), parse_date(period.get("closes"))
    if opens is not None and as_of < opens:
        return f"opens in {days((opens - as_of).days)}"
    if closes is None:
        return ""
    if as_of < closes:
        return f"closes in {days((closes - as_of).days)}"
    if as_of == closes:
        return "closes today"
    if isinstance(waiting, str) and waiting.strip():
        return "extended, no closing date (waiting)"
    return f"closed {days((as_of - closes).days)} ago"


_CHECKED: dict[int, tuple[Any, int]] = {}
"""``id(rfc) -> (rfc, examples validated)``: one ``rfc check`` per loaded RFC object, shared by
every version of one build (the RFC object is kept, so its id is not reused)."""


def check_examples(repo: SpecRepo, rfc: Any) -> int:
    """Validate the worked examples of ``rfc`` as ``evalport-spec rfc check`` does (it is run:
    :func:`evalport_spec.workflow.rfccheck.check_rfc`) and return how many it validated (0 when the RFC
    has none: nothing is run).

    Raises:
        InputError: an example that is not JSON or that the version ``rfc check`` validates it on
            rejects (its message and line), or a proposal that cannot be applied.
    """
    if not examples(rfc):
        return 0
    if id(rfc) not in _CHECKED:
        from ..workflow.rfccheck import check_rfc

        report = check_rfc(repo, rfc.number)
        bad = [f for f in report.findings if f.kind.startswith("rfc-example") and f.severity >= Severity.ERROR]
        if bad:
            where = bad[0].new.render() if bad[0].new else rfc.rel
            raise InputError(f"worked example rejected by rfc check: {bad[0].message}", where)
        _CHECKED[id(rfc)] = (rfc, report.examples)
    return _CHECKED[id(rfc)][1]


def example_fences(body: str) -> str:
    """``body`` with each opening fence `````json evalport-TYPE`` rewritten as
    `````json title="TYPE example"`` (pymdownx.superfences reads ``title``), TYPE given as the
    document type's name (``ResultSet``)."""
    def fix(line: str) -> str:
        m = _OPENING.match(line)
        if not m:
            return line
        name = DOC_TITLES.get(m.group(3), m.group(3))
        return f'{m.group(1)}{m.group(2)}json title="{name} example (validated by rfc check)"'
    return "\n".join(fix(line) for line in body.split("\n"))


def rfc_fields(meta: dict[str, Any], as_of: dt.date) -> list[tuple[str, str]]:
    """``(field, value)`` rows of an RFC's details table, from its front matter; the comment
    period gets its :func:`period_note`."""
    out: list[tuple[str, str]] = []
    for key, label in (("status", "Status"), ("number", "Number"), ("authors", "Authors"),
                       ("created", "Created"), ("comment_period", "Comment period"),
                       ("waiting_on", "Waiting on"),
                       ("discussion", "Discussion"), ("affected_documents", "Affected documents"),
                       ("declared_class", "Declared class"), ("implemented_in", "Implemented in"),
                       ("decision_date", "Decision date"), ("superseded_by", "Superseded by")):
        v = meta.get(key)
        if v in (None, "", []):
            continue
        if key == "comment_period" and isinstance(v, dict):
            note = period_note(v, as_of, meta.get("waiting_on"))
            v = f"{v.get('opens', '?')} to {v.get('closes', '?')}" + (f" ({note})" if note else "")
        elif isinstance(v, dict):
            v = " to ".join(str(x) for x in v.values())
        elif isinstance(v, list):
            v = ", ".join(str(x) for x in v)
        elif key == "discussion":
            v = f"[{v}]({v})"
        out.append((label, str(v)))
    return out


def rfc_index(rfcs: list[Any], as_of: dt.date, contributing: str | None = None) -> str:
    """The Markdown of ``rfcs/index.md``: statuses counted, then one row per RFC (number,
    title, status, period opens and closes, :func:`period_note` on ``as_of``, declared class,
    version it was implemented in). ``contributing``: link to the contributing page, if any."""
    lines = ["# RFCs", "",
             "Every change to the schemas, the rule catalogue or the normative text goes through an RFC "
             "with a comment period of at least fourteen days. Statuses: draft, comment, accepted, "
             "rejected, withdrawn, implemented, superseded."
             + (f" How to propose one: [Contributing]({contributing})." if contributing else ""), ""]
    if not rfcs:
        return "\n".join(lines + ["No RFCs yet.", ""])
    counts: dict[str, int] = {}
    for r in rfcs:
        counts[str(r.meta.get("status", "?"))] = counts.get(str(r.meta.get("status", "?")), 0) + 1
    lines += ["Status counts: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())) + ". "
              f"Comment periods as of {as_of.isoformat()}.", "",
              "| RFC | title | status | period opens | period closes | comment period | class | implemented in |",
              "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    for r in rfcs:
        m = r.meta
        period = m.get("comment_period") if isinstance(m.get("comment_period"), dict) else {}
        lines.append(f"| [{r.number:04d}]({r.path.name}) | [{md_cell(m.get('title', r.slug))}]({r.path.name}) | "
                     f"{md_cell(m.get('status', '?'))} | {md_cell(period.get('opens', '—'))} | "
                     f"{md_cell(period.get('closes', '—'))} | {period_note(period, as_of, m.get('waiting_on')) or '—'} | "
                     f"{md_cell(m.get('declared_class', '?'))} | {md_cell(m.get('implemented_in') or '—')} |")
    return "\n".join(lines + [""])
