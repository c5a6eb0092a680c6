"""The gate's stages, one function each: ``stage(ctx) -> (findings, summary, change_class)``.

Each stage reads what it needs through :class:`~evalport_spec.gate.context.GateContext` and
returns :class:`~evalport_spec.findings.Finding` objects; error-severity findings fail the stage.
The order and meaning are those of ``evalport-spec check`` (docs/how-to/gate-in-ci.md).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path

from .. import changelog, gitsource
from ..conformance import run as run_fixtures
from ..errors import InputError
from ..findings import ChangeClass, Finding, Location, Severity, input_finding
from ..fsutil import read_optional
from ..jsonload import MAX_BYTES, load
from ..manifest import verify_manifest
from ..policy import apply_major_rule, breaking, effective_class, version_problem
from ..release import rfcs_in_release
from ..rfc import index_findings, lint_rfcs
from ..rfc.accept import OPEN_STATUSES, accepts_of, bind_after
from ..rulecheck import check_rules
from ..schemaset import DIALECT_2020_12
from ..schemawalk import subschemas
from ..spec import DRAFT, parse_semver
from ..specsync.record import records
from ..validation import Validator
from . import history
from .acceptance import HistoryLedger, Ledger, RfcState, metas_at, release_line, states
from .behaviour import Side, compare_behaviour, merge_with_classification
from .context import GateContext, StageSkipped, stage_input_finding
from .frozen import stage_behaviour, stage_history
from .ignorecommit import bind_entries
from .ignores import drop_ignored, stale_entries
from .layout import layout_findings
from .links import link_findings
from .metaschema import meta_validator
from .reroute import rerouted_findings
from .rulecode import KIND as CODE_KIND
from .rulecode import code_findings
from .schemaids import schema_id_findings
from .spectext import check_draft_text, check_spec_text, sentence_findings

StageOut = tuple[list[Finding], str, "ChangeClass | None"]

_ID_VERSION = re.compile(r"/spec/([^/]+)/schemas/[^/]+$")


def _versions(ctx: GateContext) -> list[str]:
    return ctx.repo.all_versions()


def stage_schemas(ctx: GateContext) -> StageOut:
    """Every schema of the draft and of every release is a valid schema of its dialect
    (2020-12 meta-schema), written in JSON Schema 2020-12 (SPEC.md, "Schemas": no ``$schema``
    naming another dialect, at the root or on an embedded resource, error ``schema-dialect``),
    every ``$ref`` resolves offline inside its set, and each ``$id`` has its version's segment
    (``/spec/draft/schemas/`` or ``/spec/X.Y.Z/schemas/``; docs/architecture.md), and every
    embedded ``$id`` lies under its version's base URI (``schema-id-outside-version``,
    :mod:`evalport_spec.gate.schemaids`: an embedded resource named by another version's URI
    would redefine that schema for every ``$ref`` of the set).
    The 2020-12 meta-schema check is memoised per subschema (:mod:`.metaschema`).

    Why the dialect is enforced, not only described: a document is validated with the format
    checker and keyword semantics of the root schema it is checked against (a TestCase inside a
    Suite by Suite's), while the classifier reads each file in its own dialect; a file switched
    to draft-07 could make a 2020-12-only ``format`` look like an annotation to the classifier
    yet be asserted inside a Suite (red team, draft-07 ``uuid``).

    In a git checkout, no folder below the root holds a ``spec/schemas`` folder of its own
    (error ``spec-root-nested``, :mod:`evalport_spec.gate.layout`): a command run inside it
    would take it for the spec repository.

    spec/, rfcs/ and tools/ hold plain files and folders only: a symbolic link, a gitlink or a
    nested git repository there is an error ``spec-symlink`` (:mod:`evalport_spec.gate.links`)."""
    out: list[Finding] = []
    names = _versions(ctx)
    for name in names:
        try:
            v = ctx.version(name)
            schemas = v.schemas
        except InputError as exc:
            out.append(input_finding(exc, "schema-unreadable"))
            continue
        for problem in schemas.check_meta(meta_validator):
            out.append(input_finding(problem, "schema-invalid"))
        for problem in schemas.check_refs():
            out.append(input_finding(problem, "schema-ref-unresolved"))
        out += schema_id_findings(schemas, name)
        for f in schemas:
            for ptr, node in subschemas(f.schema):
                dialect = node.get("$schema", DIALECT_2020_12)
                if dialect != DIALECT_2020_12:
                    at = f"{ptr}/$schema"
                    out.append(Finding("schema-dialect", f"{f.name}: '$schema' at {at} is {dialect!r}; "
                                       f"every EvalPort schema is written in JSON Schema 2020-12 "
                                       f"({DIALECT_2020_12})",
                                       new=Location(f.loaded.source, at, f.loaded.line(at))))
            m = _ID_VERSION.search(f.uri)
            if not m or m.group(1) != name:
                out.append(Finding("schema-id-version", f"$id {f.uri!r} should contain '/spec/{name}/schemas/'",
                                   new=Location(f.loaded.source, "/$id", f.loaded.line("/$id"))))
    out += link_findings(ctx.root, ctx.is_git())
    if ctx.is_git():
        out += layout_findings(ctx.root)
    return out, f"{len(names)} version(s)", None


def stage_spec_text(ctx: GateContext) -> StageOut:
    """SPEC.md of the draft and every release has every required H2 in order, the end marker
    last, and well-formed changelog headings; the draft's generated regions are current and its
    normative changes since the latest release are on record (:mod:`evalport_spec.gate.spectext`;
    not checked while the draft's structure is broken, which would make every region and
    sentence look missing)."""
    out: list[Finding] = []
    names = _versions(ctx)
    broken = False
    draft_md = ""
    for name in names:
        p = (ctx.repo.spec_dir if name == DRAFT else ctx.repo.releases_dir / name) / "SPEC.md"
        text = (read_optional(p, max_bytes=MAX_BYTES, label=f"{ctx.label(name)}/SPEC.md")
                or b"").decode("utf-8", "replace")
        found = check_spec_text(text, f"{ctx.label(name)}/SPEC.md", draft=name == DRAFT)
        broken = broken or (name == DRAFT and bool(found))
        draft_md = text if name == DRAFT else draft_md
        out += found
    if broken:  # a truncated draft would list every region and sentence as missing: noise
        return out, f"{len(names)} SPEC.md file(s); the draft's regions and record not checked", None
    rfcs = ctx.rfcs() if (ctx.root / "rfcs").is_dir() else []
    before = None
    if ctx.base is not None:
        commit = ctx.base_sha or ctx.base
        base_md = (gitsource.read_file(ctx.root, commit, "spec/SPEC.md") or b"").decode("utf-8", "replace")
        before = (ctx.base, records(base_md, metas_at(ctx.root, commit).values()))
        out += sentence_findings(base_md, draft_md, ctx.base)
    draft, summary = check_draft_text(ctx.repo, rfcs, before)
    return out + draft, f"{len(names)} SPEC.md file(s); {summary}", None


def stage_manifest(ctx: GateContext) -> StageOut:
    """Every released file matches ``spec/releases/SHA256SUMS``; none is unlisted or missing;
    and ``spec/releases/`` holds release folders and the manifest only (:func:`stray_releases`)."""
    stray = stray_releases(ctx)
    if not ctx.repo.releases() and not stray:
        raise StageSkipped("no release yet")
    out = stray + (verify_manifest(ctx.repo.releases_dir) if ctx.repo.releases() else [])
    return out, f"{len(ctx.repo.releases())} release(s)", None


def stray_releases(ctx: GateContext) -> list[Finding]:
    """One ``release-folder-name`` error per entry of ``spec/releases/`` that is neither a
    folder named ``MAJOR.MINOR.PATCH`` (:func:`~evalport_spec.spec.parse_semver`) nor the
    manifest ``SHA256SUMS``. Every reader of releases passes such an entry over (it is no
    version), so a folder ``1.3`` or ``v1.3.0`` beside the releases would be listed in the
    manifest and published, yet no stage would check its schemas, fixtures or history as a
    release's (red team, session 33: a copy of 1.3.0 as ``spec/releases/1.3`` passed)."""
    folder = ctx.repo.releases_dir
    if not folder.is_dir():
        return []
    out = []
    for p in sorted(folder.iterdir()):
        if p.name == ctx.repo.manifest_path.name and not p.is_dir():
            continue
        try:
            parse_semver(p.name)
            if p.is_dir() and not p.is_symlink():
                continue
        except ValueError:
            pass
        out.append(Finding("release-folder-name", f"spec/releases/{p.name} is not a release folder: "
                           "spec/releases/ holds folders named MAJOR.MINOR.PATCH (made by `release`) and "
                           "SHA256SUMS only, and no stage checks anything else there as a release",
                           new=Location(f"spec/releases/{p.name}")))
    return out


def stage_conformance(ctx: GateContext) -> StageOut:
    """Every version's own fixtures agree with that version's validator on both paths (raw
    schema; full validator with exact codes and instance paths): the draft's fixtures that apply
    to its declared version, and each release's frozen set (``spec/releases/X/conformance``).
    A draft fixture without ``since`` (the meta-schema requires it) fails the stage, as does one
    whose ``since`` is above the declared version (no version would run it) and a release that
    freezes no fixtures."""
    if not (ctx.repo.spec_dir / "conformance" / "fixtures").is_dir():
        return [Finding("conformance-fixtures-missing", "no spec/conformance/fixtures/ folder",
                        new=Location("spec/conformance/fixtures"))], "", None
    out: list[Finding] = []
    counts = []
    for name in ctx.repo.all_versions():
        version = ctx.version(name)
        folder = f"{ctx.label(name)}/conformance/fixtures"
        try:
            fixtures = version.fixtures
            stored = version.stored_fixtures
        except InputError as exc:
            out.append(stage_input_finding(exc))
            continue
        if name == DRAFT and version.semver is not None:
            out += [Finding("conformance-since-ahead", f"fixture {fx.id}: since {fx.since} is above "
                            f"the draft's version {version.semver} (spec/VERSION), so no version runs it",
                            new=Location(f"{folder}/{fx.id}.json", "/since"))
                    for fx in stored if fx.since and parse_semver(fx.since) > parse_semver(version.semver)]
        elif name != DRAFT and not stored:
            out.append(Finding("conformance-release-unfrozen", f"release {name} freezes no "
                               "conformance fixtures (conformance/fixtures/ is missing or empty)",
                               new=Location(folder)))
        report = run_fixtures(version, fixtures)
        for d in report.disagreements:
            out.append(d.to_finding(folder))
            out[-1].extra["version"] = name
        counts.append(f"{report.fixtures} {name}")
    return out, "fixture(s): " + ", ".join(counts), None


def stage_rules(ctx: GateContext) -> StageOut:
    """``rulecheck.check_rules``: catalogue vs implementation vs fixtures vs SPEC.md vs raw schema,
    on the draft labelled from the repository root (``spec/rules.json``), wherever ``check -C``
    runs from."""
    out = list(check_rules(ctx.version(DRAFT)))
    return out, f"{len(ctx.version(DRAFT).catalogue.codes())} catalogued rule(s)", None


def _changelog_class(text: str, version: str) -> tuple[str, int] | None:
    for e in changelog.entries(text):
        if e.version == version:
            return e.change_class, e.line
    return None


def stage_releases(ctx: GateContext) -> StageOut:
    """Every consecutive pair of releases is classified (``compat.compare_versions``); each
    version number agrees with its class (:func:`~evalport_spec.policy.version_problem`) and
    the changelog heading of the newer release (its own SPEC.md and the draft's) declares that class."""
    rel = ctx.repo.releases()
    if len(rel) < 2:
        raise StageSkipped("fewer than two releases")
    out: list[Finding] = []
    parts = []
    draft_md = ctx.version(DRAFT).spec_md
    for old, new in zip(rel, rel[1:], strict=False):
        try:
            cls = ctx.classify(ctx.version(old), ctx.version(new))
        except InputError as exc:
            out.append(stage_input_finding(exc))
            continue
        computed = max(effective_class(cls.change_class, cls.findings), ChangeClass.PATCH)
        parts.append(f"{new} {computed.name}")
        problem = version_problem(old, new, computed)
        if problem:
            out.append(Finding("release-version-mismatch", f"release {problem}",
                               change_class=computed, new=Location(f"spec/releases/{new}")))
            out += [f for f in breaking(cls.findings)]
        for md_label, text in ((f"spec/releases/{new}/SPEC.md", ctx.version(new).spec_md),
                               ("spec/SPEC.md", draft_md)):
            entry = _changelog_class(text, new)
            if entry is None:
                if md_label != "spec/SPEC.md":
                    out.append(Finding("changelog-entry-missing", f"no changelog heading for {new}",
                                       new=Location(md_label)))
                continue
            if entry[0] != computed.name:
                out.append(Finding("changelog-class-mismatch",
                                   f"changelog says {new} is {entry[0]} but {old} -> {new} is {computed.name}",
                                   change_class=computed, new=Location(md_label, None, entry[1])))
    return out, ", ".join(parts), None


def change_findings(ctx: GateContext, old: Side, new: Side, *,
                    code: bool = False) -> tuple[list[Finding], ChangeClass]:
    """Everything ``old`` -> ``new`` changes: the classifier's findings (schemas and catalogue)
    merged with the rule behaviour findings of the two sides' programs
    (:func:`~evalport_spec.gate.behaviour.merge_with_classification`), and the effective class.
    With ``code`` (base against branch), every rule whose code differs in meaning is a
    ``rule-implementation-changed`` finding (:mod:`evalport_spec.gate.rulecode`; the packaging
    that decides what the installed command runs counts as every rule's code,
    :mod:`evalport_spec.gate.packaging`) that takes the place of that rule's
    ``rule-behaviour-tightened``, and a ``spec/VERSION`` that sends the
    base draft's documents to a release rejecting some of them is a ``draft-version-rerouted``
    finding (:mod:`evalport_spec.gate.reroute`)."""
    cls = ctx.classify(old.version, new.version)
    behaviour = compare_behaviour(old, new, ctx.corpus(), ctx.run)
    if code:
        old_code, new_code = (ctx.rule_code(side.program).with_modules(ctx.packaging(side.program))
                              for side in (old, new))
        active_in = _active_in(ctx, old)
        changed = code_findings(old, new, old_code, new_code, active_in, behaviour, len(ctx.corpus().documents))
        done = {f.code for f in changed}
        behaviour = [f for f in behaviour if not (f.kind == "rule-behaviour-tightened" and f.code in done)] + changed
        behaviour += bind_entries(ctx, changed, set(active_in))
    findings = merge_with_classification(cls.findings, behaviour)
    if code:
        findings += rerouted_findings(ctx, old.version)
    computed = max([cls.change_class] + [f.change_class for f in behaviour])
    return findings, effective_class(computed, findings)


def _active_in(ctx: GateContext, old: Side) -> dict[str, list[str]]:
    """``{code: versions whose catalogue has the rule hand-rolled}``: the working tree's
    releases and draft, and ``old``'s draft (named by ``old.label``)."""
    out: dict[str, list[str]] = {}
    named = [(n, ctx.version(n)) for n in ctx.repo.all_versions()] + [(f"{old.label}'s draft", old.version)]
    for name, version in named:
        for code in sorted({e.code for e in version.catalogue.rules if not e.encoded}):
            out.setdefault(code, []).append(name)
    return out


def decide(ctx: GateContext, findings: list[Finding], computed: ChangeClass, label: str,
           ledger: Ledger | None) -> tuple[list[Finding], str, ChangeClass]:
    """Decide a change under the MAJOR rule with the working tree's declared version, the
    ``ledger``'s acceptances and the live ``--ignore`` entries. Returns ``(findings, summary,
    effective class)``. Each breaking finding is bound to its new value in the working tree's
    draft (``extra["after"]``, :func:`~evalport_spec.rfc.accept.bind_after`): an acceptance of a
    finding without an item names that value."""
    br = bind_after(ctx.version(DRAFT), breaking(findings))
    rest, used = drop_ignored([f for f in findings if f not in br], ctx.ignores)
    findings, rule = apply_major_rule(br + rest, latest=ctx.repo.latest_release(), declared=ctx.declared(),
                                      ledger=ledger, label=label, ignores=ctx.ignores)
    used += [f.extra["accepted_by"]["ignore"] for f in findings
             if isinstance(f.extra.get("accepted_by"), dict)]
    ctx.cache[("ignore-used", label)] = used
    shown = max(computed, ChangeClass.PATCH) if computed != ChangeClass.NONE else ChangeClass.NONE
    return findings, f"{shown.name} {label} (policy: {rule})", computed


def stale_ignores(ctx: GateContext, stage: str) -> list[Finding]:
    """The ``ignore-entry-stale`` warnings, from the last stage of the run that applies the
    ignore file (:attr:`GateContext.applying`; ``stage`` is the asking one, else nothing): one
    per live entry that no stage of the run used. Before session 35 the draft stage judged
    alone, so under ``--base`` an entry only the base stage used (a ``rule-implementation-changed``
    of ``gate-ignore.yml``, a change the branch reverts) was called stale, and with ``--stage
    base`` no entry ever was."""
    if ctx.applying and ctx.applying[-1] != stage:
        return []
    labels = [key[1] for key in ctx.cache if isinstance(key, tuple) and key[0] == "ignore-used"]
    used = [e for label in labels for e in ctx.cache[("ignore-used", label)]]
    return stale_entries(ctx.ignores, used, " or ".join(labels))


def now_states(ctx: GateContext) -> tuple[dict[int, RfcState], list[Finding]]:
    """The working tree's RFC states, and the input finding of an unreadable RFC."""
    try:
        return states(ctx.rfcs()), []
    except InputError as exc:
        return {}, [input_finding(exc)]


def _history_ledger(ctx: GateContext, latest: str, released: Side) -> Ledger:
    """Acceptance dated by the release line's first-parent history (:class:`HistoryLedger`)."""
    now, _ = now_states(ctx)
    if not ctx.is_git():
        return Ledger(now, "(not a git repository, so no acceptance can be dated before the change)")
    tip = ctx.base_sha or history.head(ctx.root)
    dirty = ctx.base is not None or bool(history.changed_paths(ctx.root, tip, ("spec", "rfcs")))
    steps = release_line(ctx.root, tip, latest, dirty)

    def breaking_at(commit: str) -> set[str]:
        v = gitsource.spec_version_at(ctx.root, commit, "spec", name=f"{commit[:12]}:spec")
        side = Side(v, ctx.program(commit, commit[:12]), f"{commit[:12]}'s draft")
        return {f.fingerprint for f in breaking(change_findings(ctx, released, side)[0])}

    return HistoryLedger(now, ctx.root, steps, breaking_at)


def released_side(ctx: GateContext, name: str) -> Side:
    """Release ``name`` with the rule program of the commit that created it (the working tree's
    when it is not committed, or outside git)."""
    commit = ctx.release_commit(name) if ctx.is_git() else None
    return Side(ctx.version(name), ctx.program(commit, f"{name} as released"), f"{name} as released")


def stage_draft(ctx: GateContext) -> StageOut:
    """The draft classified against the latest release (rule behaviour included: the release's
    shipped rule code against the working tree's), decided by the MAJOR rule with acceptance
    dated by history; stale ``accepts`` entries; and ``spec/VERSION`` is a valid successor of
    the latest release."""
    latest = ctx.repo.latest_release()
    if latest is None:
        raise StageSkipped("no release to compare the draft with")
    released = released_side(ctx, latest)
    draft = Side(ctx.version(DRAFT), ctx.program(None, "the working tree"), "the draft")
    changed, computed = change_findings(ctx, released, draft)
    ledger = _history_ledger(ctx, latest, released) if breaking(changed) else None
    out, summary, computed = decide(ctx, changed, computed, f"since {latest}", ledger)
    out += _stale_acceptances(ctx, {f.fingerprint for f in breaking(changed)})
    out += ctx.take_ignore_notes() + stale_ignores(ctx, "draft")
    declared = ctx.declared()
    if declared is None:
        out.append(Finding("draft-version-missing", "spec/VERSION is missing: it declares the version "
                           "the draft will be released as", new=Location("spec/VERSION")))
    else:
        problem = version_problem(latest, declared, ChangeClass.PATCH)
        if problem:
            out.append(Finding("draft-version-invalid", f"spec/VERSION: {problem}",
                               new=Location("spec/VERSION", None, 1)))
        else:
            need = version_problem(latest, declared, max(computed, ChangeClass.PATCH))
            if need and computed < ChangeClass.MAJOR:
                out.append(Finding("draft-version-too-low", f"spec/VERSION declares {declared}; {need}",
                                   severity=Severity.WARNING, new=Location("spec/VERSION", None, 1)))
    fingerprints = {f.fingerprint for f in breaking(changed)}
    if not any(s.fingerprints & fingerprints for s in now_states(ctx)[0].values()):
        out += _change_without_rfc(ctx, latest, computed)  # one truth: an RFC listing it is tied
    return out, summary, computed


def _stale_acceptances(ctx: GateContext, fingerprints: set[str]) -> list[Finding]:
    """A WARNING per ``accepts`` entry of an open or accepted MAJOR RFC that names no breaking
    finding of the draft since the latest release (the change it accepted is gone or changed).
    Entries of kind ``rule-implementation-changed`` are not judged here: that finding compares
    a base's rule code with a branch's (``check --base``), which the draft stage does not."""
    out = []
    try:
        rfcs = ctx.rfcs() if (ctx.root / "rfcs").is_dir() else []
    except InputError:
        return []  # reported by the draft's policy and by the rfcs stage
    for r in rfcs:
        if r.meta.get("declared_class") != "MAJOR" or r.meta.get("status") not in OPEN_STATUSES:
            continue
        for e in accepts_of(r.meta):
            if e["fingerprint"] not in fingerprints and e.get("kind") != CODE_KIND:
                out.append(Finding("acceptance-stale",
                                   f"RFC {r.number:04d} accepts [{e['fingerprint']}] ({e.get('kind')} at "
                                   f"{e.get('location')}) but no breaking finding of the draft has that "
                                   "fingerprint: the change is gone or changed shape (run `evalport-spec rfc "
                                   f"accept-findings {r.number}` again and remove stale entries)",
                                   severity=Severity.WARNING, new=Location(r.rel, None, r.fm.line("accepts"))))
    return out


def _change_without_rfc(ctx: GateContext, latest: str, computed: ChangeClass) -> list[Finding]:
    """A WARNING when the draft changes which documents are valid (MINOR or MAJOR since the
    latest release) and no RFC is tied to the change: no RFC accepts or lists one of its
    breaking findings, no catalogue rule new since ``latest`` cites one and no open or accepted
    RFC's proposal is applied to the draft (SPEC.md, "Governance": every schema change goes
    through an RFC). A warning, not an error: the tie is made by people (a MAJOR change is held
    to an accepted RFC by the MAJOR rule already)."""
    if computed < ChangeClass.MINOR or not (ctx.root / "rfcs").is_dir():
        return []
    if rfcs_in_release(ctx.repo, latest, set()):
        return []
    return [Finding("change-without-rfc",
                    f"the draft is {computed} since {latest} but no RFC is tied to the change (no new "
                    "catalogue rule cites one, and no open or accepted RFC's proposal is applied to the "
                    "draft); SPEC.md Governance: schema changes go through an RFC",
                    severity=Severity.WARNING, new=Location("spec/schemas"))]


def stage_rfcs(ctx: GateContext) -> StageOut:
    """``rfc.lint_rfcs`` and ``rfc.index_findings`` (the generated ``rfcs/README.md`` is current)."""
    if not (ctx.root / "rfcs").is_dir():
        raise StageSkipped("no rfcs/ folder")
    out = list(lint_rfcs(ctx.repo)) + list(index_findings(ctx.repo))
    count = sum(1 for p in (ctx.root / "rfcs").glob("[0-9][0-9][0-9][0-9]-*.md") if p.is_file())
    return out, f"{count} RFC(s)", None


def stage_examples(ctx: GateContext) -> StageOut:
    """Every ``spec/examples/*.json`` validates with the draft's full validator (schema pass and
    cross-field rules). An example folder holds its documents at the top (docs/architecture.md:
    ``spec/examples/*.json``; the site shows only those): a JSON file in a subfolder would be
    neither validated nor shown, so each one is an ``example-misplaced`` error, never skipped
    in silence. Likewise a file at the top whose extension is ``.json`` in another case
    (``Upper.JSON``) is an ``example-misnamed`` error: the site, the rule-behaviour corpus and
    ``*.json`` on a case-sensitive file system all pass it over, so it is named rather than read
    here alone. A draft schema that cannot be read stops the validation: it is the schemas
    stage's ``schema-unreadable`` finding (one line for both), not an example's."""
    folder = ctx.repo.spec_dir / "examples"
    files = sorted(p for p in folder.glob("*.json") if p.name.endswith(".json")) if folder.is_dir() else []
    misnamed = sorted(p.name for p in folder.iterdir() if _json_in_another_case(p.name)) if folder.is_dir() else []
    nested = _nested_json(folder)
    if not files and not nested and not misnamed:
        raise StageSkipped("no spec/examples/*.json")
    out = [Finding("example-misnamed", f"the extension is not lower-case .json, so the file is "
                   f"neither validated nor shown (examples are spec/examples/*.json): rename it "
                   f"{name[:-5]}.json", new=Location(f"spec/examples/{name}")) for name in misnamed]
    out += [Finding("example-misplaced", "a JSON file in a subfolder of spec/examples/ is neither "
                    "validated nor shown (examples are spec/examples/*.json): move it up, or out of "
                    "spec/examples/", new=Location(f"spec/examples/{rel}")) for rel in nested]
    astray = "".join(f", {len(names)} {what}" for what, names in (("misnamed", misnamed), ("misplaced", nested))
                     if names)
    if not files:
        return out, f"0 example(s){astray}", None
    validator = Validator(ctx.version(DRAFT))
    missing = validator.unimplemented
    if missing:
        out.append(Finding("rule-unimplemented", f"catalogued rule(s) {', '.join(missing)} have no "
                           "implementation: examples cannot be fully validated", new=Location("spec/rules.json")))
    for p in files:
        label = f"spec/examples/{p.name}"
        try:
            doc = load(p, label=label)
            doc_type = Validator.detect_type(doc.value)
        except InputError as exc:
            # with no source, the example is no EvalPort document (an example is typed by its members)
            out.append(input_finding(exc if exc.source else InputError(exc.message, label), "example-unreadable"))
            continue
        try:
            violations = validator.validate(doc.value, doc_type)
        except InputError as exc:  # the draft's schemas, not the example: said once per problem
            found = stage_input_finding(exc)
            if found not in out:
                out.append(found)
            continue
        for v in violations:
            out.append(Finding("example-invalid", f"{doc_type}: {v.code}: {v.message}", code=v.code,
                               new=Location(label, v.instance_path, doc.line(v.instance_path))))
    return out, f"{len(files)} example(s){astray}", None


def _json_in_another_case(name: str) -> bool:
    """Whether file ``name`` ends in ``.json`` in any case but lower case (``Upper.JSON``)."""
    return name.lower().endswith(".json") and not name.endswith(".json")


def _nested_json(folder: Path) -> list[str]:
    """``*.json`` files, the extension in any case, in the subfolders of ``folder`` (paths
    relative to it, POSIX, sorted); symbolic links to folders are not followed."""
    found = []
    for top, dirs, names in os.walk(folder):
        dirs.sort()
        if Path(top) != folder:
            found += [Path(top, n).relative_to(folder).as_posix() for n in names if n.lower().endswith(".json")]
    return sorted(found)


def stage_base(ctx: GateContext) -> StageOut:
    """``check --base REF``: the draft classified against REF's draft under the MAJOR rule, and
    no released file changed since REF (:mod:`evalport_spec.gate.basecheck`)."""
    from .basecheck import base_findings
    return base_findings(ctx)


STAGE_FUNCS: dict[str, Callable[[GateContext], StageOut]] = {
    "schemas": stage_schemas,
    "spec-text": stage_spec_text,
    "manifest": stage_manifest,
    "history": stage_history,
    "conformance": stage_conformance,
    "rules": stage_rules,
    "behaviour": stage_behaviour,
    "releases": stage_releases,
    "draft": stage_draft,
    "base": stage_base,
    "rfcs": stage_rfcs,
    "examples": stage_examples,
}
"""Every stage, in run order (``base`` runs only with a base revision)."""
