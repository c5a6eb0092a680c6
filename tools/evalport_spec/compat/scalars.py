"""Inclusion for the scalar types of ``A ⊆ B``: the ``type`` gate, values (``enum``/``const``,
``null``, ``boolean``), numbers (exact intervals with exclusive bounds, ``multipleOf`` on exact
decimals, ``integer`` by dialect) and strings (regular languages, :mod:`.strings`).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from ..canonjson import canonical
from ..jsontypes import json_type
from .canon import Canon
from .fail import Fail, located, short
from .nodes import asserted_formats
from .sample import is_json_type

RANGE_VALUES = 4096
"""Most integers in a bounded integer range that :meth:`ScalarRules._range_values_missing`
enumerates against an ``enum`` (a larger range is left to the witness search)."""
MISSING_SHOWN = 4
"""Integers missing from the ``enum`` offered as witness candidates."""


class ScalarRules:
    """Mixin of :class:`~.subset.Checker`: types, values, numbers and strings."""

    def _value_fail(self, A: Canon, B: Canon, v: Any) -> Fail:
        t = json_type(v)
        item: Any = v
        if not B.allows(t) or (B.int_literal and isinstance(v, float) and not B.allows("number")):
            code, msg, b = "type", f"type {t} (value {short(v)}) is accepted by the {{A}} schema and rejected by the {{B}} schema", B.int_literal or B.type_src
            item = "number" if B.allows(t) else t  # B allows t: a draft-04 integer rejects 1.0
        elif B.enum_keys is not None and canonical(v) not in B.enum_keys:
            code, msg, b = "enum", f"value {short(v)} is in the {{A}} enum/const and not in the {{B}} one", B.enum_src
        else:
            code, msg, b = "value", f"value {short(v)} is accepted by the {{A}} schema and rejected by the {{B}} schema", None
        f = Fail(code, msg, A.enum_src or A.type_src or located(A), b or located(B), item=item)
        f.witness = [v]
        return f

    def _type_gate(self, A: Canon, B: Canon, t: str, hint_t: str) -> Fail | None:
        if not B.allows(t):
            return self._fail("type", f"type {t} is accepted by the {{A}} schema and rejected by the {{B}} schema", A, B, A.type_src, B.type_src,
                              {"type": hint_t}, item=t, must=lambda w: is_json_type(w, t))
        if B.enum is not None:
            missing = self._range_values_missing(A, B) if t == "integer" else None
            if missing != [] and not (t == "string" and self._strings_in_values(A, B)):
                return self._fail("enum-new", f"an enum/const in the {{B}} schema restricts {t} values the {{A}} schema accepts", A, B, A.type_src,
                                  B.enum_src, {"type": hint_t, "values": [*(missing or ()), *B.enum]})
        if B.types is not None:
            self.prove("type-included", f"type {t}", A.type_src, B.type_src)
        return None

    def _strings_in_values(self, A: Canon, B: Canon) -> bool:
        """Whether every string ``A`` accepts is one of ``B``'s ``enum``/``const`` strings: ``A``'s
        string language (over-approximated, :meth:`.strings.StringLangs.over`) inside the finite
        language of those values, as ``pattern: "^k8$"`` is inside ``const: "k8"`` (ECMA-262:
        ``$`` matches only at the end). Only for an ``A`` with a ``pattern`` (a language worth
        building); records the step ``values-cover-language`` at that ``pattern``."""
        values = [v for v in B.enum or () if isinstance(v, str)]
        if not values or not self.strings.regular_part(A):
            return False
        if not self.strings.includes(self.strings.over(A)[0], self.strings.finite(values)):
            return False
        a_loc = A.patterns[0].at if A.patterns else located(A)
        self.prove("values-cover-language", f"{len(values)} string value(s)", a_loc, B.enum_src)
        return True

    def _range_values_missing(self, A: Canon, B: Canon) -> list[int] | None:
        """The integers ``A`` accepts that are none of ``B``'s ``enum``/``const`` values (the
        first :data:`MISSING_SHOWN`), ``[]`` when there is none, as ``{"type": "integer",
        "minimum": 1, "maximum": 3}`` inside ``{"enum": [1, 2, 3]}``; ``None`` when this is not
        decided by enumeration. Only for an ``A`` of integers only, bounded on both sides, with
        at most :data:`RANGE_VALUES` integers in its range: each integer of the range that
        ``A``'s ``multipleOf`` admits (exact rational arithmetic) is looked up among ``B``'s
        values by its canonical text, where ``1`` and ``1.0`` are one number (2020-12 Core
        4.2.2). ``A``'s other keywords only remove integers, so ``[]`` over the whole range is a
        proof (recorded as ``values-cover-range`` at ``A``'s ``type``); a missing integer is only
        a witness candidate, verified like any other."""
        if B.enum_keys is None or A.lo is None or A.hi is None:
            return None
        lo, hi = _int_lo(A.lo), _int_hi(A.hi)
        if hi - lo + 1 > RANGE_VALUES:
            return None
        missing = [n for n in range(int(lo), int(hi) + 1)
                   if all((n / m).denominator == 1 for m, _, _ in A.mult) and canonical(n) not in B.enum_keys]
        if not missing:
            self.prove("values-cover-range", f"{max(int(hi - lo) + 1, 0)} integer(s) from {int(lo)} to {int(hi)}",
                       A.type_src or (A.lo.src, A.lo.ptr), B.enum_src)
        return missing[:MISSING_SHOWN]

    def _numbers(self, A: Canon, B: Canon) -> list[Fail]:
        ints_only = not A.allows("number") or any(m.denominator == 1 for m, _, _ in A.mult)
        t = "integer" if ints_only else "number"
        if not ints_only and not B.allows("number") and B.allows("integer"):
            return [self._fail("type", "non-integer numbers are accepted by the {A} schema and rejected by the {B} schema", A, B, A.type_src,
                               B.type_src, {"type": "number", "values": [0.5, 1.5]}, item="number",
                               must=lambda w: json_type(w) == "number")]
        gate = self._type_gate(A, B, t, t)
        if gate:
            return [gate]
        fails = []
        if B.int_literal and not A.int_literal:
            # draft-04 integer: 1.0 is not one; the A side accepts integral floats
            fails.append(self._fail("type", "integral numbers written with a fraction (such as 1.0) are "
                                    "accepted by the {A} schema and rejected by the {B} schema (draft-04 "
                                    "'integer')", A, B, A.type_src, B.int_literal,
                                    {"type": "number", "floats": True}, item="number",
                                    must=lambda w: isinstance(w, float)))
        hint = {"type": t, "numbers": [b.value for b in (A.lo, A.hi, B.lo, B.hi) if b]}
        for b, a in ((B.lo, A.lo), (B.hi, A.hi)):
            if b and (_covers_lo if b is B.lo else _covers_hi)(a, b, ints_only):
                up = b is B.hi
                self.prove("bound-covered", f"{_show(a, up)} on the compared side, {_show(b, up)} on the other"
                           + (" (integers)" if ints_only else ""), (a.src, a.ptr), (b.src, b.ptr))
        if B.lo and not _covers_lo(A.lo, B.lo, ints_only):
            fails.append(self._fail("minimum", f"lower bound {_show(A.lo)} in the {{A}} schema, {_show(B.lo)} in the {{B}} schema", A, B,
                                    (A.lo.src, A.lo.ptr) if A.lo else None, (B.lo.src, B.lo.ptr), hint))
        if B.hi and not _covers_hi(A.hi, B.hi, ints_only):
            fails.append(self._fail("maximum", f"upper bound {_show(A.hi, True)} in the {{A}} schema, {_show(B.hi, True)} in the {{B}} schema", A, B,
                                    (A.hi.src, A.hi.ptr) if A.hi else None, (B.hi.src, B.hi.ptr), hint))
        for mb, node, ptr in B.mult:
            if any((ma / mb).denominator == 1 for ma, _, _ in A.mult):
                self.prove("multiple-of-divides", f"multipleOf {_emit(mb)} divides the old one", A.mult[0][1:], (node, ptr))
                continue
            if ints_only and (1 / mb).denominator == 1:
                self.prove("multiple-of-divides", f"multipleOf {_emit(mb)} divides every integer", None, (node, ptr))
                continue
            a = A.mult[0][1:] if A.mult else None
            fails.append(self._fail("multipleOf", f"multipleOf {_emit(mb)} in the {{B}} schema rejects values of the {{A}} schema", A, B, a,
                                    (node, ptr), hint))
        return fails

    def _strings(self, A: Canon, B: Canon) -> list[Fail]:
        """Strings: each string keyword of ``B`` against the language of ``A``'s (regular
        languages, :mod:`.strings`): inclusion is a proof, a member of the difference the
        witness candidate. A ``B`` keyword with no language here (a backreference, a format that
        is not regular) is proved only by the same keyword in ``A``."""
        gate = self._type_gate(A, B, "string", "string")
        if gate:
            return [gate]
        fails = []
        a_same = {(kw.code, kw.text) for kw in self.strings.keywords(A, "over")}
        for fmt in B.formats:
            if not self.format_assertion or fmt.text not in asserted_formats(self.canon.side(fmt.node).dialect(fmt.node)):
                self.prove("format-annotation", f"format {fmt.text!r} asserts nothing here", None, fmt.at)
        for kw in self.strings.keywords(B, "under"):
            if (kw.code, kw.text) in a_same and kw.code in ("pattern", "format"):
                self.prove("same-keyword", f"{kw.code} {kw.text!r}", located(A), (kw.node, kw.ptr))
                continue  # the same keyword on both sides
            lang = None
            if kw.code == "format" and not self.strings.regular_part(A):
                strings = []  # A's strings are any of some lengths: the sampler's strings break a format
            elif kw.lang is not None:
                lang = kw.lang
                la = self.strings.over(A)[0]
                if self.strings.includes(la, kw.lang):
                    self.prove("language-included", f"{kw.code} {kw.text}", located(A), (kw.node, kw.ptr))
                    continue
                strings = self.strings.difference(la, kw.lang)
                if not strings and kw.code in ("minLength", "maxLength") and self._length_implied(A, kw):
                    self.prove("length-covered", f"{kw.code} {kw.text}", located(A), (kw.node, kw.ptr))
                    continue
            else:
                strings = self._sampled_strings(A, kw)
            code = "pattern-new" if kw.code == "pattern" and not A.patterns else kw.code
            a_loc = {"minLength": A.min_len.at if A.min_len else None,
                     "maxLength": A.max_len.at if A.max_len else None,
                     "pattern": A.patterns[0].at if A.patterns else None,
                     "format": A.formats[0].at if A.formats else None, "not": None}[kw.code]
            fails.append(self._fail(code, _string_message(kw, A), A, B, a_loc, (kw.node, kw.ptr),
                                    {"type": "string", "strings": strings},
                                    must=(lambda w, lang=lang: isinstance(w, str) and w not in lang) if lang is not None else None))
            if lang is None and kw.code != "format" and not fails[-1].witness:
                fails[-1].message += f" (no regular language: {kw.why})"
        return fails

    @staticmethod
    def _length_implied(A: Canon, kw) -> bool:
        """Whether ``A``'s own length bounds imply the ``B`` bound ``kw`` (the language check
        could not answer)."""
        n = int(kw.text)
        if kw.code == "minLength":
            return bool(A.min_len) and A.min_len.value >= n
        return bool(A.max_len) and A.max_len.value <= n

    def _sampled_strings(self, A: Canon, kw) -> list[str]:
        """Candidate strings of ``A`` that break a ``B`` keyword with no language here."""
        lo = A.min_len.value if A.min_len else 0
        hi = A.max_len.value if A.max_len else None
        strings: list[str] = []
        if kw.code == "pattern":
            for ap, _, _ in A.patterns:
                strings += self.sampler.regex_samples(ap, lo, hi, reject=kw.text)
        return strings


def _string_message(kw, A: Canon) -> str:
    if kw.code == "minLength":
        return f"minLength {A.min_len.value if A.min_len else 0} in the {{A}} schema, {kw.text} in the {{B}} schema"
    if kw.code == "maxLength":
        return f"maxLength {A.max_len.value if A.max_len else 'unbounded'} in the {{A}} schema, {kw.text} in the {{B}} schema"
    if kw.code == "format":
        return f"format {kw.text!r} (asserted) of the {{B}} schema rejects strings the {{A}} schema accepts"
    if kw.code == "not":
        return f"a 'not' of pattern {kw.text!r} in the {{B}} schema rejects strings the {{A}} schema accepts"
    return f"pattern {kw.text!r} of the {{B}} schema rejects strings the {{A}} schema accepts"


def _int_lo(b) -> Fraction:
    v = b.value
    if b.excl:
        return Fraction(v.numerator // v.denominator + 1)
    return Fraction(-((-v.numerator) // v.denominator))


def _int_hi(b) -> Fraction:
    v = b.value
    fl = Fraction(v.numerator // v.denominator)
    if b.excl and fl == v:
        return fl - 1
    return fl


def _covers_lo(a, b, ints: bool) -> bool:
    """Whether old lower bound ``a`` (None = unbounded) is at least new bound ``b``."""
    if a is None:
        return False
    if ints:
        return _int_lo(a) >= _int_lo(b)
    return a.value > b.value or (a.value == b.value and (a.excl or not b.excl))


def _covers_hi(a, b, ints: bool) -> bool:
    if a is None:
        return False
    if ints:
        return _int_hi(a) <= _int_hi(b)
    return a.value < b.value or (a.value == b.value and (a.excl or not b.excl))


def _emit(f: Fraction) -> Any:
    return int(f) if f.denominator == 1 else float(f)


def _show(b, upper: bool = False) -> str:
    """A bound as text: ``5``, ``>5`` (exclusive lower), ``<5`` (exclusive upper), ``none``."""
    return f"{('<' if upper else '>') if b.excl else ''}{_emit(b.value)}" if b else "none"


