"""EvalPort spec toolchain: the library behind ``evalport-spec`` (docs/api.md).

The entry points (the command line in :mod:`evalport_spec.cli` is a thin layer over them)::

    load(source, *, repo=None)                  -> SpecVersion | SchemaSet
    schema_set(schemas, label="<memory>")       -> SchemaSet
    compare(old, new, *, ignore=None, **kw)     -> Classification     (evalport-spec diff)
    validate(document, version, doc_type=None)  -> list[Violation]    (evalport-spec validate)
    check(repo=None, *, base=None, stages=None) -> GateReport         (evalport-spec check)

Each imports its engine when called, so ``import evalport_spec`` stays light (the command line
builds its parser without loading jsonschema). The types they return live in
:mod:`evalport_spec.spec` (``SpecVersion``, ``SpecRepo``), :mod:`evalport_spec.schemaset`
(``SchemaSet``), :mod:`evalport_spec.compat` (``Classification``),
:mod:`evalport_spec.validation` (``Violation``, ``Validator``), :mod:`evalport_spec.gate`
(``GateReport``) and :mod:`evalport_spec.findings` (``Finding``, ``ChangeClass``); every error
from bad input is an :class:`~evalport_spec.errors.InputError` naming the file and location.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .errors import InputError

if TYPE_CHECKING:
    from .compat import Classification
    from .gate import GateReport
    from .schemaset import SchemaSet
    from .spec import SpecVersion
    from .validation import Violation

__version__ = "0.1.0"

__all__ = ["InputError", "__version__", "check", "compare", "load", "schema_set", "validate"]


def load(source: str | Path, *, repo: str | Path | None = None) -> SpecVersion | SchemaSet:
    """The spec version or schema set ``source`` names, as ``evalport-spec diff`` reads its
    arguments (:func:`evalport_spec.compat.inputs.resolve_input`).

    Args:
        source: a schema file (a set of that file and the sibling files it references), a folder
            of ``*.json`` schemas, a spec version folder (one holding ``schemas/``), a release
            version (``"1.2.0"``) or ``"draft"`` of ``repo``, or ``REF:PATH`` at a git revision.
        repo: the spec repository root for version names (default: found from the working
            directory).

    Returns:
        A :class:`~evalport_spec.spec.SpecVersion` for a version, else a
        :class:`~evalport_spec.schemaset.SchemaSet`; every schema in it valid against its
        meta-schema.

    Raises:
        InputError: nothing by that name, unreadable or invalid JSON, a schema invalid against
            its meta-schema, an unsafe git revision.
    """
    from .compat.inputs import resolve_input

    return resolve_input(str(source), None if repo is None else str(repo))


def schema_set(schemas: Mapping[str, Any], label: str = "<memory>") -> SchemaSet:
    """A schema set from parsed schemas ``{file name: schema}`` (a dict or a boolean each),
    references between them resolved by ``$id`` offline, as for files on disk.

    Each schema goes through the same JSON reader as a file (so a non-finite number is refused)
    and is named ``LABEL/NAME`` in messages.

    Raises:
        InputError: a schema that is not an object or boolean, two schemas with one ``$id``, a
            schema invalid against its meta-schema (JSON Schema 2020-12 unless ``$schema`` says
            otherwise).
    """
    import json

    from .jsonload import loads
    from .schemaset import SchemaSet

    loaded = {}
    for name, value in schemas.items():
        try:
            text = json.dumps(value, allow_nan=False)
        except (TypeError, ValueError) as exc:
            raise InputError(f"not JSON: {exc}", f"{label}/{name}") from None
        loaded[name] = loads(text, f"{label}/{name}")
    out = SchemaSet.from_loaded(loaded, label)
    out.require_valid()
    return out


def compare(old: SpecVersion | SchemaSet, new: SpecVersion | SchemaSet, *,
            ignore: str | Path | None = None, **kw: Any) -> Classification:
    """Classify the change ``old`` -> ``new`` as PATCH, MINOR or MAJOR (toolchain.md,
    "Compatibility classes"), as ``evalport-spec diff`` does
    (:func:`evalport_spec.compat.classify.classify`).

    Args:
        old, new: from :func:`load` or :func:`schema_set`; two versions are compared with their
            cross-field rule changes, anything else by schemas.
        ignore: a ``diff --ignore`` file; the findings it matches are left out of the classes.
        **kw: options of :func:`evalport_spec.compat.compare` (``format_assertion=True``,
            ``search_budget=60`` generated documents per file, ...).

    Returns:
        A :class:`~evalport_spec.compat.Classification`: ``change_class`` (backward: can every
        old document still be read), ``forward_class``, ``findings`` with witnesses, and
        ``to_json()`` valid against ``data/diff-report.schema.json``.

    Raises:
        InputError: a remote, dangling or looping ``$ref``; a malformed ignore file.
    """
    from .compat.classify import classify

    return classify(old, new, ignore=ignore, **kw)


def validate(document: Any, version: SpecVersion | str | Path, doc_type: str | None = None, *,
             format_assertion: bool = True) -> list[Violation]:
    """Validate one parsed EvalPort document against a spec version: the JSON Schema pass
    (2020-12, ``format`` asserted unless ``format_assertion=False``) plus the version's
    cross-field rules (SPEC.md, "Validation").

    Args:
        document: the parsed JSON value.
        version: a :class:`~evalport_spec.spec.SpecVersion`, or what :func:`load` reads as one
            (``"draft"``, ``"1.2.0"``, a version folder).
        doc_type: ``suite``, ``testcase``, ``grader`` or ``resultset``; default: detected from
            the document's members (:meth:`evalport_spec.validation.Validator.detect_type`).

    Returns:
        The violations (:class:`~evalport_spec.validation.Violation`), sorted by instance path
        then code; an empty list means valid. For many documents build one
        :class:`~evalport_spec.validation.Validator` and call its ``validate``.

    Raises:
        InputError: ``version`` is not a spec version; the type cannot be detected or is unknown;
            a catalogued rule with no implementation.
    """
    from .spec import SpecVersion
    from .validation import Validator

    if not isinstance(version, SpecVersion):
        found = load(version)
        if not isinstance(found, SpecVersion):
            raise InputError("not a spec version (a release, 'draft' or a folder holding schemas/)",
                             str(version))
        version = found
    validator = Validator(version, format_assertion=format_assertion)
    return validator.validate(document, doc_type or Validator.detect_type(document))


def check(repo: str | Path | None = None, *, base: str | None = None,
          stages: Iterable[str] | None = None, ignore: str | Path | None = None) -> GateReport:
    """Run the spec gate over a repository, as ``evalport-spec check`` does
    (:func:`evalport_spec.gate.run_gate`; stages in docs/how-to/gate-in-ci.md).

    Args:
        repo: the repository root, or a folder inside it (default: the working directory).
        base: a git revision to compare the branch with (adds the ``base`` stage).
        stages: the stage names to run (default: all, in :data:`evalport_spec.gate.STAGES` order).
        ignore: a ``check --ignore`` file.

    Returns:
        A :class:`~evalport_spec.gate.GateReport`: ``ok``, ``exit_code`` (0 or 1),
        ``change_class``, ``findings()``, one ``StageResult`` per stage run.

    Raises:
        InputError: no spec repository there, an unknown stage name, an unsafe or missing
            ``base``, a malformed ignore file.
    """
    from .gate import run_gate
    from .spec import SpecRepo

    return run_gate(SpecRepo.discover(None if repo is None else Path(repo)), base=base,
                    stages=stages, ignore=ignore)
