"""The :class:`Lang` value: a set of strings, as JSON Schema's string keywords describe them.

A language is kept as *pieces by length*: consecutive length intervals ``[lo, hi]`` covering
``0..inf``, each with a canonical DFA (:mod:`.dfa`); the language is the union over the pieces of
"strings the DFA accepts whose length (in code points) lies in the interval". Length bounds
(``minLength``/``maxLength``, Validation 6.3.1-6.3.2, which count code points as both validators
do) therefore cost nothing however large they are, and every Boolean operation works piece by
piece on automata no bigger than the patterns'.

Deciding (``is_empty``, ``<=``, ``==``) is exact. Witnesses are the least members in the order
"shorter first, then character by character in :func:`.charset.rank` order" (printable ASCII
first), filtered so that python-jsonschema and jsonschema-rs agree with our ECMA-262 reading on
every ``pattern``/``format`` the language was built from (:mod:`.oracles`).
"""

from __future__ import annotations

import heapq
from collections.abc import Iterator
from functools import lru_cache

from . import charset as cs
from . import ecma, oracles
from .dfa import EVERYTHING, MAX_STATES, NOTHING, Dfa, complement, product
from .errors import BudgetExceeded, Unsupported
from .formats import FORMATS, UNSUPPORTED
from .nfa import compile_tree

Piece = tuple[int, "int | None", Dfa]
MAX_CANDIDATES = 200
"""Most candidate strings tried for one witness before giving up (:class:`Unsupported`)."""
_REPS = 3
"""Characters tried per code-point class when enumerating candidate witnesses."""


