"""Multi-file writes that land whole or not at all: a journalled transaction.

A command that changes several files at once (``release``, ``docs publish``, ``rfc apply``,
``spec sync``) writes through :func:`transaction`::

    with transaction(root, "release") as txn:
        txn.write("spec/VERSION", b"1.5.0\\n")
        txn.write("spec/releases/1.4.0/SPEC.md", data)
        txn.remove("rfcs/0007-old-draft.md")

How (a redo journal, as in a database's write-ahead log):

1. *stage*: inside the block every new file is written, and fsynced, into the journal folder
   beside the repository (:func:`journal_dir`: ``.git/evalport-journal/`` in a git checkout, else
   ``.evalport-journal/``), under its repository-relative path. Nothing in the repository
   changes. An exception (Ctrl-C included) discards the folder.
2. *switch*: on leaving the block the list of operations is written to ``journal.json.tmp``
   and renamed to ``journal.json``. That one ``rename(2)`` is the commit point: before it the
   repository is unchanged, after it the transaction is complete *by definition*, and what is
   left is mechanical.
3. *install*: each staged file is renamed over its target (``os.replace``: atomic per file),
   each removal done, each git ref moved (``git update-ref REF NEW OLD``); then the journal
   folder is deleted. Every step is idempotent: a staged file that is no longer there was
   already moved.

SIGINT, SIGTERM and SIGHUP are deferred from the switch to the end of the install
(:func:`deferred_signals`); a Ctrl-C that arrived then is reported afterwards as
:class:`CompletedInterrupt` (the write completed). SIGKILL or a power cut cannot be deferred: the
next command finds the folder and :func:`recover` finishes the job (``journal.json`` present:
install again) or discards it (absent: the repository was never touched). A journal whose
operations point outside the repository (``..``, absolute paths, ``.git``) or at anything but
a staged regular file is refused, never replayed.

The repository lock (:func:`~evalport_spec.fsutil.repo_lock`) is held throughout, so the
journal folder belongs to one writer at a time.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import stat
import threading
from collections.abc import Callable, Iterator
from pathlib import Path, PurePosixPath
from typing import Any

from .errors import EvalportError, InputError
from .fsutil import read_limited, repo_lock
from .repoloc import journal_dir

RECORD = "journal.json"
"""The commit record inside the journal folder: ``{"what": str, "ops": [[kind, ...], ...]}``."""
STAGED = "new"
"""Folder (inside the journal folder) holding staged files under their repository paths."""
STAGING_REFS = "staging-refs.json"
"""Git refs a transaction stages into (``refs/heads/evalport-staging/...``), deleted on discard."""
STAGING_REF_PREFIX = "refs/heads/evalport-staging/"
DEFERRED = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
MAX_RECORD_BYTES = 16 * 1024 * 1024
"""Largest journal record (or staging-ref list) read back; a bigger one is damaged."""

_fault_hook: Callable[[int, str], None] | None = None
"""Called as ``hook(step index, step name)`` before every step of a transaction (staging each
file, writing the record, the switch, each install, the clean-up). ``None`` in normal use; the
interruption tests set it to send a signal at a chosen step."""


class CompletedInterrupt(KeyboardInterrupt):
    """Ctrl-C arrived during the switch of a transaction: it was deferred, the write completed,
    and the interruption is reported now. ``str()`` says so."""


def _check_rel(rel: str) -> str:
    """``rel`` if it is a plain repository-relative POSIX path (no ``..``, not absolute, not in
    ``.git``), else :class:`InputError`."""
    p = PurePosixPath(rel)
    if (not rel or p.is_absolute() or "\\" in rel or "\0" in rel or any(part in ("", ".", "..") for part in rel.split("/"))
            or p.parts[0] == ".git"):
        raise InputError(f"refusing to write {rel!r}: not a path inside the repository")
    return rel


def _fsync_dir(path: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


@contextlib.contextmanager
def deferred_signals(signums: tuple[int, ...] = DEFERRED, what: str = "write") -> Iterator[None]:
    """Hold back ``signums`` for the duration of the block, then deliver them.

    A SIGINT received under Python's default handler becomes :class:`CompletedInterrupt`
    ("interrupted, but the WHAT had already completed"); any other signal is re-raised with
    the handler it had. Only the main thread can change handlers: elsewhere this does nothing.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    got: list[int] = []
    previous = {s: signal.signal(s, lambda n, _f: got.append(n)) for s in signums}
    try:
        yield
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)
        for s in dict.fromkeys(got):
            if s == signal.SIGINT and previous[s] is signal.default_int_handler:
                raise CompletedInterrupt(f"the {what} had already completed when the interruption came")
            signal.raise_signal(s)


