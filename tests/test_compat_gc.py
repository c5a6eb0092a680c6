"""The garbage collector's pace while comparing (:func:`evalport_spec.compat.engine.paced_gc`):
the youngest generation's threshold is raised for the comparison only, and put back after it,
also when the comparison raises."""

from __future__ import annotations

import gc

import pytest

from compat_corpus.oracle import schema_set
from evalport_spec.compat import compare
from evalport_spec.compat.engine import GC_YOUNG_THRESHOLD
from evalport_spec.errors import InputError


@pytest.fixture
def default_pace():
    before = gc.get_threshold()
    gc.set_threshold(700, 10, 10)  # Python's default, whatever the session set
    yield
    gc.set_threshold(*before)


def test_the_young_generation_is_collected_less_often_while_comparing(default_pace):
    seen = []

    def candidates(name):
        seen.append(gc.get_threshold())
        return []

    old, new = schema_set({"s.json": {"type": "string"}}, "old"), schema_set({"s.json": {"type": ["string", "null"]}}, "new")
    assert str(compare(old, new, candidates=candidates).change_class) == "MINOR"
    assert seen and set(seen) == {(GC_YOUNG_THRESHOLD, 10, 10)}  # (asked once per side)
    assert gc.get_threshold() == (700, 10, 10)


def test_the_pace_is_put_back_when_the_comparison_refuses(default_pace):
    old = schema_set({"s.json": {"type": "string"}}, "old")
    new = schema_set({"s.json": {"$ref": "#/$defs/missing"}}, "new")
    with pytest.raises(InputError):
        compare(old, new)
    assert gc.get_threshold() == (700, 10, 10)
