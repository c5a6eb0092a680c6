"""evalport_spec.regular against the validators: membership by our automaton equals
jsonschema-rs's ``pattern`` verdict (the fast pass) and the reference pass's ECMA-262 reading
(:mod:`evalport_spec.ecmaregex`, regress) on every string; witnesses are strings all three
agree on.

Patterns: the repository's schemas, check-jsonschema's vendored public schemas (a test extra)
and hand-written ones covering each construct. Strings: each language's ``examples()`` and
its complement's, plus Hypothesis strings over the pattern's own characters and the
characters where the engines differ (line terminators, Unicode digits and spaces).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import jsonschema_rs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from evalport_spec.ecmaregex import NotEcmaRegex, compile_ecma
from evalport_spec.regular import Lang, Unsupported
from evalport_spec.regular.corpus import HAND_WRITTEN, schema_patterns, vendored_schema_dirs

ROOT = Path(__file__).resolve().parent.parent
REPO = schema_patterns([ROOT / "spec", ROOT / "tools/evalport_spec/data"])
PUBLIC = schema_patterns(vendored_schema_dirs())
# Characters where ECMA-262, Python and Rust engines part ways, and a few ordinary ones.
TRICKY = "\n\r\t\v\f \u0085\u00a0\u2028\u2029\ufeff\u0663\u00e9\u1680\u001c_-./:@aZ09"


def test_corpus_is_there():
    assert len(REPO) >= 10
    assert PUBLIC, "check-jsonschema (test extra) ships the public schemas used here"


@cache
def compiled(src: str):
    """(our Lang or None if Unsupported, the reference's ECMA-262 regex or None, jsonschema-rs
    validator or None)."""
    try:
        lang = Lang.pattern(src)
    except Unsupported:
        lang = None
    try:
        py = compile_ecma(src)
    except NotEcmaRegex:
        py = None
    try:
        rs = jsonschema_rs.validator_for({"pattern": src})
    except Exception:  # noqa: BLE001 - invalid for jsonschema-rs
        rs = None
    return lang, py, rs


def check(src: str, s: str) -> None:
    lang, py, rs = compiled(src)
    if lang is not None:
        _agree_on(src, s, lang, py, rs)


def _agree_on(src, s, lang, py, rs) -> None:
    """``s`` is in our automaton ``lang`` exactly when the ECMA-262 engine ``py`` and
    jsonschema-rs ``rs`` (each when it compiles ``src``) match it."""
    ours = s in lang
    if rs is not None:
        assert rs.is_valid(s) == ours, (src, s, ours)
    if py is not None:
        assert (py.find(s) is not None) == ours, (src, s, ours)


def _assert_agree(src, lang, py, rs) -> int:
    """:func:`_agree_on` for every witness of ``src``; returns how many were checked."""
    found = witnesses(src)
    for s in found:
        _agree_on(src, s, lang, py, rs)
    return len(found)


def witnesses(src: str) -> list[str]:
    lang, _, _ = compiled(src)
    if lang is None:
        return []
    out = []
    for side in (lang, ~lang):
        try:
            out += side.examples(8)
        except Unsupported:
            pass
    return out


@pytest.mark.parametrize("src", REPO + list(HAND_WRITTEN))
def test_witnesses_agree_everywhere(src):
    """examples() of a language and of its complement: members as claimed, and both passes
    (where they compile the pattern) give the same verdict on every one."""
    lang, py, rs = compiled(src)
    if lang is None:
        pytest.skip(f"unsupported: {src!r}")
    _assert_agree(src, lang, py, rs)


def test_public_witnesses_agree_everywhere():
    checked = 0
    for src in PUBLIC:
        lang, py, rs = compiled(src)
        if lang is None:
            continue
        checked += _assert_agree(src, lang, py, rs)
    assert checked > 1000


@st.composite
def pattern_and_string(draw, corpus):
    src = draw(st.sampled_from(corpus))
    own = "".join(sorted({c for c in src if c.isprintable()}))
    alphabet = st.sampled_from(TRICKY + own) if own else st.sampled_from(TRICKY)
    return src, draw(st.text(alphabet, max_size=12))


CFG = settings(max_examples=250, deadline=None, derandomize=True,
               suppress_health_check=list(HealthCheck))


@CFG
@given(pattern_and_string(REPO + list(HAND_WRITTEN)))
def test_membership_matches_validators(case):
    check(*case)


@CFG
@given(pattern_and_string(PUBLIC or list(HAND_WRITTEN)))
def test_membership_matches_validators_public(case):
    check(*case)


@settings(CFG, max_examples=120)
@given(pattern_and_string(REPO + list(HAND_WRITTEN)), st.integers(0, 3), st.integers(0, 6))
def test_length_composes_by_intersection(case, lo, extra):
    src, s = case
    lang, _, _ = compiled(src)
    if lang is None:
        return
    both = lang & Lang.length(lo, lo + extra)
    assert (s in both) == (s in lang and lo <= len(s) <= lo + extra)
    if not both.is_empty():
        got = both.example()
        assert got in lang and lo <= len(got) <= lo + extra
