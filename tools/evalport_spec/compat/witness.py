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
    """Check and repair, in place, the witness of every backward MAJOR schema finding.

    Args:
        findings: the engine's findings (each schema finding has ``extra["file"]``, e.g.
            ``"suite.json"``, and ``extra["instance_path"]``).
        old, new: the two versions; a witness must satisfy
            ``Validator(old).validate(doc, type) == []`` and ``Validator(new).validate(doc, type)``
            holding a violation on the finding's instance location's branch.
        corpus: ``[(schema file name, document)]`` old-valid candidates to graft into.
        generated: how many documents generated from the old schema to try as well.

    Effect: a verified or repaired witness gets ``extra["witness_scope"] = "full"``; otherwise
    the finding stays MAJOR with ``extra["witness_scope"] = "schema"`` and a message saying so.
    """
    from ..validation import Validator

    todo = [f for f in findings if f.direction == "backward" and f.change_class == ChangeClass.MAJOR
            and not f.undecided and isinstance(f.extra.get("file"), str)
            and f.extra["file"].removesuffix(".json") in DOC_TYPES and _has_witness(f)]
    if not todo:
        return
    vo, vn = Validator(old), Validator(new)

    def proves(doc: Any, doc_type: str, pointer: str) -> bool:
        # old accepts; new rejects on the finding's branch (at, above or below its location),
        # so that a grafted document is rejected for the finding, not for another difference
        try:
            if vo.validate(doc, doc_type):
                return False
            return any(_same_branch(v.instance_path, pointer) for v in vn.validate(doc, doc_type))
        except Exception:  # noqa: BLE001 - a document a validator cannot read proves nothing
            return False

    bases: dict[str, list[Any]] = {}
    written_to = _version_number(old)
    for f in todo:
        fname = f.extra["file"]
        doc_type = fname.removesuffix(".json")
        path = list(f.extra.get("instance_path") or [])
        pointer = join("", *path)
        named = _with_version(f.witness, written_to)
        if named is not f.witness and proves(named, doc_type, pointer):
            f.witness = named  # names the old version, so `validate` (auto) picks the old version
        if proves(f.witness, doc_type, pointer):
            f.extra["witness_scope"] = "full"
            continue
        if fname not in bases:
            bases[fname] = _bases(fname, corpus, old, generated)
        hit = next((d for base in bases[fname] for d in graft(base, f.witness, path)
                    if proves(d, doc_type, pointer)), _NONE)
        if hit is not _NONE:
            f.extra["schema_witness"] = f.witness
            f.witness = hit
            f.extra.pop("witness_is_null", None)
            f.extra["witness_scope"] = "full"
        else:
            f.extra["witness_scope"] = "schema"
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
