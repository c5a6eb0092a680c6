"""The split reference pass (shell + rejected items) reports exactly what a full reference pass
reports: same codes, instance paths, messages and schema paths, on every fixture, on every
version, and on generated invalid documents."""

from __future__ import annotations

import copy
import importlib.util
import json
import random
from pathlib import Path
from typing import Any

import pytest

from evalport_spec import conformance
from evalport_spec.spec import SpecRepo, versions_from_mapping
from evalport_spec.validation import Validator
from evalport_spec.validation.schema_pass import MarkerIndex, to_violations
from evalport_spec.validation.split import SplitPass, plan
from evalport_spec.validation.violation import sort_violations

ROOT = Path(__file__).resolve().parents[1]
REPO = SpecRepo(ROOT)
FIXTURES = conformance.load_fixtures(ROOT / "spec" / "conformance" / "fixtures")
EXAMPLES = [json.loads(p.read_text()) for p in sorted((ROOT / "spec" / "examples").glob("*.json"))]

_spec = importlib.util.spec_from_file_location(
    "make_large_resultset", ROOT / "benchmarks" / "make_large_resultset.py")
make_large = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(make_large)


class Passes:
    """Full reference pass and split pass (with and without the fast item check) of one type."""

    def __init__(self, version: str, doc_type: str) -> None:
        spec = REPO.version(version)
        name = spec.schema_name(doc_type)
        self.reference = spec.schemas.validator(name, format_assertion=True)
        self.markers = MarkerIndex(spec.schemas.registry, spec.schemas.files[name].uri)
        self.split = SplitPass(self.reference, spec.schemas, name)
        self.split_all = SplitPass(self.reference, spec.schemas, name, fast=False)

    def full(self, doc: Any) -> list[tuple]:
        return self._rows(self.reference.iter_errors(doc))

    def _rows(self, errors) -> list[tuple]:
        return [(v.code, v.instance_path, v.message, v.schema_path, v.rule)
                for v in sort_violations(to_violations(errors, self.markers))]

    def assert_same(self, doc: Any) -> list[tuple]:
        expected = self.full(doc)
        if self.split.applies(doc):
            assert self._rows(self.split.iter_errors(doc)) == expected
            assert self._rows(self.split_all.iter_errors(doc)) == expected
        return expected


_PASSES: dict[tuple[str, str], Passes] = {}


def passes(version: str, doc_type: str) -> Passes:
    if (version, doc_type) not in _PASSES:
        _PASSES[(version, doc_type)] = Passes(version, doc_type)
    return _PASSES[(version, doc_type)]


def test_plan_splits_the_long_arrays_of_suite_and_resultset() -> None:
    spec = REPO.version("draft")
    assert set(plan(spec.schemas, "resultset.json")[1]) == {"results"}
    assert set(plan(spec.schemas, "suite.json")[1]) == {"test_cases", "graders"}
    shell = plan(spec.schemas, "resultset.json")[0]
    assert "items" not in shell["properties"]["results"]
    assert shell["properties"]["results"]["minItems"] == 1


def _patched(file: str, change) -> Any:
    """The draft's schema set with ``change(schema_dict)`` applied to ``file``."""
    files = {}
    for p in sorted((ROOT / "spec" / "schemas").glob("*.json")):
        schema = json.loads(p.read_text())
        if p.name == file:
            change(schema)
        files[f"schemas/{p.name}"] = json.dumps(schema).encode()
    return versions_from_mapping("patched", files, "patched").schemas


@pytest.mark.parametrize("extra", [{"allOf": [{}]}, {"if": {}}, {"unevaluatedProperties": False},
                                   {"patternProperties": {"^r": {}}}])
def test_plan_refuses_roots_with_other_applicators(extra: dict) -> None:
    assert plan(_patched("resultset.json", lambda s: s.update(extra)), "resultset.json") is None


def test_plan_skips_arrays_whose_keywords_compare_items() -> None:
    def unique(s): s["properties"]["results"]["uniqueItems"] = True
    assert plan(_patched("resultset.json", unique), "resultset.json") is None
    def unique_graders(s): s["properties"]["graders"]["uniqueItems"] = True
    assert set(plan(_patched("suite.json", unique_graders), "suite.json")[1]) == {"test_cases"}


