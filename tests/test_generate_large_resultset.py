"""Tests of benchmarks/make_large_resultset.py: valid, rule-abiding, streamed like built."""

from __future__ import annotations

import importlib.util
import io
import json
from collections import defaultdict
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("make_large_resultset", ROOT / "benchmarks" / "make_large_resultset.py")
mlr = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(mlr)


@pytest.fixture(scope="module")
def doc():
    return mlr.build(50, seed=3)


def test_shape(doc):
    results = doc["results"]
    assert len(results) == 50
    assert [r["attempt"] for r in results[:6]] == [1, 2, 3, 4, 5, 1]
    assert len({r["test_case_id"] for r in results}) == 10
    assert all(1 <= len(r["grader_results"]) <= 4 for r in results)
    assert all(len(r["actual_output"]) >= 150 for r in results)
    assert doc["summary"]["total"] == 50
    assert doc["summary"]["passed"] == sum(r["passed"] for r in results)
    assert doc["summary"]["failed"] == 50 - doc["summary"]["passed"]


def test_cross_field_rules_hold(doc):
    pairs = [(r["test_case_id"], doc["run_id"], r["attempt"]) for r in doc["results"]]
    assert len(pairs) == len(set(pairs))                                    # DUPLICATE_ATTEMPT
    in_effect = defaultdict(set)
    for r in doc["results"]:
        in_effect[r["test_case_id"]].add(r.get("isolation", doc.get("isolation")))
    assert all(len(v) == 1 for v in in_effect.values())                     # ISOLATION_MISMATCH
    assert {"shared"} in in_effect.values()                                 # overrides do occur
    for r in doc["results"]:
        for g in r["grader_results"]:
            if g["score"] is None:
                assert g["passed"] is False                                 # NULL_SCORE_PASSED
        if r["grader_results"] and all(g["score"] is None for g in r["grader_results"]):
            assert r["passed"] is False                                     # UNSCORED_RESULT_PASSED
    assert "parent_group_id" not in doc["group"] or doc["group"]["parent_group_id"] != doc["group"]["group_id"]


def test_valid_under_draft_schema(doc):
    from evalport_spec.spec import SpecRepo
    v = SpecRepo(ROOT).version("draft").schemas.validator("resultset.json")
    errors = [e.message for e in v.iter_errors(doc)]
    assert errors == []


def test_stream_equals_build():
    buf = io.StringIO()
    mlr.stream(buf, 12, seed=5)
    assert json.loads(buf.getvalue()) == mlr.build(12, seed=5)
    assert mlr.build(12, seed=5) != mlr.build(12, seed=6)


def test_main_writes_file(tmp_path, capsys):
    out = tmp_path / "sub" / "rs.json"
    assert mlr.main([str(out), "--results", "7", "--seed", "1"]) == 0
    assert json.loads(out.read_text()) == mlr.build(7, seed=1)
    assert "7 results" in capsys.readouterr().out
    assert mlr.main([str(out), "--results", "0"]) == 2
    assert "--results must be at least 1" in capsys.readouterr().err
