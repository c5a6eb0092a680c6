"""Deterministic automata over Unicode code points, with an alphabet of code-point classes.

A :class:`Dfa` reads a string one code point at a time. Its alphabet is a partition of all code
points ``0..0x10FFFF`` into classes (``classes[k]`` is a :data:`~.charset.Charset`); the
transition table is complete (``delta[state][k]``); the start state is 0.

Every :class:`Dfa` this module returns is *canonical*: minimal, with one dead state at most,
classes that behave alike merged, classes ordered by their least code point and states
numbered in breadth-first order. Two canonical automata accept the same strings exactly when
they are equal, so a :class:`Dfa` is a hashable value whose equality is language equality.

Library choice (measured on this machine, 2 cores; figures in ``benchmarks/bench_regular.py``'s
docstring). The operations needed are product, complement, minimisation, emptiness and a
shortest member over an alphabet of code-point intervals covering all of Unicode:

- greenery 4.2 has the right alphabet (``Charclass`` intervals over all of Unicode, complement)
  but its ``crawl`` looks states up with ``list.index`` and it minimises by double reversal after
  every operation: ``[a-z]{0,300}`` takes 84 s, complementing a 35-state ``date-time`` 0.9 s.
- interegular 0.3 (unmaintained since 2024-01) is greenery's older code with a per-character
  alphabet, so ``[\u0100-\uffff]`` becomes 65,280 symbols.
- pyformlang 1.0 has Hopcroft minimisation and products, but no interval alphabet, string-named
  states, and deep copies on every read (``to_dict``): a product of two pattern automata took
  0.1 s on average over the public schemas' patterns (1,200 products: 80 s), and importing it
  costs 0.46 s (numpy, networkx).
- z3's sequence theory decides inclusion quickly but gives no shortest or preferred witness,
  and its characters stop at U+2FFFF (code points above are silently outside every language).

None is fast enough for the inclusion engine, so the operations are ours, on integer tables:
a breadth-first product and Hopcroft's minimisation (both textbook, about 80 lines), with
state and time budgets the libraries do not offer. pyformlang stays as the oracle of the tests
(``tests/test_regular_automata.py`` checks every product and minimisation against it).
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass
from functools import lru_cache

from . import charset as cs
from .errors import BudgetExceeded

MAX_STATES = 20_000
"""Most states of one automaton (a pattern's, a product's) before :class:`BudgetExceeded`."""


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
        index = self.__dict__.get("_index")
        if index is None:
            spans = sorted((lo, k) for k, cls in enumerate(self.classes) for lo, _ in cls)
            index = ([lo for lo, _ in spans], [k for _, k in spans])
            object.__setattr__(self, "_index", index)
        return index[1][bisect_right(index[0], cp) - 1]

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
    """Minimise (Hopcroft's partition refinement) and canonicalise a complete DFA given as a
    class list, a transition table and final states, start state 0."""
    if len(delta) > MAX_STATES:
        raise BudgetExceeded(f"state budget exceeded: an automaton of {len(delta)} states "
                             f"(budget {MAX_STATES})")
    finals = frozenset(finals)
    if not finals:
        return NOTHING
    block = _hopcroft(len(delta), len(classes), delta, finals)
    rows: dict[int, list[int]] = {}
    for q, row in enumerate(delta):
        if block[q] not in rows:
            rows[block[q]] = [block[t] for t in row]
    names = {b: i for i, b in enumerate(sorted(rows, key=lambda b: b != block[0]))}
    table = [None] * len(names)
    for b, row in rows.items():
        table[names[b]] = [names[t] for t in row]
    return _canonical(classes, table, frozenset(names[block[q]] for q in finals))


def _hopcroft(n: int, nsym: int, delta, finals: frozenset[int]) -> list[int]:
    """Block number of each state under language equivalence (Hopcroft 1971: split blocks by
    the predecessors of the smaller half, each (block, symbol) pair queued once)."""
    inv: list[dict[int, list[int]]] = [{} for _ in range(nsym)]
    for q, row in enumerate(delta):
        for k, t in enumerate(row):
            inv[k].setdefault(t, []).append(q)
    blocks: list[set[int]] = [set(finals), set(range(n)) - finals]
    if not blocks[1]:
        blocks.pop()
    block = [0 if q in finals else 1 for q in range(n)]
    work = {(len(blocks) - 1 if len(blocks) == 2 and len(blocks[1]) < len(blocks[0]) else 0, k)
            for k in range(nsym)}
    while work:
        b, k = work.pop()
        pre = inv[k]
        touched: dict[int, set[int]] = {}
        for t in blocks[b]:
            for q in pre.get(t, ()):
                touched.setdefault(block[q], set()).add(q)
        for y, inside in touched.items():
            if len(inside) == len(blocks[y]):
                continue
            blocks[y] -= inside
            new = len(blocks)
            blocks.append(inside)
            for q in inside:
                block[q] = new
            for c in range(nsym):
                if (y, c) in work:
                    work.add((new, c))
                else:
                    work.add((new, c) if len(inside) <= len(blocks[y]) else (y, c))
    return block


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
    """``a`` and ``b`` combined by ``mode``: ``"and"`` (intersection, the product automaton),
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
    classes, keys = refine(a.classes, b.classes)
    ids = {(0, 0): 0}
    order = [(0, 0)]
    rows: list[list[int]] = []
    i = 0
    while i < len(order):
        if len(order) > MAX_STATES:
            raise BudgetExceeded(f"state budget exceeded: a product of more than {MAX_STATES} "
                                 "states")
        p, q = order[i]
        ra, rb = a.delta[p], b.delta[q]
        row = []
        for ka, kb in keys:
            pair = (ra[ka], rb[kb])
            j = ids.get(pair)
            if j is None:
                j = ids[pair] = len(order)
                order.append(pair)
            row.append(j)
        rows.append(row)
        i += 1
    return make(classes, rows, [j for j, (p, q) in enumerate(order)
                                if p in a.finals and q in b.finals])


def complement(a: Dfa) -> Dfa:
    """The automaton accepting exactly the strings ``a`` rejects (final states swapped on the
    complete canonical table; the result is canonical as it stands)."""
    return Dfa(a.classes, a.delta, frozenset(range(a.size)) - a.finals)
