"""What ``diff --ignore`` and ``check --ignore`` both need before an ignore file's entries are
read: its size limit, whether it says nothing at all, and the one line saying so.

Light on purpose (PyYAML only when a file is looked at): ``diff`` asks before its cache is
consulted, so a replayed report warns as the computed one did, without loading the engine. The
entries themselves are read by :func:`evalport_spec.compat.ignore.load_ignore`; the gate's use
of them is :mod:`evalport_spec.gate.ignores`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .fsutil import read_limited

MAX_IGNORE_BYTES = 8 * 1024 * 1024
"""Largest ignore file accepted (8 MiB; counted as read, see :func:`~evalport_spec.fsutil.read_limited`)."""


def parse(text: str) -> Any:
    """The YAML value of an ignore file's ``text``, with dates left as the strings written.

    PyYAML's safe loader turns ``2026-02-30`` into a ``datetime.date`` and raises a bare
    ``ValueError`` (no line, no file) for a day the calendar lacks; without its timestamp
    resolver the entry's ``expires`` reaches :func:`evalport_spec.compat.ignore.load_ignore`
    as text and is refused there with the entry's pointer.

    Raises:
        yaml.YAMLError: ``text`` is not YAML, or nests deeper than
            :data:`evalport_spec.jsonload.MAX_DEPTH` levels (the error carries the line and column).
        ValueError: an explicitly tagged value its constructor refuses (``!!timestamp 2026-02-30``,
            ``!!int x``).
    """
    import yaml

    from .yamldepth import bounded_events

    class _NoDates(yaml.SafeLoader):
        """SafeLoader that leaves dates as strings (YAML 1.1's timestamp type is not JSON)."""

    _NoDates.yaml_implicit_resolvers = {
        ch: [(tag, rx) for tag, rx in resolvers if tag != "tag:yaml.org,2002:timestamp"]
        for ch, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
    }
    for _ in bounded_events(text, _NoDates):  # nesting past the bound: refused before building
        pass
    return yaml.load(text, Loader=_NoDates)  # noqa: S506 - a SafeLoader subclass


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

    data = read_limited(Path(path), max_bytes=MAX_IGNORE_BYTES, label=str(path))
    try:
        value = parse(data.decode("utf-8"))
    except (UnicodeDecodeError, yaml.YAMLError, ValueError):
        return False
    return value is None or (isinstance(value, dict) and list(value) == ["ignore"] and value["ignore"] is None)


def blank_message(label: str) -> str:
    """The one line saying that ignore file ``label`` is blank (:func:`is_blank`)."""
    return (f"{label} is empty (no entry: nothing but comments, blank lines or a null): it accepts nothing; if "
            "that is meant, write [] in it, else check the file's path and content")
