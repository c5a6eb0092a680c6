"""The validator: rule semantics worked out by hand, keyword -> code mapping, markers, API."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evalport_spec.errors import InputError
from evalport_spec.spec import SpecRepo, versions_from_mapping
from evalport_spec.validation import RULES, Rule, Validator, Violation, keyword_code, register

ROOT = Path(__file__).resolve().parents[1]


def keys(violations: list[Violation]) -> list[tuple[str, str]]:
    return [(v.code, v.instance_path) for v in violations]


def proposal_parameters() -> dict[str, dict[str, object]]:
    """``{code: parameters}`` of the rules RFC 0006's proposal catalogues (its rules.json)."""
    doc = json.loads((ROOT / "rfcs/0006-rate-denominators/rules.json").read_text())
    return {r["code"]: {k: v["value"] for k, v in r.get("parameters", {}).items()} for r in doc["rules"]}


PARAMETERS = proposal_parameters()


def rule(code: str, document: object, parameters: dict[str, object] | None = None) -> list[tuple[str, str]]:
    return sorted(keys(RULES[code].check(document, parameters or PARAMETERS.get(code))))


@pytest.fixture(scope="module")
def draft() -> Validator:
    return Validator(SpecRepo(ROOT).version("draft"))


# --- a small synthetic spec version, independent of the real schemas ---------------------------

BASE = "https://example.org/spec/draft/schemas/"


def synthetic(catalogue: list[dict] | None = None, impls: dict | None = None, **schemas: dict) -> Validator:
    files = {f"schemas/{name}.json": json.dumps(dict(s, **{"$id": BASE + name + ".json"})).encode()
             for name, s in schemas.items()}
    if catalogue is not None:
        files["rules.json"] = json.dumps({"rules": catalogue}).encode()
    return Validator(versions_from_mapping("draft", files, "mem"), rules=impls)


def entry(code: str, document: str, encoded: bool = False) -> dict:
    return {"code": code, "document": document, "statement": "s", "reads": [], "since": "1.0.0",
            "expressible": encoded, "encoded": encoded}


# --- DUPLICATE_ID / DANGLING_REFERENCE ------------------------------------------------------------

def test_duplicate_id_reports_each_later_duplicate_of_test_cases_and_graders() -> None:
    doc = {"graders": [{"id": "g"}, {"id": "h"}, {"id": "g"}],
           "test_cases": [{"id": "a"}, {"id": "b"}, {"id": "a"}, {"id": "a"}]}
    assert rule("DUPLICATE_ID", doc) == [("DUPLICATE_ID", "/graders/2/id"),
                                         ("DUPLICATE_ID", "/test_cases/2/id"),
                                         ("DUPLICATE_ID", "/test_cases/3/id")]


def test_duplicate_id_does_not_fire_on_distinct_ids_or_across_arrays() -> None:
    # a test case and a grader may share an id: they are different namespaces
    assert rule("DUPLICATE_ID", {"graders": [{"id": "x"}], "test_cases": [{"id": "x"}, {"id": "y"}]}) == []


def test_dangling_reference_only_for_string_references_to_unknown_graders() -> None:
    doc = {"graders": [{"id": "exact"}],
           "test_cases": [{"graders": ["exact", "fuzzy", {"id": "inline"}]}, {"graders": ["nope"]}]}
    assert rule("DANGLING_REFERENCE", doc) == [("DANGLING_REFERENCE", "/test_cases/0/graders/1"),
                                               ("DANGLING_REFERENCE", "/test_cases/1/graders/0")]
    doc["graders"].append({"id": "fuzzy"})
    doc["graders"].append({"id": "nope"})
    assert rule("DANGLING_REFERENCE", doc) == []


# --- DUPLICATE_ATTEMPT --------------------------------------------------------------------------

def test_duplicate_attempt_fires_at_later_duplicates_only() -> None:
    doc = {"results": [{"test_case_id": "a", "attempt": 1}, {"test_case_id": "a", "attempt": 2},
                       {"test_case_id": "a", "attempt": 1}, {"test_case_id": "b", "attempt": 1},
                       {"test_case_id": "a", "attempt": 2}]}
    assert rule("DUPLICATE_ATTEMPT", doc) == [("DUPLICATE_ATTEMPT", "/results/2/attempt"),
                                              ("DUPLICATE_ATTEMPT", "/results/4/attempt")]


