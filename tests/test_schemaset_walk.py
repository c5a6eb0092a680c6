"""schemaset: one walk of a file serves its references, patterns and the plain-reading question."""

from __future__ import annotations

import json

import pytest

from evalport_spec.jsonload import loads
from evalport_spec.schemaset import SchemaSet


def sset(schema) -> SchemaSet:
    return SchemaSet.from_loaded({"s.json": loads(json.dumps(schema), "s.json")}, "t")


def test_references_and_patterns_come_from_one_walk():
    s = sset({"$defs": {"a/b": {"pattern": "^x"}}, "properties": {"p": {"$ref": "#/$defs/a~1b"}},
              "patternProperties": {"^y": {"enum": [{"pattern": "data, not a schema"}]}}})
    [f] = list(s)
    assert sorted((p, src) for _, p, src in s.patterns()) == [("/$defs/a~1b/pattern", "^x"),
                                                               ("/patternProperties/^y", "^y")]
    assert [(p, ref) for _, p, ref, _ in s.references()] == [("/properties/p/$ref", "#/$defs/a~1b")]
    assert f.walk() is f.walk()  # walked once


@pytest.mark.parametrize(("schema", "differs"), [
    ({"enum": ["a", 1.0], "maxLength": 3, "format": "date-time"}, False),  # read the same by both
    ({"properties": {"x": {"pattern": "^a$"}}}, True),  # Python re: "$" before a final newline
    ({"patternProperties": {"^a$": {}}}, True),
    ({"items": {"multipleOf": 0.1}}, True),  # binary doubles: 0.3 is no multiple of 0.1
    ({"format": "regex"}, True),
    ({"enum": [{"pattern": "^a$", "multipleOf": 0.1}]}, False),  # enum data, not keywords
])
def test_plain_python_jsonschema_reads_alike_only_without_regex_or_multipleof(schema, differs):
    assert sset(schema).plain_reading_differs() is differs


@pytest.mark.parametrize("name", ["default", "enum", "const", "examples"])
def test_a_property_named_like_a_data_keyword_is_still_a_schema(name):
    # {"properties": {"default": S}}: S is the schema of member "default" (2020-12 Core 10.3.2.1),
    # so its $ref, pattern and multipleOf are read like any other property's
    s = sset({"properties": {name: {"$ref": "#/$defs/d", "pattern": "^a", "multipleOf": 0.1}},
              "$defs": {"d": {}}})
    assert [(p, ref) for _, p, ref, _ in s.references()] == [(f"/properties/{name}/$ref", "#/$defs/d")]
    assert [(p, src) for _, p, src in s.patterns()] == [(f"/properties/{name}/pattern", "^a")]
    assert s.plain_reading_differs() is True


def test_a_map_of_names_is_no_schema_object():
    # a property named "multipleOf" or "$ref" is a member name, not a keyword of the map
    s = sset({"properties": {"multipleOf": {"type": "number"}, "$ref": {"type": "string"}}})
    [f] = list(s)
    assert [p for p, _, _ in f.walk()] == ["", "/properties/$ref", "/properties/multipleOf"]
    assert s.plain_reading_differs() is False
