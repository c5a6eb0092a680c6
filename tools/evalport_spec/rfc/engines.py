"""Adapters to the engines the RFC commands call but do not own: the diff engine
(:mod:`evalport_spec.compat`), the validator (:mod:`evalport_spec.validation`) and the
reporters (:mod:`evalport_spec.report`).

Each adapter returns ``None`` when its engine is not importable, so callers can report
"not checked" as a finding instead of failing or, worse, passing silently (fail closed:
toolchain.md, "Compatibility classes").
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..findings import ChangeClass, Finding
from ..spec import SpecVersion


def _import(name: str) -> Any | None:
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


@dataclass
class Classification:
    """The class of a change between two versions, and the diff engine's findings.

    Attributes:
        change_class: the backward class (``MAJOR`` when any finding is undecided).
        findings: the diff engine's findings, unchanged.
    """

    change_class: ChangeClass
    findings: list[Finding] = field(default_factory=list)


def classify(old: SpecVersion, new: SpecVersion, **kw: Any) -> Classification | None:
    """``compare_versions(old, new)`` reduced to one class; ``None`` if the engine is missing.

    The class is the maximum ``change_class`` of the backward findings; an undecided finding
    counts as MAJOR (toolchain.md: "an undecided change counts as MAJOR for the gate"). No
    finding at all is PATCH (the two versions accept the same documents).
    """
    compat = _import("evalport_spec.compat")
    fn = getattr(compat, "compare_versions", None) if compat else None
    if fn is None:
        return None
    result = fn(old, new, **kw)
    findings = list(getattr(result, "findings", result) or [])
    cls = ChangeClass.PATCH
    for f in findings:
        if getattr(f, "direction", "backward") != "backward":
            continue
        c = ChangeClass.MAJOR if getattr(f, "undecided", False) else f.change_class
        cls = max(cls, c)
    declared = getattr(result, "change_class", None)
    if isinstance(declared, ChangeClass):
        cls = max(cls, declared)
    return Classification(cls, findings)


def repo_documents(root: Path) -> list[tuple[str, Any]]:
    """The repository draft's examples and fixtures as counter-example candidates
    ``[(schema file name, document)]`` for the diff engine (empty if it is missing); used when
    the versions compared are in-memory ones with no folder of their own."""
    compat = _import("evalport_spec.compat")
    fn = getattr(compat, "repo_candidates", None) if compat else None
    if fn is None or not (Path(root) / "spec" / "schemas").is_dir():
        return []
    try:
        return list(fn(SpecVersion.from_dir("draft", Path(root) / "spec")))
    except Exception:  # noqa: BLE001 - candidates only strengthen the search; never fail on them
        return []


def validate(version: SpecVersion, doc_type: str, document: Any) -> list[Any] | None:
    """Validate ``document`` as ``doc_type`` under ``version`` with the full validator (schema
    pass + the version's cross-field rules): its violations (``code``, ``instance_path``,
    ``message``), or ``None`` if :mod:`evalport_spec.validation` is not importable."""
    mod = _import("evalport_spec.validation")
    validator_cls = getattr(mod, "Validator", None) if mod else None
    if validator_cls is None:
        return None
    return list(validator_cls(version).validate(document, doc_type))


def schema_only(version: SpecVersion, doc_type: str, document: Any) -> list[Any]:
    """Validate with the raw JSON Schema alone (format assertion on): the list of
    ``jsonschema`` errors. Always available (it needs only :mod:`evalport_spec.schemaset`)."""
    name = version.schema_name(doc_type)
    return list(version.schemas.validator(name).iter_errors(document))


def render(findings: list[Finding], fmt: str) -> str | None:
    """Render findings with :func:`evalport_spec.report.render` if it exists, else ``None``."""
    mod = _import("evalport_spec.report")
    fn = getattr(mod, "render", None) if mod else None
    if fn is None:
        return None
    return fn(findings, fmt)
