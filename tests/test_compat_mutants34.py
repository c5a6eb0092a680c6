"""Pairs that kill the classifier's surviving mutants (mutmut, session 34): each pair tells a
mutated rule from the real one. A pair whose old schema loses a document carries that document,
and python-jsonschema confirms it is valid under the old schema and invalid under the new one;
a pair that loses none says why in a comment (a hand proof), and a pool of documents aimed at
its boundary is checked with python-jsonschema too. The expected verdict never comes from the
classifier's output."""

from __future__ import annotations

import itertools

import jsonschema
import pytest

from compat_pair import sset
from evalport_spec.compat import compare
from evalport_spec.findings import ChangeClass

NONE = object()  # no document lost: the pair is an inclusion
POOL = [None, True, 0, 1, 1.5, "", "a", "b", "ab", [], {}, {"a": 1}, [1], ["a"], [None]]
"""Items the boundary pools are made of."""


def _validator(schema):
    """python-jsonschema's validator of ``schema``'s dialect, ``format`` asserted (as the
    classifier reads it by default)."""
    cls = jsonschema.validators.validator_for(schema)
    return cls(schema, format_checker=cls.FORMAT_CHECKER)


def pool_arrays(limit: int = 3) -> list:
    """Every array of up to ``limit`` items drawn from :data:`POOL`."""
    return [list(t) for n in range(limit + 1) for t in itertools.product(POOL, repeat=n)]


def check(old, new, lost, pool=()):
    """The old -> new verdict is MAJOR exactly when ``lost`` is a document (confirmed lost by
    python-jsonschema); for ``NONE``, no document of ``pool`` is lost (python-jsonschema).
    Returns the classification."""
    vo, vn = _validator(old), _validator(new)
    if lost is NONE:
        assert [x for x in pool if vo.is_valid(x) and not vn.is_valid(x)] == []
    else:
        assert vo.is_valid(lost) and not vn.is_valid(lost)
    c = compare(sset(old, "old"), sset(new, "new"), search_budget=0)
    assert (c.change_class is ChangeClass.MAJOR) is (lost is not NONE), c.findings
    for f in c.findings:  # and no witness is false
        if f.direction == "backward" and (f.witness is not None or f.extra.get("witness_is_null")):
            assert vo.is_valid(f.witness) and not vn.is_valid(f.witness), (f.kind, f.witness)
    return c


STR, INT = {"type": "string"}, {"type": "integer"}
CONTAINS = [
    # minItems alone does not make items match `contains` ([1] has one item, no string)
    ({"type": "array", "minItems": 1}, {"contains": STR}, [1]),
    # one string position of two required ones counts once, not twice
    ({"prefixItems": [STR], "minItems": 1}, {"contains": STR, "minContains": 2}, ["a"]),
    # an integer position does not count towards a string `contains`
    ({"prefixItems": [INT], "minItems": 1}, {"contains": STR}, [1]),
    # two string positions every array has: two matches (minContains 2 holds)
    ({"prefixItems": [STR, STR], "minItems": 2}, {"contains": STR, "minContains": 2}, NONE),
    # the old contains (const "a", at least 2) implies the new one (string, at least 2)
    ({"contains": {"const": "a"}, "minContains": 2}, {"contains": STR, "minContains": 2}, NONE),
    # an old integer `contains` implies nothing about strings
    ({"contains": INT}, {"contains": STR}, [1]),
    # maxItems 3 does not bound the strings by 1
    ({"maxItems": 3}, {"contains": STR, "minContains": 0, "maxContains": 1}, ["a", "b"]),
    # two string positions then integers: at most two strings
    ({"prefixItems": [STR, STR], "items": INT}, {"contains": STR, "minContains": 0, "maxContains": 2}, NONE),
    ({"prefixItems": [STR, STR], "items": INT}, {"contains": STR, "minContains": 0, "maxContains": 1}, ["a", "b"]),
    # at most one string (old maxContains) bounds the "a"s (a subset of strings) by one
    ({"contains": STR, "maxContains": 1}, {"contains": {"const": "a"}, "minContains": 0, "maxContains": 1}, NONE),
    # at most two strings does not bound the "a"s by one
    ({"contains": STR, "maxContains": 2}, {"contains": {"const": "a"}, "minContains": 0, "maxContains": 1},
     ["a", "a"]),
]


