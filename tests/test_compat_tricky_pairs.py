"""The classifier against python-jsonschema on 90 hand-made pairs from the corners the random
differential generators seldom reach (session 37): ``multipleOf`` and bounds at float and
integer edges (``1e308``, ``2**53 + 1``, ``-0``), ``1``/``1.0``/``true`` in ``const``, ``enum``
and ``uniqueItems``, non-BMP characters against ``maxLength`` and ``pattern``, ``contains`` with
``minContains: 0``, ``prefixItems`` with ``items: false``, ``propertyNames``, ``patternProperties``
beside ``properties``, ``unevaluatedProperties``/``unevaluatedItems`` with names contributed by
``allOf``/``anyOf``/``oneOf``/``$ref``/``if``/``dependentSchemas``, ``$anchor`` and
``$dynamicRef`` trees, ``not``/``oneOf``, and the draft-04/07 forms. Pairs and documents are in
``compat_tricky_pairs.json``; each document's verdict comes from the validator, never from the
classifier.

Three properties, both with ``format`` asserted and not: a PATCH/MINOR/NONE verdict loses no
document of the pool (or witness); a PATCH/NONE verdict gains none (that is MINOR); a backward or
forward witness is valid on its source side and invalid on its target."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from compat_pair import sset
from evalport_spec.compat import compare
from evalport_spec.findings import ChangeClass

DATA = json.loads((Path(__file__).parent / "compat_tricky_pairs.json").read_text())


def _witnessed(f) -> bool:
    return f.witness is not None or bool(f.extra.get("witness_is_null"))


def wrong(old, new, format_assertion: bool) -> list:
    """What is unsound in the classification of ``old`` -> ``new``: ``[]`` when sound."""
    so, sn = sset(old, "old"), sset(new, "new")
    c = compare(so, sn, search_budget=0, format_assertion=format_assertion)
    vo = so.validator("s.json", format_assertion=format_assertion)
    vn = sn.validator("s.json", format_assertion=format_assertion)
    pool = DATA["documents"] + [f.witness for f in c.findings if _witnessed(f)]
    out = []
    if c.change_class is not ChangeClass.MAJOR:
        out += [("lost", str(c.change_class), x) for x in pool if vo.is_valid(x) and not vn.is_valid(x)]
    if c.change_class in (ChangeClass.NONE, ChangeClass.PATCH):
        out += [("gained", str(c.change_class), x) for x in pool if vn.is_valid(x) and not vo.is_valid(x)]
    for f in c.findings:
        if f.direction in ("backward", "forward") and _witnessed(f):
            src, dst = (vo, vn) if f.direction == "backward" else (vn, vo)
            if not (src.is_valid(f.witness) and not dst.is_valid(f.witness)):
                out.append(("bogus witness", f.kind, f.witness))
    return out


@pytest.mark.parametrize("format_assertion", [True, False])
def test_no_unsound_verdict_or_bogus_witness_on_hand_made_corner_pairs(format_assertion):
    assert [(i, w) for i, (old, new) in enumerate(DATA["pairs"]) for w in wrong(old, new, format_assertion)] == []


def test_the_pool_tells_the_pairs_apart():
    # the pool is not vacuous: on most pairs some document is valid under one side only
    # (python-jsonschema's verdicts), so a verdict that drops them would be caught
    split = 0
    for old, new in DATA["pairs"]:
        vo, vn = sset(old, "old").validator("s.json"), sset(new, "new").validator("s.json")
        split += any(vo.is_valid(x) != vn.is_valid(x) for x in DATA["documents"])
    assert split >= 55  # 60 of the 90 with python-jsonschema 4.x


@pytest.mark.parametrize(("old", "new", "expected"), [
    # by hand: names drawn from {"a", "b"} give at most 2 members, so maxProperties 2 removes nothing
    ({"propertyNames": {"enum": ["a", "b"]}}, {"propertyNames": {"enum": ["a", "b"]}, "maxProperties": 2}, ChangeClass.PATCH),
    ({"propertyNames": {"const": "a"}}, {"maxProperties": 1}, ChangeClass.MINOR),
    ({"propertyNames": False}, {"maxProperties": 0}, ChangeClass.MINOR),
])
def test_max_properties_bounded_by_property_names_is_not_a_break(old, new, expected):
    # session 37: these were MAJOR ("max-properties-decreased", no witness) although no document
    # is lost; the old side's propertyNames already admits at most maxProperties names
    c = compare(sset(old, "old"), sset(new, "new"), search_budget=0)
    assert c.change_class is expected
    assert wrong(old, new, True) == []


@pytest.mark.parametrize(("old", "new"), [
    ({"propertyNames": {"enum": ["a", "b", "c"]}}, {"propertyNames": {"enum": ["a", "b", "c"]}, "maxProperties": 2}),
    ({"propertyNames": {"enum": ["a", 1, "b"]}}, {"maxProperties": 1}),  # 1 is no name: still 2 names
])
def test_max_properties_below_the_name_count_stays_major(old, new):
    assert compare(sset(old, "old"), sset(new, "new"), search_budget=0).change_class is ChangeClass.MAJOR
