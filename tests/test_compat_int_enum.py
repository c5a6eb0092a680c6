"""A bounded integer range against an ``enum`` (compat/scalars.py, ``values-cover-range``):
``{"type": "integer", "minimum": 1, "maximum": 3}`` -> ``{"enum": [1, 2, 3]}`` loses no document,
so it is no MAJOR. Before, every such change was MAJOR with no witness (fail closed).

The expected verdict is worked out by brute force with python-jsonschema: every document an
integer-only schema accepts is an integer (or an integral float) of its range, so trying each
integer of a slightly wider range decides inclusion exactly."""

from __future__ import annotations

import random

import jsonschema
import pytest

from compat_pair import sset
from evalport_spec.compat import compare
from evalport_spec.findings import ChangeClass

D2020 = "https://json-schema.org/draft/2020-12/schema"


def lost(old: dict, new: dict, lo: int, hi: int) -> list:
    """The documents among the integers ``lo..hi`` (and their float spellings) that ``old``
    accepts and ``new`` rejects, by python-jsonschema."""
    v_old, v_new = jsonschema.Draft202012Validator(old), jsonschema.Draft202012Validator(new)
    docs = [x for n in range(lo, hi + 1) for x in (n, float(n))]
    return [d for d in docs if v_old.is_valid(d) and not v_new.is_valid(d)]


def check(old: dict, new: dict, lo: int, hi: int) -> ChangeClass:
    """Assert the classifier agrees with brute force on ``old -> new``; return its class. A
    PATCH or MINOR must also account for every structural edit (compat_pair's "no silent edit")."""
    c = compare(sset({"$schema": D2020, **old}, "old"), sset({"$schema": D2020, **new}, "new"), search_budget=0)
    if lost(old, new, lo, hi):
        assert c.change_class is ChangeClass.MAJOR, c.findings
        witnesses = [f.witness for f in c.findings if f.direction == "backward" and f.witness is not None]
        assert any(w in lost(old, new, lo, hi) for w in witnesses), c.findings
    else:
        assert c.change_class in (ChangeClass.PATCH, ChangeClass.MINOR), c.findings
        assert not c.stats.get("unaccounted_edits"), c.stats["unaccounted_edits"]
    return c.change_class


@pytest.mark.parametrize(("old", "new", "expected"), [
    ({"type": "integer", "minimum": 1, "maximum": 3}, {"enum": [1, 2, 3]}, ChangeClass.PATCH),
    ({"type": "integer", "minimum": 1, "maximum": 3}, {"enum": [3, 2.0, 1, "x"]}, ChangeClass.MINOR),
    ({"type": "integer", "exclusiveMinimum": 0.5, "maximum": 3.9}, {"enum": [1, 2, 3]}, ChangeClass.PATCH),
    ({"type": "integer", "minimum": 0, "maximum": 6, "multipleOf": 3}, {"const": 3, "enum": [0, 3, 6]},
     ChangeClass.MAJOR),  # const 3 keeps one of 0, 3, 6
    ({"type": "integer", "minimum": 0, "maximum": 6, "multipleOf": 3}, {"enum": [0, 3, 6]}, ChangeClass.PATCH),
    ({"type": "integer", "minimum": 1, "maximum": 4}, {"enum": [1, 2, 3]}, ChangeClass.MAJOR),  # 4 lost
    ({"type": "integer", "minimum": 1, "maximum": 3}, {"enum": [1, 2, 3], "maximum": 2}, ChangeClass.MAJOR),
    ({"type": "integer", "minimum": 1, "maximum": 3}, {"enum": [True, 2, 3]}, ChangeClass.MAJOR),  # 1 is no true
    ({"type": "integer", "minimum": 5, "maximum": 4}, {"enum": [1]}, ChangeClass.MINOR),  # old accepts no number
])
def test_range_against_enum(old, new, expected):
    assert check(old, new, -8, 12) is expected


def test_a_range_wider_than_the_enumeration_limit_is_left_to_the_search():
    # 0..5000 is more integers than RANGE_VALUES: no proof by enumeration, so fail closed
    old = {"type": "integer", "minimum": 0, "maximum": 5000}
    c = compare(sset({"$schema": D2020, **old}, "old"), sset({"$schema": D2020, "enum": list(range(5001))}, "new"),
                search_budget=0)
    assert c.change_class is ChangeClass.MAJOR


@pytest.mark.parametrize("seed", range(12))
def test_random_ranges_agree_with_brute_force(seed):
    rng = random.Random(seed)
    for _ in range(25):
        lo = rng.randint(-4, 4)
        old: dict = {"type": "integer", "minimum": lo, "maximum": lo + rng.randint(-1, 6)}
        if rng.random() < 0.3:
            old["multipleOf"] = rng.choice([2, 3, 0.5])
        if rng.random() < 0.3:
            old["exclusiveMinimum"] = lo + rng.choice([0, 0.5, 1])
        values = [n for n in range(lo - 2, lo + 9) if rng.random() < 0.75]
        values = [float(n) if rng.random() < 0.2 else n for n in values]
        new = {"enum": values + (["x"] if rng.random() < 0.2 else [])} if values else {"const": lo}
        check(old, new, lo - 10, lo + 20)
