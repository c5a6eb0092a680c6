"""What ``diff --ignore`` and ``check --ignore`` both need before an ignore file's entries are
read: its size limit, whether it says nothing at all, and the one line saying so.

Light on purpose (PyYAML only when a file is looked at): ``diff`` asks before its cache is
consulted, so a replayed report warns as the computed one did, without loading the engine. The
entries themselves are read by :func:`evalport_spec.compat.ignore.load_ignore`; the gate's use
of them is :mod:`evalport_spec.gate.ignores`.
"""

from __future__ import annotations

from pathlib import Path

from .fsutil import read_limited

MAX_IGNORE_BYTES = 8 * 1024 * 1024
"""Largest ignore file accepted (8 MiB; counted as read, see :func:`~evalport_spec.fsutil.read_limited`)."""


def is_blank(path: str | Path) -> bool:
    """Whether the file at ``path`` says nothing: YAML reads it as no document at all (empty,
    blank lines, ``#`` comments, document markers ``---``/``...``) or as a null (``null``, ``~``),
    bare or as the ``ignore`` member (``ignore:`` with no value). An explicit empty list (``[]``,
    ``ignore: []``) says "no entries" and is not blank. A file that cannot be read, decoded or
    parsed is not blank: reading it for its entries reports that.

    Raises:
        InputError: the file is larger than :data:`MAX_IGNORE_BYTES` or not a regular file.
    """
    import yaml

    from .yamldepth import load

    data = read_limited(Path(path), max_bytes=MAX_IGNORE_BYTES, label=str(path))
    try:
        value = load(data.decode("utf-8"))
    except (UnicodeDecodeError, yaml.YAMLError, ValueError):
        return False
    return value is None or (isinstance(value, dict) and list(value) == ["ignore"] and value["ignore"] is None)


def blank_message(label: str) -> str:
    """The one line saying that ignore file ``label`` is blank (:func:`is_blank`)."""
    return (f"{label} is empty (no entry: nothing but comments, blank lines or a null): it accepts nothing; if "
            "that is meant, write [] in it, else check the file's path and content")
