"""JSON Pointers quoted in SPEC.md's prose resolve in the schema they name.

SPEC.md names schema locations as ``file.json#/pointer`` in code spans (for example where a rule
section says which subschema carries the rule). A pointer that does not resolve in that version's
schema file (the file is missing, or a token names no member or item) is one finding
``spec-pointer-dangling`` on the line it is written on. Pointer syntax and resolution: RFC 6901
sections 3 and 4; the ``file#fragment`` form is a URI reference (RFC 3986 section 4.1) resolved
against the schema's ``$id`` as JSON Schema 2020-12 section 8.2.1 describes.
"""

from __future__ import annotations

import re
from typing import Any

from ..findings import Finding, Location
from ..markdown import Document
from ..pointer import split
from ..spec import SpecVersion

DANGLING = "spec-pointer-dangling"

_QUOTED = re.compile(r"`([A-Za-z0-9_.-]+\.json)#(/[^`\s]*)`")
"""A code span holding ``file.json#/pointer`` (a pointer starts with ``/``; ``#`` alone is the root)."""


def _resolve(node: Any, pointer: str) -> bool:
    """Whether ``pointer`` (RFC 6901) names a location in ``node``."""
    try:
        tokens = split(pointer)
    except ValueError:
        return False
    for token in tokens:
        if isinstance(node, dict) and token in node:
            node = node[token]
        elif isinstance(node, list) and token.isdigit() and (token == "0" or not token.startswith("0")) \
                and int(token) < len(node):
            node = node[int(token)]
        else:
            return False
    return True


def dangling_pointers(doc: Document, version: SpecVersion, label: str) -> list[Finding]:
    """One ``spec-pointer-dangling`` finding per quoted ``file.json#/pointer`` that does not resolve.

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
            if loaded is None:
                why = f"the version has no schema file {name}"
            elif not _resolve(loaded.schema, pointer):
                why = f"nothing is at {pointer} in {name}"
            else:
                continue
            out.append(Finding(DANGLING, f"the prose quotes `{name}#{pointer}`, but {why}",
                               new=Location(label, None, n)))
    return out
