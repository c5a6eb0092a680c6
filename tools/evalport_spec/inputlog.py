"""What a computation read: the files, folder listings, child processes and commands, recorded
as it runs, so its answer can be kept and replayed while every one of them is unchanged (the
depfile of make, ccache's direct mode, pytest-testmon).

The recorder is Python's audit hook (PEP 578), so no read can bypass it: every ``open`` of a path
(``open``, ``Path.read_text``, ``io.open_code`` for imports, ``os.open``) and every
``os.listdir``/``os.scandir`` (``iterdir``, ``glob``, ``os.walk``) while a :func:`recording` is
active is logged. A child process is allowed only through a door: :func:`command` (a git call,
whose output is logged and compared again on replay) or :func:`child` (a process whose inputs are
a folder tree, hashed whole, and data the parent read itself). Any other process start, a fork,
``os.system``, a socket connection, or a listing by file descriptor *taints* the log: such a
computation is never replayed. What the hook cannot see is a bare ``stat`` (``Path.exists()``,
``is_dir()``); :func:`snapshot` covers those by the listing of the whole tree under ``root``
(every name, its kind and a symlink's target), so a file appearing or vanishing anywhere under
the repository is a change.

Not inputs: files outside ``root`` the computation wrote, anything under a temporary folder it made, the
installed interpreter and libraries (under ``sys.prefix``; keyed by version in
:func:`evalport_spec.diskcache.code_digest`), the disk cache itself (derived, content-keyed),
``/dev`` and ``/proc``. A snapshot hashes the inputs when the computation ends, and is refused
when one of them changed after it was read (modification time and size, as git's index does).
"""

from __future__ import annotations

import base64
import hashlib
import os
import stat
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC
_TAINTING = {"os.system": "os.system", "os.fork": "a fork", "os.forkpty": "a fork",
             "os.posix_spawn": "os.posix_spawn", "os.spawn": "os.spawn", "os.exec": "os.exec",
             "socket.connect": "a network connection", "sqlite3.connect": "a database"}
_EVENTS = frozenset({"open", "os.listdir", "os.scandir", "os.rmdir", "shutil.rmtree", "tempfile.mkdtemp",
                     "tempfile.mkstemp", "subprocess.Popen", *_TAINTING})
"""The audit events :func:`_hook` acts on; every other one (``builtins.id``, raised by each
``id()`` call, ``copy.deepcopy``'s among them; ``import``, ``exec``, ...) returns at once."""
_TOOL_STATE = frozenset({".git", "__pycache__", ".pytest_cache", ".ruff_cache", ".mypy_cache", ".nox"})
"""Folders left out of the tree listing: git's own store (git facts are logged as commands) and
the caches tools write while they run (bytecode, test and lint caches)."""
MAX_INPUT = 1 << 16
"""Largest standard input of a logged command kept for its replay (bytes); larger taints."""


@dataclass
class InputLog:
    """The inputs of one computation (absolute paths as strings).

    Attributes:
        files: paths opened for reading.
        dirs: folders listed.
        trees: folders a child process reads as a whole, with their digests when it started.
        commands: ``[key, stdin as base64 or None, output digest]`` per :func:`command` call.
        written: paths opened for writing (outputs, not inputs).
        temps: temporary folders made during the computation.
        tainted: why the computation cannot be replayed, or ``None``.
        seen: each read or listed path's modification time (ns) and size when first read
            (``None``: missing), to tell a change during the computation.
    """

    files: set[str] = field(default_factory=set)
    dirs: set[str] = field(default_factory=set)
    trees: dict[str, str] = field(default_factory=dict)
    commands: list[list[Any]] = field(default_factory=list)
    written: set[str] = field(default_factory=set)
    temps: set[str] = field(default_factory=set)
    tainted: str | None = None
    seen: dict[str, tuple[int, int] | None] = field(default_factory=dict)

    def taint(self, why: str) -> None:
        """Mark the computation as not replayable (the first reason is kept)."""
        self.tainted = self.tainted or why


_active: InputLog | None = None
_installed = False
_doors = threading.local()
"""Per thread: ``open``, whether it is inside a door (:func:`command`, :func:`child`) whose
process has not started yet; ``removing``, the temporary folder of the computation that
``shutil.rmtree`` is deleting there (its listings by descriptor and relative opens are not
reads), or ``None``."""


def _path(p: Any) -> str | None:
    if isinstance(p, bytes):
        p = os.fsdecode(p)
    if isinstance(p, os.PathLike):
        p = os.fspath(p)
    return os.path.abspath(p) if isinstance(p, str) else None


