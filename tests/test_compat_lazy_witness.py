"""Witnesses read lazily: a group branch's (or a member's) failures are asked for witnesses
only until enough are found (:meth:`~evalport_spec.compat.local_witness.WitnessRules.first_verified`).

The verdict and the witness are judged by python-jsonschema and jsonschema-rs on the raw
schemas (:mod:`compat_corpus.oracle`), never by the classifier's own validation path."""

from __future__ import annotations

from compat_corpus.oracle import Validators, lost, schema_set, witness_of
from evalport_spec.compat import compare
from evalport_spec.compat.local_witness import WitnessRules

NAMES = [f"p{i}" for i in range(10)]
OLD = {"type": "object", "properties": {n: {"type": "integer"} for n in NAMES}, "required": ["p0"]}
NEW = {"anyOf": [{"type": "object", "properties": {n: {"type": t} for n in NAMES}} for t in ("string", "boolean")]}


def test_a_group_branch_with_many_failures_is_asked_only_for_the_witnesses_used(monkeypatch):
    """Old: ten integer members; new: an anyOf of two branches typing every member otherwise.
    Each branch fails on all ten members (twenty failures); the document breaking both branches
    is built from two witnesses of each branch, so at most two failures of each are asked
    (the old code asked all twenty)."""
    asked = []
    real = WitnessRules.verified_witnesses

    def counting(self, f, A, B):
        asked.append(f.key())
        return real(self, f, A, B)

    monkeypatch.setattr(WitnessRules, "verified_witnesses", counting)
    r = compare(schema_set({"s.json": OLD}, "old"), schema_set({"s.json": NEW}, "new"))
    back = [f for f in r.findings if f.direction == "backward"]
    assert str(r.change_class) == "MAJOR" and len(back) == 1 and not back[0].undecided
    w = witness_of(back[0])
    assert w is not None and lost(Validators(OLD), Validators(NEW), w[0])  # e.g. {"p0": 0}
    assert len(asked) <= 4


def test_an_uncovered_group_asks_no_branch_after_the_two_witnesses(monkeypatch):
    """Old: objects whose required member k is x, y or z; new: an anyOf of objects whose k is x
    and of nine other types. No branch covers the old objects; the first branch's failures (y and
    z lost) give two documents that break every branch, so the nine others are not asked for
    witnesses (the old code asked all ten). By hand and by both validators: {"k": "y"} is lost."""
    old = {"type": "object", "required": ["k"], "properties": {"k": {"enum": ["x", "y", "z"]}}}
    others = [{"type": t} for t in ("string", "number", "boolean", "null", "array")]
    others += [{"type": "string", "minLength": n} for n in range(1, 5)]
    new = {"anyOf": [{"type": "object", "properties": {"k": {"const": "x"}}}, *others]}
    asked = []
    real = WitnessRules.first_verified

    def counting(self, fails, A, B, limit):
        asked.extend(n.ptr for _, n in B.parts if n.ptr.startswith("/anyOf/"))
        return real(self, fails, A, B, limit)

    monkeypatch.setattr(WitnessRules, "first_verified", counting)
    r = compare(schema_set({"s.json": old}, "old"), schema_set({"s.json": new}, "new"))
    back = [f for f in r.findings if f.direction == "backward"]
    assert str(r.change_class) == "MAJOR" and len(back) == 1 and not back[0].undecided
    w = witness_of(back[0])
    assert w is not None and lost(Validators(old), Validators(new), w[0])
    assert lost(Validators(old), Validators(new), {"k": "y"})
    assert asked == ["/anyOf/0"]
