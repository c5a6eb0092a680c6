"""Validating a document item by item: the schema pass and the cross-field rules on one long
array's items as they are read, then on the rest of the document (streaming validation).

The violations are those of :meth:`~.validator.Validator.validate` on the whole document: the
schema pass is the split reference pass (:mod:`.split`: the shell, and each item the fast
backend rejects, at its location), and each rule is the same
:class:`~.rules.registry.ItemRule` accumulator the whole-document function drives.
"""

from __future__ import annotations

from typing import Any

from .rules.registry import Envelope, Rule
from .schema_pass import MarkerIndex, to_violations
from .split import SplitPass
from .violation import Violation


class ItemCheck:
    """One document's validation, fed item by item (make one per document).

    Args:
        split: the version's split pass for the document type (its ``arrays`` hold ``array``).
        markers: the rule markers of the document type's schema.
        rules: the active rules (parameters bound), all :class:`~.rules.registry.ItemRule`\\ s
            over ``array``.
        array: the member read item by item (``"results"``).
    """

    def __init__(self, split: SplitPass, markers: MarkerIndex, rules: list[Rule],
                 array: str) -> None:
        self._split = split
        self._markers = markers
        self._rules = [rule.accumulator() for rule in rules]
        self.array = array

    def items(self, first: int, values: list[Any], envelope: Envelope) -> list[Violation]:
        """Violations of items ``first``, ``first + 1``, ... (``values``), unsorted; the
        ``envelope`` holds the members read so far (``complete`` false while the file is)."""
        out: list[Violation] = []
        for rule in self._rules:
            out.extend(rule.items(first, values, envelope))
        out.extend(to_violations(self._split.items_errors(self.array, first, values), self._markers))
        return out

    def finish(self, members: dict[str, Any], count: int) -> list[Violation]:
        """Violations of the rest of the document, once every member is known: the shell's
        (``members``, and ``count`` items in the array) and the rules' deferred ones."""
        out = to_violations(self._split.shell_errors(members, {self.array: count}), self._markers)
        envelope = Envelope(members, True)
        for rule in self._rules:
            out.extend(rule.finish(envelope))
        return out
