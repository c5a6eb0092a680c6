"""``check --base REF``: what this branch changes compared with a base revision.

* The draft as it is at REF (read with :mod:`evalport_spec.gitsource`, never checked out) is
  classified against the working draft and decided by the MAJOR rule
  (:func:`evalport_spec.gate.policy.apply_major_rule`) with this branch's ``spec/VERSION`` and
  RFCs -- the cumulative change since the last release is the ``draft`` stage's job.
* Released files are frozen: a file under ``spec/releases/`` at REF that is changed or removed
  on the branch fails (``released-file-changed``), and every line of REF's ``SHA256SUMS`` must
  still be in the branch's (a release only appends).
"""

from __future__ import annotations

from .. import gitsource
from ..errors import InputError
from ..findings import Finding, Location
from ..fsutil import read_optional
from ..jsonload import MAX_BYTES
from ..spec import DRAFT
from .context import GateContext, input_finding
from .manifest import MANIFEST_NAME


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
    from .stages import classify_with_policy

    out = released_changes(ctx)
    try:
        old = gitsource.spec_version_at(ctx.root, ctx.base_sha or ctx.base, "spec",
                                        name=f"{ctx.base}:spec", label=f"{ctx.base}:spec")
    except InputError as exc:
        return out + [input_finding(exc)], f"cannot read {ctx.base}:spec", None
    findings, summary, computed = classify_with_policy(ctx, old, ctx.version(DRAFT), f"against {ctx.base}")
    return out + findings, summary, computed
