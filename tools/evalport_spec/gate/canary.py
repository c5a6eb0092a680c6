"""The canary: the judge's known breaks, planted one at a time, judged by a toolchain under test.

The gate of record for a pull request is the base's toolchain (docs/how-to/gate-in-ci.md,
promise 1), and a change to the toolchain is only shown to the reviewer (``toolchain-changed``,
promise 2). Once such a change lands it judges every later pull request, so a careless edit
(``and f.kind != "enum-value-removed"`` in :func:`evalport_spec.policy.breaking`) would let every
later removal of an enum value through. The canary tests the changed toolchain before it lands
(promise 9):

1. scratch clones of the checkout (``git clone --shared``: the history is there, the objects
   are borrowed), at its committed ``HEAD``, one per job (:mod:`.canarypool`: the runs below
   go side by side, each in a clone of its own);
2. for each canary of :data:`~.canarybreaks.CANARIES` (the judge's code in CI, never the
   branch's): a clone is reset to ``HEAD``, one known break is written into it and committed;
3. the toolchain under test runs its own gate on that commit as a separate process
   (``env PYTHONPATH=TOOLCHAIN python -P -m evalport_spec -C CLONE check --base HEAD --stage S
   --format json``, ``--base`` left out for a canary caught by the branch's own gate only;
   started from a scratch folder, with a fresh ``EVALPORT_CACHE_DIR``, bounded in time), and
   must fail the stage ``S`` that catches the break today (exit 1) with one of the finding
   kinds the canary expects (:attr:`~.canarybreaks.Canary.expects`) among its errors;
4. the control runs (:class:`Control`): the same command, on a benign change committed on
   ``HEAD`` (a new optional member of the canary's own schema,
   :func:`~.canarybreaks.add_optional_canary_member`), with every stage of the canaries (one run
   with ``--base``, one without), must pass every one of those stages. Without them a toolchain
   that fails everything would catch every canary; with an empty commit as the control (before
   session 35), one that fails every change it is shown still did.

5. the classifier canary (:mod:`.canaryclassifier`): the toolchain under test's own ``diff
   --format json OLD NEW``, once, on folders holding the known-breaking schema pairs of this
   package's data; it must call every pair MAJOR.

6. the canary of the canary (:mod:`.canarymeta`): with ``--base`` and the checkout's own
   toolchain (how ``.ci/run`` calls it), the toolchain under test's own ``canary`` command runs
   on a scratch clone whose package is this one weakened to let every known break through; it
   must report each break this run caught, and each classifier pair, as ``passed``
   (``toolchain-canary-blind`` otherwise): once landed, that command judges the next branch.

A canary whose stage passes, or fails with none of its kinds, is an error finding ``toolchain-canary-passed``; one whose run
crashes, times out, exits 2 or prints no report is ``toolchain-canary-error``; a canary that
finds nothing to break in this spec (no released file, say) is a warning
``toolchain-canary-skipped``, unless it finds something on the branch's base (``canary --base``):
then the branch took it away, an error ``toolchain-canary-unplantable``. The canaries that need a
place in the data (an ``enum``, a bound, an RFC in comment) make it in a setup commit of their
own first (:attr:`~.canarybreaks.Canary.setup`) and are judged with ``--base`` at that commit. A stage that fails the control run is an error
``toolchain-canary-control-failed``, and its canaries are ``unproven``.

What it cannot catch: a toolchain that recognises the canaries and behaves only for them. That
is what review of ``toolchain-changed`` is for.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from .. import git
from ..errors import InputError
from ..findings import Finding, Location, Severity
from ..fsutil import run_bounded
from ..names import STAGES
from . import history
from .canarybreaks import (
    CANARIES,
    Canary,
    NothingToBreak,
    add_documented_canary_schema,
    add_optional_canary_member,
)
from .canaryclassifier import Pair, major_kinds, write_pairs
from .canarykept import changed_findings, removed_findings
from .canarymeta import blind_findings, weakened_package
from .canarypool import run_pooled
from .toolchain import is_toolchain_path

TIMEOUT = 600.0
"""Seconds one canary's gate run may take before it is stopped (a ``toolchain-canary-error``)."""

MAX_OUTPUT = 64 << 20
"""Bytes of output one canary's gate run may write."""

MAX_DEFAULT_JOBS = 4
"""Most gate runs the canary runs at once unless told (each one a process and its rule programs)."""

