"""Strings for JSON Schema ``format``, ``pattern`` and length constraints.

Two jobs, both pure functions of their arguments (and of the ``random.Random`` passed in):

* :data:`FORMAT_SAMPLES`: stock values for the formats of JSON Schema 2020-12 Validation,
  section 7.3 (``date-time``/``date``/``time``/``duration`` from RFC 3339, ``email`` from RFC 5321,
  ``uri`` from RFC 3986, ``uuid`` from RFC 4122, ...), the first of each list the shortest;
* :func:`regex_sample`: a string matching a regular expression, built from the parsed pattern
  (Python's ``re`` parser, which agrees with ECMA-262 on the common subset that schemas use).
  Unsupported constructs give ``None``; callers always re-check with :func:`pattern_matches`
  (ECMA-262, :mod:`evalport_spec.ecmaregex`) because
  JSON Schema patterns are not anchored (Validation, section 6.3.3) and look-arounds are ignored
  here.
"""

from __future__ import annotations

import functools
import random
import re
from typing import Any

from ..ecmaregex import search

try:  # Python 3.11+
    import re._constants as _c
    import re._parser as _parser
except ImportError:  # pragma: no cover - Python < 3.11
    import sre_constants as _c  # type: ignore[no-redef]
    import sre_parse as _parser  # type: ignore[no-redef]

FORMAT_SAMPLES: dict[str, list[str]] = {
    "date-time": ["2024-01-02T03:04:05Z", "2024-02-29T23:59:59.123+05:30", "1999-12-31T00:00:00-08:00"],
    "date": ["2024-01-02", "2024-02-29", "1999-12-31"],
    "time": ["03:04:05Z", "23:59:59.5+01:00"],
    "duration": ["P1D", "PT1H30M", "P1Y2M3DT4H5M6S"],
    "email": ["a@example.com", "first.last@example.org"],
    "idn-email": ["a@example.com", "\u00e9@example.com"],
    "hostname": ["example.com", "a.example.org"],
    "idn-hostname": ["example.com", "\u00e9xample.com"],
    "ipv4": ["192.0.2.1", "10.0.0.255"],
    "ipv6": ["2001:db8::1", "::1"],
    "uri": ["https://example.com/", "urn:example:a", "https://example.com/a?b=c#d"],
    "uri-reference": ["a", "https://example.com/", "../a#b"],
    "iri": ["https://example.com/", "https://\u00e9xample.com/a"],
    "iri-reference": ["a", "https://\u00e9xample.com/"],
    "uri-template": ["https://example.com/{id}", "a"],
    "uuid": ["00000000-0000-4000-8000-000000000000", "123e4567-e89b-42d3-a456-426614174000"],
    "json-pointer": ["", "/a", "/a~1b/0"],
    "relative-json-pointer": ["0", "1/a", "0#"],
    "regex": ["a", "^[a-z]+$"],
}
"""Stock values per ``format`` name (shortest first); each is valid under the format's standard."""

STRING_POOL = ["a", "b", "same", "x y", "\u00e9t\u00e9", "A-1"]
"""Small pool of plain strings: drawing siblings from it makes equal values across members likely."""

_CATEGORY_CHARS = {
    _c.CATEGORY_DIGIT: "0123456789",
    _c.CATEGORY_NOT_DIGIT: "a-_ Z",
    _c.CATEGORY_SPACE: " ",
    _c.CATEGORY_NOT_SPACE: "a0-Z",
    _c.CATEGORY_WORD: "a0_Z",
    _c.CATEGORY_NOT_WORD: "- .",
}
_FALLBACK_CHARS = "a0Z-_ .x"
_MAX_EXTRA = 64
MAX_SAMPLE_LENGTH = 10_000
"""Longest string :func:`regex_sample` builds; a pattern whose counts need more (``(a{1000}){1000}``
needs a million characters) gets no sample, after at most this many characters of work."""


class _Unsupported(Exception):
    pass


def regex_sample(pattern: str, rng: random.Random | None = None, extra: int = 0) -> str | None:
    """A string matching ``pattern`` (a regular expression), or ``None`` if it cannot build one.

    Args:
        pattern: the ``pattern`` / ``patternProperties`` key of a schema.
        rng: ``None`` builds the shortest string (every repetition at its minimum, the first
            alternative, the first character of each class); a ``random.Random`` varies them.
        extra: repetitions beyond the minimum for each quantifier (capped at its maximum), used to
            reach a ``minLength``.

    The result matches ``pattern`` as a whole for the supported constructs (literals, classes,
    ``.``, quantifiers, groups, alternation, back-references, anchors); callers re-check it.
    ``None`` too when a repetition would go past :data:`MAX_SAMPLE_LENGTH` characters.
    """
    parsed = _parse(pattern)
    if parsed is None:
        return None
    groups: dict[int, str] = {}
    try:
        return _emit(list(parsed), rng, extra, groups, 0)
    except (_Unsupported, RecursionError, ValueError, IndexError):
        return None


