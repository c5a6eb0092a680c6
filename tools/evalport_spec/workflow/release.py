"""``evalport-spec release``: a release is cut only when the gate passes.

A composition above the gate and the release engine (:mod:`evalport_spec.release`), which the
gate reads to check that a release folder is what ``release`` makes: the refusals that need no
classification first (:func:`evalport_spec.release.preflight`: version, date, fixtures), then
the whole gate (:func:`evalport_spec.gate.run_gate`), then the plan with the gate's
classification and the RFCs its MAJOR rule accepted findings for.
"""

from __future__ import annotations

import datetime
from pathlib import Path

from ..fsutil import repo_lock
from ..gate import run_gate
from ..release import ReleasePlan, ReleaseRefused, apply_plan, plan_release, preflight
from ..spec import DRAFT, SpecRepo


def check_and_plan(repo: SpecRepo | str | Path, version: str, *, date: str | None = None,
                   today: datetime.date | None = None) -> ReleasePlan:
    """The release ``evalport-spec release VERSION`` would write, after the gate passed.

    Args:
        repo: the repository (a :class:`SpecRepo` or its root).
        version, date, today: as :func:`evalport_spec.release.plan_release`.

    Raises:
        InputError: as :func:`~evalport_spec.release.plan_release`; a shallow clone without the
            history the gate reads.
        ReleaseRefused: as :func:`~evalport_spec.release.plan_release`, or the gate fails (the
            message names the failing stages).
    """
    repo = repo if isinstance(repo, SpecRepo) else SpecRepo(Path(repo))
    preflight(repo, version, date=date, today=today)
    report = run_gate(repo, cache=False)  # a fresh run: its context's classifications are used below
    if not report.ok:
        failed = ", ".join(s.name for s in report.stages if s.status == "fail")
        raise ReleaseRefused(f"the gate fails ({failed}): run `evalport-spec check` and fix it first")
    accepted = {n for s in report.stages for f in s.findings if f.kind == "policy-major-accepted"
                for n in f.extra.get("rfcs", [])}
    previous = repo.latest_release()
    ctx = report.context["ctx"]
    classification = ctx.classify(ctx.version(previous), ctx.version(DRAFT)) if previous else None
    return plan_release(repo, version, date=date, today=today, accepted_rfcs=accepted,
                        classification=classification)


def cut_release(repo: SpecRepo | str | Path, version: str, *, date: str | None = None,
                today: datetime.date | None = None) -> ReleasePlan:
    """:func:`check_and_plan` and :func:`evalport_spec.release.apply_plan` under the repository
    lock. Returns the applied plan.

    Raises:
        InputError, ReleaseRefused: see :func:`check_and_plan` and
            :func:`~evalport_spec.release.apply_plan`.
    """
    repo = repo if isinstance(repo, SpecRepo) else SpecRepo(Path(repo))
    with repo_lock(repo.root, "release"):
        plan = check_and_plan(repo, version, date=date, today=today)
        apply_plan(repo, plan)
    return plan
