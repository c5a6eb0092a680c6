"""Witnesses that hold under a version's FULL validator (schemas and cross-field rules).

The engine proves a MAJOR finding with a document that the old *schema* accepts and the new one
rejects. A spec version is more than its schemas (toolchain.md, "Rules count too"): a witness
the old version's rules reject (e.g. a suite whose test case names an undeclared grader,
``DANGLING_REFERENCE``) proves nothing about real documents. :func:`full_witnesses` checks each
schema-level witness with :class:`evalport_spec.validation.Validator` and, where it fails,
grafts the finding's offending value into old-valid documents (the repository's examples and
fixtures, then generated documents) at the same instance location.
"""

from __future__ import annotations

import copy
from typing import Any

from ..findings import ChangeClass, Finding
from ..pointer import join
from ..spec import DOC_TYPES, SpecVersion, parse_semver

SCHEMA_ONLY_NOTE = ("; the witness is schema-level only: no document valid under the old version's "
                    "full validator (schemas and rules) was found for it")


def full_witnesses(findings: list[Finding], old: SpecVersion, new: SpecVersion,
                   corpus: list[tuple[str, Any]], generated: int = 20) -> None:
    """Check and repair, in place, the witness of every decided schema finding, both directions.

    A backward (MAJOR) witness must be a document of the old version: it names the old
    version's number (``version``: a real number, never a generated placeholder such as
    ``0.0.0``), ``Validator(old).validate(doc, type) == []``, and ``Validator(new)`` rejects it on
    the finding's instance location's branch. A forward (MINOR) witness is the same with the
    versions swapped: a document of the new version that the old one rejects. So anyone can
    replay a witness with ``evalport-spec validate`` (which picks the version the document names).

    Args:
        findings: the engine's findings (each schema finding has ``extra["file"]``, e.g.
            ``"suite.json"``, and ``extra["instance_path"]``).
        old, new: the two versions.
        corpus: ``[(schema file name, document)]`` valid candidates to graft into.
        generated: how many documents generated from the source version's schema to try too.

    Effect: a verified or repaired witness gets ``extra["witness_scope"] = "full"``; otherwise
    ``extra["witness_scope"] = "schema"`` and, for a MAJOR, a message saying so.
    """
    from ..validation import Validator

    todo = [f for f in findings if f.direction in ("backward", "forward")
            and f.change_class >= ChangeClass.MINOR and not f.undecided
            and isinstance(f.extra.get("file"), str)
            and f.extra["file"].removesuffix(".json") in DOC_TYPES and _has_witness(f)]
    if not todo:
        return
    validators = {"old": Validator(old), "new": Validator(new)}
    numbers = {"old": _version_number(old), "new": _version_number(new)}
    versions = {"old": old, "new": new}
    bases: dict[tuple[str, str], list[Any]] = {}
    for f in todo:
        src, dst = ("old", "new") if f.direction == "backward" else ("new", "old")
        vs, vd = validators[src], validators[dst]

        def proves(doc: Any, doc_type: str, pointer: str, vs=vs, vd=vd) -> bool:
            # valid under the source version; the other rejects it on the finding's branch (at,
            # above or below its location), so a grafted document shows this finding, not another
            try:
                if vs.validate(doc, doc_type):
                    return False
                return any(_same_branch(v.instance_path, pointer) for v in vd.validate(doc, doc_type))
            except Exception:  # noqa: BLE001 - a document a validator cannot read proves nothing
                return False

        fname = f.extra["file"]
        doc_type = fname.removesuffix(".json")
        path = list(f.extra.get("instance_path") or [])
        pointer = join("", *path)
        named = _with_version(f.witness, numbers[src])
        if named is not f.witness and proves(named, doc_type, pointer):
            f.witness = named  # names its version, so `validate` (auto) picks that version
        if proves(f.witness, doc_type, pointer):
            f.extra["witness_scope"] = "full"
            continue
        if (src, fname) not in bases:
            bases[(src, fname)] = [_with_version(d, numbers[src]) for d in
                                   _bases(fname, corpus, versions[src], generated)]
        hit = next((d for base in bases[(src, fname)] for d in graft(base, f.witness, path)
                    if proves(d, doc_type, pointer)), _NONE)
        if hit is not _NONE:
            f.extra["schema_witness"] = f.witness
            f.witness = hit
            f.extra.pop("witness_is_null", None)
            f.extra["witness_scope"] = "full"
        else:
            f.extra["witness_scope"] = "schema"
            if f.direction == "backward":
                f.message += SCHEMA_ONLY_NOTE


