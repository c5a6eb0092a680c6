"""What the stages share: the repository, loaded versions, classifications and RFCs, each
computed once per gate run, and the guarded import of engine modules."""

from __future__ import annotations

import dataclasses
import importlib
from pathlib import Path
from typing import Any

from ..errors import InputError
from ..findings import Finding, Location
from ..spec import DRAFT, SpecRepo, SpecVersion


class EngineMissing(Exception):
    """An engine module the stage needs cannot be imported (the stage fails with this message)."""


class StageSkipped(Exception):
    """The stage has nothing to check; the message says why."""


def engine(module: str, *names: str) -> Any:
    """Import ``evalport_spec.<module>`` and return it, or the attributes ``names`` of it (one
    value for one name, a tuple for several).

    Raises:
        EngineMissing: the module or an attribute is missing ("engine 'compat' is not available:
            No module named ...") -- a stage never passes because its engine is absent.
    """
    try:
        mod = importlib.import_module(f"evalport_spec.{module}")
        values = tuple(getattr(mod, n) for n in names)
    except (ImportError, AttributeError) as exc:
        raise EngineMissing(f"engine '{module}' is not available: {exc}") from None
    if not names:
        return mod
    return values[0] if len(values) == 1 else values


def input_finding(exc: InputError, kind: str = "input-error") -> Finding:
    """An :class:`InputError` met while checking, as an error finding at its file and line."""
    return Finding(kind, exc.message if exc.pointer is None else f"{exc.message} (at '{exc.pointer}')",
                   new=Location(str(exc.source) if exc.source else None, exc.pointer, exc.line))


@dataclasses.dataclass
class GateContext:
    """Shared state of one gate run.

    Attributes:
        repo: the repository.
        base: the base revision (``check --base``) or ``None``; ``base_sha`` its commit id.
        cache: memoised values (versions, classifications, RFCs) keyed by a tuple.
    """

    repo: SpecRepo
    base: str | None = None
    base_sha: str | None = None
    cache: dict[Any, Any] = dataclasses.field(default_factory=dict)

    @property
    def root(self) -> Path:
        """The repository root."""
        return self.repo.root

    def label(self, name: str) -> str:
        """Repository-relative folder of a version: ``spec`` or ``spec/releases/X.Y.Z``."""
        return "spec" if name == DRAFT else f"spec/releases/{name}"

    def version(self, name: str) -> SpecVersion:
        """The draft or a release, loaded once, labelled with its repository-relative folder."""
        key = ("version", name)
        if key not in self.cache:
            v = self.repo.version(name)
            self.cache[key] = dataclasses.replace(v, label=self.label(name))
        return self.cache[key]

    def classify(self, old: SpecVersion, new: SpecVersion) -> Any:
        """``compat.compare_versions(old, new)``, memoised by the two version names.

        Raises:
            EngineMissing: the diff engine has not landed.
        """
        key = ("classify", old.name, new.name)
        if key not in self.cache:
            compare = engine("compat", "compare_versions")
            self.cache[key] = compare(old, new)
        return self.cache[key]

    def rfcs(self) -> list[Any]:
        """Every RFC of ``rfcs/`` (:class:`evalport_spec.rfc.Rfc`), loaded once.

        Raises:
            EngineMissing: the RFC engine has not landed. InputError: a malformed RFC file.
        """
        if "rfcs" not in self.cache:
            load = engine("rfc", "load_rfcs")
            self.cache["rfcs"] = load(self.repo)
        return self.cache["rfcs"]

    def declared(self) -> str | None:
        """The draft's declared next version from ``spec/VERSION``."""
        return self.repo.declared_draft_version()
