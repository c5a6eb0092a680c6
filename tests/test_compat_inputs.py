"""A single schema file's context (compat/inputs.py): other files of its folder are read only
when a reference leaves it, and big files beside it are never read for a diff."""

from __future__ import annotations

import json

import pytest

from evalport_spec.compat.inputs import file_set, resolve_input
from evalport_spec.diffinputs import SIBLING_MAX_BYTES
from evalport_spec.jsonload import loads

SELF = {"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": "https://x.test/a.json",
        "type": "object", "properties": {"a": {"$ref": "#/$defs/s"}}, "$defs": {"s": {"type": "string"}}}
OUT = {**SELF, "properties": {"a": {"$ref": "b.json"}}}
B = {"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": "https://x.test/b.json", "type": "string"}


def _loaded(value, name):
    return loads(json.dumps(value).encode(), name)


def test_a_self_contained_schema_reads_no_sibling():
    def never():
        pytest.fail("a sibling was read for a schema whose references stay inside it")

    s = file_set("a.json", _loaded(SELF, "a.json"), {"big.json": never, "b.json": never}, "x")
    assert sorted(s.files) == ["a.json"]


def test_a_reference_leaving_the_file_reads_the_siblings_and_takes_its_target():
    read = []

    def loader(value, name):
        def load():
            read.append(name)
            return _loaded(value, name)
        return load

    s = file_set("a.json", _loaded(OUT, "a.json"),
                 {"b.json": loader(B, "b.json"), "c.json": loader({"$id": "https://x.test/c.json"}, "c.json")}, "x")
    assert sorted(s.files) == ["a.json", "b.json"]   # c.json is read (to index $ids), not taken
    assert sorted(read) == ["b.json", "c.json"]


def test_a_big_sibling_is_not_read(tmp_path):
    """``a0.json`` defines b.json's ``$id`` too and sorts first, so it would be taken if read;
    it is over the size limit, so b.json is."""
    (tmp_path / "a.json").write_text(json.dumps(OUT))
    (tmp_path / "b.json").write_text(json.dumps(B))
    big = json.dumps({**B, "type": "integer"})
    (tmp_path / "a0.json").write_text(big + " " * (SIBLING_MAX_BYTES + 1 - len(big)))
    s = resolve_input(str(tmp_path / "a.json"))
    assert sorted(s.files) == ["a.json", "b.json"]
