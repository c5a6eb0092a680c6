"""A base for small plain record classes: equality and ``repr`` by named fields, as a
``dataclasses.dataclass`` gives them, without importing ``dataclasses`` (which imports
``inspect``, ``ast``, ``dis`` and ``tokenize``: about 6 ms of every cold process, issue 16).

A subclass writes its own ``__init__`` and names its fields in ``_FIELDS`` (their order in
``repr`` and in the comparison); ``_REPR_HIDDEN`` names fields ``repr`` leaves out and
``_EQ_HIDDEN`` fields equality ignores (a dataclass's ``field(repr=False)``, ``compare=False``).
"""

from __future__ import annotations


class Record:
    """Equal to another instance of the very same class whose compared fields are equal (else
    ``NotImplemented``), unhashable (equal by value and mutable), and shown as
    ``Name(field=value, ...)``: the ``__eq__``, ``__hash__`` and ``__repr__`` of a dataclass
    with the same fields and flags."""

    __slots__ = ()
    _FIELDS: tuple[str, ...] = ()
    _REPR_HIDDEN: frozenset[str] = frozenset()
    _EQ_HIDDEN: frozenset[str] = frozenset()

    def _compared(self) -> tuple[object, ...]:
        return tuple(getattr(self, n) for n in self._FIELDS if n not in self._EQ_HIDDEN)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._compared() == other._compared()  # type: ignore[attr-defined]

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        shown = ", ".join(f"{n}={getattr(self, n)!r}" for n in self._FIELDS if n not in self._REPR_HIDDEN)
        return f"{type(self).__qualname__}({shown})"