IDENTITY = {"GIT_AUTHOR_NAME": "evalport-canary", "GIT_AUTHOR_EMAIL": "canary@invalid",
            "GIT_COMMITTER_NAME": "evalport-canary", "GIT_COMMITTER_EMAIL": "canary@invalid"}
"""Who commits a planted break (in the scratch clone only)."""


@dataclass
class Outcome:
    """What one canary's run gave.

    Attributes:
        canary: the canary; status: ``caught`` (its stage fails with a kind it expects),
        ``passed`` (its stage passes, or fails with none of those kinds), ``error``, ``skipped`` or
        ``unproven`` (its stage fails the control run too, so failing the break proves nothing),
        ``unplantable`` (no place for the break on the head, but one on the branch's base);
        what: the planted break (or why nothing was planted); detail: for ``error`` and
        ``unproven``, what went wrong; seconds: wall time of the gate run; kinds: the kinds of
        the error findings of the canary's stage (what caught it), sorted.
    """

    canary: Canary
    status: str
    what: str
    detail: str = ""
    seconds: float = 0.0
    kinds: list[str] = field(default_factory=list)

    @property
    def name(self) -> str:
        """The canary's name."""
        return self.canary.name

    def finding(self) -> Finding | None:
        """The finding this outcome reports (``None`` when caught, and when unproven: the
        control run's finding says why)."""
        name, what = self.canary.name, self.what
        if self.status == "passed" and self.canary.stage == CLASSIFIER_STAGE:
            return Finding("toolchain-canary-passed",
                           f"the changed toolchain's classifier no longer calls a known breaking schema pair "
                           f"MAJOR ({name}: {what}); a gate built from this change would let such a change "
                           "land as MINOR or PATCH", extra={"canary": name, "stage": CLASSIFIER_STAGE})
        if self.status == "passed":
            kinds = " or ".join(self.canary.expects)
            said = f" ({self.detail})" if self.detail else ""
            return Finding("toolchain-canary-passed",
                           f"the changed toolchain passes a known break ({name}: {what}); its "
                           f"`{self.canary.stage}` stage no longer fails it with {kinds}{said}, so a gate "
                           "built from this change would let it land, or catch it only by a side effect",
                           extra={"canary": name, "stage": self.canary.stage, "expects": list(self.canary.expects)})
        if self.status == "error":
            return Finding("toolchain-canary-error",
                           f"the changed toolchain could not judge a known break ({name}: {what}): "
                           f"{self.detail}", extra={"canary": name, "stage": self.canary.stage})
        if self.status == "unplantable":
            return Finding("toolchain-canary-unplantable",
                           f"canary {name} cannot be planted on this branch but can on its base ({what}): "
                           "the branch took away what the known break needs, so the check it tests goes "
                           "untested", extra={"canary": name, "stage": self.canary.stage})
        if self.status == "skipped":
            return Finding("toolchain-canary-skipped", f"canary {name} not run: {what}",
                           severity=Severity.WARNING, extra={"canary": name})
        return None


CLASSIFIER_STAGE = "diff"
"""The :attr:`Canary.stage` of a classifier pair's outcome: judged by ``evalport-spec diff``."""


def _not_planted(root: Path) -> str:
    """The ``plant`` of a classifier pair's :class:`Canary`: nothing is planted in a clone."""
    raise NothingToBreak("a classifier pair is judged by diff, not planted")


def pair_canary(pair: Pair) -> Canary:
    """The :class:`Canary` an outcome of ``pair`` names (``classifier-NAME``, stage ``diff``)."""
    return Canary(f"classifier-{pair.name}", CLASSIFIER_STAGE, _not_planted, ("MAJOR",))


