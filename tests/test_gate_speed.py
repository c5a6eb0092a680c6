"""Speed work on the gate that must not change any answer: the content-keyed classification
memo (``cache``, ``compat.versions``), the guard proof (which no longer skips the rule witness search)
(``rulechanges``), memoised old-valid pools, and the memoised 2020-12 meta-schema check
(``gate.metaschema``). Timings are measured by ``benchmarks/bench_check.py``, not here."""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from evalport_spec import cache
from evalport_spec import rulechanges as rulecompat
from evalport_spec.compat import compare_versions
from evalport_spec.compat.versions import MEMO
from evalport_spec.findings import ChangeClass
from evalport_spec.gate import run_gate
from evalport_spec.gate.metaschema import meta_validator
from evalport_spec.jsonload import loads
from evalport_spec.schemaset import SchemaSet
from evalport_spec.spec import SpecRepo, SpecVersion
from evalport_spec.validation import RULES, Rule
from scratch_rules import SCRATCH

MAIN = Path(__file__).resolve().parents[1]
REPO = SpecRepo(MAIN)


# --- cache.ContentMemo / digest ---------------------------------------------------------------

def test_memo_hands_out_copies_and_computes_once() -> None:
    memo = cache.ContentMemo(maxsize=2)
    calls: list[int] = []

    def compute() -> dict[str, list[int]]:
        calls.append(1)
        return {"a": [1]}

    first = memo.get("k", compute)
    first["a"].append(2)                      # the caller edits its copy ...
    second = memo.get("k", compute)
    assert second == {"a": [1]}               # ... which does not reach the memo
    assert len(calls) == 1 and (memo.hits, memo.misses) == (1, 1)
    memo.get("k2", compute)
    memo.get("k3", compute)                   # evicts "k", the least recently used
    assert len(memo) == 2
    memo.get("k", compute)
    assert len(calls) == 4


def test_memo_stores_nothing_when_compute_raises() -> None:
    memo = cache.ContentMemo()

    def boom() -> None:
        raise ValueError("no")

    with pytest.raises(ValueError):
        memo.get("k", boom)
    assert len(memo) == 0
    assert memo.get("k", lambda: 3) == 3


def test_digest_tells_apart_what_json_would_merge() -> None:
    assert cache.digest(1) != cache.digest(1.0) != cache.digest(True)
    assert cache.digest(b"ab") != cache.digest("ab")
    assert cache.digest({"a": 1, "b": 2}) == cache.digest({"b": 2, "a": 1})
    assert cache.digest("x") == cache.digest("x")


# --- compare_versions memo --------------------------------------------------------------------

@pytest.fixture
def two_copies(tmp_path: Path) -> tuple[Path, Path]:
    old, new = tmp_path / "old", tmp_path / "new"
    shutil.copytree(MAIN / "spec/releases/1.2.0", old)
    shutil.copytree(MAIN / "spec/releases/1.2.0", new)
    return old, new


def test_identical_content_is_classified_once(two_copies: tuple[Path, Path]) -> None:
    old, new = two_copies
    hits, misses = MEMO.hits, MEMO.misses
    first = compare_versions(SpecVersion.from_dir("1.2.0", old), SpecVersion.from_dir("1.2.1", new))
    # separately loaded objects of the same content: served from the memo, as an equal copy
    second = compare_versions(SpecVersion.from_dir("1.2.0", old), SpecVersion.from_dir("1.2.1", new))
    assert (MEMO.hits - hits, MEMO.misses - misses) == (1, 1)
    assert second is not first
    assert second.to_json() == first.to_json()
    assert (second.change_class, second.findings) == (ChangeClass.PATCH, [])
    # a caller editing its result cannot change the next one's
    second.findings.append("edited")
    third = compare_versions(SpecVersion.from_dir("1.2.0", old), SpecVersion.from_dir("1.2.1", new))
    assert third.findings == []


def test_version_digest_hashes_the_bytes_the_version_parses(two_copies: tuple[Path, Path]) -> None:
    old, new = two_copies
    digest = cache.version_digest
    # two folders with the same bytes, name and label: one content
    assert digest(SpecVersion.from_dir("1.2.0", old, label="v")) == digest(SpecVersion.from_dir("1.2.0", new, label="v"))
    assert digest(SpecVersion.from_dir("1.2.0", old, label="v")) != digest(SpecVersion.from_dir("1.2.0", old, label="w"))
    seen = SpecVersion.from_dir("1.2.0", new, label="v")
    before = digest(seen)
    grader = new / "schemas" / "grader.json"
    grader.write_bytes(grader.read_bytes() + b"\n")  # one byte more, the same JSON value
    # the object read its files once: its digest stays that of what it parses ...
    assert digest(seen) == before and seen.schemas.files["grader.json"].loaded.text.endswith("}\n")
    # ... a new object reads the new bytes: another digest, though the JSON value is the same
    fresh = SpecVersion.from_dir("1.2.0", new, label="v")
    assert digest(fresh) != before and fresh.schemas.files["grader.json"].loaded.text.endswith("}\n\n")
    rules = new / "rules.json"
    rules.write_bytes(rules.read_bytes().replace(b'"code"', b'"code" ', 1))  # the catalogue's bytes
    assert digest(SpecVersion.from_dir("1.2.0", new, label="v")) != digest(fresh)