@pytest.mark.parametrize(("old", "new", "lost"), CONTAINS)
def test_contains_counting(old, new, lost):
    check(old, new, lost, pool_arrays())


NUM = {"type": "number"}
BOUNDS = [
    # an inclusive bound made exclusive at the same value loses that value
    ({**NUM, "maximum": 1}, {**NUM, "exclusiveMaximum": 1}, 1),
    ({**NUM, "minimum": 1}, {**NUM, "exclusiveMinimum": 1}, 1),
    # the same bound on both sides (exclusive, or inclusive) covers itself
    ({**NUM, "exclusiveMaximum": 1, "minimum": 0}, {**NUM, "exclusiveMaximum": 1}, NONE),
    ({**NUM, "maximum": 1, "minimum": 0}, {**NUM, "maximum": 1}, NONE),
    ({**NUM, "minimum": 1, "maximum": 5}, {**NUM, "minimum": 1}, NONE),
    # a lower upper bound covers a higher one; a higher one, exclusive or not, does not
    ({**NUM, "maximum": 0.5}, {**NUM, "maximum": 1}, NONE),
    ({**NUM, "exclusiveMaximum": 2}, {**NUM, "maximum": 1}, 1.5),
    ({**NUM, "maximum": 2}, {**NUM, "maximum": 1}, 2),
    ({**NUM, "minimum": 1}, {**NUM, "minimum": 2}, 1),
    # integers: bounds compare after rounding to the integers they admit
    ({"type": "integer", "exclusiveMinimum": 1.2}, {"type": "integer", "exclusiveMinimum": 1.5}, NONE),  # both >= 2
    ({"type": "integer", "minimum": 0.5}, {"type": "integer", "exclusiveMinimum": 0.5}, NONE),  # both >= 1
    ({"type": "integer", "maximum": 1.5}, {"type": "integer", "maximum": 1.2}, NONE),  # both <= 1
    ({"type": "integer", "maximum": 2.5}, {"type": "integer", "maximum": 1.2}, 2),
]


@pytest.mark.parametrize(("old", "new", "lost"), BOUNDS)
def test_number_bounds(old, new, lost):
    check(old, new, lost, [0, 0.5, 1, 1.5, 2, 1.2, 1.8, -1, 3, 10, 0.9, 2.0, 1.0, -0.5, 5, 6])


STRINGS_AND_NAMES = [
    # "" is the one string of ^$, and maxLength 0 holds exactly ""
    ({"type": "string", "pattern": "^$"}, {"type": "string", "maxLength": 0}, NONE),
    # a format that asserts nothing in this dialect does not hide the next one, which does
    ({"type": "string"}, {"type": "string", "allOf": [{"format": "x-unknown"}, {"format": "date"}]}, ""),
    # ^k8$ holds only "k8" (ECMA-262 $), one of the values
    ({"type": "string", "pattern": "^k8$"}, {"enum": ["k8", "x"]}, NONE),
    # lookaheads have no language: the two oneOf branches are not known to be disjoint ("a"
    # matches both)
    ({"type": "string", "pattern": "^(?=a)"},
     {"oneOf": [{"type": "string", "pattern": "^(?=a)"}, {"type": "string", "pattern": "^(?=a)."}]}, "a"),
    # a patternProperties regex with no language still has its members compared
    ({"type": "object", "patternProperties": {"^(?=a)": {"type": "string"}}},
     {"type": "object", "patternProperties": {"^(?=a)": {"type": "integer"}}}, {"a": "x"}),
    # two objects with different patternProperties in one schema: each has its own cells
    ({"properties": {"x": {"patternProperties": {"^a": {"type": "string"}}},
                     "y": {"patternProperties": {"^b": {"type": "string"}}}}},
     {"properties": {"x": {"patternProperties": {"^a": {"type": ["string", "null"]}}},
                     "y": {"patternProperties": {"^b": {"type": "integer"}}}}}, {"y": {"b": "s"}}),
    # names all start with "a", so none matches ^b: the ^b entry meets no member
    ({"propertyNames": {"pattern": "^a"}, "patternProperties": {"^b": {"type": "string"}}},
     {"propertyNames": {"pattern": "^a"}, "patternProperties": {"^b": {"type": "integer"}}}, NONE),
]


