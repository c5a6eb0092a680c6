"""SPEC.md's claims of closed and open objects agree with the schemas.

An object is *closed* when ``additionalProperties`` or ``unevaluatedProperties`` is ``false``
(JSON Schema 2020-12 Core sections 10.3.2.3 and 11.3); a member is *open* when some object its
schema admits is not closed (its own object, or the entries or items it holds). Three claims are
checked:

* Documents, "Every object is closed": each titled object schema (one with a field table) is
  closed;
* the exceptions listed after it, "every `metadata`, `member` (Title and Title)": each named
  member is declared and open ("every `m`" names ``m`` of every titled object that declares it),
  and every open member of a titled object is named (a new open member the prose does not list
  would make "every object is closed" false);
* the Extension mechanism section's list, "`member` on Title, Title and Title": the same two
  ways (each named member open, each open member named).

A difference is one finding ``spec-openness`` on the claim's line.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Any

from ..findings import Finding, Location
from ..markdown import Document
from ..schemaset import SchemaSet
from ..schemawalk import TitledObject, resolve_ref, titled_objects
from ..spec import SpecVersion
from .fields import node_at

KIND = "spec-openness"

_EVERY_CLOSED = "Every object is closed"
_EXTENSION_SECTION = "Extension mechanism"
_TITLES = r"([A-Z][A-Za-z]*(?:(?:, | and )[A-Z][A-Za-z]*)*)"
_EXCEPTION = re.compile(r"`([A-Za-z_]+)` \(" + _TITLES + r"\)")
_EVERY = re.compile(r"\bevery `([A-Za-z_]+)`")
_ON = re.compile(r"`([A-Za-z_]+)`,? on " + _TITLES)
_NESTED = ("items", "additionalProperties", "unevaluatedProperties")
_BRANCHES = ("allOf", "anyOf", "oneOf")

Pair = tuple[str, str]  # (title, member)


def closed(node: Any) -> bool:
    """Whether an object schema admits no undeclared member."""
    return isinstance(node, dict) and (node.get("additionalProperties") is False
                                       or node.get("unevaluatedProperties") is False)


def _admits_object(node: dict[str, Any]) -> bool:
    kind = node.get("type")
    if "enum" in node or "const" in node:
        values = node["enum"] if "enum" in node and isinstance(node["enum"], list) else [node.get("const")]
        return any(isinstance(v, dict) for v in values)
    return kind is None or kind == "object" or (isinstance(kind, list) and "object" in kind)


def _rejects_objects(node: Any) -> bool:
    """Whether a schema's ``type`` alone rejects every object."""
    kind = node.get("type") if isinstance(node, dict) else None
    return isinstance(kind, str) and kind != "object" or isinstance(kind, list) and "object" not in kind


class _Walk:
    """Openness of subschemas of one schema set (see the module docstring); ``$ref``s are
    followed inside the set, never into a titled object (checked as a whole) nor round a cycle."""

    def __init__(self, schemas: SchemaSet, titled: set[int]) -> None:
        self.schemas = schemas
        self.titled = titled
        self.seen: set[int] = set()

    def member(self, uri: str, node: Any) -> bool:
        """Whether ``node`` admits an object that is not closed, itself or among the entries and
        items it holds."""
        return self.admits_open(uri, node) or self.holds_open(uri, node)

    def admits_open(self, uri: str, node: Any) -> bool:
        """Whether ``node`` itself accepts some object with an undeclared member (in-place
        applicators read: ``$ref``, ``allOf``, ``anyOf``/``oneOf``, ``if``/``then``/``else``)."""
        if node is True:
            return True
        if not isinstance(node, dict) or id(node) in self.titled or not _admits_object(node) or closed(node):
            return False
        if id(node) in self.seen:
            return False
        self.seen.add(id(node))
        try:
            ref = node.get("$ref")
            if isinstance(ref, str):
                target = resolve_ref(self.schemas, uri, ref)
                if target is not None and not self.admits_open(*target):
                    return False
            if any(not self.admits_open(uri, x) for x in node.get("allOf", []) if isinstance(node.get("allOf"), list)):
                return False
            for k in ("anyOf", "oneOf"):
                if isinstance(node.get(k), list) and not any(self.admits_open(uri, x) for x in node[k]):
                    return False
            if "if" in node:
                then = node.get("then", True)
                other = node.get("else", True)
                branches = [other] if _rejects_objects(node["if"]) else [then, other]
                if not any(self.admits_open(uri, x) for x in branches):
                    return False
            return True
        finally:
            self.seen.discard(id(node))

    def holds_open(self, uri: str, node: Any) -> bool:
        """Whether an entry or item ``node`` admits (``items``, ``prefixItems``,
        ``additionalProperties``, also through its in-place applicators) is open."""
        if not isinstance(node, dict) or id(node) in self.titled or id(node) in self.seen:
            return False
        self.seen.add(id(node))
        try:
            held = [node[k] for k in _NESTED if isinstance(node.get(k), dict)]
            held += [x for x in node.get("prefixItems", []) if isinstance(node.get("prefixItems"), list)]
            if any(self.member(uri, x) for x in held):
                return True
            ref = node.get("$ref")
            if isinstance(ref, str):
                target = resolve_ref(self.schemas, uri, ref)
                if target is not None and self.holds_open(*target):
                    return True
            inplace = [x for k in _BRANCHES if isinstance(node.get(k), list) for x in node[k]]
            inplace += [node[k] for k in ("then", "else") if k in node]
            return any(self.holds_open(uri, x) for x in inplace)
        finally:
            self.seen.discard(id(node))