class Transaction:
    """The staging side of :func:`transaction`: collects writes, removals and ref moves.

    Attributes:
        root: the repository root. what: the command, for messages (``"release"``).
        folder: the journal folder (:func:`journal_dir`).
        ops: the operations recorded so far, one per target, in order (``["write", rel]``,
            ``["remove", rel]``, ``["ref", refname, new, old]``; a later operation on the same
            target replaces the earlier one).
    """

    def __init__(self, root: Path, what: str, folder: Path) -> None:
        self.root = root
        self.what = what
        self.folder = folder
        self._ops: dict[str, list[str]] = {}
        self._staged_dirs: set[Path] = set()
        self._steps = 0
        self._staged_refs: list[str] = []

    def step(self, name: str) -> None:
        """Count one step (and call the test hook, :data:`_fault_hook`)."""
        if _fault_hook is not None:
            _fault_hook(self._steps, name)
        self._steps += 1

    def write(self, rel: str, data: bytes | str) -> None:
        """Stage ``data`` (text is written as UTF-8) as the new content of repository path ``rel``.

        Raises:
            InputError: ``rel`` is not a plain path inside the repository, or the staging
                folder cannot be written.
        """
        rel = _check_rel(rel)
        if isinstance(data, str):
            data = data.encode("utf-8")
        self.step(f"stage {rel}")
        dst = self.folder / STAGED / rel
        try:
            dst.parent.mkdir(parents=True, exist_ok=True)
            with open(dst, "wb") as fh:
                fh.write(data)
                fh.flush()
                os.fsync(fh.fileno())
        except OSError as exc:
            raise InputError(f"cannot stage {rel}: {exc.strerror or exc}", str(self.folder)) from None
        self._staged_dirs.add(dst.parent)
        self._record(["write", rel])

    def remove(self, rel: str) -> None:
        """Remove repository file ``rel`` at the switch (nothing happens if it is absent then).

        Raises:
            InputError: ``rel`` is not a plain path inside the repository.
        """
        rel = _check_rel(rel)
        self._record(["remove", rel])

    def staging_ref(self, name: str) -> str:
        """A git branch to build new commits on beside the real one (``docs publish`` deploys
        there with mike), deleted when the transaction ends either way. Returns its full ref
        name ``refs/heads/evalport-staging/NAME``."""
        ref = STAGING_REF_PREFIX + name
        self._staged_refs.append(ref)
        _write_json(self.folder / STAGING_REFS, self._staged_refs)
        return ref

    def move_ref(self, ref: str, new: str, old: str | None) -> None:
        """Point git ref ``ref`` at commit ``new`` at the switch, provided it still points at
        ``old`` (``None``: provided it does not exist), like ``git update-ref REF NEW OLD``."""
        self._record(["ref", ref, new, old or ""])

    @property
    def ops(self) -> list[list[str]]:
        """The operations recorded so far (see the class docstring)."""
        return list(self._ops.values())

    def _record(self, op: list[str]) -> None:
        self._ops.pop(op[1], None)  # moved to the end: the last word on a target wins
        self._ops[op[1]] = op

    def commit(self) -> None:
        """Write the record, switch, install and clean up (module docstring, steps 2 and 3)."""
        record = {"what": self.what, "ops": self.ops}
        self.step("record")
        tmp = self.folder / f"{RECORD}.tmp"
        _write_json(tmp, record)
        for d in self._staged_dirs:  # the staged files' names are durable before the switch
            _fsync_dir(d)
        with deferred_signals(what=self.what):
            self.step("switch")
            os.replace(tmp, self.folder / RECORD)
            _fsync_dir(self.folder)
            _install(self.root, self.folder, record, self.step)


