"""The registry of hand-rolled cross-field rules, keyed by catalogue code.

A rule is a plain function ``(document) -> Iterable[Violation]`` registered under the code its
``rules.json`` catalogue entry uses (toolchain.md, "Cross-field rules and their documented
gaps": "an implementation is registered under that code"). Rules are *defensive*: they run on
schema-invalid documents too, so they never raise on unexpected shapes; they skip whatever
they cannot read.

A rule that reads one long array item by item (a ResultSet's ``results``) is written once as an
:class:`ItemRule`, a one-pass accumulator with compact state, and registered with
:func:`register_items`: its whole-document function drives the accumulator over the document,
and streaming validation (:mod:`evalport_spec.validation.stream`) drives the same accumulator
while the file is read, so both give the same violations by construction.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

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
        items: the :class:`ItemRule` class the function drives, when the rule is one (it can
            then run while a document is streamed); ``None`` for a whole-document function.
        parameters: names of the keyword arguments ``function`` (and ``items``) take from the
            rule's catalogue entry (``rules.json`` ``parameters``, e.g. ``("tolerance",)``).
        values: the parameter values fixed by :meth:`bind`, as ``(name, value)`` pairs.
    """

    code: str
    document_type: str
    function: RuleImpl
    items: type[ItemRule] | None = None
    parameters: tuple[str, ...] = ()
    values: tuple[tuple[str, Any], ...] = ()

    def check(self, document: Any, parameters: Mapping[str, Any] | None = None) -> list[Violation]:
        """Run the rule on ``document`` with its catalogue ``parameters`` (those fixed by
        :meth:`bind` when ``None``); returns its violations (each with ``rule=True``).

        Raises:
            ValueError: a parameter the rule declares is not given.
        """
        rule = self.bind(dict(self.values) if parameters is None else parameters)
        return list(rule.function(document))

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
        values = tuple((p, parameters[p]) for p in self.parameters)
        unbound = self.function.func if isinstance(self.function, functools.partial) else self.function
        return Rule(self.code, self.document_type, functools.partial(unbound, **dict(values)),
                    self.items, self.parameters, values)

    def accumulator(self) -> ItemRule:
        """A fresh :class:`ItemRule` of this rule for one document, with the bound parameters.

        Raises:
            ValueError: the rule is not an :class:`ItemRule` (``items`` is ``None``), or a
                parameter it declares is not bound (the message names it).
        """
        if self.items is None:
            raise ValueError(f"rule {self.code} is not an item rule")
        return self.items(**dict(self.bind(dict(self.values)).values))


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
        RULES[code] = Rule(code, document_type, function, None, tuple(parameters))
        return function

    return decorate


class Envelope:
    """The members of a document other than its streamed array, as far as they are read.

    Attributes:
        members: member name -> value (never the array itself).
        complete: ``True`` once every member is known (always, for a parsed document); while a
            file is streamed, members after the array are not known yet, so a name absent from
            ``members`` may still come.
    """

    __slots__ = ("members", "complete")

    def __init__(self, members: Mapping[str, Any], complete: bool) -> None:
        self.members = members
        self.complete = complete


class ItemRule:
    """A cross-field rule computed in one pass over the items of the array :attr:`array`.

    One instance checks one document: :meth:`items` is called with consecutive runs of items
    in array order (each index once, whatever the item's JSON type; the whole array at once for
    a parsed document, a batch at a time while a file is streamed), then :meth:`finish` once
    with the complete envelope. State kept between calls must be compact (per key, not per item) so that memory
    does not grow with the document beyond what the rule needs. A rule whose verdict on an item
    depends on a member that may come after the array (``envelope.complete`` false and the name
    absent) defers that verdict to :meth:`finish`; the violations must not depend on when
    members became known. A rule with catalogue parameters takes them as keyword arguments of
    its constructor.
    """

    array: ClassVar[str] = "results"
    """The document member whose items :meth:`items` receives."""

    def items(self, first: int, values: list[Any], envelope: Envelope) -> Iterable[Violation]:
        """Violations decided by items ``first``, ``first + 1``, ... (``values``)."""
        return ()

    def finish(self, envelope: Envelope) -> Iterable[Violation]:
        """Violations decided once every item and member is known."""
        return ()


def run_items(rule: type[ItemRule]) -> RuleImpl:
    """The whole-document function of ``rule`` (keyword arguments: its catalogue parameters): a
    non-object document has no items and an empty envelope; a non-array member has no items."""

    def function(document: Any, **parameters: Any) -> Iterator[Violation]:
        acc = rule(**parameters)
        members = document if isinstance(document, dict) else {}
        envelope = Envelope({k: v for k, v in members.items() if k != rule.array}, True)
        array = members.get(rule.array)
        if isinstance(array, list):
            yield from acc.items(0, array, envelope)
        yield from acc.finish(envelope)

    function.__name__ = function.__qualname__ = rule.__name__
    function.__module__ = rule.__module__
    function.__doc__ = rule.__doc__
    function.__wrapped__ = rule  # type: ignore[attr-defined]  # inspect finds the rule's source
    return function


def register_items(code: str, document_type: str, *,
                   parameters: tuple[str, ...] = ()) -> Callable[[type[ItemRule]], type[ItemRule]]:
    """Class decorator registering an :class:`ItemRule` in :data:`RULES` under ``code`` (its
    function: :func:`run_items`); its constructor takes each name of ``parameters`` as a keyword
    argument, valued from the catalogue entry. Returns the class unchanged; raises
    ``ValueError`` if ``code`` is already registered."""

    def decorate(rule: type[ItemRule]) -> type[ItemRule]:
        if code in RULES:
            raise ValueError(f"rule {code} is already registered")
        RULES[code] = Rule(code, document_type, run_items(rule), rule, tuple(parameters))
        return rule

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