@dataclass
class Control:
    """The control run: the toolchain under test's gate on ``HEAD`` with a benign change and no
    break planted, with the stages and the ``--base`` of the canaries it controls. The change is
    made as a canary's break is: a setup commit adds the canary's own schema, documented
    (:func:`~.canarybreaks.add_documented_canary_schema`), and the change on top adds an optional
    member to it (:func:`~.canarybreaks.add_optional_canary_member`); ``--base`` is the setup
    commit. Every one of those stages must pass (``ok``, ``warn`` or ``skip``): a stage that
    fails a change that breaks nothing fails every break too, so its canaries prove nothing (a
    toolchain that fails everything, or every change, would otherwise catch every canary).

    Attributes:
        against_base: run with ``--base HEAD`` (the canaries whose :attr:`Canary.against_base`
            is true) or without; stages: the stages run, in run order;
        status: ``pending`` (not run yet), ``clean``, ``failed`` (a stage fails) or ``error``
        (the benign change could not be made, or the run crashed, timed out, exited 2 or wrote
        no report); failing: ``{stage: kinds of
        its error findings}`` of the stages that fail; detail: for ``error``, what went wrong;
        seconds: wall time.
    """

    against_base: bool
    stages: tuple[str, ...]
    status: str = "pending"
    failing: dict[str, list[str]] = field(default_factory=dict)
    detail: str = ""
    seconds: float = 0.0

    @property
    def name(self) -> str:
        """``control`` (``control-no-base`` for the run without ``--base``)."""
        return "control" if self.against_base else "control-no-base"

    @property
    def what(self) -> str:
        """What was run, one phrase."""
        base = "check --base SETUP" if self.against_base else "check"
        return f"HEAD with a benign change, no break planted ({base}: {', '.join(self.stages)})"

    def spoils(self, stage: str) -> str | None:
        """Why a canary of ``stage`` proves nothing under this control (``None``: it does)."""
        if self.status == "error":
            return "the control run (HEAD with a benign change, no break planted) could not be judged"
        if stage in self.failing:
            return f"its `{stage}` stage fails HEAD with a benign change, no break planted, too (the control run)"
        return None

    def finding(self) -> Finding | None:
        """The finding this control reports (``None`` when clean)."""
        if self.status == "error":
            return Finding("toolchain-canary-error",
                           f"the changed toolchain could not judge HEAD with a benign change, no break "
                           f"planted (the canary's control run): {self.detail}", extra={"canary": self.name})
        if self.status == "failed":
            said = "; ".join(f"`{s}` ({', '.join(k) or 'no error finding'})" for s, k in self.failing.items())
            return Finding("toolchain-canary-control-failed",
                           f"the changed toolchain fails HEAD with a benign change, no break planted: {said}; "
                           "a known break those stages fail proves nothing, since they fail without one",
                           extra={"canary": self.name, "stages": list(self.failing)})
        return None


@dataclass
class CanaryRun:
    """Every canary's :class:`Outcome` (in order), the :class:`Control` runs, and the outcome
    of each classifier pair (:func:`pair_canary`, in order)."""

    controls: list[Control]
    outcomes: list[Outcome]
    classified: list[Outcome] = field(default_factory=list)
    removed: list[Finding] = field(default_factory=list)
    """:mod:`.canarykept`'s findings: ``toolchain-canary-removed`` errors (judge canaries the
    toolchain under test no longer lists) and ``toolchain-canary-changed`` warnings."""
    blind: list[Finding] = field(default_factory=list)
    """:mod:`.canarymeta`'s ``toolchain-canary-blind`` errors: known breaks the toolchain under
    test's own ``canary`` command does not fail on the judge's weakened toolchain."""

    def findings(self) -> list[Finding]:
        """The findings of the controls, the outcomes and the classifier pairs (none for a clean
        control or a caught canary; one for all the pairs when the ``diff`` run failed), located
        at ``tools/``."""
        broken = [o for o in self.classified if o.status == "error"]
        judged = [o for o in self.classified if o.status != "error"]
        found = [f for f in (x.finding() for x in [*self.controls, *self.outcomes, *judged]) if f is not None]
        found += self.removed + self.blind
        if broken:  # one run judged every pair: one finding says it failed
            found.append(Finding("toolchain-canary-error",
                                 f"the changed toolchain could not judge the classifier's {len(broken)} known "
                                 f"breaking schema pair(s): {broken[0].detail}", extra={"canary": "classifier"}))
        for f in found:
            f.new = Location("tools")
        return found


# --- running -----------------------------------------------------------------------------------

def _stage_results(proc: subprocess.CompletedProcess[bytes], stages: tuple[str, ...]
                   ) -> tuple[dict[str, tuple[str, list[str]]] | None, str]:
    """``({stage: (status, kinds)}, "")`` of a finished gate run of ``stages`` (``kinds``: the
    kinds of the stage's error findings, sorted, once each), or ``(None, what went wrong)``."""
    err = proc.stderr.decode("utf-8", "replace").strip().splitlines()
    tail = f" ({err[-1][:300]})" if err else ""
    if proc.returncode not in (0, 1):
        return None, f"its gate exited {proc.returncode}{tail}"
    out = {}
    try:
        report = json.loads(proc.stdout)
        for stage in stages:
            result = next(s for s in report["stages"] if s["name"] == stage)
            out[stage] = (result["status"], sorted({f["kind"] for f in result.get("findings", [])
                                                    if f.get("severity") == "error"}))
    except (ValueError, KeyError, TypeError, StopIteration, AttributeError):
        names = " and ".join(f"`{s}`" for s in stages)
        return None, f"its gate (exit {proc.returncode}) wrote no JSON report with a {names} stage{tail}"
    return out, ""


