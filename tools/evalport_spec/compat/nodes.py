"""Schema locations of a schema set, offline ``$ref`` resolution, and validation at a location.

A :class:`Node` names one subschema: which side of the comparison (``"old"``/``"new"``), the
file of the set, and the JSON Pointer (RFC 6901) of the subschema inside that file; a
*synthetic* node carries an inline schema instead (used to express ``dependentRequired`` as
``if``/``then``, or "only type t"). :class:`Side` indexes a :class:`~evalport_spec.schemaset.
SchemaSet` (every ``$id`` and ``$anchor`` with the file and pointer holding it, JSON Schema
2020-12 section 8.2) so that ``$ref`` resolves to a node, never over the network, and validates
instances against any node with the real ``jsonschema`` validator and the set's registry.
"""

from __future__ import annotations

import hashlib
import json
import zlib
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any
from urllib.parse import quote, unquote, urldefrag, urljoin

from ..ecmaregex import jsonschema_rs_reads_alike
from ..pointer import escape, resolve
from ..schemaset import SchemaSet, identifier, meta_schemas
from .untouched import reach

D4, D6, D7, D2019, D2020 = 4, 6, 7, 2019, 2020
_UNBUILT = object()

_DIALECTS = (("draft-04", D4), ("draft-06", D6), ("draft-07", D7), ("2019-09", D2019),
             ("2020-12", D2020))


def dialect_of(uri: str | None) -> int:
    """The dialect number for a ``$schema`` URI (4, 6, 7, 2019 or 2020; 2020 when absent).

    Raises:
        ValueError: a ``$schema`` naming no known dialect.
    """
    if uri is None:
        return D2020
    for text, num in _DIALECTS:
        if text in uri:
            return num
    raise ValueError(f"unknown $schema {uri!r}")


# Keywords whose value is one subschema / a map of subschemas / an array of subschemas.
SINGLE = ("additionalProperties", "not", "if", "then", "else", "contains", "propertyNames",
          "unevaluatedProperties", "unevaluatedItems", "additionalItems")
MAPS = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")
LISTS = ("allOf", "anyOf", "oneOf", "prefixItems")
_HOLDERS = frozenset((*SINGLE, *MAPS, *LISTS, "dependencies", "items"))


def subschemas(value: Any, ptr: str) -> list[tuple[str, Any]]:
    """``[(pointer, subschema)]`` for the subschemas directly inside schema ``value`` at ``ptr``."""
    out: list[tuple[str, Any]] = []
    if not isinstance(value, dict) or value.keys().isdisjoint(_HOLDERS):
        return out  # most subschemas are leaves: one set operation
    # keywords need no RFC 6901 escaping; member names are escaped (pointer.escape) when needed
    for k in SINGLE:
        if isinstance(value.get(k), (dict, bool)):
            out.append((f"{ptr}/{k}", value[k]))
    for k in (*MAPS, "dependencies"):
        m = value.get(k)
        if isinstance(m, dict):
            out.extend((f"{ptr}/{k}/{escape(n) if '~' in n or '/' in n else n}", s) for n, s in m.items()
                       if isinstance(s, (dict, bool)))
    for k in LISTS:
        if isinstance(value.get(k), list):
            out.extend((f"{ptr}/{k}/{i}", s) for i, s in enumerate(value[k]) if isinstance(s, (dict, bool)))
    items = value.get("items")
    if isinstance(items, (dict, bool)):
        out.append((f"{ptr}/items", items))
    elif isinstance(items, list):
        out.extend((f"{ptr}/items/{i}", s) for i, s in enumerate(items) if isinstance(s, (dict, bool)))
    return out


def stable_hash(*parts: str | None) -> int:
    """A hash of ``parts`` (strings or ``None``) that is the same in every process: the CRC-32
    of their UTF-8 text (``zlib.crc32``) with the text's length above it. Python's own ``hash``
    of a string changes from process to process (``PYTHONHASHSEED``) and, before Python 3.12,
    so does ``hash(None)`` (an address), so a set of nodes hashed that way was iterated in
    another order in each run, and so was the order in which the checker tried a case's negated
    parts: the proof of a random pair of ``tests/differential_gen.py`` (seed 439) came out three
    ways in five runs, under one ``PYTHONHASHSEED``. Equal parts give equal hashes; a collision
    costs only an equality test."""
    data = "\x00".join("\x01" if p is None else "\x02" + p for p in parts).encode("utf-8", "surrogatepass")
    return zlib.crc32(data) | (len(data) << 32)


@dataclass(frozen=True)
class Node:
    """One subschema: ``side`` (``"old"``/``"new"``), ``file`` (name in the set), ``ptr`` (JSON
    Pointer into the file) and, for a synthetic node, ``syn`` (the inline schema as JSON text)."""

    side: str
    file: str
    ptr: str
    syn: str | None = None

    def __hash__(self) -> int:  # nodes are dictionary keys everywhere: hash once
        try:
            return self._hash  # type: ignore[attr-defined,has-type]
        except AttributeError:
            h = stable_hash(self.side, self.file, self.ptr, self.syn)
            object.__setattr__(self, "_hash", h)
            return h

    @property
    def id(self) -> str:
        """Printable identity, e.g. ``old:resultset.json#/properties/results``."""
        return f"{self.side}:{self.file}#{self.ptr}" + (f"+{self.syn}" if self.syn else "")


