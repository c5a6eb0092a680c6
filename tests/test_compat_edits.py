"""The structural edits behind "no silent edit" (compat/edits.py) are the ones deepdiff reports.

:func:`~evalport_spec.compat.edits.structural_edits` is deepdiff's tree view for JSON values,
written out; deepdiff itself is the oracle here, on hand-made pairs whose edits are worked out
below, on every pair of this repository's schema files, and on generated pairs.
"""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import pytest
from deepdiff import DeepDiff
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from evalport_spec.compat.edits import Edit, structural_edits
from evalport_spec.pointer import join
from evalport_spec.spec import SpecRepo

REPO_ROOT = Path(__file__).resolve().parents[1]


def oracle(old: Any, new: Any) -> list[Edit]:
    """What deepdiff reports, as :func:`structural_edits` states it."""
    diff = DeepDiff(old, new, verbose_level=2, view="tree")
    out = {Edit(kind, join("", *item.path(output_format="list"))) for kind, items in diff.items() for item in items}
    return sorted(out, key=lambda e: (e.pointer, e.kind))


def edits(old: Any, new: Any) -> list[tuple[str, str]]:
    return [(e.kind, e.pointer) for e in structural_edits(old, new)]


@pytest.mark.parametrize(("old", "new", "expected"), [
    # a member added, one removed, one changed; 1 -> 1.0 and 1 -> true change the type
    ({"a": 1, "b": 2, "c": 3}, {"a": 1, "b": 5, "d": 4},
     [("dictionary_item_removed", "/c"), ("dictionary_item_added", "/d"), ("values_changed", "/b")]),
    ({"a": 1, "b": 1}, {"a": 1.0, "b": True}, [("type_changes", "/a"), ("type_changes", "/b")]),
    # fewer than a third of the members in common: the whole object changed
    ({"a": 1, "b": 2, "c": 3}, {"a": 1, "x": 2, "y": 3, "z": 4}, [("values_changed", "")]),
    # scalars aligned as sequences: one item inserted is one addition at its new index
    ({"required": ["a", "b"]}, {"required": ["a", "c", "b"]}, [("iterable_item_added", "/required/1")]),
    # an item replaced in place: added and removed at one index is one change
    (["a", "b", "c"], ["a", "x", "c"], [("values_changed", "/1")]),
    # objects are paired index by index: the tail one removed, the middle one changed
    ([{"t": 1}, {"t": 2}, {"t": 3}], [{"t": 1}, {"t": 3}],
     [("values_changed", "/1/t"), ("iterable_item_removed", "/2")]),
])
def test_hand_made_pairs(old: Any, new: Any, expected: list[tuple[str, str]]) -> None:
    assert sorted(edits(old, new)) == sorted(expected)
    assert structural_edits(old, new) == oracle(old, new)


def test_every_pair_of_this_repositorys_schema_files_as_deepdiff_reports_it() -> None:
    repo = SpecRepo(REPO_ROOT)
    versions = [repo.version(n) for n in repo.all_versions()]
    compared = 0
    for a, b in itertools.permutations(versions, 2):
        for name, f in a.schemas.files.items():
            if name in b.schemas.files:
                assert structural_edits(f.schema, b.schemas.files[name].schema) == oracle(
                    f.schema, b.schemas.files[name].schema), (a.name, b.name, name)
                compared += 1
    assert compared == 5 * 4 * 4  # five versions, four schema files each


SCALARS = st.one_of(st.sampled_from([0, 1, 2, 1.0, 2.5, True, False, None, "a", "b", "c", ""]),
                    st.integers(-3, 3))
KEYS = st.sampled_from(["a", "b", "c", "d", "type", "items"])
JSON = st.recursive(SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=5),
                                                     st.dictionaries(KEYS, inner, max_size=5)), max_leaves=20)


@st.composite
def edited(draw: st.DrawFn) -> tuple[Any, Any]:
    """A value and a variant of it: a few leaves or members replaced, added or removed."""
    old = draw(JSON)

    def mutate(v: Any) -> Any:
        choice = draw(st.integers(0, 5))
        if choice == 0:
            return draw(JSON)
        if isinstance(v, list) and v:
            items = [mutate(x) if draw(st.booleans()) else x for x in v]
            if draw(st.booleans()):
                items.insert(draw(st.integers(0, len(items))), draw(SCALARS))
            if draw(st.booleans()) and items:
                items.pop(draw(st.integers(0, len(items) - 1)))
            return items
        if isinstance(v, dict) and v:
            out = {k: (mutate(x) if draw(st.booleans()) else x) for k, x in v.items()}
            if draw(st.booleans()):
                out[draw(KEYS)] = draw(SCALARS)
            if draw(st.booleans()):
                out.pop(draw(st.sampled_from(sorted(out))), None)
            return out
        return v
    return old, mutate(old)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(edited())
def test_generated_pairs_as_deepdiff_reports_them(pair: tuple[Any, Any]) -> None:
    old, new = pair
    assert structural_edits(old, new) == oracle(old, new)


@settings(max_examples=400, deadline=None)
@given(st.lists(SCALARS, max_size=8), st.lists(SCALARS, max_size=8))
def test_any_two_lists_of_scalars_as_deepdiff_reports_them(old: list[Any], new: list[Any]) -> None:
    # the aligned pass, its moves inside replaced runs, and its index-by-index fallback
    assert structural_edits(old, new) == oracle(old, new)
    assert structural_edits({"enum": old}, {"enum": new[::-1]}) == oracle({"enum": old}, {"enum": new[::-1]})


@settings(max_examples=200, deadline=None)
@given(st.lists(JSON, max_size=5), st.lists(JSON, max_size=5))
def test_any_two_lists_of_values_as_deepdiff_reports_them(old: list[Any], new: list[Any]) -> None:
    assert structural_edits(old, new) == oracle(old, new)
