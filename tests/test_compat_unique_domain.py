"""``uniqueItems`` over a finite item domain bounds an array's length (compat/arrays.py,
``_array_bounds``): unique booleans are at most ``[true, false]``, so ``{"items": {"type":
"boolean"}, "uniqueItems": true}`` gaining ``"maxItems": 2`` loses no document. Before, such a
change was MAJOR with no witness (fail closed); and a real loss (three unique values of a
three-value ``enum`` against ``maxItems: 2``) was MAJOR with no witness too, where the
candidate ``[1, 2, null]`` now proves it.

The expected verdicts are worked out by brute force with python-jsonschema: every array of at
most four items drawn from a pool holding every value the item schemas below allow is tried on
both sides. That is exhaustive here: each ``maxItems`` is at most 3 and each ``minItems`` at
most 2, so any lost array has a lost prefix of at most four items."""

from __future__ import annotations

import itertools
import random

import jsonschema
import pytest

from compat_pair import sset
from evalport_spec.compat import compare
from evalport_spec.findings import ChangeClass

D2020 = "https://json-schema.org/draft/2020-12/schema"
POOL = [1, 1.0, 2, True, False, None]
"""Item values; ``1`` and ``1.0`` are one value to ``uniqueItems`` (JSON equality)."""


def lost(old: dict, new: dict) -> list:
    """Arrays of up to four ``POOL`` items (and a string, which no array schema here accepts)
    that ``old`` accepts and ``new`` rejects, by python-jsonschema."""
    v_old, v_new = jsonschema.Draft202012Validator(old), jsonschema.Draft202012Validator(new)
    docs = ["x"] + [list(t) for n in range(5) for t in itertools.product(POOL, repeat=n)]
    return [d for d in docs if v_old.is_valid(d) and not v_new.is_valid(d)]


def check(old: dict, new: dict) -> ChangeClass:
    """Assert the classifier agrees with brute force on ``old -> new`` (a MAJOR names a witness
    brute force confirms; a PATCH or MINOR loses nothing); return its class."""
    c = compare(sset({"$schema": D2020, **old}, "old"), sset({"$schema": D2020, **new}, "new"), search_budget=0)
    gone = lost(old, new)
    if gone:
        assert c.change_class is ChangeClass.MAJOR, c.findings
        witnesses = [f.witness for f in c.findings if f.direction == "backward" and f.witness is not None]
        assert any(w in gone for w in witnesses), c.findings
    else:
        assert c.change_class in (ChangeClass.PATCH, ChangeClass.MINOR), c.findings
        assert not c.stats.get("unaccounted_edits"), c.stats["unaccounted_edits"]
    return c.change_class


BOOLS = {"type": "array", "items": {"type": "boolean"}, "uniqueItems": True}
THREE = {"type": "array", "items": {"enum": [1, 2, None]}, "uniqueItems": True}


@pytest.mark.parametrize(("old", "new", "expected"), [
    (BOOLS, {**BOOLS, "maxItems": 2}, ChangeClass.PATCH),  # [true, false] is the longest
    (BOOLS, {**BOOLS, "maxItems": 1}, ChangeClass.MAJOR),
    (THREE, {**THREE, "maxItems": 3}, ChangeClass.PATCH),
    (THREE, {**THREE, "maxItems": 2}, ChangeClass.MAJOR),  # witness [1, 2, null]
    ({"type": "array", "items": {"enum": [1, 1.0, 2]}, "uniqueItems": True},
     {"type": "array", "items": {"enum": [1, 1.0, 2]}, "uniqueItems": True, "maxItems": 2}, ChangeClass.PATCH),
    ({"type": "array", "items": {"type": ["null", "boolean"]}, "uniqueItems": True},
     {"type": "array", "maxItems": 3}, ChangeClass.MINOR),  # the new side also takes [1, 1, 1]
    ({"type": "array", "items": {"type": "boolean"}},  # not unique: [true, true, true] is lost
     {"type": "array", "items": {"type": "boolean"}, "maxItems": 2}, ChangeClass.MAJOR),
    ({"type": "array", "prefixItems": [{"const": 1}], "items": {"type": "boolean"}, "uniqueItems": True},
     {"type": "array", "maxItems": 3}, ChangeClass.MINOR),  # [1, true, false] at most
    ({"type": "array", "prefixItems": [{"const": 1}], "items": {"type": "boolean"}, "uniqueItems": True},
     {"type": "array", "maxItems": 2}, ChangeClass.MAJOR),
])
def test_unique_items_over_a_finite_domain(old, new, expected):
    assert check(old, new) is expected


