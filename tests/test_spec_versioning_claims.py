"""SPEC.md's "Versioning and compatibility" section names examples of PATCH, MINOR and MAJOR
changes; each example, made on a small schema, is classified as the bullet it sits in says.

A SPEC.md mutation sweep (session 37) moved "Adding a required member" to "Adding an optional
member" in the MAJOR bullet and no stage noticed: the text told adopters a MINOR change was
MAJOR. Here each phrase must be found in exactly one bullet, and the classifier must give that
bullet's class to a schema pair that makes the change (worked out by hand; each pair's class is
the definition in the bullet's first sentence, checked here against python-jsonschema on a
handful of documents).
"""

from __future__ import annotations

import re
from pathlib import Path

import jsonschema
import pytest

from compat_pair import sset
from evalport_spec.compat import compare
from evalport_spec.findings import ChangeClass

SPEC = Path(__file__).resolve().parent.parent / "spec" / "SPEC.md"
D2020 = "https://json-schema.org/draft/2020-12/schema"

CLOSED = {"type": "object", "properties": {"a": {"type": "integer", "minimum": 0}}, "additionalProperties": False}
OPEN = {"type": "object", "properties": {"a": {"type": "integer", "minimum": 0}}}
ENUM = {"type": "object", "properties": {"a": {"enum": ["x", "y"]}}, "additionalProperties": False}

CLAIMS = {
    # phrase in SPEC.md -> (old, new): a pair making the change the phrase names
    "`description`": (CLOSED, {**CLOSED, "description": "said otherwise"}),
    "Adding an optional member to a closed object": (
        CLOSED, {**CLOSED, "properties": {**CLOSED["properties"], "b": {"type": "string"}}}),
    "widening a type or a bound": (
        CLOSED, {**CLOSED, "properties": {"a": {"type": "number", "minimum": -1}}}),
    "Adding a required member": (CLOSED, {**CLOSED, "required": ["a"]}),
    "removing a member or an enum value": (ENUM, {**ENUM, "properties": {"a": {"enum": ["x"]}}}),
    "tightening a bound": (CLOSED, {**CLOSED, "properties": {"a": {"type": "integer", "minimum": 1}}}),
    "adding a typed member to an open object": (
        OPEN, {**OPEN, "properties": {**OPEN["properties"], "b": {"type": "string"}}}),
}

DOCS = [{}, {"a": 0}, {"a": 1}, {"a": -1}, {"a": 0.5}, {"a": "x"}, {"a": "y"}, {"b": "s"}, {"b": 1}, {"c": 1}]


def bullets() -> dict[str, str]:
    """``{class name: the text of its bullet}`` of the section."""
    text = SPEC.read_text(encoding="utf-8")
    section = text.split("## Versioning and compatibility", 1)[1].split("\n## ", 1)[0]
    return {m.group(1): m.group(2) for m in re.finditer(r"^- \*\*(PATCH|MINOR|MAJOR)\*\*: (.*)$", section, re.M)}


def brute(old: dict, new: dict) -> ChangeClass:
    """The class by definition, over :data:`DOCS` (enough for these pairs)."""
    v_old, v_new = (jsonschema.Draft202012Validator({"$schema": D2020, **s}) for s in (old, new))
    lost = [d for d in DOCS if v_old.is_valid(d) and not v_new.is_valid(d)]
    gained = [d for d in DOCS if v_new.is_valid(d) and not v_old.is_valid(d)]
    return ChangeClass.MAJOR if lost else ChangeClass.MINOR if gained else ChangeClass.PATCH


def test_the_section_has_one_bullet_per_class():
    assert sorted(bullets()) == ["MAJOR", "MINOR", "PATCH"]


@pytest.mark.parametrize("phrase", sorted(CLAIMS))
def test_each_example_sits_in_the_bullet_of_its_class(phrase):
    found = [name for name, text in bullets().items() if phrase.lower() in text.lower()]
    assert len(found) == 1, f"{phrase!r} is in the bullets {found}"
    old, new = CLAIMS[phrase]
    expected = ChangeClass[found[0]]
    assert brute(old, new) is expected, "the pair does not make the change the phrase names"
    got = compare(sset({"$schema": D2020, **old}, "old"), sset({"$schema": D2020, **new}, "new")).change_class
    assert got is expected
