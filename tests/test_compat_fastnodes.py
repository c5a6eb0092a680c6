"""Compiled jsonschema-rs checks of subschemas (``compat.nodes.Side``): which subschemas get
one when a pattern of the set may read otherwise in jsonschema-rs than as ECMA-262, and how
many are kept at once.

Expected values are worked out by hand from the schemas below: ``\\:`` is an identity escape
in ECMA-262 that :func:`~evalport_spec.ecmaregex.jsonschema_rs_reads_alike` does not count as
read alike, so a subschema that may apply it must be checked by python-jsonschema alone.
"""

from __future__ import annotations

import pytest

from compat_corpus.oracle import schema_set
from evalport_spec.compat import nodes
from evalport_spec.compat.nodes import Node, Side, synthetic
from evalport_spec.ecmaregex import jsonschema_rs_reads_alike
from evalport_spec.rsvalidator import available

pytestmark = pytest.mark.skipif(not available(), reason="jsonschema-rs not installed")

UNLIKE = "^[^\\:]+$"  # strings without a colon (ECMA-262: "\:" is ":")

SCHEMA = {
    "$schema": "http://json-schema.org/draft-07/schema#",
    "definitions": {
        "branch": {"type": "string", "pattern": UNLIKE},
        "name": {"type": "string", "maxLength": 3},
        "pair": {"type": "array", "items": {"$ref": "#/definitions/name"}},
    },
    "type": "object",
    "properties": {"b": {"$ref": "#/definitions/branch"}, "n": {"$ref": "#/definitions/name"},
                   "p": {"$ref": "#/definitions/pair"}},
}


def _side(schema: dict) -> Side:
    return Side("old", schema_set({"s.json": schema}, "old"))


def _node(ptr: str) -> Node:
    return Node("old", "s.json", ptr)


def test_the_pattern_is_one_jsonschema_rs_may_read_otherwise():
    assert not jsonschema_rs_reads_alike(UNLIKE)


@pytest.mark.parametrize(("ptr", "reaches"), [
    ("", True),  # the root applies /properties/b, which refers to the pattern's subschema
    ("/properties/b", True),
    ("/definitions/branch", True),
    ("/properties/n", False),
    ("/definitions/name", False),
    ("/properties/p", False),  # through two references, never to the pattern
    ("/definitions/pair/items", False),
])
def test_which_subschemas_may_apply_the_pattern(ptr, reaches):
    assert _side(SCHEMA).reaches_unlike_pattern(_node(ptr)) is reaches


def test_a_subschema_away_from_the_pattern_is_confirmed_by_both_validators():
    # before: one such pattern anywhere in the set left every subschema without a compiled
    # check, so confirms() answered None ("cannot tell") everywhere
    side = _side(SCHEMA)
    assert side.confirms(_node("/properties/n"), "abc") is True
    assert side.confirms(_node("/properties/n"), "abcd") is False  # maxLength 3
    assert side.confirms(_node("/properties/p"), ["ab", "abcd"]) is False
    assert side.confirms(_node("/properties/p"), ["ab", "cd"]) is True


def test_a_subschema_that_may_apply_the_pattern_has_no_compiled_check():
    side = _side(SCHEMA)
    assert side.confirms(_node("/properties/b"), "main") is None
    assert side.confirms(_node(""), {"b": "a:b"}) is None
    # python-jsonschema (the reference) still decides: "a:b" has a colon
    assert side.valid(_node("/properties/b"), "a:b") is False
    assert side.valid(_node("/properties/b"), "main") is True


def test_synthetic_nodes():
    side = _side(SCHEMA)
    assert side.reaches_unlike_pattern(synthetic("old", {"type": "string", "maxLength": 2})) is False
    assert side.reaches_unlike_pattern(synthetic("old", {"not": {"pattern": UNLIKE}})) is True
    assert side.reaches_unlike_pattern(
        synthetic("old", {"$ref": "s.json#/definitions/name"})) is True  # a reference: not followed


def test_a_dynamic_anchor_makes_every_subschema_count():
    schema = {"$dynamicAnchor": "node", "type": "object",
              "properties": {"b": {"type": "string", "pattern": UNLIKE}, "n": {"type": "string"}}}
    assert _side(schema).reaches_unlike_pattern(_node("/properties/n")) is True


def test_without_such_a_pattern_nothing_counts():
    schema = {"type": "object", "properties": {"n": {"type": "string", "pattern": "^a+$"}}}
    side = _side(schema)
    assert side.reaches_unlike_pattern(_node("")) is False
    assert side.confirms(_node("/properties/n"), "aa") is True


def test_at_most_the_cap_of_compiled_checks_is_kept(monkeypatch):
    monkeypatch.setattr(nodes, "FAST_NODE_CHECKS", 3)
    schema = {"type": "object",
              "properties": {f"p{i}": {"type": "integer", "maximum": i} for i in range(8)}}
    side = _side(schema)
    for _ in range(2):  # the second round compiles the dropped checks again
        for i in range(8):
            node = _node(f"/properties/p{i}")
            assert side.confirms(node, i) is True
            assert side.confirms(node, i + 1) is False
            assert len(side._fast_node) <= 3


def test_screening_compiles_a_check_only_for_a_subschema_asked_again_and_again():
    side = _side(SCHEMA)
    node = _node("/properties/n")  # maxLength 3
    for i in range(nodes.FAST_NODE_AFTER):  # the reference answers the first few
        assert side.quick_valid(node, "abcd"[:i + 1]) is (i < 3)
    assert len(side._fast_node) == 0
    assert side.valid(node, "abcd") is False  # asked once more: now compiled
    assert len(side._fast_node) == 1
    assert side.quick_valid(node, "ab") is True
    assert side.confirms(_node("/definitions/name"), "abcd") is False  # confirms: at once
    assert len(side._fast_node) == 2


