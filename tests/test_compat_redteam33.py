"""Schema changes found by red-teaming the classifier (session 33): each pair once gave a slow,
crashing or unsound verdict. Expected classes are worked out from python-jsonschema's own
verdict on a witness document, never from the classifier's output."""

from __future__ import annotations

import time

import jsonschema
import pytest

from compat_pair import sset
from evalport_spec.compat import compare
from evalport_spec.findings import ChangeClass
from evalport_spec.pyvalidator import exact_validator

D4 = "http://json-schema.org/draft-04/schema#"
D7 = "http://json-schema.org/draft-07/schema#"


def classify(old, new):
    return compare(sset(old, "old"), sset(new, "new"), search_budget=0).change_class


def lost(old, new, doc) -> bool:
    """python-jsonschema: ``doc`` valid under ``old``, invalid under ``new`` (the ground truth)."""
    v = lambda s: jsonschema.validators.validator_for(s)(s)  # noqa: E731
    return v(old).is_valid(doc) and not v(new).is_valid(doc)


def test_one_of_many_string_consts_against_max_length_is_fast():
    # every const has 6 characters: each is lost under maxLength 5, each its own finding whose
    # witness python-jsonschema confirms (before: a linear oneOf per witness, 250 s)
    consts = [{"const": f"v{i:05d}"} for i in range(5000)]
    old, new = {"oneOf": consts}, {"type": "string", "maxLength": 5}
    assert lost(old, new, "v04999")
    t = time.perf_counter()
    c = compare(sset(old, "old"), sset(new, "new"), search_budget=0)
    assert time.perf_counter() - t < 10
    assert c.change_class is ChangeClass.MAJOR
    values = {f.witness for f in c.findings if f.direction == "backward" and isinstance(f.witness, str)}
    assert values == {f"v{i:05d}" for i in range(5000)}


BRANCHES = [{"const": 1}, {"const": 1.0}, {"enum": [2, "a", True]}, {"const": "a", "title": "t"},
            {"enum": [[1], {"a": 1}]}, {"const": [1.0]}, {"enum": [None, 3], "const": 3},
            {"const": False}, {"enum": ["b"]}, {"const": {"a": 1.0}}]
INSTANCES = [1, 1.0, 2, 2.0, True, False, "a", "b", None, 3, 0, [1], [1.0], {"a": 1}, {"a": True}, [], "c"]


@pytest.mark.parametrize("dialect", [None, D7, D4])
@pytest.mark.parametrize("keyword", ["oneOf", "anyOf"])
def test_const_branches_read_as_python_jsonschema_reads_them(dialect, keyword):
    # the toolchain's validator looks const/enum-only branches up by value: same verdicts as the
    # library's own keyword, duplicates counted (oneOf), draft-04 const asserting nothing
    schema = {keyword: BRANCHES, **({"$schema": dialect} if dialect else {})}
    plain = jsonschema.validators.validator_for(schema)
    ours = exact_validator(plain)
    for x in INSTANCES:
        assert ours(schema).is_valid(x) is plain(schema).is_valid(x), x


_ROOT = "http://x.test/root.json"
_BELOW_REF = {"$ref": "#/definitions/s", "properties": {"x": {
    "$id": "http://x.test/other/x.json", "properties": {"q": {"$ref": "a.json"}}}}}


@pytest.mark.parametrize(("target", "q_type"), [("integer", "integer"), ("string", "integer")])
def test_draft_07_id_below_a_ref_node_is_read_as_python_jsonschema_reads_it(target, q_type):
    # the $id below a $ref node is still a resource to python-jsonschema (referencing indexes it),
    # and it sets the base of "a.json" inside: reached by pointer, q is the integer schema
    old = {"$schema": D7, "$id": _ROOT, "properties": {"p": {"$ref": "#/definitions/r/properties/x"}},
           "definitions": {"r": _BELOW_REF, "s": {}, "a": {"$id": "http://x.test/a.json", "type": "string"},
                           "b": {"$id": "http://x.test/other/a.json", "type": q_type}}}
    new = {"$schema": D7, "$id": _ROOT, "properties": {"p": {"properties": {"q": {"type": target}}}}}
    broken = lost(old, new, {"p": {"q": 1}}) or lost(old, new, {"p": {"q": "a"}})
    assert classify(old, new) is (ChangeClass.MAJOR if broken else ChangeClass.PATCH)


def test_a_nested_schema_dialect_depends_on_the_path_that_reaches_it():
    # why a subschema naming another dialect is refused, not compared: python-jsonschema reads q
    # as draft-04 when entered through p and as 2020-12 when entered through the $ref of r, so
    # no one dialect per schema node gives its verdicts
    s = {"properties": {"p": {"$schema": D4, "properties": {"q": {"type": "integer"}}},
                        "r": {"$ref": "#/properties/p/properties/q"}}}
    v = jsonschema.Draft202012Validator(s)
    assert not v.is_valid({"p": {"q": 1.0}}) and v.is_valid({"r": 1.0})