def test_one_changed_schema_byte_recomputes(two_copies: tuple[Path, Path]) -> None:
    old, new = two_copies
    compare_versions(SpecVersion.from_dir("1.2.0", old), SpecVersion.from_dir("1.2.1", new))
    grader = new / "schemas/grader.json"
    text = grader.read_bytes()
    assert text.count(b"Identifier of the grader") == 1
    grader.write_bytes(text.replace(b"Identifier of the grader", b"identifier of the grader"))
    misses = MEMO.misses
    result = compare_versions(SpecVersion.from_dir("1.2.0", old), SpecVersion.from_dir("1.2.1", new))
    assert MEMO.misses == misses + 1
    # the recomputed answer sees the change: one PATCH annotation finding at line 16
    assert [(f.kind, f.change_class, f.new.pointer, f.new.line) for f in result.findings] == [
        ("annotation-changed", ChangeClass.PATCH, "/properties/id/description", 16)]


def test_label_and_rule_implementations_are_part_of_the_key(two_copies: tuple[Path, Path],
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    old, new = two_copies
    a, b = SpecVersion.from_dir("1.2.0", old), SpecVersion.from_dir("1.2.1", new)
    compare_versions(a, b)
    misses = MEMO.misses
    relabelled = compare_versions(a, dataclasses.replace(b, label="elsewhere"))
    assert MEMO.misses == misses + 1 and relabelled.change_class == ChangeClass.PATCH
    monkeypatch.setitem(RULES, "DUPLICATE_ATTEMPT",
                        Rule("DUPLICATE_ATTEMPT", "resultset", lambda d: iter(())))
    compare_versions(SpecVersion.from_dir("1.2.0", old), SpecVersion.from_dir("1.2.1", new))
    assert MEMO.misses == misses + 2


def test_one_check_classifies_each_version_pair_once() -> None:
    """releases (3 pairs) + draft (1) + two RFC proposals are computed; RFC lint's three
    release classes are served by the memo."""
    MEMO.clear()
    report = run_gate(REPO, stages=["releases", "draft", "rfcs"])
    assert [s.name for s in report.stages] == ["releases", "draft", "rfcs"]
    assert (MEMO.misses, MEMO.hits) == (6, 3)


# --- the guard proof and the witness search --------------------------------------------------



@pytest.fixture
def search_spy(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str]]:
    calls: list[tuple[str, str]] = []
    real = rulecompat._old_valid

    def spy(old, validator, doc_type, corpus, n, seed):
        calls.append((old.name, doc_type))
        return real(old, validator, doc_type, corpus, n, seed)

    monkeypatch.setattr(rulecompat, "_old_valid", spy)
    return calls


def test_guard_proved_rules_are_searched_once_per_document_type(
        search_spy: list[tuple[str, str]]) -> None:
    """The guard proof stands only when the search finds no witness (the guard is catalogue
    data the implementation may contradict); both rules share one pool."""
    found = rulecompat.rule_changes(REPO.version("1.1.0"), REPO.version("1.2.0"))
    assert search_spy == [("1.1.0", "resultset")]
    assert [(f.code, f.kind, f.change_class, f.extra["proof"]) for f in found] == [
        ("DUPLICATE_ATTEMPT", "rule-added-additive", ChangeClass.MINOR,
         "proved: guard field new on a closed object"),
        ("ISOLATION_MISMATCH", "rule-added-additive", ChangeClass.MINOR,
         "proved: guard field new on a closed object")]
    assert found[0].extra["searched"] == found[1].extra["searched"] > 0
    assert found[1].message.endswith("(proved: guard field new on a closed object)")


def test_rule_on_an_existing_field_still_finds_its_witness(search_spy: list[tuple[str, str]]) -> None:
    v = REPO.version("1.2.0")  # attempt exists in 1.2.0: the guard proof does not hold
    found = rulecompat.rule_changes(v, v, rules_new=SCRATCH, n=10)
    assert search_spy == [("1.2.0", "resultset")]
    assert [(f.code, f.kind, f.change_class) for f in found] == [
        ("DUPLICATE_ATTEMPT", "rule-tightened", ChangeClass.MAJOR)]
    results = found[0].witness["results"]
    # two Results of one test case, at most one of them with an explicit attempt 1
    assert len({r["test_case_id"] for r in results}) < len(results)
    assert found[0].extra["violation"]["code"] == "DUPLICATE_ATTEMPT"


