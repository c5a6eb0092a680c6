"""Rules in compatibility: classify the cross-field rule changes between two spec versions.

toolchain.md, "Compatibility classes", *Rules count too*: "A new or tightened cross-field rule
that can fire on documents valid under the old version makes the change MAJOR, exactly like a
schema change (witness: an old-valid document the new validator rejects with that rule's code).
A rule that reads only fields new in this version is additive." The diff engine calls
:func:`rule_changes` and merges its findings with the schema findings.

For every rule of the new catalogue that is new, or *changed* (same code, different catalogue
entry or a different implementation function):

1. **Proof**: a rule whose ``guard`` locations are all absent from the old schema (each
   passes through an object the old schema closes without declaring the name,
   :func:`~evalport_spec.fieldstatus.field_status`) and whose implementation is the
   registered one (``validation.RULES``, the implementation the catalogue's ``guard``
   describes: "locations at least one of which must be present in a document for the rule to
   be able to fire", :mod:`evalport_spec.catalogue`) cannot fire on an old-valid document, which
   cannot contain a guard field: kind ``rule-added-additive`` (or ``rule-changed-additive``),
   MINOR; the message ends "(proved: guard field new on a closed object)" and ``extra`` is
   ``{"proof": "guard field new on a closed object", "searched": N}``. The guard is data of
   the new catalogue, so the proof holds only when the search of step 2 finds no witness: an
   old-valid document the rule rejects contradicts the guard, and is the MAJOR witness.
2. Otherwise **search** for a witness: old-valid documents of the rule's document type are
   documents generated from the old schema (:func:`evalport_spec.generate.generate_valid`) plus
   the given corpus, plus each one's :func:`~evalport_spec.generate.mutate_duplicates`
   variants, kept only when the OLD full validator (old schema, old catalogue, ``rules_old``)
   accepts them. The NEW full validator (``rules_new``) runs on each; one rejected with the
   rule's code is a witness (the smallest is kept): kind ``rule-added-breaking`` or
   ``rule-tightened``, MAJOR. The pool of old-valid documents is built once per content
   (schemas, catalogue, implementations, corpus, size) per process.
3. Without a witness, a rule whose guard locations are all absent from the old schema (a
   substituted implementation, which the guard does not describe) is additive as in 1, with
   ``extra`` ``{"searched": N}`` instead of the proof note.
4. Otherwise the rule reads fields that already existed and the bounded search found no
   document it rejects: kind ``rule-added-unwitnessed`` (``rule-changed-unwitnessed``),
   *undecided* (MAJOR, severity error: the gate fails closed), with the number of documents
   searched. A search is a safety net, never the proof (toolchain.md, "Proofs both ways"): a
   tightened ``parameters`` value (a smaller tolerance) is found by no sample that lacks a
   document between the two bounds, yet loses every such document.

A changed entry whose only differences are wording (``statement``, ``gap``, ``rfc``,
``since``) with the same implementation is ``rule-reworded`` (PATCH); a changed ``parameters``
value (a tolerance, a limit) changes what the rule rejects and is classified like any change. A rule the new catalogue
drops is ``rule-removed``: MINOR, forward direction (documents the old version rejected may now
be accepted).
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from typing import Any

from .cache import ContentMemo, digest
from .catalogue import RuleEntry
from .fieldstatus import field_status
from .findings import ChangeClass, Finding, Location, Severity
from .spec import SpecVersion

SEARCH_N = 30
"""Documents generated from the old schema per document type for the witness search."""

MUTATIONS_PER_DOCUMENT = 40
"""At most this many ``mutate_duplicates`` variants per old-valid document."""

PROVED = "proved: guard field new on a closed object"
"""How a rule decided by the guard proof (step 1 of the module docstring) is marked."""

_GENERATED = ContentMemo(maxsize=16, copies=False)
"""Generated documents per (schema set content, file, n, seed): generation is deterministic and
costly, and several version pairs share an old version. Read only (:func:`_build_pool` keeps
them as they are and :func:`~evalport_spec.generate.mutate_duplicates` copies)."""

_POOLS = ContentMemo(maxsize=16, copies=False)
"""Old-valid document pools per (schema set content, document type, old catalogue entries and
implementations of that type, corpus, n, seed). Read only: the validators read each document,
and the one a finding carries as its witness is a copy (:func:`_witness`)."""

_MEANING = ("document", "reads", "guard", "reported_at", "expressible", "encoded", "parameters")


def rule_changes(old: SpecVersion, new: SpecVersion, corpus: Mapping[str, list] | None = None, *,
                 rules_old: Mapping[str, Any] | None = None,
                 rules_new: Mapping[str, Any] | None = None,
                 n: int = SEARCH_N, seed: int = 0) -> list[Finding]:
    """Classify the rule changes from ``old`` to ``new`` (see the module docstring).

    Args:
        old, new: the two versions (their catalogues, schemas and, through the validator, the
            implementations in ``rules_old``/``rules_new``).
        corpus: extra documents by type (``{"resultset": [doc, ...]}``), e.g. the repository's
            fixtures and examples; each is used only if the old full validator accepts it.
        rules_old, rules_new: implementation registries ``{code: Rule}`` (default: the
            validator's ``RULES``); pass a substitute to see how a different implementation of a
            rule would classify.
        n, seed: size and seed of the generated part of the search (deterministic).

    Returns:
        One finding per added, changed or removed rule, in new-catalogue order then removals.
        MAJOR findings carry the witness document and the violation in ``extra``.

    Raises:
        InputError: a version without a schema for a rule's document type, or bad schemas.
    """
    from .validation import RULES, Validator

    reg_old = RULES if rules_old is None else rules_old
    reg_new = RULES if rules_new is None else rules_new
    v_old = Validator(old, rules=reg_old)
    v_new = Validator(new, rules=reg_new)
    pools: dict[str, list[Any]] = {}

    def pool(doc_type: str) -> list[Any]:
        if doc_type not in pools:
            pools[doc_type] = _old_valid(old, v_old, doc_type, (corpus or {}).get(doc_type, []),
                                         n, seed)
        return pools[doc_type]

    out: list[Finding] = []
    old_index = {e.code: i for i, e in enumerate(old.catalogue.rules)}
    codes = [e.code for e in new.catalogue.rules]
    for i, entry in enumerate(new.catalogue.rules):
        prev = old.catalogue.get(entry.code)
        where_new = Location(new.path_label("rules.json"), f"/rules/{i}", entry.line)
        where_old = (Location(old.path_label("rules.json"), f"/rules/{old_index[entry.code]}",
                              prev.line) if prev else None)
        if codes.count(entry.code) > 1:
            # the validator runs every entry; pairing one of them with the old entry by code
            # would judge a rule by another entry's meaning (red team: a second DUPLICATE_ID
            # entry for test cases was "proved" additive)
            out.append(Finding(
                "rule-catalogued-twice", f"{entry.code}: catalogued {codes.count(entry.code)} times in "
                f"{new.name}; each entry runs, so none can be compared with {old.name}'s alone",
                ChangeClass.MAJOR, Severity.ERROR, where_old, where_new, code=entry.code, undecided=True))
            continue
        impl_changed = prev is not None and _function(reg_old, entry.code) is not _function(
            reg_new, entry.code)
        if prev is not None:
            meaning_changed = any(getattr(prev, k) != getattr(entry, k) for k in _MEANING)
            if not impl_changed and not meaning_changed:
                if _wording(prev) != _wording(entry):
                    out.append(Finding(
                        "rule-reworded", f"{entry.code}: catalogue wording changed, the rule "
                        f"itself did not", ChangeClass.PATCH, Severity.INFO, where_old, where_new,
                        code=entry.code))
                continue
        added = prev is None
        # the search runs even when the guard proof applies: the guard is data of the new
        # catalogue, and an old-valid document the rule rejects contradicts it (red team: a
        # DUPLICATE_ATTEMPT added with the guard /results/*/zzz was "proved" MINOR by diff)
        docs = pool(entry.document)
        witness, violation = _witness(v_new, entry, docs)
        if witness is None and _guard_absent(old, entry) and _function(
                reg_new, entry.code) is _function(RULES, entry.code) and _implemented_for(reg_new, entry):
            # proof: old-valid documents cannot contain a guard field, and the catalogue's
            # guard describes the registered implementation (the gate's behaviour stage checks
            # it against the implementation: rule-guard-contradicted)
            out.append(_additive(entry, old, new, added, where_old, where_new,
                                 f" ({PROVED})", {"proof": PROVED, "searched": len(docs)}))
            continue
        if witness is not None:
            what = "new rule" if added else (
                "changed implementation" if impl_changed else "changed rule")
            out.append(Finding(
                "rule-added-breaking" if added else "rule-tightened",
                f"{entry.code}: {what} rejects a document valid under {old.name} "
                f"({violation[0]} at {violation[1] or '/'})",
                ChangeClass.MAJOR, Severity.ERROR, where_old, where_new, witness=witness,
                code=entry.code, extra={"violation": {"code": violation[0],
                                                      "instance_path": violation[1]},
                                        "searched": len(docs)}))
            continue
        if _guard_absent(old, entry):
            out.append(_additive(entry, old, new, added, where_old, where_new, "",
                                 {"searched": len(docs)}))
        else:
            out.append(Finding(
                "rule-added-unwitnessed" if added else "rule-changed-unwitnessed",
                f"{entry.code}: reads fields that exist in {old.name}; a search of {len(docs)} "
                f"documents valid under {old.name} found none it rejects, but a search is no "
                "proof, so the change is undecided and counts as breaking",
                ChangeClass.MAJOR, Severity.ERROR, where_old, where_new, code=entry.code,
                undecided=True, extra={"searched": len(docs)}))
    for entry in old.catalogue.rules:
        if new.catalogue.get(entry.code) is None:
            out.append(Finding(
                "rule-removed", f"{entry.code}: rule removed; documents {old.name} rejected "
                f"with it may be accepted by {new.name}", ChangeClass.MINOR, Severity.INFO,
                Location(old.path_label("rules.json"), f"/rules/{old_index[entry.code]}",
                         entry.line), None, code=entry.code, direction="forward"))
    return out


def _additive(entry: RuleEntry, old: SpecVersion, new: SpecVersion, added: bool,
              where_old: Location | None, where_new: Location, note: str,
              extra: dict[str, Any]) -> Finding:
    """The MINOR finding of a rule whose guard fields are all absent from ``old``."""
    return Finding(
        "rule-added-additive" if added else "rule-changed-additive",
        f"{entry.code}: reads only fields new in {new.name} (guard " + ", ".join(entry.guard)
        + f" absent from {old.name}); no document valid under {old.name} can trigger it{note}",
        ChangeClass.MINOR, Severity.INFO, where_old, where_new, code=entry.code, extra=extra)


def _function(registry: Mapping[str, Any], code: str) -> Any:
    rule = registry.get(code)
    return getattr(rule, "function", rule)


def _implemented_for(registry: Mapping[str, Any], entry: RuleEntry) -> bool:
    """Whether the implementation of ``entry.code`` checks the document type the entry names:
    the guard describes the registered implementation on its own document type only (red team:
    DUPLICATE_ID catalogued for test cases with a guard no TestCase has was "proved" additive,
    yet its code rejects a TestCase with two inline graders of one id)."""
    rule = registry.get(entry.code)
    return getattr(rule, "document_type", entry.document) == entry.document


def _wording(e: RuleEntry) -> tuple[Any, ...]:
    return (e.statement, e.gap, e.rfc, e.since)


def _guard_absent(old: SpecVersion, entry: RuleEntry) -> bool:
    """Every ``guard`` location is absent from the old schema of the rule's document type."""
    if not entry.guard:
        return False
    try:
        name = old.schema_name(entry.document)
    except Exception:  # the old version has no such document type at all
        return True
    return all(field_status(old.schemas, name, g) == "absent" for g in entry.guard)


def _old_valid(old: SpecVersion, validator: Any, doc_type: str, corpus: list[Any], n: int,
               seed: int) -> list[Any]:
    """Documents of ``doc_type`` the old full validator accepts (see module docstring), in a
    deterministic order; memoised by content in :data:`_POOLS`.

    Full validity is checked as: the raw old schema accepts (``is_valid``, ``format`` asserted;
    encoded rules live there) and the old hand-rolled rules report nothing, which is what
    ``Validator.validate(...) == []`` means, at a fraction of the cost.
    """
    try:
        name = old.schema_name(doc_type)
    except Exception:
        return []
    schemas_key = json.dumps({f.name: f.schema for f in old.schemas}, sort_keys=True)
    rules = tuple((getattr(r, "code", None), getattr(r, "function", r))
                  for r in validator.active.get(doc_type, ()))
    key = (digest("old-valid", schemas_key, name, doc_type, corpus, n, seed,
                  MUTATIONS_PER_DOCUMENT), rules)
    return _POOLS.get(key, lambda: _build_pool(old, validator, name, doc_type, schemas_key,
                                               corpus, n, seed))


def _build_pool(old: SpecVersion, validator: Any, name: str, doc_type: str, schemas_key: str,
                corpus: list[Any], n: int, seed: int) -> list[Any]:
    from .generate import generate_valid, mutate_duplicates, schema_kwargs
    from .validation.fast import FastCheck

    schema = old.schemas.validator(name, format_assertion=True)
    fast = FastCheck(old.schemas, name, schema.format_checker)  # trusted when it says valid, as validate does
    generated = _GENERATED.get(
        (digest("generated", schemas_key, name, n, seed)),
        lambda: generate_valid(**schema_kwargs(old.schemas, name), n=n, seed=seed))
    out: list[Any] = []
    seen: set[str] = set()
    for doc in list(corpus) + generated:
        for cand in [doc, *mutate_duplicates(doc, limit=MUTATIONS_PER_DOCUMENT)]:
            key = json.dumps(cand, sort_keys=True)
            if key in seen:
                continue
            seen.add(key)
            if (fast.is_valid(cand) is True or schema.is_valid(cand)) and not validator.check_rules(cand, doc_type):
                out.append(cand)
    return out


def _witness(validator: Any, entry: RuleEntry, docs: list[Any]
             ) -> tuple[Any, tuple[str, str] | tuple[None, None]]:
    """The smallest document the new validator rejects with ``entry.code``, and that violation.

    A hand-rolled rule is run alone (``check_rules``); an encoded one needs the schema pass.
    """
    run = validator.validate if entry.encoded else validator.check_rules
    best: tuple[int, Any, tuple[str, str]] | None = None
    for doc in docs:
        hits = [v for v in run(doc, entry.document) if v.code == entry.code]
        if hits:
            size = len(json.dumps(doc))
            if best is None or size < best[0]:
                best = (size, doc, hits[0].key())
    if best is None:
        return None, (None, None)
    return copy.deepcopy(best[1]), best[2]
