"""Who accepts a breaking finding, and since when (issues 12, 20 and 21).

A breaking finding (MAJOR or undecided, backward) is **accepted** only when

1. an RFC with ``status: accepted`` and ``declared_class: MAJOR`` lists its exact fingerprint in
   ``accepts`` (:mod:`evalport_spec.rfc.accept`), now; and
2. that acceptance **predates the change**: the same RFC already was accepted, MAJOR, listing
   that fingerprint *before* the change that introduced the finding.

What "before" means is a :class:`Ledger`:

* :class:`BaseLedger` (``check --base REF``, the ``base`` stage): every finding is introduced by
  the change under review, so the RFC must say so in REF's tree;
* :class:`HistoryLedger` (the ``draft`` stage; no base needed): the release line is the
  first-parent history of ``HEAD`` (or of REF, then the change under review as one last step)
  since the latest release appeared; a merged pull request is one step. The acceptance holds
  from the earliest step after which it always held; the finding exists from the earliest step
  at which the draft, compared with the latest release, has it. The first must come strictly
  before the second. A working tree that differs from ``HEAD`` in ``spec/`` or ``rfcs/`` is one
  more step.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .. import gitsource
from ..errors import InputError
from ..findings import Finding
from ..rfc.accept import AFTER, WRITABLE_STATUSES, bindings_of, fingerprints_of
from ..rfc.frontmatter import parse
from ..rfc.model import RFC_FILE
from . import history


@dataclass(frozen=True)
class RfcState:
    """What one RFC says about acceptance at one point in time.

    Attributes:
        number, status, declared_class: from the file name and front matter.
        fingerprints: the ``accepts`` fingerprints.
        bindings: ``(fingerprint, to)`` of each entry (:func:`~evalport_spec.rfc.accept.bindings_of`);
            default: each fingerprint with no ``to``.
    """

    number: int
    status: str
    declared_class: str
    fingerprints: frozenset[str]
    bindings: frozenset[tuple[str, str | None]] | None = None

    def __post_init__(self) -> None:
        if self.bindings is None:
            object.__setattr__(self, "bindings", frozenset((fp, None) for fp in self.fingerprints))

    @property
    def accepts_major(self) -> bool:
        """Accepted and declaring MAJOR: the only state in which ``accepts`` counts."""
        return self.status == "accepted" and self.declared_class == "MAJOR"

    def accepts(self, fingerprint: str, after: str | None = None) -> bool:
        """Whether this state accepts the finding with ``fingerprint`` whose new value has the
        digest ``after`` (``extra["after"]``; ``None`` for a finding that names an item): an
        entry with that fingerprint and ``to`` equal to ``after``."""
        return self.accepts_major and (fingerprint, after) in (self.bindings or ())


def state_of(number: int, meta: dict[str, Any]) -> RfcState:
    """The :class:`RfcState` of front matter ``meta``."""
    return RfcState(number, str(meta.get("status", "")), str(meta.get("declared_class", "")),
                    fingerprints_of(meta), bindings_of(meta))


def states(rfcs: list[Any]) -> dict[int, RfcState]:
    """``{number: RfcState}`` for loaded :class:`evalport_spec.rfc.Rfc` records."""
    return {r.number: state_of(r.number, r.meta) for r in rfcs}


def metas_at(root: Path, commit: str) -> dict[int, dict[str, Any]]:
    """``{number: front matter}`` of the RFCs in ``rfcs/`` at ``commit``; a file whose front
    matter does not parse there is left out (it says nothing).

    Raises:
        InputError: git cannot read the commit.
    """
    out: dict[int, dict[str, Any]] = {}
    for name, data in gitsource.read_tree(root, commit, "rfcs").items():
        m = RFC_FILE.match(name)
        if "/" in name or not m:
            continue
        try:
            out[int(m.group(1))] = parse(data.decode("utf-8"), f"{commit[:12]}:rfcs/{name}").data
        except (InputError, UnicodeDecodeError):
            continue
    return out


def states_at(root: Path, commit: str) -> dict[int, RfcState]:
    """``{number: RfcState}`` of the RFCs in ``rfcs/`` at ``commit`` (:func:`metas_at`); a file
    whose front matter does not parse there accepts nothing.

    Raises:
        InputError: git cannot read the commit.
    """
    return {n: state_of(n, meta) for n, meta in metas_at(root, commit).items()}


class Ledger:
    """Which RFCs accept a finding now, and whether each did so before the change.

    Args:
        now: the RFCs of the tree under review.
        before: how messages name the point the acceptance must predate (``"at origin/main"``).
    """

    def __init__(self, now: dict[int, RfcState], before: str) -> None:
        self.now = now
        self.before = before

    def accepting(self, f: Finding) -> list[int]:
        """Numbers of the RFCs that accept ``f`` now (accepted, MAJOR, listing its fingerprint)."""
        return sorted(n for n, s in self.now.items() if s.accepts(f.fingerprint, f.extra.get(AFTER)))

    def predates(self, number: int, f: Finding) -> bool:
        """Whether RFC ``number``'s acceptance of ``f`` predates the change introducing ``f``;
        this base ledger cannot date anything (outside git), so nothing predates."""
        return False

    def candidates(self) -> list[int]:
        """RFCs declaring MAJOR that are not decided yet: the ones whose ``accepts`` could still
        list a breaking finding no RFC accepts (:data:`~evalport_spec.rfc.accept.WRITABLE_STATUSES`;
        an accepted RFC's list is closed)."""
        return sorted(n for n, s in self.now.items()
                      if s.declared_class == "MAJOR" and s.status in WRITABLE_STATUSES)


class BaseLedger(Ledger):
    """Acceptance must already be in the base revision's ``rfcs/`` (``check --base REF``), for a
    change the base does not have yet.

    A fingerprint names a place and a kind, not the new value there (``minimum-increased`` at
    ``/properties/weight/minimum`` is one fingerprint for ``0 -> 1`` and for ``1 -> 1000``).
    Once the accepted change has landed, the base's draft already has that finding against the
    latest release; the acceptance is then spent, and the same fingerprint met again on a branch
    is a further change nobody accepted (red team: an RFC accepting ``weight >= 1`` let a later
    ``weight >= 1000`` through).

    Args:
        now, at_base: the RFCs of the tree under review and of the base.
        base: how messages name the base.
        landed: the fingerprints of the base draft's breaking findings against the latest release
            (computed on first use; ``None``: no release, nothing has landed).
    """

    def __init__(self, now: dict[int, RfcState], at_base: dict[int, RfcState], base: str,
                 landed: Callable[[], set[str]] | None = None) -> None:
        super().__init__(now, f"at {base} for a change it does not have yet")
        self.at_base = at_base
        self._landed = landed
        self._spent: set[str] | None = None

    def spent(self) -> set[str]:
        """Fingerprints whose accepted change the base already has (:attr:`landed`, once)."""
        if self._spent is None:
            self._spent = self._landed() if self._landed is not None else set()
        return self._spent

    def predates(self, number: int, f: Finding) -> bool:
        state = self.at_base.get(number)
        return (state is not None and state.accepts(f.fingerprint, f.extra.get(AFTER))
                and f.fingerprint not in self.spent())


STEP_NOW = None
"""The step that is the tree under review (working tree, or the change on top of a base)."""


class HistoryLedger(Ledger):
    """Acceptance must come before the step that introduced the finding (module docstring).

    Args:
        now: the RFCs of the tree under review.
        root: the git repository.
        steps: commits of the release line, oldest first; the last step, :data:`STEP_NOW`, is
            the tree under review.
        breaking_at: the fingerprints of the breaking findings of the draft at a commit,
            compared with the latest release (computed by the gate on demand).
    """

    def __init__(self, now: dict[int, RfcState], root: Path, steps: list[str | None],
                 breaking_at: Callable[[str], set[str]]) -> None:
        super().__init__(now, "before the change that introduced it (first-parent history)")
        self.root = root
        self.steps = steps
        self._breaking_at = breaking_at
        self._present: dict[str, set[str]] = {}
        self._states: dict[str, dict[int, RfcState]] = {}

    def _has(self, i: int, fingerprint: str) -> bool:
        step = self.steps[i]
        if step is STEP_NOW:
            return True
        if step not in self._present:
            self._present[step] = self._breaking_at(step)
        return fingerprint in self._present[step]

    def _accepted(self, i: int, number: int, fingerprint: str, after: str | None = None) -> bool:
        step = self.steps[i]
        if step is STEP_NOW:
            state = self.now.get(number)
        else:
            if step not in self._states:
                self._states[step] = states_at(self.root, step)
            state = self._states[step].get(number)
        return state is not None and state.accepts(fingerprint, after)

    def introduced(self, fingerprint: str) -> int:
        """Index of the earliest step from which on the draft has the finding (binary search:
        once introduced, a finding is taken to stay)."""
        last = len(self.steps) - 1
        if last == 0 or not self._has(last - 1, fingerprint):
            return last
        lo, hi = 0, last - 1  # the finding is present at hi
        while lo < hi:
            mid = (lo + hi) // 2
            if self._has(mid, fingerprint):
                hi = mid
            else:
                lo = mid + 1
        return lo

    def accepted_since(self, number: int, fingerprint: str, after: str | None = None) -> int | None:
        """Index of the earliest step from which on RFC ``number`` always accepted the finding
        (with the new value ``after``, :meth:`RfcState.accepts`), or ``None`` when it does not
        accept it now."""
        i = len(self.steps) - 1
        if not self._accepted(i, number, fingerprint, after):
            return None
        while i > 0 and self._accepted(i - 1, number, fingerprint, after):
            i -= 1
        return i

    def predates(self, number: int, f: Finding) -> bool:
        since = self.accepted_since(number, f.fingerprint, f.extra.get(AFTER))
        return since is not None and since < self.introduced(f.fingerprint)


def release_line(root: Path, tip: str, latest: str | None, dirty: bool) -> list[str | None]:
    """The steps of a :class:`HistoryLedger`: ``tip``'s first-parent history since the commit
    that brought ``spec/releases/<latest>`` in, then :data:`STEP_NOW` when the tree under review
    is not ``tip`` itself (``dirty``).

    Raises:
        InputError: a shallow clone cut the history (with the fetch hint).
    """
    since = f"spec/releases/{latest}" if latest else None
    steps: list[str | None] = list(history.first_parent_steps(root, tip, since))
    if dirty or not steps:
        steps.append(STEP_NOW)
    else:
        steps[-1] = STEP_NOW
    return steps
