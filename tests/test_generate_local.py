"""The generator's local validity asked of jsonschema-rs (evalport_spec/generate/local.py).

A differential test against the reference (python-jsonschema, :meth:`Walker.reference_valid`):
every question the generator asks while generating valid instances and counter-example
candidates of every schema of every version of this repository, and of hostile schemas, is
answered alike by both; where the two could read a schema differently the fast path declines
(``None``); and what the generator returns is the same with and without it.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import referencing
from jsonschema_specifications import REGISTRY as META_SCHEMAS

from evalport_spec.generate import api, generate_candidates, generate_valid, local, schema_kwargs
from evalport_spec.generate.local import LocalValidity
from evalport_spec.generate.walk import Node, Walker
from evalport_spec.spec import SpecRepo

REPO = SpecRepo(Path(__file__).resolve().parents[1])
VERSIONS = [*REPO.releases(), "draft"]


@pytest.fixture
def asked(monkeypatch):
    """Every (value, node, fast answer, reference answer) the generator asks about."""
    seen: list[tuple] = []

    def both(self, value, node):
        fast = self.local.is_valid(value, node.schema) if self.local is not None else None
        reference = self.reference_valid(value, node)
        seen.append((value, node, fast, reference))
        return reference

    monkeypatch.setattr(Walker, "valid", both)
    return seen


@pytest.mark.parametrize("version", VERSIONS)
def test_the_fast_answers_agree_with_the_reference_on_every_schema_of_the_repository(version, asked):
    schemas = REPO.version(version).schemas
    for name in schemas.files:
        generate_valid(**schema_kwargs(schemas, name), n=8, seed=3)
        generate_candidates(**schema_kwargs(schemas, name), n=20, seed=3)
    answered = [(v, n, f, r) for v, n, f, r in asked if f is not None]
    assert len(answered) > 0.9 * len(asked)  # the fast path does answer: every node is a location
    assert {(f, r) for _, _, f, r in answered} == {(True, True), (False, False)}
    assert [(v, n.schema) for v, n, f, r in answered if f != r] == []


def _local(schema, uri="https://example.test/s.json", format_assertion=True):
    target = api.Target(schema, referencing.Registry(), uri, format_assertion)
    return target.local, target


HOSTILE = {
    "patterns and names": ({"type": "object", "properties": {"a b/~%": {"type": "string", "pattern": "^[a-z]+$"}},
                            "patternProperties": {"^x-": {"type": "integer"}}, "additionalProperties": False},
                           [{"a b/~%": "abc"}, {"a b/~%": "ABC"}, {"x-1": 2}, {"x-1": "2"}, {"y": 1}, {}]),
    "formats asserted": ({"type": "string", "format": "date-time"},
                         ["2026-12-03T07:00:00Z", "2026-02-30T07:00:00Z", "2026-12-03t07:00:00z", "x"]),
    "references": ({"$defs": {"n": {"type": "integer", "minimum": 3}},
                    "type": "array", "items": {"$ref": "#/$defs/n"}},
                   [[3, 4], [2], [], ["3"]]),
    "unicode lengths": ({"type": "string", "minLength": 2, "maxLength": 2}, ["😀😀", "😀", "ab", "abc"]),
}


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_hostile_locations_are_answered_as_the_reference_does(case):
    schema, values = HOSTILE[case]
    local, target = _local(schema)
    walker = Walker(target.format_checker, local=None)
    subschemas = [schema, *_subschemas(schema)]
    for sub in subschemas:
        node = Node(sub, target.root.resolver, 2020)
        for value in values:
            fast = local.is_valid(value, sub)
            assert fast is not None, (case, sub)
            assert fast == walker.reference_valid(value, node), (case, sub, value)


def _subschemas(schema):
    out = []
    for key in ("properties", "patternProperties", "$defs"):
        out += list(schema.get(key, {}).values())
    if isinstance(schema.get("items"), dict):
        out.append(schema["items"])
    return out


@pytest.mark.parametrize("schema", [
    {"$dynamicAnchor": "node", "type": "object", "properties": {"next": {"$dynamicRef": "#node"}}},
    {"type": "string", "pattern": "\\bword"},  # jsonschema-rs's \b is Unicode, ECMA-262's ASCII
    {"$schema": "http://json-schema.org/draft-07/schema#", "type": "string"},
])
def test_sets_read_differently_are_left_to_the_reference(schema):
    local, _ = _local(schema)
    assert local.is_valid("word", schema) is None and local.is_valid({}, schema) is None


def test_a_registry_beyond_the_object_budget_is_left_to_the_reference(monkeypatch):
    # 32 JSON objects: the schema, its "properties" member and the 30 property schemas
    schema = {"type": "object", "properties": {f"p{i}": {"type": "integer"} for i in range(30)}}
    monkeypatch.setattr(local, "MAX_OBJECTS", 32)
    assert _local(schema)[0].is_valid({"p0": 1}, schema) is True
    monkeypatch.setattr(local, "MAX_OBJECTS", 31)
    assert _local(schema)[0].is_valid({"p0": 1}, schema) is None


def test_a_schema_the_walk_built_or_an_equal_copy_is_left_to_the_reference():
    schema = {"type": "object", "properties": {"a": {"const": 1}}}
    local, _ = _local(schema)
    assert local.is_valid({"a": 1}, schema) is True and local.is_valid({"a": 2}, schema) is False
    assert local.is_valid(1, schema["properties"]["a"]) is True
    assert local.is_valid({"a": 1}, {"type": "object", "properties": {"a": {"const": 1}}}) is None
    assert local.is_valid({"a": 2}, {"not": schema}) is None


def test_an_anonymous_schema_is_indexed_under_a_base_of_its_own_and_meta_schemas_are_not():
    schema = {"$defs": {"s": {"type": "string"}}, "$ref": "#/$defs/s"}
    target = api.Target(schema)
    assert target.local.is_valid("x", schema) is True and target.local.is_valid(1, schema) is False
    meta = META_SCHEMAS.contents("https://json-schema.org/draft/2020-12/schema")
    assert target.local.is_valid({}, meta) is None


def test_a_relative_reference_outside_an_anonymous_schema_leaves_it_to_the_reference():
    schema = {"$ref": "other.json"}
    assert LocalValidity(referencing.Registry().with_resource(
        "", referencing.jsonschema.DRAFT202012.create_resource(schema)), None).is_valid(1, schema) is None


@pytest.mark.parametrize("version", ["1.2.0", "draft"])
def test_what_the_generator_returns_does_not_change_with_the_fast_path(version, monkeypatch):
    schemas = REPO.version(version).schemas
    fast = {name: generate_valid(**schema_kwargs(schemas, name), n=12, seed=5) for name in schemas.files}
    monkeypatch.setattr(LocalValidity, "is_valid", lambda self, value, schema: None)
    slow = {name: generate_valid(**schema_kwargs(schemas, name), n=12, seed=5) for name in schemas.files}
    assert fast == slow and all(len(docs) == 12 for docs in fast.values())