class Lang:
    """A regular language of strings (code-point sequences). Immutable and hashable; ``==``
    is language equality and ``<=`` inclusion. Build with :meth:`pattern`, :meth:`length`,
    :meth:`format`, :meth:`literal`, :meth:`any`, :meth:`nothing`; combine with ``&`` ``|``
    ``~`` ``-``. Operations raise :class:`~.errors.BudgetExceeded` (an :class:`Unsupported`)
    rather than run away.
    """

    __slots__ = ("_pieces", "_leaves", "_label", "_least", "_witness", "_samples", "__weakref__")

    def __init__(self, pieces: tuple[Piece, ...], leaves: frozenset = frozenset(),
                 label: str = "") -> None:
        self._pieces = _merge(pieces)
        self._leaves = leaves
        self._label = label
        self._least: tuple | None = None
        self._witness: tuple | None = None
        self._samples: dict[int, list[str]] = {}

    # -- construction -------------------------------------------------------------------
    @staticmethod
    def pattern(src: str) -> Lang:
        """Strings in which the ECMA-262 regular expression ``src`` finds a match (JSON
        Schema ``pattern``: Core 6.4, Validation 6.3.3; not anchored, no flags).

        Raises :class:`Unsupported` naming a non-regular construct (backreference,
        lookaround, ``\\b``), :class:`~.errors.InvalidPattern` for a syntax error and
        :class:`~.errors.BudgetExceeded` past the state or time budget.
        """
        return _pattern(src)

    @staticmethod
    def length(min: int = 0, max: int | None = None) -> Lang:  # noqa: A002 - contract names
        """Strings of ``min`` to ``max`` code points (``max`` ``None``: no upper bound)."""
        return _length(min, max)

    @staticmethod
    def format(name: str) -> Lang:
        """Strings the asserted ``format`` ``name`` accepts, where python-jsonschema and
        jsonschema-rs accept the same regular language (``ipv4``, ``json-pointer``, ...).

        Raises :class:`Unsupported` for a format that is not regular, not modelled, or read
        differently by the two validators (``date``, ``date-time``, ``time``, ``uuid``: use
        :meth:`format_bounds` for those).
        """
        under, over = _format_bounds(name)
        if under != over:
            raise Unsupported(f"format {name!r}: the validators disagree "
                              f"({FORMATS[name].note}); use Lang.format_bounds")
        return under

    @staticmethod
    def format_bounds(name: str) -> tuple[Lang, Lang]:
        """``(under, over)`` for the asserted ``format`` ``name``: ``under`` holds exactly the
        strings both validators accept, ``over`` every string either accepts (a superset of
        that union where :data:`.formats.FORMATS` says ``over_exact=False``). A proof that a
        format's strings fit a language uses ``over``; one that a language fits a format
        uses ``under``. Raises :class:`Unsupported` with the reason for other formats."""
        return _format_bounds(name)

    @staticmethod
    def literal(s: str) -> Lang:
        """The language holding exactly the string ``s``."""
        tree = ("cat", (("bol",), *(("chars", ((ord(c), ord(c)),)) for c in s), ("eol",)))
        return Lang(((0, None, compile_tree(tree, s)),), label=f"literal({s!r})")

    @staticmethod
    def any() -> Lang:
        """Every string."""
        return _ANY

    @staticmethod
    def nothing() -> Lang:
        """No string."""
        return _NOTHING

    # -- Boolean operations --------------------------------------------------------------
    def __and__(self, other: Lang) -> Lang:
        return self._binary(other, "and", "&")

    def __or__(self, other: Lang) -> Lang:
        return self._binary(other, "or", "|")

    def __sub__(self, other: Lang) -> Lang:
        return self._binary(other, "diff", "-")

    def __invert__(self) -> Lang:
        return Lang(tuple((lo, hi, complement(d)) for lo, hi, d in self._pieces),
                    self._leaves, f"~({self._label})")

    def _binary(self, other: Lang, mode: str, sign: str) -> Lang:
        if not isinstance(other, Lang):
            return NotImplemented
        return Lang(_combine(self._pieces, other._pieces, mode), self._leaves | other._leaves,
                    f"({self._label}) {sign} ({other._label})")

    # -- decisions ----------------------------------------------------------------------
    def is_empty(self) -> bool:
        """Whether no string belongs to the language."""
        return self._least_member() is None

    def __le__(self, other: Lang) -> bool:
        """Inclusion: every member of ``self`` is a member of ``other``."""
        if not isinstance(other, Lang):
            return NotImplemented
        return _included(self._pieces, other._pieces)

    def __eq__(self, other: object) -> bool:
        """Language equality."""
        if not isinstance(other, Lang):
            return NotImplemented
        return self._pieces == other._pieces or (self <= other and other <= self)

    def __hash__(self) -> int:
        """Hash of the least member, a property of the language alone (so equal languages
        hash alike whatever their construction)."""
        return hash(self._least_member())

    def __contains__(self, s: str) -> bool:
        """Membership of the string ``s``."""
        n = len(s)
        for lo, hi, d in self._pieces:
            if lo <= n and (hi is None or n <= hi):
                return d.accepts(s)
        return False  # unreachable: the pieces cover every length

    def __repr__(self) -> str:
        return f"Lang<{self._label}>"

    # -- witnesses ----------------------------------------------------------------------
    def example(self) -> str | None:
        """A least member (shortest, then printable ASCII first) on which python-jsonschema
        and jsonschema-rs agree with this language's verdict for every ``pattern``/``format``
        it was built from; ``None`` when the language is empty.

        Raises :class:`Unsupported` when the language is not empty but none of the first
        :data:`MAX_CANDIDATES` candidates is one the validators agree on.
        """
        if self._witness is None:
            found = next(self._agreeing(), None)
            if found is None and not self.is_empty():
                raise Unsupported(f"no witness for {self!r} on which ECMA-262, Python re and "
                                  f"jsonschema-rs agree among {MAX_CANDIDATES} candidates")
            self._witness = (found,)
        return self._witness[0]

    def examples(self, n: int) -> list[str]:
        """Up to ``n`` distinct members on which the validators agree (see :meth:`example`):
        the least member, then boundary cases where legal: ``""``, ``"\\n"``, members with a
        line terminator, one ending in ``"\\n"``, the longest length if finite, the next
        length up, then further members in order."""
        if n not in self._samples:
            self._samples[n] = self._examples(n)
        return list(self._samples[n])

    def _examples(self, n: int) -> list[str]:
        out: list[str] = []

        def add(s: str | None) -> None:
            if s is not None and s not in out and len(out) < n:
                out.append(s)

        def least_of(extra: Lang) -> str | None:
            return next(Lang(_combine(self._pieces, extra._pieces, "and"),
                             self._leaves)._agreeing(), None)

        if self.is_empty() or n <= 0:
            return out
        add(next(self._agreeing(), None))
        for s in ("", "\n"):
            if s in self and self._agrees(s):
                add(s)
        add(least_of(_CONTAINS_NEWLINE))
        add(least_of(_CONTAINS_TERMINATOR))
        add(least_of(_ENDS_WITH_NEWLINE))
        top = self._max_length()
        if top is not None:
            add(least_of(_length(top, top)))
        shortest = len(self._least_member() or "")
        add(least_of(_length(shortest + 1, None)))
        for s in self._agreeing():
            if len(out) >= n:
                break
            add(s)
        return out

    def _agreeing(self) -> Iterator[str]:
        for i, s in enumerate(self._members()):
            if i >= MAX_CANDIDATES:
                return
            if self._agrees(s):
                yield s

    def _agrees(self, s: str) -> bool:
        for leaf in self._leaves:
            ours = s in (_pattern(leaf[1]) if leaf[0] == "pattern" else _format_bounds(leaf[1])[0])
            if not oracles.agree(leaf, s, ours):
                return False
        return True

    def _least_member(self) -> str | None:
        if self._least is None:
            self._least = (next(self._members(reps=1), None),)
        return self._least[0]

    def _members(self, reps: int = _REPS) -> Iterator[str]:
        """Members in (length, rank) order, using the ``reps`` best characters of each class."""
        for lo, hi, d in self._pieces:
            yield from _piece_members(lo, hi, d, reps)

    def _max_length(self) -> int | None:
        """The greatest length of a member, or ``None`` if unbounded (or empty)."""
        for lo, hi, d in reversed(self._pieces):
            top = _piece_max_length(lo, hi, d)
            if top == -1:
                return None
            if top is not None:
                return top
        return None


