"""Deterministic automata over Unicode code points, with an alphabet of code-point classes.

A :class:`Dfa` reads a string one code point at a time. Its alphabet is a partition of all code
points ``0..0x10FFFF`` into classes (``classes[k]`` is a :data:`~.charset.Charset`); the
transition table is complete (``delta[state][k]``); the start state is 0.

Every :class:`Dfa` this module returns is *canonical*: minimal, with one dead state at most,
classes that behave alike merged, classes ordered by their least code point and states
numbered in breadth-first order. Two canonical automata accept the same strings exactly when
they are equal, so a :class:`Dfa` is a hashable value whose equality is language equality.

The automata operations themselves (Hopcroft minimisation, product) are pyformlang's; this
module maps our code-point classes onto pyformlang symbols and back, and keeps the size within
a budget (:class:`~.errors.BudgetExceeded`) before handing anything to the library.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from pyformlang.finite_automaton import DeterministicFiniteAutomaton

from . import charset as cs
from .errors import BudgetExceeded

MAX_STATES = 20_000
"""Most states of an automaton, and of a product before it is built."""


@dataclass(frozen=True)
class Dfa:
    """A canonical complete DFA (see the module docstring). Build one with :func:`make`."""

    classes: tuple[cs.Charset, ...]
    delta: tuple[tuple[int, ...], ...]
    finals: frozenset[int]

    def __hash__(self) -> int:
        h = self.__dict__.get("_hash")
        if h is None:
            h = hash((self.classes, self.delta, self.finals))
            object.__setattr__(self, "_hash", h)
        return h

    @property
    def size(self) -> int:
        """Number of states."""
        return len(self.delta)

    def symbol(self, cp: int) -> int:
        """Index of the class holding code point ``cp``."""
        for k, cls in enumerate(self.classes):
            if cs.contains(cls, cp):
                return k
        raise ValueError(cp)  # unreachable: the classes partition all code points

    def accepts(self, s: str) -> bool:
        """Whether the automaton accepts the string ``s``."""
        q = 0
        for ch in s:
            q = self.delta[q][self.symbol(ord(ch))]
        return q in self.finals

    def live(self) -> frozenset[int]:
        """States from which a final state can be reached."""
        back: list[set[int]] = [set() for _ in self.delta]
        for q, row in enumerate(self.delta):
            for t in row:
                back[t].add(q)
        seen = set(self.finals)
        todo = list(self.finals)
        while todo:
            for p in back[todo.pop()]:
                if p not in seen:
                    seen.add(p)
                    todo.append(p)
        return frozenset(seen)


def make(classes, delta, finals) -> Dfa:
    """Minimise and canonicalise a complete DFA given as class list, table and final states
    (start state 0); minimisation is pyformlang's Hopcroft algorithm."""
    if len(delta) > MAX_STATES:
        raise BudgetExceeded(f"state budget exceeded: an automaton of {len(delta)} states "
                             f"(budget {MAX_STATES})")
    if not finals:
        return NOTHING
    lib = DeterministicFiniteAutomaton()
    lib.add_start_state(0)
    for q in finals:
        lib.add_final_state(q)
    for q, row in enumerate(delta):
        for k, t in enumerate(row):
            lib.add_transition(q, k, t)
    small = lib.minimize()
    names: dict = {}
    start = small.start_state
    order = [start]
    names[start] = 0
    table = small.to_dict()
    rows: list[list[int | None]] = []
    i = 0
    while i < len(order):
        out = table.get(order[i], {})
        row: list[int | None] = []
        for k in range(len(classes)):
            t = out.get(k)
            if t is None:
                row.append(None)
                continue
            if t not in names:
                names[t] = len(order)
                order.append(t)
            row.append(names[t])
        rows.append(row)
        i += 1
    fin = frozenset(names[s] for s in small.final_states if s in names)
    return _canonical(classes, rows, fin)