class Unresolvable(Exception):
    """A ``$ref`` that does not resolve inside the set (the message says why)."""


class TooDeep(RecursionError):
    """Validation recursed past the interpreter's limit. Also raised for the Rust ``PanicException``
    that the ``referencing`` registry (``rpds``) turns a ``RecursionError`` into (it derives from
    ``BaseException``, so it would otherwise escape every ``except Exception``)."""


def _too_deep(exc: BaseException) -> bool:
    return isinstance(exc, RecursionError) or type(exc).__name__ == "PanicException"


def _guarded(fn: Any, instance: Any) -> bool:
    """``fn(instance)``: True/False; referencing errors count as not valid; too deep raises
    :class:`TooDeep`."""
    try:
        return fn(instance)
    except Exception as exc:
        # (loaded already when python-jsonschema raised it; not before a validator is needed)
        from jsonschema.exceptions import SchemaError

        if isinstance(exc, SchemaError):
            raise
        if _too_deep(exc):
            raise TooDeep(str(exc)) from None
        return False  # referencing errors on malformed refs count as "not valid"
    except BaseException as exc:
        if _too_deep(exc):
            raise TooDeep("validation recursed too deeply") from None
        raise


class Side:
    """One side of a comparison: a schema set with its ``$id``/``$anchor`` index.

    Args:
        name: ``"old"`` or ``"new"``.
        schemas: the set.
        format_assertion: treat ``format`` as an assertion when validating.
        default_dialect: dialect number assumed for files without ``$schema``.
    """

    def __init__(self, name: str, schemas: SchemaSet, *, format_assertion: bool = True,
                 default_dialect: int = D2020) -> None:
        self.name = name
        self.set = schemas
        self.format_assertion = format_assertion
        self.ids: dict[str, tuple[str, str]] = {}
        self.anchors: dict[str, tuple[str, str]] = {}
        self.bases: dict[tuple[str, str], str] = {}
        self.dialects: dict[str, int] = {}
        self._values: dict[Node, Any] = {}
        self._refs: dict[tuple[Node, str], Node] = {}
        self._by_base: dict[tuple[str, str], Node] = {}
        self._content: dict[Node, Any] = {}
        self._file_validators: dict[str, Any] = {}
        self._plain_validators: dict[tuple[str, bool], Any] = {}
        self._fast: dict[str, Any] = {}
        self._second: dict[str, Any] = {}
        self.meta: dict[str, Any] = {}  # meta-schema URI -> meta-schema, indexed as extra files
        self.dynamic_anchors: dict[str, list[tuple[str, str]]] = {}  # $dynamicAnchor name -> places
        self.recursive_anchors: list[tuple[str, str]] = []  # resources with "$recursiveAnchor": true
        self._fast_node: OrderedDict[Any, Any] = OrderedDict()  # compiled, by content id (LRU)
        self._no_fast_node: set[Any] = set()  # content ids with no compiled check
        self._reference_asked: dict[Any, int] = {}  # content id -> answers asked before compiling
        self._unlike: Any = _UNBUILT  # (:meth:`reaches_unlike_pattern`)
        self._holders: Any = _UNBUILT  # (:meth:`ref_holders`)
        self._rs_registry: Any = False
        for f in schemas:
            raw = f.schema.get("$schema") if isinstance(f.schema, dict) else None
            try:
                self.dialects[f.name] = dialect_of(raw) if raw else default_dialect
            except ValueError:
                self.dialects[f.name] = default_dialect
            self._index(f.name, f.uri, f.schema)
        self._validators: dict[Any, Any] = {}  # by content id and screening
        self._answers: dict[tuple[Any, str], bool] = {}  # (validator key, instance text) -> verdict

    def _index(self, fname: str, uri: str, schema: Any) -> None:
        """Record every ``$id`` (``id`` before draft-06) and ``$anchor`` of file ``fname``; the
        base URI is stored only where it changes (:meth:`base` walks up to the nearest one)."""
        self.ids[uri] = (fname, "")
        self.bases[(fname, "")] = uri
        stack = [("", schema, uri)]
        d = self.dialects[fname]
        id_kw = "$id" if d >= D6 else "id"
        while stack:
            ptr, value, base = stack.pop()
            if not isinstance(value, dict):
                continue
            sid = identifier(value, id_kw, d < D2019)
            if isinstance(sid, str) and ptr:
                doc, frag = urldefrag(urljoin(base, sid))
                if doc:
                    base = doc
                    self.ids.setdefault(doc, (fname, ptr))
                    self.bases[(fname, ptr)] = base
                if frag and d < D2019:  # draft-07 and older: "$id": "#name" is an anchor
                    self.anchors[f"{base}#{frag}"] = (fname, ptr)
            anchor = value.get("$anchor")
            if isinstance(anchor, str) and d >= D2019:  # (a keyword from 2019-09 on)
                self.anchors[f"{base}#{anchor}"] = (fname, ptr)
            dyn = value.get("$dynamicAnchor")
            if isinstance(dyn, str) and d >= D2020:  # also a plain anchor for $ref
                self.anchors.setdefault(f"{base}#{dyn}", (fname, ptr))
                self.dynamic_anchors.setdefault(dyn, []).append((fname, ptr))
            if value.get("$recursiveAnchor") is True and d == D2019:
                self.recursive_anchors.append((fname, ptr))
            stack.extend((p, v, base) for p, v in subschemas(value, ptr))

    def schema_of(self, fname: str) -> Any:
        """The whole schema of file ``fname`` (a file of the set, or a meta-schema URI)."""
        meta = self.meta.get(fname)
        return meta if meta is not None else self.set.files[fname].schema

    def uri_of(self, fname: str) -> str:
        """The base URI of file ``fname``."""
        return fname if fname in self.meta else self.set.files[fname].uri

    def _add_meta(self, uri: str) -> bool:
        """Index the meta-schema at ``uri`` (a dialect's, as python-jsonschema ships it) as an
        extra file named by its URI; ``False`` when ``uri`` names none."""
        try:
            schema = meta_schemas().contents(uri)
        except LookupError:
            return False
        self.meta[uri] = schema
        raw = schema.get("$schema") if isinstance(schema, dict) else None
        self.dialects[uri] = dialect_of(raw) if raw else D2020
        self._index(uri, uri, schema)
        return True

    def dialect(self, node: Node) -> int:
        """Dialect of the file holding ``node``."""
        return self.dialects.get(node.file, D2020)

    def value(self, node: Node) -> Any:
        """The schema value at ``node`` (the inline value for a synthetic node); memoised, so
        callers must not mutate it."""
        try:
            return self._values[node]
        except KeyError:
            pass
        if node.syn is not None:
            v = json.loads(node.syn)
        else:
            v = self._below_parent(node)
            if v is _UNBUILT:
                v = resolve(self.schema_of(node.file), node.ptr)
        self._values[node] = v
        return v

    def _below_parent(self, node: Node) -> Any:
        """The value at ``node`` read one step below its parent's memoised value (children are
        mostly asked for after their parent), or ``_UNBUILT`` when the parent's is not known or
        the last reference token needs the general rules of :func:`~evalport_spec.pointer.resolve`."""
        head, sep, token = node.ptr.rpartition("/")
        if not sep or "~" in token:
            return _UNBUILT
        parent = self._values.get(Node(node.side, node.file, head))
        if isinstance(parent, dict):
            return parent.get(token, _UNBUILT)
        if isinstance(parent, list) and token.isdigit() and (token == "0" or token[0] != "0") \
                and int(token) < len(parent):
            return parent[int(token)]
        return _UNBUILT

    def content_id(self, node: Node) -> Any:
        """An identity of what ``node`` means, shared by subschemas written identically: the
        side, the file's dialect, the base URI in effect (so every ``$ref`` inside resolves to
        the same target) and a digest (BLAKE2b, 128 bits) of the schema's JSON text with members
        sorted (``1`` and ``1.0`` kept apart). Two nodes with one content id accept the same
        instances. A synthetic node is its own content; so is any node of a side carrying a
        ``$dynamicAnchor`` or ``"$recursiveAnchor": true``, where a reference's target may depend
        on the path that reached it (JSON Schema 2020-12 Core 8.2.3.2), not on content alone."""
        hit = self._content.get(node)
        if hit is not None:
            return hit
        if node.syn is not None or self.dynamic_anchors or self.recursive_anchors:
            out: Any = node
        else:
            text = json.dumps(self.value(node), sort_keys=True, ensure_ascii=False)
            digest = hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()
            out = (self.name, self.dialect(node), self.base(node), digest)
        self._content[node] = out
        return out

    def base(self, node: Node) -> str:
        """Base URI in effect at ``node`` (nearest enclosing ``$id``)."""
        p = node.ptr
        while (node.file, p) not in self.bases:
            if not p:
                return self.uri_of(node.file)
            p = p.rsplit("/", 1)[0]
        return self.bases[(node.file, p)]

    def resolve_ref(self, node: Node, ref: str) -> Node:
        """The node a ``$ref`` written at ``node`` points to.

        Raises:
            Unresolvable: no schema of the set has that ``$id``/``$anchor``/pointer.
        """
        key = (node, ref)
        hit = self._refs.get(key)
        if hit is not None:
            return hit
        base = self.base(node)
        by_base = (base, ref)  # the target depends on the base URI alone: resolved once per pair
        out = self._by_base.get(by_base)
        if out is None:
            out = self._by_base[by_base] = self._resolve_ref(base, ref)
        self._refs[key] = out
        return out

    def _resolve_ref(self, base: str, ref: str) -> Node:
        absolute = urljoin(base, ref)
        doc, frag = urldefrag(absolute)
        if not doc:
            doc = base
        if doc not in self.ids and not self._add_meta(doc):
            raise Unresolvable(f"$ref {ref!r}: no schema with $id {doc!r} in this set (offline)")
        fname, root = self.ids[doc]
        if frag == "" or frag.startswith("/"):
            ptr = root + unquote(frag)
        else:
            key = f"{doc}#{frag}"
            if key not in self.anchors:
                raise Unresolvable(f"$ref {ref!r}: no anchor {frag!r} in {doc}")
            fname, ptr = self.anchors[key]
        try:
            resolve(self.schema_of(fname), ptr)
        except KeyError:
            raise Unresolvable(f"$ref {ref!r}: pointer {ptr!r} does not exist in {fname}") from None
        return Node(self.name, fname, ptr)

    def resolve_dynamic(self, node: Node, keyword: str, ref: str) -> Node:
        """The node a ``$dynamicRef`` (2020-12) or ``$recursiveRef`` (2019-09) written at ``node``
        resolves to, where that does not depend on the dynamic scope: it resolves first like
        ``$ref``; when that target carries the matching dynamic anchor, the outermost resource
        of the dynamic scope carrying it wins (Core 8.2.3.2; 2019-09 8.2.4.2), and that is
        known statically when exactly one place of the whole set carries it.

        Raises:
            Unresolvable: the reference does not resolve, or several places carry the anchor
                (the target depends on the evaluation path: not compared).
        """
        target = self.resolve_ref(node, ref)
        value = self.value(target)
        if keyword == "$dynamicRef":
            name = ref.split("#", 1)[1] if "#" in ref else None
            if not (isinstance(value, dict) and name is not None and value.get("$dynamicAnchor") == name):
                return target  # no dynamic anchor at the target: a plain $ref
            places = self.dynamic_anchors.get(name, [])
            what = f"$dynamicAnchor {name!r}"
        else:
            if not (isinstance(value, dict) and value.get("$recursiveAnchor") is True):
                return target
            places = self.recursive_anchors
            what = '"$recursiveAnchor": true'
        if len(places) != 1:
            raise Unresolvable(f"{keyword} {ref!r}: {len(places)} places carry {what}, so the target "
                               "depends on the dynamic scope (not compared)")
        return Node(self.name, *places[0])

    def root(self, fname: str) -> Node:
        """The root node of file ``fname``."""
        return Node(self.name, fname, "")

    def validator(self, node: Node, screening: bool = False) -> Any:
        """A ``jsonschema`` validator for ``node`` using the set's registry (offline);
        ``screening``: one reading ``anyOf``/``oneOf`` branches up to their first error
        (:func:`~evalport_spec.pyvalidator.exact_validator` with ``verdicts``), for
        :meth:`quick_valid` alone."""
        cid = self.content_id(node)  # subschemas written alike share one validator
        v = self._validators.get((cid, screening))
        if v is not None:
            return v
        from ..pyvalidator import exact_validator

        d = self.dialect(node)
        uri = DIALECT_URIS.get(d, DIALECT_URIS[D2020])
        cls = exact_validator(_validator_class(d), verdicts=screening)
        value = self.value(node)
        if isinstance(value, bool):  # as a schema object: draft-04 has no boolean schemas, and
            # python-jsonschema fails on one (a validator of ``true``, or a ``$ref`` to
            # ``"additionalProperties": true``: a TypeError, which read as "not valid")
            schema: Any = {"$schema": uri} if value else {"$schema": uri, "not": {}}
        elif node.syn is not None:
            schema = {"$schema": uri, **value} if isinstance(value, dict) else value
        else:
            whole = self.schema_of(node.file)
            schema = {"$schema": uri, "$ref": self.uri_of(node.file) + "#" + quote(node.ptr, safe="/~!$&'()*+,;=:@")}
            if node.ptr == "" and d >= D2019 and not isinstance(whole, bool) and node.file not in self.meta:
                schema = whole
        kwargs: dict[str, Any] = {"registry": self.set.registry}
        if self.format_assertion:
            kwargs["format_checker"] = cls.FORMAT_CHECKER
        v = cls(schema, **kwargs)
        self._validators[(cid, screening)] = v
        return v

    def valid(self, node: Node, instance: Any) -> bool:
        """Whether ``instance`` is valid against ``node`` as the toolchain validates: jsonschema-rs
        trusted when it says valid, else python-jsonschema decides (the rule of
        :meth:`file_valid`); offline, through the set's registry."""
        fast = self._node_fast(node, eager=False)
        if fast is not None and fast.is_valid(instance) is True:
            return True
        return self._reference(("node", self.content_id(node)), lambda: self.validator(node), instance)

    def quick_valid(self, node: Node, instance: Any) -> bool:
        """jsonschema-rs' verdict on ``instance`` at ``node`` (python-jsonschema's where the fast
        backend cannot decide, each ``anyOf``/``oneOf`` branch read up to its first error:
        :meth:`validator` ``screening``): for screening candidate instances, never for a verdict."""
        fast = self._node_fast(node, eager=False)
        if fast is not None:
            r = fast.is_valid(instance)
            if r is not None:
                return r
        return self._reference(("screen", self.content_id(node)), lambda: self.validator(node, True), instance)

    def confirms(self, node: Node, instance: Any) -> bool | None:
        """``True`` when python-jsonschema and jsonschema-rs both accept ``instance`` at ``node``,
        ``False`` when both reject it, ``None`` when they disagree (or the fast backend cannot
        decide and the reference alone would)."""
        ref = self._reference(("node", self.content_id(node)), lambda: self.validator(node), instance)
        fast = self._node_fast(node)
        if fast is None:
            return None
        return ref if fast.is_valid(instance) is ref else None

    def _node_fast(self, node: Node, eager: bool = True) -> Any:
        """The compiled fast check of ``node``, or ``None`` when there is none (shared by the
        subschemas written alike: :meth:`content_id`). Built on first use when ``eager``
        (:meth:`confirms` needs both validators), else (:meth:`valid`, :meth:`quick_valid`:
        the reference answers alike, only slower) once :data:`FAST_NODE_AFTER` answers were
        asked of the reference: compiling a large subschema costs more than a few reference
        validations. At most :data:`FAST_NODE_CHECKS` compiled checks are kept, the least
        recently used dropped first (one holds its compiled subschemas: up to megabytes on a
        large schema); a dropped one is compiled again when asked for, the same check."""
        cid = self.content_id(node)
        kept = self._fast_node
        fast = kept.get(cid, _UNBUILT)
        if fast is _UNBUILT:
            if cid in self._no_fast_node:
                return None
            if not eager:
                asked = self._reference_asked[cid] = self._reference_asked.get(cid, 0) + 1
                if asked <= FAST_NODE_AFTER:
                    return None
            fast = _node_fast_check(self, node)
            if fast is None:
                self._no_fast_node.add(cid)
                return None
            kept[cid] = fast
            if len(kept) > FAST_NODE_CHECKS:
                del kept[next(iter(kept))]
        else:
            kept.move_to_end(cid)
        return fast

    def reaches_unlike_pattern(self, node: Node) -> bool:
        """Whether validating at ``node`` may apply a ``pattern`` or ``patternProperties`` name
        that jsonschema-rs may read otherwise than ECMA-262
        (:func:`~evalport_spec.ecmaregex.jsonschema_rs_reads_alike` false), so that a compiled
        check of ``node`` could not be trusted. Over-approximated (``True`` when unsure):
        everything written below ``node`` counts as applied, and every ``$ref`` target,
        transitively; a side with a dynamic reference or anchor, a synthetic node holding a
        reference, and an unresolvable reference count as reaching one.

        A large schema with one such pattern (azure-pipelines.json's ``branchFilter``) keeps
        its other subschemas checked by jsonschema-rs, instead of every check of the whole set
        going to the reference validator (issue 16)."""
        reaching = self._unlike_reach()
        if reaching is None:
            return True
        if not reaching:
            return False
        if node.syn is not None:
            return any(k in node.syn for k in ('"$ref"', '"$dynamicRef"', '"$recursiveRef"')) or \
                any(_holds_unlike(v) for v in _schema_objects(self.value(node)))
        return (node.file, node.ptr) in reaching

    def _unlike_reach(self) -> set[tuple[str, str]] | None:
        """``(file, pointer)`` of every place from which validation may apply a pattern
        jsonschema-rs may read otherwise (:meth:`reaches_unlike_pattern`), built once; ``None``:
        every place (a dynamic reference or anchor).

        Validation at a place applies only what is written below it and, through each
        ``$ref`` there, what is below the target, transitively. So the places are the
        ancestors (by pointer, the place itself included) of a *seed*: each such pattern, and
        each ``$ref`` whose target is already such a place (or does not resolve), added until
        nothing changes. Each reference is resolved once, by the rules the comparison uses
        (:meth:`resolve_ref`)."""
        if self._unlike is not _UNBUILT:
            return self._unlike  # type: ignore[no-any-return]
        seeds = [(f.name, ptr) for f, ptr, src in self.set.patterns() if not reads_alike(src)]
        if not seeds:
            self._unlike = set()
            return self._unlike  # type: ignore[no-any-return]
        holders = self.ref_holders()
        if holders is None:
            self._unlike = None
            return None
        by_target, unresolved = holders
        self._unlike = reach(seeds + unresolved, by_target)
        return self._unlike

    def ref_holders(self) -> tuple[dict[tuple[str, str], list[tuple[str, str]]], list[tuple[str, str]]] | None:
        """``(target -> holders, holders of a reference that does not resolve)``, each place a
        ``(file, pointer)`` and a holder the object a ``$ref`` is written in, each reference
        resolved once by the rules the comparison uses (:meth:`resolve_ref`); built once.
        ``None`` when the side has a dynamic reference or anchor (``$dynamicRef``,
        ``$recursiveRef``: the target depends on the path)."""
        if self._holders is not _UNBUILT:
            return self._holders  # type: ignore[no-any-return]
        self._holders = None
        if self.dynamic_anchors or self.recursive_anchors:
            return None
        by_target: dict[tuple[str, str], list[tuple[str, str]]] = {}
        unresolved: list[tuple[str, str]] = []
        for f, ptr, ref, _ in self.set.references():
            holder, _, keyword = ptr.rpartition("/")
            if keyword != "$ref":
                return None
            try:
                t = self.resolve_ref(Node(self.name, f.name, holder), ref)
            except (Unresolvable, KeyError, ValueError):
                unresolved.append((f.name, holder))
                continue
            by_target.setdefault((t.file, t.ptr), []).append((f.name, holder))
        self._holders = (by_target, unresolved)
        return self._holders

    def file_valid(self, fname: str, instance: Any) -> bool:
        """Whether ``instance`` is valid against file ``fname`` with :meth:`SchemaSet.validator`.

        The compiled ``jsonschema_rs`` check (:class:`evalport_spec.validation.fast.FastCheck`)
        is asked first and trusted when it says valid (the rule
        ``Validator.validate_schema_only`` uses); any other answer is checked by the reference
        validator. Raises :class:`TooDeep` when validation recurses too deeply."""
        fast = self._file_fast(fname)
        if fast is not None and fast.is_valid(instance) is True:
            return True
        return self._reference(("file", fname), lambda: self._file_validator(fname), instance)

    def file_confirms(self, fname: str, instance: Any) -> bool | None:
        """Like :meth:`confirms` for the whole file ``fname``: ``True``/``False`` when both
        validators agree, ``None`` when they disagree or only one can decide."""
        ref = self._file_reference(fname, instance)
        fast = self._file_fast(fname)
        if fast is None or not fast.compiled:
            fast = self._file_second(fname)
        got = fast.is_valid(instance) if fast is not None else None
        return ref if got is ref else None

    def _file_reference(self, fname: str, instance: Any) -> bool:
        """python-jsonschema's verdict on ``instance`` against file ``fname`` (the
        :meth:`file_valid` reference's), asked first of the screening reading at the file's root
        (:meth:`quick_valid`'s, whose answers the witness search has often kept already): each
        ``anyOf``/``oneOf`` branch read to its first error finds an error only where the full
        reading finds it too, so its "not valid" is the answer, without the full reading listing
        every error of every branch (a witness rejected by azure-pipelines.json: 10 to 28 ms
        each). Where the screening accepts, the full reading decides."""
        root = self.root(fname)
        if not self._reference(("screen", self.content_id(root)), lambda: self.validator(root, True), instance):
            return False
        return self._reference(("file", fname), lambda: self._file_validator(fname), instance)

    def plain_file_valid(self, fname: str, instance: Any) -> bool | None:
        """python-jsonschema's verdict on ``instance`` against file ``fname`` as that library
        ships (:meth:`SchemaSet.validator` with ``plain=True``: Python ``re`` patterns, binary
        doubles), not the toolchain's ECMA-262 reading; ``None`` when it recurses too deeply.
        Asked first of that reading with each ``anyOf``/``oneOf`` branch read to its first error
        (``verdicts``), whose "not valid" is the answer (it finds an error only where the full
        reading does), as :meth:`_file_reference` does."""
        def plain(verdicts: bool) -> Any:
            v = self._plain_validators.get((fname, verdicts))
            if v is None:
                v = self._plain_validators[(fname, verdicts)] = self.set.validator(
                    fname, format_assertion=self.format_assertion, plain=True, verdicts=verdicts)
            return v

        try:
            if not self._reference(("plain-screen", fname), lambda: plain(True), instance):
                return False
            return self._reference(("plain", fname), lambda: plain(False), instance)
        except RecursionError:
            return None

    def _reference(self, key: Any, validator: Callable[[], Any], instance: Any) -> bool:
        """The python-jsonschema verdict of ``validator()`` (the validator named ``key``: a
        node's content id, a file, a file read plainly) on ``instance`` (:func:`_guarded`),
        asked once per instance: witness searches screen the same documents against the same
        subschemas again and again (azure-pipelines.json with one ``enum`` value removed: 4,101
        reference validations of 1,891 distinct pairs, each walking the whole schema). Kept by
        the instance's JSON text (:func:`instance_key`: ``1``, ``1.0`` and ``true`` apart), at
        most :data:`MAX_ANSWERS` (then forgotten together); an exception (too deep) is raised
        each time, never kept."""
        try:
            k = (key, instance_key(instance))
        except (TypeError, ValueError):  # not a JSON value: asked every time
            return _guarded(validator().is_valid, instance)
        got = self._answers.get(k)
        if got is None:
            if len(self._answers) >= MAX_ANSWERS:
                self._answers.clear()
            got = self._answers[k] = _guarded(validator().is_valid, instance)
        return got

    def _file_validator(self, fname: str) -> Any:
        v = self._file_validators.get(fname)
        if v is None:
            v = self._file_validators[fname] = self.set.validator(fname, format_assertion=self.format_assertion)
        return v

    def _file_fast(self, fname: str) -> Any:
        fast = self._fast.get(fname, False)
        if fast is False:
            v = self._file_validator(fname)
            fast = self._fast[fname] = _fast_check(self.set, fname, v.format_checker if self.format_assertion else None,
                                                   registry=self.rs_registry())
        return fast

    def _file_second(self, fname: str) -> Any:
        """A second-opinion fast check of file ``fname`` for :meth:`file_confirms` where the
        trusted one (:meth:`_file_fast`) does not compile because a ``pattern`` may read
        otherwise in jsonschema-rs (a lookaround, say): compared with the reference, never
        trusted (:class:`~evalport_spec.validation.fast.FastCheck`, ``second_opinion``)."""
        second = self._second.get(fname, False)
        if second is False:
            v = self._file_validator(fname)
            second = self._second[fname] = _fast_check(
                self.set, fname, v.format_checker if self.format_assertion else None,
                registry=self.rs_registry(), second_opinion=True)
        return second

    def rs_registry(self) -> Any:
        """The set's ``jsonschema_rs`` registry, built once (``None`` without the backend)."""
        if self._rs_registry is False:
            try:
                from ..validation.fast import rs_registry
                self._rs_registry = rs_registry(self.set)
            except Exception:  # noqa: BLE001 - no fast backend, or a set it cannot register
                self._rs_registry = None
        return self._rs_registry


