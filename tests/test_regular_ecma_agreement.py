"""The toolchain reads ``pattern`` and ``patternProperties`` as ECMA-262 in all three places
that decide them: the validator's fast pass (jsonschema-rs), its reference pass
(python-jsonschema through :mod:`evalport_spec.ecmaregex`) and the classifier's automaton
(:mod:`evalport_spec.regular`). Over patterns x strings where ECMA-262 and other dialects part
ways (``$`` before a final newline, Unicode digits, letters and spaces, the line terminators),
every verdict agrees. The ECMA-262 answers for the first cases are written out by hand
(JSON-Schema-Test-Suite, optional/ecmascript-regex.json, says the same)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evalport_spec.jsonload import loads
from evalport_spec.regular import Lang, Unsupported
from evalport_spec.schemaset import SchemaSet
from evalport_spec.validation.fast import FastCheck

ROOT = Path(__file__).resolve().parents[1]
VERSION = json.loads((ROOT / "spec/schemas/resultset.json").read_text())["properties"]["version"]["pattern"]
PATTERNS = [r"^\d$", r"^\D$", r"^\w+$", r"^\W$", r"^\s$", r"^\S$", r"^.$", r"^.+$", "^a$", "a$",
            "^$", "^[^a]$", r"^[\d.]+$", r"^[\w-]+$", r"^[^\s]$", r"^(?:a|b)*c?$", r"^\x41$",
            r"^\u00e9$", r"^\p{L}$", VERSION]
STRINGS = ["1", "\u0663", "a", "\u00e9", "_", " ", "\u00a0", "\ufeff", "\u0085", "\u1680", "\u2028",
           "\u2029", "\n", "\r", "\t", "\v", "\f", "\x1c", "a\n", "", "1\n", "1.3.0", "1.3.0\n",
           "1.3.0-1\u0663", "ab", "abc", "\U0001F600", "A", "\u212a", "b\nc"]

# ECMA-262 by hand: which of these strings each pattern matches
BY_HAND = {
    r"^\d$": {"1"},                                   # [0-9] only: not U+0663, not "1\n"
    r"^\s$": {" ", "\u00a0", "\ufeff", "\u1680", "\u2028", "\u2029", "\n", "\r", "\t", "\v", "\f"},
    r"^.$": {"1", "\u0663", "a", "\u00e9", "_", " ", "\u00a0", "\ufeff", "\u0085", "\u1680", "\t",
             "\v", "\f", "\x1c", "\U0001F600", "A", "\u212a"},  # all but \n \r U+2028 U+2029
    "^a$": {"a"},                                     # not "a\n": $ is the end of input only
    r"^\w+$": {"1", "a", "_", "ab", "abc", "A"},      # ASCII letters, digits, _
}


def sset(schema: dict) -> SchemaSet:
    return SchemaSet.from_loaded({"s.json": loads(json.dumps(schema), "s.json")}, "t")


def verdicts(schema: dict, instances: list) -> tuple[list[bool], list[bool | None]]:
    s = sset(schema)
    reference = s.validator("s.json")
    fast = FastCheck(s, "s.json", None)
    assert fast.compiled, schema
    return [reference.is_valid(i) for i in instances], [fast.is_valid(i) for i in instances]


@pytest.mark.parametrize("pattern", PATTERNS)
def test_fast_reference_and_automaton_agree(pattern):
    reference, fast = verdicts({"pattern": pattern}, STRINGS)
    assert fast == reference, [(s, r, f) for s, r, f in zip(STRINGS, reference, fast, strict=True) if r != f]
    lang = Lang.pattern(pattern)
    ours = [s in lang for s in STRINGS]
    assert ours == reference, [(s, r, o) for s, r, o in zip(STRINGS, reference, ours, strict=True) if r != o]
    if pattern in BY_HAND:
        assert {s for s, r in zip(STRINGS, reference, strict=True) if r} == BY_HAND[pattern]


@pytest.mark.parametrize("pattern", PATTERNS)
def test_pattern_properties_agree(pattern):
    names = [{s: 0} for s in STRINGS]
    reference, fast = verdicts({"patternProperties": {pattern: False}}, names)
    assert fast == reference
    lang = Lang.pattern(pattern)
    assert reference == [s not in lang for s in STRINGS]
    # additionalProperties applies to the names no pattern matches
    reference, fast = verdicts({"patternProperties": {pattern: True}, "additionalProperties": False}, names)
    assert fast == reference == [s in lang for s in STRINGS]


def test_word_boundary_is_left_to_the_reference():
    # ECMA-262's \b is ASCII: "a\u00e9" has one after "a"; jsonschema-rs's Unicode \b does not,
    # so the fast pass declines patterns with \b and the classifier calls them non-regular
    s = sset({"pattern": r"a\b"})
    assert s.validator("s.json").is_valid("a\u00e9") and not s.validator("s.json").is_valid("ab")
    assert FastCheck(s, "s.json", None).is_valid("a\u00e9") is None
    with pytest.raises(Unsupported):
        Lang.pattern(r"a\b")


def test_format_regex_is_ecma_262():
    v = sset({"format": "regex"}).validator("s.json")
    assert v.is_valid(r"^\p{L}+$") and v.is_valid("^[a-z]$")
    assert not v.is_valid("(?i)abc") and not v.is_valid("(?P<n>a)")  # Python-only syntax
