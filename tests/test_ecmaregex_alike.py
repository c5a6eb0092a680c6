"""``jsonschema_rs_reads_alike``: a pattern counts as read alike by jsonschema-rs and ECMA-262
only when it is; the fast pass trusts jsonschema-rs's "valid" for such patterns (``validate``,
``compat.nodes.Side.valid``), so a false "alike" accepts documents ECMA-262 rejects."""

from __future__ import annotations

import json

import jsonschema_rs
import pytest
import regress

from evalport_spec.ecmaregex import jsonschema_rs_reads_alike, search
from evalport_spec.jsonload import loads
from evalport_spec.schemaset import SchemaSet
from evalport_spec.validation.fast import FastCheck


def _ecma(pattern: str, text: str) -> bool:
    """ECMA-262's answer, straight from regress (``u`` flag, else Annex B)."""
    try:
        rx = regress.Regex(pattern, "u")
    except regress.RegressError:
        rx = regress.Regex(pattern)
    return rx.find(text) is not None


# (pattern, a string on which jsonschema-rs and ECMA-262 disagree)
DIFFER = [
    ("\\Aa", "a"),            # Rust: start anchor; Annex B: the letter A
    ("a\\z", "a"),            # Rust: end anchor; Annex B: the letter z
    ("^\\x{41}$", "A"),       # Rust: a code point; Annex B: "x" 41 times
    ("a\\b", "aé"),
    ("^\\p{Greek}$", "α"),     # Rust: a script; ECMA-262 (no u flag: not a property) "p{Greek}"           # word boundaries: Unicode in Rust, ASCII in ECMA-262
    ("^\\p{L}\\-$", "a-"),      # "\-" outside a class: no u flag, so ECMA-262 reads "p{L}" as text
]


@pytest.mark.parametrize(("pattern", "text"), DIFFER)
def test_a_pattern_the_two_read_otherwise_is_not_alike(pattern, text):
    rs = jsonschema_rs.validator_for({"pattern": pattern}).is_valid(text)
    assert rs != _ecma(pattern, text)  # the two readings really differ here
    assert not jsonschema_rs_reads_alike(pattern)


@pytest.mark.parametrize("pattern", ["^(?=a)", "(a)\\1", "^(?<n>a)\\k<n>$", "[]", "[^]",
                                     "^(?!a)", "\\ca", "\\0",
                                     "^[a&&b]$", "^[[a]$"])  # (Rust set syntax: left out, to be safe)
def test_lookaround_backreferences_and_other_non_plain_syntax_are_not_alike(pattern):
    assert not jsonschema_rs_reads_alike(pattern)


@pytest.mark.parametrize("pattern", ["^[a-z0-9_-]+$", "^\\d{2,3}\\.\\w+$", "^(?:ab|c)*$", "^\\u0041\\x41$",
                                     "^[\\]-]$", "^2[0-9]{3}-[01][0-9]$", "^\\p{L}\\P{Nd}$"])
def test_plain_patterns_stay_alike(pattern):
    assert jsonschema_rs_reads_alike(pattern)


def test_the_fast_pass_does_not_accept_what_ecma_262_rejects():
    schema = {"type": "string", "pattern": "\\Aa"}
    assert not search("\\Aa", "a")  # ECMA-262 (Annex B): "a" holds no "Aa"
    s = SchemaSet.from_loaded({"s.json": loads(json.dumps(schema), "s.json")}, "x")
    assert FastCheck(s, "s.json", None).is_valid("a") is not True


@pytest.mark.parametrize(("pattern", "text", "expected"), [
    ("^.$", "\ud800", True),      # a lone surrogate is one code point to ECMA-262 (u flag)
    ("^a$", "\ud800", False),
    ("[^a]", "\udc00", True),
    ("^\\S$", "\ud800", True),
    ("^\\w$", "\ud800", False),
    ("^.1$", "\ud8001", True),
    ("^\\uE000$", "x", False),     # no surrogate: no change
])
def test_a_lone_surrogate_in_the_text_is_matched_not_a_crash(pattern, text, expected):
    # expected: by hand, from ECMA-262's reading (u flag: a lone surrogate is a code point
    # that is no line terminator, white space, word or decimal digit character)
    assert search(pattern, text) is expected


@pytest.mark.parametrize("pattern", ["[\\ud800-\\udfff]", "\\p{Cs}", "\\u{D800}", "^\\uE0001$"])
def test_a_lone_surrogate_is_refused_where_its_stand_in_would_be_read_otherwise(pattern):
    with pytest.raises(ValueError, match="lone surrogate"):
        search(pattern, "\ud800")


def test_format_regex_with_a_lone_surrogate_is_decided():
    from evalport_spec.ecmaregex import is_regex
    assert is_regex("a\ud800b") and not is_regex("(\ud800")
