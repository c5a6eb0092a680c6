"""What SPEC.md's prose calls the schemas' dialect agrees with their ``$schema``.

Every "JSON Schema YYYY-MM" (a dated dialect: 2019-09, 2020-12) or "JSON Schema draft-NN" in
SPEC.md outside its Changelog names the dialect the version's schema files declare in their root
``$schema`` (JSON Schema 2020-12 Core, section 8.1.1). A mention of any other dialect is one
finding ``spec-dialect-claim`` on its line: the text would tell a consumer to validate with
another dialect's rules (a SPEC.md mutation sweep, session 37, turned "2020-12" into "2021-12"
in three places and no stage noticed). A version whose schemas declare no ``$schema`` has no
finding (the schemas stage reports that).
"""

from __future__ import annotations

import re

from ..findings import Finding, Location
from ..markdown import Document
from ..spec import SpecVersion
from .blocks import current_lines

KIND = "spec-dialect-claim"

_MENTION = re.compile(r"JSON Schema\s+(\d{4}-\d{2}|draft-0?\d+)\b")
_URI = re.compile(r"json-schema\.org/(?:draft/(\d{4}-\d{2})|(draft-0?\d+))/schema#?$")


def declared_dialects(version: SpecVersion) -> set[str]:
    """The dialects (``2020-12``, ``draft-07``) the version's schema files name in their root
    ``$schema``; a URI of no known shape is left out."""
    out = set()
    for loaded in version.schemas.files.values():
        uri = loaded.schema.get("$schema") if isinstance(loaded.schema, dict) else None
        m = _URI.search(uri) if isinstance(uri, str) else None
        if m is not None:
            out.add(m.group(1) or m.group(2))
    return out


def dialect_claim_findings(doc: Document, version: SpecVersion, label: str) -> list[Finding]:
    """One ``spec-dialect-claim`` finding per mention, outside the Changelog, of a dialect the
    version's schemas do not declare (module docstring)."""
    declared = declared_dialects(version)
    if not declared:
        return []
    out = []
    for n, line in current_lines(doc):
        for m in _MENTION.finditer(line):
            if m.group(1) not in declared:
                out.append(Finding(KIND, f"the prose names JSON Schema {m.group(1)}, but the schemas are "
                                   f"written in {', '.join(sorted(declared))} (their $schema)",
                                   new=Location(label, None, n)))
    return out
