"""``evalport-spec release VERSION``: freeze the draft into ``spec/releases/VERSION``.

What a release writes (toolchain.md, "Versions and releases"; SPEC.md "Governance"):

* ``spec/releases/VERSION/``: the draft's ``schemas/*.json`` with the ``$id`` version segment
  rewritten from ``draft`` to ``VERSION`` (``.../spec/draft/schemas/x.json`` ->
  ``.../spec/1.4.0/schemas/x.json``), ``rules.json``, ``SPEC.md`` with the status line saying
  it is released and frozen, and ``conformance/``: the fixture meta-schema (its ``$id``
  rewritten the same way) and, byte for byte, every draft fixture that applies to ``VERSION``
  (``since <= VERSION < until``; :func:`release_conformance_files`), as JSON-Schema-Test-Suite
  keeps one folder of tests per draft. A later change to the draft's fixtures never changes
  what an older version's implementers must pass;
* the changelog entry ``### VERSION — DATE — CLASS`` (bullets: the lines of the draft's pending
  entry ``### VERSION — unreleased``, which ``rfc apply`` and editorial marks fill, one per
  normative change to SPEC.md with what records it (:mod:`evalport_spec.specsync.record`), the
  other RFCs in the release, the computed findings) at the top of ``## Changelog`` of both the
  draft's and the release's SPEC.md, in place of the pending entry;
* the RFCs in the release marked ``status: implemented``, ``implemented_in: VERSION``, and the
  ``rfcs/README.md`` index regenerated;
* ``spec/releases/SHA256SUMS`` with the new files; ``spec/VERSION`` bumped to the next minor.

It refuses (an :class:`~evalport_spec.errors.InputError` naming the file, nothing written) when
a draft fixture is malformed or lacks ``since``, and (:class:`ReleaseRefused`, nothing written)
when the version exists, is not the next major, minor or patch version, is not the version
``spec/VERSION`` declares (SPEC.md "Governance": "Cutting a release freezes the draft under the
version in ``VERSION``"), is lower than the computed class since the last release needs
(:func:`evalport_spec.policy.version_problem`), when the date is earlier than the previous
release's (its changelog heading) or later than tomorrow, or when an RFC in the release is not
accepted. This module plans and writes a release; the gate reads it to check that a release
folder is what ``release`` makes (:mod:`evalport_spec.gate.releasecheck`), so it never runs the
gate itself: ``evalport-spec release`` refuses when the gate fails through the composition above
both, :mod:`evalport_spec.workflow.release`. A release is atomic: it is written as one journalled transaction
(:mod:`evalport_spec.journal`), so an interruption at any point leaves the repository either as it
was or fully released. The repository lock (:func:`evalport_spec.fsutil.repo_lock`) is held.

An RFC is *in the release* when it is not yet implemented and either a catalogue rule new since
the last release names it (``"rfc": N``), its proposal (``rfcs/NNNN-slug/``) is already applied
to the draft, the gate's MAJOR rule accepted a finding because of it, or its front matter
records a normative change to SPEC.md (``spec_changes``).
"""

from __future__ import annotations

import dataclasses
import datetime
import re
import shutil
import tempfile
from pathlib import Path
from typing import Any

from . import changelog, markdown
from .compat import Classification, compare_versions
from .errors import EvalportError, InputError
from .findings import ChangeClass, Finding
from .fixtures import META_SCHEMA_NAME
from .fsutil import read_optional
from .journal import transaction
from .jsonload import MAX_BYTES, loads
from .manifest import MANIFEST_NAME, parse_manifest, render_manifest, sha256
from .policy import effective_class, version_problem
from .rfc import index_text, load_rfcs, proposal_applied
from .rfc.frontmatter import render
from .spec import DRAFT, FIXTURES_DIR, SpecRepo, SpecVersion, parse_semver
from .specsync import draft_status, released_status
from .specsync.record import record, release_bullets


class ReleaseRefused(EvalportError):
    """The release was refused; the message says why. Nothing was written."""


