"""The fast schema backend (jsonschema-rs) never changes a result: verdicts, codes and instance
paths are identical with and without it on every fixture and on dialect edge cases."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from evalport_spec import conformance
from evalport_spec.rsvalidator import available
from evalport_spec.spec import SpecRepo
from evalport_spec.validation import Validator
from evalport_spec.validation.fast import FastCheck

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = conformance.load_fixtures(ROOT / "spec" / "conformance" / "fixtures")

pytestmark = pytest.mark.skipif(not available(), reason="jsonschema-rs not installed")


@pytest.fixture(scope="module")
def pair() -> tuple[Validator, Validator]:
    spec = SpecRepo(ROOT).version("draft")
    return Validator(spec, fast=True), Validator(spec, fast=False)


def verdict(fast: Validator, document: object, doc_type: str) -> bool | None:
    check: FastCheck = fast._schema(doc_type)[2]
    return check.is_valid(document)


@pytest.mark.parametrize("fixture", FIXTURES, ids=[f.id for f in FIXTURES])
def test_same_verdict_codes_and_paths_on_every_fixture(pair, fixture) -> None:
    fast, reference = pair
    expected = reference.validate_schema_only(fixture.document, fixture.document_type)
    assert verdict(fast, fixture.document, fixture.document_type) is (not expected)
    assert fast.validate(fixture.document, fixture.document_type) == reference.validate(
        fixture.document, fixture.document_type)


def _resultset(**result: object) -> dict:
    doc = copy.deepcopy(next(f for f in FIXTURES if f.id == "resultset-minimal-valid").document)
    doc["results"][0].update(result)
    return doc


@pytest.mark.parametrize("document", [
    _resultset(completed_at="2026-12-31T23:59:60Z"),      # leap second: rfc3339-validator refuses
    _resultset(completed_at="2026-02-30T00:00:00Z"),      # no such day
    _resultset(completed_at="2026-11-01t09:00:00z"),      # lower-case t and z are allowed
    _resultset(completed_at="2026-11-01T09:00:00"),       # no offset
    _resultset(attempt=1.0),                               # an integer for JSON Schema
    _resultset(attempt=10 ** 30),                          # beyond 64 bits
    _resultset(duration_ms=1e308),
    _resultset(test_case_id="\u0661\u0662"),
    dict(_resultset(), version="\u0661.\u0662.\u0663"),   # Unicode digits: \d differs by dialect
    dict(_resultset(), version="1.2.3\n"),                # Python's $ matches before a final newline
])
def test_dialect_edge_cases_never_accepted_by_fast_alone(pair, document: dict) -> None:
    fast, reference = pair
    expected = reference.validate_schema_only(document, "resultset")
    if verdict(fast, document, "resultset"):
        assert expected == []  # the fast backend may only accept what the reference accepts
    assert fast.validate_schema_only(document, "resultset") == expected


def test_leap_second_is_a_format_error_with_either_backend(pair) -> None:
    fast, reference = pair
    doc = _resultset(completed_at="2026-12-31T23:59:60Z")
    assert [(v.code, v.instance_path) for v in fast.validate(doc, "resultset")] == [
        ("FORMAT", "/results/0/completed_at")]
