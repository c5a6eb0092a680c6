"""Why a regular language could not be built: :class:`Unsupported` and its kinds."""

from __future__ import annotations

from ..errors import EvalportError


class Unsupported(EvalportError):
    """The construct has no exact regular language here; ``reason`` names it in one line.

    Raised for non-regular ECMA-262 constructs (backreferences, lookaround, ``\\b``), for
    formats that are not regular or that the validators disagree on, and when a state or time
    budget is exhausted. Callers treat the question as undecided, giving ``reason``.
    """

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class InvalidPattern(Unsupported):
    """The ``pattern`` is not an ECMA-262 regular expression (with the ``u`` flag that JSON
    Schema 2020-12 Core 6.4 recommends), so it denotes no language."""


class BudgetExceeded(Unsupported):
    """Building or combining automata went past the state or time budget."""
