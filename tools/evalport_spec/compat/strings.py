"""String constraints of a canon as regular languages (:mod:`evalport_spec.regular`).

``minLength``/``maxLength`` (code points), every ``pattern`` (ECMA-262, unanchored search) and
every asserted ``format`` whose language is regular become one :class:`~evalport_spec.regular.Lang`
each; a string is valid under a canon's string keywords iff it is in all of them (JSON Schema
2020-12 Validation 6.3). Inclusion, emptiness and a shortest witness then come from the automata.

Approximations are one-sided and named: the *old* side of an inclusion may be over-approximated
(a keyword with no exact language is dropped, a format read by its ``over`` bound), the *new*
side only under-approximated (``under`` bound; a keyword with no language is not decided here).
So ``over(A) <= under(B)`` proves ``A ⊆ B`` for strings; a string in their difference is only a
candidate witness, confirmed by the validators like every other.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .canon import Canon
from .nodes import Node, Side, asserted_formats

if TYPE_CHECKING:
    from ..regular import Lang


def _regular() -> Any:
    """:mod:`evalport_spec.regular`, imported on first use (its automata library costs about a
    second to import, which a run that reads no pattern never pays)."""
    from .. import regular
    return regular


class StringKeyword:
    """One string keyword of a canon: its code (:mod:`.kinds`), text, where it is written, and
    its language, built on first use (``None`` when it has none here; :attr:`why` says why)."""

    __slots__ = ("code", "text", "node", "ptr", "_build", "_lang", "why")

    def __init__(self, code: str, text: str, node: Node | None, ptr: str | None, build: Any) -> None:
        self.code, self.text, self.node, self.ptr = code, text, node, ptr
        self._build, self._lang, self.why = build, _UNBUILT, ""

    @property
    def lang(self) -> Lang | None:
        if self._lang is _UNBUILT:
            try:
                self._lang = self._build()
            except _regular().Unsupported as exc:
                self._lang, self.why = None, exc.reason
        return self._lang


_UNBUILT = object()


class StringLangs:
    """Builds and memoises the languages of canons' string keywords.

    Args:
        side_of: the :class:`Side` holding a node (a format is asserted per its file's dialect).
        format_assertion: whether ``format`` asserts at all.
    """

    def __init__(self, side_of: Any, format_assertion: bool = True) -> None:
        self.side_of = side_of
        self.format_assertion = format_assertion
        self._keywords: dict[tuple, list[StringKeyword]] = {}
        self._over: dict[tuple, tuple[Lang, bool]] = {}
        self._cells: dict[tuple, Any] = {}

    def keywords(self, c: Canon, bound: str) -> list[StringKeyword]:
        """The string keywords of ``c``, formats read by their ``bound`` (``"under"`` or
        ``"over"``)."""
        key = (c.key, bound)
        hit = self._keywords.get(key)
        if hit is not None:
            return hit
        out: list[StringKeyword] = []
        if c.min_len:
            n, node, ptr = c.min_len
            out.append(StringKeyword("minLength", str(n), node, ptr, lambda n=n: _regular().Lang.length(n, None)))
        if c.max_len:
            n, node, ptr = c.max_len
            out.append(StringKeyword("maxLength", str(n), node, ptr, lambda n=n: _regular().Lang.length(0, n)))
        for pat, node, ptr in c.patterns:
            out.append(StringKeyword("pattern", pat, node, ptr, lambda p=pat: _regular().Lang.pattern(p)))
        for pat, node, ptr in c.neg_patterns:  # from a `not` of a pattern: its complement
            out.append(StringKeyword("not", pat, node, ptr, lambda p=pat: ~_regular().Lang.pattern(p)))
        if self.format_assertion:
            for fmt, node, ptr in c.formats:
                side: Side = self.side_of(node)
                if fmt not in asserted_formats(side.dialect(node)):
                    continue  # an annotation in this dialect
                i = 0 if bound == "under" else 1
                out.append(StringKeyword("format", fmt, node, ptr, lambda f=fmt, i=i: _regular().Lang.format_bounds(f)[i]))
        self._keywords[key] = out
        return out

    @staticmethod
    def regular_part(c: Canon) -> bool:
        """Whether ``c`` has a ``pattern`` (or a negated one): only then are its strings worth
        reading as a language (lengths and formats alone are sampled directly: the format
        automata are large)."""
        return bool(c.patterns or c.neg_patterns)

    def over(self, c: Canon) -> tuple[Lang, bool]:
        """``(language, exact)``: a language holding every string ``c``'s string keywords accept
        (keywords without a language dropped, formats by their ``over`` bound); ``exact`` when
        nothing was dropped or widened."""
        hit = self._over.get(c.key)
        if hit is not None:
            return hit
        reg = _regular()
        lang, exact = reg.Lang.any(), True
        for kw in self.keywords(c, "over"):
            if kw.lang is None:
                exact = False
                continue
            try:
                if kw.code == "format":
                    exact = exact and kw.lang == self._under_of(kw)
                lang = lang & kw.lang
            except reg.Unsupported:
                exact = False
        self._over[c.key] = (lang, exact)
        return lang, exact

    def _under_of(self, kw: StringKeyword) -> Lang | None:
        reg = _regular()
        try:
            return reg.Lang.format_bounds(kw.text)[0]
        except reg.Unsupported:
            return None

    @staticmethod
    def finite(values: list[str]) -> Lang:
        """The language holding exactly the strings ``values``."""
        reg = _regular()
        lang = reg.Lang.nothing()
        for v in values:
            lang = lang | reg.Lang.literal(v)
        return lang

    @staticmethod
    def includes(a: Lang, b: Lang) -> bool:
        """Whether every string of ``a`` is in ``b`` (``False`` past the automata's budget)."""
        try:
            return a <= b
        except _regular().Unsupported:
            return False

    @staticmethod
    def difference(a: Lang, b: Lang, n: int = 3) -> list[str]:
        """Up to ``n`` strings of ``a`` outside ``b`` (:func:`shortest`)."""
        try:
            return shortest(a - b, n)
        except _regular().Unsupported:
            return []

    def disjoint(self, a: Canon, b: Canon) -> bool:
        """Whether no string satisfies both canons' string keywords (``False`` when unknown)."""
        try:
            return (self.over(a)[0] & self.over(b)[0]).is_empty()
        except _regular().Unsupported:
            return False

    def cells(self, pats: list[str], declared: set[str], names: Lang | None, limit: int) -> Any:
        """The non-empty cells of the partition of member names by the regexes ``pats``:
        ``[(regexes matched, a name in it or None)]`` for names outside ``declared`` (and inside
        ``names`` when given), found by splitting languages regex by regex and pruning empty
        intersections; ``"too many"`` past ``limit`` cells; ``None`` when a regex has no
        language here. A cell holding only declared names keeps ``None`` for its name (the
        caller then reports it undecided: no undeclared name was found). Memoised."""
        key = (tuple(pats), frozenset(declared), names)
        if key in self._cells:
            return self._cells[key]
        reg = _regular()
        try:
            langs = [reg.Lang.pattern(p) for p in pats]
            out: list[tuple[frozenset, str | None]] | str = []
            stack = [(0, frozenset(), reg.Lang.any() if names is None else names)]
            while stack:
                i, cell, lang = stack.pop()
                if lang.is_empty():
                    continue
                if i == len(pats):
                    # a name outside the declared ones: among the first members of the cell
                    pick = next((x for x in lang.examples(len(declared) + 2) if x not in declared), None)
                    out.append((cell, pick))
                    if len(out) > limit:
                        out = "too many"
                        break
                    continue
                stack.append((i + 1, cell, lang - langs[i]))
                stack.append((i + 1, cell | {pats[i]}, lang & langs[i]))
        except reg.Unsupported:
            out = None
        self._cells[key] = out
        return out


def shortest(lang: Lang, n: int = 3) -> list[str]:
    """Up to ``n`` members of ``lang`` (least first, boundary cases next), ``[]`` when none can be
    produced within the automata's budget."""
    try:
        return lang.examples(n)
    except _regular().Unsupported:
        return []
