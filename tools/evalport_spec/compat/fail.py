"""One reason why ``A ⊆ B`` fails (or could not be decided), and helpers shared by the rules."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from ..canonjson import canonical
from ..findings import NO_ITEM
from .canon import Canon
from .nodes import Node


@dataclass(slots=True)
class Fail:
    """One reason why ``A ⊆ B`` does not hold (or could not be decided). Slotted: a large
    comparison holds about a million (azure-pipelines.json with one ``enum`` value removed)."""

    code: str
    message: str
    a: tuple[Node, str] | None
    b: tuple[Node, str] | None
    path: tuple = ()
    found: list[Any] = field(default_factory=list)
    """Witness values at this failure's level (read them through :attr:`witness`)."""
    undecided: str | None = None
    via: tuple | None = field(default=None, repr=False, compare=False)
    """``(inner Fail, A, B, key, how)`` when this failure is ``inner`` seen one level up (member
    ``key`` of an object, or item ``key`` of an array): its witnesses are built on demand by
    :meth:`Checker.witnesses`, only along this one instance path."""
    cache: dict | None = field(default=None, repr=False, compare=False)
    """Witnesses :meth:`Checker.witnesses` embedded up to this failure's level, by
    carefulness (``{careful: [...]}``); ``None`` until the first is kept (most failures of a
    large comparison are never asked for one: no empty dictionary each)."""
    item: Any = NO_ITEM
    """The one lost item when the keyword holds alternatives (an ``enum`` value, a ``type``
    member, a ``required`` name, a dropped branch): each is its own failure (issue 20)."""
    later: Callable[[], list[Any]] | None = field(default=None, repr=False, compare=False)
    """Builds :attr:`found` on first use (:meth:`defer`)."""
    absorbed: list[Fail] | tuple[()] = field(default=(), repr=False, compare=False)
    """Failures found equal to this one (:meth:`absorb`) whose witnesses follow this one's
    (``()`` until the first: most failures absorb none)."""
    absorb_limit: int = field(default=3, repr=False, compare=False)
    _key: tuple | None = field(default=None, init=False, repr=False, compare=False)
    """:meth:`key`, computed once (not an init field: ``dataclasses.replace`` recomputes it)."""

    @property
    def witness(self) -> list[Any]:
        """Values valid under ``A`` and invalid under ``B`` at this failure's level: built on
        first use when deferred, so a failure that a case split later removes, or one only
        tested for existence, costs no witness search. Witnesses found by a short search
        (:func:`probing`) are kept; an empty answer of one is not (the full search runs on the
        next read outside it)."""
        own = self._own()
        if not self.absorbed or len(own) >= self.absorb_limit:
            return own
        # an explicit breadth-first walk over the absorbed failures and theirs (no closure
        # nesting: a chain of thousands of absorbs reads in a loop, not a recursion)
        ws, walk, i = list(own), list(self.absorbed), 0
        while i < len(walk) and len(ws) < self.absorb_limit:
            g = walk[i]
            i += 1
            ws.extend(g._own()[:self.absorb_limit - len(ws)])
            walk.extend(g.absorbed)
        if not _PROBE[0]:  # every answer read is final (inside a probe, empty ones are not)
            self.found, self.absorbed = ws, ()
        return ws

    def _own(self) -> list[Any]:
        """This failure's own witnesses, without those it absorbed (built on first read)."""
        if self.later is not None:
            found = self.later()
            if found or not _PROBE[0]:
                self.later = None
            self.found = found
        return self.found

    @witness.setter
    def witness(self, values: list[Any]) -> None:
        self.later = None
        self.absorbed = ()
        self.found = values

    def defer(self, make: Callable[[], list[Any]]) -> None:
        """Build the witnesses with ``make()`` (returning a list) only when they are read."""
        self.later = make

    def absorb(self, other: Fail, limit: int = 3) -> None:
        """Add ``other``'s witnesses (the same failure reached another way) after this one's,
        up to ``limit`` in all, when they are read (``other``'s own absorbed failures follow,
        breadth first)."""
        if not isinstance(self.absorbed, list):
            self.absorbed = []
        self.absorbed.append(other)
        self.absorb_limit = limit

    def one_level_up(self, key: Any) -> Fail:
        """This failure seen one level up the instance, at member or item ``key`` of the value
        holding it (``key`` heads the path): the same code, message, locations, undecidedness
        and item, so the same :meth:`key`, whose tuple is shared rather than built again (a
        large comparison makes half a million of these). No witness of its own: the caller
        links it to this one (:attr:`via`)."""
        g = Fail(self.code, self.message, self.a, self.b, (key,) + self.path, [], self.undecided, item=self.item)
        g._key = self.key()
        return g

    def key(self) -> tuple:
        """Identity of the failure by schema locations and item (not instance path): the same
        changed subschema reached along many instance paths (a shared ``$defs`` entry) is one
        failure, reported at the first path found; this keeps deep ``$ref`` graphs linear."""
        if self._key is None:
            item = None if self.item is NO_ITEM else canonical(self.item)
            self._key = (self.code, where(self.a), where(self.b), self.undecided is not None, item)
        return self._key


PROBE_TRIES = 12
"""Candidates a witness search tries inside :func:`probing` (a full search tries 120)."""

_PROBE = [False]


@contextmanager
def probing() -> Iterator[None]:
    """Witness searches made inside are short (:data:`PROBE_TRIES` candidates) and an empty
    answer is not kept: used where a witness only saves work (deciding whether a case split is
    needed), so a miss costs a split, never a finding without its witness."""
    before, _PROBE[0] = _PROBE[0], True
    try:
        yield
    finally:
        _PROBE[0] = before


def probe_active() -> bool:
    """Whether witness searches are short and their empty answers provisional (:func:`probing`)."""
    return _PROBE[0]


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
