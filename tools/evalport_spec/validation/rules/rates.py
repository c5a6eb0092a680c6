"""Proposal rules for rate denominators on GraderResult (seed 000, option A: optional
``trials`` >= 1 and ``successes`` >= 0). They are registered here but only active for a spec
version whose catalogue lists them (an RFC proposal folder), never for the draft until adopted.

Both read one Result at a time (:class:`~.registry.ItemRule` without state)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ...pointer import join
from ..violation import Violation
from .registry import Envelope, ItemRule, is_number, items, register_items, violation


def _grader_results(first: int, results: list[Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    for index, result in enumerate(results, first):
        for m, gr in items(result, "grader_results"):
            yield join("", "results", index, "grader_results", m), gr


@register_items("SUCCESSES_EXCEED_TRIALS", "resultset")
class SuccessesExceedTrials(ItemRule):
    """SUCCESSES_EXCEED_TRIALS: a GraderResult's ``successes`` is at most its ``trials``.

    Checked when both are numbers; reported at ``.../grader_results/M/successes``. Source:
    seed 000 (rate denominators), option A.
    """

    def items(self, first: int, values: list[Any], envelope: Envelope) -> Iterator[Violation]:
        for where, gr in _grader_results(first, values):
            trials, successes = gr.get("trials"), gr.get("successes")
            if is_number(trials) and is_number(successes) and successes > trials:
                yield violation("SUCCESSES_EXCEED_TRIALS", where + "/successes",
                                f"successes {successes} exceed trials {trials}")


@register_items("RATE_SCORE_MISMATCH", "resultset", parameters=("tolerance",))
class RateScoreMismatch(ItemRule):
    """RATE_SCORE_MISMATCH: when ``score`` is not null and both ``trials`` and ``successes``
    are present, ``abs(score - successes / trials) <= tolerance``, the catalogue entry's
    ``tolerance`` parameter (RFC 0006 proposes 1e-6).

    Skipped when any of the three is not a number or ``trials`` is not positive (the schema
    reports those). Reported at ``.../grader_results/M/score``. Source: seed 000, option A.
    """

    def __init__(self, *, tolerance: float) -> None:
        self.tolerance = tolerance

    def items(self, first: int, values: list[Any], envelope: Envelope) -> Iterator[Violation]:
        for where, gr in _grader_results(first, values):
            score, trials, successes = gr.get("score"), gr.get("trials"), gr.get("successes")
            if not (is_number(score) and is_number(trials) and is_number(successes)) or trials <= 0:
                continue
            rate = successes / trials
            if abs(score - rate) > self.tolerance:
                yield violation("RATE_SCORE_MISMATCH", where + "/score",
                                f"score {score} differs from successes/trials = "
                                f"{successes}/{trials} = {rate:.6g} by more than {self.tolerance:g}")
