"""Walking a schema set for the rule check: rule markers and instance locations (the generic
walk, :func:`~evalport_spec.schemawalk.subschemas` and the titled object schemas SPEC.md's
"Documents" describes, is :mod:`evalport_spec.schemawalk`).

* A cross-field rule *encoded* in the schema is a subschema carrying ``"x-evalport-rule": "CODE"``
  (SPEC.md, "Cross-field rules"); :func:`markers` finds them and :func:`without_markers` builds
  the same set with those subschemas replaced by ``true`` (used to prove the marked subschema is
  what rejects a document).
* :func:`field_status` decides whether an instance location (a pointer pattern with ``*`` for
  any array index) can hold a value in documents valid under a schema; used to show a rule reads
  only fields new in a version.

Only in-set ``$ref``s are followed (offline, by ``$id``), as everywhere in this package.
"""

from __future__ import annotations

import copy
import json
import re
from dataclasses import dataclass
from typing import Any

from ..jsonload import Loaded
from ..pointer import split, unescape
from ..schemaset import SchemaSet
from ..schemawalk import resolve_ref, subschemas

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


def _expand(schemas: SchemaSet, base: str, node: Any, conjunct: bool = True,
            depth: int = 0) -> list[tuple[str, Any, bool]]:
    """The subschemas that apply at one instance location: ``(base URI, subschema, conjunct)``.

    ``node`` and its ``$ref``/``allOf`` targets always apply (``conjunct`` is ``True``);
    ``anyOf``/``oneOf`` branches and ``then``/``else`` may apply (``conjunct`` is ``False``).
    """
    if depth > 32 or not isinstance(node, dict):
        return [(base, node, conjunct)]
    out = [(base, node, conjunct)]
    ref = node.get("$ref")
    if isinstance(ref, str):
        hit = resolve_ref(schemas, base, ref)
        if hit is not None:
            out.extend(_expand(schemas, hit[0], hit[1], conjunct, depth + 1))
    for key in ("allOf", "anyOf", "oneOf"):
        subs = node.get(key)
        for sub in subs if isinstance(subs, list) else []:
            out.extend(_expand(schemas, base, sub, conjunct and key == "allOf", depth + 1))
    for key in ("then", "else"):
        if isinstance(node.get(key), dict):
            out.extend(_expand(schemas, base, node[key], False, depth + 1))
    return out


def field_status(schemas: SchemaSet, file: str, pattern: str) -> str:
    """Whether documents valid under schema ``file`` can have a value at ``pattern``.

    ``pattern`` is a JSON Pointer in which ``*`` stands for any array index. Returns
    ``"absent"`` when an object on the way is closed to that name (a subschema that always
    applies there has ``additionalProperties: false`` without a ``properties`` or
    ``patternProperties`` entry admitting it, or ``unevaluatedProperties: false`` and no applying
    subschema declares it): no valid document has the field. Returns ``"present"`` when the
    schema declares every step, and ``"open"`` when a step is only admitted by an open object
    (old documents may carry the name with any value).
    """
    f = schemas.files[file]
    level = _expand(schemas, f.uri, f.schema)
    status = "present"
    for token in split(pattern):
        nxt: list[tuple[str, Any, bool]] = []
        if token == "*" or token.isdigit():
            for base, node, conj in level:
                if not isinstance(node, dict):
                    continue
                if isinstance(node.get("items"), dict):
                    nxt.extend(_expand(schemas, base, node["items"], conj))
                for sub in node.get("prefixItems", []) or []:
                    nxt.extend(_expand(schemas, base, sub, False))
        else:
            name = unescape(token)
            declared_anywhere = False
            forbidden = False
            unevaluated_closed = False
            for base, node, conj in level:
                if not isinstance(node, dict):
                    continue
                declared = False
                props = node.get("properties")
                if isinstance(props, dict) and name in props:
                    declared = True
                    nxt.extend(_expand(schemas, base, props[name], conj))
                pats = node.get("patternProperties")
                if isinstance(pats, dict):
                    for pat, sub in pats.items():
                        try:
                            hit = re.search(pat, name)
                        except re.error:
                            hit = None
                        if hit:
                            declared = True
                            nxt.extend(_expand(schemas, base, sub, conj))
                declared_anywhere = declared_anywhere or declared
                addl = node.get("additionalProperties")
                if not declared:
                    if addl is False and conj:
                        forbidden = True
                    elif isinstance(addl, dict):
                        nxt.extend(_expand(schemas, base, addl, conj))
                if node.get("unevaluatedProperties") is False and conj:
                    unevaluated_closed = True
            if forbidden or (unevaluated_closed and not declared_anywhere):
                return "absent"
            if not declared_anywhere:
                status = "open"
        level = nxt
    return status
