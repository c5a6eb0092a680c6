"""From an ECMA-262 syntax tree (:mod:`.ecma`) to the automaton of JSON Schema's ``pattern``.

JSON Schema (2020-12 Validation 6.3.3) accepts a string when the regular expression matches
*anywhere* in it, so the language of a pattern ``P`` is "strings containing a match of ``P``",
where ``^`` may only be crossed at position 0 and ``$`` only at the end of the string (no
multiline flag). The tree becomes a Thompson automaton whose empty moves are of three kinds
(plain, ``^``-guarded, ``$``-guarded); the subset construction below follows ``^`` moves only
in the initial state, ``$`` moves only when deciding acceptance at the end of the input,
restarts the match at every position, and turns any state holding a completed match into an
accept-everything sink. The resulting DFA is then minimised by :func:`.dfa.make`.

Size and time are bounded: a counted repetition is expanded (``a{3}`` is three copies of ``a``),
so before building anything :func:`expansion_size` counts the automaton states the tree would
need, products of nested counts included (``(a{1000}){1000}`` needs about a million), and a tree
over :data:`MAX_NFA_STATES` is refused at once; the subset construction is bounded by
:data:`.dfa.MAX_STATES` states and :data:`TIME_BUDGET` seconds. Exceeding any raises
:class:`~.errors.BudgetExceeded` (the caller reports the question undecided, failing closed).
"""

from __future__ import annotations

import time

from . import charset as cs
from .dfa import MAX_STATES, Dfa, make, refine
from .errors import BudgetExceeded

TIME_BUDGET = 2.0
"""Seconds one pattern may take to compile."""
MAX_NFA_STATES = 50_000
"""Most Thompson automaton states one pattern may expand to (about 0.3 s of building on the
reference machine); counted by :func:`expansion_size` before any is built."""


def expansion_size(node, cap: int = MAX_NFA_STATES) -> int:
    """An upper bound (exact without unbounded repetitions) on the automaton states
    :meth:`_Nfa.build` adds for ``node`` (an :mod:`.ecma` tree),
    saturating just above ``cap`` so nested counts (``((a{1000}){1000}){1000}``) cost nothing to
    count. Pure arithmetic on the tree: microseconds whatever the counts."""
    kind = node[0]
    if kind == "cat":
        parts = node[1]
        total = max(len(parts) - 1, 0)
        for part in parts:
            total += expansion_size(part, cap)
            if total > cap:
                return cap + 1
        return total
    if kind == "alt":
        total = 0
        for part in node[1]:
            total += expansion_size(part, cap)
            if total > cap:
                return cap + 1
        return total
    if kind != "rep":
        return 0  # chars, bol, eol: moves between existing states
    _, body, lo, hi = node
    copies = lo + (2 if hi is None else hi - lo)
    per_copy = 1 + expansion_size(body, cap)
    return min(copies * per_copy, cap + 1)


