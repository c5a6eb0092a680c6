"""Places of a schema file from which validation applies only what two versions write alike.

Validation at a place applies what is written below it and, through each ``$ref`` there, what
is below the target, transitively. So when two versions of a set differ only at some places
(*seeds*), a place is *reached* by the edit when it is an ancestor of a seed (by pointer, itself
included) or holds a ``$ref`` whose target is reached: :func:`reach` closes a seed set so. A
place that is not reached has the same subschema on both sides, everything it can apply
included: the two are the same schema (what :meth:`~.subset.Checker.equal` decides by walking
them), which a large schema with one edit asks about hundreds of thousands of times.
:func:`differing` finds the seeds of one file; :class:`~.nodes.Side` uses :func:`reach` too,
for the places reaching a pattern jsonschema-rs may read otherwise.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..pointer import join


def reach(seeds: Iterable[tuple[str, str]], by_target: dict[tuple[str, str], list[tuple[str, str]]]) -> set[tuple[str, str]]:
    """``(file, pointer)`` of every place reaching a seed: each seed and its ancestors, and
    transitively each holder of a ``$ref`` whose target (``by_target``: target -> holders, the
    holder being the object the ``$ref`` is written in) is such a place, with its ancestors."""
    out: set[tuple[str, str]] = set()
    stack = list(seeds)
    while stack:
        fname, ptr = stack.pop()
        while (fname, ptr) not in out:  # the place and its ancestors
            out.add((fname, ptr))
            stack.extend(by_target.get((fname, ptr), ()))
            if not ptr:
                break
            ptr = ptr.rsplit("/", 1)[0]
    return out


def differing(a: Any, b: Any, ptr: str = "") -> list[str]:
    """JSON Pointers of the outermost places where JSON values ``a`` and ``b`` differ as JSON
    texts do: objects with other member names, arrays of other lengths, values of other types
    (``1``, ``1.0`` and ``true`` apart) or other scalars; below an object or array of the same
    shape, its members or items compared in turn (an explicit stack, no recursion)."""
    out: list[str] = []
    stack = [(a, b, ptr)]
    while stack:
        x, y, p = stack.pop()
        if x is y:
            continue
        if type(x) is not type(y):
            out.append(p)
        elif isinstance(x, dict):
            if x.keys() != y.keys():
                out.append(p)
            stack.extend((v, y[k], join(p, k)) for k, v in x.items() if k in y)
        elif isinstance(x, list):
            if len(x) != len(y):
                out.append(p)
            stack.extend((v, w, join(p, i)) for i, (v, w) in enumerate(zip(x, y, strict=False)))
        elif x != y:
            out.append(p)
    return out
