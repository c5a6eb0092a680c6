"""What SPEC.md's prose says about the formats the schemas use agrees with their ``format`` keywords.

The prose states which ``format`` values the schemas use in one of two shapes: "the only format
the schemas use is `X`" or "the formats the schemas use are `X`, `Y` and `Z`". Either claim is
compared with the set of ``format`` keyword values in the version's schema files (JSON Schema
2020-12 Validation, section 7); a difference is one finding ``spec-format-claim`` on the claim's
line. A version whose prose makes no such claim has no finding.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from ..findings import Finding, Location
from ..markdown import Document
from ..spec import SpecVersion

KIND = "spec-format-claim"

_CLAIM = re.compile(r"[Tt]he only format the schemas use is (`[^`]+`)"
                    r"|[Tt]he formats the schemas use are ((?:`[^`]+`(?:,\s*|\s+and\s+)?)+)")
_SPAN = re.compile(r"`([^`]+)`")
_NAMED = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")
"""Keywords whose value maps names to subschemas: a member called ``format`` there is not the keyword."""


def used_formats(node: Any) -> Iterator[str]:
    """Every ``format`` keyword value in a schema, nested subschemas included."""
    if isinstance(node, list):
        for item in node:
            yield from used_formats(item)
    elif isinstance(node, dict):
        for key, value in node.items():
            if key == "format" and isinstance(value, str):
                yield value
            elif key in _NAMED and isinstance(value, dict):
                for sub in value.values():
                    yield from used_formats(sub)
            elif key not in ("enum", "const", "examples", "default"):
                yield from used_formats(value)


def format_claim_findings(doc: Document, version: SpecVersion, label: str) -> list[Finding]:
    """One ``spec-format-claim`` finding per prose claim whose formats differ from the schemas'."""
    actual = {f for loaded in version.schemas.files.values() for f in used_formats(loaded.schema)}
    out = []
    for n, line in enumerate(doc.lines, start=1):
        for m in _CLAIM.finditer(line):
            said = set(_SPAN.findall(m.group(0)))
            if said != actual:
                out.append(Finding(KIND, f"the prose says the schemas use the format(s) "
                                   f"{', '.join(sorted(said))}, but their format keywords are "
                                   f"{', '.join(sorted(actual)) or 'none'}", new=Location(label, None, n)))
    return out
