"""Walk a JSON Schema (2020-12) into the rows of a schema reference.

Every property a document of one type can carry becomes a :class:`Prop` keyed by its
*instance-location pattern*: a JSON Pointer (RFC 6901) in which the token ``*`` stands for any
array index or map key (the convention of ``rules.json``, see :mod:`evalport_spec.catalogue`).

``$ref`` is resolved through the version's offline registry (:class:`~evalport_spec.schemaset.SchemaSet`):
references inside the same file (``#/$defs/result``) are expanded in place, a reference to the
root of *another* document type's file (``"testcase.json"``) is not expanded but recorded in
:attr:`Prop.link` so the page links to that type's reference. Conditionals (``if``/``then``/
``else``, ``dependentRequired``, ``dependentSchemas``) are turned into prose.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urldefrag

from ..schemaprose import code, describe_condition
from ..schemaprose import names as _names
from ..schemaset import SchemaSet

_MISSING = object()

_CONSTRAINT_KEYS = (
    ("minLength", "min length {}"), ("maxLength", "max length {}"), ("pattern", "pattern `{}`"),
    ("format", "format `{}`"), ("minimum", "minimum {}"), ("exclusiveMinimum", "greater than {}"),
    ("maximum", "maximum {}"), ("exclusiveMaximum", "less than {}"), ("multipleOf", "multiple of {}"),
    ("minItems", "at least {} items"), ("maxItems", "at most {} items"),
    ("minProperties", "at least {} members"), ("maxProperties", "at most {} members"),
)


@dataclass
class Prop:
    """One row of a schema reference.

    Attributes:
        path: instance-location pattern, e.g. ``"/results/*/attempt"``.
        type: readable type summary (``"integer"``, ``"array of string"``, ``"TestCase"``).
        required: required in its parent object.
        constraints: readable constraints (``"minimum 1"``, ``"closed: no other members"``).
        default: the ``default`` annotation, or :data:`NO_DEFAULT`.
        description: the ``description`` annotation (Markdown), possibly ``""``.
        link: document type whose reference page this property's value is (cross-file ``$ref``).
        conditionals: ``(instance location, prose)`` for each conditional (``if``/``then``/``else``,
            ``dependentRequired``, ``dependentSchemas``) of this value or, for arrays, of its items.
        examples: the ``examples`` annotation's values (JSON Schema 2020-12), possibly ``[]``.
    """

    path: str
    type: str
    required: bool
    constraints: list[str] = field(default_factory=list)
    default: Any = _MISSING
    description: str = ""
    link: str | None = None
    conditionals: list[tuple[str, str]] = field(default_factory=list)
    examples: list[Any] = field(default_factory=list)

    @property
    def has_default(self) -> bool:
        """Whether the schema gives a ``default``."""
        return self.default is not _MISSING


NO_DEFAULT = _MISSING


class SchemaWalker:
    """Walks the schemas of one :class:`SchemaSet`; see the module docstring.

    Args:
        schemas: the version's schema set.
        doc_types: ``{file name: document type}`` of the set's top-level document schemas;
            a ``$ref`` to the root of one of these files is linked, not expanded.
    """

    def __init__(self, schemas: SchemaSet, doc_types: dict[str, str]) -> None:
        self.schemas = schemas
        self.root_types = {schemas.files[n].uri: t for n, t in doc_types.items() if n in schemas.files}
        self.titles = {schemas.files[n].uri: _title(schemas.files[n].schema, t)
                       for n, t in doc_types.items() if n in schemas.files}

    # -- resolution ------------------------------------------------------------------------
    def _resolve(self, node: Any, base: str) -> tuple[Any, str, str | None]:
        """Follow ``$ref`` chains of ``node``: ``(schema, base uri, linked doc type or None)``.

        Sibling keywords beside ``$ref`` win over the target's (annotations such as
        ``description`` are commonly placed beside a ``$ref``)."""
        seen: set[str] = set()
        merged: dict[str, Any] = {}
        while isinstance(node, dict) and isinstance(node.get("$ref"), str):
            ref = node["$ref"]
            for k, v in node.items():
                if k != "$ref":
                    merged.setdefault(k, v)
            key = f"{base}|{ref}"
            if key in seen:
                break
            seen.add(key)
            try:
                resolved = self.schemas.registry.resolver(base).lookup(ref)
            except Exception:  # unresolvable: the $ref check reports it; show it as is
                return {**merged, "$ref": ref}, base, None
            target_base = resolved.resolver._base_uri
            uri, frag = urldefrag(target_base)[0], urldefrag(ref)[1]
            if uri in self.root_types and uri != urldefrag(base)[0] and not frag:
                return {**merged, "$linked": uri}, base, self.root_types[uri]
            node, base = resolved.contents, target_base
        if merged and isinstance(node, dict):
            node = {**node, **merged}
        return node, base, None

    # -- summaries -------------------------------------------------------------------------
    def type_of(self, node: Any, base: str, depth: int = 0) -> str:
        """A readable type for ``node`` (after ``$ref``)."""
        node, base, linked = self._resolve(node, base)
        if linked:
            return self.titles.get(node["$linked"], linked)
        if node is True or node == {}:
            return "any"
        if node is False:
            return "nothing"
        if not isinstance(node, dict) or depth > 6:
            return "any"
        if "const" in node:
            return f"const {code(node['const'])}"
        branches = node.get("oneOf") or node.get("anyOf")
        if isinstance(branches, list) and "type" not in node:
            return " or ".join(dict.fromkeys(self.type_of(b, base, depth + 1) for b in branches))
        t = node.get("type")
        names = t if isinstance(t, list) else [t] if isinstance(t, str) else []
        if not names and isinstance(node.get("if"), dict) and "then" in node and "else" in node:
            then = {**node["if"], **node["then"]} if isinstance(node["then"], dict) else node["if"]
            return " or ".join(dict.fromkeys([self.type_of(then, base, depth + 1),
                                              self.type_of(node["else"], base, depth + 1)]))
        if not names:
            if "enum" in node:
                return "enum"
            if "properties" in node:
                names = ["object"]
            else:
                return "any"
        out = []
        for name in names:
            if name == "array" and "items" in node:
                out.append(f"array of {self.type_of(node['items'], base, depth + 1)}")
            else:
                out.append(name)
        return " or ".join(out)

    def constraints(self, node: Any, base: str, depth: int = 0) -> list[str]:
        """Readable validation constraints of ``node`` (not those of its members)."""
        node, base, linked = self._resolve(node, base)
        if linked or not isinstance(node, dict) or depth > 4:
            return []
        out = [tmpl.format(node[k]) for k, tmpl in _CONSTRAINT_KEYS if k in node]
        if "enum" in node:
            out.append("one of " + ", ".join(code(v) for v in node["enum"]))
        if node.get("uniqueItems") is True:
            out.append("items unique")
        if node.get("additionalProperties") is False or node.get("unevaluatedProperties") is False:
            out.append("closed: no other members")
        elif _is_object(node) and "properties" in node and "additionalProperties" not in node:
            out.append("open: other members allowed")
        elif isinstance(node.get("additionalProperties"), dict):
            out.append(f"other members: {self.type_of(node['additionalProperties'], base, depth + 1)}")
        if isinstance(node.get("propertyNames"), dict):
            names = self.constraints(node["propertyNames"], base, depth + 1)
            if names:
                out.append("member names: " + ", ".join(names))
        items = node.get("items")
        if isinstance(items, dict):
            inner = self.constraints(items, base, depth + 1)
            resolved_items = self._resolve(items, base)[0]
            if inner and not (isinstance(resolved_items, dict) and "properties" in resolved_items):
                out.append("each item: " + ", ".join(inner))
        for kw in ("oneOf", "anyOf"):
            branches = node.get(kw)
            if isinstance(branches, list):
                parts = []
                for b in branches:
                    c = self.constraints(b, base, depth + 1)
                    if c:
                        parts.append(f"{self.type_of(b, base, depth + 1)}: {', '.join(c)}")
                if parts:
                    word = "exactly one of" if kw == "oneOf" else "any of"
                    out.append(f"{word}: " + "; ".join(parts))
        if "not" in node:
            out.append(f"must not match {code(node['not'])}")
        return out

    # -- walking ---------------------------------------------------------------------------
    def walk(self, file_name: str) -> list[Prop]:
        """All properties of the document schema ``file_name``, in schema order (depth first).

        The first row (path ``""``) describes the document itself.

        Raises:
            KeyError: ``file_name`` is not in the set.
        """
        f = self.schemas.files[file_name]
        root = f.schema
        out: list[Prop] = []
        rootprop = Prop("", _title(root, file_name), True,
                        self.constraints(root, f.uri),
                        description=root.get("description", "") if isinstance(root, dict) else "")
        out.append(rootprop)
        self._object(root, f.uri, "", out, rootprop, frozenset())
        return out

    def paths(self, file_name: str) -> set[str]:
        """The instance-location patterns of :meth:`walk` (used to find when a property arrived)."""
        return {p.path for p in self.walk(file_name)}

    def _object(self, node: Any, base: str, path: str, out: list[Prop], owner: Prop,
                stack: frozenset[str]) -> None:
        node, base, linked = self._resolve(node, base)
        if linked or not isinstance(node, dict):
            return
        key = f"{base}#{id(node)}"
        if key in stack or len(stack) > 12:
            return
        stack = stack | {key}
        parts = [node] + [self._resolve(s, base)[0] for s in node.get("allOf", []) if isinstance(s, (dict, bool))]
        required: set[str] = set()
        for p in parts:
            if isinstance(p, dict) and isinstance(p.get("required"), list):
                required.update(x for x in p["required"] if isinstance(x, str))
        for p in parts:
            if not isinstance(p, dict):
                continue
            props = p.get("properties")
            if isinstance(props, dict):
                for name, sub in props.items():
                    self._member(name, sub, base, path, name in required, out, stack)
            owner.conditionals.extend((path, c) for c in self._conditionals(p))
            # members reachable through oneOf/anyOf branches of the object itself
            for kw in ("oneOf", "anyOf"):
                for b in p.get(kw, []) if isinstance(p.get(kw), list) else []:
                    rb, bb, bl = self._resolve(b, base)
                    if not bl and isinstance(rb, dict) and "properties" in rb:
                        self._object(rb, bb, path, out, owner, stack)
            extra = p.get("additionalProperties")
            if isinstance(extra, dict):
                rx, bx, lx = self._resolve(extra, base)
                if isinstance(rx, dict) and ("properties" in rx or lx):
                    self._member("*", extra, base, path, False, out, stack)
        items = node.get("items")
        if isinstance(items, (dict, bool)):
            self._object(items, base, path + "/*", out, owner, stack)

    def _member(self, name: str, sub: Any, base: str, path: str, required: bool,
                out: list[Prop], stack: frozenset[str]) -> None:
        from ..pointer import escape

        mpath = f"{path}/{escape(name)}" if name != "*" else f"{path}/*"
        if any(p.path == mpath for p in out):
            return
        resolved, rbase, linked = self._resolve(sub, base)
        prop = Prop(mpath, self.type_of(sub, base), required, self.constraints(sub, base),
                    link=linked)
        if isinstance(resolved, dict):
            prop.description = resolved.get("description", "") or ""
            if isinstance(resolved.get("examples"), list):
                prop.examples = list(resolved["examples"])
            if "default" in resolved:
                prop.default = resolved["default"]
        out.append(prop)
        if linked or not isinstance(resolved, dict):
            return
        if isinstance(resolved.get("items"), dict):
            prop.link = self._resolve(resolved["items"], rbase)[2]
        self._object(resolved, rbase, mpath, out, prop, stack)
        for kw in ("oneOf", "anyOf"):
            for b in resolved.get(kw, []) if isinstance(resolved.get(kw), list) else []:
                rb, bb, bl = self._resolve(b, rbase)
                if not bl and isinstance(rb, dict) and isinstance(rb.get("items"), (dict, bool)):
                    self._object(rb["items"], bb, mpath + "/*", out, prop, stack)

    # -- conditionals in prose ---------------------------------------------------------------
    def _conditionals(self, node: dict[str, Any]) -> list[str]:
        out = []
        if "if" in node and ("then" in node or "else" in node):
            cond = describe_condition(node["if"])
            if "then" in node:
                out.append(f"If {cond}, then {describe_consequence(node['then'])}.")
            if "else" in node:
                out.append(f"If not ({cond}), then {describe_consequence(node['else'])}.")
        dep = node.get("dependentRequired")
        if isinstance(dep, dict):
            for k, v in dep.items():
                out.append(f"If `{k}` is present, then {_names(v)} {'is' if len(v) == 1 else 'are'} required.")
        deps = node.get("dependentSchemas")
        if isinstance(deps, dict):
            for k, v in deps.items():
                out.append(f"If `{k}` is present, then {describe_consequence(v)}.")
        return out


def _is_object(node: dict[str, Any]) -> bool:
    t = node.get("type")
    return t == "object" or (isinstance(t, list) and "object" in t)


def _title(schema: Any, fallback: str) -> str:
    if isinstance(schema, dict) and isinstance(schema.get("title"), str):
        return schema["title"]
    return fallback.removesuffix(".json")


def describe_consequence(schema: Any, prefix: str = "") -> str:
    """Prose for a ``then``/``else``/dependent subschema: what becomes required or constrained."""
    if not isinstance(schema, dict):
        return "anything is allowed" if schema is True else "no value is allowed"
    parts: list[str] = []
    req = schema.get("required")
    if isinstance(req, list) and req:
        parts.append(f"{_names(req, prefix)} {'is' if len(req) == 1 else 'are'} required")
    props = schema.get("properties")
    if isinstance(props, dict):
        for name, sub in props.items():
            where = f"{prefix}{name}"
            if isinstance(sub, dict):
                inner = {k: v for k, v in sub.items() if k in ("properties", "required")}
                if inner:
                    parts.append(describe_consequence(inner, f"{where}."))
                cons = [tmpl.format(sub[k]) for k, tmpl in _CONSTRAINT_KEYS if k in sub]
                if "type" in sub:
                    cons.insert(0, f"type {' or '.join(sub['type']) if isinstance(sub['type'], list) else sub['type']}")
                if "const" in sub and set(sub) == {"const"}:
                    parts.append(f"`{where}` must be {code(sub['const'])}")
                    continue
                if "const" in sub:
                    cons.append(f"the value {code(sub['const'])}")
                if "enum" in sub:
                    cons.append("a value among " + ", ".join(code(v) for v in sub["enum"]))
                other = {k: v for k, v in sub.items() if k not in ("properties", "required", "type", "const",
                                                                   "enum", "$comment", "description")
                         and k not in dict(_CONSTRAINT_KEYS)}
                if other:
                    cons.append(f"matching {code(other)}")
                if cons:
                    parts.append(f"`{where}` must have " + ", ".join(cons))
            elif sub is False:
                parts.append(f"`{where}` must be absent")
    rest = {k: v for k, v in schema.items() if k not in ("properties", "required", "$comment", "description")}
    if set(rest) == {"$ref"} and not prefix:
        parts.append(f"the value must be a {rest['$ref'].removesuffix('.json').rsplit('/', 1)[-1]}")
    elif rest and not prefix and set(rest) <= dict(_CONSTRAINT_KEYS).keys():
        parts.append("the value must have " + ", ".join(t.format(rest[k]) for k, t in _CONSTRAINT_KEYS if k in rest))
    elif rest:
        parts.append(f"the value must match {code(rest)}")
    return "; ".join(parts) if parts else "nothing more is required"
