"""One line and a position for a PyYAML error, whichever kind it is.

PyYAML's own ``str()`` of an error spans several lines (the problem, then ``in "<unicode
string>", line 3, column 5`` or ``position 0``), while every error this package prints is one
line naming file and place (SPEC.md's tooling rules; toolchain.md, "Bad input").
"""

from __future__ import annotations

from typing import Any


def describe(exc: Any, text: str) -> tuple[str, int | None, int | None]:
    """``(problem, line, column)`` of the ``yaml.YAMLError`` ``exc`` raised while reading ``text``;
    ``line`` and ``column`` are 1-based within ``text``, ``None`` when PyYAML gives no place.

    A scanner, parser or composer error (``MarkedYAMLError``) carries its problem and a mark; a
    reader error (``ReaderError``: a character YAML does not allow, such as NUL, or bytes that are
    no text) carries its reason and a character offset, turned into a line and column here.
    """
    mark = getattr(exc, "problem_mark", None)
    problem = getattr(exc, "problem", None)
    if problem is None and getattr(exc, "character", None) is not None:  # ReaderError
        ch = exc.character  # a code point read from text; the byte (bytes) that did not decode
        problem = (f"cannot decode byte #x{ch[0]:02x}: {exc.reason}" if isinstance(ch, bytes) else
                   f"unacceptable character #x{ch:04x}: {exc.reason}")
        position = getattr(exc, "position", None)
        if isinstance(position, int) and 0 <= position <= len(text):
            before = text[:position]
            return problem, before.count("\n") + 1, position - (before.rfind("\n") + 1) + 1
        return problem, None, None
    problem = problem or (str(exc).splitlines() or [type(exc).__name__])[0]
    if mark is not None:
        return problem, mark.line + 1, mark.column + 1
    return problem, None, None