def test_duplicate_attempt_ignores_absent_attempts_and_keeps_booleans_apart() -> None:
    doc = {"results": [{"test_case_id": "a"}, {"test_case_id": "a"}, {"test_case_id": "a", "attempt": 1},
                       {"test_case_id": "a", "attempt": True}]}  # True is not the integer 1
    assert rule("DUPLICATE_ATTEMPT", doc) == []
    # 1.0 is the integer 1 for JSON Schema, so it duplicates attempt 1
    assert rule("DUPLICATE_ATTEMPT", {"results": [{"test_case_id": "a", "attempt": 1},
                                                  {"test_case_id": "a", "attempt": 1.0}]}) == [
        ("DUPLICATE_ATTEMPT", "/results/1/attempt")]


# --- ISOLATION_MISMATCH -------------------------------------------------------------------------

def test_isolation_mismatch_between_own_values() -> None:
    doc = {"results": [{"test_case_id": "a", "isolation": "fresh"},
                       {"test_case_id": "a", "isolation": "shared"},
                       {"test_case_id": "a", "isolation": "fresh"}]}
    assert rule("ISOLATION_MISMATCH", doc) == [("ISOLATION_MISMATCH", "/results/1/isolation")]


def test_isolation_inherited_from_resultset_agrees() -> None:
    doc = {"isolation": "fresh", "results": [{"test_case_id": "a"}, {"test_case_id": "a"},
                                             {"test_case_id": "a", "isolation": "fresh"}]}
    assert rule("ISOLATION_MISMATCH", doc) == []


def test_isolation_override_versus_inherited_value() -> None:
    # result 0 inherits fresh; result 1 overrides with shared; result 2 inherits fresh (agrees)
    doc = {"isolation": "fresh", "results": [{"test_case_id": "a"},
                                             {"test_case_id": "a", "isolation": "shared"},
                                             {"test_case_id": "a"}]}
    assert rule("ISOLATION_MISMATCH", doc) == [("ISOLATION_MISMATCH", "/results/1/isolation")]
    # the first Result sets the group's value: an inheriting Result that differs is reported at
    # the Result itself, since it has no isolation member of its own
    doc = {"isolation": "fresh", "results": [{"test_case_id": "a", "isolation": "shared"},
                                             {"test_case_id": "a"}]}
    assert rule("ISOLATION_MISMATCH", doc) == [("ISOLATION_MISMATCH", "/results/1")]


def test_isolation_none_differs_from_a_string_and_groups_are_per_test_case() -> None:
    doc = {"results": [{"test_case_id": "a"}, {"test_case_id": "a", "isolation": "fresh"},
                       {"test_case_id": "b", "isolation": "shared"}, {"test_case_id": "c"}]}
    assert rule("ISOLATION_MISMATCH", doc) == [("ISOLATION_MISMATCH", "/results/1/isolation")]
    doc = {"isolation": "shared", "results": [{"test_case_id": "a", "isolation": "fresh"},
                                              {"test_case_id": "b"}]}
    assert rule("ISOLATION_MISMATCH", doc) == []


# --- SELF_PARENT --------------------------------------------------------------------------------

def test_self_parent() -> None:
    assert rule("SELF_PARENT", {"group": {"group_id": "g", "parent_group_id": "g"}}) == [
        ("SELF_PARENT", "/group/parent_group_id")]
    assert rule("SELF_PARENT", {"group": {"group_id": "g", "parent_group_id": "p"}}) == []
    assert rule("SELF_PARENT", {"group": {"group_id": "g"}}) == []


# --- proposal rules (seed 000, option A) --------------------------------------------------------

def test_successes_exceed_trials() -> None:
    doc = {"results": [{"grader_results": [{"trials": 5, "successes": 6}, {"trials": 5, "successes": 5},
                                           {"successes": 9}]}]}
    assert rule("SUCCESSES_EXCEED_TRIALS", doc) == [
        ("SUCCESSES_EXCEED_TRIALS", "/results/0/grader_results/0/successes")]


