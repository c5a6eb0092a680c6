"""``rfc check N``: apply an RFC's proposal to the draft in memory and judge it.

Steps (toolchain.md, "RFCs": "the toolchain applies it to the draft, classifies it, lists the
rules it adds, and validates the example documents in the RFC's text, without merging it"):

1. copy the draft's files (``spec/SPEC.md``, ``spec/rules.json``, ``spec/schemas/*.json``) into a
   mapping, apply ``patch.json`` (RFC 6902 JSON Patch, one list of operations per schema file
   name) with :mod:`jsonpatch`, append ``rules.json``'s entries to the catalogue, and build a
   :class:`~evalport_spec.spec.SpecVersion` with
   :func:`~evalport_spec.spec.versions_from_mapping`; the draft on disk is never written;
2. classify draft -> proposed with the diff engine and compare with ``declared_class``;
3. list the rules the proposal adds, each additive or not according to the diff findings
   that carry its code;
4. run the proposal's ``fixtures/*.json`` on the proposed version (conformance engine);
5. validate every ```json evalport-TYPE example in the RFC text on the proposed version.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jsonpatch
import jsonpointer

from ..catalogue import parse_catalogue
from ..errors import InputError
from ..findings import ChangeClass, Finding, Location, Severity
from ..fsutil import read_limited, read_optional
from ..jsonload import MAX_BYTES, Loaded, load, loads
from ..spec import SpecRepo, SpecVersion, versions_from_mapping
from . import engines
from .lint import examples
from .model import Rfc, find_rfc, repo_root

MAX_PROPOSAL_FILE = 8 * 1024 * 1024
"""Largest proposal file (patch, rules, fixture) accepted, in bytes."""


@dataclass
class RuleAdded:
    """A rule the proposal adds. ``additive`` is ``None`` when no diff finding names its code."""

    code: str
    document: str
    additive: bool | None
    expressible: bool
    encoded: bool


@dataclass
class CheckReport:
    """What ``rfc check`` found.

    Attributes:
        rfc: the RFC checked.
        declared: its ``declared_class`` (``None`` if missing or unknown).
        computed: the class of draft -> proposed (``None``: no proposal, or no diff engine).
        rules: rules the proposal adds.
        fixtures: number of proposal fixtures run; examples: number of examples validated.
        findings: every finding (INFO lines for what passed, ERROR for what failed).
    """

    rfc: Rfc
    declared: ChangeClass | None = None
    computed: ChangeClass | None = None
    rules: list[RuleAdded] = field(default_factory=list)
    fixtures: int = 0
    examples: int = 0
    findings: list[Finding] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True when no finding is an ERROR."""
        return not any(f.severity >= Severity.ERROR for f in self.findings)


def _load_proposal_file(path: Path, label: str) -> Loaded:
    if path.is_file() and path.stat().st_size > MAX_PROPOSAL_FILE:
        raise InputError(f"file is larger than {MAX_PROPOSAL_FILE // (1024 * 1024)} MiB", label)
    return load(path, label=label)


def draft_files(root: Path) -> dict[str, bytes]:
    """The draft's version files as ``{path relative to spec/: bytes}`` (SPEC.md, rules.json, schemas)."""
    spec = root / "spec"
    files: dict[str, bytes] = {}
    for rel in ("SPEC.md", "rules.json"):
        data = read_optional(spec / rel, max_bytes=MAX_BYTES, label=f"spec/{rel}", within=root)
        if data is not None:
            files[rel] = data
    schemas = spec / "schemas"
    if not schemas.is_dir():
        raise InputError("the draft has no schemas folder", str(schemas))
    for p in sorted(schemas.glob("*.json")):
        files[f"schemas/{p.name}"] = read_limited(p, max_bytes=MAX_BYTES, label=f"spec/schemas/{p.name}",
                                                  within=root)
    return files


