"""``evalport-spec check``: the gate, as stages over one repository.

Public API::

    run_gate(repo, *, base=None, stages=None, progress=None) -> GateReport
    GateReport(stages, base).ok / .exit_code / .change_class / .findings()
    StageResult(name, status, findings, seconds, summary, change_class)
    STAGES                              stage names, in run order

Stages (docs/how-to/gate-in-ci.md): ``schemas``, ``spec-text``, ``manifest``, ``history``,
``conformance``, ``rules``, ``behaviour``, ``releases``, ``draft``, ``base`` (only with
``base``), ``rfcs``, ``examples``. A stage
fails when it reports an error-severity finding; an :class:`~evalport_spec.errors.InputError`
inside a stage (a malformed file of the repository) fails that stage only, and so does an
exception from an engine (a ``stage-crashed`` finding, never a traceback).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from .. import git, names
from ..errors import InputError
from ..findings import Finding
from ..spec import SpecRepo
from . import runmemo
from .model import GateReport, StageResult, status_of

if TYPE_CHECKING:
    from .context import GateContext

STAGES: tuple[str, ...] = names.STAGES
"""Stage names in run order (the keys of :data:`.stages.STAGE_FUNCS`)."""


def _run_stage(name: str, ctx: GateContext) -> StageResult:
    from .context import StageSkipped, stage_input_finding
    from .stages import STAGE_FUNCS

    start = time.perf_counter()
    cls = None
    try:
        findings, summary, cls = STAGE_FUNCS[name](ctx)
        status = status_of(findings)
    except StageSkipped as exc:
        findings, summary, status = [], str(exc), "skip"
    except InputError as exc:
        findings, summary, status = [stage_input_finding(exc)], "input error", "fail"
    except Exception as exc:  # an engine bug fails its stage, never the whole gate with a traceback
        msg = f"stage {name!r} crashed: {type(exc).__name__}: {exc}"
        findings, summary, status = [Finding("stage-crashed", msg)], msg, "fail"
    return StageResult(name, status, findings, time.perf_counter() - start, summary, cls)


HISTORY_STAGES = ("history", "behaviour", "draft", "base")
"""Stages that read git history (the commits that created the releases)."""


def _preflight(ctx: GateContext, wanted: list[str]) -> None:
    """Raise :class:`InputError` (exit 2) before any stage runs when the history the wanted
    stages need is not in this clone: a release file whose adding commit lies beyond a shallow
    boundary (the message says ``git fetch --unshallow`` / ``fetch-depth: 0``)."""
    if ctx.repo.releases() and any(s in wanted for s in HISTORY_STAGES) and ctx.is_git():
        ctx.first_added()


def _resolve_base(root: Path, base: str) -> str:
    """The base's commit. The gate reads the base's history too, so the fetch it asks for
    brings the whole history (``--unshallow`` in a shallow clone), never ``--depth=1``."""
    try:
        return git.resolve(root, base, option="--base")
    except InputError as exc:
        if "git fetch --depth=1 " not in exc.message:
            raise
        from .history import shallow_boundaries

        full = "--unshallow " if shallow_boundaries(root) else ""
        raise InputError(exc.message.replace("git fetch --depth=1 ", f"git fetch {full}")
                         .replace("(a shallow CI clone fetches only the pull request head)",
                                  "(the gate needs the base and its history: in GitHub Actions, "
                                  "actions/checkout with `fetch-depth: 0`)"), exc.source) from None


def run_gate(repo: SpecRepo | str | Path, *, base: str | None = None,
             stages: Iterable[str] | None = None,
             progress: Callable[[StageResult], None] | None = None,
             ignore: str | Path | None = None, cache: bool = True) -> GateReport:
    """Run the gate's stages over ``repo``, or replay the report of an earlier run on the same
    inputs (:mod:`evalport_spec.gate.runmemo`).

    Args:
        repo: a :class:`SpecRepo` or its root folder.
        base: a git revision to compare the branch with (adds the ``base`` stage).
        stages: names to run (any order; they run in :data:`STAGES` order); default all.
        progress: called with each :class:`StageResult` as soon as it is done.
        ignore: a ``check --ignore`` file (:mod:`evalport_spec.gate.ignores`).
        cache: replay a stored run whose inputs are all unchanged and store this one
            (:mod:`.runmemo`; also off with ``EVALPORT_CACHE_DIR=off``, which records no input
            either). ``False`` always runs.

    Returns:
        A :class:`GateReport`. ``report.context["ctx"]`` keeps the memoised classifications of
        a run; a replayed report has ``context["replayed"]`` instead (and zero ``seconds``).

    Raises:
        InputError: an unknown stage name; an unsafe or missing ``base`` revision (the message
            says which ``git fetch`` brings it into a shallow clone); a malformed ignore file; a
            shallow clone without the commits that created the releases; an ignore file inside
            the repository with an entry of a kind other than ``rule-implementation-changed``
            (:mod:`.ignores`); a symlink under
            ``spec/`` or ``rfcs/`` that leaves the repository; a git attribute that rewrites a
            file of ``spec/``, ``rfcs/``, ``tools/``, ``.ci/``, or a packaging, ignore or module
            file at the root on checkout (:func:`.history.refuse_checkout_conversions`).
    """
    repo = repo if isinstance(repo, SpecRepo) else SpecRepo(Path(repo))
    if not cache or not runmemo.enabled():  # nothing to replay, nowhere to keep the run
        return _run_gate(repo, base, stages, progress, ignore)
    key = runmemo.run_key(repo.root, base, None if stages is None else sorted(set(stages)), ignore)
    report = runmemo.replay(key)
    if report is not None:
        for result in report.stages if progress is not None else ():
            progress(result)
        return report
    with runmemo.recording() as log:
        report = _run_gate(repo, base, stages, progress, ignore)
    runmemo.store(key, log, repo.root, report)
    return report


def _run_gate(repo: SpecRepo, base: str | None, stages: Iterable[str] | None,
              progress: Callable[[StageResult], None] | None, ignore: str | Path | None) -> GateReport:
    from ..fsutil import refuse_escaping_symlinks
    from .context import GateContext
    from .history import is_git, refuse_checkout_conversions
    from .ignores import load_check_ignores, repository_path

    refuse_escaping_symlinks(repo.root)
    if is_git(repo.root):
        refuse_checkout_conversions(repo.root)
    wanted = list(STAGES if stages is None else stages)
    unknown = [s for s in wanted if s not in STAGES]
    if unknown:
        raise InputError(f"unknown stage {unknown[0]!r} (stages: {', '.join(STAGES)})")
    ctx = GateContext(repo, base)
    if base is not None:
        ctx.base_sha = _resolve_base(repo.root, base)
    elif "base" in wanted and stages is None:
        wanted.remove("base")
    elif "base" in wanted:
        raise InputError("stage 'base' needs --base REF")
    if ignore is not None:
        ctx.ignores, ctx.ignore_notes = load_check_ignores(repo.root, ignore, ctx.base_sha)
        ctx.ignore_committed = repository_path(repo.root, Path(ignore)) is not None
    ctx.applying = tuple(s for s in ("draft", "base") if s in wanted)
    results = []
    try:
        _preflight(ctx, wanted)
        for name in STAGES:
            if name not in wanted:
                continue
            result = _run_stage(name, ctx)
            results.append(result)
            if progress is not None:
                progress(result)
    finally:
        ctx.close()
    return GateReport(results, base, {"ctx": ctx})


def change_to_accept(repo: SpecRepo | str | Path, *, base: str | None = None) -> tuple[list[Finding], str]:
    """The breaking findings of the change the gate would hold to the MAJOR rule, for
    ``rfc accept-findings``: with ``base``, REF's draft and rules against the working tree's (the
    ``base`` stage's change); without, the latest release as shipped against the draft (the
    ``draft`` stage's). Returns ``(findings, what was compared)``.

    Raises:
        InputError: an unknown or unsafe ``base``; no release to compare with; unreadable spec.
    """
    from ..policy import breaking
    from ..rfc.accept import bind_after
    from .behaviour import Side
    from .context import GateContext
    from .stages import change_findings, released_side

    repo = repo if isinstance(repo, SpecRepo) else SpecRepo(Path(repo))
    ctx = GateContext(repo, base)
    try:
        new = Side(ctx.version("draft"), ctx.program(None, "the working tree"), "the working tree")
        if base is not None:
            ctx.base_sha = git.resolve(repo.root, base, option="--base")
            old = Side(ctx.base_version(), ctx.program(ctx.base_sha, base), base)
            label = f"against {base}"
        else:
            latest = repo.latest_release()
            if latest is None:
                raise InputError("no release to compare the draft with: give --base REF")
            old, label = released_side(ctx, latest), f"since {latest}"
        return bind_after(new.version, breaking(change_findings(ctx, old, new, code=base is not None)[0])), label
    finally:
        ctx.close()


__all__ = ["GateReport", "STAGES", "StageResult", "change_to_accept", "run_gate"]
