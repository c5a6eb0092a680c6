"""The gate's result types: one :class:`StageResult` per stage, gathered in a :class:`GateReport`."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..findings import ChangeClass, Finding, Severity

STATUSES = ("ok", "warn", "fail", "skip")
"""Stage statuses: ``ok`` (no error or warning), ``warn`` (warnings only), ``fail`` (at least one
error-severity finding), ``skip`` (nothing to check, with the reason in ``summary``)."""


def status_of(findings: list[Finding]) -> str:
    """``fail`` if any finding has :attr:`Severity.ERROR`, ``warn`` if any has WARNING, else ``ok``."""
    worst = max((f.severity for f in findings), default=Severity.INFO)
    return {Severity.ERROR: "fail", Severity.WARNING: "warn"}.get(worst, "ok")


@dataclass
class StageResult:
    """The outcome of one gate stage.

    Attributes:
        name: the stage name (``schemas``, ``spec-text``, ... see :data:`evalport_spec.gate.STAGES`).
        status: one of :data:`STATUSES`.
        findings: everything the stage found, errors and informational ones alike.
        seconds: wall time the stage took.
        summary: one short phrase shown beside the stage line (``"MINOR since 1.2.0"``, the
            policy rule that decided, or why the stage was skipped).
        change_class: for the classifying stages (``releases``, ``draft``, ``base``), the class.
    """

    name: str
    status: str
    findings: list[Finding] = field(default_factory=list)
    seconds: float = 0.0
    summary: str = ""
    change_class: ChangeClass | None = None

    @property
    def errors(self) -> list[Finding]:
        """Findings with error severity (the ones that fail the stage)."""
        return [f for f in self.findings if f.severity == Severity.ERROR]

    def to_json(self) -> dict[str, Any]:
        """JSON-ready dict: name, status, seconds, summary, change_class, findings."""
        d: dict[str, Any] = {"name": self.name, "status": self.status, "seconds": round(self.seconds, 3),
                             "summary": self.summary,
                             "findings": [f.to_json() for f in self.findings]}
        if self.change_class is not None:
            d["change_class"] = str(self.change_class)
        return d


@dataclass
class GateReport:
    """Every stage's result, in run order.

    Attributes:
        stages: one :class:`StageResult` per stage that ran.
        base: the base revision compared against (``check --base``), or ``None``.
        context: engine results later commands reuse (``"draft"`` -> the draft's classification
            against the latest release), not serialised.
    """

    stages: list[StageResult]
    base: str | None = None
    context: dict[str, Any] = field(default_factory=dict, repr=False)

    @property
    def ok(self) -> bool:
        """True when no stage failed."""
        return all(s.status != "fail" for s in self.stages)

    @property
    def exit_code(self) -> int:
        """0 when every stage passed (warnings allowed), 1 when any failed."""
        return 0 if self.ok else 1

    @property
    def change_class(self) -> ChangeClass | None:
        """The class of the change under review: the ``base`` stage's when it ran, else the
        ``draft`` stage's, else ``None``."""
        for name in ("base", "draft"):
            for s in self.stages:
                if s.name == name and s.change_class is not None:
                    return s.change_class
        return None

    def stage(self, name: str) -> StageResult | None:
        """The result of stage ``name``, or ``None`` if it did not run."""
        return next((s for s in self.stages if s.name == name), None)

    def findings(self) -> list[Finding]:
        """All findings of all stages, in order."""
        return [f for s in self.stages for f in s.findings]

    def to_json(self) -> dict[str, Any]:
        """JSON-ready dict: ``ok``, ``base``, ``change_class``, ``stages``."""
        cc = self.change_class
        return {"ok": self.ok, "base": self.base, "change_class": str(cc) if cc is not None else None,
                "stages": [s.to_json() for s in self.stages]}