def test_rate_score_mismatch_tolerance_and_null_score() -> None:
    doc = {"results": [{"grader_results": [
        {"score": 0.4, "trials": 5, "successes": 2},            # 2/5 = 0.4 exactly
        {"score": 0.4000005, "trials": 5, "successes": 2},      # off by 5e-7 <= 1e-6
        {"score": 0.41, "trials": 5, "successes": 2},           # off by 0.01
        {"score": None, "trials": 5, "successes": 2},           # null score: not checked
        {"score": 0.9, "trials": 5},                            # no successes: not checked
    ]}]}
    assert PARAMETERS["RATE_SCORE_MISMATCH"] == {"tolerance": 1e-6}  # read from the catalogue
    assert rule("RATE_SCORE_MISMATCH", doc) == [("RATE_SCORE_MISMATCH", "/results/0/grader_results/2/score")]
    # a looser tolerance in the catalogue accepts the 0.01 difference; a tighter one rejects 5e-7
    assert rule("RATE_SCORE_MISMATCH", doc, {"tolerance": 0.02}) == []
    assert rule("RATE_SCORE_MISMATCH", doc, {"tolerance": 1e-7}) == [
        ("RATE_SCORE_MISMATCH", "/results/0/grader_results/1/score"),
        ("RATE_SCORE_MISMATCH", "/results/0/grader_results/2/score")]
    with pytest.raises(ValueError, match="needs the catalogue parameter"):
        RULES["RATE_SCORE_MISMATCH"].check(doc)


def test_validator_takes_rule_parameters_from_the_catalogue() -> None:
    """The tolerance a validator applies is the catalogue entry's; an entry without it is bad
    input naming rules.json and the entry's line."""
    doc = {"version": "1.0.0", "results": [{"grader_results": [{"score": 0.41, "trials": 5, "successes": 2}]}]}
    entry = {"code": "RATE_SCORE_MISMATCH", "document": "resultset", "statement": "s", "reads": [],
             "since": "1.0.0", "expressible": False, "encoded": False}
    schema = {"$schema": "https://json-schema.org/draft/2020-12/schema",
              "$id": "https://example.org/spec/draft/schemas/resultset.json"}

    def version(parameters: dict | None) -> object:
        e = {**entry, **({"parameters": parameters} if parameters is not None else {})}
        return versions_from_mapping("draft", {"schemas/resultset.json": json.dumps(schema).encode(),
                                               "rules.json": json.dumps({"rules": [e]}, indent=2).encode()}, "spec")

    loose = Validator(version({"tolerance": {"value": 0.05}}))
    assert loose.validate(doc, "resultset") == []
    tight = Validator(version({"tolerance": {"value": 0.001}}))
    assert keys(tight.validate(doc, "resultset")) == [("RATE_SCORE_MISMATCH", "/results/0/grader_results/0/score")]
    with pytest.raises(InputError) as exc:
        Validator(version(None))
    assert str(exc.value) == ("spec/rules.json:3: rule RATE_SCORE_MISMATCH needs the catalogue "
                              "parameter(s) tolerance, which its entry does not give")


@pytest.mark.parametrize("code", sorted(RULES))
@pytest.mark.parametrize("document", [None, [], "x", 3, {"results": "x", "test_cases": 7, "group": []},
                                      {"results": [None, 1, {"test_case_id": 5, "attempt": "1"}],
                                       "test_cases": [{"graders": "exact"}, {"id": ["x"]}],
                                       "group": {"group_id": {}, "parent_group_id": []},
                                       "isolation": {"a": [1]}}])
def test_rules_are_defensive_on_schema_invalid_documents(code: str, document: object) -> None:
    assert RULES[code].check(document, PARAMETERS.get(code)) == []


def test_register_refuses_a_second_implementation_of_a_code() -> None:
    with pytest.raises(ValueError, match="already registered"):
        register("DUPLICATE_ID", "suite")(lambda doc: [])


# --- schema pass: code mapping ------------------------------------------------------------------

def test_keyword_code_is_upper_snake() -> None:
    assert keyword_code("exclusiveMinimum") == "EXCLUSIVE_MINIMUM"
    assert keyword_code("minLength") == "MIN_LENGTH"
    assert keyword_code("additionalProperties") == "ADDITIONAL_PROPERTIES"
    assert keyword_code("dependentRequired") == "REQUIRED"
    assert keyword_code("type") == "TYPE"


