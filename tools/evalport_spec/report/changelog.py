"""One changelog sentence per compatibility finding, in the style of oasdiff's changelog
("Added optional `runner.url` to ResultSet"), so every change is readable in every format,
additive ones included.

The sentence is built from the finding alone: its kind (``<subject>-<verb>[-<detail>]``, e.g.
``enum-value-removed``, ``property-added-to-closed-object``, ``max-length-increased``), its item
(or rule code), the instance location the engine records in ``extra["instance_path"]`` (a list
of member names and array indexes; the schema pointer when absent) and the document type of its
schema file. A kind with no verb the sentence knows gets none (:func:`change_line` returns
``None``) and the formats show the message alone.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from ..canonjson import canonical
from .describe import is_change

if TYPE_CHECKING:
    from ..findings import Finding

DOC_TITLES = {"suite": "Suite", "testcase": "TestCase", "grader": "Grader", "resultset": "ResultSet"}
"""Schema file stem -> the document type's name as SPEC.md writes it."""

_VERBS = {"added": ("Added", "to"), "removed": ("Removed", "from"), "changed": ("Changed", "of"),
          "increased": ("Increased", "of"), "decreased": ("Decreased", "of"),
          "narrowed": ("Narrowed", "of"), "widened": ("Widened", "of"),
          "tightened": ("Tightened", "of"), "loosened": ("Loosened", "of"),
          "restricted": ("Restricted", "of"), "relaxed": ("Relaxed", "of"),
          "reworded": ("Reworded", "of")}
_WORDS = {"oneof": "oneOf", "anyof": "anyOf", "allof": "allOf", "if": "if/then", "then": "",
          "min": "min", "max": "max"}


def field_path(path: Iterable[Any]) -> str:
    """An instance location as a dotted field path: member names joined by ``.``, each array
    index as ``[]`` (``["results", 0, "error", "type"]`` -> ``results[].error.type``); ``""``
    for the document root."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += "[]"
        else:
            out += ("." if out else "") + str(part)
    return out


def document_title(f: Finding) -> str | None:
    """The document type the finding's schema file describes (``ResultSet`` for
    ``resultset.json``), the file name for another file, ``None`` when it has none."""
    name = f.extra.get("file") if isinstance(f.extra.get("file"), str) else None
    loc = f.where()
    if name is None and loc is not None and loc.file:
        name = loc.file
    if not name:
        return None
    base = name.replace("\\", "/").rsplit("/", 1)[-1]
    return DOC_TITLES.get(base.removesuffix(".json"), base)


def _subject(f: Finding) -> tuple[str, str, str] | None:
    """``(verb, preposition, subject words)`` from the kind, or ``None``."""
    words = f.kind.split("-")
    for i, w in enumerate(words):
        if w in _VERBS and i > 0:
            verb, prep = _VERBS[w]
            subject = " ".join(x for x in (_WORDS.get(s, s) for s in words[:i]) if x)
            return verb, prep, subject
    return None


def _target(f: Finding) -> str | None:
    path = f.extra.get("instance_path")
    if isinstance(path, list):
        dotted = field_path(path)
        if f.has_item and f.kind.startswith(("required-", "property-", "dependent-required-")) \
                and isinstance(f.item, str):
            dotted = f"{dotted}.{f.item}" if dotted else f.item
        return dotted or None
    loc = f.where()
    return loc.pointer if loc is not None and loc.pointer else None


def change_line(f: Finding, siblings: Iterable[Finding] = ()) -> str | None:
    """The changelog sentence of a compatibility finding (module docstring), ``None`` for any
    other finding or a kind without a known verb.

    ``siblings`` are the other findings of the same comparison: a property added together with
    a ``required-added`` finding at the same place is "required", else "optional".

    Examples: ``Added optional `runner.url` to ResultSet``; ``Removed enum value "runner_error"
    from `results[].error.type` in ResultSet``; ``Increased min length of `id` in Suite``.
    """
    if not is_change(f):
        return None
    parts = _subject(f)
    if parts is None:
        return None
    verb, prep, subject = parts
    if f.kind == "rule-implementation-changed":  # its item is the code digests, not a value
        return f"Changed the implementation of rule `{f.code}`"
    target = _target(f)
    doc = document_title(f)
    in_doc = f" in {doc}" if doc else ""
    if f.kind.startswith("property-") and subject == "property" and target:
        if verb == "Added":
            required = any(s.kind == "required-added" and _target(s) == target for s in siblings)
            return f"Added {'required' if required else 'optional'} `{target}` to {doc or 'the schema'}"
        if verb == "Removed":
            return f"Removed `{target}` from {doc or 'the schema'}"
    if subject == "required" and target and verb in ("Added", "Removed"):
        return f"Made `{target}` {'required' if verb == 'Added' else 'optional'}{in_doc}"
    item = canonical(f.item) if f.has_item else (f"`{f.code}`" if f.code else None)
    what = f"{subject} {item}" if item else subject
    if subject == "schema file":
        return f"{verb} the {doc} schema file" if doc else f"{verb} a schema file"
    where = f" {prep} `{target}`" if target else ""
    return f"{verb} {what}{where}{in_doc}"
