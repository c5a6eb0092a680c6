"""The schema pass: JSON Schema 2020-12 errors turned into coded :class:`Violation`\\ s.

Coding (toolchain.md, "Conformance fixtures": exact error codes with instance paths):

* an error is coded by its keyword in UPPER_SNAKE case: ``type`` -> ``TYPE``, ``minLength`` ->
  ``MIN_LENGTH``, ``exclusiveMinimum`` -> ``EXCLUSIVE_MINIMUM``, ``additionalProperties`` ->
  ``ADDITIONAL_PROPERTIES``; ``required`` *and* ``dependentRequired`` -> ``REQUIRED``; a
  ``false`` schema -> ``FALSE_SCHEMA``;
* ``REQUIRED`` is reported at the missing member (``/results/0/passed``), one violation per
  missing member: the usual convention of naming the absent property;
  ``ADDITIONAL_PROPERTIES`` once at the object holding the unexpected member(s), which the
  message names (SPEC.md, "Validation");
* ``oneOf``/``anyOf`` are descended into when exactly one branch fits the instance's JSON type
  (every other branch fails with ``type`` at the instance itself): that branch's errors are
  reported, recursively. Otherwise the combinator itself is reported (``ONE_OF``/``ANY_OF``);
* an error whose keyword location passes through a subschema carrying
  ``"x-evalport-rule": "CODE"`` (following ``$ref`` across the set's files) is coded ``CODE``
  with ``rule=True``: the schema *encodes* that catalogued rule (the innermost marker wins).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from typing import Any

import referencing
import referencing.jsonschema
from jsonschema.exceptions import ValidationError

from ..ecmaregex import additional
from ..jsontypes import json_type
from ..pointer import from_path, join
from .violation import Violation

RULE_MARKER = "x-evalport-rule"
"""Schema keyword (an annotation, ignored by validators) naming the rule a subschema encodes."""

_KEYWORD_CODES = {"required": "REQUIRED", "dependentRequired": "REQUIRED", None: "FALSE_SCHEMA"}
_CAMEL = re.compile(r"(?<!^)(?=[A-Z])")
_MESSAGE_LIMIT = 200


def keyword_code(keyword: str | None) -> str:
    """Error code of a JSON Schema keyword: ``"exclusiveMinimum"`` -> ``"EXCLUSIVE_MINIMUM"``."""
    if keyword in _KEYWORD_CODES:
        return _KEYWORD_CODES[keyword]
    return _CAMEL.sub("_", keyword).upper()


def _branches(error: ValidationError) -> dict[int, list[ValidationError]]:
    out: dict[int, list[ValidationError]] = {}
    for sub in error.context or ():
        out.setdefault(sub.relative_schema_path[0], []).append(sub)
    return out


def _fits_type(errors: list[ValidationError]) -> bool:
    """False when the branch rejects the instance's JSON type itself (or is a ``false`` schema)."""
    return not any(e.validator in ("type", None) and not e.relative_path for e in errors)


def leaf_errors(errors: Iterable[ValidationError]) -> Iterator[ValidationError]:
    """Replace each ``oneOf``/``anyOf`` error by the errors of its single type-fitting branch
    (recursively); every other error is yielded as is."""
    for error in errors:
        if error.validator in ("oneOf", "anyOf") and error.context:
            branches = _branches(error)
            fitting = [b for b in branches.values() if _fits_type(b)]
            if len(fitting) == 1:
                yield from leaf_errors(fitting[0])
                continue
        yield error


