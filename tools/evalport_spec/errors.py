"""Error types shared by every engine.

Every error the user can cause is an :class:`InputError` (exit code 2 at the CLI) carrying the
file and, where known, the line and column, so the CLI prints exactly one line:
``path:line:col: message``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path


class EvalportError(Exception):
    """Base class of every error raised on purpose by this package."""


_CONTROLS = {c: f"\\x{c:02x}" for c in (*range(0x20), *range(0x7F, 0xA0))}
_CONTROLS.update({ord("\n"): "\\n", ord("\r"): "\\r", ord("\t"): "\\t"})


def one_line(text: str) -> str:
    """``text`` with every C0 and C1 control character (newline, carriage return, tab, ESC,
    DEL...) written as its escape (``\\n``, ``\\x1b``): an error is one line on a terminal or in
    a log, whatever the file names in it hold (a name may contain a newline, or an ANSI escape
    sequence that would recolour or rewrite the terminal). toolchain.md, "Bad input"."""
    return text.translate(_CONTROLS)


class InputError(EvalportError):
    """Bad input: unreadable file, malformed JSON, broken ``$ref``, unknown version, ...

    Attributes:
        message: one line, no trailing period required.
        source: file path (or a label such as ``git:REF:PATH``) the problem is in, or ``None``.
        line, column: 1-based position in ``source`` where known.
        pointer: JSON Pointer (RFC 6901) of the offending location where known.
    """

    def __init__(self, message: str, source: str | Path | None = None, line: int | None = None,
                 column: int | None = None, pointer: str | None = None) -> None:
        # a plain class, not a dataclass: importing dataclasses (and inspect) would cost every
        # command's start, a cached diff's included
        self.message, self.source, self.line, self.column, self.pointer = message, source, line, column, pointer
        super().__init__(self.format())

    def _fields(self) -> tuple[object, ...]:
        return self.message, self.source, self.line, self.column, self.pointer

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._fields() == other._fields()  # type: ignore[attr-defined]

    __hash__ = None  # type: ignore[assignment]  # equal by value and mutable, as a dataclass

    def __repr__(self) -> str:
        names = ("message", "source", "line", "column", "pointer")
        return f"{type(self).__name__}({', '.join(f'{n}={v!r}' for n, v in zip(names, self._fields(), strict=True))})"

    def format(self) -> str:
        """Return the one-line ``source:line:col: message`` form used on stderr."""
        parts = []
        if self.source is not None:
            parts.append(str(self.source))
            if self.line is not None:
                parts.append(str(self.line))
                if self.column is not None:
                    parts.append(str(self.column))
        where = ":".join(parts)
        msg = self.message
        if self.pointer is not None and self.pointer != "" and f"'{self.pointer}'" not in msg:
            msg = f"{msg} (at '{self.pointer}')"
        elif self.pointer == "" and "(at" not in msg and self.line is None:
            msg = f"{msg} (at the document root)"
        return one_line(f"{where}: {msg}" if where else msg)

    def __str__(self) -> str:  # the one-line form, whatever ``args`` holds
        return self.format()


class OutputTooLarge(InputError):
    """A child program wrote more than the byte limit it was run with
    (:func:`evalport_spec.fsutil.run_bounded`); it was stopped. An :class:`InputError`, so a
    caller that does not tell it apart reports one line and exits 2; ``conformance --command``
    makes it a disagreement of the one fixture the program was answering."""


class UsageError(EvalportError):
    """The command line itself is wrong (exit code 2)."""
