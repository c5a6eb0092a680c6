"""The registry of hand-rolled cross-field rules, keyed by catalogue code.

A rule is a plain function ``(document) -> Iterable[Violation]`` registered under the code its
``rules.json`` catalogue entry uses (toolchain.md, "Cross-field rules and their documented
gaps": "an implementation is registered under that code"). Rules are *defensive*: they run on
schema-invalid documents too, so they never raise on unexpected shapes; they skip whatever
they cannot read.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from ..violation import Violation

RuleImpl = Callable[..., Iterable[Violation]]
"""A rule implementation: takes the parsed document (and, as keyword arguments, the parameters it
declares), yields its :class:`Violation`\\ s."""


@dataclass(frozen=True)
class Rule:
    """A registered rule.

    Attributes:
        code: catalogue code, e.g. ``"DUPLICATE_ATTEMPT"``.
        document_type: ``suite``, ``testcase``, ``grader`` or ``resultset``.
        function: the :data:`RuleImpl`.
        parameters: names of the keyword arguments ``function`` takes from the rule's catalogue
            entry (``rules.json`` ``parameters``, e.g. ``("tolerance",)``).
    """

    code: str
    document_type: str
    function: RuleImpl
    parameters: tuple[str, ...] = ()

    def check(self, document: Any, parameters: Mapping[str, Any] | None = None) -> list[Violation]:
        """Run the rule on ``document`` with its catalogue ``parameters``; returns its
        violations (each with ``rule=True``).

        Raises:
            ValueError: a parameter the rule declares is not in ``parameters``.
        """
        return list(self.bind(parameters or {}).function(document))

    def bind(self, parameters: Mapping[str, Any]) -> Rule:
        """This rule with its declared parameters fixed from ``parameters`` (a catalogue entry's
        :meth:`~evalport_spec.catalogue.RuleEntry.parameter_values`; other names are ignored).

        Raises:
            ValueError: a declared parameter is missing (the message names it).
        """
        if not self.parameters:
            return self
        missing = [p for p in self.parameters if p not in parameters]
        if missing:
            raise ValueError(f"rule {self.code} needs the catalogue parameter(s) {', '.join(missing)}")
        values = {p: parameters[p] for p in self.parameters}
        return Rule(self.code, self.document_type, functools.partial(self.function, **values))


RULES: dict[str, Rule] = {}
"""Every hand-rolled rule of this package, keyed by code (filled at import time)."""


def register(code: str, document_type: str, *,
             parameters: tuple[str, ...] = ()) -> Callable[[RuleImpl], RuleImpl]:
    """Decorator registering a rule implementation in :data:`RULES` under ``code``; the
    implementation takes each name of ``parameters`` as a keyword argument, valued from the
    rule's catalogue entry (never a constant in the code).

    Returns the function unchanged. Raises ``ValueError`` if ``code`` is already registered
    (one implementation per code).
    """

    def decorate(function: RuleImpl) -> RuleImpl:
        if code in RULES:
            raise ValueError(f"rule {code} is already registered")
        RULES[code] = Rule(code, document_type, function, tuple(parameters))
        return function

    return decorate


def violation(code: str, instance_path: str, message: str) -> Violation:
    """A :class:`Violation` of a hand-rolled rule (``rule=True``, no schema path)."""
    return Violation(code, instance_path, message, None, True)


def items(container: Any, key: str) -> Iterator[tuple[int, dict[str, Any]]]:
    """Yield ``(index, member)`` for the object members of the array ``container[key]``.

    Anything that is not there or not of the expected shape yields nothing (defensive reading).
    A generator, so a pass over 100,000 Results allocates no list.
    """
    if not isinstance(container, dict):
        return
    array = container.get(key)
    if not isinstance(array, list):
        return
    for i, x in enumerate(array):
        if isinstance(x, dict):
            yield i, x


def is_number(value: Any) -> bool:
    """JSON number test: ``int`` or ``float`` but not ``bool`` (which Python counts as ``int``)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def json_key(value: Any) -> Any:
    """A hashable key under which two JSON values are equal iff they are equal JSON values.

    Numbers compare by value (``1 == 1.0``, as JSON Schema's equality does), booleans are kept
    apart from numbers, strings by content; arrays and objects by their canonical content.
    """
    if isinstance(value, str):
        return value  # fast path; every other kind is a tuple, so never equal to a string
    if isinstance(value, bool) or value is None:
        return ("lit", value)
    if isinstance(value, (int, float)):
        return ("num", value)
    if isinstance(value, list):
        return ("arr", tuple(json_key(v) for v in value))
    if isinstance(value, dict):
        return ("obj", tuple(sorted((k, json_key(v)) for k, v in value.items())))
    return ("other", repr(value))
