"""``diff`` of two copies of one plain schema file, answered without the engine (issue 16).

Two local files of one name whose bytes and siblings are the same
(:func:`~evalport_spec.diffinputs.same_local_file`) are one input: the full path
(:func:`evalport_spec.compat.inputs.resolve_pair`, then :func:`evalport_spec.compat.engine.compare`)
reads and checks it once and, when every check passes, answers PATCH with no finding. Those
checks need ``referencing``, the meta-schema registry and the engine's modules (most of a
self-diff's time is spent importing them). For a *plain* file they reduce to a few exact steps,
which :func:`plain_copies` takes without any of them. A file is plain when:

* it parses (:func:`~evalport_spec.jsonload.load`: no malformed JSON, duplicate member, NaN, ...)
  to an object whose ``$schema`` is absent or names draft-06, draft-07, 2019-09 or 2020-12
  (:data:`PLAIN_DIALECTS`: a dialect ``referencing`` knows, ``$id`` its identifier keyword, no
  draft-04 enum rule, no draft-03);
* its root ``$id``, if any, is an absolute URI string without a fragment;
* no schema object below the root carries ``$schema``, a non-object ``$id``, or any of
  ``$anchor``, ``$dynamicAnchor``, ``$recursiveAnchor``, ``$dynamicRef``, ``$recursiveRef``: every
  subschema has the file's dialect and base URI, and the only references are ``$ref``;
* every ``$ref`` is a fragment (``#`` or ``#/...``, no ``%``) whose JSON Pointer resolves in the
  file token by token (a member present, or an array index in its canonical decimal form within
  the array), as do the ``$ref`` chains it starts, which never come back to a place met;
* jsonschema-rs finds it valid against its dialect's meta-schema and every ``pattern`` and
  ``patternProperties`` name compiles as ECMA-262 (the very calls of
  :meth:`~evalport_spec.schemaset.SchemaSet.require_valid`);
* no cycle of in-place edges starts from a ``$ref`` target (:mod:`evalport_spec.inplace`, the
  search :func:`evalport_spec.compat.refs.in_place_cycle` starts with).

Why that is exactly the full path's acceptance (soundness: ``True`` only where the full path
answers PATCH): its refusals are the load's errors (the same call); a schema that is no object
(not plain); an unknown dialect or a set ``referencing`` cannot index (the listed dialects are
known; with no identifier or anchor below the root, indexing has nothing to read but a string root
``$id``; a non-object ``$id`` is not plain, an object one at a schema position fails the
meta-schema, which types it a string, and elsewhere is no identifier); draft-03 and draft-04's
duplicate enum values (not plain); a reference that is remote, dangling or in a looping chain
(each ``$ref`` resolved here as ``referencing`` and the classifier resolve a fragment: the same
place of the same file, from the same base, a pointer resolving here resolving there, ``%``
unquoting aside, which is why a ``%`` is not plain); a subschema naming another dialect (not
plain); a file invalid against its meta-schema or holding a pattern that is no ECMA-262 regular
expression (the same two calls decide the valid case there); an in-place cycle (the full path
refuses only one reachable from the root, and every cycle passes through a ``$ref`` target, so
finding none from those targets is at least as strict). Siblings of the file are read as context
only for ``$ref``\\ s leaving it: a plain file has none. Anything not plain, any problem and any
doubt give ``False``: the full path then runs and refuses with its own message, or classifies.
"""

from __future__ import annotations

import os
import stat
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from .changeclass import ChangeClass
from .diffinputs import same_local_file
from .diffresult import Classification
from .errors import InputError
from .inplace import children, first_cycle
from .jsonload import load
from .pointer import split
from .schemaset import SchemaFile, meta_valid_fast, pattern_problems

PLAIN_DIALECTS = {f"{uri}{end}": later for uri, later in (
    ("http://json-schema.org/draft-06/schema", False), ("http://json-schema.org/draft-07/schema", False),
    ("https://json-schema.org/draft/2019-09/schema", True), ("https://json-schema.org/draft/2020-12/schema", True))
    for end in ("", "#")}
"""``$schema`` values of a plain file, each with whether its dialect reads ``dependentSchemas``
(2019-09 on) rather than draft-07's ``dependencies``; no ``$schema`` reads as 2020-12."""

NOT_PLAIN_KEYWORDS = ("$anchor", "$dynamicAnchor", "$recursiveAnchor", "$dynamicRef", "$recursiveRef")
"""Keywords whose presence anywhere makes a file not plain (names and dynamic references)."""


class _NotPlain(Exception):
    """The file is not plain (or has a problem): the full path decides."""


def plain_copies(old: str, new: str) -> bool:
    """Whether ``diff OLD NEW`` of the arguments ``old`` and ``new`` is PATCH with no finding,
    decided without the engine: both name copies of one schema file
    (:func:`~evalport_spec.diffinputs.same_local_file`) that is plain and passes every check of
    the full path (see the module docstring for the conditions and why they suffice). ``False``
    means only "not decided here": the full path then reads the files, refuses or classifies.
    Never raises for bad input."""
    if not _alike_files(old, new):
        return False
    try:
        loaded = load(Path(old))  # the bounded reader refuses a huge file before reading it
    except (InputError, OSError, ValueError, RecursionError):
        return False
    if not same_local_file(old, new):
        return False
    try:
        _check_plain(SchemaFile(Path(old).name, "urn:evalport:selfdiff", loaded))
    except _NotPlain:
        return False
    return True