# -- pieces --------------------------------------------------------------------------------

def _merge(pieces) -> tuple[Piece, ...]:
    out: list[Piece] = []
    for lo, hi, d in pieces:
        if out and out[-1][2] == d:
            out[-1] = (out[-1][0], hi, d)
        else:
            out.append((lo, hi, d))
    return tuple(out)


@lru_cache(maxsize=8192)
def _included(a: tuple[Piece, ...], b: tuple[Piece, ...]) -> bool:
    return a == b or all(next(_piece_members(lo, hi, d, 1), None) is None
                         for lo, hi, d in _combine(a, b, "diff"))


@lru_cache(maxsize=8192)
def _combine(a: tuple[Piece, ...], b: tuple[Piece, ...], mode: str) -> tuple[Piece, ...]:
    cuts = sorted({lo for lo, _, _ in a} | {lo for lo, _, _ in b})
    out = []
    for i, lo in enumerate(cuts):
        hi = cuts[i + 1] - 1 if i + 1 < len(cuts) else None
        da = next(d for plo, phi, d in a if plo <= lo and (phi is None or lo <= phi))
        db = next(d for plo, phi, d in b if plo <= lo and (phi is None or lo <= phi))
        out.append((lo, hi, product(da, db, mode)))
    return _merge(out)


