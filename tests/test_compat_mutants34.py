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
    return jsonschema.validators.validator_for(schema)(schema)


def pool_arrays(limit: int = 3) -> list:
    """Every array of up to ``limit`` items drawn from :data:`POOL`."""
    return [list(t) for n in range(limit + 1) for t in itertools.product(POOL, repeat=n)]


def check(old, new, lost, pool=()):
    """The old -> new verdict is MAJOR exactly when ``lost`` is a document (confirmed lost by
    python-jsonschema); for ``NONE``, no document of ``pool`` is lost (python-jsonschema)."""
    vo, vn = _validator(old), _validator(new)
    if lost is NONE:
        assert [x for x in pool if vo.is_valid(x) and not vn.is_valid(x)] == []
    else:
        assert vo.is_valid(lost) and not vn.is_valid(lost)
    c = compare(sset(old, "old"), sset(new, "new"), search_budget=0)
    assert (c.change_class is ChangeClass.MAJOR) is (lost is not NONE), c.findings


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
