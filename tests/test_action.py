"""``action.yml``'s order of trust: the gate of record's step fails the job itself, before any
step runs the pull request's code (which can write ``$GITHUB_ENV`` and ``$GITHUB_PATH`` for every
later step, so a verdict read in a later step is not the base's any more)."""

from __future__ import annotations

from pathlib import Path

import yaml

ACTION = Path(__file__).resolve().parent.parent / "action.yml"


def steps() -> list[dict]:
    return yaml.safe_load(ACTION.read_text())["runs"]["steps"]


def test_the_gate_of_record_step_exits_with_its_own_status():
    judged = next(s for s in steps() if s.get("id") == "judged")
    lines = [ln.strip() for ln in judged["run"].strip().splitlines()]
    assert any(ln.startswith('"$JUDGE" check --base "$BASE"') for ln in lines)
    assert lines[lines.index(next(ln for ln in lines if ln.startswith('"$JUDGE" check'))) + 1] == "status=$?"
    assert lines[-1] == 'exit "$status"'


def test_no_step_after_the_branchs_code_decides_the_verdict():
    names = [s.get("id") for s in steps()]
    own = names.index("own")
    assert names.index("judged") < own
    # the branch's code runs only after the gate of record passed: in a job it failed, code of
    # the pull request (root on a hosted runner) could still tamper with the runner (red team)
    assert steps()[own]["if"] == ("${{ !cancelled() && steps.judged.outcome == 'success' "
                                  "&& steps.canary.outcome == 'success' }}")
    assert steps()[own]["run"].strip().splitlines()[-1].strip() == 'exit "$status"'
    assert names[own + 1:] == []  # nothing after the branch's step reads an earlier verdict


def test_the_canary_runs_the_judges_command_between_the_gate_of_record_and_the_branchs_gate():
    """The toolchain canary (docs/how-to/gate-in-ci.md, promise 9) is the judge's command, run
    only after the gate of record passed, and its step fails the job with its own status."""
    names = [s.get("id") for s in steps()]
    assert names.index("judged") < names.index("canary") < names.index("own")
    step = steps()[names.index("canary")]
    assert step["if"] == "${{ !cancelled() && steps.judged.outcome == 'success' }}"
    lines = [ln.strip() for ln in step["run"].strip().splitlines() if not ln.strip().startswith("#")]
    assert lines[1:3] == ['"$JUDGE" canary --base "$BASE" --format github', "status=$?"]
    assert lines[-1] == 'exit "$status"'
    assert step["env"]["EVALPORT_CACHE_DIR"] == "${{ steps.judge.outputs.cache }}"
