"""The Validation section's keyword table agrees with the schema pass and covers the schemas.

SPEC.md, "Validation", gives the error code of each JSON Schema keyword in a table with the
columns ``Keyword`` and ``Code`` (a keyword in a code span; ``false`` for a ``false`` schema).
The schema pass codes an error by the keyword python-jsonschema names in it
(:func:`evalport_spec.validation.keyword_code`: ``maxLength`` -> ``MAX_LENGTH``, ``required`` and
``dependentRequired`` -> ``REQUIRED``, a ``false`` schema -> ``FALSE_SCHEMA``). Findings
``spec-keyword-code`` (one a line):

* a row whose code is not the one the schema pass reports for its keyword;
* a keyword the version's schemas use that can fail with its own code (an assertion, ``not``,
  ``oneOf``/``anyOf``, ``contains``, ``items``/``additionalProperties``/``unevaluated*`` set to
  ``false``, or a ``false`` subschema elsewhere), with no row: SPEC.md would not say which code
  a validator reports for it (JSON Schema 2020-12 Core section 10 and Validation section 6 list
  the keywords; the applicators that only pass their subschemas' errors on need no row).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import jsonschema

from ..findings import Finding, Location
from ..markdown import Document
from ..pointer import join
from ..schemaset import SCHEMA_MAP_KEYWORDS, VALUE_KEYWORDS
from ..spec import SpecVersion
from ..specmd import VALIDATION_SECTION
from ..validation import keyword_code

KIND = "spec-keyword-code"

PASS_THROUGH = frozenset({"$ref", "$dynamicRef", "allOf", "if", "then", "else", "properties",
                          "patternProperties", "prefixItems", "dependentSchemas", "propertyNames"})
"""Applicators whose failures python-jsonschema reports with the failing inner keyword."""

_OWN_WHEN_FALSE = frozenset({"items", "additionalProperties", "unevaluatedProperties", "unevaluatedItems"})
_TICK = re.compile(r"^`([^`]+)`$")


def _uses(node: Any, ptr: str = "") -> Iterator[tuple[str, str]]:
    """``(keyword, pointer)`` for each keyword in ``node`` that can fail with its own code, and
    ``("false", pointer)`` for a ``false`` subschema that is not the value of such a keyword.
    The subschema of ``if`` is skipped: its failures select a branch and are never reported
    (JSON Schema 2020-12 Core section 10.2.2.1)."""
    known = jsonschema.Draft202012Validator.VALIDATORS
    stack: list[tuple[str, Any]] = [(ptr, node)]
    while stack:
        where, cur = stack.pop()
        if cur is False:
            yield "false", where
        if not isinstance(cur, dict):
            continue
        for key, value in cur.items():
            at = join(where, key)
            if key in _OWN_WHEN_FALSE:
                if value is False:
                    yield key, at
                    continue
            elif key in known and key not in PASS_THROUGH:
                yield key, at
            if key in VALUE_KEYWORDS or key == "if":  # an ``if`` never reports its errors
                continue
            if key in SCHEMA_MAP_KEYWORDS and isinstance(value, dict):
                stack.extend((join(at, k), v) for k, v in value.items())
            elif isinstance(value, list):
                stack.extend((join(at, i), v) for i, v in enumerate(value) if isinstance(v, (dict, bool)))
            elif isinstance(value, (dict, bool)):
                stack.append((at, value))


def keyword_code_findings(doc: Document, version: SpecVersion, label: str) -> list[Finding]:
    """Compare the Validation section's keyword table with the schema pass and the schemas.

    Args:
        doc: the parsed SPEC.md; version: the version whose schemas it describes; label:
            SPEC.md's path as findings name it.

    Returns:
        Findings in line order (rows first, then the keywords without a row, reported on the
        table's first line); none when the section has no table with ``Keyword`` and ``Code``.
    """
    heading = doc.section(VALIDATION_SECTION)
    if heading is None:
        return []
    table = next((t for t in doc.inside(heading, doc.tables)
                  if t.column("Keyword") is not None and t.column("Code") is not None), None)
    if table is None:
        return []
    kcol, ccol = table.column("Keyword"), table.column("Code")
    out: list[Finding] = []
    rows: set[str] = set()
    for row in table.rows:
        m = _TICK.match(row.cells[kcol].strip()) if kcol is not None and kcol < len(row.cells) else None
        if m is None or ccol is None or ccol >= len(row.cells):
            continue
        keyword, said = m.group(1), row.cells[ccol].strip().strip("`")
        rows.add(keyword)
        wanted = keyword_code(None if keyword == "false" else keyword)
        if said != wanted:
            out.append(Finding(KIND, f"the table codes `{keyword}` as {said}, but the schema pass "
                               f"reports {wanted}", new=Location(label, None, row.line)))
    missing: dict[str, str] = {}
    for f in version.schemas:
        for keyword, ptr in _uses(f.schema):
            if keyword not in rows:
                missing.setdefault(keyword, f"{f.name}#{ptr}")
    for keyword, where in missing.items():
        out.append(Finding(KIND, f"the schemas use `{keyword}` ({where}), which can fail with its own "
                           f"code {keyword_code(None if keyword == 'false' else keyword)}, but the "
                           "table gives no code for it", new=Location(label, None, table.line)))
    return out
