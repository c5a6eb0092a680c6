"""SPEC.md's claims of closed and open objects agree with the schemas.

Two claims of the Documents section are checked (JSON Schema 2020-12 Core sections 10.3.2.3
and 11.3: ``additionalProperties`` / ``unevaluatedProperties`` ``false`` close an object):

* "Every object is closed": each titled object schema (one with a field table) has
  ``additionalProperties: false`` or ``unevaluatedProperties: false``;
* the exceptions listed after it, "`member` (Title and Title)": that member of each named
  object is declared and is not closed (a ``metadata`` named with "every" is every titled
  object's ``metadata``).

A difference is one finding ``spec-openness`` on the claim's line.
"""

from __future__ import annotations

import re
from typing import Any

from ..findings import Finding, Location
from ..markdown import Document
from ..schemawalk import titled_objects
from ..spec import SpecVersion
from .fields import node_at

KIND = "spec-openness"

_EVERY_CLOSED = "Every object is closed"
_EXCEPTION = re.compile(r"`([A-Za-z_]+)` \(([A-Z][A-Za-z]*(?:(?:, | and )[A-Z][A-Za-z]*)*)\)")


def closed(node: Any) -> bool:
    """Whether an object schema admits no undeclared member."""
    return isinstance(node, dict) and (node.get("additionalProperties") is False
                                       or node.get("unevaluatedProperties") is False)


def openness_findings(doc: Document, version: SpecVersion, label: str) -> list[Finding]:
    """Findings for the two claims (see the module docstring); none when SPEC.md makes neither."""
    schemas = version.schemas
    objects = {o.title: o for o in titled_objects(schemas)}
    out = []
    for n, line in enumerate(doc.lines, start=1):
        if _EVERY_CLOSED not in line:
            continue
        where = Location(label, None, n)
        for title, obj in objects.items():
            if not closed(node_at(schemas, obj)):
                out.append(Finding(KIND, f'the prose says every object is closed, but {title} '
                                   f'({obj.file}#{obj.pointer}) admits undeclared members', new=where))
        for m in _EXCEPTION.finditer(line[line.index(_EVERY_CLOSED):]):
            member = m.group(1)
            for title in re.split(r", | and ", m.group(2)):
                obj = objects.get(title)
                props = node_at(schemas, obj).get("properties", {}) if obj else {}
                if member not in props:
                    out.append(Finding(KIND, f"the prose names `{member}` of {title} as open, but "
                                       f"{title} has no such member", new=where))
                elif closed(props[member]):
                    out.append(Finding(KIND, f"the prose names `{member}` of {title} as open, but its "
                                       "schema closes it", new=where))
    return out
