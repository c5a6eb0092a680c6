"""The join behind ``rules list``, the rules page and ``rules check``: for each rule, what the
repository actually has.

For every code in the catalogue, in any RFC proposal catalogue, in the implementation registry
or on an ``x-evalport-rule`` marker, a :class:`RuleStatus` records the catalogue entry, the
implementation, the fixtures that reject with the code and the near neighbours that name it,
SPEC.md's section and paragraphs, the schema markers, and how the *raw* schema (JSON Schema
alone, ``format`` asserted) treats each rejecting fixture (toolchain.md, "Cross-field rules and
their documented gaps").
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import specmd
from ..catalogue import RuleEntry
from ..errors import InputError
from ..jsonload import load
from ..pointer import from_path
from ..schemaset import SchemaSet
from ..validation.violation import path_sort_key
from .context import RuleContext, SourceSpot, implementation_spot
from .schemawalk import Marker, markers, without_markers


@dataclass(frozen=True)
class FixtureView:
    """The parts of a conformance fixture the rule check reads.

    Attributes:
        id: the fixture's stable id.
        file: its path label; ``line``: line of its ``document`` member.
        document_type: ``suite``, ``testcase``, ``grader`` or ``resultset``.
        rules: codes the fixture lists in ``rules`` (it is about those rules).
        document: the instance.
        full_valid: ``expect.full.valid``; ``errors``: ``expect.full.errors`` as ``(code, path)``.
        error_lines: line of each expected error (same order as ``errors``).
    """

    id: str
    file: str
    line: int | None
    document_type: str
    rules: tuple[str, ...]
    document: Any
    full_valid: bool
    errors: tuple[tuple[str, str], ...]
    error_lines: tuple[int | None, ...] = ()


@dataclass
class RawOutcome:
    """The raw schema on one fixture document: errors as ``(instance pointer, keyword)``,
    sorted; ``valid`` when there are none."""

    errors: list[tuple[str, str]]

    @property
    def valid(self) -> bool:
        """True when the raw schema accepts the document."""
        return not self.errors

    def describe(self) -> str:
        """``at /group (keyword `not`)`` for the first error, ``''`` when valid."""
        if not self.errors:
            return ""
        ptr, kw = self.errors[0]
        return f"at {ptr or '/'} (keyword `{kw}`)"


@dataclass
class FixtureRun:
    """One fixture run for one rule: the full validator's violations and the raw schema's."""

    fixture: FixtureView
    actual: list[tuple[str, str]]
    raw: RawOutcome
    raw_unmarked_valid: bool | None = None

    @property
    def agrees(self) -> bool:
        """The full validator reports exactly the fixture's expected ``(code, path)`` pairs."""
        return sorted(set(self.actual)) == sorted(set(self.fixture.errors)) and (
            bool(self.actual) != self.fixture.full_valid)


@dataclass
class RuleStatus:
    """Everything known about one rule code (see module docstring).

    ``rejecting`` holds the fixtures whose expected full-validator errors are all this code
    (fixtures mixing several codes exercise the validator, not one rule's gap); ``neighbours``
    those listing the code in ``rules`` and expected valid.
    """

    code: str
    entry: RuleEntry | None
    proposal: RuleEntry | None = None
    implementation: Any = None
    spot: SourceSpot | None = None
    rejecting: list[FixtureRun] = field(default_factory=list)
    neighbours: list[FixtureRun] = field(default_factory=list)
    heading: specmd.Heading | None = None
    gap: tuple[int, str] | None = None
    carried: tuple[int, str] | None = None
    markers: list[Marker] = field(default_factory=list)

    @property
    def kind(self) -> str:
        """``not-expressible``, ``encoded`` or ``expressible-not-encoded`` (from the catalogue;
        ``uncatalogued`` when there is no draft entry)."""
        e = self.entry
        if e is None:
            return "uncatalogued"
        if e.encoded:
            return "encoded"
        return "expressible-not-encoded" if e.expressible else "not-expressible"

    def schema_behaviour(self) -> str:
        """One phrase: how the raw schema treats the rejecting fixtures."""
        if not self.rejecting:
            return "no rejecting fixture"
        rejected = sum(not r.raw.valid for r in self.rejecting)
        n = len(self.rejecting)
        if rejected == 0:
            return f"raw schema accepts {n}/{n} rejecting fixtures (gap holds)"
        if rejected == n:
            return f"raw schema rejects {n}/{n} rejecting fixtures"
        return f"raw schema rejects {rejected}/{n} rejecting fixtures"