def _fast_check(schemas: SchemaSet, fname: str, format_checker: Any, schema: Any = None,
                registry: Any = None, *, second_opinion: bool = False) -> Any:
    """A :class:`~evalport_spec.validation.fast.FastCheck` for ``fname`` (or for ``schema`` in
    its set; ``second_opinion`` as there), or ``None`` when the fast backend is not importable
    or has no registry."""
    try:
        from ..validation.fast import FastCheck
    except Exception:  # noqa: BLE001 - no fast backend: the reference validator decides
        return None
    if registry is None:
        return None
    return FastCheck(schemas, fname, format_checker, schema=schema, registry=registry,
                     second_opinion=second_opinion)


def _node_fast_check(side: Side, node: Node) -> Any:
    """A fast check for ``node``: its inline schema (synthetic) or ``{"$ref": URI#pointer}`` in
    the node's dialect, compiled against the side's registry; ``None`` when not possible (the
    reference validator then decides). A pattern of the set that jsonschema-rs may read
    otherwise than ECMA-262 bars the check only when validation at ``node`` may apply it
    (:meth:`Side.reaches_unlike_pattern`): validating at ``node`` applies nothing else, so the
    check is then as trustworthy as one of a set without such a pattern."""
    registry = side.rs_registry()
    if registry is None:
        return None
    ref = side.validator(node)  # the reference's schema for the node, with its dialect
    fmt = ref.format_checker if side.format_assertion else None
    fname = node.file if node.file in side.set.files else next(iter(side.set.files))
    check = _fast_check(side.set, fname, fmt, schema=ref.schema, registry=registry,
                        second_opinion=not side.reaches_unlike_pattern(node))
    return check if check is not None and check.compiled else None


