"""Compositions above the gate: the commands that run the gate as one of their steps.

The gate (:mod:`evalport_spec.gate`) reads the RFC engine and the release engine (a MAJOR change
is accepted by an RFC; a release folder must be what ``release`` makes), so the commands that
run the gate on their behalf live here, above all three:

* :func:`check_rfc` ``(repo, number) -> CheckReport`` -- ``rfc check``: a proposal judged as the
  gate would judge the draft it produces (:mod:`.rfccheck`);
* :func:`check_and_plan` and :func:`cut_release` ``(repo, version, *, date=None, today=None)
  -> ReleasePlan`` -- ``release``: only when the gate passes (:mod:`.release`).
"""

from .release import check_and_plan, cut_release
from .rfccheck import CheckReport, check_rfc

__all__ = ["CheckReport", "check_and_plan", "check_rfc", "cut_release"]
