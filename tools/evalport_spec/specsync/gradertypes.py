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
* a row whose required members differ from those of the branches that apply to its type;
* a member whose parenthesised note says other than its schema in those branches
  (``properties/params/properties/NAME`` of each ``then``), as :func:`member_note` writes it:
  ``string`` (``strings`` for a note shared by several members), ``number in [0, 1]`` for an
  inclusive ``minimum`` and ``maximum``, other bounds as the field tables write them
  (``string, at least 1 character``), ``object or boolean`` for a list of types, ``any value``
  for a member with no assertion, for an ``enum`` its values as JSON in code spans joined by
  "or" (the ``language`` of ``code``). A
  member whose schema uses any other keyword (``items``, ``$ref``...) is not compared: the note
  cannot say it. A note shared by several members must fit each of them.

Red team, session 37: every note could be made false (``threshold`` an "integer in [0, 1]",
``substring`` an "integer") and the gate passed.
"""

from __future__ import annotations

import json
import re
from typing import Any

from ..findings import Finding, Location
from ..markdown import Document
from ..spec import SpecVersion
from .blocks import number, one_line
from .fields import constraint_phrase

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


ANNOTATIONS = frozenset({"description", "title", "examples", "default", "$comment", "deprecated",
                         "readOnly", "writeOnly"})
"""Keywords that assert nothing (JSON Schema 2020-12 meta-data vocabulary, section 9, and
``$comment``): a note need not mention them."""

NOTED = frozenset({"type", "enum", "const", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
                   "minLength", "maxLength", "pattern", "format", "multipleOf", "minItems", "maxItems",
                   "minProperties", "maxProperties"})
"""The assertion keywords a member note can say (:func:`member_note`)."""


def member_note(node: Any, shared: bool = False) -> str | None:
    """The note the Grader types table writes after a member whose schema is ``node`` (module
    docstring); ``shared``: the note follows several members (``strings``). ``None`` when the
    schema uses a keyword the note cannot say (:data:`NOTED`, :data:`ANNOTATIONS`)."""
    if node is True or node == {}:
        return "any value"
    if not isinstance(node, dict) or set(node) - NOTED - ANNOTATIONS:
        return None
    if "enum" in node or "const" in node:
        values = node["enum"] if "enum" in node else [node["const"]]
        if set(node) & (NOTED - {"enum", "const"}) or not isinstance(values, list):
            return None
        return " or ".join(f"`{json.dumps(v, ensure_ascii=False)}`" for v in values)
    types = node.get("type")
    names = [types] if isinstance(types, str) else types if isinstance(types, list) else None
    if names is None:
        base = "any value"
    else:
        base = " or ".join(f"{t}s" if shared and len(names) == 1 else str(t) for t in names)
    if isinstance(node.get("minimum"), (int, float)) and isinstance(node.get("maximum"), (int, float)):
        bounds = f" in [{number(node['minimum'])}, {number(node['maximum'])}]"
        rest = [k for k in NOTED - {"type", "minimum", "maximum"} if k in node]
    else:
        bounds, rest = "", [k for k in NOTED - {"type"} if k in node]
    words = [constraint_phrase(k, node[k]) for k in sorted(rest)]
    return base + bounds + "".join(f", {w}" for w in words)


def _member_schemas(schema: Any, type_name: str, member: str) -> list[Any]:
    """The schemas of ``params/properties/MEMBER`` in the branches that select ``type_name``."""
    out = []
    for branch in schema.get("allOf", []) if isinstance(schema, dict) else []:
        if isinstance(branch, dict) and _applies(branch.get("if"), type_name):
            props = branch.get("then", {}).get("properties", {}).get("params", {}).get("properties", {})
            if isinstance(props, dict) and member in props:
                out.append(props[member])
    return out


def _noted_groups(cell: str) -> list[tuple[list[str], str]]:
    """``[(members, note)]`` of a Required-in-params cell: each parenthesised note with the
    member code spans written since the previous note."""
    out, start = [], 0
    for m in _NOTE.finditer(cell):
        names = _NAME.findall(cell[start:m.start()])
        if names:
            out.append((names, one_line(m.group(0)[1:-1])))
        start = m.end()
    return out


def _note_findings(schema: Any, type_name: str, cell: str, where: Location) -> list[Finding]:
    out = []
    for names, said in _noted_groups(cell):
        for name in names:
            for node in _member_schemas(schema, type_name, name):
                want = member_note(node, shared=len(names) > 1)
                if want is not None and want != said:
                    out.append(Finding(KIND, f"the table says `{type_name}`'s param `{name}` is ({said}), but "
                                       f"{SCHEMA}'s if/then branch makes it ({want})", new=where))
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
        out += _note_findings(schema, name, cell, where)
    for name in known:
        if name not in seen:
            out.append(Finding(KIND, f"{SCHEMA} has the well-known grader type `{name}`, which the "
                               "table does not list", new=Location(label, None, heading.line)))
    return out
