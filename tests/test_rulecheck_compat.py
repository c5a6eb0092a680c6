"""Rules in compatibility (issue 4): rule_changes classifies new and changed rules, with a
witness for every MAJOR one; plus the schema walk that decides "reads only new fields"."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from evalport_spec.fieldstatus import field_status
from evalport_spec.findings import ChangeClass
from evalport_spec.rulechanges import rule_changes
from evalport_spec.spec import SpecRepo, SpecVersion, versions_from_mapping
from evalport_spec.validation import RULES, Rule, Validator
from scratch_rules import SCRATCH

MAIN = Path(__file__).resolve().parents[1]
REPO = SpecRepo(MAIN)




def variant(version: str, catalogue: dict[str, Any], name: str) -> SpecVersion:
    """Release ``version`` with its rules.json replaced (schemas unchanged)."""
    root = MAIN / "spec/releases" / version
    files = {str(p.relative_to(root)): p.read_bytes() for p in root.rglob("*") if p.is_file()}
    files["rules.json"] = json.dumps(catalogue, indent=2).encode()
    return versions_from_mapping(name, files, f"scratch/{name}")


def catalogue(version: str) -> dict[str, Any]:
    return json.loads((MAIN / "spec/releases" / version / "rules.json").read_text())


def test_1_1_to_1_2_rules_are_additive() -> None:
    found = rule_changes(REPO.version("1.1.0"), REPO.version("1.2.0"))
    assert [(f.code, f.kind, f.change_class) for f in found] == [
        ("DUPLICATE_ATTEMPT", "rule-added-additive", ChangeClass.MINOR),
        ("ISOLATION_MISMATCH", "rule-added-additive", ChangeClass.MINOR)]
    assert found[0].message == (
        "DUPLICATE_ATTEMPT: reads only fields new in 1.2.0 (guard /results/*/attempt absent "
        "from 1.1.0); no document valid under 1.1.0 can trigger it (proved: guard field new "
        "on a closed object)")
    assert found[0].new.file.endswith("spec/releases/1.2.0/rules.json")
    assert all(f.witness is None for f in found)


def test_scratch_duplicate_attempt_is_major_with_witness() -> None:
    old, new = REPO.version("1.1.0"), REPO.version("1.2.0")
    found = {f.code: f for f in rule_changes(old, new, rules_new=SCRATCH)}
    f = found["DUPLICATE_ATTEMPT"]
    assert (f.kind, f.change_class) == ("rule-added-breaking", ChangeClass.MAJOR)
    w = f.witness
    # two Results with the same test_case_id and no attempt
    ids = [r["test_case_id"] for r in w["results"]]
    assert len(ids) == 2 and ids[0] == ids[1]
    assert not any("attempt" in r for r in w["results"])
    assert f.message == ("DUPLICATE_ATTEMPT: new rule rejects a document valid under 1.1.0 "
                         "(DUPLICATE_ATTEMPT at /results/1/attempt)")
    # the witness is checked with the real validators both ways
    assert Validator(old).validate(w, "resultset") == []
    assert [v.key() for v in Validator(new, rules=SCRATCH).validate(w, "resultset")] == [
        ("DUPLICATE_ATTEMPT", "/results/1/attempt")]
    # the other rule keeps its additive verdict
    assert found["ISOLATION_MISMATCH"].kind == "rule-added-additive"


def test_changed_implementation_is_tightened() -> None:
    v = REPO.version("1.2.0")
    found = rule_changes(v, v, rules_new=SCRATCH, n=10)
    assert [(f.code, f.kind, f.change_class) for f in found] == [
        ("DUPLICATE_ATTEMPT", "rule-tightened", ChangeClass.MAJOR)]
    assert found[0].old is not None and found[0].old.pointer == found[0].new.pointer
    assert Validator(v).validate(found[0].witness, "resultset") == []


def test_a_witness_is_the_finding_s_own_copy_of_the_shared_pool_document() -> None:
    """Pools and generated documents are kept without copies (rulechanges._POOLS): a caller
    editing a finding's witness must not change what the next comparison searches."""
    v = REPO.version("1.2.0")
    first = rule_changes(v, v, rules_new=SCRATCH, n=10)[0]
    kept = copy.deepcopy(first.witness)
    first.witness.clear()
    again = rule_changes(v, v, rules_new=SCRATCH, n=10)[0]
    assert again.witness == kept and again.witness is not first.witness


