"""A group branch tried with the old side's own disjunctions whole, where a failure only makes the
caller split them, is asked whether it fails, not for all its failures
(:meth:`~evalport_spec.compat.subset.Checker.deciding`). Verdicts and witnesses are judged by
python-jsonschema and jsonschema-rs on the raw schemas (:mod:`compat_corpus.oracle`)."""

from __future__ import annotations

from compat_corpus.oracle import Validators, classify, lost, witness_of


def chain(depth: int, leaf: dict) -> dict:
    """An object nested ``depth`` levels: each requires member ``m<i>`` (the next level) and
    declares ``x<i>``, an enum of three strings; ``leaf`` innermost."""
    s = leaf
    for i in range(depth):
        s = {"type": "object", "required": [f"m{i}"], "properties": {f"m{i}": s, f"x{i}": {"enum": ["a", "b", "c"]}}}
    return s


def test_a_whole_attempt_stops_at_its_first_failure():
    """Old: a root oneOf of a 30-level chain ending in enum [a, b], and a string; new: the same
    with "b" removed innermost. The root oneOf is first tried whole (anything against the new
    chain branch): the branch requires m29, so the try fails at once and the root splits. By
    hand: MAJOR, the object reaching "b" through m29 ... m0 lost (python-jsonschema and
    jsonschema-rs agree). The split compares each level about three times over the two
    directions (93 cases); before, each whole try also compared "anything" against every level
    of the chain, each of its members and enums (213)."""
    old = {"oneOf": [chain(30, {"enum": ["a", "b"]}), {"type": "string"}]}
    new = {"oneOf": [chain(30, {"enum": ["a"]}), {"type": "string"}]}
    c = classify(old, new)
    back = [f for f in c.findings if f.direction == "backward"]
    assert str(c.change_class) == "MAJOR" and len(back) == 1 and not back[0].undecided
    w = witness_of(back[0])
    assert w is not None and lost(Validators(old), Validators(new), w[0])
    assert str(c.forward_class) == "MINOR"  # new ⊆ old: one value fewer
    assert c.stats["cases"] <= 100


def _checker(old: dict, new: dict):
    from compat_pair import sset
    from evalport_spec.compat.canon import Canonizer
    from evalport_spec.compat.nodes import Side
    from evalport_spec.compat.sample import Sampler
    from evalport_spec.compat.subset import Checker

    so, sn = Side("old", sset(old, "old")), Side("new", sset(new, "new"))
    canon = Canonizer({"old": so, "new": sn})
    checker = Checker(canon, Sampler(canon))
    return checker, canon.nodes(so.root("s.json")), canon.nodes(sn.root("s.json"))


def test_a_decided_failure_is_never_the_pairs_result():
    """Old: any object; new: objects whose member c, if any, is an integer and d a string. Asked
    only whether it fails, the check stops at the first member (in name order); asked afterwards
    in full, the same pair reports both (by hand: {"c": "x"} and {"d": 1} are lost), and a full
    result serves a later decision as it is."""
    checker, A, B = _checker({"type": "object"}, {"type": "object", "properties": {"c": {"type": "integer"},
                                                                                   "d": {"type": "string"}}})
    with checker.deciding():
        first = checker.check(A, B)
    assert [f.path for f in first] == [("c",)]
    full = checker.check(A, B)
    assert sorted(f.path for f in full) == [("c",), ("d",)]
    with checker.deciding():
        assert checker.check(A, B) is full


def test_a_proof_made_while_deciding_is_the_pairs_proof():
    """Old: objects with an integer member a of at least 1; new: objects whose member a, if
    any, is a number. Proved while only asked whether it fails: the proof is complete (no
    obligation is skipped before a failure) and is the pair's result afterwards, with its
    derivation."""
    checker, A, B = _checker({"type": "object", "properties": {"a": {"type": "integer", "minimum": 1}}},
                             {"type": "object", "properties": {"a": {"type": "number"}}})
    with checker.deciding():
        assert checker.check(A, B) == []
    assert checker.check(A, B) == []
    assert [s.rule for _, s in checker.derivation(A, B)] != []
