"""Keep the generated regions of the draft's SPEC.md equal to what the schemas, the catalogue and
``spec/VERSION`` give (``evalport-spec spec sync``; ``--check`` and the gate report instead of
writing, the ``ruff format --check`` model).

What the draft must have (:func:`blocks_for`): the ``status`` region, one ``fields`` region per
titled object schema, the ``rule-codes`` region and one ``rule CODE`` region per catalogued rule.
:func:`sync_text` compares each region with its :class:`~.blocks.Block` value by value and
returns the rewritten text:

* a region that differs is rewritten; each differing value is one finding
  ``spec-region-stale`` on the line SPEC.md has it, naming what SPEC.md says and what the
  schema, the catalogue or ``spec/VERSION`` gives;
* a missing region is inserted (``spec-region-missing``): in its object's or rule's section
  after the first paragraph (a missing section is added at the end of "Documents" or
  "Cross-field rules", opened with the schema's description or the rule's statement), the
  status line in place of the ``**Status:**`` paragraph, the rule codes at the end of
  "Validation";
* a region naming nothing the version has is removed (``spec-region-unknown``).

A rule with parameters has its values only in its generated facts: a decimal number in the
hand-written prose of its section is reported (``rule-parameter-in-prose``), since it would not
follow a change of the catalogue. A quoted ``file.json#/pointer`` that does not resolve is
reported (:mod:`.pointers`), and so is a row of the Grader types table that disagrees with
``grader.json`` (:mod:`.gradertypes`), and a claim about which formats the schemas use that
their ``format`` keywords contradict (:mod:`.formats`), a dialect named other than the one the
schemas declare (:mod:`.dialect`), a member's JSON type the schemas contradict
(:mod:`.typeclaims`), a claim of closed or open objects
the schemas contradict (:mod:`.openness`), and a row of the keyword table of "Validation" that
gives a code the schema pass does not report, or a keyword the schemas use that it lacks
(:mod:`.keywordcodes`). Only the draft is checked; frozen releases are never rewritten.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from ..cache import ContentMemo, digest, version_digest
from ..errors import InputError
from ..findings import Finding, Location
from ..fsutil import atomic_write, read_limited, repo_lock
from ..jsonload import MAX_BYTES
from ..markdown import Document, Heading, parse
from ..schemawalk import titled_objects
from ..spec import DRAFT, SpecRepo, SpecVersion
from ..specmd import (
    CARRIED_MARK,
    DOCUMENTS_SECTION,
    GAP_MARK,
    RULES_SECTION,
    VALIDATION_SECTION,
)
from .blocks import Block, excerpt, number, read_rows
from .dialect import dialect_claim_findings
from .facts import RULE_CODES, STATUS, codes_block, rule_block, rule_region, status_block
from .fields import FieldTables, field_since, node_at
from .formats import format_claim_findings
from .gradertypes import grader_type_findings
from .keywordcodes import keyword_code_findings
from .openness import openness_findings
from .pointers import dangling_pointers
from .regions import Region, find, wrap
from .typeclaims import type_claim_findings

SPEC_MD = "spec/SPEC.md"

BLOCKS = ContentMemo(maxsize=32)
""":func:`blocks_for` answers of this process, keyed by the content of the versions they come from."""


def blocks_for(version: SpecVersion, releases: Iterable[SpecVersion], declared: str | None,
               latest: str | None) -> dict[str, Block]:
    """Every region ``version``'s SPEC.md must have, keyed by region id, in document order.

    Args:
        version: the version whose schemas and catalogue the regions show (the draft, or the
            draft with an RFC's proposal applied).
        releases: the releases up to it, oldest first (for **Since** of a field).
        declared: the version the draft will be released as (``spec/VERSION``); ``None`` leaves
            the status region out (the gate's ``draft`` stage reports the missing file).
        latest: the latest release, named in the status line.

    Memoised by content (:data:`BLOCKS`): the gate asks for the same versions' blocks once per
    RFC proposal and per SPEC.md it checks.

    Raises:
        InputError: unreadable schemas or catalogue.
    """
    releases = list(releases)
    key = digest("blocks-for", version_digest(version), [version_digest(r) for r in releases],
                 declared, latest)
    return BLOCKS.get(key, lambda: _blocks_for(version, releases, declared, latest))


def _blocks_for(version: SpecVersion, releases: list[SpecVersion], declared: str | None,
                latest: str | None) -> dict[str, Block]:
    out: dict[str, Block] = {}
    if declared is not None:
        out[STATUS] = status_block(declared, latest)
    for b in FieldTables(version.schemas, field_since(releases), declared or version.name).blocks():
        out[b.region] = b
    out[RULE_CODES] = codes_block(version.catalogue)
    for e in version.catalogue.rules:
        out[rule_region(e.code)] = rule_block(e, version.catalogue)
    return out


def version(repo: SpecRepo, name: str) -> SpecVersion:
    """Version ``name`` of ``repo`` with file labels relative to the repository root
    (``spec/schemas/x.json``, ``spec/releases/1.3.0/rules.json``), as findings name them."""
    if name == DRAFT:
        return SpecVersion.from_dir(DRAFT, repo.spec_dir, within=repo.root, label="spec")
    return SpecVersion.from_dir(name, repo.releases_dir / name, within=repo.root,
                                label=f"spec/releases/{name}")


def draft_blocks(repo: SpecRepo) -> dict[str, Block]:
    """:func:`blocks_for` the repository's draft."""
    releases = [version(repo, r) for r in repo.releases()]
    return blocks_for(version(repo, DRAFT), releases, repo.declared_draft_version(), repo.latest_release())


@dataclass
class SyncResult:
    """What :func:`sync_text` found.

    Attributes:
        label: the file name used in findings.
        text: the text as it is.
        synced: the text with every region as generated.
        findings: errors, in line order; the last about a region carries the unified diff
            (``extra["diff"]``), which the gate prints under it.
        changed: ids of the regions rewritten, inserted or removed, in file order.
    """

    label: str
    text: str
    synced: str
    findings: list[Finding] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)

    @property
    def stale(self) -> bool:
        """Whether any region differs from what it must be."""
        return self.text != self.synced

    def diff(self) -> str:
        """Unified diff from the text to the synced text (``''`` when nothing differs)."""
        return "".join(difflib.unified_diff(self.text.splitlines(keepends=True),
                                            self.synced.splitlines(keepends=True),
                                            self.label, f"{self.label} (generated)"))


def _norm(text: str) -> str:
    return " ".join(text.replace("\\|", "|").split())


def _compare(block: Block, region: Region, lines: list[str], label: str) -> list[Finding]:
    """One finding per value that differs between a region and its block."""
    name = f"generated region '{block.region}'"
    rows = read_rows(block, region.body(lines), region.start + 1)
    if rows is None:
        return [Finding("spec-region-stale", f"{name} is not a {block.kind} of the generated shape; "
                        "run `evalport-spec spec sync`", new=Location(label, None, region.start))]
    out: list[Finding] = []
    found = {_norm(r.key): r for r in rows}
    expected = {_norm(r.key) for r in block.rows}
    for row in block.rows:
        have = found.get(_norm(row.key))
        if have is None:
            source, origin = row.source_of(row.key)
            out.append(Finding("spec-region-stale", f"{name} has no row {row.key}; expected from "
                               f"{source} ({origin})", new=Location(label, None, region.start)))
            continue
        for column, want in row.cells.items():
            said = have.cells.get(column, "")
            if _norm(said) == _norm(want):
                continue
            source, origin = row.source_of(column)
            what = row.key if column == row.key else f"{row.key} {column}"
            a, b = excerpt(_norm(said), _norm(want))
            out.append(Finding("spec-region-stale", f'{name} is stale: {what} reads "{a}"; expected '
                               f'"{b}" from {source} ({origin})', new=Location(label, None, have.line)))
    for r in rows:
        if _norm(r.key) not in expected:
            out.append(Finding("spec-region-stale", f"{name} has a row {r.key} that nothing in the "
                               "schemas or the catalogue gives", new=Location(label, None, r.line)))
    if not out and region.body(lines).strip("\n").split("\n") != block.render():
        out.append(Finding("spec-region-stale", f"{name} says the same as generated but is laid out "
                           "differently (order or spacing)", new=Location(label, None, region.start)))
    return out


@dataclass
class _Edit:
    """Replace lines ``first..last`` (1-based, inclusive; ``last = first - 1`` inserts before
    ``first``) with ``lines``; ``region`` is the id of the region the edit writes."""

    first: int
    last: int
    lines: list[str]
    region: str = ""


def _after_first_paragraph(doc: Document, h: Heading) -> int:
    """The line after which a region goes in ``h``'s section: the end of its first paragraph
    when that comes before any sub-heading, else the heading itself."""
    sub = next((c.line for c in doc.headings if h.line < c.line <= h.end), h.end + 1)
    first = next((p for p in doc.inside(h, doc.paragraphs) if p.line < sub), None)
    return first.end if first is not None else h.line


def _section_end(doc: Document, h: Heading) -> int:
    """The last non-blank line of ``h``'s section."""
    n = h.end
    while n > h.line and not doc.lines[n - 1].strip():
        n -= 1
    return n


def _insertion(doc: Document, block: Block, version: SpecVersion) -> _Edit | None:
    """Where a missing region goes (``None``: its H2 section is missing; the structure check
    reports that)."""
    region = wrap(block.region, block.render())
    if block.region == STATUS:
        h = doc.section("Status")
        if h is None:
            return None
        para = next((p for p in doc.inside(h, doc.paragraphs) if p.source.startswith("**Status:**")), None)
        if para is not None:
            return _Edit(para.line, para.end, region)
        return _Edit(h.line + 1, h.line, ["", *region])
    if block.region == RULE_CODES:
        h = doc.section(VALIDATION_SECTION)
        if h is None:
            return None
        at = _section_end(doc, h)
        return _Edit(at + 1, at, ["", *region])
    kind, _, name = block.region.partition(" ")
    title = name.split(".", 1)[1] if kind == "fields" else name
    parent = doc.section(DOCUMENTS_SECTION if kind == "fields" else RULES_SECTION)
    if parent is None:
        return None
    own = next((c for c in doc.children(parent) if c.text == title), None)
    if own is not None:
        at = _after_first_paragraph(doc, own)
        return _Edit(at + 1, at, ["", *region])
    at = _section_end(doc, parent)
    return _Edit(at + 1, at, ["", f"### {title}", "", _opening(block, version, title), "", *region]
                 + _closing(block, version, title))


def _opening(block: Block, version: SpecVersion, title: str) -> str:
    """First paragraph of a new section: the object's or the rule's own words, to be edited."""
    if block.region.startswith("rule "):
        entry = version.catalogue.get(title)
        return entry.statement if entry else title
    obj = next(o for o in titled_objects(version.schemas) if o.title == title)
    return str(node_at(version.schemas, obj).get("description", title))


def _closing(block: Block, version: SpecVersion, title: str) -> list[str]:
    """The paragraph a new rule section needs after its facts (the documented gap)."""
    entry = version.catalogue.get(title) if block.region.startswith("rule ") else None
    if entry is None:
        return []
    return ["", f"{CARRIED_MARK if entry.encoded else GAP_MARK} {entry.gap}"]


def _apply(lines: list[str], edits: list[_Edit]) -> list[str]:
    """Apply the edits bottom up; insertions at one place end up in the order they were made."""
    out = list(lines)
    for _, e in sorted(enumerate(edits), key=lambda ie: (ie[1].first, ie[1].last, ie[0]), reverse=True):
        out[e.first - 1:e.last] = e.lines
    return out


def sync_text(text: str, blocks: dict[str, Block], version: SpecVersion, label: str = SPEC_MD) -> SyncResult:
    """Compare ``text``'s regions with ``blocks`` and rewrite them (see the module docstring).

    Raises:
        InputError: malformed markers (:func:`.regions.find`).
    """
    doc = parse(text)
    lines = doc.lines
    regions = {r.id: r for r in find(text, label)}
    findings: list[Finding] = []
    edits: list[_Edit] = []
    for rid, r in regions.items():
        block = blocks.get(rid)
        if block is None:
            findings.append(Finding("spec-region-unknown", f"generated region '{rid}' names nothing the "
                                    "schemas, the catalogue or spec/VERSION give; `evalport-spec spec "
                                    "sync` removes it", new=Location(label, None, r.start)))
            last = r.end + 1 if r.end < len(lines) and not lines[r.end].strip() else r.end
            edits.append(_Edit(r.start, last, [], rid))
            continue
        stale = _compare(block, r, lines, label)
        if stale:
            findings += stale
            edits.append(_Edit(r.start, r.end, wrap(rid, block.render()), rid))
    for rid, block in blocks.items():
        if rid in regions:
            continue
        edit = _insertion(doc, block, version)
        if edit is None:
            continue
        edit.region = rid
        findings.append(Finding("spec-region-missing", f"SPEC.md has no generated region '{rid}'; "
                                "`evalport-spec spec sync` inserts it", new=Location(label, None, max(edit.last, 1))))
        edits.append(edit)
    findings += _parameters_in_prose(doc, regions.values(), version, label)
    findings += dangling_pointers(doc, version, label)
    findings += grader_type_findings(doc, version, label)
    findings += format_claim_findings(doc, version, label)
    findings += dialect_claim_findings(doc, version, label)
    findings += type_claim_findings(doc, version, label)
    findings += openness_findings(doc, version, label)
    findings += keyword_code_findings(doc, version, label)
    findings.sort(key=lambda f: (f.new.line if f.new else None) or 0)
    changed = [e.region for e in sorted(edits, key=lambda e: e.first)]
    result = SyncResult(label, text, "\n".join(_apply(lines, edits)), findings, changed)
    stale = [f for f in findings if f.kind.startswith("spec-region")]
    if stale:
        stale[-1].extra["diff"] = result.diff()
    return result


_DECIMAL = re.compile(r"(?<![\w.])\d+(?:\.\d+(?:[eE][-+]?\d+)?|[eE][-+]?\d+)(?!\w|\.\d)")
"""A number with a fraction or an exponent (``0.01``, ``1e-6``), not part of a version or a name."""


def _parameters_in_prose(doc: Document, regions: Iterable[Region], version: SpecVersion,
                         label: str) -> list[Finding]:
    """A decimal number in the prose of a rule section whose rule has parameters."""
    parent = doc.section(RULES_SECTION)
    if parent is None:
        return []
    regions = list(regions)
    out = []
    for h in doc.children(parent):
        entry = version.catalogue.get(h.text)
        if entry is None or not entry.parameters:
            continue
        values = ", ".join(f"{p.name} = {number(p.value)}" for p in entry.parameters)
        for p in doc.inside(h, doc.paragraphs):
            if any(r.covers(p.line) for r in regions):
                continue
            for m in _DECIMAL.finditer(p.source):
                line = p.line + p.source[:m.start()].count("\n")
                out.append(Finding("rule-parameter-in-prose",
                                   f"{entry.code}: the prose states the number {m.group(0)}, but the "
                                   f"rule's parameters ({values}, {version.catalogue.source}) are shown "
                                   "only in its generated facts; name the parameter instead",
                                   code=entry.code, new=Location(label, None, line)))
    return out


def read_draft(repo: SpecRepo) -> str:
    """The draft's SPEC.md as text (strict UTF-8, bounded).

    Raises:
        InputError: missing, too large, or not UTF-8.
    """
    data = read_limited(repo.spec_dir / "SPEC.md", max_bytes=MAX_BYTES, label=SPEC_MD, within=repo.root)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"invalid UTF-8 at byte {exc.start}", SPEC_MD) from None


def check_draft(repo: SpecRepo) -> SyncResult:
    """:func:`sync_text` on the draft's SPEC.md, writing nothing."""
    return sync_text(read_draft(repo), draft_blocks(repo), version(repo, DRAFT))


def sync_draft(repo: SpecRepo) -> SyncResult:
    """Rewrite the draft's SPEC.md regions when any is stale (one atomic write, under the
    repository lock). Returns what was found; the file then holds ``result.synced``.

    Raises:
        InputError: as :func:`check_draft`, or another command holds the lock.
    """
    with repo_lock(repo.root, "spec sync"):
        result = check_draft(repo)
        if result.stale:
            atomic_write(repo.spec_dir / "SPEC.md", result.synced)
    return result
