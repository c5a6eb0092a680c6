"""Reading and writing files safely: bounded reads, atomic replacement, a repository lock.

Every input the tools read goes through one bounded reader: files through :func:`read_limited`
(regular files only, opened non-blocking, bytes counted against the limit whatever ``st_size``
says), standard input through :func:`read_stream`, a child process's output through
:func:`run_bounded`. Every file the tools write goes through :func:`atomic_write` (one file) or
:mod:`evalport_spec.journal` (several files at once), so a crash or a concurrent reader never
sees half a file, and commands that write take :func:`repo_lock` so two of them running at once
do not interleave.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import select
import signal
import stat
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO

from .errors import InputError, OutputTooLarge

if TYPE_CHECKING:
    import subprocess


def resolve(path: str | os.PathLike[str], label: str | None = None) -> Path:
    """``path`` made absolute with every symlink followed (:meth:`pathlib.Path.resolve`).

    Raises:
        InputError: a symlink loop on the way (Python raises ``RuntimeError`` or ``OSError``
            for one, depending on the version), naming ``label`` or the path.
    """
    try:
        return Path(path).resolve()
    except (RuntimeError, OSError):
        raise InputError(_os_reason(OSError(errno.ELOOP, "loop")), label or str(path)) from None


def check_within(path: str | os.PathLike[str], root: str | os.PathLike[str],
                 label: str | None = None) -> Path:
    """Return ``path`` resolved (symlinks followed), refusing one that ends outside ``root``.

    A repository file that is a symlink to ``/etc/passwd`` or to a folder outside the checkout
    must not be read (nor published) as if it were part of the spec.

    Raises:
        InputError: the resolved path is not ``root`` itself or inside it (message names
            ``label`` and the target), or a symlink loop.
    """
    target = resolve(path, label)
    base = resolve(root)
    if target != base and not target.is_relative_to(base):
        raise InputError(f"refusing a symlink that leaves the repository (it points to {target})",
                         label or str(path))
    return target


def escaping_symlinks(root: str | os.PathLike[str], folders: tuple[str, ...] = ("spec", "rfcs")
                      ) -> list[tuple[str, Path]]:
    """Every symlink under ``root/<folder>`` whose target resolves outside ``root``, as
    ``(path relative to root, resolved target)`` pairs, sorted. Links are not followed into
    (``os.walk`` with ``followlinks=False``), so a link loop cannot hang the walk.

    Raises:
        InputError: a symlink loop (it can be neither read nor published).
    """
    base = resolve(root)
    out: list[tuple[str, Path]] = []
    for folder in folders:
        top = base / folder
        try:
            link, folder_there = top.is_symlink(), top.is_dir()
        except OSError:  # a name longer than the system allows (ENAMETOOLONG): nothing is there
            continue
        if link or not folder_there:
            candidates = [top] if link else []
        else:
            candidates = []
            for dirpath, dirnames, filenames in os.walk(top, followlinks=False):
                for name in (*dirnames, *filenames):
                    p = Path(dirpath) / name
                    if p.is_symlink():
                        candidates.append(p)
        for p in candidates:
            target = resolve(p, str(p.relative_to(base)))
            if not target.is_relative_to(base):
                out.append((str(p.relative_to(base)), target))
    return sorted(out)


def refuse_escaping_symlinks(root: str | os.PathLike[str],
                             folders: tuple[str, ...] = ("spec", "rfcs")) -> None:
    """Raise :class:`InputError` naming the first symlink under ``root/<folder>`` (default
    ``spec/`` and ``rfcs/``) of the repository ``root`` that leaves the repository (see
    :func:`escaping_symlinks`)."""
    bad = escaping_symlinks(root, folders)
    if bad:
        rel, target = bad[0]
        raise InputError(f"refusing a symlink that leaves the repository (it points to {target})", rel)


def file_kind(mode: int) -> str | None:
    """What a ``stat`` mode is when it is not a regular file (``"a FIFO (named pipe)"``,
    ``"a character device"``, ``"a block device"``, ``"a socket"``, ``"a directory"``), or
    ``None`` for a regular file."""
    for test, name in ((stat.S_ISREG, None), (stat.S_ISDIR, "a directory"),
                       (stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISCHR, "a character device"),
                       (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return name
    return "not a regular file"


def refuse_trailing_slash(path: str | os.PathLike[str], source: str | None = None) -> None:
    """Refuse a path written with a trailing ``/`` that is no directory (``s.json/``): POSIX
    resolves such a path only to a directory (open(2) fails with ENOTDIR), but
    :class:`pathlib.Path` drops the slash, so ``Path("s.json/")`` would read ``s.json``. Checked
    on the text as given, before anything turns it into a ``Path``. A folder written with a
    trailing ``/`` is fine; so is a path with nothing there (its reader says so).

    Raises:
        InputError: ``not a directory: the path ends in '/', which names a folder``, naming
            ``source`` (default: the path as written).
    """
    text = os.fspath(path)
    if isinstance(text, str) and len(text) > 1 and text.endswith(("/", os.sep)) \
            and os.path.lexists(text.rstrip("/" + os.sep)) and not os.path.isdir(text):
        raise InputError("not a directory: the path ends in '/', which names a folder", source or text)


def _refuse_kind(mode: int, source: str) -> None:
    kind = file_kind(mode)
    if kind == "a directory":
        raise InputError("is a directory, expected a file", source)
    if kind is not None:
        raise InputError(f"is {kind}, not a regular file; refusing to read it", source)


def _read_counted(read: Callable[[int], bytes], limit: int, source: str, what: str,
                  hint: int = 0) -> bytes:
    """Call ``read(n)`` until it returns ``b""``, refusing once more than ``limit`` bytes came.

    ``hint`` (a size the source claims, e.g. ``st_size``) sizes the first read, so a regular
    file is usually read in one call with no copy; the count, not the hint, decides.

    Raises:
        InputError: more than ``limit`` bytes (``what`` says what was read).
    """
    parts: list[bytes] = []
    total = 0
    want = min(limit + 1, max(hint + 1, 1 << 16))
    while True:
        chunk = read(want)
        if not chunk:
            break
        parts.append(chunk)
        total += len(chunk)
        if total > limit:
            raise InputError(f"{what} is larger than the {limit}-byte limit; stopped reading", source)
        want = min(limit + 1 - total, 1 << 20)
    return parts[0] if len(parts) == 1 else b"".join(parts)


def _os_read(fd: int) -> Callable[[int], bytes]:
    def read(n: int) -> bytes:
        while True:
            try:
                return os.read(fd, n)
            except InterruptedError:  # pragma: no cover - retried by Python itself since PEP 475
                continue
            except BlockingIOError:  # a non-blocking descriptor with nothing yet: wait for it
                select.select([fd], [], [])
    return read


def read_limited(path: str | os.PathLike[str], *, max_bytes: int, label: str | None = None,
                 within: str | os.PathLike[str] | None = None) -> bytes:
    """Read a whole regular file, never more than ``max_bytes`` bytes: the one file reader.

    Before opening, the path (symlinks followed) must be a regular file: a FIFO, a device
    (``/dev/zero``), a socket or a directory is refused, since ``st_size`` says nothing about
    how much they yield and opening a FIFO blocks. The file is opened non-blocking (a FIFO
    swapped in after the check cannot block the open) and checked again on the open
    descriptor; its bytes are counted as they are read, so a file that grows past the limit
    is refused too, whatever ``st_size`` said.

    ``within``: when given, the file must resolve inside that folder (:func:`check_within`).

    Raises:
        InputError: missing, not a regular file, a symlink loop, unreadable, larger than
            ``max_bytes``, outside ``within``, or written with a trailing ``/``
            (:func:`refuse_trailing_slash`; message names ``label``).
    """
    source = label or os.fspath(path)
    refuse_trailing_slash(path, source)
    p = Path(path)
    if within is not None:
        check_within(p, within, source)
    try:
        st = os.stat(p)
    except FileNotFoundError:
        raise InputError("no such file", source) from None
    except OSError as exc:
        raise InputError(_os_reason(exc), source) from None
    _refuse_kind(st.st_mode, source)
    if st.st_size > max_bytes:
        raise InputError(f"file is {st.st_size} bytes, larger than the {max_bytes}-byte limit", source)
    try:
        fd = os.open(p, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    except OSError as exc:
        raise InputError(_os_reason(exc), source) from None
    try:
        st = os.fstat(fd)
        _refuse_kind(st.st_mode, source)
        return _read_counted(_os_read(fd), max_bytes, source, "file", st.st_size)
    except OSError as exc:
        raise InputError(_os_reason(exc), source) from None
    finally:
        os.close(fd)


def read_optional(path: str | os.PathLike[str], *, max_bytes: int, label: str | None = None,
                  within: str | os.PathLike[str] | None = None) -> bytes | None:
    """:func:`read_limited`, or ``None`` when nothing at all is at ``path`` (an optional file
    such as ``rules.json``). Anything that is there but not a readable regular file (a FIFO, a
    directory, a dangling symlink) is refused, never skipped.

    Raises:
        InputError: as :func:`read_limited`.
    """
    if not os.path.lexists(path):
        return None
    return read_limited(path, max_bytes=max_bytes, label=label, within=within)


def read_stream(stream: BinaryIO, *, max_bytes: int, label: str) -> bytes:
    """Read a binary stream (standard input) to its end, never more than ``max_bytes`` bytes.

    Standard input may be a pipe, a terminal or a device: it is read as given (the user chose
    it), but its bytes are counted as they arrive, so ``yes | evalport-spec validate -`` stops
    at the limit instead of exhausting memory.

    Raises:
        InputError: more than ``max_bytes`` bytes, or a read error (message names ``label``).
    """
    try:
        fd = stream.fileno()
    except (AttributeError, OSError, ValueError):
        return _read_counted(stream.read, max_bytes, label, "input")
    try:
        st = os.fstat(fd)
        hint = st.st_size if stat.S_ISREG(st.st_mode) else 0
        return _read_counted(_os_read(fd), max_bytes, label, "input", hint)
    except OSError as exc:
        raise InputError(_os_reason(exc), label) from None


def _os_reason(exc: OSError) -> str:
    if exc.errno == errno.ELOOP:
        return "symlink loop (a symbolic link that points back to itself)"
    return f"cannot read: {exc.strerror or exc}"


def run_bounded(argv: Sequence[str], *, input: bytes | None = None, timeout: float | None = None,
                max_bytes: int, env: Mapping[str, str] | None = None,
                cwd: str | os.PathLike[str] | None = None, label: str | None = None,
                own_group: bool = False, started: Callable[[subprocess.Popen[bytes]], None] | None = None
                ) -> subprocess.CompletedProcess[bytes]:
    """Run ``argv`` and capture its output, never more than ``max_bytes`` bytes of it.

    ``input`` is written to the child's standard input (standard input is ``/dev/null`` when
    ``None``); standard output and standard error are read as they come and their bytes counted
    together. A child that writes more (``conformance --command yes``) or outlives ``timeout``
    seconds is killed.

    With ``own_group`` the child runs in a session (and process group) of its own, and whatever
    is left in that group when the call returns or raises (a time-out, Ctrl-C's
    :class:`KeyboardInterrupt`, SIGTERM's :class:`~evalport_spec.sigterm.Terminated` under
    :func:`~evalport_spec.sigterm.sigterm_raises`) is killed with ``SIGKILL``: the processes the
    child started (``sh -c 'validator; ...'``) included, so a program the user named leaves
    nothing running (except what it moved out of the group itself, with ``setsid``).
    (Off by default: a ``git`` that may prompt for credentials keeps the terminal.)

    ``started`` is called with the child as soon as it runs: another thread that must stop it
    (Ctrl-C reaches the main thread only) keeps it to kill its group.

    Returns:
        a :class:`subprocess.CompletedProcess` with ``stdout`` and ``stderr`` as bytes.

    Raises:
        OutputTooLarge: the output exceeded ``max_bytes`` (an :class:`InputError`; the message
            names ``label`` or the program).
        subprocess.TimeoutExpired: the child ran longer than ``timeout`` (it was killed).
        OSError: the program cannot be started (callers word that for their command).
    """
    import selectors  # (here: reading a file, what most commands do first, needs neither)
    import subprocess

    shown = label or argv[0]
    proc = subprocess.Popen(list(argv), stdin=subprocess.DEVNULL if input is None else subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=cwd,
                            start_new_session=own_group)
    deadline = None if timeout is None else time.monotonic() + timeout
    out_fd, err_fd = proc.stdout.fileno(), proc.stderr.fileno()
    outputs: dict[int, list[bytes]] = {out_fd: [], err_fd: []}
    total = 0
    pending = memoryview(input or b"")
    try:
        if started is not None:
            started(proc)
        with selectors.DefaultSelector() as sel:
            for fh in (proc.stdout, proc.stderr):
                sel.register(fh, selectors.EVENT_READ)
            if input is not None:
                if pending:
                    sel.register(proc.stdin, selectors.EVENT_WRITE)
                else:
                    proc.stdin.close()
            while sel.get_map():
                left = None if deadline is None else deadline - time.monotonic()
                if left is not None and left <= 0:
                    raise subprocess.TimeoutExpired(list(argv), timeout)
                for key, _ in sel.select(left):
                    if key.fileobj is proc.stdin:
                        try:
                            pending = pending[os.write(key.fd, pending[:select.PIPE_BUF]):]
                        except BrokenPipeError:
                            pending = pending[:0]
                        if not pending:
                            sel.unregister(proc.stdin)
                            proc.stdin.close()
                        continue
                    chunk = os.read(key.fd, 1 << 16)
                    if not chunk:
                        sel.unregister(key.fileobj)
                        continue
                    total += len(chunk)
                    if total > max_bytes:
                        raise OutputTooLarge(f"output of {shown} is larger than the {max_bytes}-byte "
                                         "limit; stopped it")
                    outputs[key.fd].append(chunk)
        left = None if deadline is None else max(deadline - time.monotonic(), 0)
        try:
            proc.wait(left)
        except subprocess.TimeoutExpired:
            raise subprocess.TimeoutExpired(list(argv), timeout) from None
    finally:
        if own_group:
            # the group outlives its leader while a member lives, so its id cannot be reused yet
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(proc.pid, signal.SIGKILL)
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for fh in (proc.stdin, proc.stdout, proc.stderr):
            if fh is not None:
                fh.close()
    return subprocess.CompletedProcess(list(argv), proc.returncode, b"".join(outputs[out_fd]),
                                       b"".join(outputs[err_fd]))


def open_regular(path: str | os.PathLike[str], label: str | None = None) -> int:
    """Open a regular file to read it in pieces (streaming); returns its descriptor, which the
    caller closes. As :func:`read_limited`: a directory, FIFO, device or socket is refused, on
    the open descriptor too (opened non-blocking, so a FIFO swapped in cannot block).

    Raises:
        InputError: missing, not a regular file, a symlink loop, or unreadable (message names
            ``label``).
    """
    source = label or str(path)
    try:
        _refuse_kind(os.stat(path).st_mode, source)
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    except FileNotFoundError:
        raise InputError("no such file", source) from None
    except OSError as exc:
        raise InputError(_os_reason(exc), source) from None
    try:
        _refuse_kind(os.fstat(fd).st_mode, source)
    except BaseException:
        os.close(fd)
        raise
    return fd


def atomic_write(path: str | os.PathLike[str], data: str | bytes, *, exclusive: bool = False) -> None:
    """Write ``data`` to ``path`` atomically (temporary file in the same folder, fsync, rename).

    Args:
        path: destination; parent folders are created.
        data: text (written as UTF-8) or bytes.
        exclusive: refuse to replace an existing file (used by ``rfc new``).

    Raises:
        InputError: ``exclusive`` and the file exists, the folder is not writable, or writing
            fails (no space left on the device, a quota): ``path`` is then as it was and no
            temporary file is left.
    """
    import tempfile  # (with shutil: a command that writes nothing never loads them)

    p = Path(path)
    if isinstance(data, str):
        data = data.encode("utf-8")
    try:
        p.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".tmp", dir=p.parent)
    except OSError as exc:
        raise InputError(f"cannot write: {exc.strerror}", str(p)) from None
    try:
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
                fh.flush()
                os.fsync(fh.fileno())
            if exclusive:
                try:
                    os.link(tmp, p)  # fails if p exists: no check-then-act race
                except FileExistsError:
                    raise InputError("already exists; not overwriting", str(p)) from None
                os.unlink(tmp)
            else:
                os.replace(tmp, p)
        except OSError as exc:  # a full disk or a quota: the file it was writing, not a bare strerror
            raise InputError(f"cannot write: {exc.strerror or exc}", str(p)) from None
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


_HELD: dict[tuple[Path, int], int] = {}
"""``(lock file, thread id)`` pairs this process holds, with how many nested :func:`repo_lock`
blocks of that thread hold each."""


def lock_folder(root: Path) -> Path:
    """Where :func:`repo_lock` keeps its lock file for the checkout at ``root``: its git folder,
    ``root/.git`` when that is a folder, or the folder a ``.git`` file names (``gitdir: PATH``,
    relative to ``root`` or absolute: a linked worktree made by ``git worktree add``, or a
    submodule), so the lock never lands among the checkout's files, where ``git status`` shows
    it and ``git add -A`` commits it; ``root`` itself when there is no git folder (not a
    repository, or a ``.git`` file that names none)."""
    dot_git = root / ".git"
    if dot_git.is_dir():
        return dot_git
    text = ""
    if dot_git.is_file():
        try:
            with open(dot_git, "rb") as fh:  # one line: "gitdir: PATH"
                text = fh.read(4096).decode("utf-8", "replace")
        except OSError:
            pass
    first = text.splitlines()[0] if text else ""
    if first.startswith("gitdir:"):
        named = Path(first[len("gitdir:"):].strip())
        folder = named if named.is_absolute() else root / named
        if folder.is_dir():
            return folder
    return root


@contextlib.contextmanager
def repo_lock(root: str | os.PathLike[str], what: str = "evalport-spec") -> Iterator[None]:
    """Hold an exclusive, non-blocking lock on ``evalport-spec.lock`` in the repository's git
    folder (:func:`lock_folder`; ``<root>`` itself outside git) for the duration of the block.

    Re-entrant within one thread: a block nested in another on the same repository (a
    :mod:`~evalport_spec.journal` transaction inside ``release``) shares the lock; another
    thread or process is refused.

    Raises:
        InputError: another command holds the lock (the message says which file), or the lock
            file cannot be created (a read-only repository: nothing can be written there).
    """
    import threading  # (here: a command that writes nothing never loads it, issue 16)

    lock_path = (lock_folder(Path(root)) / "evalport-spec.lock").absolute()
    key = (lock_path, threading.get_ident())
    if key in _HELD:
        _HELD[key] += 1
        try:
            yield
        finally:
            _HELD[key] -= 1
        return
    try:
        fd = os.open(lock_path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    except OSError as exc:
        raise InputError(f"cannot {what} here: cannot create the repository lock "
                         f"({exc.strerror or exc})", str(lock_path)) from None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            if exc.errno in (errno.EAGAIN, errno.EACCES, errno.EWOULDBLOCK):
                raise InputError(f"another {what} command is writing this repository; "
                                 "try again when it has finished", str(lock_path)) from None
            raise
        _HELD[key] = 1
        try:
            yield
        finally:
            del _HELD[key]
            # released explicitly, not by the close below: a process another thread forks
            # meanwhile holds a copy of the descriptor until it execs, and the lock with it
            # (the canary plants RFCs in several clones while gate runs start)
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)
