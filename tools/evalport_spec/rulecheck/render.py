"""``rules list`` and the rules page: the catalogue joined with what the repository has.

Three renderings of :func:`~evalport_spec.rulecheck.survey.survey` (issue 4):

* ``text``: one aligned row per rule (code, document, since, schema claim, implementation,
  fixtures, SPEC.md line, raw-schema behaviour);
* ``json``: a list of objects, one per rule, with the same facts spelled out;
* ``markdown``: :func:`rules_page`, the page the site includes for each version: per rule its
  statement, the gap (or how the schema carries it), the fixtures and the version it arrived in.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..spec import SpecRepo, SpecVersion
from .context import RuleContext
from .survey import RuleStatus, survey

FORMATS = ("text", "json", "markdown")

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
        return json.dumps([status_json(ctx, st) for st in statuses], indent=2) + "\n"
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


def status_json(ctx: RuleContext, st: RuleStatus) -> dict[str, Any]:
    """The facts of one rule as a JSON-ready dict (keys stable)."""
    e = st.entry or st.proposal
    return {
        "code": st.code,
        "catalogued": "draft" if st.entry else ("rfc-proposal" if st.proposal else None),
        "document": e.document if e else getattr(st.implementation, "document_type", None),
        "statement": e.statement if e else None,
        "since": e.since if e else None,
        "rfc": e.rfc if e else None,
        "expressible": e.expressible if e else None,
        "encoded": e.encoded if e else None,
        "claim": st.kind,
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


def _text(ctx: RuleContext, statuses: list[RuleStatus]) -> str:
    header = ("CODE", "DOCUMENT", "SINCE", "SCHEMA", "IMPLEMENTATION", "FIXTURES", "SPEC.md",
              "RAW SCHEMA ON REJECTING FIXTURES")
    rows = [header]
    for st in statuses:
        e = st.entry or st.proposal
        claim = _CLAIM[st.kind] if st.entry or not st.proposal else "RFC proposal"
        impl = st.spot.name.rsplit(".", 1)[-1] if st.spot else (
            "schema" if st.entry and st.entry.encoded else "-")
        fixtures = f"{len(st.rejecting)} reject, {len(st.neighbours)} accept"
        md = f"line {st.heading.line}" if st.heading else "-"
        rows.append((st.code, e.document if e else getattr(st.implementation, "document_type", "?"),
                     e.since if e else "-", claim, impl, fixtures, md, st.schema_behaviour()))
    widths = [max(len(r[i]) for r in rows) for i in range(len(header) - 1)]
    lines = ["  ".join(c.ljust(w) for c, w in zip(r[:-1], widths, strict=True)) + "  " + r[-1] for r in rows]
    return "\n".join(line.rstrip() for line in lines) + "\n"


def _page(ctx: RuleContext, statuses: list[RuleStatus]) -> str:
    name = ctx.spec.name
    out = [f"# Cross-field rules ({name})", "",
           "Rules the validator checks beside the JSON Schema, from the rule catalogue "
           "(`rules.json`). For each rule: what it requires, why plain JSON Schema 2020-12 does "
           "not carry it (or how the schema does), the conformance fixtures that exercise it, and "
           "the version it arrived in.", "",
           "| Code | Document | Since | JSON Schema |", "| --- | --- | --- | --- |"]
    catalogued = [st for st in statuses if st.entry is not None]
    for st in catalogued:
        e = st.entry
        assert e is not None
        out.append(f"| [`{st.code}`](#{st.code.lower()}) | {e.document} | {e.since} | "
                   f"{_CLAIM[st.kind]} |")
    if not catalogued:
        out.append("| (none) | | | |")
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
    return "\n".join(out) + "\n"