reads_alike = lru_cache(maxsize=4096)(jsonschema_rs_reads_alike)
""":func:`~evalport_spec.ecmaregex.jsonschema_rs_reads_alike`, each pattern read once (a large
schema's canons ask about the same few hundred patterns hundreds of thousands of times)."""


def _holds_unlike(value: Any) -> bool:
    """Whether schema object ``value`` has a ``pattern`` or a ``patternProperties`` name that
    jsonschema-rs may read otherwise than ECMA-262."""
    if not isinstance(value, dict):
        return False
    pattern, names = value.get("pattern"), value.get("patternProperties")
    return (isinstance(pattern, str) and not reads_alike(pattern)) or (
        isinstance(names, dict) and not all(reads_alike(k) for k in names))


def _schema_objects(value: Any) -> list[Any]:
    """``value`` and every subschema below it (:func:`subschemas`, transitively)."""
    out, stack = [], [("", value)]
    while stack:
        ptr, v = stack.pop()
        out.append(v)
        stack.extend(subschemas(v, ptr))
    return out


MAX_ANSWERS = 100_000
"""Reference verdicts a :class:`Side` keeps (:meth:`Side._reference`) before starting over."""


def instance_key(x: Any) -> str:
    """``x`` as JSON text with sorted member names: equal only for the same JSON value written
    alike, ``1`` and ``1.0`` and ``true`` apart (draft-04 tells ``1.0`` from an integer).

    Raises:
        TypeError, ValueError: ``x`` is not a JSON value (``json.dumps`` refuses it).
    """
    return json.dumps(x, sort_keys=True, separators=(",", ":"))


