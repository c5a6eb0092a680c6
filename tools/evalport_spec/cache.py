"""Process-wide memo keyed by content: compute a value once per distinct input.

One ``evalport-spec check`` asks for the same classification several times (the ``releases``
stage, the ``draft`` stage and RFC lint each classify version pairs; toolchain.md, "The gate").
Each answer is a pure function of the bytes the engines read, so :class:`ContentMemo` keys it
by a digest of those bytes (:func:`version_digest`, :func:`digest`): a key built from content
can never serve a stale answer -- change one byte and the key changes.

Values are stored and handed out as deep copies, so a caller that edits its result (adds
findings, fills ``ignored``) cannot change what the next caller gets.

Public API::

    digest(*parts) -> str                       sha-256 of JSON-serialisable parts
    version_digest(version) -> str              content of a SpecVersion's schemas and catalogue
    tree_digest(*folders) -> str                content of every regular file under the folders
    ContentMemo(maxsize=64).get(key, compute)   cached deep copy of compute()
        .hits / .misses / .clear() / len()
"""

from __future__ import annotations

import copy
import hashlib
import json
from collections import OrderedDict
from collections.abc import Callable, Hashable
from pathlib import Path
from typing import Any, TypeVar

from . import inputlog

T = TypeVar("T")


def digest(*parts: Any) -> str:
    """The sha-256 (hex) of ``parts`` serialised as canonical JSON (sorted keys, no spaces).

    ``bytes`` parts are hashed as their hexadecimal text; other values that JSON cannot
    represent are hashed by ``repr`` (use only values whose ``repr`` shows their content).
    """
    def default(o: Any) -> Any:
        if isinstance(o, (bytes, bytearray)):
            return {"bytes": bytes(o).hex()}
        return {"repr": repr(o)}

    text = json.dumps(parts, sort_keys=True, separators=(",", ":"), default=default,
                      ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def version_digest(version: Any) -> str:
    """The content digest of a :class:`~evalport_spec.spec.SpecVersion` as the diff engine sees
    it: its ``name`` and ``label`` (both appear in findings, with the files' labels made from
    it), every schema file's name and exact bytes (line numbers in findings depend on
    formatting, not only on the JSON value) and the exact bytes of its catalogue: the bytes
    ``version.schemas`` and ``version.catalogue`` parse (read once per version object), hashed
    without parsing them.

    Raises:
        InputError: schemas or catalogue that cannot be read (as ``version.schema_bytes`` /
            ``.catalogue_bytes``); a file that does not parse raises where it is parsed.
    """
    schemas = sorted(version.schema_bytes.items())
    return digest("spec-version", version.name, version.label, schemas, version.catalogue_bytes)


TREE_FILE_CAP = 8 * 1024 * 1024
"""Files larger than this (bytes) enter :func:`tree_digest` by size and modification time."""


def tree_digest(*folders: Path) -> str:
    """The sha-256 (hex) of every regular file under ``folders`` (recursively, symlinks
    followed as :meth:`Path.is_file` does): each folder's path, then each file's path relative
    to it and its bytes. A file over :data:`TREE_FILE_CAP` enters by size and ``st_mtime_ns``
    instead (a reader refuses such a file, so no memoised answer rests on its bytes); a missing
    folder enters as missing. FIFOs and sockets are skipped (never opened).

    Raises:
        OSError: a file that cannot be read.
    """
    h = hashlib.sha256(b"tree-digest\0")
    for folder in folders:
        h.update(str(folder).encode("utf-8", "surrogateescape") + (b"\0dir\0" if folder.is_dir() else b"\0none\0"))
        if not folder.is_dir():
            continue
        for path in sorted(folder.rglob("*")):
            if not path.is_file():
                continue
            h.update(path.relative_to(folder).as_posix().encode("utf-8", "surrogateescape") + b"\0")
            st = path.stat()
            if st.st_size > TREE_FILE_CAP:
                inputlog.note(path)  # keyed by stat alone: still an input of a recorded run
                h.update(f"large {st.st_size} {st.st_mtime_ns}".encode())
            else:
                data = path.read_bytes()
                h.update(f"{len(data)}:".encode() + data)
    return h.hexdigest()


class ContentMemo:
    """A bounded (least recently used) memo ``key -> value`` that returns deep copies.

    Keys must be hashable and must capture *everything* the computed value depends on (build
    them with :func:`digest` / :func:`version_digest`); a key holding an object (a function)
    keeps that object alive, so its identity cannot be reused by another one. With
    ``copies=False`` the stored value itself is returned: for large values every caller only
    reads (a rule-comparison corpus, a program's verdicts).
    """

    def __init__(self, maxsize: int = 64, *, copies: bool = True) -> None:
        self.maxsize = maxsize
        self.copies = copies
        self.hits = 0
        self.misses = 0
        self._data: OrderedDict[Hashable, Any] = OrderedDict()

    def get(self, key: Hashable, compute: Callable[[], T]) -> T:
        """A deep copy of the value for ``key`` (the value itself without ``copies``), calling
        ``compute()`` only on a miss.

        Exceptions from ``compute`` propagate and nothing is stored.
        """
        if key in self._data:
            self.hits += 1
            self._data.move_to_end(key)
            return copy.deepcopy(self._data[key]) if self.copies else self._data[key]
        self.misses += 1
        value = compute()
        self._data[key] = copy.deepcopy(value) if self.copies else value
        while len(self._data) > self.maxsize:
            self._data.popitem(last=False)
        return value

    def clear(self) -> None:
        """Forget every value and reset the counters."""
        self._data.clear()
        self.hits = self.misses = 0

    def __len__(self) -> int:
        return len(self._data)

    def __contains__(self, key: Hashable) -> bool:
        return key in self._data
