"""The normative change record: every change to SPEC.md's normative content since the latest
release, and what covers it (SPEC.md "Governance": every change to the normative text goes
through an RFC).

Normative content is compared in three kinds of unit between the latest release and the draft:

* **generated regions**, compared by what they say: the region as generated from each version's
  own schemas and catalogue (:func:`.sync.blocks_for`; the status line left out), so a release
  written before regions existed compares by its facts, not its layout;
* **rule sections**: the hand-written text of each ``### CODE`` under "Cross-field rules" with
  its generated region left out;
* **normative sentences** elsewhere (the "Status" and "Changelog" sections left out): the
  sentences of paragraphs and the rows of hand-written tables that use a BCP 14 key word
  (RFC 2119, RFC 8174: MUST, MUST NOT, REQUIRED, SHALL, SHALL NOT, SHOULD, SHOULD NOT,
  RECOMMENDED, NOT RECOMMENDED, MAY, OPTIONAL, in capitals), name an error code
  (UPPER_SNAKE with an underscore, such as UNSUPPORTED_VERSION), or use a word that decides
  normative force or validity (:data:`CONFORMANCE_WORDS`: informative, non-normative,
  normative, invalid), compared section by section; headings and HTML blocks are read like
  paragraphs, and a key word counts as written or as rendered (:func:`rendered`).

Each :class:`Change` has an id ``spec:`` + 8 hex digits (SHA-256 over where it is, the old
text and the new text), so a record covers that exact change and a later edit needs its own.
A change is covered

* by its sources, when it is a generated region's: the region says what the schemas and the
  catalogue say (a stale region is an error of its own), and the gate judges a change to those
  sources itself (the classifier's findings, a breaking one only as accepted), so an ordinary
  additive field documented by ``spec sync`` needs no RFC;
* by an RFC whose front matter lists the id under ``spec_changes`` (an RFC that is not
  rejected, withdrawn or superseded), or
* by an editorial mark: a bullet of the draft's pending changelog entry
  (``### X.Y.Z — unreleased``, :mod:`evalport_spec.changelog`) that starts ``Editorial`` and
  names the id in a code span.

``check`` lists every change (INFO when covered, an error when not); ``release`` writes the list
into the release's changelog entry (:func:`release_bullets`).
"""

from __future__ import annotations

import difflib
import hashlib
import html
import json
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from .. import changelog, markdown
from ..findings import Finding, Location, Severity
from ..spec import DRAFT, SpecRepo, SpecVersion
from ..specmd import RULES_SECTION
from .blocks import Block, excerpt
from .facts import STATUS
from .regions import find
from .sync import SPEC_MD, blocks_for, read_draft, version

KEYWORDS = re.compile(r"\b(?:MUST(?: NOT)?|REQUIRED|SHALL(?: NOT)?|SHOULD(?: NOT)?|(?:NOT )?RECOMMENDED|MAY|OPTIONAL)\b")
"""BCP 14 key words (RFC 2119 section 1-5, in capitals as RFC 8174 requires)."""

ERROR_CODE = re.compile(r"\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b")
"""An error code as SPEC.md writes one: UPPER_SNAKE with at least one underscore."""

CHANGE_ID = re.compile(r"spec:[0-9a-f]{8}")
"""The id of one normative change."""