FAST_NODE_AFTER = 16
"""Answers :meth:`Side.valid` and :meth:`Side.quick_valid` ask of the reference validator for
a subschema before its jsonschema-rs check is compiled (:meth:`Side._node_fast`). A check of a
subschema near a large schema's root compiles everything it reaches (azure-pipelines.json's
``/definitions/stage``: 10 to 35 ms, several MiB) while the reference answers one screening
question in well under a millisecond to a few; with one ``enum`` value removed there, the
witness search asks most subschemas 5 to 40 times and two of them over a thousand times: 4
compiled 36 checks (0.17 to 0.39 s, 267 MiB peak), 16 compiles 22 (0.08 s, 224 MiB) and the
comparison is about 6 % faster. The answers are the same either way (the reference decides
wherever the compiled check would not be trusted)."""

FAST_NODE_CHECKS = 8
"""Most compiled jsonschema-rs checks of subschemas a :class:`Side` keeps at once
(:meth:`Side._node_fast`). azure-pipelines.json compared with one ``enum`` value removed asks
for about 500, each holding every subschema it reaches (megabytes near the root): all kept,
the comparison peaked at 950 MiB; 8 kept, 705 MiB at the same speed (4 kept: compiled over
and over, 20 s more)."""


DIALECT_URIS = {D4: "http://json-schema.org/draft-04/schema#", D6: "http://json-schema.org/draft-06/schema#",
                D7: "http://json-schema.org/draft-07/schema#", D2019: "https://json-schema.org/draft/2019-09/schema",
                D2020: "https://json-schema.org/draft/2020-12/schema"}