def _verdict(proc: subprocess.CompletedProcess[bytes], stage: str, expects: tuple[str, ...]
             ) -> tuple[str, str, list[str]]:
    """``(status, detail, kinds)`` of a finished gate run of ``stage``: ``kinds`` are the kinds
    of the stage's error findings, sorted, once each. The break is caught only when the stage
    fails with one of the kinds ``expects`` among them: a stage failing on something else (a
    side effect of the planting) says nothing of the check the canary tests."""
    results, detail = _stage_results(proc, (stage,))
    if results is None:
        return "error", detail, []
    status, kinds = results[stage]
    if proc.returncode == 1 and status == "fail":
        if set(kinds) & set(expects):
            return "caught", "", kinds
        return "passed", f"its `{stage}` stage fails it with {', '.join(kinds) or 'no error finding'} only", kinds
    if proc.returncode == 1 or status == "fail":
        return "error", f"its gate exited {proc.returncode} with the `{stage}` stage {status!r}", kinds
    return "passed", "", kinds


def _control_verdict(proc: subprocess.CompletedProcess[bytes], control: Control) -> None:
    """Set ``control``'s status, failing stages and detail from its finished gate run."""
    results, detail = _stage_results(proc, control.stages)
    if results is None:
        control.status, control.detail = "error", detail
        return
    control.failing = {s: kinds for s, (status, kinds) in results.items() if status == "fail"}
    if bool(control.failing) != (proc.returncode == 1):
        control.status = "error"
        control.detail = (f"its gate exited {proc.returncode} with the stages "
                          + ", ".join(f"`{s}` {status!r}" for s, (status, _) in results.items()))
    else:
        control.status = "failed" if control.failing else "clean"


def _gate_env(toolchain: Path, cache: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "PYTHON"))}
    env.update(PYTHONPATH=str(toolchain), EVALPORT_CACHE_DIR=cache, PYTHONDONTWRITEBYTECODE="1",
               NO_COLOR="1")
    return env


