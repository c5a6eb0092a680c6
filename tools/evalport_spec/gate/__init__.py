"""``evalport-spec check``: the gate, as stages over one repository.

Public API::

    run_gate(repo, *, base=None, stages=None, progress=None) -> GateReport
    GateReport(stages, base).ok / .exit_code / .change_class / .findings()
    StageResult(name, status, findings, seconds, summary, change_class)
    STAGES                              stage names, in run order

Stages (docs/how-to/gate-in-ci.md): ``schemas``, ``spec-text``, ``manifest``, ``conformance``,
``rules``, ``releases``, ``draft``, ``base`` (only with ``base``), ``rfcs``, ``examples``. A stage
fails when it reports an error-severity finding; a stage whose engine module cannot be imported
fails with that message (it never passes silently); an :class:`~evalport_spec.errors.InputError`
inside a stage (a malformed file of the repository) fails that stage only.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from pathlib import Path

from .. import gitsource
from ..errors import InputError
from ..findings import Finding
from ..fsutil import refuse_escaping_symlinks
from ..spec import SpecRepo
from .context import EngineMissing, GateContext, StageSkipped, input_finding
from .model import GateReport, StageResult, status_of
from .stages import STAGE_FUNCS

STAGES: tuple[str, ...] = tuple(STAGE_FUNCS)
"""Stage names in run order."""


def _run_stage(name: str, ctx: GateContext) -> StageResult:
    start = time.perf_counter()
    cls = None
    try:
        findings, summary, cls = STAGE_FUNCS[name](ctx)
        status = status_of(findings)
    except StageSkipped as exc:
        findings, summary, status = [], str(exc), "skip"
    except EngineMissing as exc:
        findings = [Finding("engine-missing", str(exc))]
        summary, status = str(exc), "fail"
    except InputError as exc:
        findings, summary, status = [input_finding(exc)], "input error", "fail"
    except Exception as exc:  # an engine bug fails its stage, never the whole gate with a traceback
        msg = f"stage {name!r} crashed: {type(exc).__name__}: {exc}"
        findings, summary, status = [Finding("stage-crashed", msg)], msg, "fail"
    return StageResult(name, status, findings, time.perf_counter() - start, summary, cls)


def run_gate(repo: SpecRepo | str | Path, *, base: str | None = None,
             stages: Iterable[str] | None = None,
             progress: Callable[[StageResult], None] | None = None) -> GateReport:
    """Run the gate's stages over ``repo``.

    Args:
        repo: a :class:`SpecRepo` or its root folder.
        base: a git revision to compare the branch with (adds the ``base`` stage).
        stages: names to run (any order; they run in :data:`STAGES` order); default all.
        progress: called with each :class:`StageResult` as soon as it is done.

    Returns:
        A :class:`GateReport`; ``report.context["ctx"]`` keeps the memoised classifications.

    Raises:
        InputError: an unknown stage name; an unsafe or missing ``base`` revision (the message
            says which ``git fetch`` brings it into a shallow clone); a symlink under ``spec/``
            or ``rfcs/`` that leaves the repository.
    """
    repo = repo if isinstance(repo, SpecRepo) else SpecRepo(Path(repo))
    refuse_escaping_symlinks(repo.root)
    wanted = list(STAGES if stages is None else stages)
    unknown = [s for s in wanted if s not in STAGE_FUNCS]
    if unknown:
        raise InputError(f"unknown stage {unknown[0]!r} (stages: {', '.join(STAGES)})")
    ctx = GateContext(repo, base)
    if base is not None:
        ctx.base_sha = gitsource.resolve(repo.root, base)
    elif "base" in wanted and stages is None:
        wanted.remove("base")
    elif "base" in wanted:
        raise InputError("stage 'base' needs --base REF")
    results = []
    for name in STAGES:
        if name not in wanted:
            continue
        result = _run_stage(name, ctx)
        results.append(result)
        if progress is not None:
            progress(result)
    return GateReport(results, base, {"ctx": ctx})


__all__ = ["GateReport", "STAGES", "StageResult", "run_gate"]
