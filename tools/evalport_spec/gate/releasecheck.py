"""Releases are made by ``release``, never by hand (issue 21).

A release folder that a change adds must be byte for byte what ``evalport-spec release X`` makes
from the draft of the commit the change starts from (its *base*: ``check --base REF``, or
``HEAD`` for an uncommitted release): schemas with their ``$id`` moved to ``X``, the catalogue,
SPEC.md with its changelog heading carrying the class ``release`` computes. A MAJOR release
needs every breaking finding since the previous release accepted, by fingerprint, by an RFC
that was accepted and declared MAJOR in the base.

Files added to a release folder that already existed are refused, except the one-time fixture
backfill of releases 1.0.0 to 1.3.0 (contracts.md, "Release integrity"): exactly
:func:`evalport_spec.release.release_conformance_files` of the base's draft for that version
(the same function ``release`` freezes fixtures with).
"""

from __future__ import annotations

import datetime

from .. import changelog
from ..errors import EvalportError
from ..findings import Finding, Location
from ..manifest import read_released, released_files
from ..policy import breaking
from ..release import plan_release, release_conformance_files
from ..rfc.accept import after_digest
from ..spec import DRAFT, SpecRepo
from .acceptance import states_at
from .context import GateContext

BACKFILL = ("1.0.0", "1.1.0", "1.2.0", "1.3.0")
"""Releases that may receive their frozen conformance fixtures once, after the fact."""

SHOWN = 5
"""Paths named in one finding before "and N more"."""


def _paths(names: list[str], folder: str) -> str:
    shown = ", ".join(f"{folder}/{n}" for n in names[:SHOWN])
    return shown + (f" and {len(names) - SHOWN} more" if len(names) > SHOWN else "")


def _accepted_rfcs(ctx: GateContext, base_repo: SpecRepo, commit: str, base: str, version: str
                   ) -> tuple[set[int], list[Finding]]:
    """The RFCs accepted at the base that accept the draft's breaking findings since the base's
    latest release, and one error per breaking finding none of them accepts. A finding without
    an item is accepted only for the value the base's draft has at its new location (the
    entry's ``to``, :func:`~evalport_spec.rfc.accept.after_digest`); before session 37 the
    value was not passed, so no RFC accepted such a finding and a correctly accepted MAJOR
    release was refused."""
    previous = base_repo.latest_release()
    if previous is None:
        return set(), []
    draft = base_repo.version(DRAFT)
    cls = ctx.classify(base_repo.version(previous), draft)
    at_base = states_at(ctx.root, commit)
    used: set[int] = set()
    out = []
    for f in breaking(cls.findings):
        after = after_digest(draft, f)
        hits = {n for n, s in at_base.items() if s.accepts(f.fingerprint, after)}
        used |= hits
        if not hits:
            out.append(Finding("release-major-not-accepted",
                               f"release {version} is MAJOR but {f.kind} [{f.fingerprint}] ({f.message}) is "
                               f"accepted by no RFC that was accepted and declared MAJOR at {base}",
                               new=Location(f"spec/releases/{version}"), witness=f.witness))
    return used, out


def _new_release(ctx: GateContext, base_repo: SpecRepo, commit: str, base: str, version: str,
                 files: dict[str, bytes]) -> list[Finding]:
    folder = f"spec/releases/{version}"
    md = files.get("SPEC.md", b"").decode("utf-8", "replace")
    heading = next((e for e in changelog.entries(md) if e.version == version), None)
    if heading is None:
        return [Finding("release-hand-made", f"{folder}/SPEC.md has no changelog heading for {version}; "
                        f"`evalport-spec release {version}` writes one", new=Location(f"{folder}/SPEC.md"))]
    accepted, out = _accepted_rfcs(ctx, base_repo, commit, base, version)
    try:
        plan = plan_release(base_repo, version, date=heading.date,
                            today=datetime.datetime.now(datetime.UTC).date(), accepted_rfcs=accepted)
    except EvalportError as exc:  # ReleaseRefused or InputError: one line saying why
        return out + [Finding("release-hand-made", f"{folder} was not made by `release`: `evalport-spec "
                              f"release {version} --date {heading.date}` refuses from {base}'s draft: {exc}",
                              new=Location(folder))]
    expected: dict[str, bytes] = plan.release_files
    differ = sorted(n for n in set(expected) | set(files) if expected.get(n) != files.get(n))
    if differ:
        out.append(Finding("release-hand-made",
                           f"{folder} is not what `evalport-spec release {version} --date {heading.date}` makes "
                           f"from {base}'s draft: {_paths(differ, folder)} differ; cut releases with "
                           "`release`, never by hand", new=Location(f"{folder}/{differ[0]}"),
                           extra={"paths": differ}))
    if heading.change_class != plan.change_class:
        out.append(Finding("release-class-hand-made",
                           f"{folder}/SPEC.md: the changelog heading says {heading.change_class} but `release` "
                           f"computes {plan.change_class} from {base}'s draft",
                           new=Location(f"{folder}/SPEC.md", None, heading.line)))
    if plan.change_class != "MAJOR":
        return [f for f in out if f.kind != "release-major-not-accepted"]
    return out


def release_findings(ctx: GateContext, commit: str, base: str) -> list[Finding]:
    """Error findings for release folders, and files in release folders, that the working tree
    has and commit ``commit`` (named ``base`` in messages) has not (module docstring)."""
    base_root = ctx.tree(commit, ("spec", "rfcs"))
    base_repo = SpecRepo(base_root)
    at_base = set(base_repo.releases())
    out: list[Finding] = []
    now = released_files(ctx.repo.releases_dir)
    for version in ctx.repo.releases():
        files = {rel.split("/", 1)[1]: read_released(p, f"spec/releases/{rel}") for rel, p in now.items()
                 if rel.split("/", 1)[0] == version}
        if version not in at_base:
            out += _new_release(ctx, base_repo, commit, base, version, files)
            continue
        before = {rel.split("/", 1)[1] for rel in released_files(base_repo.releases_dir)
                  if rel.split("/", 1)[0] == version}
        added = {rel: data for rel, data in files.items() if rel not in before}
        if not added:
            continue
        folder = f"spec/releases/{version}"
        fill = release_conformance_files(base_repo.version(DRAFT), version) \
            if version in BACKFILL and not any(r.startswith("conformance/") for r in before) else None
        if fill is not None and added == fill:
            continue
        why = ("files are never added to a release" if fill is None else
               f"the one-time fixture backfill of {version} must be exactly the base draft's fixtures "
               f"that apply to {version}")
        wrong = sorted(r for r in set(added) | set(fill or {}) if (fill or {}).get(r) != added.get(r))
        out.append(Finding("released-file-added", f"{folder} gains {_paths(wrong, folder)} since {base}: "
                           f"{why}", new=Location(f"{folder}/{wrong[0]}"), extra={"paths": wrong}))
    return out
