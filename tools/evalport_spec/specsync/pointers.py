"""JSON Pointers quoted in SPEC.md's prose resolve in the schema they name.

SPEC.md names schema locations as ``file.json#/pointer`` in code spans (for example where a rule
section says which subschema carries the rule). A pointer that does not resolve in that version's
schema file (the file is missing, or a token names no member or item) is one finding
``spec-pointer-dangling`` on the line it is written on. Pointer syntax and resolution: RFC 6901
sections 3 and 4; the ``file#fragment`` form is a URI reference (RFC 3986 section 4.1) resolved
against the schema's ``$id`` as JSON Schema 2020-12 section 8.2.1 describes.

A pointer followed by ``, marked `"x-evalport-rule": "CODE"` `` (how a rule section names the
subschema that carries its rule) must name a subschema whose ``x-evalport-rule`` is ``CODE``;
otherwise one finding ``spec-pointer-marker`` (the prose would send a reader to the wrong
subschema, or claim a marker the schema does not have).
"""

from __future__ import annotations

import re
from typing import Any

from ..findings import Finding, Location
from ..markdown import Document
from ..pointer import split
from ..spec import SpecVersion

DANGLING = "spec-pointer-dangling"
MARKER = "spec-pointer-marker"

_QUOTED = re.compile(r"`([A-Za-z0-9_.-]+\.json)#(/[^`\s]*)`")
"""A code span holding ``file.json#/pointer`` (a pointer starts with ``/``; ``#`` alone is the root)."""


_MARKED = re.compile(r', marked `"x-evalport-rule": "([A-Z0-9_]+)"`')
"""What may follow a quoted pointer: the rule marker the prose says the subschema carries."""

_MISSING = object()


def _resolve(node: Any, pointer: str) -> Any:
    """The value ``pointer`` (RFC 6901) names in ``node``, or ``_MISSING``."""
    try:
        tokens = split(pointer)
    except ValueError:
        return _MISSING
    for token in tokens:
        if isinstance(node, dict) and token in node:
            node = node[token]
        elif isinstance(node, list) and token.isdigit() and (token == "0" or not token.startswith("0")) \
                and int(token) < len(node):
            node = node[int(token)]
        else:
            return _MISSING
    return node


def dangling_pointers(doc: Document, version: SpecVersion, label: str) -> list[Finding]:
    """One ``spec-pointer-dangling`` finding per quoted ``file.json#/pointer`` that does not resolve,
    and one ``spec-pointer-marker`` per such pointer said to be marked with a rule it does not carry.

    Args:
        doc: the parsed SPEC.md; every line is searched, generated regions included (they are
            generated from the same schemas, so they never dangle unless the generator is wrong).
        version: whose ``schemas/`` the pointers are resolved in.
        label: the file name findings carry.
    Returns:
        findings in line order; none when every pointer resolves.
    """
    files = version.schemas.files
    out = []
    for n, line in enumerate(doc.lines, start=1):
        for m in _QUOTED.finditer(line):
            name, pointer = m.group(1), m.group(2)
            loaded = files.get(name)
            node = _MISSING if loaded is None else _resolve(loaded.schema, pointer)
            where = Location(label, None, n)
            if node is _MISSING:
                why = (f"the version has no schema file {name}" if loaded is None
                       else f"nothing is at {pointer} in {name}")
                out.append(Finding(DANGLING, f"the prose quotes `{name}#{pointer}`, but {why}", new=where))
                continue
            said = _MARKED.match(line, m.end())
            carried = node.get("x-evalport-rule") if isinstance(node, dict) else None
            if said is not None and carried != said.group(1):
                has = f"carries {carried}" if isinstance(carried, str) else "carries no x-evalport-rule"
                out.append(Finding(MARKER, f"the prose says `{name}#{pointer}` is marked {said.group(1)}, "
                                   f"but that subschema {has}", new=where))
    return out