@dataclass(frozen=True)
class _Setup:
    """What every run shares: the commit planted on, the branch's base, the toolchain under test (``tools``; ``None``:
    the ``tools/`` of the clone the gate judges), the interpreter, the time limit, the scratch
    folder (caches go there), and the gate runs going on (:meth:`stop_all` ends them)."""

    head: str
    base: str | None
    """The commit the branch is judged against (``canary --base``), resolved; ``None`` when not given."""
    tools: Path | None
    python: str
    timeout: float
    scratch: Path
    running: set[subprocess.Popen[bytes]] = field(default_factory=set)
    """The gate runs going on (each the leader of a process group of its own)."""
    lock: threading.Lock = field(default_factory=threading.Lock)

    def stop_all(self) -> None:
        """Kill every gate run going on, with the processes it started (its group)."""
        with self.lock:
            for proc in self.running:
                if proc.returncode is None:  # not reaped: its id is still its own
                    with contextlib.suppress(ProcessLookupError, PermissionError):
                        os.killpg(proc.pid, signal.SIGKILL)

    def reset(self, clone: Path, commit: str | None = None) -> None:
        """Reset ``clone`` to ``commit`` (default :attr:`head`), untracked files removed. Raises
        InputError when git fails."""
        git.run(clone, "reset", "-q", "--hard", commit or self.head)
        git.run(clone, "clean", "-q", "-fdx")

    def commit(self, clone: Path, message: str) -> None:
        """Commit everything in ``clone``'s working tree (an empty commit when nothing changed).
        Raises InputError when git fails."""
        git.run(clone, "add", "-A")
        git.run(clone, "-c", "commit.gpgsign=false", "commit", "-q", "--no-verify", "--allow-empty", "-m",
                message, env=IDENTITY)

    def gate(self, clone: Path, stages: tuple[str, ...], base: str | None
             ) -> tuple[subprocess.CompletedProcess[bytes] | None, str, float]:
        """Run the toolchain's gate on ``clone``'s commit (``--base base`` unless ``None``):
        ``(finished run, "", seconds)``, or ``(None, what went wrong, seconds)``."""
        cache = tempfile.mkdtemp(prefix="cache-", dir=self.scratch)
        argv = ["-C", str(clone), "check", *(("--base", base) if base is not None else ()),
                *(a for s in stages for a in ("--stage", s)), "--format", "json"]
        return self.run(argv, clone, cache, self.scratch, "gate")

    def run(self, args: list[str], clone: Path, cache: str, cwd: Path, what: str
            ) -> tuple[subprocess.CompletedProcess[bytes] | None, str, float]:
        """Run ``python -P -m evalport_spec ARGS`` of the toolchain under test (``clone``'s
        ``tools/`` when none was given) from ``cwd``, with ``cache`` as its cache, bounded in time
        and output, stopped by :meth:`stop_all`: ``(finished run, "", seconds)``, or ``(None,
        what went wrong, seconds)`` (``what``: ``gate``, ``diff``, as the message names it)."""
        mine: list[subprocess.Popen[bytes]] = []

        def started(proc: subprocess.Popen[bytes]) -> None:
            mine.append(proc)
            with self.lock:
                self.running.add(proc)

        start = time.monotonic()
        try:
            done = run_bounded([self.python, "-P", "-m", "evalport_spec", *args], timeout=self.timeout,
                               max_bytes=MAX_OUTPUT, env=_gate_env(self.tools or clone / "tools", cache), cwd=cwd,
                               label=f"the toolchain's {what}", own_group=True, started=started)
        except subprocess.TimeoutExpired:
            return None, f"its {what} ran longer than {self.timeout:g}s", time.monotonic() - start
        except (OSError, InputError) as exc:
            return None, f"its {what} could not run: {exc}", time.monotonic() - start
        finally:
            with self.lock:
                self.running.difference_update(mine)
        return done, "", time.monotonic() - start


def _plant(canary: Canary, clone: Path, setup: _Setup) -> tuple[str | None, str]:
    """Run ``canary``'s setup (committed) and plant its break in ``clone`` (reset first):
    ``(the commit to judge it against, what was planted)``, the commit ``None`` for a canary
    run without ``--base``.

    Raises:
        NothingToBreak: nothing to plant on; OSError, ValueError, InputError: the planting failed.
    """
    setup.reset(clone)
    base: str | None = setup.head
    if canary.setup is not None:
        canary.setup(clone)
        setup.commit(clone, f"canary setup: {canary.name}")
        base = git.resolve(clone, "HEAD")
    return (base if canary.against_base else None), canary.plant(clone)


def _plantable_at_base(canary: Canary, clone: Path, setup: _Setup) -> bool:
    """Whether ``canary`` can be planted on the branch's base (:attr:`_Setup.base`); ``clone`` is
    reset to the head afterwards.

    Raises:
        InputError: git failed to reset or commit the scratch clone.
    """
    if setup.base is None or setup.base == setup.head:
        return False
    try:
        setup.reset(clone, setup.base)
        if canary.setup is not None:
            canary.setup(clone)
        canary.plant(clone)
    except (NothingToBreak, OSError, ValueError, InputError):
        return False
    finally:
        setup.reset(clone)
    return True


def _run_canary(canary: Canary, clone: Path, *, setup: _Setup) -> Outcome:
    """Plant ``canary`` in ``clone`` (:func:`_plant`), commit it, and run the toolchain under
    test on it. Returns its :class:`Outcome`: ``unplantable`` when it cannot be planted on the
    head but can on the branch's base (the branch took away what it needs), ``skipped`` when it
    cannot be planted on either.

    Raises:
        InputError: git failed to reset or commit the scratch clone.
    """
    try:
        base, what = _plant(canary, clone, setup)
    except (NothingToBreak, OSError, ValueError, InputError) as exc:
        why = str(exc) if isinstance(exc, NothingToBreak) else f"could not plant it: {exc}"
        if _plantable_at_base(canary, clone, setup):
            return Outcome(canary, "unplantable", why)
        return Outcome(canary, "skipped", why)
    setup.commit(clone, f"canary: {canary.name}")
    proc, detail, seconds = setup.gate(clone, (canary.stage,), base)
    if proc is None:
        return Outcome(canary, "error", what, detail, seconds)
    status, detail, kinds = _verdict(proc, canary.stage, canary.expects)
    return Outcome(canary, status, what, detail, seconds, kinds)


