"""``rules list`` and the rules page: the catalogue joined with what the repository has.

Three renderings of :func:`~evalport_spec.rulecheck.survey.survey` (issue 4):

* ``text``: one aligned row per rule (code, status, document, since, schema claim,
  implementation, fixtures, SPEC.md line, raw-schema behaviour); rules proposed by RFCs (in
  ``rfcs/NNNN-slug/rules.json`` but not in the catalogue) in a second table of their own;
* ``json``: a list of objects, one per rule, with the same facts spelled out;
* ``markdown``: :func:`rules_page`, the page the site includes for each version: per rule its
  statement, the gap (or how the schema carries it), the fixtures and the version it arrived in;
  then the rules open RFCs propose, marked as proposals.

A rule's *status* (:func:`rule_status`): ``released`` (catalogued, and its ``since`` version is
released), ``draft`` (catalogued in the working draft, not released yet), ``proposed`` (only in
an RFC proposal's catalogue: not part of any version; shown as ``proposed (RFC 0005, comment)``
with the RFC's front-matter status), or ``uncatalogued`` (an implementation or schema marker
with no catalogue entry). A proposal has no ``since``: the version its entry names is only the
target.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..catalogue import RuleEntry
from ..errors import InputError
from ..names import RULES_FORMATS
from ..report.table import md_table, text_table
from ..spec import SpecRepo, SpecVersion
from .context import RuleContext
from .survey import RuleStatus, survey

FORMATS = RULES_FORMATS

_CLAIM = {
    "not-expressible": "not expressible",
    "encoded": "encoded in schema",
    "expressible-not-encoded": "expressible, not encoded",
    "uncatalogued": "not catalogued",
}


def rules_table(repo_or_spec: SpecRepo | SpecVersion | Path | str, fmt: str = "text", *,
                rules: Mapping[str, Any] | None = None) -> str:
    """Render the joined rule list in ``fmt`` (``text``, ``json`` or ``markdown``).

    Raises:
        ValueError: unknown ``fmt``.
        InputError: unreadable catalogue, fixtures or schemas.
    """
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r} (expected one of {', '.join(FORMATS)})")
    ctx = RuleContext.build(repo_or_spec, rules=rules)
    statuses = survey(ctx)
    if fmt == "json":
        info = _Statuses(ctx)
        return json.dumps([status_json(ctx, st, info) for st in statuses], indent=2) + "\n"
    if fmt == "markdown":
        return _page(ctx, statuses)
    return _text(ctx, statuses)


def rules_page(spec: SpecRepo | SpecVersion | Path | str, *,
               rules: Mapping[str, Any] | None = None) -> str:
    """The markdown rules page of a version (the site includes it; ``rules list --format
    markdown`` prints it): for each catalogued rule, its statement, document type, the version
    it arrived in (and RFC), whether JSON Schema can express it, the documented gap or how the
    schema carries it (SPEC.md's paragraph, else the catalogue's ``gap``), and its fixtures.

    Raises:
        InputError: unreadable catalogue, fixtures or schemas.
    """
    ctx = RuleContext.build(spec, rules=rules)
    return _page(ctx, survey(ctx))


class _Statuses:
    """Per-listing lookups for :func:`rule_status`: the repository's releases and, per proposed
    code, the RFC that proposes it (number from the proposal folder ``rfcs/NNNN-slug/``, status
    from ``rfcs/NNNN-slug.md``'s front matter)."""

    def __init__(self, ctx: RuleContext) -> None:
        self.released: set[str] | None = None
        if ctx.root is not None and (ctx.root / "spec" / "schemas").is_dir():
            self.released = set(SpecRepo(ctx.root).releases())
        self.proposals: dict[str, tuple[int | None, str]] = {}
        for cat in ctx.rfc_catalogues:
            folder = Path(cat.source).parent if cat.source else None
            number = int(folder.name[:4]) if folder is not None and folder.name[:4].isdigit() else None
            status = _rfc_status(folder) if folder is not None else "status unknown"
            for entry in cat.rules:
                self.proposals.setdefault(entry.code, (entry.rfc if isinstance(entry.rfc, int) else number,
                                                       status))


def _rfc_status(folder: Path) -> str:
    """The ``status`` of ``rfcs/NNNN-slug.md`` for proposal folder ``rfcs/NNNN-slug/``
    (``"status unknown"`` when the file is missing or unreadable)."""
    from ..rfc.model import load_rfc

    md = folder.with_suffix(".md")
    if not md.is_file():
        return "status unknown"
    try:
        status = load_rfc(folder.parent.parent, md).meta.get("status")
    except InputError:
        return "status unknown"
    return status if isinstance(status, str) else "status unknown"


def rule_status(st: RuleStatus, info: _Statuses) -> tuple[str, str]:
    """``(status, label)`` of one rule (see the module docstring): e.g. ``("released",
    "released")``, ``("draft", "draft (unreleased)")``, ``("proposed", "proposed (RFC 0005,
    comment)")``, ``("uncatalogued", "not catalogued")``."""
    if st.entry is not None:
        if info.released is None or st.entry.since in info.released:
            return "released", "released"
        return "draft", "draft (unreleased)"
    if st.proposal is not None:
        number, status = info.proposals.get(st.code, (st.proposal.rfc, "status unknown"))
        rfc = f"RFC {number:04d}" if isinstance(number, int) else "an RFC"
        return "proposed", f"proposed ({rfc}, {status})"
    return "uncatalogued", "not catalogued"


def _claim(e: RuleEntry | None) -> str:
    """``not-expressible``, ``encoded`` or ``expressible-not-encoded`` for a catalogue entry."""
    if e is None:
        return "uncatalogued"
    if e.encoded:
        return "encoded"
    return "expressible-not-encoded" if e.expressible else "not-expressible"


def status_json(ctx: RuleContext, st: RuleStatus, info: _Statuses | None = None) -> dict[str, Any]:
    """The facts of one rule as a JSON-ready dict (keys stable). ``status`` is ``released``,
    ``draft``, ``proposed`` or ``uncatalogued`` (:func:`rule_status`); for a proposal, ``since``
    is ``None`` and ``proposal`` gives ``rfc``, ``rfc_status`` and ``target_version``."""
    info = info or _Statuses(ctx)
    e = st.entry or st.proposal
    status, label = rule_status(st, info)
    proposal = None
    if status == "proposed" and st.proposal is not None:
        number, rfc_status = info.proposals.get(st.code, (st.proposal.rfc, "status unknown"))
        proposal = {"rfc": number, "rfc_status": rfc_status, "target_version": st.proposal.since}
    return {
        "code": st.code,
        "status": status,
        "status_text": label,
        "catalogued": "draft" if st.entry else ("rfc-proposal" if st.proposal else None),
        "document": e.document if e else getattr(st.implementation, "document_type", None),
        "statement": e.statement if e else None,
        "since": st.entry.since if st.entry else None,
        "proposal": proposal,
        "rfc": e.rfc if e else None,
        "expressible": e.expressible if e else None,
        "encoded": e.encoded if e else None,
        "claim": st.kind if st.entry or not st.proposal else _claim(st.proposal),
        "implementation": ({"function": st.spot.name, "file": ctx.rel(st.spot.file),
                            "line": st.spot.line} if st.spot else None),
        "markers": [{"file": ctx.rel(m.source), "pointer": m.pointer, "line": m.line}
                    for m in st.markers],
        "fixtures": {
            "rejecting": [{"id": r.fixture.id, "agrees": r.agrees, "raw_schema_valid": r.raw.valid}
                          for r in st.rejecting],
            "accepting": [{"id": r.fixture.id, "agrees": r.agrees} for r in st.neighbours],
        },
        "spec_md": ({"line": st.heading.line,
                     "gap": st.gap[1] if st.gap else None,
                     "carried": st.carried[1] if st.carried else None} if st.heading else None),
        "schema_behaviour": st.schema_behaviour(),
    }


_HEADER = ("CODE", "STATUS", "DOCUMENT", "SINCE", "SCHEMA", "IMPLEMENTATION", "FIXTURES", "SPEC.md",
           "RAW SCHEMA ON REJECTING FIXTURES")


def _text(ctx: RuleContext, statuses: list[RuleStatus]) -> str:
    """Catalogued (and uncatalogued) rules in one table; RFC proposals in a second one below,
    headed so that no reader takes them for rules of the draft or of a release."""
    info = _Statuses(ctx)
    rows: dict[bool, list[tuple[str, ...]]] = {False: [], True: []}
    for st in statuses:
        status, label = rule_status(st, info)
        e = st.entry or st.proposal
        claim = _CLAIM[st.kind if st.entry or not st.proposal else _claim(st.proposal)]
        impl = st.spot.name.rsplit(".", 1)[-1] if st.spot else (
            "schema" if st.entry is not None and st.entry.encoded else "-")
        fixtures = f"{len(st.rejecting)} reject, {len(st.neighbours)} accept"
        md = f"line {st.heading.line}" if st.heading else "-"
        rows[status == "proposed"].append(
            (st.code, label, e.document if e else getattr(st.implementation, "document_type", "?"),
             st.entry.since if st.entry else "-", claim, impl, fixtures, md, st.schema_behaviour()))
    # one set of column widths for both tables, so they line up
    lines = text_table(_HEADER, [*rows[False], *rows[True]])
    out = lines[:1 + len(rows[False])]
    if rows[True]:
        out += ["", "Proposed by RFCs (not in the rule catalogue, not part of any version; "
                    "`evalport-spec rfc check N` checks a proposal):", lines[0],
                *lines[1 + len(rows[False]):]]
    return "\n".join(out) + "\n"


def _page(ctx: RuleContext, statuses: list[RuleStatus]) -> str:
    name = ctx.spec.name
    out = [f"# Cross-field rules ({name})", "",
           "Rules the validator checks beside the JSON Schema, from the rule catalogue "
           "(`rules.json`). For each rule: what it requires, why plain JSON Schema 2020-12 does "
           "not carry it (or how the schema does), the conformance fixtures that exercise it, and "
           "the version it arrived in.", ""]
    catalogued = [st for st in statuses if st.entry is not None]
    out += md_table(["Code", "Document", "Since", "JSON Schema"],
                    [[f"[`{st.code}`](#{st.code.lower()})", st.entry.document, st.entry.since,
                      _CLAIM[st.kind]] for st in catalogued if st.entry is not None]
                    or [["(none)", "", "", ""]])
    info = _Statuses(ctx)
    proposed = [st for st in statuses if st.entry is None and st.proposal is not None]
    for st in catalogued:
        e = st.entry
        assert e is not None
        out += ["", f"## {st.code}", "", e.statement, ""]
        since = e.since + (f" (RFC {e.rfc:04d})" if isinstance(e.rfc, int) else "")
        out += [f"- **Document type:** {e.document}", f"- **Since:** {since}",
                "- **Reads:** " + ", ".join(f"`{r}`" for r in e.reads)]
        if e.reported_at:
            out.append("- **Reported at:** " + ", ".join(f"`{p}`" for p in e.reported_at))
        out.append(f"- **JSON Schema:** {_CLAIM[st.kind]}")
        out.append("")
        if e.encoded:
            text = st.carried[1] if st.carried and st.carried[1] else e.gap
            out.append(f"**Carried by the schema:** {text}")
        else:
            text = st.gap[1] if st.gap and st.gap[1] else e.gap
            out.append(f"**Why JSON Schema does not carry it:** {text}")
        out += ["", "**Fixtures:**", ""]
        if not st.rejecting and not st.neighbours:
            out.append("- none in this version")
        for r in st.rejecting:
            paths = ", ".join(f"`{p or '/'}`" for c, p in r.fixture.errors if c == st.code)
            out.append(f"- `{r.fixture.id}`: rejected at {paths}")
        for r in st.neighbours:
            out.append(f"- `{r.fixture.id}`: accepted (near neighbour)")
    if proposed:
        out += ["", "## Proposed by RFCs", "",
                "Rules that open RFCs propose. They are not in this version's rule catalogue and "
                "not part of its conformance requirements; each may change or be dropped before "
                "it is accepted.", ""]
        out += md_table(["Code", "Status", "Document", "Statement"],
                        [[f"`{st.code}`", rule_status(st, info)[1], st.proposal.document,
                          st.proposal.statement] for st in proposed if st.proposal is not None])
    return "\n".join(out) + "\n"
