"""The one colour rule (no-color.org): ANSI colour and the ``✓``/``✗`` marks only when the
stream is a terminal and ``NO_COLOR`` is unset or empty; otherwise plain ASCII words."""

from __future__ import annotations

import os
import sys
from typing import Any

_SGR = {"MAJOR": "31", "UNDECIDED": "31", "error": "31", "fail": "31",
        "MINOR": "33", "warning": "33", "warn": "33",
        "PATCH": "32", "ok": "32", "info": "36", "note": "36", "skip": "90"}
_MARK = {"ok": "✓", "fail": "✗", "warn": "!", "skip": "-"}
_WORD = {"ok": "ok", "fail": "FAIL", "warn": "warn", "skip": "skip"}


def use_color(stream: Any = None) -> bool:
    """True when ``stream`` (default standard output) is a terminal and ``NO_COLOR`` is unset or
    empty (no-color.org); a stream without ``isatty`` (or whose ``isatty`` fails) is not one."""
    if os.environ.get("NO_COLOR"):
        return False
    stream = sys.stdout if stream is None else stream
    try:
        return bool(stream.isatty())
    except (AttributeError, OSError, ValueError):
        return False


def paint(text: str, key: str, color: bool) -> str:
    """``text`` in the colour of ``key`` (a class name ``MAJOR``..., a severity ``error``..., or
    a status ``ok``/``fail``/``warn``/``skip``) when ``color``; unchanged otherwise or for a key
    without a colour."""
    sgr = _SGR.get(key)
    return f"\x1b[{sgr}m{text}\x1b[0m" if color and sgr else text


def mark(status: str, color: bool) -> str:
    """The mark of a status: ``✓``/``✗``/``!``/``-`` in colour when ``color``, else the
    four-letter words ``ok  ``/``FAIL``/``warn``/``skip`` (padded to one width)."""
    if color:
        return paint(_MARK.get(status, "?"), status, True)
    return f"{_WORD.get(status, status):<4}"