def _run_classifier(pairs: tuple[Pair, ...], clone: Path, *, setup: _Setup) -> list[Outcome]:
    """Run the toolchain under test's ``diff --format json --no-cache --fail-on never --search-budget 0
    OLD NEW`` once
    on two folders holding every pair (:mod:`.canaryclassifier`): a pair is ``caught`` when the
    report has a MAJOR finding on its file, ``passed`` when not; every pair is ``error`` when the
    run fails. ``clone`` (reset to the head) gives the toolchain when none was given.

    Raises:
        InputError: git failed to reset the scratch clone.
    """
    setup.reset(clone)
    folder = Path(tempfile.mkdtemp(prefix="classifier-", dir=setup.scratch))
    old, new = write_pairs(folder, pairs)
    # --search-budget 0: the classifier's own reasoning is under test; the counter-example search
    # only samples (it finds some lost formats by luck: an unasserted "uri-template" it missed)
    args = ["diff", str(old), str(new), "--format", "json", "--no-cache", "--fail-on", "never", "--search-budget", "0"]
    done, detail, seconds = setup.run(args, clone, str(folder / "cache"), folder, "diff")
    kinds = None
    if done is not None:
        err = done.stderr.decode("utf-8", "replace").strip().splitlines()
        tail = f" ({err[-1][:300]})" if err else ""
        try:
            kinds = major_kinds(json.loads(done.stdout), pairs) if done.returncode == 0 else None
        except (ValueError, KeyError, TypeError, AttributeError):
            kinds = None
        if kinds is None:
            detail = f"its diff (exit {done.returncode}) wrote no diff report{tail}"
    out = []
    for pair in pairs:
        what = f"witness {json.dumps(pair.witness)} valid under old, invalid under new"
        if kinds is None:
            out.append(Outcome(pair_canary(pair), "error", what, detail, seconds))
        else:
            found = kinds[pair.name]
            out.append(Outcome(pair_canary(pair), "caught" if found else "passed", what, "", seconds, found))
    return out


def _run_control(control: Control, clone: Path, *, setup: _Setup) -> Control:
    """Run ``control`` in ``clone``: on the head, a setup commit (the canary's documented schema)
    and the benign change on it (:class:`Control`); returns it, its status set (``error`` when
    the change cannot be made: without it the control proves nothing, so this fails closed).

    Raises:
        InputError: git failed to reset or commit the scratch clone.
    """
    setup.reset(clone)
    try:
        add_documented_canary_schema(clone)
        setup.commit(clone, "canary: control setup")
        base = git.resolve(clone, "HEAD")
        add_optional_canary_member(clone)
    except (NothingToBreak, OSError, ValueError, InputError) as exc:
        control.status, control.detail = "error", f"its benign change could not be made: {exc}"
        return control
    setup.commit(clone, "canary: control (a benign change, no break planted)")
    proc, control.detail, control.seconds = setup.gate(clone, control.stages, base if control.against_base else None)
    if proc is None:
        control.status = "error"
    else:
        _control_verdict(proc, control)
    return control


def controls_for(canaries: tuple[Canary, ...]) -> list[Control]:
    """One :class:`Control` per ``--base`` choice the canaries make (with ``--base`` first),
    each with the distinct stages of its canaries in run order (:data:`~evalport_spec.names.STAGES`)."""
    out = []
    for against_base in (True, False):
        stages = {c.stage for c in canaries if c.against_base == against_base}
        if stages:
            out.append(Control(against_base, tuple(s for s in STAGES if s in stages)))
    return out


def require_package(tools: str | os.PathLike[str], shown: str | None = None) -> None:
    """Check that folder ``tools`` holds the ``evalport_spec`` package to test.

    Raises:
        InputError: it does not (one line naming ``shown``, default the folder).
    """
    if not (Path(tools) / "evalport_spec" / "__init__.py").is_file():
        raise InputError(f"{shown or tools}: no evalport_spec package to test (--toolchain)")


def default_jobs() -> int:
    """How many gate runs the canary runs at once by default: the processors this process may
    use, at most :data:`MAX_DEFAULT_JOBS`."""
    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:  # not on every platform
        cpus = os.cpu_count() or 1
    return max(1, min(cpus, MAX_DEFAULT_JOBS))


