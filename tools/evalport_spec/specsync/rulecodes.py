"""Error codes named in SPEC.md's prose exist.

A code in the prose (an upper-case word with an underscore, such as ``UNSCORED_RESULT_PASSED``,
or a single upper-case word in parentheses, such as ``(FORMAT)``) must be one of the version's
catalogued rules (``rules.json``), a keyword code of the "Validation" table whose keyword cell
maps to it (``minItems`` -> ``MIN_ITEMS``, ``false`` -> ``FALSE_SCHEMA``, :func:`~evalport_spec.validation.schema_pass.keyword_code`),
or a code the validator reports itself (``UNSUPPORTED_VERSION``). Any other is one finding
``spec-code-unknown`` on its line: a renamed or removed rule the prose still names. The
Changelog section is history and is not checked.
"""

from __future__ import annotations

import re

from ..findings import Finding, Location
from ..markdown import Document
from ..spec import SpecVersion
from ..validation.schema_pass import keyword_code
from ..validation.versions import UNSUPPORTED_VERSION

KIND = "spec-code-unknown"
_CODE = re.compile(r"(?<![\w`.-])([A-Z]+(?:_[A-Z]+)+)(?![\w`.-])|\(([A-Z]{3,})\)")
_KEYWORD_ROW = re.compile(r"^\|\s*`([A-Za-z$]+)`\s*\|\s*([A-Z_]+)\s*\|")


def known_codes(doc: Document, version: SpecVersion) -> set[str]:
    """The codes the prose may name: catalogued rules, table keyword codes, validator codes."""
    codes = set(version.catalogue.codes()) | {UNSUPPORTED_VERSION}
    for line in doc.lines:
        m = _KEYWORD_ROW.match(line)
        keyword = None if m is None or m.group(1) == "false" else m.group(1)   # the false schema
        if m and keyword_code(keyword) == m.group(2):
            codes.add(m.group(2))
    return codes


def unknown_code_findings(doc: Document, version: SpecVersion, label: str) -> list[Finding]:
    """One ``spec-code-unknown`` finding per unknown code named in the prose (see the module docstring)."""
    known = known_codes(doc, version)
    history = doc.section("Changelog")
    out = []
    for n, line in enumerate(doc.lines, start=1):
        if history is not None and history.line <= n <= history.end:
            continue
        for m in _CODE.finditer(line):
            code = m.group(1) or m.group(2)
            if code not in known:
                out.append(Finding(KIND, f"the prose names the code {code}, which is neither a rule of "
                                   f"{version.catalogue.source}, nor a keyword code of the Validation "
                                   "table, nor one the validator reports itself", new=Location(label, None, n)))
    return out