class MarkerIndex:
    """Finds the ``x-evalport-rule`` marker on a keyword location, following ``$ref``.

    jsonschema reports keyword locations with ``$ref`` hops elided (``/properties/results/
    items/allOf/0/...`` when ``items`` is ``{"$ref": "#/$defs/result"}``); the walk follows a
    subschema's ``$ref`` (or ``$dynamicRef``) whenever the next token is not one of its own
    members, across the files of the set. Built for one root schema (``uri`` in ``registry``);
    results are cached per location.
    """

    def __init__(self, registry: referencing.Registry, uri: str) -> None:
        self._registry = registry
        self._uri = uri
        self._cache: dict[tuple[Any, ...], tuple[str | None, str]] = {}

    def lookup(self, schema_path: Iterable[str | int]) -> tuple[str | None, str]:
        """``(marker, keyword location)`` for ``schema_path`` as jsonschema reports it: the
        innermost rule code met on the way (or ``None``), and the JSON Pointer of the keyword
        with the ``$ref`` tokens put back (JSON Schema's "keywordLocation")."""
        key = tuple(schema_path)
        if key not in self._cache:
            self._cache[key] = self._walk(key)
        return self._cache[key]

    def marker(self, schema_path: Iterable[str | int]) -> str | None:
        """The innermost rule code on the way to ``schema_path``, or ``None``."""
        return self.lookup(schema_path)[0]

    def _walk(self, path: tuple[Any, ...]) -> tuple[str | None, str]:
        resolver = self._registry.resolver(base_uri=self._uri)
        node: Any = resolver.lookup(self._uri).contents
        found: str | None = None
        location: list[str | int] = []
        for token in path:
            hops = 0
            while isinstance(node, dict):
                mark = node.get(RULE_MARKER)
                if isinstance(mark, str):
                    found = mark
                ref_kw = next((k for k in ("$ref", "$dynamicRef") if isinstance(node.get(k), str)), None)
                if token in node or ref_kw is None or hops > 32:
                    break
                try:
                    resolved = resolver.lookup(node[ref_kw])
                except referencing.exceptions.Unresolvable:
                    return found, from_path([*location, token])
                node, resolver = resolved.contents, resolved.resolver
                location.append(ref_kw)
                hops += 1
            location.append(token)
            if isinstance(node, dict):
                node = node.get(token)
                if isinstance(node, dict) and isinstance(node.get("$id"), str):
                    resource = referencing.jsonschema.DRAFT202012.create_resource(node)
                    resolver = resolver.in_subresource(resource)
            elif isinstance(node, list) and isinstance(token, int) and 0 <= token < len(node):
                node = node[token]
            else:
                node = None
        return found, from_path(location)


def _short(value: Any) -> str:
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _message(error: ValidationError) -> str:
    kw, value, inst = error.validator, error.validator_value, error.instance
    if kw == "type":
        expected = value if isinstance(value, str) else " or ".join(value)
        return f"expected {expected}, got {json_type(inst)}"
    if kw == "const":
        return f"expected the constant {_short(value)}, got {_short(inst)}"
    if kw == "enum":
        return f"{_short(inst)} is not one of {_short(value)}"
    if kw == "format":
        return f"{_short(inst)} is not a valid {value}"
    if kw in ("minItems", "maxItems") and isinstance(value, int):  # never the whole array
        bound = "at least" if kw == "minItems" else "at most"
        return f"expected {bound} {value} item{'' if value == 1 else 's'}"
    text = error.message
    return text if len(text) <= _MESSAGE_LIMIT else text[: _MESSAGE_LIMIT - 3] + "..."



def to_violations(errors: Iterable[ValidationError], markers: MarkerIndex | None) -> list[Violation]:
    """Code ``errors`` (as yielded by ``iter_errors``) as violations, in no particular order."""
    out: list[Violation] = []
    seen_member_errors: set[tuple[str, str]] = set()
    for error in leaf_errors(errors):
        where = from_path(error.absolute_path)
        if markers is not None:
            mark, schema_path = markers.lookup(error.absolute_schema_path)
        else:
            mark, schema_path = None, from_path(error.absolute_schema_path)
        kw = error.validator
        if kw in ("required", "dependentRequired") and isinstance(error.instance, dict):
            if (where, schema_path) in seen_member_errors:
                continue  # jsonschema yields one error per member; we list them all at once
            seen_member_errors.add((where, schema_path))
            for member, message in _member_errors(error):
                out.append(Violation(mark or keyword_code(kw), join(where, member), message,
                                     schema_path, mark is not None))
            continue
        if kw == "additionalProperties" and isinstance(error.instance, dict) and isinstance(
                error.schema, dict):
            names = additional(error.instance, error.schema)
            out.append(Violation(mark or keyword_code(kw), where, _additional_message(names),
                                 schema_path, mark is not None, tuple(names)))
            continue
        out.append(Violation(mark or keyword_code(kw), where, _message(error), schema_path,
                             mark is not None))
    return out


def _member_errors(error: ValidationError) -> Iterator[tuple[str, str]]:
    kw, value, inst = error.validator, error.validator_value, error.instance
    if kw == "required" and isinstance(value, list):
        for name in value:
            if name not in inst:
                yield name, f"required member {name!r} is missing"
    elif kw == "dependentRequired" and isinstance(value, dict):
        for prop, deps in value.items():
            if prop in inst and isinstance(deps, list):
                for name in deps:
                    if name not in inst:
                        yield name, f"member {name!r} is required when {prop!r} is present"


def _additional_message(names: list[str]) -> str:
    shown = ", ".join(repr(n) for n in names[:5]) + (", ..." if len(names) > 5 else "")
    return f"member{'s' if len(names) != 1 else ''} {shown} not allowed (closed object)"