"""Each dialect's meta-schema URI (its ``$schema``)."""


@cache
def _validator_class(dialect: int) -> Any:
    """python-jsonschema's validator class for ``dialect`` (2020-12 for any other value)."""
    from ..pyvalidator import validator_class  # python-jsonschema: loaded once a class is needed

    return validator_class({"$schema": DIALECT_URIS.get(dialect, DIALECT_URIS[D2020])})


@cache
def asserted_formats(dialect: int) -> frozenset[str]:
    """The ``format`` names the validators assert in ``dialect`` (python-jsonschema's format
    checker for that draft: ``uuid`` and ``duration`` from 2019-09 on, ``date`` from draft-07;
    other names are annotations there)."""
    return frozenset(_validator_class(dialect).FORMAT_CHECKER.checkers)


def dynamic_ref_keywords(dialect: int) -> tuple[str, ...]:
    """The dynamic reference keyword ``dialect`` reads: ``$dynamicRef`` in 2020-12 (Core 8.2.3.2),
    ``$recursiveRef`` in 2019-09 (Core 8.2.4.2), none before; elsewhere either is an unknown
    keyword that validators ignore (python-jsonschema's ``VALIDATORS`` per draft agree)."""
    if dialect >= D2020:
        return ("$dynamicRef",)
    if dialect == D2019:
        return ("$recursiveRef",)
    return ()


