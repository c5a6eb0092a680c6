"""``rfc check N``: judge an RFC's proposal as the gate would judge the draft it produces.

A composition above the gate (it runs the gate's content stages on the proposed draft) and the
RFC engine (:mod:`evalport_spec.rfc`), which the gate reads: so it lives here, not in ``rfc``.

Steps (toolchain.md, "RFCs": "the toolchain applies it to the draft, classifies it, lists the
rules it adds, and validates the example documents in the RFC's text, without merging it"):

1. read the proposal folder and compare it with the draft (:func:`evalport_spec.rfc.proposal.plan`):
   not yet applied, applied (``rfc apply`` ran, or the same change was made by hand), or partly
   applied (an error);
2. not yet applied: classify draft -> proposed (:func:`evalport_spec.compat.compare_versions`) and compare with
   ``declared_class``; applied: the declared class may not exceed the draft's class since the
   latest release (which may hold other RFCs' changes too);
3. list the rules the proposal adds, each additive or not according to the diff findings that
   carry its code;
4. run the gate's content stages (:data:`GATE_STAGES`: schemas, SPEC.md structure, conformance,
   rules, examples) on the draft as ``rfc apply`` would leave it, built in a temporary copy of
   the repository (the repository itself when applied): a proposal whose rules lack a
   near-neighbour fixture, expect a code at a path the catalogue does not allow, or disagree with
   the validator fails here, not after it is applied;
5. validate every ```json evalport-TYPE example in the RFC text on the proposed version.

The repository is never written.
"""

from __future__ import annotations

import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..compat import Classification, compare_versions
from ..errors import InputError
from ..findings import ChangeClass, Finding, Location, Severity
from ..gate import run_gate
from ..jsonload import loads
from ..rfc.lint import applied_proposal_class, examples
from ..rfc.model import Rfc, find_rfc, repo_root
from ..rfc.proposal import APPLIED, PARTIAL, ApplyPlan, draft_documents, plan
from ..spec import SpecRepo, SpecVersion
from ..validation import Validator

GATE_STAGES = ("schemas", "spec-text", "conformance", "rules", "examples")
"""The gate's stages about the draft's content, run on the draft a proposal produces. The
others judge governance (release history, RFC states, the MAJOR rule) and are not the
proposal's to pass."""


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
        computed: the class of draft -> proposed (``None``: no proposal, or it is applied).
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


def apply_proposal(root: Path, rfc: Rfc) -> tuple[SpecVersion, SpecVersion, list[Any]]:
    """``(draft, proposed, added rule entries)`` for an RFC whose proposal is not yet in the
    draft (:func:`evalport_spec.rfc.proposal.plan`, in memory).

    Raises:
        InputError: as :func:`~evalport_spec.rfc.proposal.plan`, or the proposal is already
            (partly) in the draft.
    """
    p = plan(root, rfc)
    if p.present:
        raise InputError(f"RFC {rfc.number}'s proposal is already {'partly ' if p.missing else ''}in the "
                         f"draft ({', '.join(p.present)})", p.proposal.label)
    return p.draft, p.proposed, p.proposal.rules


def _info(kind: str, rfc: Rfc, line: int, message: str, severity: Severity = Severity.INFO,
          **extra: Any) -> Finding:
    return Finding(kind, message, severity=severity, new=Location(rfc.rel, None, line),
                   extra={"rfc": rfc.number, **extra})


def _rules_additive(added: list[Any], classification: Classification) -> list[RuleAdded]:
    """Each added rule, additive when the classifier's findings carrying its code are all
    below MAJOR and decided (toolchain.md, "Rules count too"); ``None`` when none carries it."""
    out = []
    for r in added:
        additive: bool | None = None
        related = [f for f in classification.findings if f.code == r.code]
        if related:
            additive = not any(f.undecided or (f.change_class >= ChangeClass.MAJOR and f.direction == "backward")
                               for f in related)
        out.append(RuleAdded(r.code, r.document, additive, r.expressible, r.encoded))
    return out


def _gate_findings(root: Path, p: ApplyPlan, report: CheckReport) -> None:
    """Run :data:`GATE_STAGES` on the draft as ``rfc apply`` leaves it; each error becomes an
    ERROR finding naming the stage (its location as the gate gives it, a proposal fixture's
    at the proposal's file)."""
    number = p.proposal.rfc.number
    if p.state == APPLIED:
        result = run_gate(root, stages=GATE_STAGES)
    else:
        with tempfile.TemporaryDirectory(prefix="evalport-rfc-check-") as tmp:
            copy = Path(tmp) / "repo"
            shutil.copytree(root / "spec", copy / "spec")
            if (root / "rfcs").is_dir():
                shutil.copytree(root / "rfcs", copy / "rfcs")
            for rel, data in p.writes.items():
                (copy / rel).parent.mkdir(parents=True, exist_ok=True)
                (copy / rel).write_bytes(data)
            result = run_gate(copy, stages=GATE_STAGES)
    moved = {f"spec/conformance/fixtures/{fx.id}.json": f"{p.proposal.label}/fixtures/{fx.id}.json"
             for fx in p.proposal.fixtures}
    rules = p.proposal.rules_source
    codes = {r.code: f"/rules/{i}" for i, r in enumerate(p.proposal.rules)}
    failed = []
    for stage in result.stages:
        if stage.status != "fail":
            continue
        failed.append(stage.name)
        for f in stage.errors:
            where = f.where()
            loc = Location(moved.get(where.file, where.file), where.pointer, where.line) if where else None
            if where and where.file == "spec/rules.json" and f.code in codes and rules is not None:
                loc = Location(rules.source, codes[f.code], rules.line(codes[f.code]))
            report.findings.append(Finding(
                "rfc-gate", f"once applied, `check` fails its {stage.name} stage: {f.message}",
                severity=Severity.ERROR, code=f.code, new=loc,
                extra={"rfc": number, "stage": stage.name, "kind": f.kind}))
    if not failed:
        line = p.proposal.rfc.fm.line("declared_class")
        what = "applied to the draft" if p.state == APPLIED else f"once `rfc apply {number}` writes it"
        report.findings.append(_info("rfc-gate", p.proposal.rfc, line,
                                     f"{what}, `check` passes its content stages ({', '.join(GATE_STAGES)}; "
                                     f"{len(p.proposal.fixtures)} proposal fixture(s) among the draft's)"))


