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

from dataclasses import dataclass
from typing import Any

from ..regular import Lang, Unsupported
from .canon import Canon
from .nodes import Node, Side, asserted_formats


@dataclass(frozen=True)
class StringKeyword:
    """One string keyword of a canon: its code (:mod:`.kinds`), where it is written, and its
    language (``None`` when it has none here; ``why`` says why)."""

    code: str
    text: str
    node: Node | None
    ptr: str | None
    lang: Lang | None
    why: str = ""


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
            out.append(StringKeyword("minLength", str(n), node, ptr, Lang.length(n, None)))
        if c.max_len:
            n, node, ptr = c.max_len
            out.append(StringKeyword("maxLength", str(n), node, ptr, Lang.length(0, n)))
        for pat, node, ptr in c.patterns:
            out.append(_keyword("pattern", pat, node, ptr, lambda p=pat: Lang.pattern(p)))
        for pat, node, ptr in c.neg_patterns:  # from a `not` of a pattern: its complement
            out.append(_keyword("not", pat, node, ptr, lambda p=pat: ~Lang.pattern(p)))
        if self.format_assertion:
            for fmt, node, ptr in c.formats:
                side: Side = self.side_of(node)
                if fmt not in asserted_formats(side.dialect(node)):
                    continue  # an annotation in this dialect
                i = 0 if bound == "under" else 1
                out.append(_keyword("format", fmt, node, ptr, lambda f=fmt, i=i: Lang.format_bounds(f)[i]))
        self._keywords[key] = out
        return out

    def over(self, c: Canon) -> tuple[Lang, bool]:
        """``(language, exact)``: a language holding every string ``c``'s string keywords accept
        (keywords without a language dropped, formats by their ``over`` bound); ``exact`` when
        nothing was dropped or widened."""
        hit = self._over.get(c.key)
        if hit is not None:
            return hit
        lang, exact = Lang.any(), True
        for kw in self.keywords(c, "over"):
            if kw.lang is None:
                exact = False
                continue
            if kw.code == "format":
                exact = exact and kw.lang == self._under_of(kw)
            try:
                lang = lang & kw.lang
            except Unsupported:
                exact = False
        self._over[c.key] = (lang, exact)
        return lang, exact

    def _under_of(self, kw: StringKeyword) -> Lang | None:
        try:
            return Lang.format_bounds(kw.text)[0]
        except Unsupported:
            return None


def _keyword(code: str, text: str, node: Node, ptr: str, build: Any) -> StringKeyword:
    try:
        return StringKeyword(code, text, node, ptr, build())
    except Unsupported as exc:
        return StringKeyword(code, text, node, ptr, None, exc.reason)


def shortest(lang: Lang, n: int = 3) -> list[str]:
    """Up to ``n`` members of ``lang`` (least first, boundary cases next), ``[]`` when none can be
    produced within the automata's budget."""
    try:
        return lang.examples(n)
    except Unsupported:
        return []
