"""compat/canon.py: what is read off a canon (no validator asked) is exactly what validates."""

from __future__ import annotations

import jsonschema

from compat_pair import sset
from evalport_spec.compat.canon import Canonizer
from evalport_spec.compat.nodes import Node, Side

DEFS = {"s": {"type": "string", "pattern": "^a", "minLength": 2, "maxLength": 3},
        "w": {"pattern": "a\\b"},
        "g": {"oneOf": [{"enum": [1, 2], "x-doc": "ignored"}, {"const": 2}, {"const": "z", "ignoreCase": "all"}]},
        "h": {"anyOf": [{"const": 1}, {"type": "string", "maxLength": 1}]},
        "f": {"oneOf": [{"const": "z"}, {"const": 5, "type": "string"}, False]}}
VALUES = ["", "a", "ab", "abc", "abcd", "ba", "a b", 1, 2, "z", 5, None]


def _canons():
    side = Side("old", sset({"$defs": DEFS}, "old"))
    cz = Canonizer({"old": side})
    return {k: cz.nodes(Node("old", "s.json", f"/$defs/{k}")) for k in DEFS}


def test_string_lengths_and_patterns_are_read_off_exactly():
    c = _canons()["s"]
    assert c.read_off
    reference = jsonschema.Draft202012Validator(DEFS["s"])
    assert [x for x in VALUES if c.admits(x)] == [x for x in VALUES if reference.is_valid(x)] == ["ab", "abc", "a b"]


def test_a_word_boundary_pattern_is_not_read_off():
    # jsonschema-rs reads \b as a Unicode word boundary, ECMA-262 as an ASCII one: validated instead
    assert not _canons()["w"].read_off


def test_a_group_of_finite_branches_is_the_enum_it_accepts():
    canons = _canons()
    g = canons["g"]  # oneOf: 2 is in two branches, so only 1 and "z" match exactly one
    assert g.finite_plain and sorted(map(str, g.enum)) == ["1", "z"]
    reference = jsonschema.Draft202012Validator(DEFS["g"])
    assert [x for x in VALUES if g.admits(x)] == [x for x in VALUES if reference.is_valid(x)]
    assert not canons["h"].finite_plain and canons["h"].groups  # a branch with infinitely many values
    f = canons["f"]  # branches accepting nothing hold no value
    assert f.finite_plain and f.enum == ["z"] and not f.groups