def _example_findings(rfc: Rfc, proposed: SpecVersion | None, root: Path, report: CheckReport) -> None:
    version = proposed or SpecRepo(root).version("draft")
    blocks = examples(rfc)
    validator = Validator(version)
    for line, doc_type, text in blocks:
        try:
            doc = loads(text, rfc.rel)
        except InputError as exc:
            report.findings.append(_info("rfc-example", rfc, line + (exc.line or 1),
                                         f"evalport-{doc_type} example is not valid JSON: {exc.message}",
                                         Severity.ERROR))
            continue
        try:
            violations = validator.validate(doc.value, doc_type)
        except InputError as exc:
            report.findings.append(_info("rfc-example", rfc, line, str(exc), Severity.ERROR))
            continue
        report.examples += 1
        for v in violations:
            at = line + (doc.line(v.instance_path) or 1)
            report.findings.append(_info("rfc-example-invalid", rfc, at,
                                         f"evalport-{doc_type} example is invalid: {v.code} at "
                                         f"'{v.instance_path}': {v.message}", Severity.ERROR, code=v.code))
    if blocks:
        report.findings.append(_info("rfc-examples", rfc, blocks[0][0],
                                     f"{report.examples} example(s) validated on the "
                                     f"{'proposed' if proposed else 'draft'} version"))


def check_rfc(repo: SpecRepo | str | Path, number: int) -> CheckReport:
    """Check RFC ``number`` (see the module docstring), before or after ``rfc apply``.

    Returns:
        A :class:`CheckReport`; ``report.ok`` is False when any finding is an ERROR (a class
        mismatch, a rule that is not additive in a non-MAJOR RFC, a proposal partly in the
        draft, a gate content stage that would fail, or an invalid example).

    Raises:
        InputError: no such RFC, unsafe front matter, or a proposal that cannot be read or
            applied (malformed patch, catalogue or fixture; the message names the file).
    """
    root = repo_root(repo)
    rfc = find_rfc(root, number)
    report = CheckReport(rfc)
    dc = rfc.meta.get("declared_class")
    report.declared = ChangeClass[dc] if dc in ("PATCH", "MINOR", "MAJOR") else None
    line = rfc.fm.line("declared_class")
    if not rfc.has_proposal():
        report.findings.append(_info("rfc-no-proposal", rfc, line, f"no proposal folder rfcs/{rfc.path.stem}/; "
                                     "nothing to classify"))
        _example_findings(rfc, None, root, report)
        return report
    p = plan(root, rfc)
    report.fixtures = len(p.proposal.fixtures)
    if p.state == PARTIAL:
        report.findings.append(_info("rfc-proposal-partial", rfc, line,
                                     f"the proposal is partly in the draft: {', '.join(p.present)} "
                                     f"already, {', '.join(p.missing)} not; `rfc apply {number}` applies "
                                     "all or nothing, so finish or undo the hand edit", Severity.ERROR))
        _example_findings(rfc, None, root, report)
        return report
    if p.state == APPLIED:
        report.findings += applied_proposal_class(rfc, root)
        report.rules = [RuleAdded(r.code, r.document, None, r.expressible, r.encoded) for r in p.proposal.rules]
    else:
        _classify(rfc, p, root, report)
    _gate_findings(root, p, report)
    _example_findings(rfc, p.proposed if p.state != APPLIED else None, root, report)
    return report


def _classify(rfc: Rfc, p: ApplyPlan, root: Path, report: CheckReport) -> None:
    """Class of draft -> proposed against the declared class, and each added rule's additivity."""
    line = rfc.fm.line("declared_class")
    classification = compare_versions(p.draft, p.proposed, candidates=draft_documents(root))
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
    report.rules = _rules_additive(p.proposal.rules, classification)
    for r in report.rules:
        verdict = {True: "additive", False: "NOT additive", None: "additivity not decided"}[r.additive]
        sev = Severity.INFO if r.additive or report.declared == ChangeClass.MAJOR else Severity.ERROR
        how = "encoded in the schema" if r.encoded else ("expressible" if r.expressible else "hand-rolled")
        report.findings.append(_info("rfc-rule-added", rfc, line,
                                     f"adds rule {r.code} ({r.document}, {how}): {verdict}", sev,
                                     code=r.code, additive=r.additive))