def _write_json(path: Path, value: Any) -> None:
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(value, fh)
        fh.flush()
        os.fsync(fh.fileno())


def _git(root: Path, *args: str) -> tuple[int, str]:
    from . import git  # lazy: recover() with no journal, before every command, stays light

    r = git.run(root, *args, check=False, max_bytes=1 << 20)
    return r.returncode, r.stdout.decode("utf-8", "replace").strip()


def _install(root: Path, folder: Path, record: dict[str, Any], step: Callable[[str], None]) -> None:
    """Carry out a committed record (idempotent), then delete the journal folder."""
    touched: set[Path] = set()
    for op in record["ops"]:
        kind, target = op[0], op[1]
        step(f"install {target}")
        if kind == "write":
            src, dst = folder / STAGED / target, root / target
            if os.path.lexists(src):
                dst.parent.mkdir(parents=True, exist_ok=True)
                os.replace(src, dst)
                touched.add(dst.parent)
        elif kind == "remove":
            dst = root / target
            with contextlib.suppress(FileNotFoundError):
                os.unlink(dst)
            touched.add(dst.parent)
        else:  # "ref"
            new, old = op[2], op[3]
            code, now = _git(root, "rev-parse", "--verify", "-q", target)
            if now != new:
                code, _ = _git(root, "update-ref", "-m", f"evalport-spec {record['what']}", target, new,
                               old or "0" * 40)
                if code != 0:
                    raise InputError(f"cannot move {target} to {new[:12]}: it no longer points at "
                                     f"{old[:12] or 'nothing'}", str(root))
    for d in touched:
        _fsync_dir(d)
    step("clean up")
    _discard(root, folder)


def _discard(root: Path, folder: Path) -> None:
    """Delete the journal folder and any staging git ref it lists."""
    refs = folder / STAGING_REFS
    if refs.is_file():
        with contextlib.suppress(OSError, ValueError, EvalportError):
            for ref in json.loads(read_limited(refs, max_bytes=MAX_RECORD_BYTES)):
                if isinstance(ref, str) and ref.startswith(STAGING_REF_PREFIX) and ".." not in ref:
                    _git(root, "update-ref", "-d", ref)
    with contextlib.suppress(FileNotFoundError):
        os.unlink(folder / RECORD)
    shutil.rmtree(folder, ignore_errors=True)


@contextlib.contextmanager
def transaction(root: str | os.PathLike[str], what: str) -> Iterator[Transaction]:
    """A journalled multi-file write to the repository at ``root`` (module docstring).

    Takes the repository lock (re-entrant: a caller may already hold it), first finishing or
    discarding an earlier unfinished journal (:func:`recover`). The block stages; leaving it
    normally commits; leaving it by an exception (``KeyboardInterrupt`` included) discards the
    staged files and re-raises, the repository untouched.

    Raises:
        InputError: the lock is held by another command or cannot be created, a damaged
            earlier journal, a path outside the repository, or the staging folder cannot be
            written.
        CompletedInterrupt: Ctrl-C during the switch (the write completed).
    """
    root = Path(root)
    with repo_lock(root, what):
        _recover_locked(root)
        folder = journal_dir(root)
        try:
            (folder / STAGED).mkdir(parents=True)
        except OSError as exc:
            raise InputError(f"cannot {what}: cannot create the journal folder ({exc.strerror or exc})",
                             str(folder)) from None
        txn = Transaction(root, what, folder)
        try:
            yield txn
        except BaseException:
            _discard(root, folder)
            raise
        try:
            txn.commit()
        except BaseException:
            if not (folder / RECORD).exists():
                _discard(root, folder)
            raise