def _items(r: random.Random) -> dict:
    return r.choice([{"type": "boolean"}, {"type": ["null", "boolean"]}, {"enum": r.sample(POOL, r.randint(1, 4))},
                     {"const": r.choice(POOL)}, {"enum": [1, 1.0]}])


def _array(r: random.Random) -> dict:
    s: dict = {"type": "array", "items": _items(r)}
    if r.random() < 0.3:
        s["prefixItems"] = [_items(r) for _ in range(r.randint(1, 2))]
    if r.random() < 0.7:
        s["uniqueItems"] = True
    if r.random() < 0.5:
        s["maxItems"] = r.randint(0, 3)
    if r.random() < 0.3:
        s["minItems"] = r.randint(0, 2)
    return s


def test_random_pairs_agree_with_brute_force():
    """150 seeded pairs of array schemas over small item domains: each verdict as brute force
    says (a MAJOR needs a confirmed witness; a fail-closed MAJOR with no witness on a pair
    brute force calls safe fails here too)."""
    r = random.Random(36)
    classes = []
    for _ in range(150):
        old = _array(r)
        new = {**old, "maxItems": r.randint(0, 3)} if r.random() < 0.6 else _array(r)
        classes.append(check(old, new))
    assert classes.count(ChangeClass.MAJOR) > 20 and len(set(classes)) >= 2  # the premise: both kinds met


def test_a_large_item_domain_is_bounded_by_its_number_of_values():
    """Above :data:`~evalport_spec.compat.arrays.MATCHED_POSITIONS` positions the bound is the
    number of distinct values: 100 unique integers of a 100-value ``enum`` fit ``maxItems: 100``
    (pigeonhole: a 101st item repeats one), and ``maxItems: 99`` loses the array of all 100,
    which python-jsonschema confirms."""
    old = {"type": "array", "items": {"enum": list(range(100))}, "uniqueItems": True}
    same = compare(sset({"$schema": D2020, **old}, "old"), sset({"$schema": D2020, **old, "maxItems": 100}, "new"),
                   search_budget=0)
    assert same.change_class is ChangeClass.PATCH, same.findings
    tight = {"$schema": D2020, **old, "maxItems": 99}
    c = compare(sset({"$schema": D2020, **old}, "old"), sset(tight, "new"), search_budget=0)
    assert c.change_class is ChangeClass.MAJOR
    (w,) = [f.witness for f in c.findings if f.direction == "backward"]
    assert jsonschema.Draft202012Validator(old).is_valid(w) and not jsonschema.Draft202012Validator(tight).is_valid(w)


def test_a_long_witness_samples_each_item_schema_once(monkeypatch):
    """The candidate for a new ``maxItems`` of unique items past a 500-value ``enum`` is built
    from one sampling of the item schema, not one per position: before, each of the 401
    positions filtered the whole ``enum`` again (about 200,000 checks; 5,000 values and
    ``maxItems: 4000`` took 49 s). The witness is still confirmed by python-jsonschema."""
    from evalport_spec.compat.sample import Sampler

    calls = []
    real = Sampler.holds
    monkeypatch.setattr(Sampler, "holds", lambda self, c, v: calls.append(1) or real(self, c, v))
    old = {"type": "array", "items": {"enum": list(range(500))}, "uniqueItems": True}
    new = {"$schema": D2020, **old, "maxItems": 400}
    c = compare(sset({"$schema": D2020, **old}, "old"), sset(new, "new"), search_budget=0)
    (w,) = [f.witness for f in c.findings if f.direction == "backward"]
    assert len(w) == 401 and jsonschema.Draft202012Validator(old).is_valid(w)
    assert not jsonschema.Draft202012Validator(new).is_valid(w)
    assert len(calls) < 5_000
