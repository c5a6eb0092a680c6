"""The report every format renders: a title, summary fields, the checks a command ran, and the
findings as arranged :class:`~evalport_spec.report.arrange.Entry` objects."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from ..record import Record
from .arrange import Entry, arrange
from .describe import is_breaking

if TYPE_CHECKING:
    from ..findings import Finding


class Check(Record):
    """One named step a command ran and its outcome (a gate stage).

    Attributes:
        name: the step (``schemas``, ``draft``...); status: ``ok``, ``warn``, ``fail`` or
        ``skip``; seconds: wall time (``None``: not timed, not shown); summary: one short
        phrase (counts, the class, why skipped).
    """

    _FIELDS = ("name", "status", "seconds", "summary")

    def __init__(self, name: str, status: str, seconds: float | None = None, summary: str = "") -> None:
        # a plain class, not a dataclass (:mod:`evalport_spec.record`, issue 16)
        self.name, self.status, self.seconds, self.summary = name, status, seconds, summary


class Report(Record):
    """What every format renders.

    Attributes:
        command: the command that reported (``check``, ``diff``, ``validate``...): names the JUnit
            suite and the SARIF run.
        title: one line, e.g. ``"diff 1.1.0 -> 1.2.0"`` or ``"EvalPort spec gate"``.
        summary: ordered ``{label: value}`` shown under the title (``class``, counts...).
        entries: the findings to show, once each, in report order (:func:`.arrange.arrange`).
        checks: the steps run, in run order (the gate's stages, the files validated), shown as
            a table; check_noun: what one is called there (``stage``, ``file``).
        data: the command's own JSON payload; the ``json`` format adds ``findings`` to it.
        notes: extra lines (ignore-file bookkeeping, skipped items).
        verdict: the closing line (``"gate: FAILED (1 of 10 stages: rules)"``), if any.
    """

    _FIELDS = ("command", "title", "summary", "entries", "checks", "check_noun", "data", "notes", "verdict")

    def __init__(self, command: str = "", title: str = "", summary: dict[str, Any] | None = None,
                 entries: list[Entry] | None = None, checks: list[Check] | None = None,
                 check_noun: str = "stage", data: dict[str, Any] | None = None, notes: list[str] | None = None,
                 verdict: str = "") -> None:
        # a plain class, not a dataclass (:mod:`evalport_spec.record`, issue 16)
        self.command, self.title, self.check_noun, self.data, self.verdict = command, title, check_noun, data, verdict
        self.summary: dict[str, Any] = {} if summary is None else summary
        self.entries: list[Entry] = [] if entries is None else entries
        self.checks: list[Check] = [] if checks is None else checks
        self.notes: list[str] = [] if notes is None else notes

    @classmethod
    def of(cls, findings: Iterable[Finding], *, stage: str | None = None, **kw: Any) -> Report:
        """A report of ``findings`` (all from one ``stage``, or none), arranged."""
        return cls(entries=arrange((f, stage) for f in findings), **kw)

    @property
    def findings(self) -> list[Finding]:
        """The entries' findings, in report order (decisions not included)."""
        return [e.finding for e in self.entries]

    @property
    def breaking(self) -> Entry | None:
        """The first entry when it is a breaking change (MAJOR or undecided): the headline of
        the Markdown report; ``None`` otherwise."""
        if self.entries and is_breaking(self.entries[0].finding):
            return self.entries[0]
        return None


def as_report(obj: Any, header: dict[str, Any] | None = None) -> Report:
    """A :class:`Report` from a report, a list of findings, or a diff ``Classification``
    (anything with ``change_class``, ``findings`` and ``to_json()``: its labels, classes and
    ignore-file bookkeeping become the title, summary and notes). ``header`` (``{"title": ...,
    other labels...}``) overrides the title and adds summary fields."""
    if isinstance(obj, Report):
        rep = obj
    elif hasattr(obj, "change_class") and hasattr(obj, "findings"):
        what = "diff" if "rule_findings" in getattr(obj, "stats", {}) else "schema diff"
        rep = Report.of(obj.findings, command="diff",
                        title=f"{what} {obj.old_label} -> {obj.new_label}",
                        summary={"class": str(obj.change_class), "forward class": str(obj.forward_class),
                                 "findings": len(obj.findings)},
                        data=obj.to_json())
        ign = getattr(obj, "ignored", None) or {}
        for key in ("used", "stale", "expired"):
            for e in ign.get(key, []):
                rep.notes.append(f"ignore entry {key}: {e.get('kind')} {e.get('pointer', '')} "
                                 f"({e.get('reason', '')})")
    else:
        rep = Report.of(obj)
    if header:
        rep.title = header.get("title", rep.title)
        rep.summary.update({k: v for k, v in header.items() if k != "title"})
    return rep