def apply_proposal(root: Path, rfc: Rfc) -> tuple[SpecVersion, SpecVersion, list[Any]]:
    """Build ``(draft, proposed, added rule entries)`` for an RFC with a proposal folder.

    Raises:
        InputError: no proposal folder; ``patch.json`` not an object of operation lists, naming
            a schema file the draft lacks, or with an operation that does not apply (the message
            gives the operation's pointer inside patch.json); ``rules.json`` malformed or
            re-defining a code the draft already has.
    """
    pdir = rfc.proposal_dir
    plabel = f"rfcs/{pdir.name}"
    if not pdir.is_dir():
        raise InputError(f"RFC {rfc.number} has no proposal folder", plabel)
    files = draft_files(root)
    draft = versions_from_mapping("draft", dict(files), "spec")
    patch_path = pdir / "patch.json"
    if patch_path.exists():
        patch = _load_proposal_file(patch_path, f"{plabel}/patch.json")
        if not isinstance(patch.value, dict):
            raise InputError("patch.json must be an object {\"<schema file>\": [JSON Patch operations]}",
                             patch.source, 1, 1)
        for name, ops in patch.value.items():
            ptr = "/" + name.replace("~", "~0").replace("/", "~1")
            key = f"schemas/{name}"
            if key not in files:
                raise InputError(f"patch names {name!r}, which is not a schema file of the draft",
                                 patch.source, patch.line(ptr), None, ptr)
            if not isinstance(ops, list):
                raise InputError("expected a list of JSON Patch operations", patch.source, patch.line(ptr), None, ptr)
            doc = loads(files[key], f"spec/{key}").value
            for i, op in enumerate(ops):
                try:
                    doc = jsonpatch.JsonPatch([op]).apply(doc, in_place=False)
                except (jsonpatch.JsonPatchException, jsonpointer.JsonPointerException, TypeError,
                        KeyError, AttributeError) as exc:
                    opptr = f"{ptr}/{i}"
                    raise InputError(f"JSON Patch operation does not apply: {exc}", patch.source,
                                     patch.line(opptr), None, opptr) from None
            files[key] = json.dumps(doc, indent=2, ensure_ascii=False).encode("utf-8")
    added: list[Any] = []
    rules_path = pdir / "rules.json"
    if rules_path.exists():
        loaded = _load_proposal_file(rules_path, f"{plabel}/rules.json")
        added = parse_catalogue(loaded).rules
        base: dict[str, Any] = {"rules": []}
        if "rules.json" in files:  # the draft's own catalogue, checked (InputError naming it)
            draft_rules = loads(files["rules.json"], "spec/rules.json")
            parse_catalogue(draft_rules)
            base = draft_rules.value
        existing = {r.get("code") for r in base.get("rules", []) if isinstance(r, dict)}
        for i, (entry, raw) in enumerate(zip(added, loaded.value["rules"], strict=True)):
            if entry.code in existing:
                raise InputError(f"rule {entry.code} is already in the draft's catalogue",
                                 loaded.source, loaded.line(f"/rules/{i}"), None, f"/rules/{i}")
            base.setdefault("rules", []).append(raw)
        files["rules.json"] = json.dumps(base, indent=2, ensure_ascii=False).encode("utf-8")
    proposed = versions_from_mapping(f"rfc-{rfc.number:04d}", files, f"{plabel} (proposed)")
    return draft, proposed, added


def proposal_applied(root: Path, rfc: Rfc) -> bool:
    """Whether the RFC's proposal is already in the draft: applying ``patch.json`` changes no
    schema and ``rules.json`` adds no rule (or re-defines codes the draft already has).
    ``False`` for an RFC without a proposal folder."""
    if not rfc.has_proposal():
        return False
    try:
        draft, proposed, added = apply_proposal(root, rfc)
    except InputError as exc:
        return "already in the draft" in exc.message
    same = all(json.loads(proposed._read(f"schemas/{n}") or b"null") == draft.schemas.files[n].schema
               for n in draft.schemas.files)
    return same and not added


def classify_proposal(root: Path, rfc: Rfc) -> engines.Classification | None:
    """The diff engine's verdict on draft -> proposed, or ``None`` if the engine is missing.

    Raises:
        InputError: as :func:`apply_proposal`.
    """
    draft, proposed, _ = apply_proposal(root, rfc)
    return engines.classify(draft, proposed, candidates=engines.repo_documents(root))


