"""``check --base REF``: what this branch changes compared with a base revision.

* The draft as it is at REF (read with :mod:`evalport_spec.gitsource`, never checked out), with
  REF's own rule implementations run as REF's program, is compared with the working draft and
  the working tree's rule program (:func:`evalport_spec.gate.stages.change_findings`), and
  decided by the MAJOR rule with this branch's ``spec/VERSION`` and the RFC acceptances that
  were already in REF (:class:`~evalport_spec.gate.acceptance.BaseLedger`) -- the cumulative
  change since the last release is the ``draft`` stage's job.
* Released files are frozen: a file under ``spec/releases/`` at REF that is changed or removed
  on the branch fails (``released-file-changed``), and every line of REF's ``SHA256SUMS`` must
  still be in the branch's (a release only appends). A release folder the branch adds must be
  what ``release`` makes from REF's draft (:mod:`evalport_spec.gate.releasecheck`).
* The RFC status changes the branch makes follow the lifecycle, and an acceptance rests on a
  comment period REF's history shows (:mod:`evalport_spec.gate.rfclifecycle`).
* Any change to the toolchain or CI configuration is a ``toolchain-changed`` warning
  (:mod:`evalport_spec.gate.toolchain`).
* A draft fixture or example of REF the branch deletes, changes or stops applying is a warning
  (:mod:`evalport_spec.gate.weakening`).
"""

from __future__ import annotations

from .. import gitsource
from ..errors import InputError
from ..findings import Finding, Location, input_finding
from ..fsutil import read_optional
from ..jsonload import MAX_BYTES
from ..manifest import MANIFEST_NAME
from ..policy import breaking
from ..spec import DRAFT
from .acceptance import BaseLedger, states_at
from .behaviour import Side
from .context import GateContext
from .releasecheck import release_findings
from .rfclifecycle import lifecycle_findings
from .toolchain import toolchain_findings
from .weakening import encoding_findings, example_findings, fixture_findings


def released_changes(ctx: GateContext) -> list[Finding]:
    """Error findings for released files changed or removed since ``ctx.base``."""
    assert ctx.base is not None
    out: list[Finding] = []
    at_base = gitsource.read_tree(ctx.root, ctx.base_sha or ctx.base, "spec/releases")
    for rel, data in sorted(at_base.items()):
        path = ctx.repo.releases_dir / rel
        label = f"spec/releases/{rel}"
        if rel == MANIFEST_NAME:
            now = (read_optional(path, max_bytes=MAX_BYTES, label=label) or b"").decode("utf-8", "replace").splitlines()
            missing = [ln for ln in data.decode("utf-8", "replace").splitlines() if ln.strip() and ln not in now]
            for ln in missing:
                out.append(Finding("manifest-line-removed", f"{label} lost the line '{ln}' present at "
                                   f"{ctx.base}: released files are frozen", new=Location(label)))
            continue
        now_data = read_optional(path, max_bytes=MAX_BYTES, label=label)
        if now_data is None:
            out.append(Finding("released-file-changed", f"released file {label} was removed since {ctx.base}",
                               old=Location(f"{ctx.base}:{label}"), new=Location(label)))
        elif now_data != data:
            out.append(Finding("released-file-changed", f"released file {label} was changed since {ctx.base}; "
                               "released files are frozen (correct them in a new release)",
                               old=Location(f"{ctx.base}:{label}"), new=Location(label)))
    return out


def base_findings(ctx: GateContext) -> tuple[list[Finding], str, object]:
    """The ``base`` stage: ``(findings, summary, effective class)``."""
    from .stages import change_findings, decide, now_states, released_side, stale_ignores

    assert ctx.base is not None
    commit = ctx.base_sha or ctx.base
    out = (toolchain_findings(ctx) + released_changes(ctx) + release_findings(ctx, commit, ctx.base)
           + lifecycle_findings(ctx))
    try:
        old = ctx.base_version()
    except InputError as exc:
        return out + [input_finding(exc)], f"cannot read {ctx.base}:spec", None
    out += fixture_findings(old, ctx.version(DRAFT), ctx.base) + encoding_findings(old, ctx.version(DRAFT), ctx.base)
    out += example_findings(ctx.root, commit, ctx.base, ctx.repo.spec_dir / "examples")
    base_side = Side(old, ctx.program(commit, ctx.base), ctx.base)
    branch_side = Side(ctx.version(DRAFT), ctx.program(None, "the working tree"), "this branch")
    changed, computed = change_findings(ctx, base_side, branch_side, code=True)
    ledger = None
    if breaking(changed):
        now, problems = now_states(ctx)
        out += problems
        latest = ctx.repo.latest_release()

        def landed() -> set[str]:
            assert latest is not None
            return {f.fingerprint for f in breaking(change_findings(ctx, released_side(ctx, latest), base_side)[0])}

        ledger = BaseLedger(now, states_at(ctx.root, commit), ctx.base, landed if latest else None)
    findings, summary, computed = decide(ctx, changed, computed, f"against {ctx.base}", ledger)
    return out + findings + ctx.take_ignore_notes() + stale_ignores(ctx, "base"), summary, computed
