"""Walking a schema set for the rule check: rule markers (the generic walk,
:func:`~evalport_spec.schemawalk.subschemas` and the titled object schemas SPEC.md's
"Documents" describes, is :mod:`evalport_spec.schemawalk`; whether an instance location can
hold a value is :mod:`evalport_spec.fieldstatus`).

* A cross-field rule *encoded* in the schema is a subschema carrying ``"x-evalport-rule": "CODE"``
  (SPEC.md, "Cross-field rules"); :func:`markers` finds them and :func:`without_markers` builds
  the same set with those subschemas replaced by ``true`` (used to prove the marked subschema is
  what rejects a document).
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass

from ..jsonload import Loaded
from ..pointer import split
from ..schemaset import SchemaSet
from ..schemawalk import subschemas

MARKER = "x-evalport-rule"
"""Annotation keyword naming the rule a subschema encodes."""


@dataclass(frozen=True)
class Marker:
    """One subschema carrying ``x-evalport-rule``: its file, pointer, line and the code."""

    file: str
    source: str
    pointer: str
    line: int | None
    code: str


def markers(schemas: SchemaSet) -> list[Marker]:
    """Every ``x-evalport-rule`` subschema of the set, by file then position."""
    out: list[Marker] = []
    for f in schemas:
        for ptr, node in subschemas(f.schema):
            code = node.get(MARKER)
            if isinstance(code, str):
                out.append(Marker(f.name, f.loaded.source, ptr, f.loaded.line(ptr), code))
    return out


def without_markers(schemas: SchemaSet, code: str) -> SchemaSet:
    """A copy of ``schemas`` in which every subschema marked ``code`` is replaced by ``true``."""
    loaded: dict[str, Loaded] = {}
    for f in schemas:
        value = copy.deepcopy(f.schema)
        hits = [ptr for ptr, node in subschemas(value) if node.get(MARKER) == code]
        for ptr in hits:
            if ptr == "":
                value = True
                break
            *parent_tokens, last = split(ptr)
            parent = value
            for t in parent_tokens:
                parent = parent[int(t)] if isinstance(parent, list) else parent[t]
            if isinstance(parent, list):
                parent[int(last)] = True
            else:
                parent[last] = True
        loaded[f.name] = Loaded(value, f.loaded.source, json.dumps(value))
    return SchemaSet.from_loaded(loaded, schemas.label)
