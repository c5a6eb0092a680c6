"""Unit tests of the rule check's readers: SPEC.md structure, instance-location patterns, schema
markers and the marker-stripped variant (no repository content needed)."""

from __future__ import annotations

import json

from evalport_spec import specmd
from evalport_spec.fieldstatus import field_status
from evalport_spec.jsonload import loads
from evalport_spec.rulecheck.schemawalk import markers, without_markers
from evalport_spec.rulecheck.survey import matches_pattern
from evalport_spec.schemaset import SchemaSet
from evalport_spec.schemawalk import titled_objects

MD = """# Spec

## Documents

### Thing

| Field | Type | Required | Description |
| --- | --- | --- | --- |
| `a` | one of `"x"` \\| `"y"` | yes | pipe in code `a|b` stays |
| `b.c` | string | no | dotted |

```
### NotAHeading
```

## Cross-field rules

### `RULE_ONE`

Statement.

**Why JSON Schema does not carry it:** it needs
$data.

### RULE_TWO

**Carried by the schema:**

<!-- rulecheck: allow `fresh` `OTHER_CODE` -->
"""


def test_headings_sections_and_paragraphs() -> None:
    doc = specmd.parse(MD)
    assert [(h.level, h.text, h.line) for h in doc.headings] == [
        (1, "Spec", 1), (2, "Documents", 3), (3, "Thing", 5), (2, "Cross-field rules", 16),
        (3, "RULE_ONE", 18), (3, "RULE_TWO", 25)]
    one, two = doc.subsections("Cross-field rules")
    assert doc.paragraph_after(one, specmd.GAP_MARK) == (22, "it needs $data.")
    assert doc.paragraph_after(one, specmd.CARRIED_MARK) is None
    assert doc.paragraph_after(two, specmd.CARRIED_MARK) == (27, "")
    assert [n for n, _ in doc.body(doc.section("Documents"))] == [4, 6, 7, 8, 9, 10, 11, 15]
    assert doc.allowed == {"fresh", "OTHER_CODE"}


def test_tables_split_cells_as_github_does() -> None:
    """GFM 4.10: an unescaped pipe splits a cell even inside a code span (the excess cell of a
    row is dropped); an escaped one does not."""
    doc = specmd.parse(MD)
    (thing,) = doc.subsections("Documents")
    (table,) = doc.tables(thing)
    assert table.header == ("Field", "Type", "Required", "Description")
    assert table.column("field") == 0
    assert [r.line for r in table.rows] == [9, 10]
    assert table.rows[0].cells == ("`a`", 'one of `"x"` | `"y"`', "yes", "pipe in code `a")
    assert specmd.ticks(table.rows[0].cells[1]) == ['"x"', '"y"']


def test_matches_pattern() -> None:
    assert matches_pattern("/results/12/attempt", "/results/*/attempt")
    assert not matches_pattern("/results/x/attempt", "/results/*/attempt")
    assert not matches_pattern("/results/1", "/results/*/attempt")
    assert matches_pattern("/results/1", "/results/*/attempt", ancestors=True)
    assert not matches_pattern("", "/results/*/attempt", ancestors=True)
    assert not matches_pattern("/results", "/results/*/attempt/x", ancestors=False)


def _set(schema: dict) -> SchemaSet:
    return SchemaSet.from_loaded({"t.json": loads(json.dumps(schema, indent=2), "t.json")}, "s")


SCHEMA = {
    "$id": "https://example.org/t.json",
    "type": "object", "additionalProperties": False, "title": "Root",
    "properties": {"items": {"type": "array", "items": {"$ref": "#/$defs/item"}},
                   "meta": {"type": "object"}},
    "$defs": {"item": {
        "title": "Item", "type": "object", "additionalProperties": False,
        "properties": {"score": {"type": ["number", "null"]}, "passed": {"type": "boolean"}},
        "allOf": [{"x-evalport-rule": "NULL_PASS",
                   "if": {"required": ["score"], "properties": {"score": {"type": "null"}}},
                   "then": {"properties": {"passed": {"const": False}}}}]}},
}


def test_markers_and_without_markers() -> None:
    s = _set(SCHEMA)
    (m,) = markers(s)
    assert (m.file, m.pointer, m.code, m.line) == ("t.json", "/$defs/item/allOf/0", "NULL_PASS", 34)
    doc = {"items": [{"score": None, "passed": True}]}
    assert not s.validator("t.json").is_valid(doc)
    stripped = without_markers(s, "NULL_PASS")
    assert stripped.validator("t.json").is_valid(doc)
    assert without_markers(s, "OTHER").validator("t.json").is_valid(doc) is False


def test_titled_objects_and_field_status() -> None:
    s = _set(SCHEMA)
    assert [(o.title, o.pointer, o.properties) for o in titled_objects(s)] == [
        ("Root", "", ("items", "meta")), ("Item", "/$defs/item", ("score", "passed"))]
    assert field_status(s, "t.json", "/items/*/score") == "present"
    assert field_status(s, "t.json", "/items/*/attempt") == "absent"
    assert field_status(s, "t.json", "/other") == "absent"
    assert field_status(s, "t.json", "/meta/anything") == "open"


def test_untitled_objects_outside_conditionals() -> None:
    from evalport_spec.schemawalk import untitled_objects

    schema = dict(SCHEMA, properties=dict(SCHEMA["properties"], meta={
        "type": "object", "properties": {"k": {"type": "string"}}}))
    got = [(o.pointer, o.properties) for o in untitled_objects(_set(schema))]
    # the if/then branches of the marked subschema are not reported, the untitled value is
    assert got == [("/properties/meta", ("k",))]