def test_substituted_implementation_is_searched_even_when_the_guard_is_new(
        search_spy: list[tuple[str, str]]) -> None:
    """The catalogue's guard describes the registered implementation; a substitute that fires
    without the guard field (missing attempt read as 1) is searched and caught."""
    found = {f.code: f for f in rulecompat.rule_changes(REPO.version("1.1.0"), REPO.version("1.2.0"),
                                                        rules_new=SCRATCH)}
    assert search_spy == [("1.1.0", "resultset")]
    assert (found["DUPLICATE_ATTEMPT"].kind, found["DUPLICATE_ATTEMPT"].change_class) == (
        "rule-added-breaking", ChangeClass.MAJOR)
    assert found["ISOLATION_MISMATCH"].extra["proof"] == "proved: guard field new on a closed object"


def test_old_valid_pool_is_built_once_per_content(monkeypatch: pytest.MonkeyPatch) -> None:
    builds: list[str] = []
    real = rulecompat._build_pool

    def counting(old, *args):
        builds.append(old.name)
        return real(old, *args)

    monkeypatch.setattr(rulecompat, "_build_pool", counting)
    v = REPO.version("1.2.0")
    first = rulecompat.rule_changes(v, v, rules_new=SCRATCH, n=3, seed=11)
    again = rulecompat.rule_changes(REPO.version("1.2.0"), REPO.version("1.2.0"), rules_new=SCRATCH,
                                    n=3, seed=11)
    assert builds == ["1.2.0"]
    assert [f.to_json() for f in again] == [f.to_json() for f in first]
    rulecompat.rule_changes(v, v, rules_new=SCRATCH, n=3, seed=12)  # another seed: another pool
    assert builds == ["1.2.0", "1.2.0"]


# --- memoised 2020-12 meta-schema check ---------------------------------------------------------

BAD_SCHEMA = {"type": "objekt", "minLength": -1,
              "$defs": {"a": {"minLength": -1}, "b": {"minLength": -1, "required": [1]}}}


def test_meta_validator_reports_what_jsonschema_reports(monkeypatch) -> None:
    from evalport_spec.gate import metaschema

    # an empty memo, whatever ran before in this process: the first pass fills it, the second
    # is served from it (a memo filled earlier would leave the filling path untested)
    monkeypatch.setattr(metaschema, "_MEMO", {})
    stock = jsonschema.Draft202012Validator(jsonschema.Draft202012Validator.META_SCHEMA)
    fast = meta_validator(jsonschema.Draft202012Validator)

    def errors(v: Any) -> list[tuple[str, str, list[Any]]]:
        return [(e.message, "/".join(map(str, e.absolute_path)), list(e.absolute_schema_path))
                for e in v.iter_errors(BAD_SCHEMA)]

    for _ in range(2):  # the second pass is served from the memo
        assert errors(fast) == errors(stock)
    assert metaschema._MEMO
    assert sorted((m, p) for m, p, _ in errors(fast)) == sorted([
        ("-1 is less than the minimum of 0", "$defs/a/minLength"),
        ("-1 is less than the minimum of 0", "$defs/b/minLength"),
        ("-1 is less than the minimum of 0", "minLength"),
        ("1 is not of type 'string'", "$defs/b/required/0"),
        ("'objekt' is not valid under any of the given schemas", "type")])


def test_check_meta_with_the_memo_gives_the_same_input_errors() -> None:
    sset = SchemaSet.from_loaded({"bad.json": loads(
        '{\n  "$id": "https://example.org/bad.json",\n  "type": "objekt",\n  "minLength": -1\n}',
        "x/bad.json")}, "x")
    plain = [(e.message, e.line, e.pointer) for e in sset.check_meta()]
    memo = [(e.message, e.line, e.pointer) for e in sset.check_meta(meta_validator)]
    assert memo == plain
    assert sorted(memo) == sorted([
        ("not a valid schema: -1 is less than the minimum of 0", 4, "/minLength"),
        ("not a valid schema: 'objekt' is not valid under any of the given schemas", 3, "/type")])


def test_other_dialects_use_the_stock_meta_validator() -> None:
    v = meta_validator(jsonschema.Draft7Validator)
    assert type(v) is jsonschema.Draft7Validator
    assert [e.message for e in v.iter_errors({"type": 5})] == [
        "5 is not valid under any of the given schemas"]


def test_malformed_catalogue_is_still_an_undecided_finding(two_copies: tuple[Path, Path]) -> None:
    """The memo key cannot be built from a catalogue that does not parse; the engine then runs
    unmemoised and reports it as before (fail closed: undecided, MAJOR)."""
    old, new = two_copies
    (new / "rules.json").write_text('{"rules": [{"code": 1}]}')
    result = compare_versions(SpecVersion.from_dir("1.2.0", old), SpecVersion.from_dir("1.2.1", new))
    assert result.change_class == ChangeClass.MAJOR
    assert [(f.kind, f.undecided) for f in result.findings] == [("undecided", True)]
    assert result.findings[0].message.startswith("rule changes could not be classified: ")
