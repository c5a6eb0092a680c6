"""Walking a schema set: every subschema, the titled object schemas, in-set ``$ref`` targets.

Generic over the package (the rule check, SPEC.md's generated field tables): only in-set
``$ref``s are followed (offline, by ``$id``), as everywhere in this package.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import urldefrag, urljoin

from .pointer import join, split
from .schemaset import SCHEMA_MAP_KEYWORDS, VALUE_KEYWORDS, SchemaSet


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
            if key in VALUE_KEYWORDS:
                continue
            if key in SCHEMA_MAP_KEYWORDS and isinstance(value, dict):
                children.extend((join(ptr, key, k), v) for k, v in value.items())
            elif isinstance(value, list):  # allOf/anyOf/oneOf/prefixItems, draft-07 tuple items
                children.extend((join(ptr, key, i), v) for i, v in enumerate(value)
                                if isinstance(v, dict))
            elif isinstance(value, dict):
                children.append((join(ptr, key), value))
        stack.extend(reversed(children))


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