def test_new_rule_on_existing_fields_is_major() -> None:
    """DUPLICATE_ID added to 1.0.0 after the fact: test case ids existed, so a duplicated test
    case is an old-valid document it rejects."""
    cat = catalogue("1.0.0")
    without = variant("1.0.0", {"rules": [r for r in cat["rules"] if r["code"] != "DUPLICATE_ID"]},
                      "1.0.0-no-dup-id")
    found = rule_changes(without, REPO.version("1.0.0"), n=8)
    assert [(f.code, f.kind, f.change_class) for f in found] == [
        ("DUPLICATE_ID", "rule-added-breaking", ChangeClass.MAJOR)]
    w = found[0].witness
    ids = [tc["id"] for tc in w["test_cases"]] + [g["id"] for g in w.get("graders", [])]
    assert len(ids) != len(set(ids))
    # and the reverse is a removal, MINOR, forward direction
    back = rule_changes(REPO.version("1.0.0"), without, n=8)
    assert [(f.code, f.kind, f.change_class, f.direction) for f in back] == [
        ("DUPLICATE_ID", "rule-removed", ChangeClass.MINOR, "forward")]


def test_rule_that_never_fires_on_existing_fields_is_unwitnessed_and_undecided() -> None:
    # a search that finds nothing is no proof (toolchain.md, "Proofs both ways"): fail closed
    cat = catalogue("1.1.0")
    entry = {"code": "NEVER_FIRES", "document": "resultset", "statement": "s",
             "reads": ["/results/*/passed"], "guard": ["/results/*/passed"], "since": "1.1.0",
             "expressible": False, "encoded": False}
    new = variant("1.1.0", {"rules": cat["rules"] + [entry]}, "1.1.0-never")
    registry = {**RULES, "NEVER_FIRES": Rule("NEVER_FIRES", "resultset", lambda d: iter(()))}
    found = rule_changes(REPO.version("1.1.0"), new, rules_new=registry, n=5)
    assert [(f.code, f.kind, f.change_class, f.severity.name, f.undecided) for f in found] == [
        ("NEVER_FIRES", "rule-added-unwitnessed", ChangeClass.MAJOR, "ERROR", True)]
    assert found[0].extra["searched"] > 5  # generated documents plus their duplicate variants


def test_reworded_entry_is_patch() -> None:
    cat = catalogue("1.2.0")
    cat["rules"] = [dict(r, statement=r["statement"] + " (reworded)")
                    if r["code"] == "SELF_PARENT" or r["code"] == "DUPLICATE_ATTEMPT" else r
                    for r in cat["rules"]]
    found = rule_changes(REPO.version("1.2.0"), variant("1.2.0", cat, "1.2.0-reworded"))
    assert [(f.code, f.kind, f.change_class) for f in found] == [
        ("DUPLICATE_ATTEMPT", "rule-reworded", ChangeClass.PATCH)]


def test_field_status_walks_refs_and_closed_objects() -> None:
    old = REPO.version("1.1.0").schemas
    new = REPO.version("1.2.0").schemas
    assert field_status(old, "resultset.json", "/results/*/attempt") == "absent"
    assert field_status(old, "resultset.json", "/isolation") == "absent"
    assert field_status(new, "resultset.json", "/results/*/attempt") == "present"
    assert field_status(old, "resultset.json", "/results/*/test_case_id") == "present"
    assert field_status(old, "resultset.json", "/metadata/anything") == "open"
    assert field_status(old, "resultset.json", "/results/*/grader_results/*/score") == "present"


def _dup_id_for_test_cases(entry: dict[str, Any]) -> dict[str, Any]:
    """DUPLICATE_ID's entry moved to TestCase documents, with a guard no TestCase has."""
    return dict(entry, document="testcase", guard=["/x_unused/*"], reads=["/graders/*/id"],
                reported_at="/graders/*/id")