def _canonical(classes, rows, finals) -> Dfa:
    """Complete ``rows`` (``None`` = dead), merge dead states, merge classes that every state
    treats alike, renumber states breadth-first. ``rows`` must be minimal apart from dead states."""
    n = len(rows)
    back: list[set[int]] = [set() for _ in range(n)]
    for q, row in enumerate(rows):
        for t in row:
            if t is not None:
                back[t].add(q)
    live = set(finals)
    todo = list(finals)
    while todo:
        for p in back[todo.pop()]:
            if p not in live:
                live.add(p)
                todo.append(p)
    dead = -1
    cols: dict[tuple, list[int]] = {}
    for k in range(len(classes)):
        col = tuple(t if t is not None and t in live else dead for t in (r[k] for r in rows))
        cols.setdefault(col, []).append(k)
    merged = sorted(((cs.union(*(classes[k] for k in ks)), col) for col, ks in cols.items()),
                    key=lambda m: m[0][0][0])
    new_classes = tuple(m[0] for m in merged)
    names = {0: 0} if 0 in live else {dead: 0}
    order = [0 if 0 in live else dead]
    delta: list[tuple[int, ...]] = []
    i = 0
    while i < len(order):
        q = order[i]
        row = []
        for _, col in merged:
            t = col[q] if q != dead else dead
            if t not in names:
                names[t] = len(order)
                order.append(t)
            row.append(names[t])
        delta.append(tuple(row))
        i += 1
    return Dfa(new_classes, tuple(delta), frozenset(names[q] for q in finals if q in names))


NOTHING = Dfa((cs.ALL,), ((0,),), frozenset())
"""The automaton accepting no string."""
EVERYTHING = Dfa((cs.ALL,), ((0,),), frozenset([0]))
"""The automaton accepting every string."""


def refine(*partitions: tuple[cs.Charset, ...]) -> tuple[tuple[cs.Charset, ...], list[tuple]]:
    """Common refinement of alphabet partitions: the new classes, and for each new class the
    tuple of the class index it falls in within each given partition."""
    cuts = sorted({lo for p in partitions for cls in p for lo, _ in cls})
    where = []
    for p in partitions:
        segs = sorted((lo, hi, k) for k, cls in enumerate(p) for lo, hi in cls)
        where.append(segs)
    groups: dict[tuple, list[tuple[int, int]]] = {}
    pos = [0] * len(partitions)
    for n, lo in enumerate(cuts):
        hi = cuts[n + 1] - 1 if n + 1 < len(cuts) else cs.MAX_CP
        key = []
        for j, segs in enumerate(where):
            while segs[pos[j]][1] < lo:
                pos[j] += 1
            key.append(segs[pos[j]][2])
        groups.setdefault(tuple(key), []).append((lo, hi))
    keys = list(groups)
    return tuple(cs.normalize(groups[k]) for k in keys), keys


@lru_cache(maxsize=4096)
def product(a: Dfa, b: Dfa, mode: str) -> Dfa:
    """``a`` and ``b`` combined by ``mode``: ``"and"`` (intersection, pyformlang's product),
    ``"or"`` (union) or ``"diff"`` (``a`` minus ``b``), the last two by De Morgan."""
    if mode == "or":
        return complement(product(complement(a), complement(b), "and"))
    if mode == "diff":
        return product(a, complement(b), "and")
    if a == NOTHING or b == NOTHING:
        return NOTHING
    if a == EVERYTHING:
        return b
    if b == EVERYTHING or a == b:
        return a
    if a.size * b.size > MAX_STATES * 4:
        raise BudgetExceeded(f"state budget exceeded: a product of {a.size} x {b.size} states "
                             f"(budget {MAX_STATES * 4})")
    classes, keys = refine(a.classes, b.classes)
    la, lb = _library(a, keys, 0), _library(b, keys, 1)
    both = la.get_intersection(lb)
    # The product of two DFAs is deterministic; read it back through our numbering.
    start = next(iter(both.start_states))
    names = {start: 0}
    order = [start]
    table = both.to_dict()
    rows: list[list[int | None]] = []
    i = 0
    while i < len(order):
        out = table.get(order[i], {})
        row: list[int | None] = []
        for k in range(len(classes)):
            t = out.get(k)
            if isinstance(t, set):
                t = next(iter(t)) if t else None
            if t is not None and t not in names:
                names[t] = len(order)
                order.append(t)
            row.append(None if t is None else names[t])
        rows.append(row)
        i += 1
    finals = [names[s] for s in both.final_states if s in names]
    complete = [[len(rows) if t is None else t for t in row] for row in rows]
    complete.append([len(rows)] * len(classes))
    return make(classes, complete, finals)


def _library(d: Dfa, keys: list[tuple], side: int) -> DeterministicFiniteAutomaton:
    lib = DeterministicFiniteAutomaton()
    lib.add_start_state(0)
    for q in d.finals:
        lib.add_final_state(q)
    for q, row in enumerate(d.delta):
        for k, key in enumerate(keys):
            lib.add_transition(q, k, row[key[side]])
    return lib


def complement(a: Dfa) -> Dfa:
    """The automaton accepting exactly the strings ``a`` rejects (final states swapped on the
    complete canonical table; the result is canonical as it stands)."""
    return Dfa(a.classes, a.delta, frozenset(range(a.size)) - a.finals)
