"""Validation of EvalPort documents: a schema pass (JSON Schema 2020-12, ``format``
asserted) plus the hand-rolled cross-field rules of the version's catalogue.

Public API::

    Validator(spec, *, rules=None, format_assertion=True)
        .validate(document, doc_type) -> list[Violation]
        .validate_schema_only(document, doc_type) -> list[Violation]
        Validator.detect_type(document) -> str
    Violation(code, instance_path, message, schema_path=None, rule=False)
    RULES: dict[str, Rule]; Rule(code, document_type, function, parameters);
    register(code, document_type, parameters=())
    VALIDATOR_CODES: codes the validator reports besides keywords and rules (UNSUPPORTED_VERSION)

Around it: :mod:`.versions` (which spec version a document names), :mod:`.files` (validating
files, unreadable ones reported per file), :mod:`.report` (text, json, github), :mod:`.bundled`
(the spec repository or the copy shipped in the package), :mod:`.split` (the reference pass
item by item on invalid documents with long arrays).
"""

from .rules import RULES, Rule, RuleImpl, register
from .schema_pass import RULE_MARKER, keyword_code
from .validator import Validator
from .versions import UNSUPPORTED_VERSION
from .violation import Violation, sort_violations

VALIDATOR_CODES = frozenset({UNSUPPORTED_VERSION})
"""Codes reported by the validator itself, neither a JSON Schema keyword's nor a catalogued
rule's (SPEC.md, "Validation")."""

detect_type = Validator.detect_type

__all__ = ["RULES", "RULE_MARKER", "UNSUPPORTED_VERSION", "VALIDATOR_CODES", "Rule", "RuleImpl",
           "Validator", "Violation", "detect_type", "keyword_code", "register", "sort_violations"]
