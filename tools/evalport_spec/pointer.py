"""JSON Pointer helpers (RFC 6901).

Pointers are plain ``str`` values such as ``"/results/0/attempt"``; ``""`` is the whole document.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


def escape(token: str | int) -> str:
    """Escape one reference token: ``~`` -> ``~0``, ``/`` -> ``~1`` (RFC 6901 section 3)."""
    return str(token).replace("~", "~0").replace("/", "~1")


def unescape(token: str) -> str:
    """Inverse of :func:`escape` (RFC 6901 section 4: ``~1`` first, then ``~0``)."""
    return token.replace("~1", "/").replace("~0", "~")


def join(base: str, *tokens: str | int) -> str:
    """Append reference tokens to a pointer: ``join("/a", "b/c", 0) == "/a/b~1c/0"``."""
    out = base
    for t in tokens:  # (most tokens need no escaping: a keyword, a plain name, an index)
        t = str(t)
        out += "/" + (escape(t) if "~" in t or "/" in t else t)
    return out


def from_path(path: Iterable[str | int]) -> str:
    """Pointer for a sequence of keys/indexes (e.g. ``jsonschema``'s ``error.path``)."""
    return join("", *path)


def split(pointer: str) -> list[str]:
    """Split a pointer into unescaped reference tokens. Raises ``ValueError`` if malformed."""
    if pointer == "":
        return []
    if not pointer.startswith("/"):
        raise ValueError(f"JSON Pointer must be empty or start with '/': {pointer!r}")
    return [unescape(t) for t in pointer[1:].split("/")]


_MISSING = object()


def resolve(document: Any, pointer: str, default: Any = _MISSING) -> Any:
    """Return the value at ``pointer`` in ``document``.

    Raises:
        KeyError: the pointer does not resolve and no ``default`` was given.
    """
    node = document
    for token in split(pointer):
        if isinstance(node, dict) and token in node:
            node = node[token]
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node) and (
            token == "0" or not token.startswith("0")
        ):
            node = node[int(token)]
        else:
            if default is _MISSING:
                raise KeyError(pointer)
            return default
    return node
