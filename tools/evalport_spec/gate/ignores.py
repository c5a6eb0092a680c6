"""``check --ignore FILE``: the scoped, expiring entries of ``diff --ignore`` in the gate.

The file has the format of :mod:`evalport_spec.compat.ignore` (``{kind, pointer?, fingerprint?,
reason, expires?}``). In the ``draft`` and ``base`` stages an entry removes the non-breaking
findings it matches; a **breaking** finding is accepted by an entry only through its exact
``fingerprint`` (a kind or a pointer names every value an ``enum`` loses at once, so it accepts
none of them) and, for a finding without an item, its ``to``: the digest of the new value it
accepts (``extra["after"]`` of the finding, :func:`evalport_spec.rfc.accept.after_digest`), and
is still listed, as accepted by the ignore file. An expired entry accepts
nothing and is reported; so is an entry that matched nothing in the ``draft`` stage (stale).

An ignore file inside the repository (``gate-ignore.yml``, which ``.ci/run`` and the action
pass to the gate) exists for one thing: recording that reviewers agree a rule-code edit keeps
every verdict (:data:`~evalport_spec.gate.rulecode.KIND`, docs/how-to/gate-in-ci.md promise 5).
Each of its entries must be of that kind; an entry of any other kind is an input error naming
the file and the entry (:data:`COMMITTED_KINDS`). Otherwise one broad entry landed once (a
pointer, a kind) would excuse every later break it happens to match. Any other finding can be
ignored only by a file outside the repository, given by whoever runs the gate (the CI owner),
which keeps its full power.

With ``--base REF``, an ignore file inside the repository is the change's own file: only the
entries it already had at REF count (the same rule as RFC acceptance: the exception predates
the change it excuses); entries added by the change are reported and not applied.
An ignore file that is empty, holds only comments and blank lines, or holds a null (``ignore:``
with no value) is read as no entries, with
an ``ignore-file-empty`` warning (and a line on standard error from ``check``): naming a file
that says nothing is most likely a mistake (a truncated file, the wrong path), but it accepts
nothing, so it cannot let anything through and is no input error. The repository's own
``gate-ignore.yml`` is treated the same way. An explicit empty list (``[]``, ``ignore: []``) is
a deliberate "no entries" and gives no warning. (ruff and pytest read an empty configuration
file as their defaults, silently; the gate says so, since here the file exists only to carry
entries.)
"""

from __future__ import annotations

import datetime as dt
import os
import tempfile
from pathlib import Path
from typing import Any

from .. import gitsource
from ..compat.ignore import apply_ignore, load_ignore
from ..errors import InputError
from ..findings import Finding, Location, Severity
from ..fsutil import refuse_escaping_symlinks
from ..ignorefile import blank_message, is_blank
from .history import commit_subject
from .rulecode import KIND as CODE_KIND

COMMITTED_KINDS = (CODE_KIND,)
"""The finding kinds an ignore file inside the repository may name."""


def repository_path(root: Path, path: Path) -> str | None:
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


EMPTY_KIND = "ignore-file-empty"
"""The warning about an ignore file with no entry and no list (:func:`is_blank`)."""


def load_check_ignores(root: Path, path: str | Path, base: str | None,
                       today: dt.date | None = None) -> tuple[list[dict[str, Any]], list[Finding]]:
    """The live entries of ``path`` and WARNING findings for entries that do not apply
    (``ignore-entry-expired``, ``ignore-entry-not-at-base``) and for a blank file
    (:data:`EMPTY_KIND`, :func:`is_blank`).

    Raises:
        InputError: the file (or its version at ``base``) is not a valid ignore file; a file
            inside the repository is a symbolic link leaving it (:func:`repository_path`), is a link or
            gitlink at ``base`` (git would read it as absent, the checkout follows it), or has an
            entry of a kind other than :data:`COMMITTED_KINDS` (one line naming the file, the
            entry's index and its kind).
    """
    today = today or dt.date.today()
    rel = repository_path(root, Path(path))
    entries = load_ignore(path)
    label = str(path)
    if rel is not None:
        _refuse_broad(entries, rel)
    notes: list[Finding] = []
    if not entries and is_blank(path):
        notes.append(Finding(EMPTY_KIND, blank_message(label), severity=Severity.WARNING,
                             new=Location(rel or label)))
    if base is not None and rel is not None:
        data = gitsource.read_file(root, base, rel, plain=True)  # a link there: refused, never read as absent
        before: list[dict[str, Any]] = []
        if data is not None:
            with tempfile.TemporaryDirectory() as tmp:
                (Path(tmp) / Path(rel).name).write_bytes(data)
                before = load_ignore(Path(tmp) / Path(rel).name)
        for i, e in enumerate(entries):
            if e not in before:
                notes.append(Finding("ignore-entry-not-at-base",
                                     f"{label} entry {i} ({e['kind']}) is not in {base}'s {rel}: an ignore "
                                     "entry added by the change it would excuse is not applied; "
                                     + _commit_named(root, e), severity=Severity.WARNING, new=Location(rel, f"/{i}")))
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


def _commit_named(root: Path, entry: dict[str, Any]) -> str:
    """What the reviewer of a new entry is to read: the code of the commit it names
    (:mod:`evalport_spec.gate.ignorecommit`), with that commit's subject when the clone has it."""
    commit = entry.get("commit")
    if commit is None:
        return "it names no commit, so once landed it will accept nothing"
    subject = commit_subject(root, commit)
    shown = f"{commit[:12]} ({subject!r})" if subject is not None else f"{commit[:12]} (not in this clone)"
    return f"review the code it excuses: commit {shown}, `git diff <base> {commit[:12]} -- tools/`"


def _refuse_broad(entries: list[dict[str, Any]], rel: str) -> None:
    """Raise on the first entry of the repository's ignore file ``rel`` whose kind is not one
    of :data:`COMMITTED_KINDS`."""
    for i, e in enumerate(entries):
        if e["kind"] not in COMMITTED_KINDS:
            raise InputError(f"entry {i} ({e['kind']}) of the repository's ignore file: a file inside the "
                             f"repository may only accept {', '.join(COMMITTED_KINDS)} findings (a reviewed "
                             "rule-code refactor); any other finding is ignored only by an --ignore file "
                             "outside the repository, given by whoever runs the gate", rel, None, None, f"/{i}")


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