_SKIPPED = ("status", "changelog")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z`*\"(\[])")
_COVERING = ("draft", "comment", "accepted", "implemented")


@dataclass(frozen=True)
class Unit:
    """One comparable piece of normative content: where it is (``group``), its text, its line."""

    group: str
    text: str
    line: int


@dataclass
class Change:
    """One change to normative content between the latest release and the draft.

    Attributes:
        id: ``spec:`` + 8 hex digits.
        where: ``region fields resultset.Result``, ``rule section DUPLICATE_ID`` or a section
            title such as ``Validation``.
        kind: ``added``, ``removed`` or ``changed``.
        old, new: the text before and after (``""`` for an added or removed unit).
        line: the draft line it is reported at.
        rfcs: RFC numbers whose front matter ties them to it.
        editorial: whether the pending changelog entry marks it editorial.
    """

    id: str
    where: str
    kind: str
    old: str
    new: str
    line: int
    rfcs: list[int] = field(default_factory=list)
    editorial: bool = False

    @property
    def generated(self) -> bool:
        """Whether it is a generated region's change (recorded by the schema or catalogue change
        it mirrors; see the module docstring)."""
        return self.where.startswith("region ")

    @property
    def covered(self) -> bool:
        """Whether its sources, an RFC or an editorial mark record it."""
        return self.generated or bool(self.rfcs) or self.editorial

    def summary(self, width: int = 90) -> str:
        """``added in Validation: "A document whose ..."``; for a changed unit the part that
        differs, ``"old…" -> "new…"`` (texts shortened to ``width``)."""
        if self.kind == "changed":
            before, after = excerpt(_norm(self.old), _norm(self.new), 0)
            return f'{self.kind} in {self.where}: "{_cut(before, width // 2)}" -> "{_cut(after, width // 2)}"'
        return f'{self.kind} in {self.where}: "{_cut(_norm(self.new or self.old), width)}"'

    def coverage(self) -> str:
        """``generated from the schemas and catalogue``, ``RFC 0007``, ``editorial``, several of
        them, or ``no record``."""
        parts = ((["generated from the schemas and catalogue"] if self.generated else [])
                 + [f"RFC {n:04d}" for n in self.rfcs] + (["editorial"] if self.editorial else []))
        return ", ".join(parts) or "no record"


def _cut(text: str, width: int) -> str:
    return text if len(text) <= width else text[:width - 1].rstrip() + "…"


def change_id(where: str, old: str, new: str) -> str:
    """``spec:`` + the first 8 hex digits of SHA-256 over the JSON array ``[where, old, new]``."""
    return "spec:" + hashlib.sha256(json.dumps([where, old, new]).encode()).hexdigest()[:8]


def _norm(text: str) -> str:
    return " ".join(text.split())


CONFORMANCE_WORDS = re.compile(r"\b(?:informative|non-normative|normative|invalid)\b",
                               re.IGNORECASE)
"""Words that decide normative force or validity without a key word (SPEC.md's introduction:
the text is normative "except where a passage says it is informative"): "This section is
informative." or "... is invalid" changes what the text requires as much as a MUST does."""


_LOOKALIKE = str.maketrans(
    "\u0391\u0392\u0395\u0396\u0397\u0399\u039a\u039c\u039d\u039f\u03a1\u03a4\u03a5\u03a7"
    "\u0405\u0406\u0408\u0410\u0412\u0415\u041a\u041c\u041d\u041e\u0420\u0421\u0422\u0423\u0425\u04ae"
    # Lisu
    "\ua4ee\ua4f0\ua4e7\ua4f2\ua4e1\ua4df\ua4e0\ua4f3\ua4d1\ua4e3\ua4e2\ua4d4\ua4f4\ua4ec\ua4da\ua4d3"
    "\ua4dd\ua4d6\ua4d9\ua4d7\ua4d0\ua4e6\ua4ea\ua4eb\ua4dc"
    # Cherokee
    "\u13aa\u13a0\u13ac\u13bb\u13de\u13b7\u13e2\u13a1\u13da\u13a2\u13df\u13f4\u13c0\u13ab\u13e6\u13d9"
    "\u13d4\u13c3"
    # Coptic, Armenian
    "\u2c80\u2c88\u2c8e\u2c92\u2c94\u2c98\u2c9a\u2c9e\u2ca2\u2ca4\u2ca6\u2ca8\u2cac"
    "\u054d\u054f\u0555",
    "ABEZHIKMNOPTYXSIJABEKMHOPCTYXY"
    "AEHILMNOPRSTUYCDFGJKBVWXZ"
    "ADEHLMPRSTCBGJKVWZ"
    "AEHIKMNOPCTYXUSO")
"""Capitals of other scripts drawn like Latin ones (Unicode confusables, UTS #39), for the
letters of the key words and codes: Greek and Cyrillic (``МUST`` with a Cyrillic ``М``), and,
since the red team of session 35 wrote ``ꓟꓴꓢꓔ`` (Lisu) and ``ᎷUᏚᎢ`` (Cherokee), Lisu, Cherokee,
Coptic and Armenian ones."""

_IGNORABLE = frozenset(
    [0x00AD, 0x034F, 0x061C, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x3164, 0xFEFF, 0xFFA0]
    + list(range(0x180B, 0x1810)) + list(range(0x200B, 0x2010)) + list(range(0x202A, 0x202F))
    + list(range(0x2060, 0x2070)) + list(range(0xFE00, 0xFE10)) + list(range(0xFFF0, 0xFFF9))
    + list(range(0x1BCA0, 0x1BCA4)) + list(range(0x1D173, 0x1D17B)) + list(range(0xE0000, 0xE1000)))
"""Unicode's Default_Ignorable_Code_Point characters (DerivedCoreProperties.txt): drawn as
nothing, whatever their category. Besides the format characters (category Cf) they hold
combining marks such as the COMBINING GRAPHEME JOINER and the variation selectors (red team,
session 35: ``MU\u034fST`` and ``M\ufe00UST`` render as MUST) and Hangul fillers."""


def rendered(source: str) -> str:
    """What a reader sees of one inline Markdown ``source``, for finding key words: the text
    markdown-it renders (character references decoded, CommonMark 6.2; emphasis and link syntax
    dropped; inline HTML tags and comments dropped, their content kept), with format characters
    removed (Unicode category Cf: the soft hyphen, zero-width joiners and spaces, none of them
    visible; and every other default-ignorable code point, :data:`_IGNORABLE`), NFKC-folded
    (full-width letters) and look-alike capitals of other scripts read as Latin
    (:data:`_LOOKALIKE`). Red team (session 34): ``MU&#83;T``, ``M&shy;UST``,
    ``MU<!-- -->ST`` and ``M**UST**`` render as MUST, and the raw-source reading saw no key word."""
    out = []
    for tok in markdown.inline_tokens(source):
        if tok.type in ("text", "code_inline"):
            out.append(tok.content)
        elif tok.type in ("softbreak", "hardbreak"):
            out.append(" ")
    text = "".join(ch for ch in "".join(out) if unicodedata.category(ch) != "Cf" and ord(ch) not in _IGNORABLE)
    return unicodedata.normalize("NFKC", text).translate(_LOOKALIKE)


DISGUISED = re.compile(r"(?<![^\W\d_])(?=[^\W\d_]*[^\x00-\x7f])(?![^\W\d_]*[a-z])[^\W\d_]{2,}(?![^\W\d_])")
"""A word of two or more letters, at least one of them not ASCII and none an ASCII lower-case
letter: how a key word drawn with look-alike letters :data:`_LOOKALIKE` does not list reads
(``ᗰᑌᔕT`` in Canadian syllabics, ``ᴍᴜꜱᴛ`` in small capitals). No SPEC.md of this repository has
a word with a letter outside ASCII, so counting such a word as normative costs a record at most."""


def _normative_text(text: str) -> bool:
    return bool(KEYWORDS.search(text) or ERROR_CODE.search(text) or CONFORMANCE_WORDS.search(text)
                or DISGUISED.search(text))


def _normative(source: str) -> bool:
    """Whether Markdown ``source`` is normative (module docstring), read as written or as a
    reader sees it (:func:`rendered`)."""
    return _normative_text(source) or _normative_text(rendered(source))


def units(text: str, blocks: dict[str, Block], statements: dict[tuple[str, str], str] | None = None, *,
          every: bool = False) -> list[Unit]:
    """The normative units of one SPEC.md text whose version's generated regions are ``blocks``
    and whose catalogue's prose is ``statements`` (``{(field, code): text}``, :func:`_statements`)
    (see the module docstring), in order: regions, prose from the sources, rule sections, sentences.
    With ``every``, every hand-written sentence, row and heading is a unit, key word or not."""
    keep = (lambda _text: True) if every else _normative
    doc = markdown.parse(text)
    regions = find(text, SPEC_MD)
    at = {r.id: r.start for r in regions}
    out = [Unit(f"region {rid}", "\n".join(b.render()), at.get(rid, 0))
           for rid, b in blocks.items() if rid != STATUS]
    out += _source_prose(blocks, statements or {}, at)

    def in_region(line: int) -> bool:
        return any(r.covers(line) for r in regions)

    rules = doc.section(RULES_SECTION)
    rule_sections = doc.children(rules) if rules is not None else []
    for h in rule_sections:
        kept = [doc.lines[n - 1] for n in range(h.line + 1, h.end + 1) if not in_region(n)]
        out.append(Unit(f"rule section {h.text}", _norm("\n".join(kept)), h.line))
    skipped = [h for h in doc.headings if h.level == 2 and h.text.lower() in _SKIPPED] + rule_sections

    def section_of(line: int) -> str | None:
        if in_region(line) or any(h.line <= line <= h.end for h in skipped):
            return None
        path = [h for h in doc.headings if h.level in (2, 3) and h.line <= line <= h.end]
        return " > ".join(h.text for h in path) or "(top)"

    for p in doc.paragraphs:
        group = section_of(p.line)
        if group is None:
            continue
        for sentence in _SENTENCE_END.split(_norm(p.source)):
            if keep(sentence):
                out.append(Unit(group, sentence, p.line))
    for h in doc.headings:
        group = section_of(h.line)
        if group is not None and h.level > 1 and keep(h.source):
            out.append(Unit(group, f"heading {h.source}", h.line))
    for b in doc.html_blocks:
        group = section_of(b.line)
        if group is None:
            continue
        for sentence in _SENTENCE_END.split(_norm(_html_text(b.content))):
            if keep(sentence):
                out.append(Unit(group, sentence, b.line))
    for t in doc.tables:
        group = section_of(t.line)
        if group is None:
            continue
        for row in t.rows:
            row_text = " | ".join(row.cells)
            if keep(row_text):
                out.append(Unit(group, row_text, row.line))
    return out


def _source_prose(blocks: dict[str, Block], statements: dict[tuple[str, str], str],
                  at: dict[str, int]) -> list[Unit]:
    """The normative sentences of prose that comes from the sources: the schemas' ``description``
    (a field table's Description column) and the catalogue's rule ``statement`` and ``gap``
    (the catalogue is part of each release; red team, session 35: a MUST added to a rule's
    ``gap`` passed with no finding, since ``spec sync`` writes the gap into SPEC.md only when it
    first makes the rule's section). A generated
    region is on record by its sources, and the classifier judges what the schemas and the
    catalogue *require*; a description or statement it reads as an annotation
    (``annotation-changed``, ``rule-reworded``). So a key word written there reaches SPEC.md's
    tables, or the catalogue, on no record (adversary, session 34: "MUST" in ``run_id``'s
    description). Those sentences are units of their own, in groups not named ``region``, and
    need a record like any hand-written sentence."""
    out = []
    for rid, b in blocks.items():
        if "Description" not in b.columns:
            continue
        for r in b.rows:
            for sentence in _SENTENCE_END.split(_norm(r.cells.get("Description", ""))):
                if _normative(sentence):
                    out.append(Unit(f"description of {r.key} in {rid}", sentence, at.get(rid, 0)))
    for (what, code), prose in statements.items():
        for sentence in _SENTENCE_END.split(_norm(prose)):
            if _normative(sentence):
                out.append(Unit(f"{what} of {code} in rules.json", sentence, at.get(f"rule {code}", 0)))
    return out


_TAG = re.compile(r"<!--.*?-->|<[^>]*>", re.DOTALL)


def _html_text(content: str) -> str:
    """The text of an HTML block (comments and tags dropped, character references decoded), as
    Markdown source again (so :func:`rendered` reads it like a paragraph's)."""
    return html.unescape(_TAG.sub("", content))


def compare(old: list[Unit], new: list[Unit], fallback_line: int = 1) -> list[Change]:
    """The changes from ``old`` to ``new`` units: per group, the inserted, deleted and replaced
    runs of units (:class:`difflib.SequenceMatcher`), in draft order."""
    groups = list(dict.fromkeys([u.group for u in new] + [u.group for u in old]))
    out: list[Change] = []
    for g in groups:
        a = [u for u in old if u.group == g]
        b = [u for u in new if u.group == g]
        m = difflib.SequenceMatcher(None, [u.text for u in a], [u.text for u in b], autojunk=False)
        for op, i1, i2, j1, j2 in m.get_opcodes():
            if op == "equal":
                continue
            for before, after in _pairs(a[i1:i2], b[j1:j2]):
                kind = "changed" if before and after else "added" if after else "removed"
                line = after.line if after else (b[0].line if b else fallback_line)
                old_text, new_text = before.text if before else "", after.text if after else ""
                out.append(Change(change_id(g, old_text, new_text), g, kind, old_text, new_text,
                                  line or fallback_line))
    return sorted(out, key=lambda c: c.line)


def _pairs(a: list[Unit], b: list[Unit]) -> list[tuple[Unit | None, Unit | None]]:
    """A replaced run of units as changes: a unit of ``a`` and one of ``b`` that are mostly the
    same text (ratio at least 0.6, in order) are one change; the others are removed or added."""
    out: list[tuple[Unit | None, Unit | None]] = []
    j = 0
    for old in a:
        k = next((k for k in range(j, len(b))
                  if difflib.SequenceMatcher(None, old.text, b[k].text).ratio() >= 0.6), None)
        if k is None:
            out.append((old, None))
            continue
        out += [(None, new) for new in b[j:k]] + [(old, b[k])]
        j = k + 1
    return out + [(None, new) for new in b[j:]]


@dataclass
class Record:
    """The normative change record of the draft.

    Attributes:
        since: the latest release (``None``: there is none, so nothing is compared).
        changes: every change, in draft order.
        findings: ERROR per change on no record, INFO per recorded change, WARNING per RFC tie or
            editorial mark naming an id that is no current change, ERROR when the pending
            changelog entry names another version than ``spec/VERSION``.
    """

    since: str | None
    changes: list[Change] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)


def _listed(meta: dict[str, Any]) -> list[str]:
    """The change ids an RFC's front matter lists under ``spec_changes`` (none unless a list)."""
    listed = meta.get("spec_changes") or []
    return [str(cid) for cid in listed] if isinstance(listed, list) else []


def _ties(rfcs: Iterable[Any]) -> dict[str, list[tuple[Any, str]]]:
    out: dict[str, list[tuple[Any, str]]] = {}
    for rfc in rfcs:
        for cid in _listed(rfc.meta):
            out.setdefault(cid, []).append((rfc, str(rfc.meta.get("status"))))
    return out


def _editorial(text: str) -> tuple[dict[str, int], changelog.Entry | None]:
    """``{id: line of the bullet}`` the pending entry marks editorial, and the entry."""
    entry = changelog.pending(text)
    if entry is None:
        return {}, None
    doc = markdown.parse(text)
    ids: dict[str, int] = {}
    for p in doc.paragraphs:
        if entry.line < p.line <= entry.end and p.source.lower().startswith("editorial"):
            for span in markdown.code_spans(p.source):
                if CHANGE_ID.fullmatch(span):
                    ids.setdefault(span, p.line)
    return ids, entry


def draft_changes(repo: SpecRepo, draft: SpecVersion | None = None, text: str | None = None) -> list[Change]:
    """The normative changes from the latest release to the draft (``[]`` without a release).

    Args:
        repo: the repository (its releases and ``spec/VERSION``).
        draft: the version to compare instead of the draft on disk (an RFC's proposal applied
            in memory), with ``text`` its SPEC.md.

    Raises:
        InputError: unreadable schemas or catalogue, malformed region markers.
    """
    latest = repo.latest_release()
    if latest is None:
        return []
    draft = draft if draft is not None else version(repo, DRAFT)
    text = text if text is not None else draft.spec_md
    releases = [version(repo, r) for r in repo.releases()]
    old = units(releases[-1].spec_md, blocks_for(releases[-1], releases, latest, None), _statements(releases[-1]))
    new = units(text, blocks_for(draft, releases, repo.declared_draft_version(), latest), _statements(draft))
    return compare(old, new)


def sentence_changes(before: str, after: str) -> list[Change]:
    """The hand-written sentences, table rows and headings (outside generated regions, rule
    sections, "Status" and "Changelog") that differ from SPEC.md text ``before`` to ``after``
    and are not normative by the record's reading (no key word, code or conformance word on
    either side): the changes the record does not follow. Declarative prose can still change
    what the text requires ("... conforms when its `run_id` has eight characters"), which no
    word list can tell; ``check --base`` shows these to the reviewer (adversary, session 34)."""
    out = []
    for c in compare(units(before, {}, every=True), units(after, {}, every=True)):
        if not (c.old and _normative(c.old)) and not (c.new and _normative(c.new)):
            out.append(c)
    return out


def _statements(v: SpecVersion) -> dict[tuple[str, str], str]:
    """``{("statement" or "gap", code): text}`` of ``v``'s rule catalogue (none without one):
    the prose of each entry, which a release freezes with its catalogue."""
    out: dict[tuple[str, str], str] = {}
    for r in v.catalogue.rules:
        out[("statement", r.code)] = r.statement
        if r.gap:
            out[("gap", r.code)] = r.gap
    return out


def record(repo: SpecRepo, rfcs: Iterable[Any] = ()) -> Record:
    """Compare the latest release's SPEC.md with the draft's and match each change with its
    record (see the module docstring).

    Args:
        repo: the repository.
        rfcs: its RFCs (:func:`evalport_spec.rfc.load_rfcs`; objects with ``number``, ``meta``,
            ``rel`` and ``fm.line(key)``), whose front matter ``spec_changes`` ties changes.

    Raises:
        InputError: the draft's SPEC.md missing, too large or not UTF-8; unreadable schemas or
            catalogue; malformed region markers.
    """
    latest = repo.latest_release()
    text = read_draft(repo)
    out = Record(latest)
    declared = repo.declared_draft_version()
    ids, pending = _editorial(text)
    if pending is not None and declared is not None and pending.version != declared:
        out.findings.append(Finding("changelog-pending-version",
                                    f"the pending changelog entry names {pending.version}; spec/VERSION "
                                    f"says {declared}", new=Location(SPEC_MD, None, pending.line)))
    if latest is None:
        return out
    out.changes = draft_changes(repo, text=text)
    ties = _ties(rfcs)
    current = {c.id for c in out.changes}
    for c in out.changes:
        c.rfcs = sorted({r.number for r, status in ties.get(c.id, []) if status in _COVERING})
        c.editorial = c.id in ids
        if c.covered:
            out.findings.append(Finding("spec-change-recorded",
                                        f"normative change since {latest} [{c.id}] ({c.coverage()}): {c.summary()}",
                                        severity=Severity.INFO, new=Location(SPEC_MD, None, c.line),
                                        extra={"change": c.id}))
        else:
            out.findings.append(Finding(
                "spec-change-unrecorded",
                f"normative change since {latest} [{c.id}] is on no record: {c.summary()}; list "
                f"{c.id} under spec_changes in the front matter of the RFC that makes it, or mark it "
                "editorial in the pending changelog entry", new=Location(SPEC_MD, None, c.line),
                extra={"change": c.id}))
    for cid, tied in ties.items():
        for rfc, status in tied:
            if cid not in current and status in ("draft", "comment", "accepted"):
                out.findings.append(Finding("spec-change-tie-unknown",
                                            f"spec_changes lists {cid}, which is no change to SPEC.md since "
                                            f"{latest} (edited again? `evalport-spec spec changes` lists them)",
                                            severity=Severity.WARNING,
                                            new=Location(rfc.rel, None, rfc.fm.line("spec_changes"))))
    for cid in sorted(set(ids) - current):
        out.findings.append(Finding("spec-change-tie-unknown",
                                    f"the pending changelog entry marks {cid} editorial, which is no change "
                                    f"to SPEC.md since {latest}", severity=Severity.WARNING,
                                    new=Location(SPEC_MD, None, ids[cid])))
    out.findings.sort(key=lambda f: (f.new.line if f.new and f.new.file == SPEC_MD else 0) or 0)
    return out


def records(spec_md: str, rfc_metas: Iterable[dict[str, Any]]) -> dict[str, set[str]]:
    """What a tree puts on record: ``{change id: its records}``, each record ``"editorial"`` (the
    pending changelog entry of ``spec_md``, its SPEC.md, marks it editorial) or ``"RFC NNNN"``
    (an RFC, front matter dicts ``rfc_metas``, in a covering status lists it under
    ``spec_changes``) (module docstring)."""
    out: dict[str, set[str]] = {cid: {"editorial"} for cid in _editorial(spec_md)[0]}
    for meta in rfc_metas:
        if str(meta.get("status")) in _COVERING:
            for cid in _listed(meta):
                out.setdefault(cid, set()).add(f"RFC {_number(meta)}")
    return out


def _number(meta: dict[str, Any]) -> str:
    n = meta.get("number")
    return f"{n:04d}" if isinstance(n, int) and not isinstance(n, bool) else str(n)


def _sources(c: Change) -> set[str]:
    """The records of ``c`` in the form :func:`records` gives them."""
    return {f"RFC {n:04d}" for n in c.rfcs} | ({"editorial"} if c.editorial else set())


def self_recorded(rec: Record, before: dict[str, set[str]], base: str) -> list[Finding]:
    """A ``spec-change-self-recorded`` warning for each change of ``rec`` that only records the
    change adds itself cover: not generated, and none of its records (an RFC listing it, the
    editorial mark) already recorded it in ``before`` (:func:`records` of the base ``base``). A
    record is a person's word that a normative edit is editorial, or part of an RFC; the gate
    cannot judge prose against the schemas (red team: a sentence stating a limit the schema
    lacks, marked editorial by the same branch), so a reviewer must see it. A change the base
    recorded by an RFC and the branch relabels editorial (the RFC deferred) counts as well
    (adversary, session 34: that passed with no warning)."""
    return [Finding(
        "spec-change-self-recorded",
        f"normative change [{c.id}] is on record only by this change itself ({c.coverage()}, which "
        f"{base} did not have): the gate cannot judge prose, so a reviewer confirms SPEC.md still "
        f"agrees with the schemas and catalogue: {c.summary()}",
        severity=Severity.WARNING, new=Location(SPEC_MD, None, c.line), extra={"change": c.id})
        for c in rec.changes if c.covered and not c.generated and not _sources(c) & before.get(c.id, set())]


def release_bullets(repo: SpecRepo, rec: Record) -> list[str]:
    """The changelog bullets a release adds for SPEC.md: the pending entry's own lines, then one
    bullet per normative change of ``rec`` (:func:`record`) with what covers it."""
    pending = changelog.pending(repo.version(DRAFT).spec_md)
    own = [ln for ln in (pending.body.split("\n") if pending else []) if ln.strip()]
    return own + [f"- SPEC.md, {c.summary(120)} ({c.coverage()}; {c.id})." for c in rec.changes]
