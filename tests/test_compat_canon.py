"""compat/canon.py: what is read off a canon (no validator asked) is exactly what validates."""

from __future__ import annotations

import jsonschema
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from compat_corpus.oracle import Validators, classify
from compat_pair import sset
from evalport_spec.compat.canon import Canonizer
from evalport_spec.compat.nodes import Node, Side
from evalport_spec.findings import ChangeClass

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


# ---------------------------------------------------------------- soundness of what is read off
_VALUES = ["a", "ab", "abc", "b", "ba", "a b", "", "A", "\n", "ab\n", "1", 0, 1, 2, 1.0, True, False, None]
_VALUE = st.sampled_from(_VALUES)
_EXTRA = st.one_of(st.just({}), st.just({"x-doc": "asserts nothing"}),
                   st.fixed_dictionaries({"type": st.sampled_from(["string", "integer", ["string", "null"]])}),
                   st.fixed_dictionaries({"minLength": st.integers(1, 3)}),
                   st.fixed_dictionaries({"maxLength": st.integers(0, 2)}),
                   st.fixed_dictionaries({"pattern": st.sampled_from(["^a", "b$", "^[ab]+$", "a\\b", "\\d", "^$"])}))
_BRANCH = st.builds(lambda base, extra: {**base, **extra},
                    st.one_of(st.fixed_dictionaries({"const": _VALUE}),
                              st.fixed_dictionaries({"enum": st.lists(_VALUE, min_size=1, max_size=4)}),
                              st.fixed_dictionaries({"type": st.sampled_from(["string", "integer", "boolean"])})),
                    _EXTRA)
_GROUP = st.builds(lambda k, bs: {k: bs}, st.sampled_from(["anyOf", "oneOf"]), st.lists(_BRANCH, min_size=1, max_size=4))
_LEAF = st.one_of(_BRANCH, _GROUP)
_SCHEMA = st.one_of(_LEAF, st.builds(lambda p: {"type": "object", "properties": {"k": p}, "required": ["k"]}, _LEAF))


def _with(schema: dict, extra: dict) -> dict:
    """``schema`` with the keywords ``extra`` added where its values are decided: its member
    ``k``'s schema, its group's first branch, or itself."""
    if "properties" in schema:
        return {**schema, "properties": {"k": _with(schema["properties"]["k"], extra)}}
    for k in ("anyOf", "oneOf"):
        if k in schema:
            return {k: [_with(schema[k][0], extra), *schema[k][1:]]}
    return {**schema, **extra}


_PAIR = st.one_of(st.tuples(_SCHEMA, _SCHEMA),
                  st.builds(lambda s, e, flip: (_with(s, e), s) if flip else (s, _with(s, e)), _SCHEMA, _EXTRA,
                            st.booleans()))


@settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
@given(_PAIR)
def test_finite_groups_and_string_keywords_never_lose_a_value_unseen(pair):
    old, new = pair
    """Random groups of constants with string keywords (the shapes canons now read off): no value
    valid under old (both validators agree) and invalid under new is missed by a PATCH or
    MINOR, a PATCH keeps every value's verdict, and every backward witness is confirmed. The
    rules alone decide: no finding comes from the backing search (budget 0)."""
    result = classify(old, new, search_budget=0)
    # the rules decide: a document the backing search finds is one a proof missed
    assert "counter-example-found" not in {f.kind for f in result.findings}, result.findings
    vo, vn = Validators(old), Validators(new)
    values = [*_VALUES, *({"k": v} for v in _VALUES)]
    for x in values:
        before = vo.py(x) if vo.py(x) == vo.rs(x) else None
        after = vn.py(x) if vn.py(x) == vn.rs(x) else None
        if before is None or after is None:
            continue  # the validators disagree: no verdict to hold the classifier to
        if result.change_class != ChangeClass.MAJOR:
            assert not (before and not after), (x, result.change_class)
        if result.change_class == ChangeClass.PATCH:
            assert before == after, x
    for f in result.findings:
        if f.direction == "backward" and f.change_class == ChangeClass.MAJOR and not f.undecided:
            assert vo.py(f.witness) and not vn.py(f.witness), f