@pytest.mark.parametrize("version", REPO.all_versions())
def test_same_errors_on_every_fixture_and_example(version: str) -> None:
    compared = 0
    for fx in FIXTURES:
        p = passes(version, fx.document_type)
        p.assert_same(fx.document)
        compared += p.split.applies(fx.document)
    for doc in EXAMPLES:
        doc_type = Validator.detect_type(doc)
        passes(version, doc_type).assert_same(doc)
    assert compared >= 40  # most fixtures are Suites and ResultSets with their arrays


def _mutations() -> list:
    """Functions ``f(result)`` that break one Result in one way."""
    def score(r): r["grader_results"][0]["score"] = 1.5
    def passed_type(r): r["passed"] = "yes"
    def no_passed(r): del r["passed"]
    def extra(r): r["surprise"] = True
    def date(r): r["completed_at"] = "2026-11-02"
    def attempt0(r): r["attempt"] = 0
    def error_type(r): r["error"] = {"type": "bogus", "message": "m"}
    def null_passed(r): r["grader_results"][0].update(score=None, passed=True)
    def isolation(r): r["isolation"] = 5
    def gr_type(r): r["grader_results"] = {"a": 1}
    def not_object(r):
        r.clear()
        r["test_case_id"] = 7

    return [score, passed_type, no_passed, extra, date, attempt0, error_type, null_passed,
            isolation, gr_type, not_object]


def _top_mutations() -> list:
    def nothing(d): pass
    def started(d): d["started_at"] = "yesterday"
    def extra(d): d["zzz"] = 1
    def no_run(d): del d["run_id"]
    def summary(d): d["summary"] = {"total": -1}
    return [nothing, started, extra, no_run, summary]


@pytest.mark.parametrize("version", ["1.0.0", "1.2.0", "draft"])
def test_same_errors_on_generated_invalid_resultsets(version: str) -> None:
    rng = random.Random(20261130)
    base = make_large.build(24)
    p = passes(version, "resultset")
    item_mutations, top_mutations = _mutations(), _top_mutations()
    invalid = 0
    for _ in range(60):
        doc = copy.deepcopy(base)
        rng.choice(top_mutations)(doc)
        for index in rng.sample(range(24), rng.randint(1, 3)):
            result = doc["results"][index]
            if not result.get("grader_results"):
                result["grader_results"] = [{"grader_id": "g", "type": "exact_match",
                                             "score": 1, "passed": True}]
            rng.choice(item_mutations)(result)
        invalid += bool(p.assert_same(doc))
    assert invalid == 60


def test_same_errors_on_generated_invalid_suites() -> None:
    rng = random.Random(7)
    suite = next(d for d in EXAMPLES if Validator.detect_type(d) == "suite")
    p = passes("draft", "suite")

    def no_input(tc): tc.pop("input", None)
    def empty_graders(tc): tc["graders"] = []
    def extra(tc): tc["nope"] = 1
    def not_object(tc):
        tc.clear()
        tc["id"] = ""

    for _ in range(30):
        doc = copy.deepcopy(suite)
        doc["test_cases"] = doc["test_cases"] * 3
        for index in rng.sample(range(len(doc["test_cases"])), 2):
            doc["test_cases"][index] = copy.deepcopy(doc["test_cases"][index])
            rng.choice([no_input, empty_graders, extra, not_object])(doc["test_cases"][index])
        if doc.get("graders") and rng.random() < 0.5:
            doc["graders"][0] = {"id": "x", "type": "regex"}  # params.pattern missing
        assert p.assert_same(doc)


def test_validator_uses_the_split_and_reports_the_bad_item() -> None:
    doc = make_large.build(50)
    doc["results"][37]["grader_results"][0]["score"] = 2
    spec = REPO.version("draft")
    fast, reference = Validator(spec), Validator(spec, fast=False)
    assert fast._schema("resultset")[3].applies(doc)
    got = fast.validate(doc, "resultset")
    assert [(v.code, v.instance_path) for v in got] == [
        ("MAXIMUM", "/results/37/grader_results/0/score")]
    assert got == reference.validate(doc, "resultset")