@dataclasses.dataclass
class ReleasePlan:
    """Everything a release will write, computed before anything is written.

    Attributes:
        version, date: the release and its date (``YYYY-MM-DD``).
        previous: the release before it, or ``None``.
        change_class: computed class since ``previous`` (``INITIAL`` for a first release).
        release_files: ``{path inside spec/releases/VERSION: bytes}``.
        writes: ``{repository-relative path: bytes}`` of files replaced or created elsewhere.
        rfcs: numbers of the RFCs marked implemented.
        entry: the changelog entry (Markdown).
    """

    version: str
    date: str
    previous: str | None
    change_class: str
    release_files: dict[str, bytes]
    writes: dict[str, bytes]
    rfcs: list[int]
    entry: str

    def paths(self) -> list[str]:
        """Every repository-relative path the plan writes, sorted (release folder first)."""
        return ([f"spec/releases/{self.version}/{rel}" for rel in sorted(self.release_files)]
                + sorted(self.writes))

    def data(self, path: str) -> bytes:
        """The bytes the plan writes at repository-relative ``path`` (one of :meth:`paths`)."""
        prefix = f"spec/releases/{self.version}/"
        if path.startswith(prefix) and path[len(prefix):] in self.release_files:
            return self.release_files[path[len(prefix):]]
        return self.writes[path]

    def to_json(self) -> dict[str, Any]:
        """JSON-ready summary: ``version``, ``date``, ``previous``, ``change_class``, ``rfcs``
        (numbers), ``files`` (:meth:`paths`) and ``changelog_entry`` (Markdown)."""
        return {"version": self.version, "date": self.date, "previous": self.previous,
                "change_class": self.change_class, "rfcs": list(self.rfcs), "files": self.paths(),
                "changelog_entry": self.entry}


_DRAFT_ID = re.compile(r"(https?://[^\"\s]*?/spec/)draft(/schemas/|/conformance/)")
_STATUS = re.compile(r"^\*\*Status:\*\*.*$", re.M)


def rewrite_ids(text: str, version: str) -> str:
    """Replace the ``draft`` version segment of every ``.../spec/draft/schemas/...`` and
    ``.../spec/draft/conformance/...`` URL."""
    return _DRAFT_ID.sub(lambda m: f"{m.group(1)}{version}{m.group(2)}", text)


def release_conformance_files(draft: SpecVersion, version: str) -> dict[str, bytes]:
    """The ``conformance/`` files a release ``version`` freezes from ``draft``: the fixture
    meta-schema with its ``$id`` moved to ``version`` (:func:`rewrite_ids`) and every stored
    draft fixture that applies to ``version`` (:meth:`~evalport_spec.fixtures.Fixture.applies_to`),
    unchanged byte for byte.

    Returns:
        ``{path inside spec/releases/VERSION: bytes}`` (``conformance/fixture.schema.json``,
        ``conformance/fixtures/<id>.json``); empty when the draft has no fixtures.

    Raises:
        InputError: a draft fixture is malformed or lacks ``since`` (the message names the file
            and location), or the meta-schema is missing.
    """
    fixtures = draft.stored_fixtures
    if not fixtures:
        return {}
    meta_rel = f"{FIXTURES_DIR}/{META_SCHEMA_NAME}"
    meta = draft.read(meta_rel)
    assert meta is not None  # stored_fixtures refuses fixtures without it
    out = {meta_rel: rewrite_ids(meta.decode("utf-8"), version).encode("utf-8")}
    for fx in fixtures:
        if fx.applies_to(version):
            rel = f"{FIXTURES_DIR}/fixtures/{fx.id}.json"
            data = draft.read(rel)
            assert data is not None
            out[rel] = data
    return out


def set_status_line(spec_md: str, line: str) -> str:
    """Replace the ``**Status:** ...`` line (or add one after ``## Status``)."""
    if _STATUS.search(spec_md):
        return _STATUS.sub(lambda _m: line, spec_md, count=1)
    status = markdown.parse(spec_md).section("Status")
    if status is None:
        return spec_md
    lines = spec_md.split("\n")
    return "\n".join(lines[:status.line] + ["", line] + lines[status.line:])


def add_changelog_entry(spec_md: str, entry: str) -> str:
    """Insert ``entry`` as the first entry under ``## Changelog`` (newest first), in place of
    the draft's pending ``### X.Y.Z — unreleased`` entry if it has one
    (:func:`evalport_spec.changelog.insert`).

    Raises:
        InputError: SPEC.md has no ``## Changelog`` section.
    """
    return changelog.insert(spec_md, entry, "spec/SPEC.md")