def test_a_subschema_asked_a_dozen_times_is_answered_by_the_reference_without_compiling():
    """Compiling a subschema's check costs more than a few reference answers (a large schema's
    subschema near its root compiles everything it reaches): twelve screening questions about
    one subschema, each answered right, leave nothing compiled."""
    side = _side(SCHEMA)
    node = _node("/properties/n")  # maxLength 3: "", "a", ..., "aaa" valid, longer not
    for i in range(12):
        assert side.quick_valid(node, "a" * i) is (i <= 3)
    assert len(side._fast_node) == 0


def test_the_reference_is_asked_once_per_subschema_and_instance(monkeypatch):
    """A subschema no compiled check may decide (validating it may apply a pattern jsonschema-rs
    may read otherwise) is validated by python-jsonschema; the same document asked again is
    answered from what the reference said (the witness searches of a large schema repeat
    documents: issue 16), a document written another way (``1.0`` against ``1``) is asked anew.
    By hand: ``UNLIKE`` rejects a string holding ``:`` ("a:b") and accepts "ab"; draft-04's
    ``integer`` rejects ``1.0`` (the pattern there only keeps the compiled check out)."""
    asked = []
    real = nodes._guarded
    monkeypatch.setattr(nodes, "_guarded", lambda fn, x: asked.append(x) or real(fn, x))
    side = _side(SCHEMA)
    branch = Node("old", "s.json", "/definitions/branch")
    assert side.reaches_unlike_pattern(branch)
    answers = [side.quick_valid(branch, x) for x in ("ab", "a:b", "ab", "a:b")]
    assert answers == [True, False, True, False]
    assert asked == ["ab", "a:b"]
    d4 = Side("old", schema_set({"s.json": {"$schema": "http://json-schema.org/draft-04/schema#",
                                            "type": "integer", "pattern": UNLIKE}}, "old"))
    root = Node("old", "s.json", "")
    asked.clear()
    assert [d4.valid(root, x) for x in (1, 1.0, 1, 1.0)] == [True, False, True, False]
    assert asked == [1, 1.0]


@pytest.mark.parametrize("allowed", [True, False])
def test_a_draft04_boolean_subschema_is_validated_as_what_it_allows(allowed):
    """Draft-04 reads ``"additionalProperties": true`` as "any other member", ``false`` as "no
    other member" (draft-04 Validation 5.4.4); there the boolean is no schema. A node at that
    place answers as the boolean says, by both validators (python-jsonschema used to fail on the
    reference to it, a TypeError read as "not valid")."""
    schema = {"$schema": "http://json-schema.org/draft-04/schema#", "additionalProperties": allowed,
              "properties": {"a": {"type": "integer"}}}
    side = _side(schema)
    node = _node("/additionalProperties")
    for instance in ({}, [], "x", {"x": [1]}):
        assert side.valid(node, instance) is allowed
        assert side.quick_valid(node, instance) is allowed
        assert side.confirms(node, instance) is allowed


def test_a_file_verdict_of_not_valid_is_read_off_the_screening_reading(monkeypatch):
    """Confirming that a file rejects a witness asks the screening reading first (branches read
    to their first error): its "not valid" stands without the full reading, which lists every
    error of every branch; where the screening accepts, the full reading still decides."""
    schema = {"$schema": "http://json-schema.org/draft-07/schema#",
              "anyOf": [{"type": "integer"}, {"type": "string", "maxLength": 2}]}
    side = _side(schema)
    asked = []
    reference = Side._reference
    monkeypatch.setattr(Side, "_reference",
                        lambda self, key, v, x: asked.append((key[0], x)) or reference(self, key, v, x))
    assert side.file_confirms("s.json", "abc") is False  # a string over 2 code points: no branch
    assert side.file_confirms("s.json", 1.5) is False  # a number that is no integer: no branch
    assert [x for kind, x in asked if kind == "file"] == []
    assert side.file_confirms("s.json", "ab") is True
    assert side.file_confirms("s.json", 7) is True
    assert [x for kind, x in asked if kind == "file"] == ["ab", 7]  # accepted: the full reading decides


def test_a_plain_verdict_of_not_valid_is_read_off_the_screening_reading(monkeypatch):
    """python-jsonschema's own reading (Python ``re``) is asked with branches read to their first
    error first; its "not valid" stands, an acceptance goes to the full reading. Python's ``$``
    also matches before a final newline, so ``"ab\\n"`` passes ``^ab$`` there."""
    schema = {"$schema": "http://json-schema.org/draft-07/schema#",
              "anyOf": [{"type": "integer"}, {"type": "string", "pattern": "^ab$"}]}
    side = _side(schema)
    asked = []
    reference = Side._reference
    monkeypatch.setattr(Side, "_reference",
                        lambda self, key, v, x: asked.append((key[0], x)) or reference(self, key, v, x))
    assert side.plain_file_valid("s.json", "abc") is False
    assert side.plain_file_valid("s.json", 1.5) is False
    assert [x for kind, x in asked if kind == "plain"] == []
    assert side.plain_file_valid("s.json", "ab\n") is True
    assert side.plain_file_valid("s.json", 3) is True
    assert [x for kind, x in asked if kind == "plain"] == ["ab\n", 3]
