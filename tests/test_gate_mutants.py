"""Session 36 mutation testing of gate/: hand mutants no test killed, each killed here by a test
naming it. Expected values are worked out from the module docstrings' rules, not from output."""

from __future__ import annotations

from pathlib import Path

from evalport_spec.findings import ChangeClass, Finding, Location, Severity
from evalport_spec.gate import canarybreaks as B
from evalport_spec.gate.acceptance import BaseLedger, RfcState
from evalport_spec.policy import apply_major_rule


def test_a_canary_planting_function_edited_past_its_first_helper_is_a_warning(tmp_path):
    """Mutant: canary_digests hashed only the first function (by name) a planting reaches, so
    an edit of remove_canary_enum_value itself (it removes "a" instead of "b") went unseen. Every
    reached function counts (canarykept module docstring), so the enum canary is named changed."""
    from evalport_spec.gate.canarykept import BREAKS, changed_findings
    judge = Path(B.__file__)
    tools = tmp_path / "tools"
    (tools / BREAKS).parent.mkdir(parents=True)
    source = judge.read_text()
    old = 'sub["enum"].remove("b")'
    assert source.count(old) == 1
    (tools / BREAKS).write_text(source.replace(old, 'sub["enum"].remove("a")'))
    found = changed_findings(tools, {c.name for c in B.CANARIES}, judge)
    assert [(f.kind, f.extra["canary"]) for f in found if f.extra["canary"] == "enum-value-removed"] == [
        ("toolchain-canary-changed", "enum-value-removed")]


def test_a_canary_list_deleted_or_written_as_a_list_is_one_the_judge_cannot_read(tmp_path):
    """Mutants: ``del CANARIES`` not counted as a binding, and a ``CANARIES = [...]`` list read
    like the tuple. The judge reads one literal tuple bound once (canarykept module docstring);
    anything else is a toolchain-canary-removed error saying it lists nothing the judge can read."""
    from evalport_spec.gate.canarykept import BREAKS, removed_findings
    source = Path(B.__file__).read_text()
    tools = tmp_path / "tools"
    (tools / BREAKS).parent.mkdir(parents=True)
    head = "\nCANARIES: tuple[Canary, ...] = ("
    assert source.count(head) == 1
    start = source.index(head)
    end = source.index("\n)\n", start)
    listed = source[:start] + head.replace("= (", "= [") + source[start + len(head):end] + "\n]\n" + source[end + 3:]
    for text in (source + "\ndel CANARIES\n", listed):
        (tools / BREAKS).write_text(text)
        found = removed_findings(tools, {"enum-value-removed"}, set())
        assert [(f.kind, "lists no known breaks the judge can read" in f.message) for f in found] == [
            ("toolchain-canary-removed", True)]


def test_an_rfc_accepted_at_the_base_without_the_fingerprint_does_not_predate_it():
    """Mutant: BaseLedger.predates asked only whether the RFC was accepted and MAJOR at the
    base, not whether it listed the finding's fingerprint there. RFC 7, accepted long ago for
    another change, gains this finding's fingerprint on the branch: its acceptance of this finding
    does not predate the change (acceptance.py item 2), so the removal stays an error."""
    ptr = "/$defs/error/properties/type/enum/2"
    f = Finding("enum-value-removed", "value removed", ChangeClass.MAJOR, old=Location("a/resultset.json", ptr),
                new=Location("b/resultset.json", ptr), witness={"x": 1})
    now = {7: RfcState(7, "accepted", "MAJOR", frozenset({f.fingerprint, "0123456789abcdef"}))}
    at_base = {7: RfcState(7, "accepted", "MAJOR", frozenset({"0123456789abcdef"}))}
    ledger = BaseLedger(now, at_base, "main")
    assert ledger.accepting(f) == [7] and not ledger.predates(7, f)
    out, rule = apply_major_rule([f], latest="1.3.0", declared="2.0.0", ledger=ledger, label="x")
    assert rule == "policy-acceptance-same-change"
    assert [x.severity for x in out if x.kind == "enum-value-removed"] == [Severity.ERROR]


def test_a_released_file_deleted_from_the_tree_fails_the_history_stage(tmp_path):
    """Mutant: stage_history never reported a file the history added under spec/releases/ and
    the tree no longer has. Released files are frozen (frozen.py module docstring: no file ever
    added there may be gone), whatever SHA256SUMS says, so deleting one fails ``history``."""
    from evalport_spec.gate import run_gate
    from gate_repo import make_repo
    repo = make_repo(tmp_path)
    (repo / "spec/releases/1.0.0/rules.json").unlink()
    stage = run_gate(repo, stages=["history"]).stage("history")
    assert stage.status == "fail"
    assert [(f.kind, f.where().file.split(":")[-1]) for f in stage.findings] == [
        ("released-file-removed", "spec/releases/1.0.0/rules.json")]