def test_required_and_dependent_required_report_the_missing_member() -> None:
    v = synthetic(grader={"type": "object", "required": ["id", "type"],
                          "properties": {"o": {"type": "object",
                                               "dependentRequired": {"successes": ["trials", "n"]}}}})
    got = v.validate_schema_only({"id": "x", "o": {"successes": 3, "n": 1}}, "grader")
    assert keys(got) == [("REQUIRED", "/o/trials"), ("REQUIRED", "/type")]
    assert got[0].schema_path == "/properties/o/dependentRequired"
    assert got[1].schema_path == "/required" and got[1].rule is False


def test_additional_properties_reported_once_at_the_object() -> None:
    v = synthetic(grader={"type": "object", "properties": {"a": {}}, "additionalProperties": False})
    got = v.validate_schema_only({"a": 1, "b": 2, "c": 3}, "grader")
    assert keys(got) == [("ADDITIONAL_PROPERTIES", "")]
    assert "'b', 'c'" in got[0].message


def test_marker_through_ref_gives_rule_code_and_keyword_location() -> None:
    v = synthetic(resultset={
        "type": "object", "properties": {"items": {"type": "array", "items": {"$ref": "#/$defs/gr"}}},
        "$defs": {"gr": {"allOf": [{"x-evalport-rule": "NULL_SCORE_PASSED",
                                    "if": {"properties": {"score": {"type": "null"}}, "required": ["score"]},
                                    "then": {"properties": {"passed": {"const": False}}}}],
                         "properties": {"score": {"type": ["number", "null"], "maximum": 1}}}}})
    got = v.validate_schema_only({"items": [{"score": None, "passed": True}, {"score": 2}]}, "resultset")
    assert got == [
        Violation("NULL_SCORE_PASSED", "/items/0/passed", got[0].message,
                  "/properties/items/items/$ref/allOf/0/then/properties/passed/const", True),
        Violation("MAXIMUM", "/items/1/score", got[1].message,
                  "/properties/items/items/$ref/properties/score/maximum", False)]


def test_marker_in_another_file_of_the_set() -> None:
    v = synthetic(suite={"type": "object", "properties": {"g": {"$ref": "grader.json"}}},
                  grader={"x-evalport-rule": "SOME_RULE", "type": "object", "required": ["id"]})
    assert keys(v.validate_schema_only({"g": {}}, "suite")) == [("SOME_RULE", "/g/id")]


def test_one_of_descends_into_the_only_branch_fitting_the_type() -> None:
    v = synthetic(testcase={"type": "object", "properties": {"g": {"type": "array", "items": {"oneOf": [
        {"type": "string", "minLength": 1},
        {"type": "object", "required": ["id"], "properties": {"w": {"minimum": 0}}}]}}}})
    got = v.validate_schema_only({"g": ["", {"w": -1}, 3]}, "testcase")
    assert keys(got) == [("MIN_LENGTH", "/g/0"), ("REQUIRED", "/g/1/id"), ("MINIMUM", "/g/1/w"),
                         ("ONE_OF", "/g/2")]


def test_one_of_matching_two_branches_is_reported_as_one_of() -> None:
    v = synthetic(grader={"oneOf": [{"type": "integer"}, {"minimum": 0}]})
    assert keys(v.validate_schema_only(5, "grader")) == [("ONE_OF", "")]


def test_violations_sorted_by_instance_path_numerically_then_code() -> None:
    v = synthetic(resultset={"type": "array", "items": {"type": "object", "required": ["b", "a"],
                                                         "minProperties": 3}})
    got = v.validate_schema_only([{}] * 11, "resultset")
    assert keys(got)[:3] == [("MIN_PROPERTIES", "/0"), ("REQUIRED", "/0/a"), ("REQUIRED", "/0/b")]
    assert [k[1] for k in keys(got)][-6:] == ["/9", "/9/a", "/9/b", "/10", "/10/a", "/10/b"]


# --- Validator: active rules, substitution, formats ---------------------------------------------

def test_active_rules_are_the_catalogues_non_encoded_codes(draft: Validator) -> None:
    assert [r.code for r in draft.active["suite"]] == ["DUPLICATE_ID", "DANGLING_REFERENCE"]
    assert [r.code for r in draft.active["resultset"]] == ["DUPLICATE_ATTEMPT", "ISOLATION_MISMATCH",
                                                           "SELF_PARENT"]
    assert draft.unimplemented == ()