@pytest.mark.parametrize(("old", "new", "lost"), STRINGS_AND_NAMES)
def test_string_languages_and_member_names(old, new, lost):
    check(old, new, lost, ["", "a", "ab", "k8", "x", "2020-01-01", {"a": "x"}, {"b": "s"}, {"a": 1}, {"y": {"b": "s"}},
                           {"ab": 1}, {"b": 1}])


@pytest.mark.parametrize(("code", "a_min", "a_max", "n", "implied"), [
    ("minLength", 3, None, 2, True), ("minLength", 3, None, 3, True), ("minLength", 2, None, 3, False),
    ("minLength", None, 5, 1, False),
    ("maxLength", None, 3, 4, True), ("maxLength", None, 3, 3, True), ("maxLength", None, 4, 3, False),
    ("maxLength", 1, None, 9, False),
])
def test_length_bounds_implied_by_the_old_bounds(code, a_min, a_max, n, implied):
    # the fallback when the automata cannot answer: an old minLength m implies a new minLength n
    # iff m >= n; an old maxLength m a new maxLength n iff m <= n; no old bound implies nothing
    from types import SimpleNamespace as NS

    from evalport_spec.compat.scalars import ScalarRules
    A = NS(min_len=NS(value=a_min) if a_min is not None else None, max_len=NS(value=a_max) if a_max is not None else None)
    assert ScalarRules._length_implied(A, NS(code=code, text=str(n))) is implied


@pytest.mark.parametrize(("old", "new", "lost", "kind"), [
    ({**NUM, "minimum": 1}, {**NUM, "exclusiveMinimum": 1}, 1, "minimum-increased"),
    ({**NUM, "minimum": 1}, {**NUM, "minimum": 2}, 1, "minimum-increased"),
    ({"type": "string"}, {"type": "string", "allOf": [{"format": "x-unknown"}, {"format": "date"}]}, "",
     "format-added"),
])
def test_the_finding_names_the_keyword_not_only_the_search(old, new, lost, kind):
    # the counter-example search would find the lost document anyway; the finding must name the
    # keyword (its kind is part of the fingerprint an RFC accepts)
    c = check(old, new, lost)
    assert kind in {f.kind for f in c.findings if f.direction == "backward"}


ARR = {"type": "array"}
UNIQUE = [
    # two distinct booleans exist, so uniqueItems with minItems 2 still has [true, false]
    ({**ARR, "items": {"type": "boolean"}, "uniqueItems": True, "minItems": 2}, {**ARR, "maxItems": 1}, [True, False]),
    ({**ARR, "items": {"type": ["null", "boolean"]}, "uniqueItems": True, "minItems": 3}, {**ARR, "maxItems": 2},
     [None, True, False]),
    ({**ARR, "items": {"enum": [1, 2]}, "uniqueItems": True, "minItems": 2}, {**ARR, "maxItems": 1}, [1, 2]),
    # the values of every position count: 1 at the first, true and false after it
    ({**ARR, "prefixItems": [{"const": 1}], "items": {"type": "boolean"}, "uniqueItems": True, "minItems": 3},
     {**ARR, "maxItems": 2}, [1, True, False]),
    ({**ARR, "prefixItems": [{"type": "boolean"}, {"type": "boolean"}], "items": {"const": 1}, "uniqueItems": True,
      "minItems": 3}, {**ARR, "maxItems": 2}, [True, False, 1]),
    # no item schema: any values, so no bound from the domain
    ({**ARR, "uniqueItems": True, "minItems": 2}, {**ARR, "maxItems": 1}, [1, 2]),
    # three values (null, true, false) cannot fill four unique items, one (null) cannot fill two:
    # the old schema accepts no document at all
    ({**ARR, "items": {"type": ["null", "boolean"]}, "uniqueItems": True, "minItems": 4}, {**ARR, "maxItems": 0}, NONE),
    ({**ARR, "items": {"type": "null"}, "uniqueItems": True, "minItems": 2}, {**ARR, "maxItems": 0}, NONE),
]


