"""YAML read with a bound on nesting, so that no reader recurses past it, and dates left as text.

PyYAML composes and constructs nested collections recursively: a few kilobytes of ``[[[[...``
in an RFC's front matter or an ignore file reached Python's recursion limit (a ``RecursionError``
with no file or line, and 20 s of parsing for 20,000 levels). Screening the parser's events
first, which PyYAML produces without recursion, refuses such a text at the first collection past
the bound, with its line and column, before anything is built from it. The bound is the one JSON
input has (:data:`evalport_spec.jsonload.MAX_DEPTH`, toolchain.md "Bad input").

:func:`load` also leaves dates as the strings written: PyYAML's safe loader builds a
``datetime.date`` of every unquoted ``YYYY-MM-DD`` and raises a bare ``ValueError`` (no file,
no line) for a day the calendar lacks, ``2026-02-30``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import yaml

from .jsonload import MAX_DEPTH


def bounded_events(text: str, loader: type, limit: int = MAX_DEPTH) -> Iterator[Any]:
    """The parser events of the YAML ``text`` read with ``loader`` (a ``yaml.SafeLoader`` class),
    in order.

    Raises:
        yaml.MarkedYAMLError: a sequence or mapping nested deeper than ``limit`` levels (problem
            ``nesting deeper than N levels``, mark at its start, so that
            :func:`evalport_spec.yamlerror.describe` gives its line and column).
        yaml.YAMLError: ``text`` is not YAML.
    """
    depth = 0
    for event in yaml.parse(text, Loader=loader):
        if isinstance(event, yaml.CollectionStartEvent):
            depth += 1
            if depth > limit:
                raise yaml.MarkedYAMLError(problem=f"nesting deeper than {limit} levels",
                                           problem_mark=event.start_mark)
        elif isinstance(event, yaml.CollectionEndEvent):
            depth -= 1
        yield event


class _NoDates(yaml.SafeLoader):
    """SafeLoader that leaves dates as strings (YAML 1.1's timestamp type is not JSON)."""


_NoDates.yaml_implicit_resolvers = {
    ch: [(tag, rx) for tag, rx in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for ch, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


def load(text: str) -> Any:
    """The value of the YAML (or JSON) ``text``: safe tags only, dates as the strings written,
    nesting screened by :func:`bounded_events` before anything is built. Used for ignore files
    (:mod:`evalport_spec.compat.ignore`) and for reading ``site_url`` from ``mkdocs.yml``.

    Raises:
        yaml.YAMLError: ``text`` is not YAML, nests deeper than
            :data:`evalport_spec.jsonload.MAX_DEPTH` levels, or has a tag the safe loader lacks
            (the error carries the line and column).
        ValueError: an explicitly tagged value its constructor refuses (``!!timestamp 2026-02-30``,
            ``!!int x``).
    """
    for _ in bounded_events(text, _NoDates):
        pass
    return yaml.load(text, Loader=_NoDates)  # noqa: S506 - a SafeLoader subclass