def fixture_views(ctx: RuleContext) -> list[FixtureView]:
    """The version's fixtures as :class:`FixtureView`\\ s, in file-name order."""
    return [_view(fx) for fx in ctx.fixtures]


def _view(fx: Any) -> FixtureView:
    """Adapt :class:`evalport_spec.conformance.Fixture` to :class:`FixtureView` (the file is
    read again, strictly, for line numbers)."""
    lines: dict[tuple[str, str], int | None] = {}
    doc_line: int | None = None
    loaded = None
    if fx.rules or fx.full.errors:  # only fixtures about a rule are ever named in a finding
        try:
            loaded = load(fx.source)
        except InputError:
            loaded = None
    if loaded is not None:
        doc_line = loaded.line("/document")
        raw = loaded.value.get("expect", {}).get("full", {}).get("errors", []) if isinstance(
            loaded.value, dict) else []
        for i, e in enumerate(raw if isinstance(raw, list) else []):
            if isinstance(e, dict):
                lines.setdefault((e.get("code"), e.get("instance_path")),
                                 loaded.line(f"/expect/full/errors/{i}"))
    errors = tuple(sorted(fx.full.errors or ()))
    return FixtureView(fx.id, fx.source, doc_line, fx.document_type, tuple(fx.rules), fx.document,
                       fx.full.valid, errors, tuple(lines.get(e) for e in errors))


class _RawCache:
    """Raw-schema outcomes per (schema set, document type, fixture id), computed once."""

    def __init__(self, ctx: RuleContext) -> None:
        self.ctx = ctx
        self._validators: dict[tuple[int, str], Any] = {}
        self._out: dict[tuple[int, str], RawOutcome] = {}

    def outcome(self, schemas: SchemaSet, fx: FixtureView) -> RawOutcome:
        key = (id(schemas), fx.id)
        if key not in self._out:
            vkey = (id(schemas), fx.document_type)
            if vkey not in self._validators:
                name = self.ctx.spec.schema_name(fx.document_type)
                self._validators[vkey] = schemas.validator(name, format_assertion=True)
            errs = self._validators[vkey].iter_errors(fx.document)
            pairs = sorted({(from_path(e.absolute_path), str(e.validator)) for e in errs},
                           key=lambda p: (path_sort_key(p[0]), p[1]))
            self._out[key] = RawOutcome(pairs)
        return self._out[key]


def survey(ctx: RuleContext) -> list[RuleStatus]:
    """One :class:`RuleStatus` per code: draft catalogue order first, then codes known only
    from RFC proposals, the registry or schema markers (sorted).

    Raises:
        InputError: malformed catalogue, fixture, schema or RFC proposal catalogue.
    """
    catalogue = ctx.catalogue
    statuses: dict[str, RuleStatus] = {}
    for entry in catalogue.rules:
        statuses.setdefault(entry.code, RuleStatus(entry.code, entry))
    extra: dict[str, RuleStatus] = {}

    def status(code: str) -> RuleStatus:
        if code in statuses:
            return statuses[code]
        return extra.setdefault(code, RuleStatus(code, None))

    for code, rule in ctx.registry.items():
        st = status(code)
        st.implementation = rule
        st.spot = implementation_spot(rule)
    for m in markers(ctx.spec.schemas):
        status(m.code).markers.append(m)
    for cat in ctx.rfc_catalogues:
        for entry in cat.rules:
            st = status(entry.code)
            if st.proposal is None:
                st.proposal = entry

    headings = {h.text: h for h in ctx.markdown.subsections(specmd.RULES_SECTION)}
    for code, st in statuses.items():
        h = headings.get(code)
        if h is not None:
            st.heading = h
            st.gap = ctx.markdown.paragraph_after(h, specmd.GAP_MARK)
            st.carried = ctx.markdown.paragraph_after(h, specmd.CARRIED_MARK)

    raw = _RawCache(ctx)
    views = fixture_views(ctx)
    validator = ctx.validator
    unmarked: dict[str, SchemaSet] = {}
    for st, run, expects in _fixture_runs(list(statuses.values()), views, validator,
                                          ctx.spec.schemas, raw):
        if expects:
            if st.markers and not run.raw.valid:
                if st.code not in unmarked:
                    unmarked[st.code] = without_markers(ctx.spec.schemas, st.code)
                run.raw_unmarked_valid = raw.outcome(unmarked[st.code], run.fixture).valid
            st.rejecting.append(run)
        else:
            st.neighbours.append(run)
    _proposal_fixtures(ctx, [st for st in extra.values() if st.proposal is not None], raw)
    return list(statuses.values()) + [extra[c] for c in sorted(extra)]


