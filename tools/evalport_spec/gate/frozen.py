"""Released versions stay what they shipped as: the ``history`` and ``behaviour`` stages.

``history`` (released files are immutable by history, not only by a hash file in the same
tree): every file under ``spec/releases/X/`` must be byte for byte the blob of the commit that
first added it (:func:`evalport_spec.gate.history.first_added`), and no file ever added there may
be gone. Editing a released file and its ``SHA256SUMS`` line in one commit is therefore caught
without ``--base``. A release folder not committed yet (just made by ``release``) must be what
``release`` makes from ``HEAD`` (:mod:`.releasecheck`; with ``--base`` the ``base`` stage judges
it against the base instead).

``behaviour`` (rule behaviour is part of compatibility): the working tree's rule implementations
run as their own program over the corpus (in the gate of record, ``--base``, the base's program
stands in for code the base has not reviewed: :meth:`.GateContext.executed`); every rule's ``guard`` must cover where it fires; and,
for each release, they must give every document the verdict the rule code of the commit that
created the release gave it. Released versions keep the rule behaviour they shipped with, so a
document valid under ``--spec-version 1.3.0`` as released stays valid: a stricter rule needs a
new code in the next major's catalogue (error ``release-rule-tightened``); a looser one is a
warning ``release-rule-loosened`` (the release now accepts documents it rejected).
"""

from __future__ import annotations

from .. import gitsource
from ..findings import ChangeClass, Finding, Location, Severity
from ..manifest import read_released, released_files
from ..spec import DRAFT
from . import history
from .behaviour import Side, compare_behaviour, guard_findings
from .context import GateContext, StageSkipped
from .releasecheck import release_findings
from .ruleprogram import Program

StageOut = tuple[list[Finding], str, "ChangeClass | None"]

GRANDFATHERED = {
    "0b6371363cbd8cf800c4067d2fbf81b51ee5470b":
        "catalogue entries of 1.0.0-1.3.0 re-encoded (reported_at as a list), before released "
        "files were frozen by history",
}
"""Commits of this repository's own history that edited released files before the ``history``
stage existed: for a file such a commit touched, the content it left is the frozen one. A
change to this table is a change to ``tools/``, which the base's gate judges
(``toolchain-changed``)."""


def frozen_blobs(ctx: GateContext, added: dict[str, history.Added]) -> dict[str, tuple[str, str]]:
    """``{path: (blob, "commit, date")}``: the content each released file must keep, from the
    commit that added it, or the :data:`GRANDFATHERED` commit that last touched it."""
    out = {path: (a.blob, f"the commit that first added it ({a.short}, {a.date})") for path, a in added.items()}
    for commit, why in GRANDFATHERED.items():
        if not history.is_ancestor(ctx.root, commit, "HEAD"):
            continue
        for rel, data in gitsource.read_tree(ctx.root, commit, "spec/releases").items():
            path = f"spec/releases/{rel}"
            blob = history.blob_name(ctx.root, data)
            if path in out and out[path][0] != blob:
                out[path] = (blob, f"{commit[:12]} ({why})")
    return out


def stage_history(ctx: GateContext) -> StageOut:
    """Released files against the commits that added them (module docstring)."""
    if not ctx.repo.releases():
        raise StageSkipped("no release yet")
    if not ctx.is_git():
        raise StageSkipped("not a git repository: released files are checked against SHA256SUMS only")
    added = ctx.first_added()
    frozen = frozen_blobs(ctx, added)
    now = released_files(ctx.repo.releases_dir)
    out: list[Finding] = []
    uncommitted = []
    for rel, p in now.items():
        path = f"spec/releases/{rel}"
        if path not in frozen:
            uncommitted.append(rel)
            continue
        blob, since = frozen[path]
        if history.blob_name(ctx.root, read_released(p, path)) != blob:
            out.append(Finding("released-file-changed",
                               f"released file {path} differs from {since}; released files are frozen "
                               "(correct them in a new release)", old=Location(f"{added[path].short}:{path}"),
                               new=Location(path)))
    for path, first in sorted(added.items()):
        rel = path.removeprefix("spec/releases/")
        if "/" in rel and rel not in now:
            out.append(Finding("released-file-removed",
                               f"released file {path}, added by {first.short} ({first.date}), is gone; "
                               "released files are frozen", old=Location(f"{first.short}:{path}")))
    if uncommitted and ctx.base is None:
        out += release_findings(ctx, history.head(ctx.root), "HEAD")
    done = len(now) - len(uncommitted)
    summary = f"{done} released file(s) as first committed"
    if uncommitted:
        summary += f", {len(uncommitted)} not committed yet"
    return out, summary, None


def _grouped(kind: str, code: str, hits: list[tuple[str, Finding]]) -> Finding:
    versions = [v for v, _ in hits]
    version, f = hits[-1]
    where = f.extra.get("violation", {}).get("instance_path") or "/"
    if kind == "rule-behaviour-tightened":
        return Finding(
            "release-rule-tightened",
            f"{code}: the working tree's rules reject ({code} at {where}) a document that "
            f"{', '.join(versions)} accepted with the rules it shipped with; released versions keep "
            f"their rule behaviour (`--spec-version {version}` means what {version} meant): make a "
            "stricter rule a new code of the next major's catalogue",
            ChangeClass.MAJOR, Severity.ERROR, f.old, f.new, witness=f.witness, code=code,
            extra={"releases": versions, **f.extra})
    return Finding(
        "release-rule-loosened",
        f"{code}: the working tree's rules accept a document that {', '.join(versions)} rejected "
        f"({code} at {where}) with the rules it shipped with; those releases now accept more "
        "than they did", ChangeClass.MINOR, Severity.WARNING, f.old, f.new, witness=f.witness,
        code=code, direction="forward", extra={"releases": versions, **f.extra})


def stage_behaviour(ctx: GateContext) -> StageOut:
    """Rule guards, and each release's rule behaviour as shipped (module docstring)."""
    draft = ctx.version(DRAFT)
    current = ctx.program(None, "the working tree")
    corpus = ctx.corpus()
    if not corpus.documents:
        raise StageSkipped("no hand-rolled rule to run")
    shipped: dict[str, tuple[str, Program]] = {}
    if ctx.is_git():
        for name in ctx.repo.releases():
            commit = ctx.release_commit(name)
            if commit is not None:
                shipped[name] = (commit, ctx.program(commit, f"{name} as released"))
    base = [ctx.program(ctx.base_sha, ctx.base)] if ctx.base_sha else []
    ctx.run_all([current] + [p for _, p in shipped.values()] + base)
    run = ctx.run(current)
    out = guard_findings(draft, corpus, run, "the working tree's implementation")
    groups: dict[tuple[str, str], list[tuple[str, Finding]]] = {}
    for name, (commit, program) in shipped.items():
        v = ctx.version(name)
        for f in compare_behaviour(Side(v, program, f"{name}'s rules as released ({commit[:12]})"),
                                   Side(v, current, "the working tree's rules"), corpus, ctx.run):
            groups.setdefault((f.kind, f.code or ""), []).append((name, f))
    out += [_grouped(kind, code, hits) for (kind, code), hits in sorted(groups.items())]
    summary = f"{len(corpus.documents)} document(s)"
    if shipped:
        names = ", ".join(shipped)
        summary += (f"; compared with the rules {names} shipped with" if groups
                    else f"; {names} keep the rule behaviour they shipped with")
    stand_in = ctx.executed(current)
    if stand_in is not current:
        summary += (f"; the working tree's rules are not run (code under review): {stand_in.label}'s "
                    "stand in, and the base stage judges their code")
    return out, summary, None