def _signature(path: str) -> tuple[int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_mtime_ns, st.st_size


def _see(log: InputLog, path: str) -> None:
    if path not in log.seen:
        log.seen[path] = _signature(path)


def _relative(event: str, args: tuple[Any, ...]) -> bool:
    """Whether the event is a listing by descriptor or an open of a relative name (as
    ``shutil.rmtree`` does under a folder descriptor)."""
    if event == "os.scandir":
        return isinstance(args[0], int)
    return event == "open" and isinstance(args[0], (str, bytes)) and not os.path.isabs(os.fsdecode(args[0]))


def _hook(event: str, args: tuple[Any, ...]) -> None:
    log = _active
    if log is None or event not in _EVENTS:
        return
    removing = getattr(_doors, "removing", None)
    if removing is not None and _relative(event, args):
        return  # shutil.rmtree of a temporary folder of ours, descriptor by descriptor: no reads
    if event == "shutil.rmtree":
        path = _path(args[0])
        if path is not None and (path in log.temps or path.startswith(tuple(os.path.join(t, "") for t in log.temps))):
            _doors.removing = path
    elif event == "os.rmdir" and removing is not None and _path(args[0]) == removing:
        _doors.removing = None
    elif event == "open":
        path = _path(args[0])
        if path is None:  # an already open descriptor: its open was logged
            return
        mode, flags = args[1], args[2] if len(args) > 2 else 0
        writing = (any(c in mode for c in "wax+") if isinstance(mode, str)
                   else bool((flags or 0) & _WRITE_FLAGS))
        if writing:
            log.written.add(path)
        else:
            log.files.add(path)
            _see(log, path)
    elif event in ("os.listdir", "os.scandir"):
        path = _path("." if args[0] is None else args[0])
        if path is None:
            log.taint(f"{event} of a file descriptor")
        else:
            log.dirs.add(path)
            _see(log, path)
    elif event == "tempfile.mkdtemp":
        log.temps.add(os.path.abspath(args[0]))
    elif event == "tempfile.mkstemp":
        log.written.add(os.path.abspath(args[0]))
    elif event == "subprocess.Popen":
        if getattr(_doors, "open", False):
            _doors.open = False
        else:
            log.taint(f"a child process outside the recorder's doors ({args[0]})")
    elif event in _TAINTING:
        log.taint(_TAINTING[event])


@contextmanager
def recording() -> Iterator[InputLog]:
    """Log the inputs of the code run inside the ``with`` block (not nestable: an inner
    recording taints the outer one)."""
    global _active, _installed
    if not _installed:
        sys.addaudithook(_hook)
        _installed = True
    outer, log = _active, InputLog()
    if outer is not None:
        outer.taint("a nested recording")
    _active = log
    try:
        yield log
    finally:
        _active = outer


def note(path: str | os.PathLike[str]) -> None:
    """Log ``path`` as read by the running recording (if any): for a caller that decides by
    ``stat`` alone (a size limit, a modification time standing for large content), which the
    audit hook does not see."""
    log, full = _active, _path(path)
    if log is not None and full is not None:
        log.files.add(full)
        _see(log, full)


@contextmanager
def command(key: list[str] | None, stdin: bytes | None) -> Iterator[Callable[[int, bytes, bytes], None]]:
    """The door for one child process whose answer depends only on ``key`` (a command line its
    caller can run again, see :func:`unchanged`) and ``stdin``. The body starts the process and
    calls the yielded function with its exit code, standard output and standard error; a body
    that raises instead taints the log. ``key`` ``None``: no door (a process that is not a pure
    read; a recording around it is tainted)."""
    log = _active if key is not None else None

    def done(code: int, out: bytes, err: bytes) -> None:
        if log is not None:
            log.commands.append([key, None if stdin is None else base64.b64encode(stdin).decode(),
                                 _output_digest(code, out, err)])

    if log is None:
        yield done
        return
    if stdin is not None and len(stdin) > MAX_INPUT:
        log.taint("a command's standard input too large to keep")
    with _door(log, f"a command that did not finish ({' '.join(key[:3])})"):
        yield done


@contextmanager
def child(tree: str | os.PathLike[str]) -> Iterator[None]:
    """The door for one child process whose inputs are the folder ``tree`` (read whole) and what
    the parent hands it (already logged); a body that raises taints the log."""
    log = _active
    if log is None:
        yield
        return
    path = os.path.abspath(tree)
    log.trees.setdefault(path, _tree(path, contents=True))
    with _door(log, "a child process that did not finish"):
        yield


@contextmanager
def _door(log: InputLog, failed: str) -> Iterator[None]:
    """Let this thread start one process inside the block; a block that raises taints ``log``
    with ``failed``."""
    _doors.open = True
    try:
        yield
    except BaseException:
        log.taint(failed)
        raise
    finally:
        _doors.open = False


def _output_digest(code: int, out: bytes, err: bytes) -> str:
    return hashlib.sha256(f"{code}\0".encode() + out + b"\0" + err).hexdigest()


def _file_digest(path: str) -> str:
    """sha-256 of a regular file's bytes; for anything else its kind (a FIFO or a device is
    never opened: reading one could block)."""
    try:
        mode = os.stat(path).st_mode
        if stat.S_ISDIR(mode):
            return "dir"
        if not stat.S_ISREG(mode):
            return f"special {stat.S_IFMT(mode)}"
        with open(path, "rb") as fh:
            return hashlib.sha256(fh.read()).hexdigest()
    except FileNotFoundError:
        return "missing"
    except OSError as exc:
        return f"error {exc.errno}"


def _listing(path: str) -> str:
    try:
        return hashlib.sha256("\0".join(sorted(os.listdir(path))).encode()).hexdigest()
    except FileNotFoundError:
        return "missing"
    except OSError as exc:
        return f"error {exc.errno}"


def _tree(path: str, *, contents: bool) -> str:
    """Digest of every entry under ``path`` (relative name, kind, a symlink's target, and with
    ``contents`` each file's bytes); tool-state folders and virtual environments left out."""
    h = hashlib.sha256()
    for top, dirs, files in os.walk(path):
        dirs[:] = sorted(d for d in dirs if d not in _TOOL_STATE and not _virtual_environment(top, d))
        rel = os.path.relpath(top, path)
        for name in sorted(dirs) + sorted(files):
            full = os.path.join(top, name)
            h.update(f"{rel}/{name}\0".encode())
            if os.path.islink(full):
                h.update(b"L" + os.fsencode(os.readlink(full)) + b"\0")
            elif name in files:
                h.update(b"F" + (_file_digest(full).encode() if contents else b"") + b"\0")
    return h.hexdigest()


def _virtual_environment(top: str, name: str) -> bool:
    """Whether folder ``name`` in ``top`` is a Python virtual environment (it holds
    ``pyvenv.cfg``, PEP 405), such as the ``.venv`` the README's quick start makes in the
    repository: installed packages, not spec inputs (the running interpreter's own prefix is
    never an input, :func:`_inputs`; the disk cache's code digest names every installed
    distribution). Listing its tens of thousands of files took 0.7 s of every gate run."""
    return os.path.isfile(os.path.join(top, name, "pyvenv.cfg"))


def _inputs(log: InputLog, root: str, excluded: list[str], kept: list[str]) -> Callable[[str], bool]:
    under = lambda folders: tuple(os.path.join(os.path.abspath(p), "") for p in folders)  # noqa: E731
    out = under([*log.temps, *excluded, "/dev", "/proc", sys.prefix, sys.base_prefix, sys.exec_prefix])
    inside, tree = under(kept), under([root])

    def keep(path: str) -> bool:
        if path in log.temps or (path in log.written and not path.startswith(tree)):
            return False  # an output of the computation (a file under root stays an input)
        return path.startswith(inside) or not path.startswith(out)
    return keep


def snapshot(log: InputLog, root: str | os.PathLike[str], *, excluded: list[str],
             kept: list[str]) -> dict[str, Any] | None:
    """The inputs of ``log`` with their digests now, as JSON: ``files``/``dirs``/``trees`` map
    a path to a digest, ``listing`` is the tree under ``root`` (names only, for existence
    checks), ``commands`` as logged. Paths under ``excluded`` folders (derived data such as the
    disk cache) are left out with the rest named in the module docstring, except those under
    ``kept`` (the toolchain's own package, data files included, wherever it is installed).

    ``None`` when an input changed while the computation ran (its modification time or size
    now is not what it was when first read, or a tree's digest is not the one its child
    process started with): its digest now may not be what was read. A rewrite within one tick
    of the file system's timestamps that keeps the size is not seen."""
    keep = _inputs(log, os.path.abspath(root), excluded, kept)
    files, dirs, trees = (sorted(filter(keep, s)) for s in (log.files, log.dirs, log.trees))
    if any(_signature(p) != log.seen.get(p) for p in files + dirs):
        return None
    now = {p: _tree(p, contents=True) for p in trees}
    if any(now[p] != log.trees[p] for p in trees):
        return None
    return {"files": {p: _file_digest(p) for p in files}, "dirs": {p: _listing(p) for p in dirs},
            "trees": now, "root": os.path.abspath(root),
            "listing": _tree(os.path.abspath(root), contents=False), "commands": log.commands}


def unchanged(snap: dict[str, Any], rerun: Callable[[list[str], bytes | None], tuple[int, bytes, bytes]]) -> bool:
    """Whether every input of the :func:`snapshot` ``snap`` still has its digest; each logged
    command is run again with ``rerun(key, stdin) -> (exit code, stdout, stderr)``. Cheapest
    checks first; the first difference answers ``False``."""
    try:
        if _tree(snap["root"], contents=False) != snap["listing"]:
            return False
        if any(_file_digest(p) != d for p, d in snap["files"].items()):
            return False
        if any(_listing(p) != d for p, d in snap["dirs"].items()):
            return False
        if any(_tree(p, contents=True) != d for p, d in snap["trees"].items()):
            return False
        for key, stdin, digest in snap["commands"]:
            if _output_digest(*rerun(key, None if stdin is None else base64.b64decode(stdin))) != digest:
                return False
    except (KeyError, TypeError, ValueError):
        return False
    return True


__all__ = ["InputLog", "child", "command", "note", "recording", "snapshot", "unchanged"]
