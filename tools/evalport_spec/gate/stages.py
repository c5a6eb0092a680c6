"""The gate's stages, one function each: ``stage(ctx) -> (findings, summary, change_class)``.

Each stage reads what it needs through :class:`~evalport_spec.gate.context.GateContext` and
returns :class:`~evalport_spec.findings.Finding` objects; error-severity findings fail the stage.
The order and meaning are those of ``evalport-spec check`` (docs/how-to/gate-in-ci.md).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from .. import changelog
from ..errors import InputError
from ..findings import ChangeClass, Finding, Location, Severity
from ..jsonload import load
from ..spec import DRAFT, parse_semver
from .context import GateContext, StageSkipped, engine, input_finding
from .manifest import verify_manifest
from .metaschema import meta_validator
from .policy import apply_major_rule, breaking, effective_class, version_problem
from .spectext import check_draft_text, check_spec_text

StageOut = tuple[list[Finding], str, "ChangeClass | None"]

_ID_VERSION = re.compile(r"/spec/([^/]+)/schemas/[^/]+$")


def _versions(ctx: GateContext) -> list[str]:
    return ctx.repo.all_versions()


def stage_schemas(ctx: GateContext) -> StageOut:
    """Every schema of the draft and of every release is a valid schema of its dialect
    (2020-12 meta-schema), every ``$ref`` resolves offline inside its set, and each ``$id`` has
    its version's segment (``/spec/draft/schemas/`` or ``/spec/X.Y.Z/schemas/``; docs/architecture.md).
    The 2020-12 meta-schema check is memoised per subschema (:mod:`.metaschema`)."""
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
        for f in schemas:
            m = _ID_VERSION.search(f.uri)
            if not m or m.group(1) != name:
                out.append(Finding("schema-id-version", f"$id {f.uri!r} should contain '/spec/{name}/schemas/'",
                                   new=Location(f.loaded.source, "/$id", f.loaded.line("/$id"))))
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
    for name in names:
        p = (ctx.repo.spec_dir if name == DRAFT else ctx.repo.releases_dir / name) / "SPEC.md"
        text = p.read_text("utf-8", "replace") if p.is_file() else ""
        found = check_spec_text(text, f"{ctx.label(name)}/SPEC.md", draft=name == DRAFT)
        broken = broken or (name == DRAFT and bool(found))
        out += found
    if broken:  # a truncated draft would list every region and sentence as missing: noise
        return out, f"{len(names)} SPEC.md file(s); the draft's regions and record not checked", None
    rfcs = ctx.rfcs() if (ctx.root / "rfcs").is_dir() else []
    draft, summary = check_draft_text(ctx.repo, rfcs)
    return out + draft, f"{len(names)} SPEC.md file(s); {summary}", None


def stage_manifest(ctx: GateContext) -> StageOut:
    """Every released file matches ``spec/releases/SHA256SUMS``; none is unlisted or missing."""
    if not ctx.repo.releases():
        raise StageSkipped("no release yet")
    out = verify_manifest(ctx.repo.releases_dir)
    return out, f"{len(ctx.repo.releases())} release(s)", None


def stage_conformance(ctx: GateContext) -> StageOut:
    """Every version's own fixtures agree with that version's validator on both paths (raw
    schema; full validator with exact codes and instance paths): the draft's fixtures that apply
    to its declared version, and each release's frozen set (``spec/releases/X/conformance``).
    A draft fixture without ``since`` (the meta-schema requires it) fails the stage, as does one
    whose ``since`` is above the declared version (no version would run it) and a release that
    freezes no fixtures."""
    run = engine("conformance", "run")
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
            out.append(input_finding(exc))
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
        report = run(version, fixtures)
        for d in report.disagreements:
            out.append(d.to_finding(folder))
            out[-1].extra["version"] = name
        counts.append(f"{report.fixtures} {name}")
    return out, "fixture(s): " + ", ".join(counts), None


def stage_rules(ctx: GateContext) -> StageOut:
    """``rulecheck.check_rules``: catalogue vs implementation vs fixtures vs SPEC.md vs raw schema."""
    check_rules = engine("rulecheck", "check_rules")
    out = list(check_rules(ctx.repo))
    return out, f"{len(ctx.version(DRAFT).catalogue.codes())} catalogued rule(s)", None


def _changelog_class(text: str, version: str) -> tuple[str, int] | None:
    for e in changelog.entries(text):
        if e.version == version:
            return e.change_class, e.line
    return None


def stage_releases(ctx: GateContext) -> StageOut:
    """Every consecutive pair of releases is classified (``compat.compare_versions``); each
    version number agrees with its class (:func:`~evalport_spec.gate.policy.version_problem`) and
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
            out.append(input_finding(exc))
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


