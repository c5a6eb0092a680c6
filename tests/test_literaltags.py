"""``anyOf``/``oneOf`` branches ruled out by a member's anchored literal pattern
(:mod:`evalport_spec.literaltags`), in the verdict readings of :mod:`evalport_spec.pyvalidator`.

Expected verdicts come from python-jsonschema itself (its own ``Draft7Validator``, full reading,
Python ``re``) and, for the ECMA-262 reading, by hand: ``^Task@3$`` matches exactly ``"Task@3"``
(ECMA-262 ``$`` is the end of the input) while Python's ``$`` also accepts ``"Task@3\\n"``.
"""

from __future__ import annotations

import jsonschema
import pytest

from evalport_spec import literaltags
from evalport_spec.literaltags import literal_tags, ruled_out
from evalport_spec.pyvalidator import exact_validator, library_validator


def _branch(i: int) -> dict:
    return {"type": "object", "required": ["task"],
            "properties": {"task": {"pattern": f"^Task@{i}$"}, "inputs": {"type": "object",
                                                                          "maxProperties": i}}}


BRANCHES = [_branch(i) for i in range(10)] + [
    {"$ref": "#/definitions/free"},  # a $ref: never ruled out (draft-07 ignores its siblings)
    {"properties": {"task": {"pattern": "^Any.*$"}}, "required": ["other"]},  # no literal
]
SCHEMA = {"$schema": "http://json-schema.org/draft-07/schema#",
          "definitions": {"free": {"required": ["free"]}},
          "anyOf": BRANCHES}
ONE_OF = {**SCHEMA, "anyOf": None, "oneOf": BRANCHES}
del ONE_OF["anyOf"]

INSTANCES = [
    {"task": "Task@3"}, {"task": "Task@3", "inputs": {"a": 1, "b": 2, "c": 3, "d": 4}},
    {"task": "Task@3\n"}, {"task": "Task@11"}, {"task": "task@3"}, {"task": 3}, {"task": None},
    {"inputs": {}}, {"free": 1, "task": "nothing"}, {"other": 1, "task": "Any thing"}, [], "Task@3", {},
]


def test_the_tags_name_the_member_and_each_branch_literal():
    assert literal_tags(BRANCHES) == ("task", [f"Task@{i}" for i in range(10)] + [None, None])
    assert literal_tags(BRANCHES[:literaltags.MIN_BRANCHES - 1]) is None  # small groups: as they are
    assert literal_tags([{"type": "string"}] * 9) is None


@pytest.mark.parametrize(("instance", "out"), [
    ({"task": "Task@4"}, True), ({"task": "Task@3"}, False), ({"task": "Task@3\n"}, False),
    ({"task": 3}, False), ({}, False), ([], False), ("Task@4", False),
])
def test_a_branch_is_ruled_out_only_by_another_string(instance, out):
    assert ruled_out(literal_tags(BRANCHES), 3, instance) is out


@pytest.mark.parametrize("schema", [SCHEMA, ONE_OF], ids=["anyOf", "oneOf"])
def test_the_verdict_readings_agree_with_the_full_ones(schema):
    full = jsonschema.Draft7Validator(schema)  # python-jsonschema as shipped: the judge
    plain = library_validator(jsonschema.Draft7Validator, True)(schema)
    exact = exact_validator(jsonschema.Draft7Validator, True)(schema)
    for x in INSTANCES:
        assert plain.is_valid(x) is full.is_valid(x), x
        ecma = full.is_valid(x) and x != {"task": "Task@3\n"}  # "$" before a final newline: Python only
        assert exact.is_valid(x) is ecma, x


def test_ruled_out_branches_are_not_read(monkeypatch):
    cls = exact_validator(jsonschema.Draft7Validator, True)
    read = []
    descend = cls.descend

    def counted(self, instance, schema, *args, **kwargs):
        read.append(schema)
        return descend(self, instance, schema, *args, **kwargs)

    monkeypatch.setattr(cls, "descend", counted)
    assert cls(SCHEMA).is_valid({"task": "Task@7"}) is True
    assert not any(b in read for b in BRANCHES[:7])  # branches 0..6 ruled out, 7 read and valid