def _distances(lo: int, d: Dfa) -> dict[tuple[int, int], int]:
    """Shortest distance from each node ``(state, min(length, lo))`` to acceptance with
    length at least ``lo``; nodes that cannot get there are absent."""
    if d.size * (lo + 1) > 50 * MAX_STATES:
        raise BudgetExceeded(f"state budget exceeded: {d.size} states x minimum length {lo}")
    rev: list[set[int]] = [set() for _ in range(d.size)]
    for q, row in enumerate(d.delta):
        for t in row:
            rev[t].add(q)
    dist = {(f, lo): 0 for f in d.finals}
    frontier = list(dist)
    while frontier:
        nxt = []
        for t, c in frontier:
            step = dist[(t, c)] + 1
            if lo == 0:
                sources = [0]
            elif c == 0:
                sources = []
            else:
                sources = [c - 1] if c < lo else [lo - 1, lo]
            for sc in sources:
                for q in rev[t]:
                    if (q, sc) not in dist:
                        dist[(q, sc)] = step
                        nxt.append((q, sc))
        frontier = nxt
    return dist


@lru_cache(maxsize=1024)
def _piece_dist(lo: int, d: Dfa) -> dict[tuple[int, int], int]:
    return _distances(lo, d)


def _piece_members(lo: int, hi: int | None, d: Dfa, reps: int) -> Iterator[str]:
    """Members of one piece, the least first. Short ones (up to :data:`_SHORT` code points)
    come in (length, rank) order from a best-first search whose heuristic is the exact
    remaining distance; beyond that, the least member is followed by its variants (one
    character changed near the end, then completed least-first)."""
    if not d.finals:
        return
    dist = _piece_dist(lo, d)
    start = (0, 0)
    if start not in dist or (hi is not None and dist[start] > hi):
        return
    choices = _choices(d, reps)
    if dist[start] <= _SHORT:
        yield from _ordered(lo, hi, d, dist, choices, dist[start] + _SHORT)
        return
    least = _complete(lo, d, dist, choices, start)
    yield "".join(least)
    path = [start]
    for ch in least:
        q, c = path[-1]
        path.append((d.delta[q][d.symbol(ord(ch))], min(c + 1, lo)))
    for i in range(len(least) - 1, max(-1, len(least) - 1 - _SHORT), -1):
        q, c = path[i]
        for _, cp, k in choices:
            if chr(cp) == least[i]:
                continue
            node = (d.delta[q][k], min(c + 1, lo))
            left = dist.get(node)
            if left is None or (hi is not None and i + 1 + left > hi):
                continue
            yield "".join(least[:i]) + chr(cp) + "".join(_complete(lo, d, dist, choices, node))


_SHORT = 64


@lru_cache(maxsize=4096)
def _choices(d: Dfa, reps: int) -> list[tuple[tuple[int, int], int, int]]:
    """``(rank, code point, class)`` for the ``reps`` best code points of each class."""
    return sorted((cs.rank(cp), cp, k) for k, cls in enumerate(d.classes)
                  for cp in cs.best(cls, reps))


def _complete(lo: int, d: Dfa, dist: dict, choices, node) -> list[str]:
    """The least string leading from ``node`` to acceptance (greedy along ``dist``)."""
    out = []
    while dist[node]:
        q, c = node
        for _, cp, k in choices:
            nxt = (d.delta[q][k], min(c + 1, lo))
            if dist.get(nxt) == dist[node] - 1:
                out.append(chr(cp))
                node = nxt
                break
    return out


def _ordered(lo: int, hi: int | None, d: Dfa, dist: dict, choices, longest: int):
    """Members up to ``longest`` code points in (length, rank) order (best-first search)."""
    start = (0, 0)
    heap: list = [(dist[start], (), "", start)]
    pops = 0
    while heap and pops < 20 * MAX_STATES:
        pops += 1
        _, ranks, s, (q, c) = heapq.heappop(heap)
        if c == lo and q in d.finals:
            yield s
        n = len(s) + 1
        for r, cp, k in choices:
            node = (d.delta[q][k], min(n, lo))
            left = dist.get(node)
            if left is None or n + left > longest or (hi is not None and n + left > hi):
                continue
            heapq.heappush(heap, (n + left, ranks + (r,), s + chr(cp), node))


