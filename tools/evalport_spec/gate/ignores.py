"""``check --ignore FILE``: the scoped, expiring entries of ``diff --ignore`` in the gate.

The file has the format of :mod:`evalport_spec.compat.ignore` (``{kind, pointer?, fingerprint?,
reason, expires?}``). In the ``draft`` and ``base`` stages an entry removes the non-breaking
findings it matches; a **breaking** finding is accepted by an entry only through its exact
``fingerprint`` (a kind or a pointer names every value an ``enum`` loses at once, so it accepts
none of them) and, for a finding without an item, its ``to``: the digest of the new value it
accepts (``extra["after"]`` of the finding, :func:`evalport_spec.rfc.accept.after_digest`), and
is still listed, as accepted by the ignore file. An expired entry accepts
nothing and is reported; so is an entry that matched nothing in the ``draft`` stage (stale).

With ``--base REF``, an ignore file inside the repository is the change's own file: only the
entries it already had at REF count (the same rule as RFC acceptance: the exception predates
the change it excuses); entries added by the change are reported and not applied.
"""

from __future__ import annotations

import datetime as dt
import os
import tempfile
from pathlib import Path
from typing import Any

from .. import gitsource
from ..compat.ignore import apply_ignore, load_ignore
from ..findings import Finding, Location, Severity
from ..fsutil import refuse_escaping_symlinks


def _inside(root: Path, path: Path) -> str | None:
    """``path``'s place in the repository ``root`` (POSIX, relative), or None when it is outside,
    read as written (a file inside the repository as written is the repository's file, whatever
    a link makes of it: its entries at the base are read from git at that path), else with links
    followed.

    Raises:
        InputError: ``path`` is inside the repository as written and is a symbolic link that
            leaves it (:func:`~evalport_spec.fsutil.refuse_escaping_symlinks`, the rule ``spec/``
            and ``rfcs/`` follow).
    """
    lexical, top = Path(os.path.abspath(path)), Path(os.path.abspath(root))
    if lexical.is_relative_to(top):
        rel = lexical.relative_to(top).as_posix()
        refuse_escaping_symlinks(top, (rel,))
        return rel
    resolved = Path(path).resolve()
    return resolved.relative_to(root.resolve()).as_posix() if resolved.is_relative_to(root.resolve()) else None


def load_check_ignores(root: Path, path: str | Path, base: str | None,
                       today: dt.date | None = None) -> tuple[list[dict[str, Any]], list[Finding]]:
    """The live entries of ``path`` and WARNING findings for entries that do not apply
    (``ignore-entry-expired``, ``ignore-entry-not-at-base``).

    Raises:
        InputError: the file (or its version at ``base``) is not a valid ignore file, or, with
            ``base``, a file inside the repository is a symbolic link leaving it (:func:`_inside`).
    """
    today = today or dt.date.today()
    rel = _inside(root, Path(path)) if base is not None else None
    entries = load_ignore(path)
    label = str(path)
    notes: list[Finding] = []
    if base is not None and rel is not None:
        data = gitsource.read_file(root, base, rel)
        before: list[dict[str, Any]] = []
        if data is not None:
            with tempfile.TemporaryDirectory() as tmp:
                (Path(tmp) / Path(rel).name).write_bytes(data)
                before = load_ignore(Path(tmp) / Path(rel).name)
        for i, e in enumerate(entries):
            if e not in before:
                notes.append(Finding("ignore-entry-not-at-base",
                                     f"{label} entry {i} ({e['kind']}) is not in {base}'s {rel}: an ignore "
                                     "entry added by the change it would excuse is not applied",
                                     severity=Severity.WARNING, new=Location(rel, f"/{i}")))
        entries = [e for e in entries if e in before]
    live = []
    for e in entries:
        if "expires" in e and dt.date.fromisoformat(e["expires"]) < today:
            notes.append(Finding("ignore-entry-expired", f"{label}: the entry for {e['kind']} expired on "
                                 f"{e['expires']} and no longer applies ({e['reason']})",
                                 severity=Severity.WARNING, new=Location(label)))
        else:
            live.append(e)
    return live, notes


def drop_ignored(findings: list[Finding], entries: list[dict[str, Any]]) -> tuple[list[Finding], list[dict[str, Any]]]:
    """``findings`` (non-breaking ones) without those the live ``entries`` match, and the
    entries that matched."""
    if not entries:
        return findings, []
    kept, info = apply_ignore(findings, entries)
    return kept, info["used"]


def stale_entries(entries: list[dict[str, Any]], used: list[dict[str, Any]], label: str) -> list[Finding]:
    """A WARNING ``ignore-entry-stale`` per live entry that matched no finding."""
    return [Finding("ignore-entry-stale", f"--ignore entry for {e['kind']}"
                    + (f" [{e['fingerprint']}]" if "fingerprint" in e else "")
                    + f" matched no finding {label}: remove it ({e['reason']})",
                    severity=Severity.WARNING) for e in entries if e not in used]