def changelog_entry(version: str, date: str, change_class: str, findings: list[Finding],
                    rfcs: list[Any], pending: list[str] = ()) -> str:
    """``### VERSION — DATE — CLASS`` and its bullets: ``pending`` (the lines of the draft's
    pending entry, which ``rfc apply`` and editorial marks fill, then the normative changes to
    SPEC.md: :func:`evalport_spec.specsync.record.release_bullets`), one bullet per other RFC (``RFC 000N: title
    (declared X)``) and per distinct computed finding of class PATCH or above (``CLASS `kind`:
    message``)."""
    bullets = list(pending)
    bullets += [f"- RFC {r.number:04d}: {r.meta.get('title', '')} (declared {r.meta.get('declared_class', '?')})."
                for r in rfcs if not any(f"RFC {r.number:04d}" in line for line in pending)]
    seen = set()
    for f in findings:
        if f.change_class < ChangeClass.PATCH and not f.undecided or _only_version_segment(f):
            continue
        text = f"- {f.change_class.name} `{f.kind}`: {f.message}"
        if text not in seen:
            seen.add(text)
            bullets.append(text)
    if not bullets:
        bullets = ["- No change to the schemas or the rule catalogue."]
    return f"### {version} — {date} — {change_class}\n\n" + "\n".join(bullets) + "\n"


def _only_version_segment(f: Finding) -> bool:
    """A ``schema-id-changed`` finding whose two URLs differ only in the version segment (the
    draft's ``/spec/draft/`` against a release's ``/spec/X.Y.Z/``): expected, not a change to list."""
    return f.kind == "schema-id-changed" and bool(f.extra.get("version_moved"))


def rfcs_in_release(repo: SpecRepo, previous: str | None, accepted_by_policy: set[int]) -> list[Any]:
    """RFCs in the release (module docstring), by number; implemented/rejected/withdrawn/superseded
    RFCs are never in it."""
    draft = repo.version(DRAFT)
    old_codes = set(repo.version(previous).catalogue.codes()) if previous else set()
    named = {r.rfc for r in draft.catalogue.rules if r.code not in old_codes and r.rfc is not None}
    out = []
    for rfc in load_rfcs(repo):
        if rfc.meta.get("status") not in ("draft", "comment", "accepted"):
            continue
        if rfc.number in named or rfc.number in accepted_by_policy or proposal_applied(repo.root, rfc):
            out.append(rfc)
    return out


def _mark_implemented(rfc: Any, version: str) -> bytes:
    data = dict(rfc.meta)
    data["status"] = "implemented"
    data["implemented_in"] = version
    return render(data, rfc.fm.body).encode("utf-8")


def _index_after(repo: SpecRepo, rfc_writes: dict[str, bytes]) -> bytes:
    with tempfile.TemporaryDirectory(prefix="evalport-index-") as tmp:
        shutil.copytree(repo.root / "rfcs", Path(tmp) / "rfcs")
        for rel, data in rfc_writes.items():
            (Path(tmp) / rel).write_bytes(data)
        return index_text(tmp).encode("utf-8")


def declared_version_problem(repo: SpecRepo, version: str) -> str | None:
    """Why ``version`` may not be released from this draft, or ``None``: it must equal the
    version the draft declares in ``spec/VERSION`` (SPEC.md "Governance": "Cutting a release
    freezes the draft under the version in ``VERSION``").

    Returns:
        a one-sentence reason naming ``spec/VERSION`` and what to do, or ``None``.
    """
    declared = repo.declared_draft_version()
    if declared is None:
        return (f"spec/VERSION is missing: the draft must declare the version it will be released "
                f"as; create spec/VERSION containing {version} if that is the intended version")
    if declared != version:
        shown = declared if declared else "(empty)"
        return (f"{version} is not the version the draft declares: spec/VERSION says {shown}. "
                f"Release {shown} instead, or edit spec/VERSION to {version} first (SPEC.md "
                "Governance: a release freezes the draft under the version in VERSION)")
    return None