def run_canaries(repo: str | os.PathLike[str], toolchain: str | os.PathLike[str] | None = None, *,
                 canaries: tuple[Canary, ...] = CANARIES, pairs: tuple[Pair, ...] = (), base: str | None = None,
                 python: str | None = None, timeout: float = TIMEOUT, jobs: int | None = None,
                 progress: Callable[[Outcome | Control], None] | None = None) -> CanaryRun:
    """Run the control runs and every canary against the toolchain under test.

    Args:
        repo: a git checkout of a spec repository (its committed ``HEAD`` is what is cloned).
        toolchain: the folder put on ``PYTHONPATH`` (it holds ``evalport_spec``); default each
            scratch clone's own ``tools/`` (the checkout's toolchain as committed).
        canaries: the breaks to plant (default :data:`~.canarybreaks.CANARIES`).
        pairs: the known-breaking schema pairs the toolchain's ``diff`` must call MAJOR, in one
            run (:func:`~.canaryclassifier.load_pairs`; default none).
        base: the revision the branch is judged against (``canary --base``): a canary that
            cannot be planted on ``HEAD`` but can on it is ``unplantable`` (an error), not skipped.
        python: the interpreter that runs the toolchain (default this one).
        timeout: seconds per gate run.
        jobs: how many gate runs at once, each in a scratch clone of its own (default
            :func:`default_jobs`); the control runs start first.
        progress: called with each :class:`Control` and :class:`Outcome` as soon as it is known
            (an outcome once its control run is known too).

    Returns:
        the :class:`CanaryRun`: one :class:`Outcome` per canary, in order (a canary whose stage
        fails its control run is ``unproven``), the :class:`Control` runs, and one
        :class:`Outcome` per pair.

    Raises:
        InputError: ``repo`` is not a git checkout with a commit; ``toolchain`` has no
            ``evalport_spec`` package; git failed in a scratch clone.
    """
    root = Path(repo).resolve()
    if not (root / "spec" / "schemas").is_dir():
        raise InputError(f"{root}: not a spec repository (no spec/schemas folder)")
    head = git.resolve(root, "HEAD")
    base_sha = None if base is None else git.resolve(root, base, option="--base")
    controls = controls_for(canaries)
    with tempfile.TemporaryDirectory(prefix="evalport-canary-") as tmp:
        scratch = Path(tmp)
        count = max(1, min(jobs or default_jobs(), len(controls) + len(canaries) + bool(pairs)))
        clones = [_clone(root, head, scratch / f"repo-{i}") for i in range(count)]
        under_test = clones[0] / "tools" if toolchain is None else Path(toolchain)
        require_package(under_test, "the checkout's tools/" if toolchain is None else str(toolchain))
        removed = (removed_findings(under_test, {c.name for c in canaries}, {p.name for p in pairs})
                   + changed_findings(under_test, {c.name for c in canaries}, Path(__file__).with_name("canarybreaks.py")))
        setup = _Setup(head, base_sha, None if toolchain is None else Path(toolchain).resolve(), python or sys.executable,
                       timeout, scratch)
        work: list[Callable[[Path], Outcome | Control | list[Outcome]]] = [
            *(functools.partial(_run_control, c, setup=setup) for c in controls),
            *((functools.partial(_run_classifier, pairs, setup=setup),) if pairs else ()),
            *(functools.partial(_run_canary, c, setup=setup) for c in canaries)]
        waiting: list[Outcome] = []  # outcomes known before their control run

        def done(_: int, item: Outcome | Control | list[Outcome]) -> None:
            if isinstance(item, list):  # the classifier pairs: no control run decides them
                for outcome in item if progress is not None else ():
                    progress(outcome)
                return
            if isinstance(item, Outcome):
                waiting.append(item)
            elif progress is not None:
                progress(item)
            known = {c.against_base for c in controls if c.status != "pending"}
            for outcome in [o for o in waiting if o.canary.against_base in known]:
                waiting.remove(outcome)
                _controlled(outcome, controls)
                if progress is not None:
                    progress(outcome)

        results = run_pooled(work, clones, done, abort=setup.stop_all)
        outcomes = [r for r in results if isinstance(r, Outcome)]
        classified = [o for r in results if isinstance(r, list) for o in r]
        blind = []
        if base_sha is not None and toolchain is None and base_sha != head:
            blind = _run_meta(root, clones[0], canaries, outcomes, classified, setup=setup)
    return CanaryRun(controls, outcomes, classified, removed, blind)