@cache
def keywords_of(dialect: int) -> frozenset[str]:
    """Every keyword the validators read in ``dialect`` (assertions, applicators, identifiers,
    annotations); any other member of a schema object is ignored by them."""
    from .canon import ANNOTATIONS
    extra = {"$schema", "$id", "id", "$defs", "definitions"}
    if dialect == D4:
        extra |= {"exclusiveMinimum", "exclusiveMaximum"}
    if dialect >= D7:
        extra |= {"then", "else"}
    if dialect >= D2019:
        extra |= {"minContains", "maxContains", "$anchor", "$recursiveAnchor", "$vocabulary"}
    return frozenset(_validator_class(dialect).VALIDATORS) | ANNOTATIONS | extra


@cache
def syn(side: str, schema_json: str) -> Node:
    """A synthetic node holding the inline schema ``schema_json`` (JSON text, no ``$ref``)."""
    return Node(side, "", "", schema_json)


def synthetic(side: str, schema: Any) -> Node:
    """A synthetic node for ``schema`` (a dict or bool with no ``$ref``)."""
    return syn(side, json.dumps(schema, sort_keys=True))


_DECODER = json.JSONDecoder()
_WS = " \t\n\r"


def line_of(text: str, pointer: str) -> int | None:
    """1-based line where the value at JSON Pointer ``pointer`` starts in JSON ``text`` (the
    nearest existing ancestor's line when the pointer goes past the document), or ``None`` when
    the text is not JSON along that path. Only the path to the pointer is walked: sibling values are skipped with
    the C JSON scanner, so a 1 MB file costs milliseconds (unlike mapping every pointer)."""
    try:
        tokens = [t.replace("~1", "/").replace("~0", "~") for t in pointer.split("/")[1:]] if pointer else []
        pos = _skip_ws(text, 0)
        start = pos
        for tok in tokens:
            if pos >= len(text):
                return None
            start = pos
            if text[pos] == "{":
                pos = _skip_ws(text, pos + 1)
                found = False
                while pos < len(text) and text[pos] != "}":
                    key, pos = _DECODER.raw_decode(text, pos)
                    pos = _skip_ws(text, pos)
                    pos = _skip_ws(text, pos + 1)  # past ':'
                    if key == tok:
                        found = True
                        break
                    pos = _skip_ws(text, _DECODER.raw_decode(text, pos)[1])
                    if pos < len(text) and text[pos] == ",":
                        pos = _skip_ws(text, pos + 1)
                if not found:
                    pos = start
                    break
            elif text[pos] == "[" and tok.isdigit():
                pos = _skip_ws(text, pos + 1)
                for _ in range(int(tok)):
                    if pos >= len(text) or text[pos] == "]":
                        break
                    pos = _skip_ws(text, _DECODER.raw_decode(text, pos)[1])
                    if pos < len(text) and text[pos] == ",":
                        pos = _skip_ws(text, pos + 1)
                if pos >= len(text) or text[pos] == "]":
                    pos = start
                    break
            else:
                break
        return text.count("\n", 0, pos) + 1
    except (ValueError, IndexError):
        return None


def _skip_ws(text: str, pos: int) -> int:
    n = len(text)
    while pos < n and text[pos] in _WS:
        pos += 1
    return pos