def previous_release_date(repo: SpecRepo, previous: str) -> datetime.date | None:
    """The date of release ``previous`` from its changelog heading ``### X.Y.Z — DATE — CLASS``
    (its own frozen SPEC.md first, else the draft's), or ``None`` when neither has one."""
    for md in (repo.releases_dir / previous / "SPEC.md", repo.spec_dir / "SPEC.md"):
        data = read_optional(md, max_bytes=MAX_BYTES, label=str(md.relative_to(repo.root)))
        if data is None:
            continue
        for e in changelog.entries(data.decode("utf-8", "replace")):
            if e.version == previous:
                try:
                    return datetime.date.fromisoformat(e.date)
                except ValueError:
                    return None
    return None


def date_problem(repo: SpecRepo, previous: str | None, date: datetime.date,
                 today: datetime.date) -> str | None:
    """Why ``date`` may not be a release date, or ``None``.

    A release is dated no earlier than the release it follows (the date in ``previous``'s
    changelog heading; equal is allowed) and no later than ``today`` + 1 day (a release cut just
    after midnight in a time zone ahead of UTC). No lower bound when ``previous`` is ``None`` or
    has no dated changelog heading.
    """
    latest = today + datetime.timedelta(days=1)
    if date > latest:
        return (f"--date {date} is in the future: today is {today} (UTC) and a release may be dated "
                f"at most one day ahead ({latest})")
    if previous is not None:
        before = previous_release_date(repo, previous)
        if before is not None and date < before:
            return (f"--date {date} is earlier than the previous release {previous} ({before}, from "
                    f"its changelog heading); a release cannot be dated before the one it follows")
    return None


def preflight(repo: SpecRepo, version: str, *, date: str | None = None,
              today: datetime.date | None = None) -> tuple[str, dict[str, bytes]]:
    """The refusals that need no classification, in the order a release meets them.

    Returns:
        ``(date, frozen fixture files)``: the release date ``YYYY-MM-DD`` (default: ``today``)
        and :func:`release_conformance_files` of the draft.

    Raises:
        InputError, ReleaseRefused: as :func:`plan_release`, for the version, the date and the
            draft's fixtures.
    """
    try:
        parse_semver(version)
    except ValueError:
        raise InputError(f"release version {version!r} is not MAJOR.MINOR.PATCH (semver 2.0.0, "
                         "no pre-release or build metadata)") from None
    today = today or datetime.datetime.now(datetime.UTC).date()
    date = date or today.isoformat()
    try:
        if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", date):
            raise ValueError
        day = datetime.date.fromisoformat(date)
    except ValueError:
        raise InputError(f"--date {date!r} is not a calendar date YYYY-MM-DD") from None
    if version in repo.releases():
        raise ReleaseRefused(f"version {version} is already released (spec/releases/{version})")
    previous = repo.latest_release()
    if previous is not None and parse_semver(version) <= parse_semver(previous):
        raise ReleaseRefused(f"version {version} is not above the latest release {previous}")
    early = version_problem(previous, version, ChangeClass.PATCH)
    if early:
        raise ReleaseRefused(f"release {early}")
    problem = declared_version_problem(repo, version) or date_problem(repo, previous, day, today)
    if problem:
        raise ReleaseRefused(problem)
    return date, release_conformance_files(repo.version(DRAFT), version)


