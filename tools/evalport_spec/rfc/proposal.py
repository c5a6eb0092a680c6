"""An RFC's proposal folder, read and checked, and the draft it would produce.

A proposal (``rfcs/NNNN-slug/``, docs/architecture.md) holds

* ``patch.json``: ``{"<schema file>": [RFC 6902 operations]}``; ``add``, ``remove``,
  ``replace`` and ``test`` are supported (``move``/``copy`` are refused: whether they are already
  applied cannot be told from the draft alone);
* ``rules.json``: catalogue entries the proposal adds;
* ``fixtures/*.json``: conformance fixtures, which may omit ``since``.

A proposal's rules and fixtures arrive in the draft's version (``spec/VERSION``): that version
is their ``since`` once applied, whatever the proposal files say (a proposal written while the
draft was 1.4.0 and applied after 1.4.0 shipped arrives in 1.5.0), and each rule's ``rfc`` is
the RFC's number.

:func:`plan` compares the proposal with the draft, part by part (each patch operation, each rule,
each fixture): *unapplied* (no part is in the draft), *applied* (every part is), or *partial*.
For an unapplied proposal it computes every file the draft gains, so ``rfc check`` (in memory)
and ``rfc apply`` (on disk) see exactly the same result.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jsonpatch
import jsonpointer

from .. import inputlog
from ..cache import ContentMemo, digest, tree_digest
from ..catalogue import RuleEntry, parse_catalogue
from ..compat import repo_candidates
from ..errors import InputError
from ..fixtures import META_SCHEMA_NAME, Fixture
from ..fsutil import read_limited, read_optional
from ..jsonload import MAX_BYTES, Loaded, load, loads
from ..spec import FIXTURES_DIR, SpecRepo, SpecVersion, versions_from_mapping
from ..specsync.record import draft_changes
from .frontmatter import render
from .model import Rfc
from .specrows import spec_md_with_proposal

MAX_PROPOSAL_FILE = 8 * 1024 * 1024
"""Largest proposal file (patch, rules, fixture) accepted, in bytes."""

SUPPORTED_OPS = ("add", "remove", "replace", "test")
"""RFC 6902 operations a proposal's ``patch.json`` may use."""

UNAPPLIED, APPLIED, PARTIAL = "unapplied", "applied", "partial"
"""The states of a proposal against the draft."""


@dataclass
class Proposal:
    """A proposal folder, read and checked against the draft.

    Attributes:
        rfc: its RFC.
        label: ``rfcs/NNNN-slug`` (messages).
        since: the draft's version (``spec/VERSION``): where the proposal's rules and fixtures
            arrive.
        patch: ``{schema file name: [operations]}``.
        rules: the catalogue entries, as parsed, and ``raw_rules`` as they will be written
            (``since`` = :attr:`since`, ``rfc`` = the RFC's number).
        fixtures: the proposal's fixtures (``since`` = :attr:`since`) and ``fixture_json`` the
            JSON each becomes in ``spec/conformance/fixtures/`` (``since`` after ``rules``).
    """

    rfc: Rfc
    label: str
    since: str
    patch: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    patch_source: Loaded | None = None
    rules: list[RuleEntry] = field(default_factory=list)
    rules_source: Loaded | None = None
    raw_rules: list[dict[str, Any]] = field(default_factory=list)
    fixtures: list[Fixture] = field(default_factory=list)
    fixture_json: dict[str, dict[str, Any]] = field(default_factory=dict)


@dataclass
class ApplyPlan:
    """The proposal against the draft (see the module docstring).

    Attributes:
        proposal: the proposal.
        state: :data:`UNAPPLIED`, :data:`APPLIED` or :data:`PARTIAL`.
        present, missing: the parts already in the draft and those not yet in it (``"patch
            resultset.json #2"``, ``"rule CODE"``, ``"fixture ID"``).
        draft: the draft as it is (in memory).
        proposed: the draft with the proposal applied (the draft itself when applied).
        writes: ``{repository-relative path: new bytes}`` that ``rfc apply`` writes (empty unless
            unapplied).
        change_applied: every patch operation and rule is in the draft (the schema change is
            made, whether or not the fixtures came with it): what ties a release to the RFC.
    """

    proposal: Proposal
    state: str
    present: list[str]
    missing: list[str]
    draft: SpecVersion
    proposed: SpecVersion
    writes: dict[str, bytes] = field(default_factory=dict)
    change_applied: bool = False


