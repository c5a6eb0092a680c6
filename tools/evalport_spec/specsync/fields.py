"""Field tables: one generated table per titled object schema (SPEC.md "Documents").

Columns (issue 13): **Field**, **Type**, **Required** (``yes``, ``no``, or the condition under
which it is required, from ``dependentRequired``, ``dependentSchemas`` and ``if``/``then``),
**Constraints** (the validation keywords of the member's schema, in words), **Default** (the
``default`` annotation), **Since** (the first release whose schema has the field, from the
version history; a field no release has yet shows the version the draft will be released as)
and **Description** (the schema's ``description``, so one edit changes both).

The region id is ``fields <file stem>.<title>`` (``fields resultset.Result``). A member whose
schema is another titled object is shown as a link to that object's section.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from ..cache import ContentMemo, digest
from ..errors import InputError
from ..pointer import escape, split
from ..schemaprose import code, describe_condition, plain
from ..schemaset import SchemaSet
from ..schemawalk import TitledObject, resolve_ref, titled_objects
from ..spec import SEMVER, SpecVersion
from .blocks import TABLE, Block, Row, number, one_line

COLUMNS = ("Field", "Type", "Required", "Constraints", "Default", "Since", "Description")
NONE = "—"
"""What an empty cell shows."""

def region_id(obj: TitledObject) -> str:
    """``fields <file stem>.<title>`` for a titled object schema."""
    return f"fields {obj.file.removesuffix('.json')}.{obj.title}"


def anchor(title: str) -> str:
    """The HTML id a Markdown renderer gives the heading ``### <title>`` (lower case, words
    joined by hyphens, punctuation dropped)."""
    return re.sub(r"[-\s]+", "-", re.sub(r"[^\w\s-]", "", title).strip().lower())


SINCE = ContentMemo(maxsize=16)
""":func:`field_since` answers of this process, keyed by the releases' names and schema texts."""


def field_since(releases: Iterable[SpecVersion]) -> dict[tuple[str, str], str]:
    """``{(object title, property): the first release whose schema has it}`` over ``releases``
    (oldest first). Memoised by content (:data:`SINCE`): every region of SPEC.md asks again.

    Raises:
        InputError: unreadable schemas (as ``version.schemas``).
    """
    releases = list(releases)
    key = digest("field-since", [(v.name, [(f.name, f.loaded.text) for f in v.schemas]) for v in releases])
    return SINCE.get(key, lambda: _field_since(releases))


def _field_since(releases: list[SpecVersion]) -> dict[tuple[str, str], str]:
    out: dict[tuple[str, str], str] = {}
    for v in releases:
        for o in titled_objects(v.schemas):
            for p in o.properties:
                out.setdefault((o.title, p), v.name)
    return out


def node_at(schemas: SchemaSet, obj: TitledObject) -> Any:
    """The object schema a :class:`TitledObject` points at."""
    node: Any = schemas.files[obj.file].schema
    for token in split(obj.pointer):
        node = node[int(token)] if isinstance(node, list) else node[token]
    return node