class _Nfa:
    def __init__(self) -> None:
        self.moves: list[list[tuple[cs.Charset, int]]] = []
        self.eps: list[list[int]] = []
        self.bol: list[list[int]] = []
        self.eol: list[list[int]] = []

    def state(self) -> int:
        if len(self.moves) >= MAX_NFA_STATES:
            raise BudgetExceeded(f"state budget exceeded: more than {MAX_NFA_STATES} automaton "
                                 "states from repetition counts")
        for table in (self.moves, self.eps, self.bol, self.eol):
            table.append([])
        return len(self.moves) - 1

    def build(self, node, start: int, end: int) -> None:
        """Add the fragment for ``node`` between states ``start`` and ``end``."""
        kind = node[0]
        if kind == "chars":
            if node[1]:
                self.moves[start].append((node[1], end))
        elif kind == "cat":
            cur = start
            for i, part in enumerate(node[1]):
                nxt = end if i == len(node[1]) - 1 else self.state()
                self.build(part, cur, nxt)
                cur = nxt
            if not node[1]:
                self.eps[start].append(end)
        elif kind == "alt":
            for part in node[1]:
                self.build(part, start, end)
        elif kind == "bol":
            self.bol[start].append(end)
        elif kind == "eol":
            self.eol[start].append(end)
        else:  # rep
            _, body, lo, hi = node
            cur = start
            for _ in range(lo):
                nxt = self.state()
                self.build(body, cur, nxt)
                cur = nxt
            if hi is None:
                loop = self.state()
                self.eps[cur].append(loop)
                back = self.state()
                self.build(body, loop, back)
                self.eps[back].append(loop)
                self.eps[loop].append(end)
            else:
                for _ in range(hi - lo):
                    nxt = self.state()
                    self.build(body, cur, nxt)
                    self.eps[cur].append(end)
                    cur = nxt
                self.eps[cur].append(end)

    def closure(self, states, *, bol: bool, eol: bool) -> frozenset[int]:
        seen = set(states)
        todo = list(states)
        while todo:
            q = todo.pop()
            nexts = self.eps[q]
            if bol:
                nexts = nexts + self.bol[q]
            if eol:
                nexts = nexts + self.eol[q]
            for t in nexts:
                if t not in seen:
                    seen.add(t)
                    todo.append(t)
        return frozenset(seen)


def compile_tree(tree, source: str) -> Dfa:
    """The canonical DFA of the strings containing a match of ``tree`` (see module docstring).

    ``source`` only labels budget errors.
    """
    deadline = time.monotonic() + TIME_BUDGET
    needed = expansion_size(tree)
    if needed > MAX_NFA_STATES:
        raise BudgetExceeded(f"size budget exceeded: the repetition counts of {source!r} expand "
                             f"to more than {MAX_NFA_STATES} automaton states")
    nfa = _Nfa()
    start, final = nfa.state(), nfa.state()
    nfa.build(tree, start, final)
    charsets = sorted({c for row in nfa.moves for c, _ in row})
    index = {c: j for j, c in enumerate(charsets)}
    # symbol k of the DFA: keys[k][j] == 0 means class k lies inside charsets[j]
    classes, keys = refine(*[(c, cs.complement(c)) for c in charsets] or [(cs.ALL,)])
    restart = nfa.closure([start], bol=False, eol=False)

    def accepting_now(states) -> bool:
        return final in states

    def accepting_at_end(states, first: bool) -> bool:
        return final in nfa.closure(states, bol=first, eol=True)

    MATCHED = "matched"
    init = nfa.closure([start], bol=True, eol=False)
    init_key = MATCHED if accepting_now(init) else (init, True)
    ids = {init_key: 0}
    order = [init_key]
    rows: list[list[int]] = []
    finals: list[int] = []
    i = 0
    while i < len(order):
        key = order[i]
        if len(order) > MAX_STATES:
            raise BudgetExceeded(f"state budget exceeded: pattern {source!r} needs more than "
                                 f"{MAX_STATES} automaton states")
        if time.monotonic() > deadline:
            raise BudgetExceeded(f"time budget exceeded: pattern {source!r} took more than "
                                 f"{TIME_BUDGET:g} s to compile")
        if key == MATCHED:
            finals.append(i)
            rows.append([i] * len(classes))
            i += 1
            continue
        states, first = key
        if accepting_at_end(states, first):
            finals.append(i)
        row = []
        for k in range(len(classes)):
            targets = set(restart)
            for q in states:
                for c, t in nfa.moves[q]:
                    if keys[k][index[c]] == 0:
                        targets.add(t)
            nxt = nfa.closure(targets, bol=False, eol=False)
            nkey = MATCHED if accepting_now(nxt) else (nxt, False)
            if nkey not in ids:
                ids[nkey] = len(order)
                order.append(nkey)
            row.append(ids[nkey])
        rows.append(row)
        i += 1
    return make(classes, rows, finals)