def _load(path: Path, label: str) -> Loaded:
    inputlog.note(path)  # a refusal by size alone is a verdict on the file too
    if path.is_file() and path.stat().st_size > MAX_PROPOSAL_FILE:
        raise InputError(f"file is larger than {MAX_PROPOSAL_FILE // (1024 * 1024)} MiB", label)
    return load(path, label=label)


def dump_json(value: Any) -> bytes:
    """The repository's JSON layout: two-space indent, UTF-8, a final newline (every schema,
    catalogue and fixture file round-trips through it unchanged)."""
    return (json.dumps(value, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def draft_files(root: Path) -> dict[str, bytes]:
    """The draft's files as ``{path relative to spec/: bytes}``: ``SPEC.md``, ``VERSION``,
    ``rules.json``, ``schemas/*.json``, and the conformance meta-schema and fixtures.

    Raises:
        InputError: the draft has no ``schemas/`` folder.
    """
    spec = root / "spec"
    if not (spec / "schemas").is_dir():
        raise InputError("the draft has no schemas folder", str(spec / "schemas"))
    files: dict[str, bytes] = {}
    for rel in ("SPEC.md", "VERSION", "rules.json", f"{FIXTURES_DIR}/{META_SCHEMA_NAME}"):
        data = read_optional(spec / rel, max_bytes=MAX_BYTES, label=str(spec / rel))
        if data is not None:
            files[rel] = data
    for folder in ("schemas", f"{FIXTURES_DIR}/fixtures"):
        for p in sorted((spec / folder).glob("*.json")):  # a FIFO there is refused, not read
            files[f"{folder}/{p.name}"] = read_limited(p, max_bytes=MAX_BYTES, label=str(p))
    return files


def read_proposal(root: Path, rfc: Rfc) -> Proposal:
    """Read and check ``rfc``'s proposal folder.

    Raises:
        InputError (one line naming the file and location): no proposal folder; no
            ``spec/VERSION``; ``patch.json`` not an object of operation lists, naming a schema
            the draft lacks, or using an unsupported operation; ``rules.json`` malformed, or an
            entry whose ``rfc`` is another RFC; a malformed fixture.
    """
    pdir = rfc.proposal_dir
    label = f"rfcs/{pdir.name}"
    if not pdir.is_dir():
        raise InputError(f"RFC {rfc.number} has no proposal folder", label)
    since = SpecRepo(root).declared_draft_version()
    if not since:
        raise InputError("spec/VERSION is missing: a proposal arrives in the draft's declared version",
                         "spec/VERSION")
    proposal = Proposal(rfc, label, since)
    schemas = {p.name for p in (root / "spec" / "schemas").glob("*.json")}
    if (pdir / "patch.json").exists():
        patch = _load(pdir / "patch.json", f"{label}/patch.json")
        if not isinstance(patch.value, dict):
            raise InputError('patch.json must be an object {"<schema file>": [JSON Patch operations]}',
                             patch.source, 1, 1)
        for name, ops in patch.value.items():
            ptr = "/" + name.replace("~", "~0").replace("/", "~1")
            if name not in schemas:
                raise InputError(f"patch names {name!r}, which is not a schema file of the draft",
                                 patch.source, patch.line(ptr), None, ptr)
            if not isinstance(ops, list):
                raise InputError("expected a list of JSON Patch operations", patch.source, patch.line(ptr), None, ptr)
            for i, op in enumerate(ops):
                kind = op.get("op") if isinstance(op, dict) else None
                if kind not in SUPPORTED_OPS or not isinstance(op.get("path"), str):
                    raise InputError(f"operation must be an object with a string 'path' and 'op' one of "
                                     f"{', '.join(SUPPORTED_OPS)}", patch.source,
                                     patch.line(f"{ptr}/{i}"), None, f"{ptr}/{i}")
            proposal.patch[name] = ops
        proposal.patch_source = patch
    if (pdir / "rules.json").exists():
        loaded = _load(pdir / "rules.json", f"{label}/rules.json")
        proposal.rules = parse_catalogue(loaded).rules
        proposal.rules_source = loaded
        for i, (entry, raw) in enumerate(zip(proposal.rules, loaded.value["rules"], strict=True)):
            if entry.rfc not in (None, rfc.number):
                raise InputError(f"rule {entry.code} names RFC {entry.rfc}, not RFC {rfc.number}",
                                 loaded.source, loaded.line(f"/rules/{i}/rfc"), None, f"/rules/{i}/rfc")
            proposal.raw_rules.append({**raw, "since": since, "rfc": rfc.number})
    fdir = pdir / "fixtures"
    if fdir.is_dir():
        _read_fixtures(root, fdir, f"{label}/fixtures", proposal)
    return proposal


def _read_fixtures(root: Path, fdir: Path, label: str, proposal: Proposal) -> None:
    from ..fixtures import parse_fixtures

    meta = root / "spec" / FIXTURES_DIR / META_SCHEMA_NAME
    if not meta.is_file():
        raise InputError(f"the draft has no {FIXTURES_DIR}/{META_SCHEMA_NAME} to check the proposal's "
                         "fixtures with", f"spec/{FIXTURES_DIR}")
    files = [(p.stem, _load(p, f"{label}/{p.name}")) for p in sorted(fdir.glob("*.json"))]
    files = [(stem, Loaded(with_since(loaded.value, proposal.since), loaded.source, loaded.text)
              if isinstance(loaded.value, dict) else loaded) for stem, loaded in files]
    proposal.fixtures = parse_fixtures(files, load(meta).value)
    for (_, loaded), fx in zip(files, proposal.fixtures, strict=True):
        proposal.fixture_json[fx.id] = loaded.value


def with_since(value: dict[str, Any], since: str) -> dict[str, Any]:
    """A fixture's JSON with ``since`` set, placed where the draft's fixtures keep it: after
    ``rules`` (or ``document_type`` when there is no ``rules``)."""
    anchor = "rules" if "rules" in value else "document_type"
    out: dict[str, Any] = {}
    for k, v in value.items():
        if k == "since":
            continue
        out[k] = v
        if k == anchor:
            out["since"] = since
    out.setdefault("since", since)
    return out


# --- the proposal against the draft ----------------------------------------------------------------

def _op_present(doc: Any, op: dict[str, Any]) -> bool:
    """Whether one ``add``, ``replace`` or ``remove`` is already reflected in ``doc``:
    ``add``/``replace`` find the value at the path (``add`` to ``/-`` finds it among the array's
    items), ``remove`` finds the path gone."""
    kind, path = op["op"], op["path"]
    parent_path, _, last = path.rpartition("/")
    try:
        if kind == "remove":
            jsonpointer.resolve_pointer(doc, path)
            return False
        if kind == "add" and last == "-":
            parent = jsonpointer.resolve_pointer(doc, parent_path)
            return isinstance(parent, list) and op.get("value") in parent
        return jsonpointer.resolve_pointer(doc, path) == op.get("value")
    except (jsonpointer.JsonPointerException, TypeError, KeyError, IndexError):
        return kind == "remove"


def _apply_ops(doc: Any, ops: list[dict[str, Any]], patch: Loaded, ptr: str) -> Any:
    for i, op in enumerate(ops):
        try:
            doc = jsonpatch.JsonPatch([op]).apply(doc, in_place=False)
        except (jsonpatch.JsonPatchException, jsonpointer.JsonPointerException, TypeError,
                KeyError, AttributeError) as exc:
            raise InputError(f"JSON Patch operation does not apply to the draft: {exc}", patch.source,
                             patch.line(f"{ptr}/{i}"), None, f"{ptr}/{i}") from None
    return doc


PLANS = ContentMemo(maxsize=16, copies=False)
""":func:`plan` answers of this process (the gate's ``rules`` and ``rfcs`` stages both ask),
keyed by the content of everything a plan reads."""


def plan(root: Path, rfc: Rfc) -> ApplyPlan:
    """The proposal of ``rfc`` against the draft of the repository at ``root`` (module docstring).

    Memoised in-process (:data:`PLANS`) under a key covering every input: the RFC as loaded (its
    path, text and front matter), every file under ``spec/`` (the draft, ``VERSION``, the
    releases) and under the proposal folder (:func:`~evalport_spec.cache.tree_digest`). The
    same :class:`ApplyPlan` is handed to every caller: callers only read it.

    Raises:
        InputError: as :func:`read_proposal`; a patch operation that does not apply to the
            draft; a proposal fixture whose id names a draft fixture with other content.
    """
    root = Path(root)
    try:
        key = digest("rfc-plan", str(root.resolve()), str(rfc.path), rfc.rel, rfc.number, rfc.text,
                     rfc.meta, rfc.fm.body, tree_digest(root / "spec", rfc.proposal_dir))
    except OSError:  # an unreadable file: let the readers below report it as they always have
        return _plan(root, rfc)
    return PLANS.get(key, lambda: _plan(root, rfc))


def _plan(root: Path, rfc: Rfc) -> ApplyPlan:
    proposal = read_proposal(root, rfc)
    files = draft_files(root)
    draft = versions_from_mapping("draft", dict(files), "spec")
    present: list[str] = []
    missing: list[str] = []
    for name, ops in proposal.patch.items():
        doc = loads(files[f"schemas/{name}"], f"spec/schemas/{name}").value
        for i, op in enumerate(ops):
            if op["op"] != "test":
                (present if _op_present(doc, op) else missing).append(f"patch {name} #{i}")
    loaded_rules = loads(files["rules.json"], "spec/rules.json") if "rules.json" in files else None
    if loaded_rules is not None:
        parse_catalogue(loaded_rules)  # the catalogue's shape, or InputError naming spec/rules.json
    catalogue = json.loads(files["rules.json"]) if loaded_rules is not None else {"rules": []}
    draft_rules = {r.get("code"): (i, r) for i, r in enumerate(catalogue.get("rules", [])) if isinstance(r, dict)}
    for raw in proposal.raw_rules:
        hit = draft_rules.get(raw["code"])
        if hit is None:
            missing.append(f"rule {raw['code']}")
        elif hit[1] == raw:
            present.append(f"rule {raw['code']}")
        else:
            ptr = f"/rules/{hit[0]}"
            raise InputError(f"rule {raw['code']} is already in the draft's catalogue with another "
                             f"definition", "spec/rules.json",
                             loaded_rules.line(ptr) if loaded_rules else None, None, ptr)
    change_applied = bool(present) and not missing
    for fx in proposal.fixtures:
        rel = f"{FIXTURES_DIR}/fixtures/{fx.id}.json"
        if rel not in files:
            missing.append(f"fixture {fx.id}")
        elif json.loads(files[rel]) == proposal.fixture_json[fx.id]:
            present.append(f"fixture {fx.id}")
        else:
            raise InputError(f"fixture {fx.id} is already in the draft with other content; rename the "
                             "proposal's fixture", f"{proposal.label}/fixtures/{fx.id}.json")
    if not missing:
        return ApplyPlan(proposal, APPLIED, present, missing, draft, draft, change_applied=True)
    if present:
        return ApplyPlan(proposal, PARTIAL, present, missing, draft, draft, change_applied=change_applied)
    new = dict(files)
    for name, ops in proposal.patch.items():
        doc = loads(files[f"schemas/{name}"], f"spec/schemas/{name}").value
        ptr = "/" + name.replace("~", "~0").replace("/", "~1")
        assert proposal.patch_source is not None
        new[f"schemas/{name}"] = dump_json(_apply_ops(doc, ops, proposal.patch_source, ptr))
    if proposal.raw_rules:
        catalogue.setdefault("rules", []).extend(proposal.raw_rules)
        new["rules.json"] = dump_json(catalogue)
    for fx in proposal.fixtures:
        new[f"{FIXTURES_DIR}/fixtures/{fx.id}.json"] = dump_json(proposal.fixture_json[fx.id])
    proposed = versions_from_mapping(f"rfc-{rfc.number:04d}", new, f"{proposal.label} (proposed)",
                                     _sources(proposal, files, new))
    writes: dict[str, bytes] = {}
    if "SPEC.md" in files:
        repo, before = SpecRepo(root), files["SPEC.md"].decode("utf-8")
        text = spec_md_with_proposal(before, proposal, draft, proposed, repo)
        new["SPEC.md"] = text.encode("utf-8")
        proposed = versions_from_mapping(f"rfc-{rfc.number:04d}", new, f"{proposal.label} (proposed)",
                                         _sources(proposal, files, new))
        writes.update(_tie_spec_changes(repo, rfc, draft, before, proposed, text))
    writes.update({f"spec/{rel}": data for rel, data in new.items() if files.get(rel) != data})
    return ApplyPlan(proposal, UNAPPLIED, present, missing, draft, proposed, writes)


def _sources(proposal: Proposal, draft: dict[str, bytes], proposed: dict[str, bytes]) -> dict[str, str]:
    """What messages call each file of the proposed draft: the draft's own file when the
    proposal leaves it as it is (``spec/schemas/grader.json``), else that file and the proposal
    file that changes it, so an error is never placed in a folder that does not exist."""
    out = {}
    for rel, data in proposed.items():
        if draft.get(rel) == data:
            out[rel] = f"spec/{rel}"
        elif rel.startswith(f"{FIXTURES_DIR}/fixtures/"):
            out[rel] = f"{proposal.label}/fixtures/{rel.rsplit('/', 1)[1]}"
        else:  # a schema the patch changes, the catalogue with its rules, SPEC.md with its rows
            by = {"rules.json": f"{proposal.label}/rules.json", "SPEC.md": proposal.rfc.rel}.get(
                rel, f"{proposal.label}/patch.json")
            out[rel] = f"spec/{rel} as {by} changes it"
    return out


def _tie_spec_changes(repo: SpecRepo, rfc: Rfc, draft: SpecVersion, before: str, proposed: SpecVersion,
                      after: str) -> dict[str, bytes]:
    """The RFC file with the normative changes to SPEC.md its proposal makes listed in its front
    matter ``spec_changes`` (:mod:`evalport_spec.specsync.record`: they are on record through it),
    or nothing when it makes none."""
    had = {c.id for c in draft_changes(repo, draft, before)}
    made = [c.id for c in draft_changes(repo, proposed, after) if c.id not in had]
    listed = list(rfc.meta.get("spec_changes") or [])
    if not [cid for cid in made if cid not in listed]:
        return {}
    meta = {**rfc.meta, "spec_changes": listed + [cid for cid in made if cid not in listed]}
    return {rfc.path.relative_to(repo.root).as_posix(): render(meta, rfc.fm.body).encode("utf-8")}


def proposal_applied(root: Path, rfc: Rfc) -> bool:
    """Whether ``rfc``'s schema change is in the draft: every patch operation and rule of its
    proposal (:attr:`ApplyPlan.change_applied`). ``False`` without a proposal folder, for a
    proposal with neither, or one that cannot be read."""
    if not rfc.has_proposal():
        return False
    try:
        return plan(root, rfc).change_applied
    except InputError:
        return False


def draft_documents(root: Path) -> list[tuple[str, Any]]:
    """The repository draft's examples and fixtures as counter-example candidates
    ``[(schema file name, document)]`` for classifying a proposal, whose proposed version lives in
    memory with no folder of its own (:func:`evalport_spec.compat.repo_candidates`); ``[]``
    outside a spec repository."""
    if not (Path(root) / "spec" / "schemas").is_dir():
        return []
    return repo_candidates(SpecVersion.from_dir("draft", Path(root) / "spec"))
