"""python-jsonschema as the toolchain reads JSON Schema: the validator classes every reference
check uses (the schema pass of ``validate``, the classifier's witness checks, the generator).

:func:`exact_validator` extends a python-jsonschema validator class with

* ``multipleOf`` decided on the exact decimals written (:mod:`evalport_spec.jsonnum`; what
  jsonschema-rs does, JSON Schema 2020-12 Validation 6.2.1);
* ``enum`` looked up by hashed canonical JSON (the same equality, linear instead of quadratic);
* ``anyOf``/``oneOf`` whose branches only hold ``const``/``enum`` (and annotations) counted the
  same way: a 5,000-branch ``oneOf`` is one lookup per instance, not 5,000 descents;
* ``pattern``, ``patternProperties``, ``additionalProperties`` and the ``regex`` format read as
  ECMA-262 (:mod:`evalport_spec.ecmaregex`; Validation 6.3.3 and 7.3.8);
* ``unevaluatedProperties`` (2019-09 and 2020-12) with the members adjacent keywords evaluate
  found as the specification says (:func:`evaluated_keys`).

It is the only module of the package's light core that imports python-jsonschema (whose import
also loads every installed format library): the comparison of two identical schema sets, and
whatever else never builds a python-jsonschema validator, does not pay for it.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from typing import Any

from attrs import fields
from jsonschema import Draft202012Validator, FormatChecker, ValidationError, _keywords
from jsonschema._legacy_keywords import lookup_recursive_ref
from jsonschema._utils import extras_msg
from jsonschema.validators import extend, validator_for

from .canonjson import canonical
from .ecmaregex import additional, is_regex, search
from .jsonnum import enum_index, is_multiple
from .literaltags import literal_tags, ruled_out


def _multiple_of(validator: Any, m: Any, instance: Any, schema: Any):
    if not validator.is_type(instance, "number") or not validator.is_type(m, "number"):
        return
    try:
        ok = is_multiple(instance, m)
    except (TypeError, ValueError, ZeroDivisionError):
        return  # a non-finite value or a zero divisor: the meta-schema's problem
    if not ok:
        yield ValidationError(f"{instance!r} is not a multiple of {m}")


def _pattern(validator: Any, source: str, instance: Any, schema: Any) -> Iterator[ValidationError]:
    if validator.is_type(instance, "string") and not search(source, instance):
        yield ValidationError(f"{instance!r} does not match {source!r}")


def _pattern_properties(validator: Any, patterns: dict, instance: Any, schema: Any):
    if not validator.is_type(instance, "object"):
        return
    for source, subschema in patterns.items():
        for k, v in instance.items():
            if search(source, k):
                yield from validator.descend(v, subschema, path=k, schema_path=source)


def _additional_properties(validator: Any, aP: Any, instance: Any, schema: Any):
    if not validator.is_type(instance, "object"):
        return
    extras = additional(instance, schema)
    if validator.is_type(aP, "object"):
        for extra in extras:
            yield from validator.descend(instance[extra], aP, path=extra)
    elif not aP and extras:
        if "patternProperties" in schema:
            verb = "does" if len(extras) == 1 else "do"
            joined = ", ".join(repr(each) for each in sorted(extras))
            patterns = ", ".join(repr(each) for each in sorted(schema["patternProperties"]))
            yield ValidationError(f"{joined} {verb} not match any of the regexes: {patterns}")
        else:
            names, verb = extras_msg(sorted(extras, key=str))
            yield ValidationError(f"Additional properties are not allowed ({names} {verb} unexpected)")


KEYWORDS = {"pattern": _pattern, "patternProperties": _pattern_properties,
            "additionalProperties": _additional_properties}
"""python-jsonschema keyword functions reading patterns as ECMA-262 (messages as the library's)."""


def format_checker(base: FormatChecker) -> FormatChecker:
    """A copy of ``base`` whose ``regex`` format is :func:`is_regex` (the others unchanged)."""
    checker = FormatChecker(())
    checker.checkers = {**base.checkers, "regex": (is_regex, ())}
    return checker


def _enum(validator: Any, enums: Any, instance: Any, schema: Any):
    if not isinstance(enums, list) or len(enums) < 8:
        yield from _keywords.enum(validator, enums, instance, schema)
        return
    try:
        ok = canonical(instance) in enum_index(enums)
    except (TypeError, ValueError):  # not a JSON value: the reference check decides
        yield from _keywords.enum(validator, enums, instance, schema)
        return
    if not ok:
        shown = ", ".join(repr(v) for v in enums[:5])
        yield ValidationError(f"{instance!r} is not one of [{shown}, ...] ({len(enums)} values)")


_VALUE_KEYS = frozenset({"const", "enum"})
_NOTE_KEYS = frozenset({"title", "description", "$comment", "examples", "default", "deprecated",
                        "readOnly", "writeOnly"})
_BRANCH_INDEX: dict[tuple[int, bool], tuple[list, dict[str, int] | None]] = {}


def branch_index(branches: Any, has_const: bool) -> dict[str, int] | None:
    """``{canonical JSON text: how many branches accept that value}`` for an ``anyOf``/``oneOf``
    list whose every branch is an object holding ``const`` and/or ``enum`` and otherwise only
    annotations; ``None`` when some branch holds anything else (``const`` too when the dialect
    has no such keyword: ``has_const`` false, draft-04) or a value is no JSON value. A branch
    accepts exactly the values every one of its keywords accepts (Validation 6.1.2, 6.1.3), by
    JSON Schema equality (:func:`~evalport_spec.canonjson.canonical`). Memoised per list object."""
    key = (id(branches), has_const)
    hit = _BRANCH_INDEX.get(key)
    if hit is not None and hit[0] is branches:
        return hit[1]
    counts: dict[str, int] | None = {}
    allowed = _VALUE_KEYS if has_const else frozenset({"enum"})
    try:
        for b in branches:
            if not isinstance(b, dict) or not (set(b) & allowed) or set(b) - allowed - _NOTE_KEYS:
                raise TypeError("not a value branch")
            if "enum" in b and not isinstance(b["enum"], list):
                raise TypeError("not a value branch")
            values = set(enum_index(b["enum"])) if "enum" in b else None
            if "const" in b:
                c = canonical(b["const"])
                values = {c} & values if values is not None else {c}
            for v in values or ():
                counts[v] = counts.get(v, 0) + 1
    except (TypeError, ValueError):
        counts = None
    if len(_BRANCH_INDEX) > 4096:
        _BRANCH_INDEX.clear()
    _BRANCH_INDEX[key] = (branches, counts)
    return counts


def _counted(library_keyword: Any, exactly_one: bool) -> Any:
    def keyword(validator: Any, branches: Any, instance: Any, schema: Any):
        index = branch_index(branches, "const" in validator.VALIDATORS) \
            if isinstance(branches, list) and len(branches) >= 8 else None
        try:
            n = None if index is None else index.get(canonical(instance), 0)
        except (TypeError, ValueError):  # not a JSON value: the library's keyword decides
            n = None
        if n is None:
            yield from library_keyword(validator, branches, instance, schema)
        elif n == 0:
            yield ValidationError(f"{instance!r} is not valid under any of the given schemas")
        elif exactly_one and n > 1:
            yield ValidationError(f"{instance!r} is valid under {n} of the given schemas")
    return keyword


def evaluated_keys(validator: Any, instance: dict, schema: Any) -> set[str]:
    """The members of object ``instance`` that ``schema`` and the subschemas it applies and
    passes evaluate (Core 11.3, 2019-09 and 2020-12): python-jsonschema's own collection
    (``jsonschema._utils.find_evaluated_property_keys_by_schema``) except where it departs from
    the specification and from jsonschema-rs: ``patternProperties`` matched as ECMA-262 (its
    collection used Python ``re``, where ``\\d`` matches U+0663), and in 2019-09 an
    ``additionalProperties`` or ``unevaluatedProperties`` schema evaluating the members it passes
    (its 2019-09 collection took that schema's keywords for member names)."""
    if not isinstance(schema, dict):
        return set()
    keys: set[str] = set()
    refs = [(schema.get("$ref"), None)]
    if "$dynamicRef" in validator.VALIDATORS:
        refs.append((schema.get("$dynamicRef"), None))
    if "$recursiveRef" in validator.VALIDATORS and "$recursiveRef" in schema:
        refs.append(("#", lookup_recursive_ref(validator._resolver)))
    for ref, resolved in refs:
        if isinstance(ref, str):
            resolved = resolved or validator._resolver.lookup(ref)
            keys |= evaluated_keys(validator.evolve(schema=resolved.contents, _resolver=resolved.resolver),
                                   instance, resolved.contents)
    props = schema.get("properties")
    if isinstance(props, dict):
        keys |= props.keys() & instance.keys()
    pats = schema.get("patternProperties")
    if isinstance(pats, dict):
        keys |= {k for k in instance if any(search(p, k) for p in pats)}
    for kw in ("additionalProperties", "unevaluatedProperties"):
        if kw in schema:
            keys |= {k for k, v in instance.items() if next(validator.descend(v, schema[kw]), None) is None}
    deps = schema.get("dependentSchemas") if "dependentSchemas" in validator.VALIDATORS else None
    for name, sub in deps.items() if isinstance(deps, dict) else ():
        if name in instance:
            keys |= evaluated_keys(validator, instance, sub)
    for kw in ("allOf", "oneOf", "anyOf"):
        for sub in schema.get(kw, []) if isinstance(schema.get(kw), list) else []:
            if next(validator.descend(instance, sub), None) is None:
                keys |= evaluated_keys(validator, instance, sub)
    if "if" in schema:
        if validator.evolve(schema=schema["if"]).is_valid(instance):
            keys |= evaluated_keys(validator, instance, schema["if"])
            keys |= evaluated_keys(validator, instance, schema.get("then"))
        else:
            keys |= evaluated_keys(validator, instance, schema.get("else"))
    return keys


def _unevaluated_properties(validator: Any, uP: Any, instance: Any, schema: Any):
    if not validator.is_type(instance, "object"):
        return
    seen = evaluated_keys(validator, instance, schema)
    bad = [k for k in instance if k not in seen
           and next(validator.descend(instance[k], uP, path=k, schema_path=k), None) is not None]
    if bad and uP is False:
        names, verb = extras_msg(sorted(bad, key=str))
        yield ValidationError(f"Unevaluated properties are not allowed ({names} {verb} unexpected)")
    elif bad:
        names, verb = extras_msg(bad)
        yield ValidationError(f"Unevaluated properties are not valid under the given schema ({names} {verb} "
                              "unevaluated and invalid)")


def _extended(cls: Any, keywords: dict[str, Any], **kwargs: Any) -> Any:
    """``cls`` extended with ``keywords``, kept across python-jsonschema's ``evolve`` (which picks
    the class by a subschema's ``$schema``, so every ``$ref`` into a file naming its dialect
    would fall back to ``cls`` and lose them)."""
    extended = extend(cls, keywords, **kwargs)
    plain_evolve = extended.evolve

    def evolve(self: Any, **changes: Any) -> Any:
        new = plain_evolve(self, **changes)
        if type(new) is cls:
            return extended(**{f.alias: getattr(new, f.name) for f in fields(cls) if f.init})
        return new

    extended.evolve = evolve
    return extended


def _any_of_verdict(validator: Any, branches: Any, instance: Any, schema: Any):
    """``anyOf`` as :func:`jsonschema._keywords.anyOf` decides it, each branch read up to its
    first error (the library lists them all, for the error's ``context``, left empty here); a
    branch a member's literal pattern rules out is not read (:mod:`evalport_spec.literaltags`)."""
    tags = literal_tags(branches)
    for index, sub in enumerate(branches):
        if tags is not None and ruled_out(tags, index, instance):
            continue
        if next(validator.descend(instance, sub, schema_path=index), None) is None:
            return
    yield ValidationError(f"{instance!r} is not valid under any of the given schemas")


def _one_of_verdict(validator: Any, branches: Any, instance: Any, schema: Any):
    """``oneOf`` as :func:`jsonschema._keywords.oneOf` decides it (the first valid branch found
    by descending, the others after it by ``evolve``, as there), each branch read up to its
    first error; the errors carry no ``context``; a branch a member's literal pattern rules
    out is not read (:mod:`evalport_spec.literaltags`)."""
    tags = literal_tags(branches)
    subschemas = enumerate(branches)
    if tags is not None:
        subschemas = ((i, sub) for i, sub in subschemas if not ruled_out(tags, i, instance))
    for index, sub in subschemas:
        if next(validator.descend(instance, sub, schema_path=index), None) is None:
            break
    else:
        yield ValidationError(f"{instance!r} is not valid under any of the given schemas")
        return
    if any(validator.evolve(schema=each).is_valid(instance) for _, each in subschemas):
        yield ValidationError(f"{instance!r} is valid under more than one of the given schemas")


def _by_value(verdicts: bool = False) -> dict[str, Any]:
    any_of, one_of = (_any_of_verdict, _one_of_verdict) if verdicts else (_keywords.anyOf, _keywords.oneOf)
    return {"enum": _enum, "anyOf": _counted(any_of, False), "oneOf": _counted(one_of, True)}


@cache
def exact_validator(cls: Any, verdicts: bool = False) -> Any:
    """The jsonschema validator class ``cls`` with ``multipleOf`` decided on exact decimals,
    ``enum`` and ``anyOf``/``oneOf`` of value branches (:func:`branch_index`) by hashed
    canonical JSON (the same equality, linear instead of quadratic), ``unevaluatedProperties``
    by :func:`evaluated_keys`, and ``pattern``, ``patternProperties``, ``additionalProperties``
    and the ``regex`` format read as ECMA-262 (:mod:`evalport_spec.ecmaregex`, not Python's
    ``re``); memoised per class; the other formats and everything else are ``cls``'s.

    ``verdicts=True``: for ``is_valid`` alone where only speed is at stake (the classifier's
    screening of candidate documents): ``anyOf``/``oneOf`` read each branch up to its first
    error and report no ``context`` (:func:`_any_of_verdict`, :func:`_one_of_verdict`); an
    invalid document then no longer costs every error of every branch of a large ``anyOf``. The
    verdicts are the same, but where the full reading raises in a branch it need not reach
    (a too deep document, a lone surrogate a pattern cannot be matched on), which the full one
    then reports as not valid."""
    if "multipleOf" not in cls.VALIDATORS:
        return cls
    more = {"unevaluatedProperties": _unevaluated_properties} if "unevaluatedProperties" in cls.VALIDATORS else {}
    return _extended(cls, {"multipleOf": _multiple_of, **_by_value(verdicts), **KEYWORDS, **more},
                     format_checker=format_checker(cls.FORMAT_CHECKER))


@cache
def library_validator(cls: Any, verdicts: bool = False) -> Any:
    """python-jsonschema's class ``cls`` as shipped (Python ``re``, binary doubles), but with
    ``enum`` and ``anyOf``/``oneOf`` of value branches looked up by hashed canonical JSON: the
    same verdicts as the library's own keywords (the same equality), without a walk of every
    value or branch per instance. ``verdicts=True``: ``anyOf``/``oneOf`` read each branch up to
    its first error, as :func:`exact_validator` says. Memoised per class."""
    if "enum" not in cls.VALIDATORS:
        return cls
    return _extended(cls, _by_value(verdicts))


def validator_class(schema: Any) -> Any:
    """python-jsonschema's validator class for the dialect ``schema`` names in ``$schema``
    (2020-12 when it names none, as EvalPort's schemas are; a boolean schema too)."""
    return validator_for(schema, default=Draft202012Validator)
