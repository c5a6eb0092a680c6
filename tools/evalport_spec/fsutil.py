"""Writing files safely: atomic replacement and a repository lock.

Every file the tools write (generated pages, indexes, releases, manifests, RFCs) goes through
:func:`atomic_write` so a crash or a concurrent reader never sees half a file, and commands that
write take :func:`repo_lock` so two of them running at once do not interleave.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

from .errors import InputError


def check_within(path: str | os.PathLike[str], root: str | os.PathLike[str],
                 label: str | None = None) -> Path:
    """Return ``path`` resolved (symlinks followed), refusing one that ends outside ``root``.

    A repository file that is a symlink to ``/etc/passwd`` or to a folder outside the checkout
    must not be read (nor published) as if it were part of the spec.

    Raises:
        InputError: the resolved path is not ``root`` itself or inside it (message names
            ``label`` and the target).
    """
    target = Path(path).resolve()
    base = Path(root).resolve()
    if target != base and not target.is_relative_to(base):
        raise InputError(f"refusing a symlink that leaves the repository (it points to {target})",
                         label or str(path))
    return target


def escaping_symlinks(root: str | os.PathLike[str], folders: tuple[str, ...] = ("spec", "rfcs")
                      ) -> list[tuple[str, Path]]:
    """Every symlink under ``root/<folder>`` whose target resolves outside ``root``, as
    ``(path relative to root, resolved target)`` pairs, sorted. Links are not followed into
    (``os.walk`` with ``followlinks=False``), so a link loop cannot hang the walk."""
    base = Path(root).resolve()
    out: list[tuple[str, Path]] = []
    for folder in folders:
        top = base / folder
        if top.is_symlink() or not top.is_dir():
            candidates = [top] if top.is_symlink() else []
        else:
            candidates = []
            for dirpath, dirnames, filenames in os.walk(top, followlinks=False):
                for name in (*dirnames, *filenames):
                    p = Path(dirpath) / name
                    if p.is_symlink():
                        candidates.append(p)
        for p in candidates:
            target = p.resolve()
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


def read_limited(path: str | os.PathLike[str], *, max_bytes: int, label: str | None = None,
                 within: str | os.PathLike[str] | None = None) -> bytes:
    """Read a whole regular file, refusing it before reading when it is larger than ``max_bytes``.

    ``within``: when given, the file must resolve inside that folder (:func:`check_within`).

    Raises:
        InputError: missing, a directory, unreadable, too large, or outside ``within``
            (message names ``label``).
    """
    p = Path(path)
    source = label or str(path)
    if within is not None:
        check_within(p, within, source)
    try:
        size = p.stat().st_size
    except FileNotFoundError:
        raise InputError("no such file", source) from None
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror}", source) from None
    if p.is_dir():
        raise InputError("is a directory, expected a file", source)
    if size > max_bytes:
        raise InputError(f"file is {size} bytes, larger than the {max_bytes}-byte limit", source)
    try:
        return p.read_bytes()
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror}", source) from None


def atomic_write(path: str | os.PathLike[str], data: str | bytes, *, exclusive: bool = False) -> None:
    """Write ``data`` to ``path`` atomically (temporary file in the same folder, fsync, rename).

    Args:
        path: destination; parent folders are created.
        data: text (written as UTF-8) or bytes.
        exclusive: refuse to replace an existing file (used by ``rfc new``).

    Raises:
        InputError: ``exclusive`` and the file exists, or the folder is not writable.
    """
    p = Path(path)
    if isinstance(data, str):
        data = data.encode("utf-8")
    try:
        p.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".tmp", dir=p.parent)
    except OSError as exc:
        raise InputError(f"cannot write: {exc.strerror}", str(p)) from None
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
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


@contextlib.contextmanager
def repo_lock(root: str | os.PathLike[str], what: str = "evalport-spec") -> Iterator[None]:
    """Hold an exclusive, non-blocking lock on ``<root>/.git/evalport-spec.lock`` (or
    ``<root>/.evalport-spec.lock`` outside git) for the duration of the block.

    Raises:
        InputError: another command holds the lock (the message says which file).
    """
    root = Path(root)
    lock_dir = root / ".git" if (root / ".git").is_dir() else root
    lock_path = lock_dir / "evalport-spec.lock"
    fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            if exc.errno in (errno.EAGAIN, errno.EACCES, errno.EWOULDBLOCK):
                raise InputError(f"another {what} command is writing this repository; "
                                 "try again when it has finished", str(lock_path)) from None
            raise
        yield
    finally:
        os.close(fd)