def _piece_max_length(lo: int, hi: int | None, d: Dfa) -> int | None:
    """Greatest member length in the piece; ``None`` if the piece is empty, ``-1`` if
    unbounded."""
    dist = _piece_dist(lo, d)
    if (0, 0) not in dist or (hi is not None and dist[(0, 0)] > hi):
        return None
    live = d.live()
    if hi is None:
        # Unbounded unless the live part reachable from the start is acyclic.
        order: list[int] = []
        state: dict[int, int] = {}

        def cyclic(q: int) -> bool:
            stack = [(q, iter(set(d.delta[q])))]
            state[q] = 1
            while stack:
                p, it = stack[-1]
                for t in it:
                    if t not in live:
                        continue
                    if state.get(t) == 1:
                        return True
                    if t not in state:
                        state[t] = 1
                        stack.append((t, iter(set(d.delta[t]))))
                        break
                else:
                    state[p] = 2
                    order.append(p)
                    stack.pop()
            return False

        if cyclic(0):
            return -1
        longest = {q: (0 if q in d.finals else None) for q in order}
        for q in order:  # post-order: successors first
            for t in set(d.delta[q]):
                if t in live and longest.get(t) is not None:
                    cand = longest[t] + 1
                    if longest[q] is None or cand > longest[q]:
                        longest[q] = cand
        return longest[0]
    if hi - lo > 100_000:
        raise BudgetExceeded(f"state budget exceeded: length range {lo}..{hi} to scan")
    reach = {0}
    best = None
    for n in range(hi + 1):
        if n >= lo and reach & d.finals:
            best = n
        reach = {t for q in reach for t in set(d.delta[q]) if t in live}
        if not reach:
            break
    return best


# -- cached constructors ------------------------------------------------------------------

@lru_cache(maxsize=4096)
def _pattern(src: str) -> Lang:
    tree = ecma.parse(src)
    return Lang(((0, None, compile_tree(tree, src)),), frozenset([("pattern", src)]),
                f"pattern({src!r})")


@lru_cache(maxsize=64)
def _format_bounds(name: str) -> tuple[Lang, Lang]:
    spec = FORMATS.get(name)
    if spec is None:
        why = UNSUPPORTED.get(name, "this format is not modelled")
        raise Unsupported(f"format {name!r} has no regular language here: {why}")
    leaf = frozenset([("format", name)])

    def union(sources: tuple[str, ...], label: str) -> Lang:
        lang = _NOTHING
        for src in sources:
            lang = lang | _pattern(src)
        return Lang(lang._pieces, leaf, f"format({name!r}).{label}")

    return union(spec.under, "under"), union(spec.over, "over")


@lru_cache(maxsize=1024)
def _length(lo: int, hi: int | None) -> Lang:
    if lo < 0 or (hi is not None and hi < lo):
        return Lang(((0, None, NOTHING),), label=f"length({lo}, {hi})")
    pieces: list[Piece] = []
    if lo > 0:
        pieces.append((0, lo - 1, NOTHING))
    pieces.append((lo, hi, EVERYTHING))
    if hi is not None:
        pieces.append((hi + 1, None, NOTHING))
    return Lang(tuple(pieces), label=f"length({lo}, {hi})")


_ANY = Lang(((0, None, EVERYTHING),), label="any")
_NOTHING = Lang(((0, None, NOTHING),), label="nothing")
_CONTAINS_NEWLINE = Lang(((0, None, compile_tree(("chars", ((10, 10),)), "\\n")),))
_CONTAINS_TERMINATOR = Lang(((0, None, compile_tree(("chars", cs.LINE_TERMINATOR), "lt")),))
_ENDS_WITH_NEWLINE = Lang(((0, None, compile_tree(("cat", (("chars", ((10, 10),)), ("eol",))),
                                                  "\\n$")),))
