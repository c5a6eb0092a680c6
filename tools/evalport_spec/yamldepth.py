"""YAML parser events with a bound on nesting, so that no reader recurses past it.

PyYAML composes and constructs nested collections recursively: a few kilobytes of ``[[[[...``
in an RFC's front matter or an ignore file reached Python's recursion limit (a ``RecursionError``
with no file or line, and 20 s of parsing for 20,000 levels). Screening the parser's events
first, which PyYAML produces without recursion, refuses such a text at the first collection past
the bound, with its line and column, before anything is built from it. The bound is the one JSON
input has (:data:`evalport_spec.jsonload.MAX_DEPTH`, toolchain.md "Bad input").
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
