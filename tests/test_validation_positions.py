"""``jsonpos.positions`` (used for every violation's line and column): every pointer maps to
where its value starts, checked against the standard library's own decoder on generated JSON;
the ``wanted`` form returns the same positions for the pointers asked."""

from __future__ import annotations

import bisect
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evalport_spec.jsonpos import positions
from evalport_spec.pointer import join

KEYS = st.text(alphabet=st.sampled_from('ab~/"\\é \n'), max_size=4)
SCALARS = st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.floats(
    allow_nan=False, allow_infinity=False) | st.text(alphabet=st.sampled_from('x"\\{}[],:\n\té'),
                                                      max_size=5)
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4)
                      | st.dictionaries(KEYS, inner, max_size=4), max_leaves=25)


def pointers(value: Any, here: str = "") -> dict[str, Any]:
    out = {here: value}
    if isinstance(value, dict):
        for k, v in value.items():
            out.update(pointers(v, join(here, k)))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out.update(pointers(v, join(here, i)))
    return out


def offset(text: str, line: int, col: int) -> int:
    starts = [0] + [i + 1 for i, c in enumerate(text) if c == "\n"]
    return starts[line - 1] + col - 1


@settings(max_examples=300, deadline=None)
@given(VALUES, st.sampled_from([None, 0, 1, 3]), st.booleans())
def test_every_pointer_maps_to_the_start_of_its_value(value: Any, indent: int | None,
                                                      ascii_only: bool) -> None:
    text = json.dumps(value, indent=indent, ensure_ascii=ascii_only)
    expected = pointers(value)
    found = positions(text)
    assert set(found) == set(expected)
    decoder = json.JSONDecoder()
    for ptr, (line, col) in found.items():
        decoded, _ = decoder.raw_decode(text, offset(text, line, col))
        assert decoded == expected[ptr]


@settings(max_examples=200, deadline=None)
@given(VALUES, st.data())
def test_wanted_pointers_get_the_same_positions(value: Any, data: st.DataObject) -> None:
    text = json.dumps(value, indent=1)
    full = positions(text)
    wanted = data.draw(st.sets(st.sampled_from(sorted(full)) | st.just("/zz/missing"), max_size=3))
    got = positions(text, wanted)
    for p in wanted:
        assert got.get(p) == full.get(p)
    assert all(full[p] == pos for p, pos in got.items())


def test_hand_checked_positions_and_early_stop() -> None:
    text = '{"a": [10, {"b": true}],\n "c~/": "x",\n "d": [1, 2, 3]}'
    assert positions(text) == {"": (1, 1), "/a": (1, 7), "/a/0": (1, 8), "/a/1": (1, 12),
                               "/a/1/b": (1, 18), "/c~0~1": (2, 9), "/d": (3, 7),
                               "/d/0": (3, 8), "/d/1": (3, 11), "/d/2": (3, 14)}
    # stops at /a/1/b: the broken tail after it is never read
    assert positions(text[:-1] + ", ]", ["/a/1/b"]) == {"": (1, 1), "/a": (1, 7), "/a/1": (1, 12),
                                                         "/a/1/b": (1, 18)}
    # a missing member of /a/1: the scan stops when /a/1 closes, ancestors still mapped
    assert positions(text[:30] + "!!!", ["/a/1/passed"]) == {"": (1, 1), "/a": (1, 7),
                                                             "/a/1": (1, 12)}


@pytest.mark.parametrize("bad", ["", "[1,]", '{"a":1,}', '{"a" 1}', "[1 2]", "[}", "{]", "[1]]",
                                 "x", '{"a":[1}', "[1", '"\\x"'])
def test_text_that_is_not_json_raises_value_error(bad: str) -> None:
    with pytest.raises(ValueError):
        positions(bad)


def test_line_starts_are_found_by_bisect_for_many_pointers() -> None:
    value = {"r": [{"v": i} for i in range(100)]}  # > 64 pointers: the bisect path
    text = json.dumps(value, indent=2)
    found = positions(text)
    lines = text.split("\n")
    starts = [0]
    for line in lines[:-1]:
        starts.append(starts[-1] + len(line) + 1)
    for i in (0, 57, 99):
        off = text.index(f'"v": {i}\n') + 5  # the value after '"v": '
        line = bisect.bisect_right(starts, off)
        assert found[f"/r/{i}/v"] == (line, off - starts[line - 1] + 1)
