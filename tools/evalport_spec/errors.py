"""Error types shared by every engine.

Every error the user can cause is an :class:`InputError` (exit code 2 at the CLI) carrying the
file and, where known, the line and column, so the CLI prints exactly one line:
``path:line:col: message``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


class EvalportError(Exception):
    """Base class of every error raised on purpose by this package."""


@dataclass
class InputError(EvalportError):
    """Bad input: unreadable file, malformed JSON, broken ``$ref``, unknown version, ...

    Attributes:
        message: one line, no trailing period required.
        source: file path (or a label such as ``git:REF:PATH``) the problem is in, or ``None``.
        line, column: 1-based position in ``source`` where known.
        pointer: JSON Pointer (RFC 6901) of the offending location where known.
    """

    message: str
    source: str | Path | None = None
    line: int | None = None
    column: int | None = None
    pointer: str | None = None

    def __post_init__(self) -> None:
        super().__init__(self.format())

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
        return f"{where}: {msg}" if where else msg

    def __str__(self) -> str:  # dataclass would otherwise override Exception.__str__
        return self.format()


class UsageError(EvalportError):
    """The command line itself is wrong (exit code 2)."""
