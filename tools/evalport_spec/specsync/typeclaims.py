"""What SPEC.md's prose says a member's JSON type is agrees with the schemas.

Two shapes of claim are read, outside the Changelog: "`name` is a[n] [open] TYPE" and
"`name` (a[n] [open] TYPE)", where TYPE is a JSON type word (``string``, ``integer``,
``number``, ``boolean``, ``object``, ``array``, ``null``). The claim holds when some property
called ``name`` in the version's schemas admits that type: its ``type`` keyword names it (an
``integer`` is a ``number`` too, JSON Schema 2020-12 Validation section 6.1.1), or, without
``type``, the values of its ``enum``/``const`` are of it, or one of its ``oneOf``/``anyOf``
branches (a ``$ref`` followed) does. A property whose type cannot be read that way, or a name no
property has (``spec-name-unknown`` reports that), gives no finding. A claim that holds for no
such property is one finding ``spec-type-claim`` on its line (a SPEC.md mutation sweep, session
37: "`role` (an open integer)" and "`type` is an open integer" passed every stage).
"""

from __future__ import annotations

import re
from typing import Any

from ..findings import Finding, Location
from ..markdown import Document
from ..schemawalk import resolve_ref, subschemas
from ..spec import SpecVersion
from .blocks import current_lines

KIND = "spec-type-claim"

TYPES = ("string", "integer", "number", "boolean", "object", "array", "null")
_TYPE = "|".join(TYPES)
_CLAIM = re.compile(rf"`([A-Za-z_][A-Za-z0-9_]*)` (?:is|\() ?an? (?:open )?({_TYPE})\b")


def _json_type(value: Any) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "integer" if value.is_integer() else "number"
    return {str: "string", list: "array", dict: "object", type(None): "null"}[type(value)]


def admitted_types(node: Any, uri: str, version: SpecVersion, depth: int = 0) -> set[str] | None:
    """The JSON types a property schema ``node`` (written in the file at ``uri``) admits, as far
    as the module docstring reads them, or ``None`` when they cannot be read."""
    if not isinstance(node, dict) or depth > 16:
        return None
    if isinstance(node.get("$ref"), str):
        target = resolve_ref(version.schemas, uri, node["$ref"])
        return admitted_types(target[1], target[0], version, depth + 1) if target is not None else None
    kind = node.get("type")
    if isinstance(kind, str):
        return {kind}
    if isinstance(kind, list):
        return {k for k in kind if isinstance(k, str)}
    values = node["enum"] if isinstance(node.get("enum"), list) else [node["const"]] if "const" in node else None
    if values is not None:
        return {_json_type(v) for v in values}
    for key in ("oneOf", "anyOf"):
        if isinstance(node.get(key), list):
            out: set[str] = set()
            for branch in node[key]:
                got = admitted_types(branch, uri, version, depth + 1)
                if got is None:
                    return None
                out |= got
            return out
    return None


def member_types(version: SpecVersion) -> dict[str, list[set[str] | None]]:
    """``{property name: [the types each property of that name admits, or None]}`` over every
    schema file of the version."""
    out: dict[str, list[set[str] | None]] = {}
    for loaded in version.schemas.files.values():
        for _, node in subschemas(loaded.schema):
            props = node.get("properties")
            for name, sub in props.items() if isinstance(props, dict) else ():
                out.setdefault(name, []).append(admitted_types(sub, loaded.uri, version))
    return out


def type_claim_findings(doc: Document, version: SpecVersion, label: str) -> list[Finding]:
    """One ``spec-type-claim`` finding per claim no property of its name bears out (module
    docstring)."""
    members = member_types(version)
    out = []
    for n, line in current_lines(doc):
        for m in _CLAIM.finditer(line):
            name, said = m.group(1), m.group(2)
            readings = members.get(name, [])
            if not readings or any(t is None for t in readings):
                continue
            admitted = set().union(*readings)
            if said in admitted or (said == "number" and "integer" in admitted):
                continue
            out.append(Finding(KIND, f"the prose says `{name}` is {'an' if said[0] in 'aeiou' else 'a'} {said}, "
                               f"but the schemas give it the type(s) {', '.join(sorted(admitted))}",
                               new=Location(label, None, n)))
    return out