_NONE = object()


def _version_number(version: SpecVersion) -> str | None:
    """The spec version number documents of ``version`` are written to: the release number, or
    the draft's declared number (its ``VERSION`` file); ``None`` if unknown."""
    try:
        parse_semver(version.name)
        return version.name
    except ValueError:
        data = version._read("VERSION")
        return data.decode("utf-8", "replace").strip() or None if data else None


def _with_version(doc: Any, number: str | None) -> Any:
    """``doc`` with its top-level ``version`` member set to ``number`` (a new object), or ``doc``
    itself when it has no string ``version`` or ``number`` is unknown. Generated witnesses carry a
    placeholder such as ``0.0.0``, which version-aware validation would reject."""
    if number is None or not isinstance(doc, dict) or not isinstance(doc.get("version"), str):
        return doc
    if doc["version"] == number:
        return doc
    return {**doc, "version": number}


def _same_branch(a: str, b: str) -> bool:
    """Whether JSON Pointers ``a`` and ``b`` lie on one branch (one is a prefix of the other)."""
    return a == b or a.startswith(b + "/") or b.startswith(a + "/") or a == "" or b == ""


def _has_witness(f: Finding) -> bool:
    return f.witness is not None or bool(f.extra.get("witness_is_null"))


def _bases(fname: str, corpus: list[tuple[str, Any]], old: SpecVersion, n: int) -> list[Any]:
    out = [d for name, d in corpus if name == fname]
    if n > 0:
        try:
            from ..generate import generate_valid, schema_kwargs
            out.extend(generate_valid(**schema_kwargs(old.schemas, fname), n=n, seed=0))
        except Exception:  # noqa: BLE001 - no generated documents: the corpus alone decides
            pass
    return out


def graft(base: Any, witness: Any, path: list) -> list[Any]:
    """Copies of ``base`` carrying the witness's value at instance location ``path`` (a list of
    keys and indexes). The deepest prefix of ``path`` present in ``witness`` is taken; parents
    missing from ``base`` are created from the witness. Two variants when both values are
    objects: the witness's object replacing ``base``'s, and merged into it."""
    prefix: list = []
    value = witness
    for tok in path:
        if isinstance(value, dict) and isinstance(tok, str) and tok in value:
            value = value[tok]
        elif isinstance(value, list) and isinstance(tok, int) and 0 <= tok < len(value):
            value = value[tok]
        else:
            break
        prefix.append(tok)
    if not prefix:
        return []  # the whole witness: nothing to graft
    out = []
    for merge in (False, True):
        doc = copy.deepcopy(base)
        if _put(doc, witness, prefix, value, merge):
            out.append(doc)
    return out


def _put(doc: Any, witness: Any, prefix: list, value: Any, merge: bool) -> bool:
    node, wnode = doc, witness
    for i, tok in enumerate(prefix):
        last = i == len(prefix) - 1
        wnode = wnode[tok]
        if isinstance(node, dict) and isinstance(tok, str):
            if last or tok not in node:
                new = copy.deepcopy(value if last else wnode)
                if merge and last and isinstance(node.get(tok), dict) and isinstance(new, dict):
                    node[tok].update(new)
                elif merge and last:
                    return False
                else:
                    node[tok] = new
                return True
        elif isinstance(node, list) and isinstance(tok, int) and tok <= len(node):
            if last or tok == len(node):
                new = copy.deepcopy(value if last else wnode)
                if tok == len(node):
                    node.append(new)
                elif merge and isinstance(node[tok], dict) and isinstance(new, dict):
                    node[tok].update(new)
                elif merge:
                    return False
                else:
                    node[tok] = new
                return True
        else:
            return False
        node = node[tok]
    return False
