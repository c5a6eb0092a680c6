"""Asserted formats as languages, checked against both validators' format checkers.

``under`` must hold only strings python-jsonschema and jsonschema-rs both accept, and every
string either accepts must be in ``over``; where the two are equal (``Lang.format``), both
validators say exactly what the language says. Strings: valid ones from ``examples()`` and
hand-picked edge cases (leap days and seconds, year 0000, a final newline, case, leading
zeros), and Hypothesis mutations of them (characters replaced, inserted, dropped).
"""

from __future__ import annotations

from functools import cache

import jsonschema
import jsonschema_rs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from evalport_spec.regular import Lang, Unsupported
from evalport_spec.regular.formats import FORMATS, UNSUPPORTED

CHECKER = jsonschema.Draft202012Validator.FORMAT_CHECKER
EDGES = {
    "date": ["2024-02-29", "2023-02-29", "1900-02-29", "2000-02-29", "0000-02-29", "0000-01-01",
             "2020-04-31", "2020-12-31", "2020-1-01", "2020-01-01\n", "9999-12-31"],
    "date-time": ["2020-01-01T00:00:00Z", "2020-01-01t00:00:00z", "2020-01-01T00:00:00Z\n",
                  "2016-12-31T23:59:60Z", "2020-01-01T00:59:60+01:00", "0000-01-01T00:00:00Z",
                  "2020-01-01T00:00:00.123456789+05:30", "2020-01-01T24:00:00Z",
                  "2020-01-01 00:00:00Z", "2020-01-01T00:00:00+24:00", "2020-02-30T00:00:00Z"],
    "time": ["00:00:00Z", "23:59:60Z", "00:00:60+00:01", "00:00:00z", "12:00:00-00:00",
             "00:00:00", "00:00:00Z\n", "24:00:00Z", "00:00:00.5+01:00"],
    "uuid": ["123e4567-e89b-12d3-a456-426614174000", "123E4567-E89B-12D3-A456-426614174000",
             "123e4567e89b12d3a456426614174000", "{123e4567-e89b-12d3-a456-426614174000}",
             "123e4567-e89b-12d3-a456-4266-14174000", " 23e4567-e89b-12d3-a456-426614174000"],
    "ipv4": ["0.0.0.0", "255.255.255.255", "256.0.0.0", "01.0.0.0", "1.2.3", "1.2.3.4\n",
             "1.2.3.04", "\u0661.2.3.4", "1.2.3.4 "],
    "json-pointer": ["", "/", "/a~0b~1c", "/a~", "/~2", "a", "/\n", "//"],
}


@cache
def rs_validator(name: str):
    return jsonschema_rs.validator_for({"format": name}, validate_formats=True)


def verdicts(name: str, s: str) -> tuple[bool, bool]:
    return CHECKER.conforms(s, name), rs_validator(name).is_valid(s)


def check(name: str, s: str) -> None:
    under, over = Lang.format_bounds(name)
    py, rs = verdicts(name, s)
    if s in under:
        assert py and rs, (name, s)
    if py or rs:
        assert s in over, (name, s, py, rs)
    if FORMATS[name].over_exact and under == over:
        assert py == rs == (s in under), (name, s)
    if FORMATS[name].over_exact:
        assert (s in over) == (py or rs), (name, s)


@pytest.mark.parametrize("name", sorted(FORMATS))
def test_edges_and_examples(name):
    under, _ = Lang.format_bounds(name)
    for s in EDGES[name] + under.examples(20):
        check(name, s)


def test_bounds_are_ordered_and_exact_formats_named():
    for name in FORMATS:
        under, over = Lang.format_bounds(name)
        assert under <= over
        if under == over:
            assert Lang.format(name) == under
        else:
            with pytest.raises(Unsupported, match="disagree"):
                Lang.format(name)
    assert Lang.format("ipv4") == Lang.format_bounds("ipv4")[0]
    for name in UNSUPPORTED:
        with pytest.raises(Unsupported, match=name):
            Lang.format_bounds(name)


@st.composite
def mutated(draw):
    name = draw(st.sampled_from(sorted(FORMATS)))
    under, _ = Lang.format_bounds(name)
    s = draw(st.sampled_from(EDGES[name] + under.examples(12)))
    for _ in range(draw(st.integers(0, 3))):
        i = draw(st.integers(0, len(s)))
        c = draw(st.sampled_from("0123456789-:.+TtZz /~\n\u0663xF6"))
        op = draw(st.sampled_from("rid"))
        if op == "r" and i < len(s):
            s = s[:i] + c + s[i + 1:]
        elif op == "i":
            s = s[:i] + c + s[i:]
        elif i < len(s):
            s = s[:i] + s[i + 1:]
    return name, s


@settings(max_examples=300, deadline=None, derandomize=True,
          suppress_health_check=list(HealthCheck))
@given(mutated())
def test_mutations(case):
    check(*case)
