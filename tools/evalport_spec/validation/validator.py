"""The validator: schema pass plus the active cross-field rules of one spec version."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..errors import InputError
from ..jsonload import gc_paused, lone_surrogate, lone_surrogate_error
from ..spec import DOC_TYPES, SpecVersion
from ..spec import detect_type as spec_detect_type
from .fast import FastCheck
from .itemcheck import ItemCheck
from .rules import RULES, Rule
from .schema_pass import MarkerIndex, to_violations
from .split import SplitPass
from .violation import Violation, sort_violations


class Validator:
    """Validates EvalPort documents against one :class:`~evalport_spec.spec.SpecVersion`.

    Args:
        spec: the version whose schemas (``schemas/<type>.json``) and catalogue
            (``rules.json``) apply.
        rules: registry to take rule implementations from (default: :data:`RULES`). Lets tests
            and RFC proposals substitute implementations.
        format_assertion: assert ``format`` (``date-time`` as RFC 3339 with offset), as SPEC.md
            "Validation" requires; ``False`` treats ``format`` as an annotation.
        fast: first ask the ``jsonschema-rs`` backend for a verdict and skip the reference
            schema pass on documents it accepts (:mod:`.fast`); on documents it rejects, run
            the reference pass only on the shell and the rejected items of long arrays
            (:mod:`.split`). Results are the same either way.

    Active rules are the catalogue's codes that are not ``encoded`` (the schema carries
    encoded ones), looked up in ``rules`` and given the parameters of their catalogue entry
    (a tolerance, a limit: :meth:`~evalport_spec.validation.rules.Rule.bind`). Catalogued codes without an implementation are
    listed in :attr:`unimplemented` and not checked: callers that must fail closed (the CLI)
    refuse to run when it is not empty.

    Compiled schema validators are built once per document type and cached.

    Raises:
        InputError: a rule's implementation takes a parameter its catalogue entry does not give
            (names ``rules.json`` and the entry's line).
    """

    def __init__(self, spec: SpecVersion, *, rules: Mapping[str, Rule] | None = None,
                 format_assertion: bool = True, fast: bool = True) -> None:
        self.spec = spec
        self.format_assertion = format_assertion
        self.fast = fast
        registry = RULES if rules is None else rules
        self.active: dict[str, list[Rule]] = {t: [] for t in DOC_TYPES}
        missing: list[str] = []
        for entry in spec.catalogue.rules:
            if entry.encoded:
                continue
            rule = registry.get(entry.code)
            if rule is None:
                missing.append(entry.code)
                continue
            try:
                rule = rule.bind(entry.parameter_values())
            except ValueError as exc:
                raise InputError(f"{exc}, which its entry does not give", spec.catalogue.source,
                                 entry.line) from None
            self.active.setdefault(entry.document, []).append(rule)
        self.unimplemented: tuple[str, ...] = tuple(missing)
        self._compiled: dict[str, tuple[Any, MarkerIndex, FastCheck | None, SplitPass | None]] = {}
        self._refs_checked = False

    def _schema(self, doc_type: str) -> tuple[Any, MarkerIndex, FastCheck | None, SplitPass | None]:
        if doc_type not in self._compiled:
            name = self.spec.schema_name(doc_type)
            schemas = self.spec.schemas
            if not self._refs_checked:  # a broken or looping $ref is bad input, not a crash
                problems = schemas.check_refs()
                if problems:
                    raise problems[0]
                self._refs_checked = True
            validator = schemas.validator(name, format_assertion=self.format_assertion)
            markers = MarkerIndex(schemas.registry, schemas.files[name].uri)
            fast = FastCheck(schemas, name, validator.format_checker) if self.fast else None
            split = SplitPass(validator, schemas, name) if fast is not None else None
            self._compiled[doc_type] = (validator, markers, fast, split)
        return self._compiled[doc_type]

    def validate_schema_only(self, document: Any, doc_type: str) -> list[Violation]:
        """Violations of the raw schema of ``doc_type`` alone (no hand-rolled rule), sorted by
        instance path (array indexes numerically), then code.

        Encoded rules appear with their rule code (``x-evalport-rule`` markers).

        Raises:
            InputError: unknown ``doc_type``, the version has no schema for it, or one of
                its ``$ref`` is remote, unresolvable or loops (:meth:`SchemaSet.check_refs`);
                a string of ``document`` holds a lone surrogate that a ``pattern`` cannot be
                matched on (:func:`evalport_spec.ecmaregex.search`: names the string's pointer;
                such a string is no Unicode text, RFC 7493 section 2.1).
        """
        try:
            return self._schema_pass(document, doc_type)
        except ValueError:
            found = lone_surrogate(document)
            if found is None:
                raise
            raise lone_surrogate_error(found, "document", None, None) from None

    def _schema_pass(self, document: Any, doc_type: str) -> list[Violation]:
        validator, markers, fast, split = self._schema(doc_type)
        with gc_paused():
            verdict = fast.is_valid(document) if fast is not None else None
            if verdict is True:
                return []
            if verdict is False and split is not None and split.applies(document):
                errors = split.iter_errors(document)  # the reference pass, item by item
            else:
                errors = validator.iter_errors(document)
            return sort_violations(to_violations(errors, markers))

    def item_check(self, doc_type: str, array: str) -> ItemCheck | None:
        """A fresh :class:`ItemCheck` validating one ``doc_type`` document while its member
        ``array`` is read item by item, with the violations :meth:`validate` gives on the whole
        document; ``None`` when this version cannot: the schema does not split exactly on
        ``array`` (:func:`.split.plan`), the fast backend is off, or an active rule is not an
        :class:`~.rules.registry.ItemRule` over ``array``.

        Raises:
            InputError: as :meth:`validate_schema_only`.
        """
        _, markers, _, split = self._schema(doc_type)
        rules = self.active.get(doc_type, [])
        if split is None or array not in split.arrays or any(
                r.items is None or r.items.array != array for r in rules):
            return None
        return ItemCheck(split, markers, rules, array)

    def check_rules(self, document: Any, doc_type: str) -> list[Violation]:
        """Violations of the active hand-rolled rules of ``doc_type`` only, sorted."""
        out: list[Violation] = []
        with gc_paused():
            for rule in self.active.get(doc_type, ()):
                out.extend(rule.check(document))
            return sort_violations(out)

    def validate(self, document: Any, doc_type: str) -> list[Violation]:
        """Schema pass plus active rules: every violation of ``document`` as a ``doc_type``,
        sorted by instance path, then code. An empty list means valid.

        Rules run on schema-invalid documents too (they read defensively).

        Raises:
            InputError: unknown ``doc_type``, or the version has no schema for it.
        """
        return sort_violations(self.validate_schema_only(document, doc_type)
                               + self.check_rules(document, doc_type))

    @staticmethod
    def detect_type(document: Any) -> str:
        """The document type by its members: ``test_cases`` -> ``suite``, ``results`` ->
        ``resultset``, ``input`` and ``graders`` -> ``testcase``, ``id`` and ``type`` ->
        ``grader`` (checked in that order).

        Raises:
            InputError: none applies ("not an EvalPort document: ...").
        """
        if not isinstance(document, dict):
            raise InputError("not an EvalPort document: the top-level value is not an object")
        found = spec_detect_type(document)
        if found is not None:
            return found
        raise InputError("not an EvalPort document: no 'test_cases', 'results', 'input' and "
                         "'graders', or 'id' and 'type' member")
