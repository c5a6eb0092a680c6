"""The digest manifest of released files, ``spec/releases/SHA256SUMS``.

Format: the output of ``sha256sum`` run in ``spec/releases`` (GNU coreutils): one line per file,
64 lowercase hex digits, two spaces (or a space and ``*``), and the path relative to
``spec/releases`` with ``/`` separators (``1.2.0/schemas/suite.json``), so
``cd spec/releases && sha256sum -c SHA256SUMS`` verifies it. Released files are frozen
(toolchain.md, "Versions and releases": the gate fails if a released file changes).
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

from .findings import Finding, Location
from .fsutil import read_limited
from .jsonload import MAX_BYTES

MANIFEST_NAME = "SHA256SUMS"
_LINE = re.compile(r"^([0-9a-fA-F]{64}) [ *](.+)$")


@dataclass(frozen=True)
class ManifestEntry:
    """One manifest line: lowercase hex digest, path relative to ``spec/releases``, 1-based line."""

    digest: str
    path: str
    line: int


def sha256(data: bytes) -> str:
    """Lowercase hex SHA-256 of ``data``."""
    return hashlib.sha256(data).hexdigest()


def parse_manifest(text: str, label: str) -> tuple[list[ManifestEntry], list[Finding]]:
    """Parse a manifest. Returns the entries and one ``manifest-line-malformed`` or
    ``manifest-duplicate-path`` error finding per bad line (blank lines are ignored)."""
    entries: list[ManifestEntry] = []
    problems: list[Finding] = []
    seen: set[str] = set()
    for i, raw in enumerate(text.split("\n"), start=1):
        if not raw.strip():
            continue
        m = _LINE.match(raw)
        if not m or m.group(2).startswith("/") or ".." in m.group(2).split("/"):
            problems.append(Finding("manifest-line-malformed",
                                    "not a 'SHA256  path' line relative to spec/releases",
                                    new=Location(label, None, i)))
            continue
        path = m.group(2)
        if path in seen:
            problems.append(Finding("manifest-duplicate-path", f"{path} is listed twice",
                                    new=Location(label, None, i)))
            continue
        seen.add(path)
        entries.append(ManifestEntry(m.group(1).lower(), path, i))
    return entries, problems


def render_manifest(digests: dict[str, str]) -> str:
    """Manifest text for ``{path relative to spec/releases: hex digest}``, sorted by path."""
    return "".join(f"{digests[p]}  {p}\n" for p in sorted(digests))


def released_files(releases_dir: Path) -> dict[str, Path]:
    """Every entry under the release folders (``X.Y.Z/...``) but the folders themselves, keyed by
    its manifest path: regular files, and also symlinks, FIFOs, sockets and devices, so that
    something that is no regular file is reported (unlisted, or unreadable when read) instead of
    passing unseen. The manifest itself and files directly in ``spec/releases`` other than
    release folders are not included; hidden files inside release folders are. Symlinked folders
    are entries, not followed."""
    out: dict[str, Path] = {}
    if not releases_dir.is_dir():
        return out
    for p in sorted(releases_dir.rglob("*")):
        rel = p.relative_to(releases_dir).as_posix()
        if "/" in rel and (p.is_symlink() or not p.is_dir()):
            out[rel] = p
    return out


def read_released(path: Path, label: str) -> bytes:
    """The bytes of one released file (an entry of :func:`released_files`), at most
    :data:`~evalport_spec.jsonload.MAX_BYTES`.

    Raises:
        InputError: the entry is no regular file (a FIFO, socket, device or folder, symlinks
            followed), is missing or unreadable, or is larger than the limit; names ``label``.
    """
    return read_limited(path, max_bytes=MAX_BYTES, label=label)


def verify_manifest(releases_dir: Path, label: str = "spec/releases/SHA256SUMS") -> list[Finding]:
    """Check every released file against the manifest.

    Returns error findings: ``manifest-missing`` (releases exist but no manifest),
    ``released-file-changed`` (digest differs; names the file), ``released-file-missing``
    (listed but gone), ``released-file-unlisted`` (present but not listed), plus parse problems.
    """
    files = released_files(releases_dir)
    mpath = releases_dir / MANIFEST_NAME
    if not mpath.is_file():
        if files:
            return [Finding("manifest-missing", f"{len(files)} released files but no {MANIFEST_NAME}",
                            new=Location(label))]
        return []
    text = read_limited(mpath, max_bytes=MAX_BYTES, label=label).decode("utf-8", "replace")
    entries, problems = parse_manifest(text, label)
    listed = {e.path: e for e in entries}
    rel_label = label.rsplit("/", 1)[0]
    for e in entries:
        p = files.get(e.path)
        if p is None:
            problems.append(Finding("released-file-missing",
                                    f"{rel_label}/{e.path} is listed in {MANIFEST_NAME} but does not exist",
                                    new=Location(label, None, e.line)))
            continue
        if p.is_symlink():  # the same bytes today, another file's tomorrow
            how = "was replaced by a symbolic link; released files are regular files, frozen as released"
        elif sha256(read_released(p, f"{rel_label}/{e.path}")) != e.digest:
            how = (f"was changed (its SHA-256 no longer matches {MANIFEST_NAME} line {e.line}); released "
                   "files are frozen")
        else:
            continue
        problems.append(Finding("released-file-changed", f"released file {rel_label}/{e.path} {how}",
                                new=Location(f"{rel_label}/{e.path}", None, None), extra={"manifest_line": e.line}))
    for rel in files:
        if rel not in listed:
            problems.append(Finding("released-file-unlisted",
                                    f"{rel_label}/{rel} is not listed in {MANIFEST_NAME}",
                                    new=Location(f"{rel_label}/{rel}")))
    return problems