def _alike_files(old: str, new: str) -> bool:
    """Whether ``old`` and ``new`` are regular files of one name and one size (two stats, no
    byte read: a diff of two different files never parses one here)."""
    if old.startswith("-") or new.startswith("-") or Path(old).name != Path(new).name:
        return False
    try:
        so, sn = os.stat(old), os.stat(new)
    except (OSError, ValueError):
        return False
    return stat.S_ISREG(so.st_mode) and stat.S_ISREG(sn.st_mode) and so.st_size == sn.st_size


def identical(old_label: str, new_label: str, started: float) -> Classification:
    """The classification the full path gives two copies of one file it accepts (PATCH both
    ways, no finding, one file, ``identical`` in the stats), ``started`` its
    :func:`time.perf_counter` start."""
    stats = {"files": 1, "witnesses_verified": 0, "documents_searched": 0, "cases": 0, "identical": True,
             "seconds": round(time.perf_counter() - started, 3)}
    return Classification(ChangeClass.PATCH, ChangeClass.PATCH, [], old_label, new_label, stats)


def _check_plain(f: SchemaFile) -> None:
    """Return when ``f`` is plain and passes the full path's checks; raise :class:`_NotPlain`."""
    root = f.schema
    if not isinstance(root, dict):
        raise _NotPlain
    dialect = root.get("$schema", "https://json-schema.org/draft/2020-12/schema")
    if not isinstance(dialect, str) or dialect not in PLAIN_DIALECTS:
        raise _NotPlain
    _check_root_id(root)
    refs: dict[str, None] = {}
    for ptr, node, _ in f.walk():
        if not node.keys().isdisjoint(NOT_PLAIN_KEYWORDS):
            raise _NotPlain
        if ptr and ("$schema" in node or ("$id" in node and not isinstance(node["$id"], dict))):
            raise _NotPlain
        if "$ref" in node:
            ref = node["$ref"]
            if not isinstance(ref, str) or not ref.startswith("#") or "%" in ref:
                raise _NotPlain
            refs[ref] = None
    if not meta_valid_fast(root) or next(pattern_problems(f.walk()), None) is not None:
        raise _NotPlain
    targets = {ref: _target(root, ref) for ref in refs}
    ends: set[str] = set()
    for ref in refs:
        _check_chain(root, ref, targets, ends)
    later = PLAIN_DIALECTS[dialect]

    def edges(ptr: str) -> list[tuple[str, None]]:
        value = _at(root, ptr)
        ref = value.get("$ref") if isinstance(value, dict) else None
        out = [(_target(root, ref), None)] if isinstance(ref, str) else []
        return out + [(p, None) for p in children(value, ptr, later)]

    if first_cycle(dict.fromkeys(targets.values()), edges) is not None:
        raise _NotPlain


def _check_root_id(root: dict[str, Any]) -> None:
    """A root ``$id`` must be an absolute URI string with no fragment (``#`` at the end at most)."""
    if "$id" not in root:
        return
    rid = root["$id"]
    if not isinstance(rid, str) or "#" in rid[:-1]:
        raise _NotPlain
    try:
        absolute = bool(urlsplit(rid).scheme)
    except ValueError:  # (an unbalanced "[" in the authority)
        raise _NotPlain from None
    if not absolute:
        raise _NotPlain


def _target(root: Any, ref: str) -> str:
    """The pointer a fragment ``$ref`` names, once it resolves in ``root`` (else :class:`_NotPlain`)."""
    if not ref.startswith("#") or "%" in ref:
        raise _NotPlain
    ptr = ref[1:]
    if ptr and not ptr.startswith("/"):
        raise _NotPlain  # a plain-name fragment is an anchor
    _at(root, ptr)
    return ptr


def _at(root: Any, ptr: str) -> Any:
    """The value at ``ptr`` in ``root``, each token a member present or a canonical index in range."""
    node = root
    for token in split(ptr):
        if isinstance(node, dict) and token in node:
            node = node[token]
        elif (isinstance(node, list) and token.isascii() and token.isdigit()
              and (token == "0" or token[0] != "0") and int(token) < len(node)):
            node = node[int(token)]
        else:
            raise _NotPlain
    return node


def _check_chain(root: Any, ref: str, targets: dict[str, str], ends: set[str]) -> None:
    """The chain of ``$ref``\\ s from ``ref``'s target resolves and never comes back to a place met
    (a pure chain ``a -> b -> a`` would apply to one instance forever), else :class:`_NotPlain`.

    ``ends`` holds the pointers already known to start a chain that ends (each place has at
    most one ``$ref``, so the rest of a chain depends on the place only); the places of this
    chain are added to it, so checking every reference of a file walks each place once (a
    chain of n links was n^2/2 steps, fresh user session 34: 5,000 links took 21 s)."""
    seen: set[str] = set()
    ptr = targets.get(ref) or _target(root, ref)
    while ptr not in ends:
        if ptr in seen:
            raise _NotPlain
        seen.add(ptr)
        value = _at(root, ptr)
        nxt = value.get("$ref") if isinstance(value, dict) else None
        if not isinstance(nxt, str):
            break
        ptr = targets.get(nxt) or _target(root, nxt)
    ends.update(seen)