META_TIMEOUTS = 6
"""The branch canary's run on the weakened judge (:mod:`.canarymeta`) may take this many times
a gate run's time limit (it is itself a canary run: controls, canaries and a diff)."""


def _run_meta(root: Path, clone: Path, canaries: tuple[Canary, ...], outcomes: list[Outcome],
              classified: list[Outcome], *, setup: _Setup) -> list[Finding]:
    """The canary of the canary (:mod:`.canarymeta`): the toolchain under test's own ``canary
    --base`` command (``clone``'s ``tools/``, reset to the head) on a scratch clone of the head
    whose package is the judge's, weakened. Returns its ``toolchain-canary-blind`` errors.

    Raises:
        InputError: git failed in a scratch clone.
    """
    caught = [o.name for o in outcomes if o.status == "caught"]
    pairs = [o.name for o in classified if o.status == "caught"]
    if not caught and not pairs:
        return []
    folder = Path(tempfile.mkdtemp(prefix="meta-", dir=setup.scratch))
    weak = _clone(root, setup.head, folder / "repo")
    try:
        package = weakened_package(folder / "weak", {k for c in canaries for k in c.expects})
        shutil.rmtree(weak / "tools" / "evalport_spec", ignore_errors=True)
        shutil.copytree(package / "evalport_spec", weak / "tools" / "evalport_spec")
    except (OSError, ValueError) as exc:  # the judge's own package: fail closed, never a traceback
        return blind_findings(None, f"the weakened toolchain could not be built: {exc}", caught, pairs)
    setup.commit(weak, "canary of the canary: the judge's package, weakened")
    setup.reset(clone)
    args = ["-C", str(weak), "canary", "--base", str(setup.base), "--format", "json"]
    longer = replace(setup, timeout=setup.timeout * META_TIMEOUTS, running=setup.running, lock=setup.lock)
    proc, detail, _ = longer.run(args, clone, str(folder / "cache"), folder, "canary")
    return blind_findings(proc, detail, caught, pairs)


def _clone(root: Path, head: str, clone: Path) -> Path:
    """A scratch clone of ``root`` at ``clone``, ``head`` checked out (detached); returns it.

    Raises:
        InputError: git failed.
    """
    # started outside the checkout, so none of its own git configuration applies, and with
    # no hooks in the clone (a global core.hooksPath would otherwise run on every commit)
    git.run(clone.parent, "clone", "-q", "--shared", "--no-checkout", "--config", f"core.hooksPath={os.devnull}",
            str(root), str(clone))
    git.run(clone, "checkout", "-q", "--detach", head)
    return clone


def _controlled(outcome: Outcome, controls: list[Control]) -> Outcome:
    """``outcome``, ``unproven`` when its stage failed it (caught, or failed with none of the
    kinds it expects) and fails its control run too."""
    control = next(c for c in controls if c.against_base == outcome.canary.against_base)
    spoiled = control.spoils(outcome.canary.stage)
    if spoiled and (outcome.status == "caught" or (outcome.status == "passed" and outcome.kinds)):
        outcome.status, outcome.detail = "unproven", spoiled
    return outcome


def uncommitted_tools(repo: str | os.PathLike[str]) -> list[str]:
    """Paths under ``tools/`` that differ from ``HEAD`` in ``repo``'s working tree (edited or
    new): what a canary of the committed toolchain does not test."""
    return history.changed_paths(Path(repo).resolve(), "HEAD", ("tools",))


def toolchain_changes(repo: str | os.PathLike[str], base: str) -> list[str]:
    """The paths of the toolchain or CI configuration (:func:`.toolchain.is_toolchain_path`, the
    paths ``toolchain-changed`` lists) that differ between the commit ``base`` and ``repo``'s
    working tree, sorted: the canary has something to test only when there are some.

    Raises:
        InputError: ``base`` is not a safe revision of ``repo`` (the message says what to fetch).
    """
    root = Path(repo).resolve()
    sha = git.resolve(root, base, option="--base")
    return [p for p in history.changed_paths(root, sha, (":/",)) if is_toolchain_path(p)]


__all__ = ["CANARIES", "Canary", "CanaryRun", "Control", "NothingToBreak", "Outcome", "pair_canary", "run_canaries",
           "toolchain_changes", "uncommitted_tools"]
