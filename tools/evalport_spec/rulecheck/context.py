"""What the rule check reads, loaded once: the draft, its fixtures, RFC proposal catalogues,
the implementation registry; plus the one-line finding format of this engine.

Every finding of :mod:`evalport_spec.rulecheck` renders as ``path:line: CODE: what is wrong``
(toolchain.md, "Cross-field rules and their documented gaps"): ``path:line`` is the catalogue
entry, fixture, SPEC.md heading or schema location concerned (relative to the repository root),
``CODE`` the rule code (or the finding kind when no rule is concerned). The message of each
finding starts with ``CODE: `` so any reporter printing ``path:line: message`` (the gate's)
prints that line.
"""

from __future__ import annotations

import inspect
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from .. import specmd
from ..catalogue import Catalogue, parse_catalogue
from ..errors import InputError
from ..findings import Finding, Location, Severity
from ..jsonload import load
from ..spec import DRAFT, SpecRepo, SpecVersion


def format_finding(finding: Finding) -> str:
    """``path:line: CODE: what is wrong``: the finding's location, then its message (which
    already starts with ``CODE: ``); ``path`` alone when the line is unknown."""
    where = finding.where()
    head = where.render() if where else ""
    return f"{head}: {finding.message}" if head else finding.message


@dataclass
class RuleContext:
    """Everything :func:`~evalport_spec.rulecheck.check.check_rules` and the listings read.

    Attributes:
        root: repository root (the folder holding ``spec/`` and ``rfcs/``), or ``None`` when
            only a version was given; used for ``rfcs/`` and to shorten paths in messages.
        spec: the version checked (normally the draft).
        registry: rule implementations keyed by code (default: the validator's ``RULES``).
    """

    root: Path | None
    spec: SpecVersion
    registry: Mapping[str, Any]

    @classmethod
    def build(cls, repo_or_spec: SpecRepo | SpecVersion | Path | str, *,
              rules: Mapping[str, Any] | None = None) -> RuleContext:
        """Resolve a repository, its root folder, or a :class:`SpecVersion` (the draft of a
        repository when its folder is ``<root>/spec``).

        Raises:
            InputError: not a spec repository, or an unreadable draft.
        """
        if isinstance(repo_or_spec, SpecVersion):
            spec = repo_or_spec
            root = None
            if spec.root is not None and spec.root.name == "spec":
                root = spec.root.parent
        else:
            repo = SpecRepo(Path(repo_or_spec.root if isinstance(repo_or_spec, SpecRepo)
                                 else repo_or_spec))
            if not (repo.spec_dir / "schemas").is_dir():
                raise InputError("not an EvalPort spec repository (no spec/schemas/)", str(repo.root))
            root = repo.root
            spec = repo.version(DRAFT)
        if rules is None:
            from ..validation import RULES

            rules = RULES
        return cls(root, spec, rules)

    # -- paths and findings ------------------------------------------------------------------

    def rel(self, path: str | Path | None) -> str | None:
        """``path`` relative to the repository root when it lies inside it, else unchanged."""
        if path is None:
            return None
        text = str(path)
        if self.root is not None:
            base = str(self.root.resolve()).rstrip("/") + "/"
            for prefix in (base, str(self.root).rstrip("/") + "/"):
                if text.startswith(prefix):
                    return text[len(prefix):]
        return text

    def finding(self, kind: str, message: str, *, code: str | None = None, file: str | None,
                line: int | None = None, pointer: str | None = None,
                severity: Severity = Severity.ERROR, **extra: Any) -> Finding:
        """A check finding located at ``file:line`` (``file`` shortened by :meth:`rel`) whose
        message is ``CODE: message`` (``CODE`` is the rule code, else ``kind``)."""
        return Finding(kind, f"{code or kind}: {message}", severity=severity, code=code,
                       new=Location(self.rel(file), pointer, line), extra=dict(extra))

    # -- what the version holds --------------------------------------------------------------

    @property
    def catalogue(self) -> Catalogue:
        """The version's rule catalogue."""
        return self.spec.catalogue

    @property
    def catalogue_file(self) -> str:
        """Label of ``rules.json`` (as used in messages before shortening)."""
        return self.spec.path_label("rules.json")

    @property
    def spec_md_file(self) -> str:
        """Label of ``SPEC.md``."""
        return self.spec.path_label("SPEC.md")

    @cached_property
    def markdown(self) -> specmd.SpecMarkdown:
        """The parsed SPEC.md."""
        return specmd.parse(self.spec.spec_md)

    @cached_property
    def rfc_catalogues(self) -> list[Catalogue]:
        """Catalogues of RFC proposals, ``rfcs/NNNN-slug/rules.json``, by folder name.

        Raises:
            InputError: a malformed proposal catalogue.
        """
        if self.root is None or not (self.root / "rfcs").is_dir():
            return []
        out = []
        for path in sorted((self.root / "rfcs").glob("*/rules.json")):
            out.append(parse_catalogue(load(path)))
        return out

    @cached_property
    def fixtures(self) -> list[Any]:
        """The version's conformance fixtures (``conformance/fixtures/*.json``), by file name.

        Raises:
            InputError: a malformed fixture file.
        """
        if self.spec.root is None:
            return []
        folder = self.spec.root / "conformance" / "fixtures"
        if not folder.is_dir():
            return []
        from ..conformance import load_fixtures

        return list(load_fixtures(folder))

    @cached_property
    def validator(self) -> Any:
        """The full validator of the version with :attr:`registry` (cached)."""
        from ..validation import Validator

        return Validator(self.spec, rules=self.registry)


@dataclass(frozen=True)
class SourceSpot:
    """Where a rule implementation is defined: file and first line (``None`` when unknown)."""

    file: str | None
    line: int | None
    name: str = ""


def implementation_spot(rule: Any) -> SourceSpot:
    """Source file and line of a registered rule's function (``inspect``), for messages."""
    fn = getattr(rule, "function", rule)
    fn = inspect.unwrap(fn) if callable(fn) else fn
    name = f"{getattr(fn, '__module__', '?')}.{getattr(fn, '__qualname__', repr(fn))}"
    try:
        file = inspect.getsourcefile(fn)
        _, line = inspect.getsourcelines(fn)
    except (TypeError, OSError):
        return SourceSpot(None, None, name)
    return SourceSpot(file, line, name)

