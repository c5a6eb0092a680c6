"""Places no edit reaches (:mod:`evalport_spec.compat.untouched`): the same schema on both sides
without a walk (:meth:`~evalport_spec.compat.subset.Checker.equal`). Expected values worked out
by hand from the schemas."""

from __future__ import annotations

from compat_pair import sset
from evalport_spec.compat.canon import Canonizer
from evalport_spec.compat.nodes import Node, Side
from evalport_spec.compat.sample import Sampler
from evalport_spec.compat.subset import Checker
from evalport_spec.compat.untouched import differing, reach


def test_differing_finds_the_outermost_places_where_json_texts_differ():
    old = {"a": 1, "b": [1, 2], "c": {"d": True, "e": "x"}, "f": {"g": 1}}
    new = {"a": 1.0, "b": [1, 2, 3], "c": {"d": 1, "e": "x"}, "f": {"g": 1, "h": 2}}
    assert sorted(differing(old, new)) == ["/a", "/b", "/c/d", "/f"]
    assert differing({"x~y": [0, {"z": None}]}, {"x~y": [0, {"z": False}]}) == ["/x~0y/1/z"]
    assert differing(old, old) == []


def test_reach_closes_seeds_over_ancestors_and_reference_holders():
    by_target = {("s.json", "/$defs/b"): [("s.json", "/$defs/a")],
                 ("s.json", "/$defs/a"): [("s.json", "/properties/p")]}
    got = reach([("s.json", "/$defs/b/minimum")], by_target)
    assert got == {("s.json", p) for p in ("/$defs/b/minimum", "/$defs/b", "/$defs", "", "/$defs/a",
                                           "/properties/p", "/properties")}


def _checker(old: dict, new: dict) -> Checker:
    so, sn = Side("old", sset(old, "old")), Side("new", sset(new, "new"))
    canon = Canonizer({"old": so, "new": sn})
    return Checker(canon, Sampler(canon))


def test_a_place_no_edit_reaches_is_equal_without_a_walk(monkeypatch):
    """Old and new differ only in $defs/b's minimum (1 -> 2). $defs/c (an object of two
    members, no reference) is reached by no edit: equal at once, its keywords never walked (the
    old code walked them). $defs/a refers to $defs/b, so it is reached: walked, and not equal."""
    defs = {"a": {"properties": {"x": {"$ref": "#/$defs/b"}}}, "b": {"minimum": 1},
            "c": {"properties": {"y": {"type": "string"}, "z": {"enum": [1, 2]}}}}
    old = {"$defs": defs, "anyOf": [{"$ref": "#/$defs/a"}, {"$ref": "#/$defs/c"}]}
    new = {"$defs": {**defs, "b": {"minimum": 2}}, "anyOf": [{"$ref": "#/$defs/a"}, {"$ref": "#/$defs/c"}]}
    walked = []
    real = Checker._eq

    def counting(self, a, va, b, vb):
        walked.append(a.ptr)
        return real(self, a, va, b, vb)

    monkeypatch.setattr(Checker, "_eq", counting)
    checker = _checker(old, new)
    assert checker.equal(Node("old", "s.json", "/$defs/c"), Node("new", "s.json", "/$defs/c"))
    assert walked == []
    assert not checker.equal(Node("old", "s.json", "/$defs/a"), Node("new", "s.json", "/$defs/a"))
    assert "/$defs/a" in walked and "/$defs/b" in walked


def test_a_reference_written_alike_that_resolves_elsewhere_is_an_edit():
    """Both sides write {"$ref": "urn:t#/v"} at $defs/h; old gives urn:t to $defs/p (whose v is
    a string), new to $defs/q (whose v is an integer): the holder is not the same schema on both
    sides, though neither it nor either target changed."""
    p, q = {"v": {"type": "string"}}, {"v": {"type": "integer"}}
    old = {"$defs": {"h": {"$ref": "urn:t#/v"}, "p": {"$id": "urn:t", **p}, "q": {"$id": "urn:u", **q}}}
    new = {"$defs": {"h": {"$ref": "urn:t#/v"}, "p": {"$id": "urn:u", **p}, "q": {"$id": "urn:t", **q}}}
    checker = _checker(old, new)
    assert not checker.equal(Node("old", "s.json", "/$defs/h"), Node("new", "s.json", "/$defs/h"))
    assert checker.equal(Node("old", "s.json", "/$defs/p/v"), Node("new", "s.json", "/$defs/p/v"))