def _info(kind: str, rfc: Rfc, line: int, message: str, severity: Severity = Severity.INFO,
          **extra: Any) -> Finding:
    return Finding(kind, message, severity=severity, new=Location(rfc.rel, None, line),
                   extra={"rfc": rfc.number, **extra})


def _rules_additive(added: list[Any], classification: engines.Classification | None) -> list[RuleAdded]:
    """Each added rule, additive when the diff engine's findings carrying its code are all
    below MAJOR and decided (toolchain.md, "Rules count too"); ``None`` when none carries it."""
    out = []
    for r in added:
        additive: bool | None = None
        if classification is not None:
            related = [f for f in classification.findings if f.code == r.code]
            if related:
                additive = not any(f.undecided or (f.change_class >= ChangeClass.MAJOR and f.direction == "backward")
                                   for f in related)
        out.append(RuleAdded(r.code, r.document, additive, r.expressible, r.encoded))
    return out


def _fixture_findings(rfc: Rfc, proposed: SpecVersion, report: CheckReport) -> None:
    fdir = rfc.proposal_dir / "fixtures"
    if not fdir.is_dir():
        return
    label = f"rfcs/{rfc.proposal_dir.name}/fixtures"
    report.fixtures = len(list(fdir.glob("*.json")))
    lines = engines.run_fixtures(proposed, fdir)
    if lines is not None:
        for text in lines:
            report.findings.append(Finding("rfc-fixture", text, new=Location(label), extra={"rfc": rfc.number}))
        if not lines:
            report.findings.append(_info("rfc-fixtures", rfc, 1, f"{report.fixtures} proposal fixture(s) agree "
                                         "with the proposed version (schema path and full validator)"))
        return
    # No conformance engine: check what the raw schema can, and say the rest was not checked.
    for p in sorted(fdir.glob("*.json")):
        doc = _load_proposal_file(p, f"{label}/{p.name}")
        fx = doc.value if isinstance(doc.value, dict) else {}
        want = (fx.get("expect") or {}).get("schema", {}).get("valid")
        errs = engines.schema_only(proposed, str(fx.get("document_type", "")), fx.get("document"))
        if want is not None and (not errs) != want:
            report.findings.append(Finding(
                "rfc-fixture", f"fixture {fx.get('id')}: schema-only path {'accepts' if not errs else 'rejects'} "
                f"the document, the fixture expects it {'valid' if want else 'invalid'}",
                new=Location(doc.source, "/expect/schema/valid", doc.line("/expect/schema/valid"))))
    report.findings.append(_info("rfc-engine-missing", rfc, 1, "fixtures checked on the schema path only: the "
                                 "conformance engine (evalport_spec.conformance) is not available",
                                 Severity.WARNING))


def _example_findings(rfc: Rfc, proposed: SpecVersion | None, root: Path, report: CheckReport) -> None:
    version = proposed or SpecRepo(root).version("draft")
    blocks = examples(rfc)
    warned = False
    for line, doc_type, text in blocks:
        try:
            doc = loads(text, rfc.rel)
        except InputError as exc:
            report.findings.append(_info("rfc-example", rfc, line + (exc.line or 1),
                                         f"evalport-{doc_type} example is not valid JSON: {exc.message}",
                                         Severity.ERROR))
            continue
        try:
            violations = engines.validate(version, doc_type, doc.value)
            if violations is None:
                warned = True
                violations = [_SchemaViolation(e) for e in engines.schema_only(version, doc_type, doc.value)]
        except InputError as exc:
            report.findings.append(_info("rfc-example", rfc, line, str(exc), Severity.ERROR))
            continue
        report.examples += 1
        for v in violations:
            at = line + (doc.line(v.instance_path) or 1)
            report.findings.append(_info("rfc-example-invalid", rfc, at,
                                         f"evalport-{doc_type} example is invalid: {v.code} at "
                                         f"'{v.instance_path}': {v.message}", Severity.ERROR, code=v.code))
    if blocks and not warned:
        report.findings.append(_info("rfc-examples", rfc, blocks[0][0],
                                     f"{report.examples} example(s) validated on the "
                                     f"{'proposed' if proposed else 'draft'} version"))
    if warned:
        report.findings.append(_info("rfc-engine-missing", rfc, blocks[0][0], "examples checked on the schema "
                                     "path only: the validator (evalport_spec.validation) is not available",
                                     Severity.WARNING))


