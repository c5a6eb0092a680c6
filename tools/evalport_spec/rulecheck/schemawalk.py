"""Walking a schema set for the rule check: rule markers, titled objects, instance locations.

* A cross-field rule *encoded* in the schema is a subschema carrying ``"x-evalport-rule": "CODE"``
  (SPEC.md, "Cross-field rules"); :func:`markers` finds them and :func:`without_markers` builds
  the same set with those subschemas replaced by ``true`` (used to prove the marked subschema is
  what rejects a document).
* :func:`titled_objects` lists the object schemas that SPEC.md's "Documents" must describe.
* :func:`field_status` decides whether an instance location (a pointer pattern with ``*`` for
  any array index) can hold a value in documents valid under a schema; used to show a rule reads
  only fields new in a version.

Only in-set ``$ref``s are followed (offline, by ``$id``), as everywhere in this package.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import urldefrag, urljoin

from ..jsonload import Loaded
from ..pointer import join, split, unescape
from ..schemaset import SchemaSet

MARKER = "x-evalport-rule"
"""Annotation keyword naming the rule a subschema encodes."""

_VALUE_KEYWORDS = frozenset({"enum", "const", "examples", "default"})
_SCHEMA_MAPS = frozenset({"properties", "patternProperties", "$defs", "definitions", "dependentSchemas"})


@dataclass(frozen=True)
class Marker:
    """One subschema carrying ``x-evalport-rule``: its file, pointer, line and the code."""

    file: str
    source: str
    pointer: str
    line: int | None
    code: str


@dataclass(frozen=True)
class TitledObject:
    """An object schema with a ``title``: where it is and the property names it declares."""

    title: str
    file: str
    source: str
    pointer: str
    line: int | None
    properties: tuple[str, ...]


def subschemas(schema: Any, pointer: str = "") -> Iterator[tuple[str, dict[str, Any]]]:
    """Yield ``(pointer, subschema)`` for every object subschema, depth first, file order.

    Values of ``enum``/``const``/``examples``/``default`` are data, not schemas, and are skipped.
    """
    stack: list[tuple[str, Any]] = [(pointer, schema)]
    while stack:
        ptr, node = stack.pop()
        if not isinstance(node, dict):
            continue
        yield ptr, node
        children: list[tuple[str, Any]] = []
        for key, value in node.items():
            if key in _VALUE_KEYWORDS:
                continue
            if key in _SCHEMA_MAPS and isinstance(value, dict):
                children.extend((join(ptr, key, k), v) for k, v in value.items())
            elif isinstance(value, list):  # allOf/anyOf/oneOf/prefixItems, draft-07 tuple items
                children.extend((join(ptr, key, i), v) for i, v in enumerate(value)
                                if isinstance(v, dict))
            elif isinstance(value, dict):
                children.append((join(ptr, key), value))
        stack.extend(reversed(children))


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


def titled_objects(schemas: SchemaSet) -> list[TitledObject]:
    """Object subschemas that have a string ``title`` and a ``properties`` map."""
    out: list[TitledObject] = []
    for f in schemas:
        for ptr, node in subschemas(f.schema):
            title = node.get("title")
            props = node.get("properties")
            if isinstance(title, str) and isinstance(props, dict):
                out.append(TitledObject(title, f.name, f.loaded.source, ptr, f.loaded.line(ptr),
                                        tuple(props)))
    return out


_CONDITIONAL_TOKENS = frozenset({"if", "then", "else", "not", "allOf", "anyOf", "oneOf",
                                 "dependentSchemas", "contains"})


def untitled_objects(schemas: SchemaSet) -> list[TitledObject]:
    """Object schemas with ``properties`` but no ``title`` that describe a value (reached only
    through ``properties``, ``items``, ``$defs`` and the like, not inside a conditional or
    combinator branch, where ``properties`` constrain members declared elsewhere). SPEC.md
    cannot give them a section, so their properties cannot be checked; ``title`` is ``""``."""
    out: list[TitledObject] = []
    for f in schemas:
        for ptr, node in subschemas(f.schema):
            if isinstance(node.get("title"), str) or not isinstance(node.get("properties"), dict):
                continue
            if _CONDITIONAL_TOKENS.intersection(split(ptr)):
                continue
            out.append(TitledObject("", f.name, f.loaded.source, ptr, f.loaded.line(ptr),
                                    tuple(node["properties"])))
    return out


def resolve_ref(schemas: SchemaSet, base: str, ref: str) -> tuple[str, Any] | None:
    """The target of ``$ref`` ``ref`` written in a schema whose base URI is ``base``: ``(the
    target file's URI, the subschema)``, or ``None`` when it is not in the set (offline)."""
    target = urljoin(base, ref)
    uri, frag = urldefrag(target)
    f = schemas.by_uri(uri)
    if f is None:
        return None
    node: Any = f.schema
    for token in split(frag) if frag else []:
        if isinstance(node, dict) and token in node:
            node = node[token]
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            return None
    return f.uri, node


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
