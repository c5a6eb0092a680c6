"""``rules check``: every cross-field rule has an implementation, a fixture, and a documented,
TRUE gap (toolchain.md, "Cross-field rules and their documented gaps"; issue 4).

For every rule code:

1. the catalogue and the implementation agree: codes are unique in the catalogue; every
   implemented code is catalogued (in the draft, or in an RFC proposal's
   ``rfcs/NNNN-slug/rules.json``); every catalogued code is implemented unless the schema
   encodes it; the implementation is registered for the catalogued document type; every
   ``x-evalport-rule`` marker names a catalogued code;
2. at least one fixture is rejected with exactly that code at its stated instance path (its
   expected full-validator errors are all this code, the full validator reports exactly those,
   and each path fits the catalogue's ``reported_at``/``reads``), and at least one near neighbour (a fixture listing the code in
   ``rules`` with ``expect.full.valid`` true) is accepted;
3. SPEC.md states the rule (``### CODE`` under ``## Cross-field rules``) and documents the gap
   (``**Why JSON Schema does not carry it:**``) or says the schema carries it
   (``**Carried by the schema:**``), matching the catalogue;
4. the claim is TRUE: a rule the schema does not carry is accepted by the raw schema on every
   rejecting fixture (one whose expected errors are all this code); a rule the schema carries is rejected by the raw schema on every rejecting
   fixture, through a subschema marked ``"x-evalport-rule": "CODE"`` (the same schema with that
   subschema replaced by ``true`` accepts); a rule catalogued as expressible but not encoded
   gets a warning with a suggestion.

Each failure is a :class:`~evalport_spec.findings.Finding` (severity error, or warning for the
suggestion) whose :func:`~evalport_spec.rulecheck.context.format_finding` line is
``path:line: CODE: what is wrong``. SPEC.md/schema drift is checked by
:mod:`evalport_spec.rulecheck.drift` and included by :func:`check_rules`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from .. import specmd
from ..catalogue import RuleEntry
from ..findings import Finding, Severity
from ..spec import SpecRepo, SpecVersion
from .context import RuleContext
from .schemawalk import MARKER
from .survey import FixtureRun, RuleStatus, matches_pattern, survey


def check_rules(repo_or_spec: SpecRepo | SpecVersion | Path | str, *,
                rules: Mapping[str, Any] | None = None, drift: bool = True) -> list[Finding]:
    """Run the rule check on a repository (its draft) or a version.

    Args:
        repo_or_spec: a :class:`SpecRepo`, a repository root, or a :class:`SpecVersion` (its
            ``rfcs/`` are found when its folder is ``<root>/spec``).
        rules: implementation registry ``{code: Rule}`` (default: the validator's ``RULES``);
            tests substitute one to show the check fails.
        drift: also run the SPEC.md/schema drift check (:func:`~.drift.check_drift`).

    Returns:
        Findings in a stable order (errors and warnings); the stage fails if any is an error.

    Raises:
        InputError: a malformed catalogue, fixture, schema or SPEC.md-independent input file.
    """
    ctx = RuleContext.build(repo_or_spec, rules=rules)
    return check_context(ctx, drift=drift)


def check_context(ctx: RuleContext, *, drift: bool = True) -> list[Finding]:
    """:func:`check_rules` on an already built :class:`RuleContext`."""
    statuses = survey(ctx)
    out: list[Finding] = []
    out += _unique_codes(ctx)
    for st in statuses:
        out += _implementation(ctx, st)
        if st.entry is None:
            continue
        out += _fixtures(ctx, st)
        out += _spec_md(ctx, st)
        out += _claim(ctx, st)
    if drift:
        from .drift import check_drift

        out += check_drift(ctx)
    return out


def errors_in(findings: list[Finding]) -> list[Finding]:
    """The findings of severity error (those that fail the stage)."""
    return [f for f in findings if f.severity >= Severity.ERROR]


# -- 1. catalogue and implementation ---------------------------------------------------------

def _unique_codes(ctx: RuleContext) -> list[Finding]:
    out = []
    first: dict[str, int | None] = {}
    for entry in ctx.catalogue.rules:
        if entry.code in first:
            out.append(ctx.finding(
                "rule-code-duplicate",
                f"code is catalogued twice (first entry at line {first[entry.code]})",
                code=entry.code, file=ctx.catalogue_file, line=entry.line))
        else:
            first[entry.code] = entry.line
    return out


def _implementation(ctx: RuleContext, st: RuleStatus) -> list[Finding]:
    out = []
    e = st.entry
    if st.implementation is not None and e is None and st.proposal is None:
        spot = st.spot
        out.append(ctx.finding(
            "rule-not-catalogued",
            f"implemented ({spot.name if spot else '?'}) but catalogued neither in "
            f"{ctx.rel(ctx.catalogue_file)} nor in an RFC proposal's rules.json",
            code=st.code, file=spot.file if spot else None, line=spot.line if spot else None))
    for m in st.markers:
        if e is None and st.proposal is None:
            out.append(ctx.finding(
                "rule-not-catalogued",
                f"a subschema carries \"{MARKER}\": \"{st.code}\" but the code is not catalogued",
                code=st.code, file=m.source, line=m.line, pointer=m.pointer))
    if e is None:
        return out
    if st.implementation is None and not e.encoded:
        out.append(ctx.finding(
            "rule-not-implemented",
            "catalogued but no implementation is registered under this code and the "
            "catalogue does not say the schema encodes it",
            code=st.code, file=ctx.catalogue_file, line=e.line))
    doc_type = getattr(st.implementation, "document_type", None)
    if st.implementation is not None and doc_type is not None and doc_type != e.document:
        out.append(ctx.finding(
            "rule-document-mismatch",
            f"catalogued for document {e.document!r} but implemented for {doc_type!r}",
            code=st.code, file=ctx.catalogue_file, line=e.line))
    declared = set(getattr(st.implementation, "parameters", ()) or ())
    given = set(e.parameter_values())
    if st.implementation is not None and declared != given:
        what = "; ".join(x for x in (
            f"its implementation takes {', '.join(sorted(declared - given))}, which the entry does not give"
            if declared - given else "",
            f"the entry gives {', '.join(sorted(given - declared))}, which its implementation does not take"
            if given - declared else "") if x)
        out.append(ctx.finding("rule-parameter-mismatch", f"catalogue parameters disagree with the "
                               f"implementation: {what}", code=st.code, file=ctx.catalogue_file, line=e.line))
    if e.encoded and not e.expressible:
        out.append(ctx.finding(
            "rule-catalogue-inconsistent",
            "catalogue entry says encoded: true but expressible: false",
            code=st.code, file=ctx.catalogue_file, line=e.line))
    return out


# -- 2. fixtures -----------------------------------------------------------------------------

def _fixtures(ctx: RuleContext, st: RuleStatus) -> list[Finding]:
    out = []
    e = st.entry
    assert e is not None
    good = blocked = 0
    for run in st.rejecting:
        fx = run.fixture
        lines = fx.error_lines or (None,) * len(fx.errors)
        stated = [(p, ln) for (c, p), ln in zip(fx.errors, lines, strict=True) if c == st.code]
        for path, line in stated:
            if not _reported_where_stated(e, path):
                where = (f"none of the catalogue's reported_at locations ({', '.join(e.reported_at)})"
                         if e.reported_at else "no location the rule reads nor an ancestor of one")
                out.append(ctx.finding(
                    "rule-fixture-path",
                    f"fixture '{fx.id}' expects the rule at {path}, which is {where}",
                    code=st.code, file=fx.file, line=line or fx.line))
        if not run.agrees:
            others = other_reasons(ctx, st, run)
            if others and set(fx.errors) <= set(run.actual):
                blocked += 1
                out.append(ctx.finding(
                    "rule-fixture-invalid-otherwise",
                    f"rejecting fixture '{fx.id}' became invalid for another reason: "
                    f"{'; '.join(others)} (besides the expected {_pairs(fx.errors)})",
                    code=st.code, file=fx.file, line=fx.line))
                continue
            out.append(ctx.finding(
                "rule-fixture-disagrees",
                f"fixture '{fx.id}' expects {_pairs(fx.errors)} but the validator reports "
                f"{_pairs(run.actual) or 'nothing'}",
                code=st.code, file=fx.file, line=fx.line))
            continue
        if any(_reported_where_stated(e, p) for p, _ in stated):
            good += 1
    if good == 0 and not blocked:
        out.append(ctx.finding(
            "rule-no-rejecting-fixture",
            "no conformance fixture is rejected with this code at its stated instance path",
            code=st.code, file=ctx.catalogue_file, line=e.line))
    if not any(run.agrees and not run.actual for run in st.neighbours):
        otherwise = 0
        for run in st.neighbours:
            if run.agrees:
                continue
            others = other_reasons(ctx, st, run)
            if others and all(c != st.code for c, _ in run.actual):
                otherwise += 1
                out.append(ctx.finding(
                    "rule-fixture-invalid-otherwise",
                    f"near-neighbour fixture '{run.fixture.id}' became invalid for another "
                    f"reason: {'; '.join(others)}",
                    code=st.code, file=run.fixture.file, line=run.fixture.line))
                continue
            out.append(ctx.finding(
                "rule-fixture-disagrees",
                f"near-neighbour fixture '{run.fixture.id}' expects no error but the "
                f"validator reports {_pairs(run.actual)}",
                code=st.code, file=run.fixture.file, line=run.fixture.line))
        if not st.neighbours or otherwise < sum(not r.agrees for r in st.neighbours):
            out.append(ctx.finding(
                "rule-no-accepted-neighbour",
                "no near-neighbour fixture (one listing this code in `rules` with expect.full.valid "
                "true) is accepted",
                code=st.code, file=ctx.catalogue_file, line=e.line))
    return out


def _pairs(errors: Iterable[tuple[str, str]]) -> str:
    """``CODE at /path, ...`` (the root as ``/``)."""
    return ", ".join(f"{c} at {p or '/'}" for c, p in errors)


def other_reasons(ctx: RuleContext, st: RuleStatus, run: FixtureRun) -> list[str]:
    """Why a fixture of rule ``st`` is invalid for a reason other than the rule: each error the
    full validator reports that is another catalogued rule's code, or a schema error at an
    instance location unrelated to the places the rule reads or reports at (neither one of them,
    an ancestor down to the first member, nor below one), as ``"CODE at PATH (schema)"`` or
    ``"(another rule)"``; empty when there is none. A schema error where the rule reads may be
    the schema carrying the rule, so it is never counted here."""
    e = st.entry or st.proposal
    patterns = [p for p in (*e.reads, *e.reported_at) if p] if e else []
    rules = set(ctx.catalogue.codes())
    out = []
    for code, path in sorted(set(run.actual)):
        if code == st.code:
            continue
        if code in rules:
            out.append(f"{code} at {path or '/'} (another rule)")
        elif patterns and not _touches(path, patterns):
            out.append(f"{code} at {path or '/'} (schema)")
    return out


def _touches(path: str, patterns: list[str]) -> bool:
    """``path`` or one of its ancestors (down to the first member) matches a pattern or one of
    the pattern's ancestors (:func:`~.survey.matches_pattern` with ``ancestors``)."""
    parts = path.split("/")
    return any(matches_pattern("/".join(parts[:n]), p, ancestors=True)
               for n in range(len(parts), 1, -1) for p in patterns)


def _reported_where_stated(e: RuleEntry, path: str) -> bool:
    """A stated instance path fits the catalogue: it matches one of the ``reported_at``
    patterns exactly; for an entry without ``reported_at``, one of the ``reads`` patterns or an
    ancestor of one (no patterns at all: anything fits)."""
    if e.reported_at:
        return any(matches_pattern(path, p) for p in e.reported_at)
    patterns = [p for p in e.reads if p]
    return not patterns or any(matches_pattern(path, p, ancestors=True) for p in patterns)


# -- 3. SPEC.md ------------------------------------------------------------------------------

def _spec_md(ctx: RuleContext, st: RuleStatus) -> list[Finding]:
    e = st.entry
    assert e is not None
    md_file = ctx.spec_md_file
    if st.heading is None:
        section = ctx.markdown.section(specmd.RULES_SECTION)
        return [ctx.finding(
            "rule-not-in-spec-md",
            f"SPEC.md does not state this rule (no '### {st.code}' under "
            f"'## {specmd.RULES_SECTION}')",
            code=st.code, file=md_file, line=section.line if section else None)]
    line = st.heading.line
    # an encoded rule needs the "carried" paragraph, any other rule the "gap" paragraph
    if e.encoded:
        mark, para, other = specmd.CARRIED_MARK, st.carried, st.gap
        what = "say the schema carries it"
        contradiction = "it documents a gap although the catalogue says encoded: true"
    else:
        mark, para, other = specmd.GAP_MARK, st.gap, st.carried
        what = "document its gap"
        contradiction = "it says the schema carries the rule although the catalogue says encoded: false"
    if para is None:
        return [ctx.finding(
            "rule-gap-undocumented",
            f"SPEC.md states the rule but does not {what} (no paragraph starting '{mark}')"
            + (f"; {contradiction}" if other is not None else ""),
            code=st.code, file=md_file, line=line)]
    if not para[1]:
        return [ctx.finding("rule-gap-undocumented", f"the '{mark}' paragraph is empty",
                            code=st.code, file=md_file, line=para[0])]
    return []


# -- 4. the claim is true ----------------------------------------------------------------------

def _claim(ctx: RuleContext, st: RuleStatus) -> list[Finding]:
    out = []
    e = st.entry
    assert e is not None
    if e.encoded:
        if not st.markers:
            out.append(ctx.finding(
                "rule-marker-missing",
                f"the catalogue says the schema encodes this rule but no subschema carries "
                f"\"{MARKER}\": \"{st.code}\"",
                code=st.code, file=ctx.catalogue_file, line=e.line))
        for run in st.rejecting:
            fx = run.fixture
            if other_reasons(ctx, st, run):  # reported as that reason by _fixtures
                continue
            if run.raw.valid:
                out.append(ctx.finding(
                    "rule-encoding-false",
                    f"the catalogue says the schema carries this rule, but the raw schema accepts "
                    f"rejecting fixture '{fx.id}'",
                    code=st.code, file=fx.file, line=fx.line))
            elif run.raw_unmarked_valid is False:
                out.append(ctx.finding(
                    "rule-encoding-false",
                    f"the raw schema rejects fixture '{fx.id}' {run.raw.describe()}, but not "
                    f"through the subschema marked \"{MARKER}\": \"{st.code}\" (it still "
                    f"rejects with that subschema removed)",
                    code=st.code, file=fx.file, line=fx.line))
        return out
    for m in st.markers:
        out.append(ctx.finding(
            "rule-marker-unexpected",
            f"a subschema carries \"{MARKER}\": \"{st.code}\" but the catalogue says encoded: false",
            code=st.code, file=m.source, line=m.line, pointer=m.pointer))
    for run in st.rejecting:
        fx = run.fixture
        if not run.raw.valid and not other_reasons(ctx, st, run):
            out.append(ctx.finding(
                "rule-gap-false",
                f"the documented gap is false: the raw schema rejects rejecting fixture "
                f"'{fx.id}' {run.raw.describe()}",
                code=st.code, file=fx.file, line=fx.line))
    if e.expressible:
        out.append(ctx.finding(
            "rule-expressible-not-encoded",
            f"expressible in JSON Schema 2020-12 but not encoded; suggestion: add a subschema "
            f"with \"{MARKER}\": \"{st.code}\" (e.g. if/then) and set encoded: true, so "
            f"schema-only consumers enforce it too",
            code=st.code, file=ctx.catalogue_file, line=e.line, severity=Severity.WARNING))
    return out