def plan_release(repo: SpecRepo | str | Path, version: str, *, date: str | None = None,
                 today: datetime.date | None = None, accepted_rfcs: set[int] | None = None,
                 classification: Classification | None = None) -> ReleasePlan:
    """Compute a release without writing anything (the gate is not run here: see the module
    docstring).

    Args:
        repo: the repository (a :class:`SpecRepo` or its root).
        version: ``MAJOR.MINOR.PATCH``.
        date: ``YYYY-MM-DD`` (default: today, UTC).
        today: the date ``date`` is judged against (default: today, UTC).
        accepted_rfcs: the RFCs the gate's MAJOR rule accepted findings for (they are in the
            release).
        classification: the latest release -> draft classification when the caller has it (the
            gate's); computed with :func:`evalport_spec.compat.compare_versions` otherwise.

    Raises:
        InputError: ``version`` is not semver, ``date`` is not a calendar date, a draft fixture
            is malformed or lacks ``since``.
        ReleaseRefused: version exists, is not an exact successor of the latest release, differs
            from ``spec/VERSION`` (:func:`declared_version_problem`), disagrees with the class;
            date out of range (:func:`date_problem`); RFC not accepted.
    """
    repo = repo if isinstance(repo, SpecRepo) else SpecRepo(Path(repo))
    date, conformance_files = preflight(repo, version, date=date, today=today)
    previous = repo.latest_release()
    findings: list[Finding] = []
    policy_rfcs: set[int] = set(accepted_rfcs or ())
    if previous is None:
        cls_name = "INITIAL"
    else:
        cls = classification or compare_versions(repo.version(previous), repo.version(DRAFT))
        findings = list(cls.findings)
        computed = max(effective_class(cls.change_class, findings), ChangeClass.PATCH)
        problem = version_problem(previous, version, computed)
        if problem:
            raise ReleaseRefused(f"release {problem}")
        cls_name = computed.name
    spec_record = record(repo, load_rfcs(repo) if (repo.root / "rfcs").is_dir() else [])
    spec_rfcs = {n for c in spec_record.changes for n in c.rfcs}
    rfcs = rfcs_in_release(repo, previous, policy_rfcs | spec_rfcs)
    pending = [r for r in rfcs if r.meta.get("status") != "accepted"]
    if pending:
        raise ReleaseRefused("RFC(s) in this release are not accepted: " + ", ".join(
            f"{r.rel} ({r.meta.get('status')})" for r in pending))
    draft_dir = repo.spec_dir

    def read(rel: str) -> bytes | None:  # a draft file through the bounded reader (None: absent)
        return read_optional(draft_dir / rel, max_bytes=MAX_BYTES, label=f"spec/{rel}", within=repo.root)

    draft_md = (read("SPEC.md") or b"").decode("utf-8")
    entry = changelog_entry(version, date, cls_name, findings, rfcs, release_bullets(repo, spec_record))

    release_files: dict[str, bytes] = {}
    for p in sorted((draft_dir / "schemas").glob("*.json")):
        text = rewrite_ids(read(f"schemas/{p.name}").decode("utf-8"), version)
        loads(text, f"spec/schemas/{p.name}")  # still strict JSON
        release_files[f"schemas/{p.name}"] = text.encode("utf-8")
    rules = read("rules.json")
    if rules is not None:
        release_files["rules.json"] = rules
    release_files.update(conformance_files)
    with_entry = add_changelog_entry(draft_md, entry)
    next_version = str(parse_semver(version).bump_minor())
    release_files["SPEC.md"] = set_status_line(with_entry, released_status(version, date)).encode("utf-8")
    writes: dict[str, bytes] = {
        "spec/SPEC.md": set_status_line(with_entry, draft_status(next_version, version)).encode("utf-8"),
        "spec/VERSION": f"{next_version}\n".encode(),
    }
    mpath = repo.manifest_path
    manifest = read_optional(mpath, max_bytes=MAX_BYTES, label=f"spec/releases/{MANIFEST_NAME}")
    entries, _ = parse_manifest((manifest or b"").decode("utf-8"), "SHA256SUMS")
    digests = {e.path: e.digest for e in entries}
    digests.update({f"{version}/{rel}": sha256(data) for rel, data in release_files.items()})
    writes[f"spec/releases/{MANIFEST_NAME}"] = render_manifest(digests).encode()
    rfc_writes = {r.path.relative_to(repo.root).as_posix(): _mark_implemented(r, version) for r in rfcs}
    writes.update(rfc_writes)
    if rfc_writes:
        writes["rfcs/README.md"] = _index_after(repo, rfc_writes)
    return ReleasePlan(version, date, previous, cls_name, release_files, writes,
                       [r.number for r in rfcs], entry)


def apply_plan(repo: SpecRepo | str | Path, plan: ReleasePlan) -> None:
    """Write a plan as one journalled transaction (:mod:`evalport_spec.journal`): every file is
    staged beside the repository, then one atomic switch commits the release and the files are
    moved into place. An interruption before the switch leaves the repository as it was; after
    it, the release completes (the next command finishes it after a SIGKILL).

    Raises:
        ReleaseRefused: the release folder appeared meanwhile. InputError: the repository is
            locked or not writable (nothing was written).
        CompletedInterrupt: Ctrl-C during the switch (the release was written completely).
    """
    root = Path(repo.root if isinstance(repo, SpecRepo) else repo)
    with transaction(root, "release") as txn:
        if (root / "spec" / "releases" / plan.version).exists():
            raise ReleaseRefused(f"spec/releases/{plan.version} already exists")
        for rel in plan.paths():
            txn.write(rel, plan.data(rel))
