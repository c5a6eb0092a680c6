"""An RFC's ``accepts:`` list: the breaking findings a MAJOR RFC accepts, one by one.

Front matter shape (``data/rfc-front-matter.schema.json``)::

    accepts:
      - {"fingerprint": "3f0c9d2e8a1b7c44", "kind": "enum-value-removed", "location": "resultset.json#/$defs/error/properties/type/enum", "item": "runner_error"}

Each entry names one finding by its fingerprint (docs/fingerprints.md: kind, code, direction,
pointers, file names and the item); ``kind``, ``location`` and ``item`` are there for the
reader. A fingerprint without an item names a place, not the value written there
(``min-length-increased`` at ``/properties/x/minLength`` is one fingerprint for ``1 -> 2`` and
for ``1 -> 50``), so the entry of such a finding also carries ``to``: the digest of the value
at the finding's new location (:func:`after_digest`), and it accepts that value only (red team:
an RFC accepted for ``minLength 2`` let a branch through with ``minLength 50``). An entry
without ``to`` accepts only findings that name an item. The gate accepts a breaking finding only when an RFC that was already ``accepted`` and
``declared_class: MAJOR`` before the change lists its fingerprint (docs/how-to/gate-in-ci.md).
Entries are written one per line as JSON flow mappings (JSON is YAML), so the rest of the file
is left byte for byte as it was.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ..canonjson import canonical
from ..errors import InputError
from ..findings import Finding
from ..fsutil import atomic_write, repo_lock
from ..jsonload import loads
from ..pointer import resolve
from ..spec import SpecRepo, SpecVersion
from .frontmatter import FENCE, parse
from .model import Rfc, find_rfc, repo_root

ACCEPTS = "accepts"
"""The front matter key."""

TO = "to"
"""The entry key binding a finding without an item to the value it accepts."""

AFTER = "after"
"""The ``Finding.extra`` key holding :func:`after_digest` of a breaking finding the gate decides."""

OPEN_STATUSES = ("draft", "comment", "accepted")
"""Statuses in which an RFC's ``accepts`` list is live: undecided, or accepted and not yet
implemented (a stale entry of one is reported)."""

WRITABLE_STATUSES = ("draft", "comment")
"""Statuses whose ``accepts`` list may still be written: an accepted RFC's list is what was
open for comment and decided (``check --base`` reports an entry added after the decision,
``rfc-accepts-after-decision``; :mod:`evalport_spec.gate.rfclifecycle`)."""


def location_text(finding: Finding) -> str:
    """``file name#pointer`` of the finding's primary location (``resultset.json#/$defs/x``),
    the form the fingerprint uses (no folder); ``""`` when it has none."""
    loc = finding.where()
    if loc is None:
        return ""
    name = loc.file.rsplit("/", 1)[-1] if loc.file else ""
    return f"{name}#{loc.pointer}" if loc.pointer is not None else name


def after_digest(version: SpecVersion, finding: Finding) -> str | None:
    """The first 16 hex digits of SHA-256 over the canonical JSON (RFC 8785,
    :func:`~evalport_spec.canonjson.canonical`) of ``[file name, pointer, value]``: the value at
    ``finding``'s new location in ``version`` (a schema file, or ``rules.json``, by file name;
    ``null`` when the pointer does not resolve there). ``None`` when the fingerprint alone names the change: the finding names
    an item, or has no new location.

    Raises:
        InputError: the file cannot be read or parsed.
    """
    new = finding.new
    if finding.has_item or new is None or new.pointer is None:
        return None
    name = (new.file or "").rsplit("/", 1)[-1]
    if name == "rules.json":
        data = version.catalogue_bytes
        doc = loads(data, version.path_label(name)).value if data is not None else None
    else:
        file = version.schemas.files.get(name)
        doc = file.schema if file is not None else None
    value = resolve(doc, new.pointer, None) if doc is not None else None
    return hashlib.sha256(canonical([name, new.pointer, value]).encode("utf-8")).hexdigest()[:16]


def bind_after(version: SpecVersion, findings: Iterable[Finding]) -> list[Finding]:
    """``findings`` with ``extra["after"]`` set to :func:`after_digest` in ``version`` (the
    tree under review's draft) where it is not ``None``; the findings are updated in place."""
    out = list(findings)
    for f in out:
        digest_ = after_digest(version, f)
        if digest_ is not None:
            f.extra[AFTER] = digest_
    return out


def entry(finding: Finding) -> dict[str, Any]:
    """The ``accepts`` entry for ``finding``: ``{fingerprint, kind, location, item?, to?}``
    (``to``: the finding's ``extra["after"]``, set by :func:`bind_after`)."""
    out: dict[str, Any] = {"fingerprint": finding.fingerprint, "kind": finding.kind,
                           "location": location_text(finding)}
    if finding.has_item:
        out["item"] = finding.item
    if finding.extra.get(AFTER) is not None:
        out[TO] = finding.extra[AFTER]
    return out


def accepts_entry(e: dict[str, Any], finding: Finding) -> bool:
    """Whether the ``accepts`` (or ignore file) entry ``e`` names ``finding``: the same
    fingerprint, and, for a finding bound to its new value (``extra["after"]``), the same ``to``."""
    return e.get("fingerprint") == finding.fingerprint and e.get(TO) == finding.extra.get(AFTER)


def accepts_of(meta: dict[str, Any]) -> list[dict[str, Any]]:
    """The well-formed entries of ``meta["accepts"]`` (a mapping with a string ``fingerprint``);
    malformed ones are ``rfc lint``'s finding (the front matter schema) and accept nothing."""
    raw = meta.get(ACCEPTS)
    if not isinstance(raw, list):
        return []
    return [e for e in raw if isinstance(e, dict) and isinstance(e.get("fingerprint"), str)]


def fingerprints_of(meta: dict[str, Any]) -> frozenset[str]:
    """The fingerprints an RFC's front matter lists in ``accepts``."""
    return frozenset(e["fingerprint"] for e in accepts_of(meta))


def bindings_of(meta: dict[str, Any]) -> frozenset[tuple[str, str | None]]:
    """``(fingerprint, to)`` of each ``accepts`` entry (``to`` ``None`` when the entry has none,
    or a non-string one, which binds no value)."""
    return frozenset((e["fingerprint"], e[TO] if isinstance(e.get(TO), str) else None)
                     for e in accepts_of(meta))


def render_block(entries: list[dict[str, Any]]) -> str:
    """The ``accepts:`` block: one JSON flow mapping per line (keys in entry order)."""
    return f"{ACCEPTS}:\n" + "".join(f"  - {json.dumps(e, ensure_ascii=False)}\n" for e in entries)


def replace_block(text: str, entries: list[dict[str, Any]], source: str) -> str:
    """``text`` (a whole RFC file) with its top-level ``accepts:`` block replaced by ``entries``
    (added before the closing ``---`` when absent). Raises :class:`InputError` when the result
    does not parse back to exactly ``entries``."""
    lines = text.split("\n")
    end = next((i for i in range(1, len(lines)) if lines[i].rstrip("\r") == FENCE), None)
    if not lines or lines[0].rstrip("\r") != FENCE or end is None:
        raise InputError("no YAML front matter to write 'accepts' into", source, 1)
    start = next((i for i in range(1, end) if re.match(rf"^{ACCEPTS}\s*:", lines[i])), None)
    block = render_block(entries).rstrip("\n").split("\n")
    if start is None:
        lines[end:end] = block
    else:
        stop = start + 1
        while stop < end and (lines[stop][:1] in (" ", "\t", "-") or not lines[stop].strip()):
            stop += 1
        lines[start:stop] = block
    out = "\n".join(lines)
    if accepts_of(parse(out, source).data) != entries:
        raise InputError("the 'accepts' list would not read back as written", source)
    return out


def accepting_rfc(repo: SpecRepo | str | Path, number: int) -> Rfc:
    """RFC ``number`` if it may list breaking findings in its ``accepts``: it exists, declares
    MAJOR and it is undecided (:data:`WRITABLE_STATUSES`: draft or comment).
    ``rfc accept-findings`` asks this before computing the change, so a wrong number is an error
    whether or not there is anything to accept.

    Raises:
        InputError: no such RFC (naming the ``rfcs/`` folder); it does not declare MAJOR; its
            status is no status word (:data:`~.model.STATUSES`: ``ACCEPTED``, ``[accepted]``, none)
            or is decided (accepted, implemented, rejected, withdrawn, superseded).
    """
    rfc = find_rfc(repo_root(repo), number)
    status, cls = rfc.status_word(), rfc.meta.get("declared_class")  # ACCEPTED, [accepted], none: refused
    if cls != "MAJOR":
        raise InputError(f"RFC {number:04d} declares {cls or 'no class'}: only an RFC declaring "
                         "MAJOR accepts breaking findings (set declared_class: MAJOR first)",
                         rfc.rel, rfc.fm.line("declared_class"))
    if status == "accepted":
        raise InputError(f"RFC {number:04d} is accepted: it accepts what was open for comment when "
                         "it was decided; a new breaking change needs a new RFC", rfc.rel, rfc.fm.line("status"))
    if status not in WRITABLE_STATUSES:
        raise InputError(f"RFC {number:04d} is {status}: its decision record is closed; a new "
                         "breaking change needs a new RFC", rfc.rel, rfc.fm.line("status"))
    return rfc


def write_accepts(repo: SpecRepo | str | Path, number: int, findings: Iterable[Finding]
                  ) -> tuple[Path, list[dict[str, Any]], list[dict[str, Any]]]:
    """Add one ``accepts`` entry per finding to RFC ``number`` (entries already listed, by
    fingerprint and ``to``, are kept as they are; none is removed). Written atomically under the
    repository lock.

    Returns:
        ``(path, added entries, entries already listed)``.

    Raises:
        InputError: no such RFC; it does not declare MAJOR (only a MAJOR RFC accepts breaking
            findings); its status is decided (accepted, implemented, rejected, withdrawn, superseded).
    """
    root = repo_root(repo)
    with repo_lock(root, "rfc accept-findings"):
        rfc = accepting_rfc(root, number)
        current = accepts_of(rfc.meta)
        listed = {(e["fingerprint"], e.get(TO)) for e in current}
        added: list[dict[str, Any]] = []
        kept: list[dict[str, Any]] = []
        for f in findings:
            e = entry(f)
            if (e["fingerprint"], e.get(TO)) in listed:
                kept.append(e)
            elif e not in added:
                added.append(e)
        if added:
            atomic_write(rfc.path, replace_block(rfc.text, current + added, rfc.rel).encode("utf-8"))
        return rfc.path, added, kept
