"""Shared helpers of the classifier's unit tests: one schema as a one-file schema set, and a
comparison that also asserts no structural edit went unaccounted (issue 11, "No silent edit")."""

from __future__ import annotations

import json
from typing import Any

from evalport_spec.compat import compare
from evalport_spec.jsonload import loads
from evalport_spec.schemaset import SchemaSet


def sset(schema: Any, label: str) -> SchemaSet:
    """``schema`` as the schema set ``label`` holding one file, ``s.json``."""
    return SchemaSet.from_loaded({"s.json": loads(json.dumps(schema).encode(), f"{label}/s.json")}, label)


def diff(old: Any, new: Any):
    """The classification of ``old`` -> ``new`` (no counter-example search), after asserting
    that every structural edit between the two is accounted for by a finding or the proof."""
    c = compare(sset(old, "old"), sset(new, "new"), search_budget=0)
    assert not c.stats.get("unaccounted_edits"), c.stats["unaccounted_edits"]  # no silent edit
    return c