class _SchemaViolation:
    """A ``jsonschema`` error seen through the validator's Violation shape (code, path, message)."""

    def __init__(self, err: Any) -> None:
        from ..pointer import join

        path = ""
        for part in err.absolute_path:
            path = join(path, part)
        self.instance_path = path
        self.message = err.message
        self.code = _marker(err) or str(err.validator).upper()


def _marker(err: Any) -> str | None:
    """The ``x-evalport-rule`` code of the subschema an error came from, if any."""
    node = err
    while node is not None:
        schema = getattr(node, "schema", None)
        if isinstance(schema, dict) and isinstance(schema.get("x-evalport-rule"), str):
            return schema["x-evalport-rule"]
        node = getattr(node, "parent", None)
    return None


def check_rfc(repo: SpecRepo | str | Path, number: int) -> CheckReport:
    """Check RFC ``number`` (see the module docstring).

    Returns:
        A :class:`CheckReport`; ``report.ok`` is False when any finding is an ERROR (class
        mismatch, a rule that is not additive in a non-MAJOR RFC, a fixture disagreement, an
        invalid example, or no diff engine to classify with).

    Raises:
        InputError: no such RFC, unsafe front matter, or a proposal that cannot be applied.
    """
    root = repo_root(repo)
    rfc = find_rfc(root, number)
    report = CheckReport(rfc)
    dc = rfc.meta.get("declared_class")
    report.declared = ChangeClass[dc] if dc in ("PATCH", "MINOR", "MAJOR") else None
    line = rfc.fm.line("declared_class")
    proposed = None
    if rfc.has_proposal():
        draft, proposed, added = apply_proposal(root, rfc)
        classification = engines.classify(draft, proposed, candidates=engines.repo_documents(root))
        if classification is None:
            report.findings.append(_info("rfc-engine-missing", rfc, line, "proposal not classified: the diff "
                                         "engine (evalport_spec.compat) is not available", Severity.ERROR))
        else:
            report.computed = classification.change_class
            if report.declared is not None and report.computed != report.declared:
                report.findings.append(_info("rfc-class-mismatch", rfc, line,
                                             f"declared_class {report.declared} but the proposal computes as "
                                             f"{report.computed}", Severity.ERROR))
            else:
                report.findings.append(_info("rfc-class", rfc, line,
                                             f"proposal computes as {report.computed} "
                                             f"(declared {report.declared})"))
            for f in classification.findings:
                if f.undecided or f.change_class >= ChangeClass.MAJOR:
                    report.findings.append(f)
        report.rules = _rules_additive(added, classification)
        for r in report.rules:
            verdict = {True: "additive", False: "NOT additive", None: "additivity not decided"}[r.additive]
            sev = Severity.INFO if r.additive or report.declared == ChangeClass.MAJOR else Severity.ERROR
            if r.additive is None and classification is None:
                sev = Severity.INFO
            how = "encoded in the schema" if r.encoded else ("expressible" if r.expressible else "hand-rolled")
            report.findings.append(_info("rfc-rule-added", rfc, line,
                                         f"adds rule {r.code} ({r.document}, {how}): {verdict}", sev,
                                         code=r.code, additive=r.additive))
        _fixture_findings(rfc, proposed, report)
    else:
        report.findings.append(_info("rfc-no-proposal", rfc, line, f"no proposal folder rfcs/{rfc.path.stem}/; "
                                     "nothing to classify"))
    _example_findings(rfc, proposed, root, report)
    return report
