"""``spec/VERSION`` is part of what a document's validity depends on: the ``base`` stage's check.

A Suite or ResultSet is validated with the spec version its ``version`` member names
(:func:`evalport_spec.validation.versions.choose_version`), and a document naming the version
the draft declares goes to the draft. A branch that only edits ``spec/VERSION`` (a new major
declared: ``1.4.0`` -> ``2.0.0``) sends the base draft's documents (``"version": "1.4.0"``) to
the newest release of their major instead (``1.3.0``), which rejects whatever the draft added
since: documents the base's draft accepts are lost with no schema edit for the classifier to see
(red team). :func:`rerouted_findings` reports that loss as one breaking finding, held to the
MAJOR rule like any other.
"""

from __future__ import annotations

from typing import Any

from ..findings import ChangeClass, Finding, Location
from ..policy import breaking
from ..spec import DRAFT, SpecVersion, detect_type
from ..validation import Validator
from ..validation.versions import VERSIONED_TYPES, choose_version
from .context import GateContext

KIND = "draft-version-rerouted"
"""The finding kind."""


def _witness(base_draft: SpecVersion, target: SpecVersion, candidates: list[Any], version: str) -> Any:
    """The first candidate that, declaring ``version``, the base's draft accepts and ``target``
    rejects (both full validators: schema pass and rules), or ``None``."""
    old, new = Validator(base_draft), Validator(target)
    for doc in candidates:
        doc_type = detect_type(doc)
        if doc_type not in VERSIONED_TYPES:
            continue
        doc = {**doc, "version": version}
        if not old.validate(doc, doc_type) and new.validate(doc, doc_type):
            return doc
    return None


def rerouted_findings(ctx: GateContext, base_draft: SpecVersion) -> list[Finding]:
    """A MAJOR finding :data:`KIND` when documents naming the version ``base_draft`` declares go,
    on this branch, to a release that rejects some document ``base_draft`` accepts; none when
    they still go to the draft (the ``base`` stage compares the two drafts) or the release
    accepts all of them. Its witness (a document declaring that version, checked with both full
    validators) comes from the classifier's witnesses of the base draft against the release;
    without one the finding is undecided (still MAJOR: fail closed).

    Raises:
        InputError: unreadable schemas of the release.
    """
    declared = base_draft.semver
    if declared is None:
        return []
    now = ctx.declared()
    choice = choose_version({"version": declared}, "suite", ctx.repo.releases(), now)
    if choice.name == DRAFT:
        return []
    base = ctx.base or "the base"
    where = Location("spec/VERSION", None, 1)
    item = {"version": declared, "validated_by": choice.name}
    if choice.name is None:
        return [Finding(KIND, f"documents declaring version {declared} (the version {base}'s draft declares) "
                        f"are rejected on this branch (spec/VERSION says {now}): "
                        f"{choice.rejection.message if choice.rejection else 'no spec version of their major'}",
                        change_class=ChangeClass.MAJOR, new=where, item=item)]
    target = ctx.version(choice.name)
    lost = breaking(ctx.classify(base_draft, target).findings)
    if not lost:
        return []
    witness = _witness(base_draft, target, [f.witness for f in lost if f.witness is not None], declared)
    return [Finding(KIND, f"documents declaring version {declared} (the version {base}'s draft declares) are "
                    f"validated by release {choice.name} on this branch (spec/VERSION says {now}), which "
                    f"rejects documents {base}'s draft accepts: {lost[0].message}",
                    change_class=ChangeClass.MAJOR, new=where, witness=witness, undecided=witness is None,
                    item=item)]