@pytest.mark.parametrize(("old", "new", "lost"), UNIQUE)
def test_unique_items_over_a_small_item_domain(old, new, lost):
    pool = [list(t) for n in range(5) for t in itertools.product([None, True, False, 1, 2], repeat=n)]
    c = check(old, new, lost, pool)
    if lost is not NONE:  # found by the length rule, not only by the search
        assert "max-items-decreased" in {f.kind for f in c.findings if f.direction == "backward"}


def test_positions_past_the_old_length_are_never_reached():
    # old arrays have at most one item: the new string schema at index 1 meets none of them
    check({**ARR, "maxItems": 1}, {**ARR, "prefixItems": [{}, {"type": "string"}]}, NONE,
          [[], [1], ["a"], [None]])
    check({**ARR, "maxItems": 2}, {**ARR, "prefixItems": [{}, {"type": "string"}]}, [1, 1])


def test_unbounded_arrays_are_not_pairwise_distinct():
    # [1, 1] is lost; the finding is uniqueItems' own, not only the search's
    c = check(ARR, {**ARR, "uniqueItems": True}, [1, 1])
    assert "unique-items-added" in {f.kind for f in c.findings if f.direction == "backward"}


OBJ = {"type": "object"}
NAMES = [
    # a closed object's names are its declared ones: "Bc" breaks the new propertyNames
    ({**OBJ, "properties": {"a": {}, "Bc": {}}, "additionalProperties": False},
     {**OBJ, "properties": {"a": {}, "Bc": {}}, "additionalProperties": False, "propertyNames": {"pattern": "^[a-z]+$"}},
     {"Bc": 1}),
    # ... every declared name fits maxLength 2
    ({**OBJ, "properties": {"a": {}, "Bc": {}}, "additionalProperties": False},
     {**OBJ, "properties": {"a": {}, "Bc": {}}, "additionalProperties": False, "propertyNames": {"maxLength": 2}}, NONE),
    # ... a member whose schema is false never appears
    ({**OBJ, "properties": {"a": {}, "Bc": False}, "additionalProperties": False},
     {**OBJ, "properties": {"a": {}, "Bc": False}, "additionalProperties": False,
      "propertyNames": {"pattern": "^[a-z]+$"}}, NONE),
    # an open object takes any name
    ({**OBJ, "properties": {"a": {}}}, {**OBJ, "properties": {"a": {}}, "propertyNames": {"maxLength": 1}}, {"bc": 1}),
]


@pytest.mark.parametrize(("old", "new", "lost"), NAMES)
def test_property_names_of_closed_and_open_objects(old, new, lost):
    check(old, new, lost, [{}, {"a": 1}, {"Bc": 1}, {"a": 1, "Bc": 2}, {"bc": 1}, {"x": 1}])


def test_a_small_closed_object_is_enumerated_and_its_lost_document_found():
    # every document of the old schema is one of {}, {"a": 1}, {"a": 2}: {"a": 2} is lost
    old = {**OBJ, "properties": {"a": {"enum": [1, 2]}}, "additionalProperties": False}
    check(old, {**OBJ, "properties": {"a": {"enum": [1]}}, "additionalProperties": False}, {"a": 2})
    check(old, {**OBJ, "properties": {"a": {"enum": [1, 2, 3]}}, "additionalProperties": False}, NONE,
          [{}, {"a": 1}, {"a": 2}, {"a": 3}, {"b": 1}])
