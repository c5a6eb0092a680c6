"""The screening reading of :func:`evalport_spec.pyvalidator.exact_validator` (``verdicts=True``):
``anyOf``/``oneOf`` branches read up to their first error. Verdicts are judged against
python-jsonschema's own ``Draft202012Validator`` (patterns here read alike by Python ``re`` and
ECMA-262)."""

from __future__ import annotations

import pytest
from jsonschema import Draft202012Validator

from evalport_spec import pyvalidator
from evalport_spec.pyvalidator import exact_validator

MEMBERS = {f"m{i}": {"type": "string", "pattern": "^x"} for i in range(10)}
SCHEMAS = [
    {"anyOf": [{"type": "integer"}, {"type": "string", "minLength": 2}]},
    {"oneOf": [{"type": "integer"}, {"minimum": 3}, {"type": "string"}]},
    {"anyOf": [{"properties": MEMBERS}, {"required": ["z"]}]},
    {"$defs": {"n": {"oneOf": [{"type": "null"}, {"type": "array", "items": {"$ref": "#/$defs/n"}}]}},
     "$ref": "#/$defs/n"},
    {"oneOf": [{"anyOf": [{"const": 1}, {"const": 2}]}, {"enum": [2, 3]}]},
]
DOCS = [None, 0, 1, 2, 3, 4, 2.5, "", "a", "ab", [], [None], [[None]], [1], {"m0": "y"}, {"z": 1},
        {"m0": "x", "m9": "xy"}, {f"m{i}": "y" for i in range(10)}]


@pytest.mark.parametrize("schema", SCHEMAS)
def test_the_screening_reading_gives_the_librarys_verdicts(schema):
    full = exact_validator(Draft202012Validator)(schema)
    screen = exact_validator(Draft202012Validator, verdicts=True)(schema)
    library = Draft202012Validator(schema)
    for doc in DOCS:
        assert screen.is_valid(doc) == full.is_valid(doc) == library.is_valid(doc), doc


def test_a_failing_anyof_branch_is_read_up_to_its_first_error(monkeypatch):
    """Ten string members each failing their pattern: the full reading matches all ten (it
    lists every error of the branch for the anyOf error's context), the screening one stops at
    the first; both call the document invalid (it has no member z either)."""
    calls = []
    real = pyvalidator.search

    def counting(source, text):
        calls.append(text)
        return real(source, text)

    monkeypatch.setattr(pyvalidator, "search", counting)
    doc = {f"m{i}": "y" for i in range(10)}
    assert not exact_validator(Draft202012Validator)(SCHEMAS[2]).is_valid(doc)
    assert len(calls) == 10
    calls.clear()
    assert not exact_validator(Draft202012Validator, verdicts=True)(SCHEMAS[2]).is_valid(doc)
    assert len(calls) == 1
