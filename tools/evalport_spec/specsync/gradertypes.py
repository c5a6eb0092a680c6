"""The "Grader types" table of SPEC.md agrees with ``grader.json``.

The table has one row per well-known grader type: the type in a code span in the first column,
the members ``params`` must carry in the second (code spans; a parenthesised note such as
``(string)`` or ``("python" or "javascript")`` describes a member and is not one; ``none`` for
no member). ``grader.json`` gives the well-known types as the ``examples`` of
``/properties/type`` and the required members through the ``if``/``then`` subschemas of its
``allOf``: a branch applies to a type when its ``if`` holds ``properties/type/const`` equal to it,
or ``not/properties/type/enum`` without it (the branch ``custom`` shares with extension types).
Findings ``spec-grader-types`` (one a line, on the table's row or heading):

* a type in the table that is not well known in the schema, or well known but not in the table;
* a row whose required members differ from those of the branches that apply to its type.
"""

from __future__ import annotations

import re
from typing import Any

from ..findings import Finding, Location
from ..markdown import Document
from ..spec import SpecVersion

KIND = "spec-grader-types"
SECTION = "Grader types"
SCHEMA = "grader.json"

_ROW = re.compile(r"^\|\s*`([^`]+)`\s*\|([^|]*)\|")
_NOTE = re.compile(r"\([^()]*\)")
_NAME = re.compile(r"`([A-Za-z_][A-Za-z0-9_]*)`")


def _applies(cond: Any, name: str) -> bool:
    """Whether an ``if`` of grader.json's shape selects grader type ``name``."""
    if not isinstance(cond, dict):
        return False
    prop = cond.get("properties", {}).get("type", {})
    if isinstance(prop, dict) and "const" in prop:
        return prop["const"] == name
    excluded = cond.get("not", {}).get("properties", {}).get("type", {}).get("enum")
    return isinstance(excluded, list) and name not in excluded


def required_params(schema: Any, name: str) -> set[str]:
    """Members of ``params`` grader.json requires for a grader of type ``name`` (the union over
    the ``allOf`` branches whose ``if`` selects it)."""
    out: set[str] = set()
    for branch in schema.get("allOf", []) if isinstance(schema, dict) else []:
        if isinstance(branch, dict) and _applies(branch.get("if"), name):
            params = branch.get("then", {}).get("properties", {}).get("params", {})
            out |= set(params.get("required", [])) if isinstance(params, dict) else set()
    return out


def grader_type_findings(doc: Document, version: SpecVersion, label: str) -> list[Finding]:
    """Compare the "Grader types" table with grader.json (see the module docstring).

    Returns findings in line order; none when SPEC.md has no such section or the version no
    grader.json (the structure checks report those).
    """
    heading = doc.section(SECTION)
    loaded = version.schemas.files.get(SCHEMA)
    if heading is None or loaded is None:
        return []
    schema = loaded.schema
    known = schema.get("properties", {}).get("type", {}).get("examples", [])
    out: list[Finding] = []
    seen: set[str] = set()
    for n in range(heading.line, heading.end):
        m = _ROW.match(doc.lines[n])
        if m is None or m.group(1) == "type":
            continue
        name, cell = m.group(1), m.group(2)
        seen.add(name)
        where = Location(label, None, n + 1)
        if name not in known:
            out.append(Finding(KIND, f"the table lists grader type `{name}`, which is not among the "
                               f"well-known types of {SCHEMA} (/properties/type/examples)", new=where))
            continue
        said = set(_NAME.findall(_NOTE.sub("", cell)))
        wanted = required_params(schema, name)
        if said != wanted:
            out.append(Finding(KIND, f"the table says `{name}` requires in params "
                               f"{', '.join(sorted(said)) or 'none'}, but {SCHEMA}'s if/then branches "
                               f"require {', '.join(sorted(wanted)) or 'none'}", new=where))
    for name in known:
        if name not in seen:
            out.append(Finding(KIND, f"{SCHEMA} has the well-known grader type `{name}`, which the "
                               "table does not list", new=Location(label, None, heading.line)))
    return out
