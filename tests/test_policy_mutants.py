"""Session 36 mutation testing of the MAJOR rule (policy.py): hand mutants that flipped a
verdict and that no test killed. Each test names the mutant it kills; the expected values come
from the rule as SPEC.md "Versioning and compatibility" and policy.py's module docstring state
it, not from the code's output."""

from __future__ import annotations

from evalport_spec.findings import ChangeClass, Finding, Location, Severity
from evalport_spec.gate.acceptance import BaseLedger, RfcState
from evalport_spec.policy import apply_major_rule, effective_class

PTR = "/$defs/error/properties/type/enum/2"


def _major() -> Finding:
    return Finding("enum-value-removed", "value removed", ChangeClass.MAJOR, old=Location("a/resultset.json", PTR),
                   new=Location("b/resultset.json", PTR), witness={"x": 1})


def _undecided(cls: ChangeClass) -> Finding:
    return Finding("keyword-undecided", "cannot decide", cls, undecided=True, new=Location("b/suite.json", "/x"))


def test_an_undecided_finding_makes_the_effective_class_major_whatever_the_classifier_said():
    """Mutant: effective_class returned the classifier's class (an undecided change numbered
    as a minor release by ``release`` and the releases stage). Fail closed: undecided is MAJOR."""
    for cls in (ChangeClass.NONE, ChangeClass.PATCH, ChangeClass.MINOR):
        assert effective_class(cls, [_undecided(cls)]) == ChangeClass.MAJOR
    forward = Finding("enum-value-removed", "forward only", ChangeClass.MAJOR, direction="forward")
    assert effective_class(ChangeClass.MINOR, [forward]) == ChangeClass.MINOR
    assert effective_class(ChangeClass.MINOR, []) == ChangeClass.MINOR


def test_an_rfc_accepted_finding_is_still_an_error_without_the_next_major_version():
    """Mutant: an RFC-accepted finding was a warning whatever spec/VERSION said. The rule needs
    both (module docstring items 1 and 2): declaring 1.4.0 after 1.3.0 leaves the finding an error."""
    f = _major()
    st = {7: RfcState(7, "accepted", "MAJOR", frozenset({f.fingerprint}))}
    out, rule = apply_major_rule([f], latest="1.3.0", declared="1.4.0", ledger=BaseLedger(st, st, "main"),
                                 label="x")
    assert rule == "policy-major-needs-major-version"
    assert [x.severity for x in out if x.kind == "enum-value-removed"] == [Severity.ERROR]
    out, rule = apply_major_rule([f], latest="1.3.0", declared="2.0.0", ledger=BaseLedger(st, st, "main"),
                                 label="x")
    assert rule == "policy-major-accepted"
    assert [x.severity for x in out if x.kind == "enum-value-removed"] == [Severity.WARNING]


def test_breaking_findings_all_ignored_by_fingerprint_need_no_major_version():
    """Mutant: the major-version check counted ignored findings too. An ignore entry naming a
    finding's kind and fingerprint accepts it (gate-ignore.yml: a reviewed rule-code edit that
    keeps every verdict), so nothing is left that needs 2.0.0: 1.4.0 passes."""
    f = _major()
    entry = {"kind": "enum-value-removed", "fingerprint": f.fingerprint, "reason": "agreed"}
    out, rule = apply_major_rule([f], latest="1.3.0", declared="1.4.0", ledger=None, label="x", ignores=[entry])
    assert rule == "policy-major-accepted"
    assert not [x for x in out if x.severity == Severity.ERROR]
    assert [x.severity for x in out if x.kind == "enum-value-removed"] == [Severity.WARNING]


def test_an_ignore_entry_of_another_kind_with_the_fingerprint_accepts_nothing():
    """Mutant: an entry matched by fingerprint alone. The repository's file may name
    rule-implementation-changed only, so that kind carrying an enum removal's fingerprint must
    leave the removal an error (policy._ignored's docstring)."""
    f = _major()
    entry = {"kind": "rule-implementation-changed", "fingerprint": f.fingerprint, "reason": "disguised"}
    out, rule = apply_major_rule([f], latest="1.3.0", declared="2.0.0", ledger=None, label="x", ignores=[entry])
    assert rule == "policy-major-needs-rfc"
    assert [x.severity for x in out if x.kind == "enum-value-removed"] == [Severity.ERROR]