def classify_with_policy(ctx: GateContext, old: Any, new: Any, label: str) -> tuple[list[Finding], str, ChangeClass]:
    """Classify ``old`` -> ``new`` and decide it under the MAJOR rule with the working tree's
    declared version and RFCs. Returns ``(findings, summary, effective class)``."""
    cls = ctx.classify(old, new)
    computed = effective_class(cls.change_class, cls.findings)
    rfcs: list[Any] = []
    extra: list[Finding] = []
    if breaking(cls.findings):
        try:
            rfcs = ctx.rfcs()
        except InputError as exc:
            extra.append(input_finding(exc))
    latest = ctx.repo.latest_release()
    findings, rule = apply_major_rule(cls.findings, latest=latest, declared=ctx.declared(), rfcs=rfcs,
                                      label=label)
    shown = max(computed, ChangeClass.PATCH) if computed != ChangeClass.NONE else ChangeClass.NONE
    summary = f"{shown.name} {label} (policy: {rule})"
    return extra + findings, summary, computed


def stage_draft(ctx: GateContext) -> StageOut:
    """The draft classified against the latest release, decided by the MAJOR rule; and
    ``spec/VERSION`` is a valid successor of the latest release."""
    latest = ctx.repo.latest_release()
    if latest is None:
        raise StageSkipped("no release to compare the draft with")
    out: list[Finding] = []
    findings, summary, computed = classify_with_policy(ctx, ctx.version(latest), ctx.version(DRAFT),
                                                       f"since {latest}")
    out += findings
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
    out += _change_without_rfc(ctx, latest, computed)
    return out, summary, computed


def _change_without_rfc(ctx: GateContext, latest: str, computed: ChangeClass) -> list[Finding]:
    """A WARNING when the draft changes which documents are valid (MINOR or MAJOR since the
    latest release) and no RFC is tied to the change: no catalogue rule new since ``latest``
    cites one and no open or accepted RFC's proposal is applied to the draft (SPEC.md,
    "Governance": every schema change goes through an RFC). A warning, not an error: the tie
    is made by people (a MAJOR change is held to an accepted RFC by the MAJOR rule already)."""
    if computed < ChangeClass.MINOR or not (ctx.root / "rfcs").is_dir():
        return []
    rfcs_in_release = engine("release", "rfcs_in_release")
    if rfcs_in_release(ctx.repo, latest, set()):
        return []
    return [Finding("change-without-rfc",
                    f"the draft is {computed} since {latest} but no RFC is tied to the change (no new "
                    "catalogue rule cites one, and no open or accepted RFC's proposal is applied to the "
                    "draft); SPEC.md Governance: schema changes go through an RFC",
                    severity=Severity.WARNING, new=Location("spec/schemas"))]


def stage_rfcs(ctx: GateContext) -> StageOut:
    """``rfc.lint_rfcs`` and ``rfc.index_findings`` (the generated ``rfcs/README.md`` is current)."""
    lint_rfcs, index_findings = engine("rfc", "lint_rfcs", "index_findings")
    if not (ctx.root / "rfcs").is_dir():
        raise StageSkipped("no rfcs/ folder")
    out = list(lint_rfcs(ctx.repo)) + list(index_findings(ctx.repo))
    count = sum(1 for p in (ctx.root / "rfcs").glob("[0-9][0-9][0-9][0-9]-*.md") if p.is_file())
    return out, f"{count} RFC(s)", None


def stage_examples(ctx: GateContext) -> StageOut:
    """Every ``spec/examples/*.json`` validates with the draft's full validator (schema pass and
    cross-field rules)."""
    Validator = engine("validation", "Validator")
    folder = ctx.repo.spec_dir / "examples"
    files = sorted(folder.glob("*.json")) if folder.is_dir() else []
    if not files:
        raise StageSkipped("no spec/examples/*.json")
    validator = Validator(ctx.version(DRAFT))
    out: list[Finding] = []
    missing = list(getattr(validator, "unimplemented", []) or [])
    if missing:
        out.append(Finding("rule-unimplemented", f"catalogued rule(s) {', '.join(missing)} have no "
                           "implementation: examples cannot be fully validated", new=Location("spec/rules.json")))
    for p in files:
        label = f"spec/examples/{p.name}"
        try:
            doc = load(p, label=label)
            doc_type = Validator.detect_type(doc.value)
            violations = validator.validate(doc.value, doc_type)
        except InputError as exc:
            out.append(input_finding(exc, "example-unreadable"))
            continue
        for v in violations:
            out.append(Finding("example-invalid", f"{doc_type}: {v.code}: {v.message}", code=v.code,
                               new=Location(label, v.instance_path, doc.line(v.instance_path))))
    return out, f"{len(files)} example(s)", None


def stage_base(ctx: GateContext) -> StageOut:
    """``check --base REF``: the draft classified against REF's draft under the MAJOR rule, and
    no released file changed since REF (:mod:`evalport_spec.gate.basecheck`)."""
    from .basecheck import base_findings
    return base_findings(ctx)


STAGE_FUNCS: dict[str, Callable[[GateContext], StageOut]] = {
    "schemas": stage_schemas,
    "spec-text": stage_spec_text,
    "manifest": stage_manifest,
    "conformance": stage_conformance,
    "rules": stage_rules,
    "releases": stage_releases,
    "draft": stage_draft,
    "base": stage_base,
    "rfcs": stage_rfcs,
    "examples": stage_examples,
}
"""Every stage, in run order (``base`` runs only with a base revision)."""