class FieldTables:
    """Renders the field tables of one version.

    Args:
        schemas: the version's schema set.
        since: :func:`field_since` over the releases up to this version.
        unreleased: what **Since** shows for a field no release has (the declared version).
    """

    def __init__(self, schemas: SchemaSet, since: Mapping[tuple[str, str], str], unreleased: str) -> None:
        self.schemas = schemas
        self.since = since
        self.unreleased = unreleased

    def blocks(self) -> list[Block]:
        """One :class:`Block` per titled object schema (the first of each title), in file order."""
        out: list[Block] = []
        seen: set[str] = set()
        for obj in titled_objects(self.schemas):
            if obj.title not in seen:
                seen.add(obj.title)
                out.append(self.block(obj))
        return out

    def block(self, obj: TitledObject) -> Block:
        """The field table of one titled object."""
        node = node_at(self.schemas, obj)
        base = self.schemas.files[obj.file].uri
        required = _required(node)
        rows = []
        for name, sub in node.get("properties", {}).items():
            origin = f"{obj.source}#{obj.pointer}/properties/{escape(name)}"
            resolved, rbase = self.deref(sub, base)
            since = self.since.get((obj.title, name), self.unreleased)
            default = code(resolved["default"]) if isinstance(resolved, dict) and "default" in resolved else NONE
            desc = resolved.get("description", "") if isinstance(resolved, dict) else ""
            cells = {"Field": f"`{name}`", "Type": one_line(self.type_of(sub, base)),
                     "Required": one_line(required.get(name, "no")),
                     "Constraints": one_line("; ".join(self.constraints(sub, base)) or NONE),
                     "Default": one_line(default), "Since": since, "Description": one_line(desc) or NONE}
            history = ("the release history", f"the first release whose schema has {obj.title}.{name}")
            rows.append(Row(f"`{name}`", cells, origin, "the schema", {"Since": history}))
        return Block(region_id(obj), TABLE, rows, COLUMNS)

    # -- schemas ---------------------------------------------------------------------------
    def deref(self, node: Any, base: str) -> tuple[Any, str]:
        """Follow ``$ref`` chains: ``(schema, base URI)``; keywords beside a ``$ref`` win.

        Raises:
            InputError: a ``$ref`` that does not resolve in the set (named with the file it is
                written in): a table rendered around it would describe a schema that is not the
                one meant, and ``spec sync`` would write that over the right one.
        """
        merged: dict[str, Any] = {}
        for _ in range(32):
            if not (isinstance(node, dict) and isinstance(node.get("$ref"), str)):
                break
            merged = {**{k: v for k, v in node.items() if k != "$ref"}, **merged}
            hit = resolve_ref(self.schemas, base, node["$ref"])
            if hit is None:
                where = self.schemas.by_uri(base)
                raise InputError(f"$ref {node['$ref']!r} does not resolve in the schema set: generated "
                                 "regions are not rendered from a broken schema",
                                 where.loaded.source if where is not None else base)
            base, node = hit
        if merged and isinstance(node, dict):
            node = {**node, **merged}
        return node, base

    def type_of(self, node: Any, base: str, depth: int = 0) -> str:
        """A readable type: ``string``, ``array of [Result](#result)``, ``string or null``."""
        node, base = self.deref(node, base)
        if node is True or node == {}:
            return "any"
        if not isinstance(node, dict) or depth > 6:
            return "nothing" if node is False else "any"
        if isinstance(node.get("title"), str) and isinstance(node.get("properties"), dict):
            return f"[{node['title']}](#{anchor(node['title'])})"
        if "const" in node:
            return f"const {code(node['const'])}"
        t = node.get("type")
        names = t if isinstance(t, list) else [t] if isinstance(t, str) else []
        branches = _branches(node)
        if not names and branches:
            return " or ".join(dict.fromkeys(self.type_of(b, base, depth + 1) for b in branches))
        if not names and isinstance(node.get("enum"), list):
            names = list(dict.fromkeys(_json_type(v) for v in node["enum"]))
        if not names and "properties" not in node:  # every allOf member holds: the first typed one names it
            for part in node.get("allOf") or []:
                if (t := self.type_of(part, base, depth + 1)) != "any":
                    return t
        if not names:
            return "object" if "properties" in node else "any"
        out = []
        for n in names:
            if n == "array" and isinstance(node.get("items"), (dict, bool)):
                out.append(f"array of {self.type_of(node['items'], base, depth + 1)}")
            else:
                out.append(n)
        return " or ".join(out)

    def constraints(self, node: Any, base: str, depth: int = 0) -> list[str]:
        """The validation keywords of ``node`` in words (not those of a linked object)."""
        node, base = self.deref(node, base)
        if not isinstance(node, dict) or depth > 4:
            return []
        if isinstance(node.get("title"), str) and isinstance(node.get("properties"), dict):
            return []
        out = [constraint_phrase(k, node[k]) for k in _WORDS if k in node]
        if isinstance(node.get("enum"), list):
            out.append("one of " + ", ".join(code(v) for v in node["enum"]))
        if node.get("uniqueItems") is True:
            out.append("items unique")
        if node.get("type") == "object" or "properties" in node:
            extra = node.get("additionalProperties", node.get("unevaluatedProperties"))
            if extra is False:
                out.append("closed: no other members")
            elif isinstance(extra, dict):
                out.append(f"each member: {self.type_of(extra, base, depth + 1)}")
            else:
                out.append("open: any members")
        items = node.get("items")
        if isinstance(items, dict):
            inner = self.constraints(items, base, depth + 1)
            if inner:
                out.append("each item: " + ", ".join(inner))
        parts = [f"{self.type_of(b, base, depth + 1)}: {', '.join(c)}"
                 for b in _branches(node) if (c := self.constraints(b, base, depth + 1))]
        if parts:
            out.append("; ".join(parts))
        if "type" in node:  # alternatives beside a type (_branches reads them only without one)
            for kw, word in (("oneOf", "one of"), ("anyOf", "any of")):
                alts = [", ".join(c) or "any" for b in node.get(kw) or [] if isinstance(b, (dict, bool))
                        for c in [self.constraints(b, base, depth + 1)]]
                if isinstance(node.get(kw), list) and any(a != "any" for a in alts):
                    out.append(f"{word}: " + " | ".join(alts))
        for part in node.get("allOf") or []:  # every member holds, so its constraints are the field's
            if isinstance(part, (dict, bool)):
                out += [c for c in self.constraints(part, base, depth + 1)
                        if not c.startswith(("open: ", "closed: ")) or "properties" in part]
        if "not" in node:
            out.append(f"not {code(plain(node['not']))}")
        return out


