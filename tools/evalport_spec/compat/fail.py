"""One reason why ``A ⊆ B`` fails (or could not be decided), and helpers shared by the rules."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..canonjson import canonical
from ..findings import NO_ITEM
from .canon import Canon
from .nodes import Node


@dataclass
class Fail:
    """One reason why ``A ⊆ B`` does not hold (or could not be decided)."""

    code: str
    message: str
    a: tuple[Node, str] | None
    b: tuple[Node, str] | None
    path: tuple = ()
    witness: list[Any] = field(default_factory=list)
    undecided: str | None = None
    via: tuple | None = field(default=None, repr=False, compare=False)
    """``(inner Fail, A, B, key, how)`` when this failure is ``inner`` seen one level up (member
    ``key`` of an object, or item ``key`` of an array): its witnesses are built on demand by
    :meth:`Checker.witnesses`, only along this one instance path."""
    cache: dict = field(default_factory=dict, repr=False, compare=False)
    item: Any = NO_ITEM
    """The one lost item when the keyword holds alternatives (an ``enum`` value, a ``type``
    member, a ``required`` name, a dropped branch): each is its own failure (issue 20)."""
    def key(self) -> tuple:
        """Identity of the failure by schema locations and item (not instance path): the same
        changed subschema reached along many instance paths (a shared ``$defs`` entry) is one
        failure, reported at the first path found; this keeps deep ``$ref`` graphs linear."""
        item = None if self.item is NO_ITEM else canonical(self.item)
        return (self.code, where(self.a), where(self.b), self.undecided is not None, item)


class Budget(Exception):
    """Raised when the case split exceeds the budget (reported as undecided)."""


def where(loc: tuple[Node, str] | None) -> tuple | None:
    if loc is None:
        return None
    node, ptr = loc
    return (node.side, node.file, node.syn, ptr)


def located(c: Canon) -> tuple[Node, str] | None:
    for n in c.positives:
        if n.syn is None:
            return (n, n.ptr)
    return None


def short(v: Any, limit: int = 80) -> str:
    """``repr`` of a value for a one-line message, cut at ``limit`` characters."""
    r = repr(v)
    return r if len(r) <= limit else r[:limit - 3] + "..."
