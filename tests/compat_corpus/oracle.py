"""Two independent validators, and the classifier run on a pair of schema sets.

The yardstick never trusts the classifier's own validation path: the verdict of a document is
asked of python-jsonschema (the dialect's validator class as the toolchain's reference pass runs
it, :func:`evalport_spec.pyvalidator.exact_validator`: ``pattern`` read as ECMA-262 by regress, as
JSON Schema 2020-12 says, not by Python's ``re``; format assertion by its ``FORMAT_CHECKER``)
and of jsonschema-rs (its own format checks, ``offline``), each built here from
the raw schema values (read with the standard ``json`` module, so integers of any size stay
exact). A document counts as valid (or invalid) only when both validators say so; where they
disagree, :meth:`Validators.both` answers ``None`` and the document proves nothing.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import jsonschema
import jsonschema_rs
import referencing
import referencing.jsonschema

from evalport_spec.compat import compare
from evalport_spec.jsonload import loads
from evalport_spec.pyvalidator import exact_validator
from evalport_spec.schemaset import SchemaSet

Files = Mapping[str, Any]
"""A schema set as raw values: ``{file name: schema}`` (names such as ``"s.json"``)."""

SINGLE = "s.json"


def as_files(schema_or_files: Any) -> dict[str, Any]:
    """``{file name: schema}`` for a single schema (named :data:`SINGLE`) or a dict of files."""
    if isinstance(schema_or_files, dict) and schema_or_files and all(
            isinstance(k, str) and k.endswith(".json") for k in schema_or_files):
        return dict(schema_or_files)
    return {SINGLE: schema_or_files}


def _no_retrieve(uri: str) -> referencing.Resource:
    raise referencing.exceptions.NoSuchResource(uri)


def _uri(name: str, schema: Any) -> str:
    """The URI a file is registered under: its own absolute ``$id`` (``id`` in draft-04), else one
    under a reserved host (a relative ``$id`` such as ``"something"`` then resolves against it)."""
    if isinstance(schema, dict):
        for key in ("$id", "id"):
            if isinstance(schema.get(key), str) and "://" in schema[key]:
                return schema[key].split("#")[0]
    return f"https://corpus.invalid/{name}"


class Validators:
    """python-jsonschema and jsonschema-rs for file ``name`` of a raw schema set.

    Args:
        files: the set, ``{file name: schema}`` (or one schema, named :data:`SINGLE`); every
            file is registered by :func:`_uri`, so relative cross-file ``$ref`` resolve against
            ``$id``s, offline.
        name: the file validated against.
        format_assertion: ``format`` asserted (both validators) or an annotation.

    Raises nothing on a schema either validator cannot compile: that validator then answers
    ``None`` for every document (recorded in :attr:`errors`). ``schema``, ``base_uri`` and
    ``registry`` (python-jsonschema's) are kept for generators.
    """

    def __init__(self, files: Any, name: str = SINGLE, *, format_assertion: bool = True) -> None:
        files = as_files(files)
        self.name = name
        self.errors: list[str] = []
        schema = files[name]
        resources = []
        for n, s in files.items():
            spec = referencing.jsonschema.specification_with(
                s.get("$schema", "https://json-schema.org/draft/2020-12/schema") if isinstance(s, dict)
                else "https://json-schema.org/draft/2020-12/schema",
                default=referencing.jsonschema.DRAFT202012)
            resources.append((_uri(n, s), spec.create_resource(s)))
        self.schema, self.base_uri = schema, _uri(name, schema)
        self.registry: referencing.Registry | None = None
        self._py = None
        try:
            registry = self.registry = referencing.Registry(retrieve=_no_retrieve).with_resources(resources).crawl()
            cls = exact_validator(jsonschema.validators.validator_for(
                schema, default=jsonschema.Draft202012Validator))
            kw: dict[str, Any] = {"registry": registry}
            if format_assertion:
                kw["format_checker"] = cls.FORMAT_CHECKER
            self._py = cls(schema, **kw)
        except Exception as exc:  # noqa: BLE001 - recorded; this validator abstains
            self.errors.append(f"python-jsonschema: {type(exc).__name__}: {exc}"[:200])
        self._rs = None
        try:
            rs_registry = jsonschema_rs.Registry([(_uri(n, s), s) for n, s in files.items()])
            self._rs = jsonschema_rs.validator_for(
                schema, registry=rs_registry, validate_formats=format_assertion, offline=True,
                base_uri=self.base_uri)
        except Exception as exc:  # noqa: BLE001
            self.errors.append(f"jsonschema-rs: {type(exc).__name__}: {exc}"[:200])

    def py(self, doc: Any) -> bool | None:
        """python-jsonschema's verdict, ``None`` when it cannot give one."""
        if self._py is None:
            return None
        try:
            return bool(self._py.is_valid(doc))
        except Exception:  # noqa: BLE001 - RecursionError, an unresolvable reference
            return None

    def rs(self, doc: Any) -> bool | None:
        """jsonschema-rs's verdict, ``None`` when it cannot give one."""
        if self._rs is None:
            return None
        try:
            return bool(self._rs.is_valid(doc))
        except Exception:  # noqa: BLE001 - a value it cannot convert
            return None

    def both(self, doc: Any) -> bool | None:
        """``True``/``False`` when both validators agree, else ``None``."""
        r = self.rs(doc)
        if r is None:
            return None
        p = self.py(doc)
        return r if p == r else None


def lost(vo: Validators, vn: Validators, doc: Any) -> bool:
    """Whether ``doc`` is valid under old and invalid under new by both validators (a document
    the change loses; the rs verdicts, cheaper, are asked first)."""
    if vo.rs(doc) is not True or vn.rs(doc) is not False:
        return False
    return vo.py(doc) is True and vn.py(doc) is False


def schema_ok(files: Files) -> bool:
    """Whether every file is a valid schema by its meta-schema, for both validators."""
    for s in files.values():
        try:
            cls = jsonschema.validators.validator_for(s, default=jsonschema.Draft202012Validator)
            cls.check_schema(s)
            if not jsonschema_rs.meta.is_valid(s):
                return False
        except Exception:  # noqa: BLE001 - unknown dialect, invalid schema
            return False
    return True


def schema_set(files: Files, label: str) -> SchemaSet:
    """The classifier's :class:`SchemaSet` for raw files, read by the package's own loader from
    bytes, as ``evalport-spec diff`` reads files from disk (the loader's fast path included)."""
    return SchemaSet.from_loaded({n: loads(json.dumps(s, indent=1).encode(), f"{label}/{n}")
                                  for n, s in as_files(files).items()}, label)


def classify(old: Any, new: Any, *, focus: str | None = None, **kw: Any):
    """``compat.compare`` on two raw schemas or sets (``focus``: the one file compared)."""
    old, new = as_files(old), as_files(new)
    only = {focus} if focus else None
    return compare(schema_set(old, "old"), schema_set(new, "new"), only=only, **kw)


def witness_of(finding: Any) -> tuple[Any] | None:
    """``(witness,)`` of a finding (``(None,)`` for a JSON ``null`` witness), or ``None``."""
    if finding.witness is not None or finding.extra.get("witness_is_null"):
        return (finding.witness,)
    return None
