"""The canary's judge reads a gate run's exit status and its JSON report together: a run whose
exit status and stage statuses disagree proves nothing, for a canary or for a control run
(session 36's mutation testing: mutants cv02, cv04 and cv06 survived the whole-run tests).

Each case's expected status is worked out from the CLI convention (exit 0: every stage passes,
exit 1: some stage fails; docs/architecture.md, "Conventions") and the canary's rule (a control run that
cannot be judged leaves its canaries unproven), not read off the judge's output.
"""

from __future__ import annotations

import json
import subprocess

import pytest

from evalport_spec.gate import canary as C
from evalport_spec.gate import canarybreaks as B


def done(code: int, stages: dict[str, str], kinds: tuple[str, ...] = ("a",)) -> subprocess.CompletedProcess:
    """A finished gate run: exit ``code``, a JSON report with ``{stage: status}``, each failing
    stage with error findings of ``kinds``."""
    report = {"stages": [{"name": s, "status": st,
                          "findings": [{"kind": k, "severity": "error"} for k in kinds] if st == "fail" else []}
                         for s, st in stages.items()]}
    return subprocess.CompletedProcess([], code, json.dumps(report).encode(), b"")


def test_a_stage_failing_the_break_in_a_run_that_exits_0_is_no_catch():
    """A gate that writes `fail` but exits 0 lets the break land in CI (CI reads the exit
    status): the canary cannot count it as caught, even with the kind it expects (cv02)."""
    status, detail, kinds = C._verdict(done(0, {"base": "fail"}), "base", ("a",))
    assert status == "error" and kinds == ["a"]
    assert detail == "its gate exited 0 with the `base` stage 'fail'"


@pytest.mark.parametrize(("code", "stages", "expected"), [
    (0, {"base": "ok", "draft": "fail"}, "error"),   # a failing stage in a run that says all passed
    (1, {"base": "ok", "draft": "warn"}, "error"),   # a run that fails with every stage passing
    (1, {"base": "ok", "draft": "fail"}, "failed"),
    (0, {"base": "ok", "draft": "warn"}, "clean"),
], ids=["fail-exit-0", "ok-exit-1", "fail-exit-1", "ok-exit-0"])
def test_a_control_run_whose_exit_status_and_stages_disagree_cannot_be_judged(code, stages, expected):
    """cv04: the control's consistency check of exit status against stage statuses."""
    control = C.Control(True, tuple(stages))
    C._control_verdict(done(code, stages), control)
    assert control.status == expected
    if expected == "error":
        shown = ", ".join(f"`{s}` {st!r}" for s, st in stages.items())
        assert control.detail == f"its gate exited {code} with the stages {shown}"


def test_a_control_run_in_error_leaves_a_caught_canary_unproven():
    """cv06: a control run that could not be judged (here: its gate exited 2) spoils every
    canary it controls, on any stage, though no stage is named failing."""
    canary = next(c for c in B.CANARIES if c.against_base)
    control = C.Control(True, (canary.stage,))
    C._control_verdict(subprocess.CompletedProcess([], 2, b"", b"boom"), control)
    assert (control.status, control.failing) == ("error", {})
    outcome = C._controlled(C.Outcome(canary, "caught", "a break", kinds=list(canary.expects)), [control])
    assert outcome.status == "unproven"
    assert outcome.detail == "the control run (HEAD with a benign change, no break planted) could not be judged"
