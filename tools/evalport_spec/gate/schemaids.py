"""``schema-id-outside-version``: every ``$id`` of a version folder's schema lies under that
version's own base URI.

A schema file of version folder ``X`` is published at ``.../spec/X/schemas/NAME`` and its root
``$id`` says so (the ``schema-id-version`` check of the schemas stage). An embedded ``$id`` (a
subschema that is a schema resource of its own, JSON Schema 2020-12 Core 8.2.1, resolved
against its parent's base, RFC 3986 section 5.2) may name any URI at all, and a ``$ref`` to that
URI then resolves to the embedded resource within the set: a draft file embedding
``"$id": ".../spec/1.3.0/schemas/grader.json"`` redefines, for every reference in the draft,
what the released Grader schema is, so a reader comparing "the draft's reference to the 1.3.0
Grader" with the release compares the wrong schema. The version's base URI is the one its
files' root ``$id`` share (``<prefix>/spec/X/schemas/``, the most common prefix when files
disagree); a root ``$id`` under another prefix, or an embedded one that does not lie under the
base once dot segments are removed, is an error naming the file, the pointer and the URI.
"""

from __future__ import annotations

import posixpath
import re
from collections import Counter
from urllib.parse import urldefrag, urlsplit, urlunsplit

from ..findings import Finding, Location
from ..schemaset import SchemaFile, SchemaSet, id_keyword, identifier, legacy_dialect

KIND = "schema-id-outside-version"
"""The finding kind of a ``$id`` outside its version's base URI."""


def version_base(uri: str, name: str) -> str | None:
    """``uri`` cut after its ``/spec/NAME/schemas/`` segment (the base URI of version ``name``),
    or ``None`` when ``uri`` has no such segment."""
    m = re.search(rf"/spec/{re.escape(name)}/schemas/", uri)
    return uri[:m.end()] if m else None


def normalised(uri: str) -> str:
    """``uri`` without its fragment and with ``.`` and ``..`` path segments removed (RFC 3986
    section 5.2.4), so ``.../draft/schemas/../../1.3.0/x.json`` reads as where it points."""
    parts = urlsplit(urldefrag(uri)[0])
    path = posixpath.normpath(parts.path) if parts.path else parts.path
    if parts.path.endswith("/") and not path.endswith("/"):
        path += "/"
    return urlunsplit((parts.scheme, parts.netloc, path, parts.query, ""))


def embedded_ids(f: SchemaFile) -> list[tuple[str, str]]:
    """``[(pointer, absolute URI)]`` of every embedded resource identifier of ``f`` (each
    subschema below the root whose ``$id``, or draft-04 ``id``, sets a new base; one that is
    only a fragment names a location, not a resource, and is left out)."""
    if not isinstance(f.schema, dict):
        return []
    id_kw, legacy = id_keyword(f.schema), legacy_dialect(f.schema)
    out = []
    for ptr, node, base in f.walk():
        nid = identifier(node, id_kw, legacy)
        if ptr and isinstance(nid, str) and not nid.startswith("#"):
            out.append((f"{ptr}/{id_kw}", base))
    return out


def schema_id_findings(schemas: SchemaSet, name: str) -> list[Finding]:
    """One :data:`KIND` error per ``$id`` of ``schemas`` (version folder ``name``: ``draft`` or
    ``X.Y.Z``) that does not lie under the version's base URI (:func:`version_base` of the
    files' root ``$id``, the most common when they differ). A file whose root ``$id`` lacks the
    version segment is the ``schema-id-version`` finding already and is judged by the base of
    the others."""
    bases = Counter(b for b in (version_base(f.uri, name) for f in schemas) if b is not None)
    if not bases:
        return []
    base = sorted(bases.items(), key=lambda kv: (-kv[1], kv[0]))[0][0]
    out = []
    for f in schemas:
        own = version_base(f.uri, name)
        if own is not None and own != base:
            out.append(_finding(f, "/$id", f.uri, base, name))
        for ptr, uri in embedded_ids(f):
            if not normalised(uri).startswith(base):
                out.append(_finding(f, ptr, uri, base, name))
    return out


def _finding(f: SchemaFile, ptr: str, uri: str, base: str, name: str) -> Finding:
    return Finding(KIND, f"{f.name}: $id at {ptr} is {uri!r}, outside {name}'s base URI {base!r}: a $ref to "
                   "it would resolve to this subschema, redefining a schema of another version or place "
                   "(every $id of a version folder lies under its own base)",
                   new=Location(f.loaded.source, ptr, f.loaded.line(ptr)))