def _proposal_fixtures(ctx: RuleContext, proposed: list[RuleStatus], raw: _RawCache) -> None:
    """Fill ``rejecting`` / ``neighbours`` of rules only an RFC proposes from that proposal's
    own fixtures (``rfcs/NNNN-slug/fixtures/*.json``), each run against the *proposed* version
    (the draft with the proposal's ``patch.json`` and ``rules.json`` applied, as
    :func:`evalport_spec.rfc.proposal.plan` builds it, which ``rfc check`` also runs).

    A proposal that does not apply (bad patch, a code already in the draft) or whose RFC file is
    missing adds no fixture: ``rfc check`` and ``rfc lint`` report those.
    """
    if ctx.root is None or not proposed:
        return
    by_folder: dict[Path, list[RuleStatus]] = {}
    for cat in ctx.rfc_catalogues:
        if not cat.source:
            continue
        folder = Path(cat.source).parent
        codes = {e.code for e in cat.rules}
        hits = [st for st in proposed if st.code in codes]
        if hits and (folder / "fixtures").is_dir():
            by_folder.setdefault(folder, []).extend(hits)
    if not by_folder:
        return
    from ..rfc.model import load_rfc
    from ..rfc.proposal import UNAPPLIED, plan
    from ..validation import Validator

    alive = []  # raw outcomes are cached by id(schemas): keep each proposed version alive
    for folder, statuses in by_folder.items():
        rfc_file = folder.with_suffix(".md")
        if not rfc_file.is_file():
            continue
        try:
            p = plan(ctx.root, load_rfc(ctx.root, rfc_file))
        except InputError:
            continue
        if p.state != UNAPPLIED:
            continue
        version = p.proposed
        views = [_view(fx) for fx in p.proposal.fixtures]
        validator = Validator(version, rules=ctx.registry)
        schemas = version.schemas
        alive.append(version)
        for st, run, expects in _fixture_runs(statuses, views, validator, schemas, raw):
            (st.rejecting if expects else st.neighbours).append(run)


def _fixture_runs(statuses: list[RuleStatus], views: list[Any], validator: Any,
                  schemas: SchemaSet, raw: _RawCache):
    """Yield ``(status, FixtureRun, expects)`` for every fixture that bears on a rule: one that
    expects exactly that rule's code (``expects`` true: a rejecting fixture) or a valid one that
    lists the code in ``rules`` (a near neighbour). Each fixture is validated once."""
    actual: dict[str, list[tuple[str, str]]] = {}
    for st in statuses:
        for fx in views:
            expects = (not fx.full_valid and bool(fx.errors)
                       and all(c == st.code for c, _ in fx.errors))
            if not (expects or (fx.full_valid and st.code in fx.rules)):
                continue
            if fx.id not in actual:
                actual[fx.id] = [v.key() for v in validator.validate(fx.document, fx.document_type)]
            yield st, FixtureRun(fx, actual[fx.id], raw.outcome(schemas, fx)), expects


_PATTERN_CACHE: dict[str, re.Pattern[str]] = {}


def matches_pattern(pointer: str, pattern: str, *, ancestors: bool = False) -> bool:
    """Whether a JSON Pointer matches an instance-location pattern (``*`` = any array index).

    With ``ancestors``, a pointer matching a non-empty leading part of the pattern also counts
    (``/results/1`` for ``/results/*/isolation``): a rule may report at the object that lacks
    the member the pattern names (SPEC.md, ISOLATION_MISMATCH).
    """
    tokens = pattern.split("/")
    candidates = [pattern]
    if ancestors:
        candidates += ["/".join(tokens[:n]) for n in range(len(tokens) - 1, 1, -1)]
    for cand in candidates:
        if cand not in _PATTERN_CACHE:
            parts = [r"\d+" if t == "*" else re.escape(t) for t in cand.split("/")]
            _PATTERN_CACHE[cand] = re.compile("/".join(parts) + r"\Z")
        if _PATTERN_CACHE[cand].match(pointer):
            return True
    return False
