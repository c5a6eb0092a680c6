"""Which local files ``diff OLD NEW`` reads for an argument that names a file or a folder.

The rest of an argument's resolution (a version, ``draft``, ``REF:PATH``, the parsing) is
:mod:`evalport_spec.compat.inputs`. The selection lives here, in a leaf module, so that the diff
result cache (:mod:`evalport_spec.diffcache`) keys on exactly the files the resolution reads
without importing the engine.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from .fsutil import refuse_trailing_slash

SIBLING_MAX_BYTES = 8 << 20
"""Largest sibling file (8 MiB) read as possible context of a single schema file: schemas are
kilobytes; a bigger ``.json`` beside it is data, never read for a diff."""


def local_kind(arg: str) -> str | None:
    """What the local path ``arg`` is to ``diff``: ``"file"`` (anything that is not a folder,
    a FIFO or a dangling link included: reading refuses those), ``"version"`` (a folder holding
    ``schemas/``: a spec version), ``"folder"`` (a folder of schemas), or ``None`` (nothing
    there: a version name, ``draft`` or ``REF:PATH``).

    Raises:
        InputError: ``arg`` ends in ``/`` and is no folder (``s.json/``:
            :func:`~evalport_spec.fsutil.refuse_trailing_slash`).
    """
    refuse_trailing_slash(arg)
    p = Path(arg)
    try:
        if p.is_file() or (os.path.lexists(p) and not p.is_dir()):
            return "file"
        if p.is_dir():
            return "version" if (p / "schemas").is_dir() else "folder"
    except OSError:  # a name longer than the system allows (ENAMETOOLONG): no file is called so
        return None
    return None


def sibling_files(path: Path) -> list[Path]:
    """The files beside the schema file ``path`` that may be read as its context, by name:
    each regular ``*.json`` of its folder that is not a symbolic link and holds at most
    :data:`SIBLING_MAX_BYTES` (``path`` itself among them when it is one)."""
    return sorted(x for x in path.parent.iterdir() if x.suffix == ".json" and x.is_file()
                  and not x.is_symlink() and x.stat().st_size <= SIBLING_MAX_BYTES)


def folder_files(folder: Path) -> list[Path]:
    """The schemas of a folder argument (one that is not a spec version), by name: each
    ``*.json`` in it that is a file (a symbolic link to a file included)."""
    return sorted(x for x in folder.iterdir() if x.is_file() and x.suffix == ".json")


def same_local_file(a: str, b: str) -> bool:
    """Whether the ``diff`` arguments ``a`` and ``b`` name regular schema files of one name whose
    bytes and siblings' names and bytes (:func:`sibling_files`, every file the resolution may read
    as context) are the same: the two sides are then one input. ``False`` when anything cannot
    be read. Sizes are compared before any byte is read (a huge file beside a small one is
    never read here); callers read ``a`` through their bounded loader first."""
    if a.startswith("-") or b.startswith("-") or local_kind(a) != "file" or local_kind(b) != "file":
        return False
    pa, pb = Path(a), Path(b)
    if pa.name != pb.name:
        return False
    try:
        fa, fb = [pa, *sibling_files(pa)], [pb, *sibling_files(pb)]
        if [x.name for x in fa] != [x.name for x in fb]:
            return False
        pairs = list(zip(fa, fb, strict=True))
        for x, y in pairs:  # sizes first: files of other sizes are never read
            sx, sy = os.stat(x), os.stat(y)
            if not (stat.S_ISREG(sx.st_mode) and stat.S_ISREG(sy.st_mode)) or sx.st_size != sy.st_size:
                return False
        for x, y in pairs:
            data = regular_bytes(x)
            if data is None or data != regular_bytes(y):
                return False
        return True
    except OSError:
        return False


def regular_bytes(path: Path) -> bytes | None:
    """The bytes of regular file ``path``; ``None`` for anything else (never opens a FIFO)."""
    if not stat.S_ISREG(os.stat(path).st_mode):
        return None
    return path.read_bytes()
