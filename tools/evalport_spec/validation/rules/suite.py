"""Cross-field rules of a Suite document (SPEC.md, "Suite"; evalport-model.md rule table)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ...pointer import join
from ..violation import Violation
from .registry import items, register, violation


def _duplicates(document: Any, array: str, what: str) -> Iterator[Violation]:
    seen: dict[str, int] = {}
    for i, member in items(document, array):
        ident = member.get("id")
        if not isinstance(ident, str):
            continue
        if ident in seen:
            yield violation("DUPLICATE_ID", join("", array, i, "id"),
                            f"{what} id {ident!r} is already used by /{array}/{seen[ident]}")
        else:
            seen[ident] = i


@register("DUPLICATE_ID", "suite")
def duplicate_id(document: Any) -> Iterator[Violation]:
    """DUPLICATE_ID: test case ids are unique within ``test_cases``, grader ids within the
    suite's ``graders``.

    Reported at every later duplicate's ``id`` (``/test_cases/3/id``, ``/graders/1/id``); the
    first occurrence is not reported. Inline graders inside test cases are scoped to their test
    case and are not compared. Source: evalport-model.md, rule table (DUPLICATE_ID, Suite).
    """
    yield from _duplicates(document, "test_cases", "test case")
    yield from _duplicates(document, "graders", "grader")


@register("DANGLING_REFERENCE", "suite")
def dangling_reference(document: Any) -> Iterator[Violation]:
    """DANGLING_REFERENCE: every grader *reference* (a string item of a test case's
    ``graders``) names the ``id`` of a grader in the suite's top-level ``graders`` array.

    Reported at the reference, ``/test_cases/N/graders/M``. A suite without ``graders`` has no
    grader to name, so every reference in it dangles. Inline graders (objects) are not
    references. Source: evalport-model.md, rule table (DANGLING_REFERENCE, Suite).
    """
    known = {g["id"] for _, g in items(document, "graders") if isinstance(g.get("id"), str)}
    for n, case in items(document, "test_cases"):
        refs = case.get("graders")
        if not isinstance(refs, list):
            continue
        for m, ref in enumerate(refs):
            if isinstance(ref, str) and ref not in known:
                yield violation("DANGLING_REFERENCE", join("", "test_cases", n, "graders", m),
                                f"grader {ref!r} is not defined in the suite's graders")