def _branches(node: dict[str, Any]) -> list[Any]:
    """The alternatives of a schema without ``type``: its ``oneOf``/``anyOf`` branches, or for
    ``if``/``then``/``else`` the ``if`` joined with ``then``, and the ``else``."""
    if "type" in node:
        return []
    for kw in ("oneOf", "anyOf"):
        if isinstance(node.get(kw), list):
            return node[kw]
    cond = node.get("if")
    if isinstance(cond, dict) and isinstance(node.get("then"), dict) and "else" in node:
        return [{**cond, **node["then"]}, node["else"]]
    return []


_WORDS = ("minLength", "maxLength", "pattern", "format", "minimum", "exclusiveMinimum", "maximum",
          "exclusiveMaximum", "multipleOf", "minItems", "maxItems", "minProperties", "maxProperties")


def _plural(n: Any, word: str) -> str:
    return f"{number(n)} {word}" + ("" if n == 1 else "s")


def constraint_phrase(keyword: str, value: Any) -> str:
    """How the field tables' Constraints column says ``keyword: value`` (one of the
    constraint keywords: ``minLength`` -> ``at least 3 characters``, ``minimum`` -> ``≥ 0``,
    ``pattern`` -> the pattern in a code span)."""
    if keyword == "pattern":
        return "Semantic Versioning 2.0.0" if value == SEMVER.pattern else f"pattern {code(value)}"
    if keyword == "format":
        return f"format `{value}`"
    words = {"minLength": ("at least", "character"), "maxLength": ("at most", "character"),
             "minItems": ("at least", "item"), "maxItems": ("at most", "item"),
             "minProperties": ("at least", "member"), "maxProperties": ("at most", "member")}
    if keyword in words:
        lead, noun = words[keyword]
        return f"{lead} {_plural(value, noun)}"
    sign = {"minimum": "≥", "exclusiveMinimum": ">", "maximum": "≤", "exclusiveMaximum": "<",
            "multipleOf": "multiple of"}[keyword]
    return f"{sign} {number(value)}"


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    return {str: "string", list: "array", dict: "object"}[type(value)]


def _required(node: dict[str, Any]) -> dict[str, str]:
    """``{property: "yes" or "when ..."}`` for every member ``node`` requires, always or under a
    condition (``required``; ``allOf`` items; ``if``/``then``/``else``; ``dependentRequired``;
    ``dependentSchemas``). Equality conditions on one member are merged into one list."""
    always: set[str] = set()
    conditions: dict[str, list[tuple[str, Any]]] = {}

    def when(name: str, what: str, value: Any = None) -> None:
        conditions.setdefault(name, []).append((what, value))

    parts = [node] + [p for p in node.get("allOf", []) if isinstance(p, dict)]
    for p in parts:
        if p is node or not any(k in p for k in ("if", "then", "else")):
            always.update(x for x in p.get("required", []) if isinstance(x, str))
        cond = p.get("if")
        for branch, negate in (("then", False), ("else", True)):
            then = p.get(branch)
            if cond is None or not isinstance(then, dict):
                continue
            eq = None if negate else _equality(cond)
            for name in then.get("required", []):
                if eq is not None:
                    when(name, "eq", eq)
                else:
                    text = describe_condition(plain(cond))
                    when(name, f"not ({text})" if negate else text)
    for key, names in (node.get("dependentRequired") or {}).items():
        for name in names:
            when(name, f"`{key}` is present")
    for key, sub in (node.get("dependentSchemas") or {}).items():
        for name in sub.get("required", []) if isinstance(sub, dict) else []:
            when(name, f"`{key}` is present")
    out = {name: "yes" for name in always}
    for name, conds in conditions.items():
        if name in always:
            continue
        texts: list[str] = []
        equal: dict[str, list[Any]] = {}
        for what, value in conds:
            if what == "eq":
                equal.setdefault(value[0], []).append(value[1])
            else:
                texts.append(what)
        for member, values in equal.items():
            listed = [code(v) for v in values]
            joined = listed[0] if len(listed) == 1 else ", ".join(listed[:-1]) + " or " + listed[-1]
            texts.insert(0, f"`{member}` is {joined}")
        out[name] = "when " + "; or when ".join(texts)
    return out


def _equality(cond: Any) -> tuple[str, Any] | None:
    """``(member, value)`` when ``cond`` only says that one member is present and equals a
    constant, else ``None``."""
    bare = plain(cond)
    if not isinstance(bare, dict) or set(bare) - {"required", "properties"}:
        return None
    props = bare.get("properties")
    if not isinstance(props, dict) or len(props) != 1:
        return None
    (member, sub), = props.items()
    if not isinstance(sub, dict) or set(sub) != {"const"} or bare.get("required", [member]) != [member]:
        return None
    return member, sub["const"]
