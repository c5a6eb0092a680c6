"""Which local files ``diff OLD NEW`` reads for an argument that names a file or a folder.

The rest of an argument's resolution (a version, ``draft``, ``REF:PATH``, the parsing) is
:mod:`evalport_spec.compat.inputs`. The selection lives here, in a leaf module, so that the diff
result cache (:mod:`evalport_spec.diffcache`) keys on exactly the files the resolution reads
without importing the engine.
"""

from __future__ import annotations

import os
from pathlib import Path

SIBLING_MAX_BYTES = 8 << 20
"""Largest sibling file (8 MiB) read as possible context of a single schema file: schemas are
kilobytes; a bigger ``.json`` beside it is data, never read for a diff."""


def local_kind(arg: str) -> str | None:
    """What the local path ``arg`` is to ``diff``: ``"file"`` (anything that is not a folder,
    a FIFO or a dangling link included: reading refuses those), ``"version"`` (a folder holding
    ``schemas/``: a spec version), ``"folder"`` (a folder of schemas), or ``None`` (nothing
    there: a version name, ``draft`` or ``REF:PATH``)."""
    p = Path(arg)
    if p.is_file() or (os.path.lexists(p) and not p.is_dir()):
        return "file"
    if p.is_dir():
        return "version" if (p / "schemas").is_dir() else "folder"
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
