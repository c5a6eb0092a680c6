"""Catalogue parameters reach a rule on both paths: the whole-document function and the
item-by-item accumulator that streaming validation drives (validation/rules/registry.py)."""

from __future__ import annotations

import pytest

from evalport_spec.validation.rules import RULES
from evalport_spec.validation.rules.registry import Envelope

# score 0.5 against successes/trials = 1/3: off by 1/6 (about 0.1667)
DOC = {"results": [{"test_case_id": "t", "grader_results": [{"score": 0.5, "successes": 1, "trials": 3}]}]}
WHERE = "/results/0/grader_results/0/score"


def _streamed(rule, document):
    acc = rule.accumulator()
    envelope = Envelope({}, False)
    found = list(acc.items(0, document["results"], envelope))
    return found + list(acc.finish(Envelope({}, True)))


@pytest.mark.parametrize(("tolerance", "flagged"), [(1e-6, True), (0.1, True), (0.2, False)])
def test_tolerance_from_the_catalogue_decides_on_both_paths(tolerance, flagged):
    rule = RULES["RATE_SCORE_MISMATCH"].bind({"tolerance": tolerance, "unrelated": 1})
    whole = rule.check(DOC)
    streamed = _streamed(rule, DOC)
    assert [v.instance_path for v in whole] == ([WHERE] if flagged else [])
    assert [(v.code, v.instance_path, v.message) for v in streamed] == [
        (v.code, v.instance_path, v.message) for v in whole]
    if flagged:
        assert whole[0].message.endswith(f"by more than {tolerance:g}")


def test_a_rule_without_its_parameter_is_refused_naming_it():
    rule = RULES["RATE_SCORE_MISMATCH"]
    with pytest.raises(ValueError, match="needs the catalogue parameter"):
        rule.check(DOC)
    with pytest.raises(ValueError, match="tolerance"):
        rule.bind({})
    with pytest.raises(ValueError, match="tolerance"):
        rule.accumulator()
    assert rule.check(DOC, {"tolerance": 0.2}) == []  # given per call