def too_long_to_sample(pattern: str) -> bool:
    """Whether every string matching ``pattern`` is longer than :data:`MAX_SAMPLE_LENGTH` (its
    shortest match, from the parsed counts, e.g. a million for ``(a{1000}){1000}``): no sampler
    should try it. ``False`` when the pattern does not parse."""
    parsed = _parse(pattern)
    try:
        return parsed is not None and parsed.getwidth()[0] > MAX_SAMPLE_LENGTH
    except (OverflowError, RecursionError):
        return True


@functools.lru_cache(maxsize=256)
def _parse(pattern: str) -> Any:
    try:
        return _parser.parse(pattern)
    except (re.error, RecursionError, OverflowError):
        return None


def _emit(items: list[Any], rng: random.Random | None, extra: int, groups: dict[int, str],
          level: int) -> str:
    if level > 50:
        raise _Unsupported
    out: list[str] = []
    for op, av in items:
        out.append(_emit_one(op, av, rng, extra, groups, level))
    return "".join(out)


def _emit_one(op: Any, av: Any, rng: random.Random | None, extra: int, groups: dict[int, str],
              level: int) -> str:
    if op is _c.LITERAL:
        return chr(av)
    if op is _c.NOT_LITERAL:
        return next(ch for ch in _FALLBACK_CHARS if ord(ch) != av)
    if op is _c.ANY:
        return rng.choice("ab0") if rng else "a"
    if op is _c.IN:
        return _emit_class(av, rng)
    if op is _c.CATEGORY:
        return _emit_class([(op, av)], rng)
    if op in (_c.MAX_REPEAT, _c.MIN_REPEAT, getattr(_c, "POSSESSIVE_REPEAT", None)):
        lo, hi, sub = av
        hi = lo + _MAX_EXTRA if hi is _c.MAXREPEAT else hi
        count = min(hi, lo + (rng.randint(0, 3) if rng else 0) + extra)
        if count > MAX_SAMPLE_LENGTH:
            raise _Unsupported
        parts: list[str] = []
        size = 0
        for _ in range(count):
            parts.append(_emit(list(sub), rng, extra, groups, level + 1))
            size += len(parts[-1])
            if size > MAX_SAMPLE_LENGTH:
                raise _Unsupported
        return "".join(parts)
    if op is _c.SUBPATTERN:
        group, _add, _del, sub = av
        text = _emit(list(sub), rng, extra, groups, level + 1)
        if group is not None:
            groups[group] = text
        return text
    if op is _c.BRANCH:
        _, branches = av
        branch = rng.choice(branches) if rng else branches[0]
        return _emit(list(branch), rng, extra, groups, level + 1)
    if op is _c.GROUPREF:
        return groups.get(av, "")
    if op is _c.GROUPREF_EXISTS:
        group, yes, no = av
        branch = yes if group in groups else no
        return _emit(list(branch), rng, extra, groups, level + 1) if branch else ""
    if op in (_c.AT, _c.ASSERT, _c.ASSERT_NOT):
        return ""
    if op is getattr(_c, "ATOMIC_GROUP", None):
        return _emit(list(av), rng, extra, groups, level + 1)
    raise _Unsupported


def _emit_class(items: list[Any], rng: random.Random | None) -> str:
    negate = bool(items) and items[0][0] is _c.NEGATE
    if negate:
        items = items[1:]
    options: list[str] = []
    for op, av in items:
        if op is _c.LITERAL:
            options.append(chr(av))
        elif op is _c.RANGE:
            lo, hi = av
            options.append(chr(lo))
            if rng and hi > lo:
                options.append(chr(rng.randint(lo, hi)))
        elif op is _c.CATEGORY:
            options.extend(_CATEGORY_CHARS.get(av, _FALLBACK_CHARS)[:3])
        else:
            raise _Unsupported
    if negate:
        text = "".join(options)
        pool = [ch for ch in _FALLBACK_CHARS + "bcdefgh123" if not re.fullmatch(
            f"[{_class_source(items)}]", ch)] if text or items else list(_FALLBACK_CHARS)
        if not pool:
            raise _Unsupported
        return rng.choice(pool) if rng else pool[0]
    if not options:
        raise _Unsupported
    return rng.choice(options) if rng else options[0]


def _class_source(items: list[Any]) -> str:
    parts = []
    for op, av in items:
        if op is _c.LITERAL:
            parts.append(re.escape(chr(av)))
        elif op is _c.RANGE:
            parts.append(f"{re.escape(chr(av[0]))}-{re.escape(chr(av[1]))}")
        elif op is _c.CATEGORY:
            parts.append({_c.CATEGORY_DIGIT: r"\d", _c.CATEGORY_NOT_DIGIT: r"\D",
                          _c.CATEGORY_SPACE: r"\s", _c.CATEGORY_NOT_SPACE: r"\S",
                          _c.CATEGORY_WORD: r"\w", _c.CATEGORY_NOT_WORD: r"\W"}.get(av, ""))
    return "".join(parts)


def pattern_matches(pattern: str, text: str) -> bool:
    """``True`` if ``pattern`` matches anywhere in ``text`` (JSON Schema Validation 6.3.3: patterns
    are not implicitly anchored). An invalid pattern matches nothing."""
    return search(pattern, text)
