"""Rule behaviour is part of compatibility (issue 21; toolchain.md, "Rules count too").

Two sides are compared, each a spec version (schemas, and a catalogue saying which hand-rolled
rules are active for each document type) with a rule program
(:mod:`evalport_spec.gate.ruleprogram`, run in its own process over its own tree). On every
document of the corpus (:mod:`evalport_spec.gate.rulecorpus`):

* **valid -> invalid**: the old schema accepts the document, no active old rule reports it, and
  an active new rule does: a MAJOR finding ``rule-behaviour-tightened`` naming that rule, with
  the smallest such document as its witness;
* **invalid -> valid**: only old rules reject a document both schemas accept, and no new rule
  does: a MINOR finding ``rule-behaviour-loosened`` (forward) naming the old rule.

Only documents where the rule outcomes differ are schema-validated, so a comparison costs two
program runs (memoised per program and corpus) and a few validations.

:func:`guard_findings` checks the catalogue's ``guard`` against the implementation: a rule that
reports a document holding none of its guard locations contradicts the guard, which the
classifier's "guard field new on a closed object" proof relies on
(:mod:`evalport_spec.rulechanges`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from ..catalogue import Catalogue
from ..findings import ChangeClass, Finding, Location, Severity
from ..spec import SpecVersion
from .rulecorpus import Corpus, locations
from .ruleprogram import Program, ProgramRun

RULE_KINDS = ("rule-added-breaking", "rule-tightened", "rule-added-unwitnessed",
              "rule-changed-unwitnessed", "rule-added-additive", "rule-changed-additive")
"""Classifier findings about a rule's behaviour that a witnessed behaviour finding replaces."""


@dataclass(frozen=True)
class Side:
    """One side of a comparison.

    Attributes:
        version: whose schemas decide schema validity and whose catalogue the active rules.
        program: whose implementations run.
        label: how messages name the side (``"origin/main"``, ``"1.3.0 as released"``).
    """

    version: SpecVersion
    program: Program
    label: str


def active(catalogue: Catalogue, doc_type: str) -> set[str]:
    """Codes of the hand-rolled (not ``encoded``) rules of ``doc_type`` in ``catalogue``."""
    return {e.code for e in catalogue.rules if e.document == doc_type and not e.encoded}


def _activations(version: SpecVersion) -> set[tuple[str, str]]:
    return {(e.code, e.document) for e in version.catalogue.rules if not e.encoded}


def entry_location(version: SpecVersion, code: str) -> Location | None:
    """Where rule ``code``'s catalogue entry is in ``version`` (``rules.json#/rules/i``), or
    ``None`` when the catalogue has no such entry."""
    for i, e in enumerate(version.catalogue.rules):
        if e.code == code:
            return Location(version.path_label("rules.json"), f"/rules/{i}", e.line)
    return None


class _SchemaCheck:
    """Schema validity (format asserted; encoded rules included) per version and type, cached."""

    def __init__(self) -> None:
        self._validators: dict[tuple[int, str], Any] = {}

    def valid(self, version: SpecVersion, doc_type: str, document: Any) -> bool:
        key = (id(version), doc_type)
        if key not in self._validators:
            try:
                name = version.schema_name(doc_type)
                self._validators[key] = version.schemas.validator(name, format_assertion=True)
            except Exception:  # noqa: BLE001 - no schema for the type: nothing is valid under it
                self._validators[key] = None
        v = self._validators[key]
        return v is not None and v.is_valid(document)


def _smaller(best: dict[tuple[str, str], tuple[int, int, str]], key: tuple[str, str], index: int,
             document: Any, where: str) -> None:
    size = len(json.dumps(document))
    if key not in best or size < best[key][0]:
        best[key] = (size, index, where)


