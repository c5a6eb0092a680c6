"""The conformance fixture model: one case per file, validated against its meta-schema.

Fixture format (meta-schema ``conformance/fixture.schema.json`` beside the fixtures folder; one
fixture per file ``<id>.json``, file stem == ``id``)::

    {"id": "resultset-duplicate-attempt", "description": "...", "document_type": "resultset",
     "rules": ["DUPLICATE_ATTEMPT"], "since": "1.2.0", "document": {...},
     "expect": {"schema": {"valid": true},
                "full": {"valid": false,
                         "errors": [{"code": "DUPLICATE_ATTEMPT",
                                     "instance_path": "/results/1/attempt"}]}}}

``expect.schema`` is the raw JSON Schema alone (format asserted); ``expect.full`` the schema
plus the catalogue's cross-field rules, with *exactly* the set of ``(code, instance_path)``
pairs it must report (toolchain.md, "Conformance fixtures").

Versions (toolchain.md, "Versions and releases": fixtures are versioned like the schemas):
``since`` (required) is the first spec version whose validator must produce the expected
outcome; ``until`` (optional) the first version where it no longer applies, set when a later
change (normally a MAJOR one) ends the case. A fixture applies to version ``V`` when
``since <= V < until`` in semver order. A release freezes the fixtures that apply to it into
``spec/releases/X.Y.Z/conformance/`` (:mod:`evalport_spec.release`).

This module reads no files: :class:`evalport_spec.spec.SpecVersion` hands it a version's files,
:func:`evalport_spec.conformance.load_fixtures` a folder's.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from .errors import InputError
from .jsonload import Loaded
from .pointer import from_path
from .schemaset import meta_schemas
from .semver import parse_semver

META_SCHEMA_NAME = "fixture.schema.json"
"""File name of the fixture meta-schema (in ``conformance/``, beside ``fixtures/``)."""

Pair = tuple[str, str]
"""``(code, instance_path)``."""


@dataclass(frozen=True)
class Outcome:
    """A validity verdict with its error set (``errors`` is ``None`` when not compared)."""

    valid: bool
    errors: frozenset[Pair] | None = None

    def to_json(self) -> dict[str, Any]:
        """``{"valid": bool, "errors": [{"code", "instance_path"}]}`` (errors sorted; omitted
        when ``None``)."""
        out: dict[str, Any] = {"valid": self.valid}
        if self.errors is not None:
            out["errors"] = [{"code": c, "instance_path": p} for c, p in sorted(self.errors)]
        return out


@dataclass(frozen=True)
class Fixture:
    """One conformance case (see the module docstring for the format).

    Attributes:
        id, description, document_type, document: as in the file.
        schema: expected outcome of the raw schema (validity only).
        full: expected outcome of the full validator (validity and exact error set).
        rules: rule codes the fixture exercises.
        source: the file it was read from.
        since: the first spec version (``X.Y.Z``) the fixture holds for; ``None`` only for a
            fixture built in memory (every file has one).
        until: the first version it no longer applies to, or ``None`` (every later version).
    """

    id: str
    description: str
    document_type: str
    document: Any
    schema: Outcome
    full: Outcome
    rules: tuple[str, ...] = ()
    source: str = ""
    since: str | None = None
    until: str | None = None

    def applies_to(self, version: str | None) -> bool:
        """Whether the fixture holds for spec version ``version`` (``X.Y.Z``; ``None``: any):
        ``since <= version < until`` in semver order, a missing bound being no bound."""
        if version is None:
            return True
        v = parse_semver(version)
        if self.since is not None and parse_semver(self.since) > v:
            return False
        return self.until is None or v < parse_semver(self.until)


def _parse_one(loaded: Loaded, checker: Any, stem: str) -> Fixture:
    """One fixture from its parsed file (``checker``: a validator of the meta-schema); see
    :func:`parse_fixtures`."""
    value = loaded.value
    error = next(iter(sorted(checker.iter_errors(value), key=lambda e: list(map(str, e.path)))), None)
    if error is not None:
        ptr = from_path(error.absolute_path)
        raise InputError(f"not a valid fixture: {error.message[:160]}", loaded.source,
                         *(loaded.position(ptr) or (None, None)), ptr)
    if value["id"] != stem:
        raise InputError(f"fixture id {value['id']!r} differs from the file name {stem!r}",
                         loaded.source, loaded.line("/id"), None, "/id")
    since, until = value["since"], value.get("until")
    if until is not None and parse_semver(until) <= parse_semver(since):
        raise InputError(f"fixture until {until} is not above its since {since}: it would apply "
                         "to no version", loaded.source, loaded.line("/until"), None, "/until")
    exp = value["expect"]
    full_errors = frozenset((e["code"], e["instance_path"]) for e in exp["full"].get("errors", ()))
    return Fixture(value["id"], value["description"], value["document_type"], value["document"],
                   Outcome(exp["schema"]["valid"]), Outcome(exp["full"]["valid"], full_errors),
                   tuple(value.get("rules", ())), loaded.source, since, until)


@lru_cache(maxsize=8)
def _meta_schema_problem(meta_text: str) -> str | None:
    """Why the fixture meta-schema (canonical JSON text) is not a valid JSON Schema 2020-12 (the
    first error's message, at most 160 characters), or ``None``; once per content and process
    (every version's fixtures are parsed against the same one, several times in one gate run)."""
    import jsonschema

    try:
        jsonschema.Draft202012Validator.check_schema(json.loads(meta_text))
    except jsonschema.SchemaError as exc:
        return exc.message[:160]
    return None


def parse_fixtures(files: Iterable[tuple[str, Loaded]], meta: Mapping[str, Any],
                   meta_source: str = META_SCHEMA_NAME) -> list[Fixture]:
    """Fixtures from ``(file stem, parsed file)`` pairs, in the order given.

    Args:
        files: each file's name without ``.json`` (it must equal the fixture's ``id``) and its
            strictly parsed content.
        meta: the fixture meta-schema.
        meta_source: where ``meta`` was read from (for messages).

    The meta-schema's references resolve offline only (its own subschemas and the dialects'
    meta-schemas, :func:`~evalport_spec.schemaset.meta_schemas`), never over the network.

    Raises:
        InputError: the meta-schema is not a valid JSON Schema 2020-12, or has a ``$ref`` that
            does not resolve offline; a file violates the meta-schema (at the offending location), its ``id``
            differs from its file name, its ``until`` is not above its ``since``, or two files
            share one ``id``.
    """
    import jsonschema  # here, not at import: the spec model stays cheap to import

    problem = _meta_schema_problem(json.dumps(meta, sort_keys=True))
    if problem is not None:
        raise InputError(f"the fixture meta-schema is not a valid schema (JSON Schema 2020-12): {problem}",
                         meta_source)
    import referencing.exceptions

    # offline: python-jsonschema's default registry would fetch a remote $ref of the meta-schema
    checker = jsonschema.Draft202012Validator(meta, registry=meta_schemas())
    out: list[Fixture] = []
    seen: dict[str, str] = {}
    for stem, loaded in files:
        try:
            fixture = _parse_one(loaded, checker, stem)
        except referencing.exceptions.Unresolvable as exc:
            raise InputError(f"the fixture meta-schema's $ref {getattr(exc, 'ref', exc)!r} does not resolve "
                             "offline (references are never fetched over the network)", meta_source) from None
        if fixture.id in seen:
            raise InputError(f"fixture id {fixture.id!r} is also used by {seen[fixture.id]}",
                             loaded.source, loaded.line("/id"), None, "/id")
        seen[fixture.id] = loaded.source
        out.append(fixture)
    return out