TWO_INLINE_GRADERS = {"id": "t", "input": "hi", "graders": [
    {"id": "g", "type": "exact_match"}, {"id": "g", "type": "contains", "params": {"substring": "h"}}]}
"""A TestCase 1.3.0 accepts that DUPLICATE_ID's code rejects (two inline graders, one id)."""


def test_an_entry_catalogued_for_another_document_than_its_code_is_never_proved_additive() -> None:
    # red team: the guard is absent from TestCase, but the guard describes the code on Suites;
    # on a TestCase the code still fires, so "proved additive" lost TWO_INLINE_GRADERS
    old = REPO.version("1.3.0")
    cat = catalogue("1.3.0")
    cat["rules"] = [_dup_id_for_test_cases(r) if r["code"] == "DUPLICATE_ID" else r for r in cat["rules"]]
    new = variant("1.3.0", cat, "1.3.0-dup-id-on-test-cases")
    assert Validator(old).validate(TWO_INLINE_GRADERS, "testcase") == []
    assert [v.code for v in Validator(new).validate(TWO_INLINE_GRADERS, "testcase")] == ["DUPLICATE_ID"]
    (found,) = [f for f in rule_changes(old, new, n=8) if f.direction == "backward"]
    assert (found.code, found.change_class) == ("DUPLICATE_ID", ChangeClass.MAJOR)
    assert "proved" not in found.message
    assert found.undecided or Validator(new).validate(found.witness, "testcase")


def test_a_code_catalogued_twice_is_undecided() -> None:
    # red team: a second DUPLICATE_ID entry (for test cases) was compared with the old Suite
    # entry by code and "proved" additive, while the validator runs both entries
    old = REPO.version("1.3.0")
    cat = catalogue("1.3.0")
    first = next(r for r in cat["rules"] if r["code"] == "DUPLICATE_ID")
    cat["rules"].append(_dup_id_for_test_cases(first))
    new = variant("1.3.0", cat, "1.3.0-dup-id-twice")
    assert [v.code for v in Validator(new).validate(TWO_INLINE_GRADERS, "testcase")] == ["DUPLICATE_ID"]
    found = [f for f in rule_changes(old, new, n=8) if f.code == "DUPLICATE_ID"]
    assert [(f.kind, f.change_class, f.undecided) for f in found] == [
        ("rule-catalogued-twice", ChangeClass.MAJOR, True)] * 2
    assert [f.new.pointer for f in found] == [f"/rules/{cat['rules'].index(first)}", f"/rules/{len(cat['rules']) - 1}"]


def test_a_guard_the_implementation_contradicts_proves_nothing() -> None:
    """Red team: the guard is data of the new catalogue. DUPLICATE_ATTEMPT added to 1.2.0's
    schemas with the guard ``/results/*/zzz`` (a name no ResultSet may hold) was "proved"
    MINOR by ``diff``, yet the registered code still rejects two Results of one test case
    without an attempt: the search runs and that document is the MAJOR witness."""
    base = catalogue("1.2.0")
    old_cat = {**base, "rules": [r for r in base["rules"] if r["code"] != "DUPLICATE_ATTEMPT"]}
    new_cat = {**base, "rules": [{**r, "guard": ["/results/*/zzz"]} if r["code"] == "DUPLICATE_ATTEMPT"
                                 else r for r in base["rules"]]}
    old, new = variant("1.2.0", old_cat, "old"), variant("1.2.0", new_cat, "new")
    found = {f.code: f for f in rule_changes(old, new)}
    f = found["DUPLICATE_ATTEMPT"]
    assert (f.kind, f.change_class) == ("rule-added-breaking", ChangeClass.MAJOR)
    # the oracle: old's full validator accepts the witness, new's rejects it with the rule
    assert Validator(old).validate(f.witness, "resultset") == []
    assert [v.code for v in Validator(new).validate(f.witness, "resultset")] == ["DUPLICATE_ATTEMPT"]