def test_rules_mapping_substitutes_implementations_and_reports_missing_ones() -> None:
    def always(doc: object) -> list[Violation]:
        return [Violation("ALWAYS", "/x", "always fires", rule=True)]

    v = synthetic([entry("ALWAYS", "grader"), entry("ENCODED", "grader", encoded=True), entry("GHOST", "grader")],
                  impls={"ALWAYS": Rule("ALWAYS", "grader", always)}, grader={"type": "object"})
    assert v.unimplemented == ("GHOST",)
    assert keys(v.validate({}, "grader")) == [("ALWAYS", "/x")]
    assert v.validate_schema_only({}, "grader") == []


def test_proposal_rules_inactive_in_the_draft(draft: Validator) -> None:
    doc = json.loads((ROOT / "spec/conformance/fixtures/resultset-minimal-valid.json").read_text())["document"]
    doc["results"][0]["grader_results"][0]["metadata"] = {"trials": 1, "successes": 5}
    assert draft.validate(doc, "resultset") == []


def test_format_assertion_date_only_and_offsetless(draft: Validator) -> None:
    doc = {"version": "1.3.0", "suite_id": "s", "run_id": "r", "started_at": "2026-01-01",
           "results": [{"test_case_id": "t", "grader_results": [], "passed": False,
                        "completed_at": "2026-01-01T10:00:00"}]}
    assert keys(draft.validate(doc, "resultset")) == [("FORMAT", "/results/0/completed_at"),
                                                      ("FORMAT", "/started_at")]
    doc["started_at"] = "2026-01-01T10:00:00+02:00"
    doc["results"][0]["completed_at"] = "2026-01-01T08:00:00.5Z"
    assert draft.validate(doc, "resultset") == []
    lax = Validator(draft.spec, format_assertion=False)
    doc["started_at"] = "2026-01-01"
    assert lax.validate(doc, "resultset") == []


def test_encoded_rules_come_from_the_schema_with_rule_flag(draft: Validator) -> None:
    doc = {"version": "1.3.0", "suite_id": "s", "run_id": "r", "started_at": "2026-01-01T00:00:00Z",
           "results": [{"test_case_id": "t", "passed": True,
                        "grader_results": [{"grader_id": "g", "type": "t", "score": None, "passed": True}]}]}
    got = draft.validate_schema_only(doc, "resultset")
    assert [(v.code, v.instance_path, v.rule) for v in got] == [
        ("NULL_SCORE_PASSED", "/results/0/grader_results/0/passed", True),
        ("UNSCORED_RESULT_PASSED", "/results/0/passed", True)]


def test_full_validation_runs_rules_on_schema_invalid_documents(draft: Validator) -> None:
    doc = {"version": "1.3.0", "id": "s", "graders": [{"id": "g", "type": "exact_match"}],
           "test_cases": [{"id": "a", "input": "", "graders": ["g"]}, {"id": "a", "input": "x", "graders": ["h"]}]}
    assert keys(draft.validate(doc, "suite")) == [("MIN_LENGTH", "/test_cases/0/input"),
                                                  ("DANGLING_REFERENCE", "/test_cases/1/graders/0"),
                                                  ("DUPLICATE_ID", "/test_cases/1/id")]


@pytest.mark.parametrize(("document", "expected"), [
    ({"test_cases": [], "results": []}, "suite"),
    ({"results": []}, "resultset"),
    ({"input": "x", "graders": []}, "testcase"),
    ({"id": "g", "type": "exact_match"}, "grader"),
])
def test_detect_type(document: dict, expected: str) -> None:
    assert Validator.detect_type(document) == expected


@pytest.mark.parametrize("document", [{"input": "x"}, {"id": "x"}, [], "suite"])
def test_detect_type_refuses_non_documents(document: object) -> None:
    with pytest.raises(InputError, match="not an EvalPort document"):
        Validator.detect_type(document)


def test_unknown_document_type_is_an_input_error(draft: Validator) -> None:
    with pytest.raises(InputError, match="unknown document type 'result'"):
        draft.validate({}, "result")