def open_members(schemas: SchemaSet) -> dict[Pair, TitledObject]:
    """Every ``(title, member)`` of a titled object whose member schema is open (see the module
    docstring), mapped to its titled object; the first object of each title counts."""
    objects = {}
    for obj in titled_objects(schemas):
        objects.setdefault(obj.title, obj)
    titled = {id(node_at(schemas, o)) for o in objects.values()}
    out: dict[Pair, TitledObject] = {}
    for title, obj in objects.items():
        uri = schemas.files[obj.file].uri
        walk = _Walk(schemas, titled)
        for member, sub in node_at(schemas, obj).get("properties", {}).items():
            if walk.member(uri, sub):
                out[(title, member)] = obj
    return out


def _named(text: str, pattern: re.Pattern[str], declared: dict[str, tuple[str, ...]]) -> Iterator[Pair]:
    """``(title, member)`` pairs ``text`` names with ``pattern`` (member, titles) and with
    "every `member`" (each title in ``declared`` whose properties include it)."""
    for m in pattern.finditer(text):
        for title in re.split(r", | and ", m.group(2)):
            yield title, m.group(1)
    for m in _EVERY.finditer(text):
        yield from ((t, m.group(1)) for t, props in declared.items() if m.group(1) in props)


def _compare(named: Iterable[tuple[Pair, Location]], opened: dict[Pair, TitledObject],
             declared: dict[str, tuple[str, ...]], where: Location, claim: str) -> list[Finding]:
    """Findings for a list of open members (each pair with the line that names it) against the
    schemas' open members; a member missing from the list is reported at ``where``."""
    out = []
    names = dict(reversed(list(named)))  # the first line that names a pair
    for (title, member), at in names.items():
        if member not in declared.get(title, ()):
            out.append(Finding(KIND, f"{claim} names `{member}` of {title} as open, but {title} has no "
                               "such member", new=at))
        elif (title, member) not in opened:
            out.append(Finding(KIND, f"{claim} names `{member}` of {title} as open, but its schema "
                               "closes it", new=at))
    for (title, member), obj in opened.items():
        if (title, member) not in names:
            out.append(Finding(KIND, f"`{member}` of {title} ({obj.file}#{obj.pointer}/properties/"
                               f"{member}) admits undeclared members, but {claim} does not name it "
                               "as open", new=where))
    return out


def openness_findings(doc: Document, version: SpecVersion, label: str) -> list[Finding]:
    """Findings for the claims of the module docstring; none for a claim SPEC.md does not make.

    Args:
        doc: the parsed SPEC.md.
        version: the version whose schemas it describes.
        label: SPEC.md's path as findings name it.

    Returns:
        ``spec-openness`` findings, each on the line of the claim it contradicts.
    """
    schemas = version.schemas
    objects = {o.title: o for o in reversed(titled_objects(schemas))}
    declared = {t: tuple(node_at(schemas, o).get("properties", {})) for t, o in objects.items()}
    opened = open_members(schemas)
    out = []
    for n, line in enumerate(doc.lines, start=1):
        if _EVERY_CLOSED not in line:
            continue
        where = Location(label, None, n)
        for title, obj in objects.items():
            if not closed(node_at(schemas, obj)):
                out.append(Finding(KIND, f'the prose says every object is closed, but {title} '
                                   f'({obj.file}#{obj.pointer}) admits undeclared members', new=where))
        claim = line[line.index(_EVERY_CLOSED):]
        out += _compare(((x, where) for x in _named(claim, _EXCEPTION, declared)), opened, declared,
                        where, "the prose")
    section = doc.section(_EXTENSION_SECTION)
    if section is not None:
        paragraphs = doc.inside(section, doc.paragraphs)
        said = [(x, Location(label, None, p.line)) for p in paragraphs for x in _named(p.source, _ON, declared)]
        if said:
            out += _compare(said, opened, declared, said[0][1], "the Extension mechanism list")
    return out
