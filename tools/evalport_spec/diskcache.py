"""Results kept on disk between runs, keyed by content: a rerun on unchanged inputs is a file
read.

Each cached result is a pure function of the inputs its caller puts in the key and of the code
that computes it, so the file name is a digest of both: the caller's key (a digest of every
input: two versions' bytes and options for a classification, :mod:`evalport_spec.compat.versions`;
the seed files and catalogues for a rule corpus and a rule program's digest with today's date
for its run, :mod:`evalport_spec.gate.rulecorpus`,
:mod:`evalport_spec.gate.runcache`) and :func:`code_digest` (every file of
the package, data included, and every installed library's version), so an edited file or an upgraded library never
reads an old answer. Files live in ``$EVALPORT_CACHE_DIR`` or else the user's cache directory
(``$XDG_CACHE_HOME/evalport-spec/cache``, ``~/.cache/...``; ``%LOCALAPPDATA%`` on Windows); each
is one JSON file written atomically. The folder is safe to delete at any time, and an unreadable
or foreign file is a miss, never an error. ``EVALPORT_CACHE_DIR=off`` disables it. The gate of
record runs with a fresh folder (docs/how-to/gate-in-ci.md), so it never reads an answer a
branch's code wrote.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .environ import setting

if TYPE_CHECKING:
    from .findings import Finding

FORMAT = 1
"""Version of the file layout; part of the key."""


def cache_dir() -> Path | None:
    """The folder holding cached results, or ``None`` when caching is off."""
    env = os.environ.get("EVALPORT_CACHE_DIR")
    if env:
        return None if env == "off" else Path(env)
    if os.name == "nt" and os.environ.get("LOCALAPPDATA"):
        base = Path(os.environ["LOCALAPPDATA"])
    else:
        base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "evalport-spec" / "cache"


@contextmanager
def switched_off(off: bool = True) -> Iterator[None]:
    """Within the block, when ``off``, caching is off for this process and the processes it
    starts (``EVALPORT_CACHE_DIR=off``, what ``--no-cache`` means); on leaving, the variable is
    what it was, so one ``--no-cache`` run inside a longer-lived process (a test run, a caller of
    :func:`evalport_spec.cli.main`) does not turn the cache off for everything after it."""
    if not off:
        yield
        return
    with setting("EVALPORT_CACHE_DIR", "off"):
        yield


@cache
def code_digest() -> str:
    """sha-256 over every file of the package (path and bytes: the code and its bundled data),
    the interpreter's version (rule programs run under it) and the name and version of every
    installed distribution (the ``NAME-VERSION.dist-info`` folders on ``sys.path``: the
    validators, the dialect meta-schemas of jsonschema-specifications, the format checkers and
    every other library an answer may depend on). Listing those folders, rather than asking
    ``importlib.metadata``, keeps a cache hit from importing it."""
    h = hashlib.sha256(f"format {FORMAT}\0{sys.version}".encode())
    for rel, path in _package_files(os.path.dirname(os.path.realpath(__file__))):
        h.update(rel.encode() + b"\0" + _read(path) + b"\0")
    dists = set()
    for entry in sys.path:
        try:
            dists.update(n for n in os.listdir(entry or ".") if n.endswith((".dist-info", ".egg-info")))
        except OSError:
            continue
    h.update("\0".join(sorted(dists)).encode())
    return h.hexdigest()


def _read(path: str) -> bytes:
    """The bytes of the file ``path``, read with one ``os.read`` past its size (the file object
    layer costs more than the read for the package's 230 small files); ``OSError`` as ``open``."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_BINARY", 0))
    try:
        parts = [os.read(fd, os.fstat(fd).st_size + 1)]
        while parts[-1]:  # (a file that grew since the fstat)
            parts.append(os.read(fd, 1 << 16))
    finally:
        os.close(fd)
    return b"".join(parts)


def _package_files(root: str) -> list[tuple[str, str]]:
    """``(path relative to root, path)`` of every file under the folder ``root`` (symbolic links
    to files included, linked folders and ``__pycache__`` folders not entered, an unreadable
    folder skipped as ``os.walk`` skips it), in the order :class:`pathlib.PurePosixPath` sorts
    them (by the list of their parts). ``os.scandir``, whose entries know their type without a
    ``stat`` (but for links), not ``Path.rglob``: listing the package is a measurable part of a
    short diff's start-up."""
    out: list[tuple[tuple[str, ...], str]] = []
    folders: list[tuple[str, tuple[str, ...]]] = [(root, ())]
    while folders:
        folder, parts = folders.pop()
        try:
            with os.scandir(folder) as entries:
                for e in entries:
                    if e.is_dir(follow_symlinks=False):
                        if e.name != "__pycache__":
                            folders.append((e.path, (*parts, e.name)))
                    elif e.is_file():
                        out.append(((*parts, e.name), e.path))
        except OSError:
            continue
    out.sort()
    return [("/".join(rel), path) for rel, path in out]


def _path(key: str) -> Path | None:
    folder = cache_dir()
    if folder is None:
        return None
    return folder / f"{hashlib.sha256((key + code_digest()).encode()).hexdigest()}.json"


def load(key: str) -> dict[str, Any] | None:
    """The JSON object stored under ``key`` by :func:`store`, or ``None`` (no file, caching off,
    or a file that does not read back)."""
    path = _path(key)
    if path is None:
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) and data.get("format") == FORMAT else None


def store(key: str, data: dict[str, Any]) -> None:
    """Write ``data`` (JSON) under ``key`` atomically; a folder that cannot be written is
    ignored (the cache only saves time). The temporary file is made as ``tempfile.mkstemp``
    makes one (a new name, created exclusively, mode 0600) without importing it: with
    ``shutil`` it is about 2 ms of a short command's start-up (issue 16); a name taken already
    is one more reason not to store."""
    path = _path(key)
    if path is None:
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        text = json.dumps({**data, "format": FORMAT}, ensure_ascii=False)  # json.dump to a file
        name = path.parent / f".tmp-{os.getpid()}-{os.urandom(8).hex()}.json"  # is pure Python
        fd = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o600)
        tmp = name  # (only a file made here is removed below)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except (OSError, TypeError, ValueError):
        try:
            os.unlink(tmp)  # type: ignore[possibly-undefined]
        except (OSError, NameError):
            pass


def finding_from_json(d: dict[str, Any]) -> Finding:
    """The :class:`Finding` that :meth:`Finding.to_json` wrote as ``d`` (the fingerprint is
    recomputed from the fields)."""
    from .findings import NO_ITEM, ChangeClass, Finding, Location, Severity

    def loc(x: Any) -> Location | None:
        return Location(**x) if isinstance(x, dict) else None

    return Finding(kind=d["kind"], message=d["message"],
                   change_class=ChangeClass[d.get("change_class", "NONE")],
                   severity=Severity[d.get("severity", "error").upper()],
                   old=loc(d.get("old")), new=loc(d.get("new")), witness=d.get("witness"),
                   code=d.get("code"), undecided=bool(d.get("undecided", False)),
                   direction=d.get("direction", "backward"), item=d["item"] if "item" in d else NO_ITEM,
                   extra=dict(d.get("extra") or {}))