def _load_record(root: Path, folder: Path) -> dict[str, Any]:
    """The committed record, checked: every path inside the repository, every staged file a
    regular file (not a symlink), every ref a plain ``refs/heads/`` name with hex ids."""
    where = str(folder / RECORD)
    try:
        record = json.loads(read_limited(folder / RECORD, max_bytes=MAX_RECORD_BYTES))
        ops = record["ops"]
        if not isinstance(record.get("what"), str) or not isinstance(ops, list):
            raise TypeError
        for op in ops:
            if not (isinstance(op, list) and op and all(isinstance(x, str) for x in op)):
                raise TypeError
            if op[0] in ("write", "remove") and len(op) == 2:
                _check_rel(op[1])
                src = folder / STAGED / op[1]
                if op[0] == "write" and os.path.lexists(src) and not stat.S_ISREG(os.lstat(src).st_mode):
                    raise InputError(f"staged {op[1]} is not a regular file")
            elif not (op[0] == "ref" and len(op) == 4 and re.fullmatch(r"refs/heads/[\w./-]+", op[1])
                      and ".." not in op[1] and re.fullmatch(r"[0-9a-f]{40,64}", op[2])
                      and re.fullmatch(r"([0-9a-f]{40,64})?", op[3])):
                raise TypeError
    except InputError as exc:
        raise InputError(f"damaged journal, not replayed: {exc.message}; inspect it and delete the "
                         "folder by hand", where) from None
    except (OSError, ValueError, KeyError, TypeError, EvalportError):
        raise InputError("damaged journal, not replayed: not a list of write/remove/ref operations; "
                         "inspect it and delete the folder by hand", where) from None
    return record


def _recover_locked(root: Path) -> str | None:
    """:func:`recover` with the lock already held."""
    folder = journal_dir(root)
    if not os.path.lexists(folder):
        return None
    if not (folder / RECORD).exists():
        _discard(root, folder)
        return None
    record = _load_record(root, folder)
    with deferred_signals(what=f"recovery of the interrupted {record['what']}"):
        _install(root, folder, record, lambda _name: None)
    return f"completed the interrupted {record['what']} found in {folder}"


def recover(root: str | os.PathLike[str]) -> str | None:
    """Finish or discard an unfinished transaction of the repository at ``root``.

    Run by every command before it reads the repository. No journal folder: nothing to do
    (one ``stat``). A committed journal (``journal.json`` present) is installed; an uncommitted
    one (the writer died while staging) is discarded: the repository was never touched.

    Returns:
        a one-line note when an interrupted write was completed, else ``None``.

    Raises:
        InputError: a committed journal that cannot be completed now: another command holds
            the lock (it may be that writer, still switching), the repository is read-only,
            or the journal is damaged (one line naming the journal).
    """
    root = Path(root)
    folder = journal_dir(root)
    if not os.path.lexists(folder):
        return None
    committed = (folder / RECORD).exists()
    with contextlib.ExitStack() as stack:
        try:
            stack.enter_context(repo_lock(root, "evalport-spec"))
        except InputError as exc:
            if not committed:  # a writer still staging, or a read-only leftover: the tree is intact
                return None
            raise InputError("a write to this repository was interrupted and its journal cannot be "
                             f"completed now: {exc.message}", str(folder)) from None
        try:
            return _recover_locked(root)
        except OSError as exc:
            raise InputError("a write to this repository was interrupted and its journal cannot be "
                             f"completed: {exc.strerror or exc}", str(folder)) from None
    return None  # pragma: no cover - the block always returns