def compare_behaviour(old: Side, new: Side, corpus: Corpus,
                      run: Callable[[Program], ProgramRun]) -> list[Finding]:
    """Findings for every rule whose verdict changes between the sides (module docstring), one
    per rule and direction, each with its smallest witness and where that document came from.
    ``run`` runs a program over ``corpus`` (called only when the sides can differ)."""
    if not corpus.documents or (old.program.digest == new.program.digest
                                and _activations(old.version) == _activations(new.version)):
        return []
    old_run, new_run = run(old.program), run(new.program)
    schema = _SchemaCheck()
    tightened: dict[tuple[str, str], tuple[int, int, str]] = {}
    loosened: dict[tuple[str, str], tuple[int, int, str]] = {}
    act: dict[tuple[str, str], set[str]] = {}
    for i, (doc_type, doc) in enumerate(corpus.documents):
        for side, cat in (("old", old.version.catalogue), ("new", new.version.catalogue)):
            if (side, doc_type) not in act:
                act[(side, doc_type)] = active(cat, doc_type)
        was = {c: p for c, p in old_run.fired[i].items() if c in act[("old", doc_type)]}
        now = {c: p for c, p in new_run.fired[i].items() if c in act[("new", doc_type)]}
        if set(was) == set(now):
            continue
        if not was and schema.valid(old.version, doc_type, doc):
            for code in sorted(now):
                _smaller(tightened, (code, doc_type), i, doc, now[code][0])
        elif not now and schema.valid(old.version, doc_type, doc) and \
                schema.valid(new.version, doc_type, doc):
            for code in sorted(was):
                _smaller(loosened, (code, doc_type), i, doc, was[code][0])
    out: list[Finding] = []
    for (code, _), (_, i, where) in sorted(tightened.items()):
        out.append(Finding(
            "rule-behaviour-tightened",
            f"{code}: {new.label} rejects a document {old.label} accepts ({code} at {where or '/'}; "
            f"document: {corpus.origins[i]})", ChangeClass.MAJOR, Severity.ERROR,
            entry_location(old.version, code), entry_location(new.version, code),
            witness=corpus.documents[i][1], code=code,
            extra={"violation": {"code": code, "instance_path": where}, "old": old.label,
                   "new": new.label, "compared": len(corpus.documents)}))
    for (code, _), (_, i, where) in sorted(loosened.items()):
        out.append(Finding(
            "rule-behaviour-loosened",
            f"{code}: {new.label} accepts a document {old.label} rejects with {code} at "
            f"{where or '/'} (document: {corpus.origins[i]})", ChangeClass.MINOR, Severity.INFO,
            entry_location(old.version, code), entry_location(new.version, code),
            witness=corpus.documents[i][1], code=code, direction="forward",
            extra={"violation": {"code": code, "instance_path": where}, "old": old.label,
                   "new": new.label, "compared": len(corpus.documents)}))
    return out


def merge_with_classification(classified: Iterable[Finding], behaviour: list[Finding]) -> list[Finding]:
    """The classifier's findings plus the behaviour findings, one truth per rule: a rule with a
    witnessed behaviour change loses the classifier's in-process guesses about it (kinds
    :data:`RULE_KINDS`, which cannot see implementations the judging process does not run). A
    ``rule-implementation-changed`` finding (:mod:`evalport_spec.gate.rulecode`) is always kept:
    it is what an RFC accepts for a change of rule code."""
    witnessed = {f.code for f in behaviour if f.kind == "rule-behaviour-tightened"
                 or (f.kind == "rule-implementation-changed" and f.witness is not None)}
    kept = [f for f in classified if not (f.code in witnessed and f.kind in RULE_KINDS)]
    major = {f.code for f in kept if f.kind in ("rule-added-breaking", "rule-tightened")}
    return kept + [f for f in behaviour if f.code not in major or f.kind == "rule-implementation-changed"]


def guard_findings(version: SpecVersion, corpus: Corpus, run: ProgramRun, label: str) -> list[Finding]:
    """Error findings for rules of ``version``'s catalogue whose implementation (``run``)
    reports a document holding none of the rule's ``guard`` locations, and for rules that
    crashed; one per rule, with the smallest document as witness."""
    guards = {e.code: e.guard for e in version.catalogue.rules if not e.encoded and e.guard}
    bad: dict[tuple[str, str], tuple[int, int, str]] = {}
    for i, (doc_type, doc) in enumerate(corpus.documents):
        for code, paths in run.fired[i].items():
            guard = guards.get(code)
            if guard and not any(locations(doc, g) for g in guard):
                _smaller(bad, (code, doc_type), i, doc, paths[0])
    out = []
    for (code, _), (_, i, where) in sorted(bad.items()):
        out.append(Finding(
            "rule-guard-contradicted",
            f"{code}: {label} reports {where or '/'} on a document with none of its guard "
            f"locations ({', '.join(guards[code])}); the catalogue's guard must name a location "
            f"every firing needs (document: {corpus.origins[i]})",
            new=entry_location(version, code), witness=corpus.documents[i][1], code=code))
    crashed: dict[str, tuple[int, str]] = {}
    for i, code, message in run.crashed:
        crashed.setdefault(code, (i, message))
    for code, (i, message) in sorted(crashed.items()):
        out.append(Finding(
            "rule-crashed", f"{code}: {label} raised {message} (rules must read "
            f"defensively; document: {corpus.origins[i]})", new=entry_location(version, code),
            witness=corpus.documents[i][1], code=code))
    return out
