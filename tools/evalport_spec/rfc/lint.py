"""``rfc lint``: RFC front matter, dates, statuses, releases, classes and sections, checked.

Rules (toolchain.md, "RFCs": "Dates, statuses and declared classes are checked, not trusted"):

* ``rfc-front-matter``: the front matter matches ``data/rfc-front-matter.schema.json``
  (fields, status words, ISO dates, required fields per status).
* ``rfc-number-mismatch`` / ``rfc-duplicate-number``: the number agrees with the file name and
  is unique.
* ``rfc-other-unreadable`` (WARNING): linting named files only, another RFC in ``rfcs/`` cannot
  be read; it does not block the named files.
* ``rfc-period-too-short``: a comment period lasts at least 14 days (spec Governance: "every
  schema change goes through an RFC with a comment period of at least two weeks").
* ``rfc-date-order``: created <= opens; nothing dated in the future except a scheduled period.
* ``rfc-decided-early``: accepted, rejected or implemented with a decision dated on or before
  the day the comment period closes.
* ``rfc-period-closed-undecided`` (WARNING): status ``comment`` and the period closed, with no
  decision recorded and nothing it waits on; the message says for how many days. With
  ``waiting_on`` (the period extended with no closing date) it is ``rfc-waiting`` (INFO).
* ``rfc-period-history``: every earlier period in ``period_history`` lasted at least 14 days, and
  each closes before the next one (the one in force last) and opens no later: a period is
  extended or reopened, never shortened.
* ``rfc-status-dates``: status and dates disagree (``draft`` whose comment period already opened;
  ``comment`` whose period has not opened yet is fine).
* ``rfc-release-missing`` / ``rfc-not-in-changelog`` / ``rfc-released-before-decision``:
  ``implemented_in`` names a release in ``spec/releases/``, whose SPEC.md changelog entry names
  ``RFC 000N``, released on or after the decision.
* ``rfc-class-mismatch``: the declared class equals the computed class of the RFC's proposal,
  or (implemented RFCs) does not exceed the class of the release it went into; and each
  release's class is declared by at least one of its RFCs (``rfc-release-class-undeclared``).
* ``rfc-section-missing``: the required H2 sections exist.
* ``rfc-decision-missing``: an accepted, rejected, deferred or implemented RFC has a non-empty
  ``## Decision`` section.
* ``rfc-option-missing``: an accepted or implemented RFC with an ``## Options`` section records
  ``chosen_option``, one of the options that section names (``Option X``).
* ``rfc-options-open``: an accepted or implemented RFC whose text still says its options are
  open or undecided, or that no decision is recorded.
* ``rfc-approval-missing``: an accepted or implemented MAJOR RFC lists an approver with role
  ``spec-lead`` (SPEC.md "Governance": a MAJOR change needs the spec lead's sign-off).
* ``rfc-superseded-unknown`` / ``rfc-supersession-cycle``: ``superseded_by`` names an RFC of
  ``rfcs/``, and following ``superseded_by`` never leads back to the RFC.
* ``rfc-reference``: links are ``https``; issue references are ``#N`` with N >= 1.
* ``rfc-example``: every ```json evalport-TYPE block parses as strict JSON and names a known type.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import re
from collections.abc import Iterable
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema

from .. import markdown
from ..compat import compare_versions
from ..errors import InputError
from ..findings import ChangeClass, Finding, Location, Severity
from ..fsutil import read_optional
from ..jsonload import MAX_BYTES, loads
from ..spec import DOC_TYPES, SpecRepo, SpecVersion, parse_semver
from .dates import ChangelogEntry, days, parse_changelog, parse_date
from .frontmatter import parse
from .model import (
    DECISION_SECTION,
    NEEDS_DECISION,
    REQUIRED_SECTIONS,
    RFC_FILE,
    Rfc,
    load_rfc,
    load_rfcs,
    repo_root,
    rfc_paths,
)
from .proposal import UNAPPLIED, draft_documents, plan

MIN_PERIOD_DAYS = 14
"""Shortest comment period, in days (spec Governance section: at least two weeks)."""

DECIDED = ("accepted", "rejected", "implemented")
"""Statuses that record a decision taken after the comment period."""


@cache
def front_matter_schema() -> dict[str, Any]:
    """The JSON Schema of RFC front matter (``evalport_spec/data/rfc-front-matter.schema.json``)."""
    text = resources.files("evalport_spec").joinpath("data/rfc-front-matter.schema.json").read_text("utf-8")
    return json.loads(text)


def _finding(kind: str, rfc: Rfc, line: int, message: str,
             severity: Severity = Severity.ERROR, **extra: Any) -> Finding:
    return Finding(kind, message, severity=severity, new=Location(rfc.rel, None, line),
                   extra={"rfc": rfc.number, **extra})


class _Context:
    """Per-run caches: release changelogs and release classes."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.repo = SpecRepo(root)
        self._changelogs: dict[str, dict[str, ChangelogEntry]] = {}
        self._classes: dict[str, tuple[ChangeClass, str] | None] = {}

    def releases(self) -> list[str]:
        return self.repo.releases()

    def _release(self, name: str) -> SpecVersion:
        # labelled as the gate labels releases (gate.context.GateContext.label): the diff
        # engine's memo is keyed by content including labels, so ``check`` classifies each
        # release pair once for the releases stage and for RFC lint
        return dataclasses.replace(self.repo.version(name), label=f"spec/releases/{name}")

    def changelog(self, version: str) -> dict[str, ChangelogEntry]:
        if version not in self._changelogs:
            p = self.repo.releases_dir / version / "SPEC.md"
            data = read_optional(p, max_bytes=MAX_BYTES, label=f"spec/releases/{version}/SPEC.md")
            text = (data or b"").decode("utf-8", "replace")
            self._changelogs[version] = parse_changelog(text)
        return self._changelogs[version]

    def entry(self, version: str) -> ChangelogEntry | None:
        return self.changelog(version).get(version)

    def release_class(self, version: str) -> tuple[ChangeClass, str] | None:
        """(class of previous release -> ``version``, how it was obtained), or ``None`` for the
        first release or when neither the classifier nor the changelog gives one."""
        if version in self._classes:
            return self._classes[version]
        rel = self.releases()
        result: tuple[ChangeClass, str] | None = None
        if version in rel and rel.index(version) > 0:
            prev = rel[rel.index(version) - 1]
            try:
                result = (compare_versions(self._release(prev), self._release(version)).change_class,
                          f"computed from {prev} -> {version}")
            except InputError:  # unreadable schemas: the schemas stage reports them
                e = self.entry(version)
                if e is not None and e.change_class is not None:
                    result = (e.change_class, f"from the {version} changelog heading; {prev} -> {version} "
                              "could not be classified")
        self._classes[version] = result
        return result


def _schema_findings(rfc: Rfc) -> list[Finding]:
    validator = jsonschema.Draft202012Validator(front_matter_schema(),
                                                format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER)
    out = []
    for err in sorted(validator.iter_errors(rfc.meta), key=lambda e: (list(map(str, e.absolute_path)), e.message)):
        path = ".".join(str(p) for p in err.absolute_path if not isinstance(p, int))
        key = path or _missing_key(err) or ""
        where = f"'{path}'" if path else "front matter"
        msg = err.message
        if err.validator == "additionalProperties":
            msg = msg.replace("Additional properties are not allowed", "unknown key(s)")
        elif err.validator == "not" and not path:
            banned = _keys_not_allowed(err.validator_value, rfc.meta)
            if banned:  # python-jsonschema's message spells out the whole front matter
                key = banned[0]
                msg = (f"{', '.join(repr(k) for k in banned)} not allowed with status "
                       f"{rfc.meta.get('status')!r}")
        out.append(_finding("rfc-front-matter", rfc, rfc.fm.line(key), f"{where}: {msg}"))
    return out


def _keys_not_allowed(schema: Any, meta: dict[str, Any]) -> list[str]:
    """The keys of ``meta`` a ``not`` of the front-matter schema forbids: its schema is
    ``{"required": [...]}`` or an ``anyOf`` of such (``waiting_on`` outside ``comment``,
    ``superseded_by`` outside ``superseded``, ...); ``[]`` for any other shape."""
    branches = schema.get("anyOf", [schema]) if isinstance(schema, dict) else []
    keys = [k for b in branches if isinstance(b, dict) for k in b.get("required", [])]
    return [k for k in keys if k in meta]


def _missing_key(err: jsonschema.ValidationError) -> str | None:
    m = re.match(r"'([^']+)' is a required property", err.message)
    return m.group(1) if m else None


def _date(rfc: Rfc, key: str) -> dt.date | None:
    value: Any = rfc.meta
    for part in key.split("."):
        value = value.get(part) if isinstance(value, dict) else None
    return parse_date(value)


def _date_findings(rfc: Rfc, today: dt.date) -> list[Finding]:
    out: list[Finding] = []
    status = rfc.meta.get("status")
    created = _date(rfc, "created")
    opens = _date(rfc, "comment_period.opens")
    closes = _date(rfc, "comment_period.closes")
    decided = _date(rfc, "decision_date")
    line = rfc.fm.line

    if created and created > today:
        out.append(_finding("rfc-date-order", rfc, line("created"), f"created {created} is in the future (today is {today})"))
    if opens and closes:
        length = (closes - opens).days
        if length < 0:
            out.append(_finding("rfc-period-too-short", rfc, line("comment_period.closes"),
                                f"comment period {opens} to {closes} closes before it opens; "
                                f"at least {MIN_PERIOD_DAYS} days are required"))
        elif length < MIN_PERIOD_DAYS:
            out.append(_finding("rfc-period-too-short", rfc, line("comment_period.closes"),
                                f"comment period {opens} to {closes} lasts {days(length)}; "
                                f"at least {MIN_PERIOD_DAYS} are required"))
    if created and opens and opens < created:
        out.append(_finding("rfc-date-order", rfc, line("comment_period.opens"),
                            f"comment period opens {opens}, before the RFC was created ({created})"))
    if decided:
        if decided > today:
            out.append(_finding("rfc-date-order", rfc, line("decision_date"),
                                f"decision_date {decided} is in the future (today is {today})"))
        if created and decided < created:
            out.append(_finding("rfc-date-order", rfc, line("decision_date"),
                                f"decision_date {decided} is before the RFC was created ({created})"))
        if status in DECIDED and closes and decided <= closes:
            out.append(_finding("rfc-decided-early", rfc, line("decision_date"),
                                f"{status} with a decision dated {decided}, before its comment period "
                                f"closed ({closes}); a decision comes after the period"))
    waiting = rfc.meta.get("waiting_on")
    if status == "comment" and closes and closes < today and isinstance(waiting, str):
        out.append(_finding("rfc-waiting", rfc, rfc.fm.line("waiting_on"),
                            f"comment period closed {closes} and stays open with no closing date, waiting on "
                            f"{waiting}", Severity.INFO))
    elif status == "comment" and closes and closes < today and decided is None:
        n = (today - closes).days
        out.append(_finding("rfc-period-closed-undecided", rfc, line("status"),
                            f"comment period closed {closes}, {days(n)} ago, and no decision is recorded "
                            f"(accept, reject, withdraw, or extend the period)", Severity.WARNING, days=n))
    if status == "comment" and decided is not None:
        out.append(_finding("rfc-status-dates", rfc, line("decision_date"),
                            "status is comment but a decision_date is recorded"))
    if status == "draft" and opens and opens <= today:
        out.append(_finding("rfc-status-dates", rfc, line("status"),
                            f"status is draft but its comment period opened on {opens}; set status to comment"))
    return out


def _release_findings(rfc: Rfc, ctx: _Context) -> list[Finding]:
    version = rfc.meta.get("implemented_in")
    if not isinstance(version, str):
        return []
    line = rfc.fm.line("implemented_in")
    try:
        parse_semver(version)
    except ValueError:
        return []  # reported by the schema check
    if version not in ctx.releases():
        known = ", ".join(ctx.releases()) or "none"
        return [_finding("rfc-release-missing", rfc, line,
                         f"implemented_in {version}: no release spec/releases/{version}/ (releases: {known})")]
    out = []
    entry = ctx.entry(version)
    tag = f"RFC {rfc.number:04d}"
    if entry is None:
        out.append(_finding("rfc-not-in-changelog", rfc, line,
                            f"implemented_in {version}: spec/releases/{version}/SPEC.md has no changelog "
                            f"heading '### {version} — DATE — CLASS'"))
    else:
        if rfc.number not in entry.rfcs:
            out.append(_finding("rfc-not-in-changelog", rfc, line,
                                f"implemented_in {version}, but the {version} changelog entry does not name {tag}"))
        decided = _date(rfc, "decision_date")
        if decided and entry.date and entry.date < decided:
            out.append(_finding("rfc-released-before-decision", rfc, line,
                                f"released in {version} on {entry.date}, before the decision ({decided})"))
    return out


def _class_findings(rfc: Rfc, ctx: _Context, proposal_class: ChangeClass | None) -> list[Finding]:
    declared_name = rfc.meta.get("declared_class")
    if declared_name not in ("PATCH", "MINOR", "MAJOR"):
        return []
    declared = ChangeClass[declared_name]
    line = rfc.fm.line("declared_class")
    if proposal_class is not None:
        if proposal_class != declared:
            return [_finding("rfc-class-mismatch", rfc, line,
                             f"declared_class {declared} but its proposal computes as {proposal_class}")]
        return []
    version = rfc.meta.get("implemented_in")
    if rfc.meta.get("status") == "implemented" and isinstance(version, str) and version in ctx.releases():
        rc = ctx.release_class(version)
        if rc is not None and declared > rc[0]:
            return [_finding("rfc-class-mismatch", rfc, line,
                             f"declared_class {declared} but release {version} is {rc[0]} ({rc[1]})")]
    return []


def _release_class_declared(rfcs: list[Rfc], ctx: _Context) -> list[Finding]:
    """Each release's class must be declared by at least one RFC implemented in it."""
    out = []
    by_release: dict[str, list[Rfc]] = {}
    for r in rfcs:
        v = r.meta.get("implemented_in")
        if r.meta.get("status") == "implemented" and isinstance(v, str) and v in ctx.releases():
            by_release.setdefault(v, []).append(r)
    for version, members in sorted(by_release.items()):
        rc = ctx.release_class(version)
        declared = [ChangeClass[r.meta["declared_class"]] for r in members
                    if r.meta.get("declared_class") in ("PATCH", "MINOR", "MAJOR")]
        if rc is None or not declared:
            continue
        if max(declared) < rc[0] and rc[0] > ChangeClass.PATCH:
            first = members[0]
            out.append(_finding("rfc-release-class-undeclared", first, first.fm.line("declared_class"),
                                f"release {version} is {rc[0]} ({rc[1]}) but its RFCs "
                                f"({', '.join(f'RFC {m.number:04d}' for m in members)}) declare at most "
                                f"{max(declared)}"))
    return out


def _section_findings(rfc: Rfc) -> list[Finding]:
    h2 = {text.strip().lower(): line for level, line, text in rfc.headings() if level == 2}
    out = []
    for req in REQUIRED_SECTIONS:
        names = req if isinstance(req, tuple) else (req,)
        if not any(n.lower() in h2 for n in names):
            out.append(_finding("rfc-section-missing", rfc, rfc.fm.end_line,
                                f"missing required section '## {' or '.join(names)}'"))
    return out


_TEMPLATE_EXEMPT = frozenset({"questions"})
"""Sections whose template text is also a valid final answer ("None open.")."""

_DISCUSSIONS_INDEX = re.compile(r"^https://github\.com/[^/\s]+/[^/\s]+/discussions/?(?:[?#]\S*)?$")
"""A repository's discussions index (``rfc new``'s default), not a specific thread."""


def _norm(text: str) -> str:
    return " ".join(text.split())


@cache
def _template_placeholders() -> dict[str, str]:
    """``{lower-case H2 heading: normalised placeholder paragraph}`` of ``rfc new``'s template
    (:data:`evalport_spec.rfc.new.TEMPLATE`), for the sections a filled RFC must rewrite."""
    from .new import TEMPLATE

    doc = markdown.parse(TEMPLATE)
    out: dict[str, str] = {}
    for h in doc.headings:
        key = h.text.strip().lower()
        body = _norm("\n".join(doc.lines[h.line:h.end]))
        if h.level == 2 and key not in _TEMPLATE_EXEMPT and body:
            out[key] = body
    return out


def _template_findings(rfc: Rfc) -> list[Finding]:
    """Warnings (kind ``rfc-template-unfilled``) for an RFC still showing ``rfc new``'s template:
    a required section whose text still holds the template's placeholder paragraph (at the
    heading), an empty ``affected_documents``, and a ``discussion`` that is a discussions index
    URL (``https://github.com/OWNER/REPO/discussions``) rather than one thread.
    Source: toolchain.md, RFC workflow (``rfc new`` writes the template; lint checks it is filled).
    """
    out = []
    placeholders = _template_placeholders()
    lines = rfc.fm.body.split("\n")
    heads = rfc.headings()
    for k, (level, line, text) in enumerate(heads):
        want = placeholders.get(text.strip().lower())
        if level != 2 or want is None:
            continue
        end = next((ln for lv, ln, _ in heads[k + 1:] if lv <= 2), rfc.fm.body_offset + len(lines) + 1)
        body = _norm("\n".join(lines[line - rfc.fm.body_offset:end - rfc.fm.body_offset - 1]))
        if want in body:
            out.append(_finding("rfc-template-unfilled", rfc, line,
                                f"section '## {text.strip()}' still holds the template's placeholder text",
                                Severity.WARNING))
    if rfc.meta.get("affected_documents") == []:
        out.append(_finding("rfc-template-unfilled", rfc, rfc.fm.line("affected_documents"),
                            "affected_documents is empty: name the document types the RFC changes",
                            Severity.WARNING))
    disc = rfc.meta.get("discussion")
    if isinstance(disc, str) and _DISCUSSIONS_INDEX.match(disc.strip()):
        out.append(_finding("rfc-template-unfilled", rfc, rfc.fm.line("discussion"),
                            f"discussion {disc} is the discussions index, not a specific thread",
                            Severity.WARNING))
    return out


_HTTP_LINK = re.compile(r"\]\((http://[^)\s]*)\)|<(http://[^>\s]*)>")
_BAD_ISSUE = re.compile(r"(?<![\w&/#`])#0\d*\b")


def _reference_findings(rfc: Rfc) -> list[Finding]:
    out = []
    code = markdown.parse(rfc.fm.body).code_lines
    for i, text in enumerate(rfc.fm.body.split("\n"), start=1):
        if i in code:
            continue
        at = i + rfc.fm.body_offset
        for m in _HTTP_LINK.finditer(text):
            out.append(_finding("rfc-reference", rfc, at, f"link {m.group(1) or m.group(2)} is not https"))
        for m in _BAD_ISSUE.finditer(text):
            out.append(_finding("rfc-reference", rfc, at, f"issue reference {m.group(0)} is malformed (#N, N >= 1)"))
    return out


_EXAMPLE_INFO = re.compile(r"^json\s+evalport-([A-Za-z0-9_-]+)$")


def examples(rfc: Rfc) -> list[tuple[int, str, str]]:
    """Every fenced ```json evalport-TYPE block: ``(file line of the opening fence, TYPE, text)``."""
    out = []
    for fence in markdown.parse(rfc.fm.body).fences:
        m = _EXAMPLE_INFO.match(fence.info)
        if m:
            out.append((rfc.fm.body_offset + fence.line, m.group(1), fence.content.removesuffix("\n")))
    return out


def _example_findings(rfc: Rfc) -> list[Finding]:
    out = []
    for line, doc_type, text in examples(rfc):
        if doc_type not in DOC_TYPES:
            out.append(_finding("rfc-example", rfc, line,
                                f"example type evalport-{doc_type} is not one of "
                                + ", ".join(f"evalport-{t}" for t in DOC_TYPES)))
            continue
        try:
            loads(text, rfc.rel)
        except InputError as exc:
            at = line + (exc.line or 1)
            out.append(_finding("rfc-example", rfc, at, f"evalport-{doc_type} example is not valid JSON: {exc.message}"))
    return out


def _history_findings(rfc: Rfc) -> list[Finding]:
    """``rfc-period-history`` and short earlier periods (module docstring)."""
    history = rfc.meta.get("period_history")
    if not isinstance(history, list):
        return []
    line = rfc.fm.line("period_history")
    chain = [e for e in history if isinstance(e, dict)]
    if isinstance(rfc.meta.get("comment_period"), dict):
        chain.append(rfc.meta["comment_period"])
    out = []
    for i, e in enumerate(chain[:len(history)]):
        o, c = parse_date(e.get("opens")), parse_date(e.get("closes"))
        if o and c and (c - o).days < MIN_PERIOD_DAYS:
            out.append(_finding("rfc-period-too-short", rfc, line,
                                f"period_history entry {i + 1} ({o} to {c}) lasts {days((c - o).days)}; "
                                f"at least {MIN_PERIOD_DAYS} are required"))
    for a, b in zip(chain, chain[1:], strict=False):
        ao, ac, bo, bc = (parse_date(a.get("opens")), parse_date(a.get("closes")),
                          parse_date(b.get("opens")), parse_date(b.get("closes")))
        if ao and ac and bo and bc and (ac >= bc or ao > bo):
            out.append(_finding("rfc-period-history", rfc, line,
                                f"the period {ao} to {ac} is followed by {bo} to {bc}: a later period must close "
                                "after the earlier one and not open before it (extended or reopened, never "
                                "shortened)"))
    return out


_OPTION = re.compile(r"^\s*(?:#{3,6}\s+|[-*]\s+)?(?:\*\*)?Option ([A-Z0-9][A-Za-z0-9-]*)\b")
_STILL_OPEN = (
    re.compile(r"\bno decision (?:has been|was|is) (?:recorded|taken|made)", re.I),
    re.compile(r"\b(?:all|every|each|the) (?:\w+ )?options? (?:\w+ ){0,12}?(?:is|are|remains?|stays?) "
               r"(?:\w+ ){0,2}?(?:open|undecided|on the table)\b", re.I),
    re.compile(r"\b[Oo]ptions [A-Z](?:, [A-Z])*,? and [A-Z]\b[^.]*?\b(?:are|remain)\b[^.]*?\b(?:open|undecided)\b"),
)
"""Sentences that say an RFC's options are still open (``rfc-options-open``)."""


def _section_lines(rfc: Rfc, name: str) -> list[tuple[int, str]] | None:
    """``(file line, text)`` of the body of H2 ``name`` (None when absent)."""
    heads = rfc.headings()
    lines = rfc.fm.body.split("\n")
    for k, (level, line, text) in enumerate(heads):
        if level == 2 and text.strip().lower() == name.lower():
            end = next((ln for lv, ln, _ in heads[k + 1:] if lv <= 2), rfc.fm.body_offset + len(lines) + 1)
            return [(n, lines[n - rfc.fm.body_offset - 1]) for n in range(line + 1, end)]
    return None


def _paragraphs(rfc: Rfc) -> list[tuple[int, str]]:
    """``(first file line, text)`` of every prose paragraph of the body (code fences skipped)."""
    out: list[tuple[int, str]] = []
    start, buf, fence = 0, [], False
    for n, text in enumerate(rfc.fm.body.split("\n"), start=rfc.fm.body_offset + 1):
        if text.lstrip().startswith(("```", "~~~")):
            fence = not fence
            continue
        if fence or not text.strip() or text.startswith("#"):
            if buf:
                out.append((start, " ".join(buf)))
            buf = []
            continue
        if not buf:
            start = n
        buf.append(text.strip())
    if buf:
        out.append((start, " ".join(buf)))
    return out


def _decision_findings(rfc: Rfc) -> list[Finding]:
    """The decision record (module docstring: ``rfc-decision-missing``, ``rfc-option-missing``,
    ``rfc-options-open``, ``rfc-approval-missing``)."""
    status = rfc.meta.get("status")
    if status not in NEEDS_DECISION:
        return []
    out = []
    body = _section_lines(rfc, DECISION_SECTION)
    if body is None or not any(t.strip() for _, t in body):
        out.append(_finding("rfc-decision-missing", rfc, rfc.fm.line("status"),
                            f"status is {status} but there is no {'non-empty ' if body is not None else ''}"
                            f"'## {DECISION_SECTION}' section: state the outcome, its date and link, and why"))
    if status not in ("accepted", "implemented"):
        return out
    options = [m.group(1) for _, t in (_section_lines(rfc, "Options") or []) if (m := _OPTION.match(t))]
    options = list(dict.fromkeys(options))
    chosen = rfc.meta.get("chosen_option")
    if options and chosen is None:
        out.append(_finding("rfc-option-missing", rfc, rfc.fm.line("status"),
                            f"{status}, but chosen_option is not recorded (the Options section names "
                            f"{', '.join(options)})"))
    elif options and chosen not in options:
        out.append(_finding("rfc-option-missing", rfc, rfc.fm.line("chosen_option"),
                            f"chosen_option {chosen!r} is not one of the options the Options section names "
                            f"({', '.join(options)})"))
    for line, text in _paragraphs(rfc):
        hit = next((m for rx in _STILL_OPEN if (m := rx.search(text))), None)
        if hit:
            out.append(_finding("rfc-options-open", rfc, line,
                                f"{status}, but the text still says the options are open: '{hit.group(0)}'"))
    approvers = rfc.meta.get("approvers")
    roles = {a.get("role") for a in approvers if isinstance(a, dict)} if isinstance(approvers, list) else set()
    if rfc.meta.get("declared_class") == "MAJOR" and "spec-lead" not in roles:
        out.append(_finding("rfc-approval-missing", rfc, rfc.fm.line("approvers", rfc.fm.line("status")),
                            f"a MAJOR RFC is {status} without the spec lead's sign-off: list an approver with "
                            "role spec-lead (SPEC.md, Governance)"))
    return out


def _supersession_findings(every: list[Rfc], targets: list[Rfc]) -> list[Finding]:
    """``rfc-superseded-unknown`` and ``rfc-supersession-cycle`` for ``targets``."""
    by_number = {r.number: r for r in every}
    out = []
    for rfc in targets:
        by = rfc.meta.get("superseded_by")
        if not isinstance(by, int) or isinstance(by, bool):
            continue
        line = rfc.fm.line("superseded_by")
        if by not in by_number:
            out.append(_finding("rfc-superseded-unknown", rfc, line, f"superseded_by {by}: no RFC {by} in rfcs/"))
            continue
        path, n = [rfc.number], by
        while n in by_number and n not in path:
            path.append(n)
            n = by_number[n].meta.get("superseded_by")
        if n == rfc.number:
            chain = " -> ".join(f"RFC {k:04d}" for k in [*path, n])
            out.append(_finding("rfc-supersession-cycle", rfc, line,
                                f"superseded_by leads back to this RFC ({chain}): a supersession chain ends "
                                "in an RFC that is not superseded"))
    return out


def refusals(root: Path, path: Path, text: str, today: dt.date) -> list[Finding]:
    """The errors ``rfc lint`` would report for the RFC file ``path`` if it held ``text``: the
    per-file rules (:func:`lint_rfc`, proposal classes aside) and the supersession rules against
    the other RFCs of ``rfcs/``. ``rfc new`` and ``rfc status`` refuse to write such a file,
    so the commands and the linter apply one rule set.

    Raises:
        InputError: ``text`` has unsafe or broken front matter.
    """
    root = Path(root)
    m = RFC_FILE.match(path.name)
    if not m:
        raise InputError("RFC file name must be NNNN-slug.md", str(path))
    rel = f"rfcs/{path.name}"
    rfc = Rfc(path, rel, int(m.group(1)), m.group(2), parse(text, rel), text)
    found = [f for f in lint_rfc(rfc, today, _Context(root)) if f.severity >= Severity.ERROR]
    others, _ = _load_others(root, [])
    every = [r for r in others if r.path.resolve() != path.resolve()] + [rfc]
    found += _supersession_findings(every, [rfc])
    return found


def lint_rfc(rfc: Rfc, today: dt.date, ctx: _Context, proposal_class: ChangeClass | None = None) -> list[Finding]:
    """Every per-file lint finding for one loaded RFC (see the module docstring for the rules)."""
    out = _schema_findings(rfc)
    if rfc.meta.get("number") not in (None, rfc.number) and isinstance(rfc.meta.get("number"), int):
        out.append(_finding("rfc-number-mismatch", rfc, rfc.fm.line("number"),
                            f"number {rfc.meta['number']} does not match the file name ({rfc.number:04d})"))
    out += _date_findings(rfc, today)
    out += _release_findings(rfc, ctx)
    out += _class_findings(rfc, ctx, proposal_class)
    out += _history_findings(rfc)
    out += _section_findings(rfc)
    out += _decision_findings(rfc)
    out += _template_findings(rfc)
    out += _reference_findings(rfc)
    out += _example_findings(rfc)
    return out


def _proposal_class(rfc: Rfc, root: Path) -> tuple[ChangeClass | None, list[Finding]]:
    """The computed class of an open RFC's proposal (None: no proposal or a decided RFC)."""
    if not rfc.has_proposal() or rfc.meta.get("status") not in ("draft", "comment", "accepted"):
        return None, []
    try:
        p = plan(root, rfc)
    except InputError as exc:
        return None, [_finding("rfc-proposal", rfc, rfc.fm.line("declared_class"),
                               f"proposal cannot be applied: {exc}")]
    if p.change_applied:
        return None, applied_proposal_class(rfc, root)
    if p.state != UNAPPLIED:
        return None, [_finding("rfc-proposal", rfc, rfc.fm.line("declared_class"),
                               f"proposal is partly in the draft ({', '.join(p.present)}); "
                               f"`rfc check {rfc.number}` says what is missing")]
    return compare_versions(p.draft, p.proposed, candidates=draft_documents(root)).change_class, []


def applied_proposal_class(rfc: Rfc, root: Path) -> list[Finding]:
    """An RFC whose proposal is already applied to the draft (the step before release): its
    declared class may not exceed the draft's class since the latest release, which may hold
    other RFCs' changes too (so only "not more than" is checkable)."""
    repo = SpecRepo(root)
    latest = repo.latest_release()
    line = rfc.fm.line("declared_class")
    declared = str(rfc.meta.get("declared_class", ""))
    if latest is None or declared not in ("PATCH", "MINOR", "MAJOR"):
        return []
    result = compare_versions(repo.version(latest), repo.version("draft"))
    if ChangeClass[declared] > result.change_class:
        return [_finding("rfc-class-mismatch", rfc, line,
                         f"declared_class {declared} but its proposal is applied to the draft, whose "
                         f"change since {latest} is only {result.change_class}")]
    return [_finding("rfc-proposal-applied", rfc, line,
                     f"proposal is applied to the draft (draft is {result.change_class} since "
                     f"{latest}; declared {declared})", Severity.INFO)]


def _load_others(root: Path, targets: list[Rfc]) -> tuple[list[Rfc], list[Finding]]:
    """Every repository RFC for a lint of named files: the targets as loaded, the others read
    leniently. An other RFC that cannot be read does not block the lint of the named files: it
    becomes one WARNING ``rfc-other-unreadable`` at that file (its number, taken from its file
    name, still counts for ``rfc-duplicate-number``).

    Returns:
        ``(every readable RFC in rfcs/, warnings)``.
    """
    by_path = {r.path.resolve(): r for r in targets}
    every: list[Rfc] = []
    warnings: list[Finding] = []
    for path in rfc_paths(root):
        hit = by_path.get(path.resolve())
        if hit is not None:
            every.append(hit)
            continue
        try:
            every.append(load_rfc(root, path))
        except InputError as exc:
            rel = f"rfcs/{path.name}"
            warnings.append(Finding(
                "rfc-other-unreadable",
                f"not linted (only the named files are) and cannot be read: {exc.message}; "
                f"run `evalport-spec rfc lint {rel}` to see it as an error",
                severity=Severity.WARNING, new=Location(rel, None, exc.line)))
    return every, warnings


def lint_rfcs(repo: SpecRepo | str | Path, files: Iterable[str | Path] | None = None,
              today: dt.date | None = None, *, classes: bool = True) -> list[Finding]:
    """Lint RFC files.

    Args:
        repo: the repository (a :class:`SpecRepo` or its root path).
        files: RFC files to lint (default: every ``rfcs/NNNN-*.md``). With ``files``, only
            those files can fail the lint: duplicate numbers are checked against every
            ``rfcs/NNNN-*.md`` file name, and another RFC that cannot be read is one WARNING
            (``rfc-other-unreadable``), never an error. Release-class rules run only without
            ``files`` (they judge all RFCs together).
        today: the date statuses are judged against (default: the local date today).
        classes: compute proposal and release classes with the diff engine (slow-ish); when
            ``False`` the class rules are skipped.

    Returns:
        Findings, sorted by file and line; ERROR findings fail, WARNING/INFO do not.

    Raises:
        InputError: an RFC file linted (a named one, or any when ``files`` is ``None``) that
            cannot be read or whose front matter is unsafe or not YAML.
    """
    root = repo_root(repo)
    today = today or dt.date.today()
    ctx = _Context(root)
    out: list[Finding] = []
    if files is None:
        every = load_rfcs(root)
        targets = every
    else:
        targets = [load_rfc(root, f) for f in files]
        every, unreadable = _load_others(root, targets)
        out += unreadable
    for rfc in targets:
        pc, extra = _proposal_class(rfc, root) if classes else (None, [])
        out += extra
        out += lint_rfc(rfc, today, ctx, pc) if classes else [
            f for f in lint_rfc(rfc, today, ctx, None) if f.kind != "rfc-class-mismatch"]
    seen: dict[int, str] = {}
    target_paths = {r.path.resolve(): r for r in targets}
    for path in rfc_paths(root):
        number = int(path.name[:4])  # rfc_paths lists NNNN-*.md files only
        other = seen.get(number)
        rfc = target_paths.get(path.resolve())
        if other is not None and rfc is not None:
            out.append(_finding("rfc-duplicate-number", rfc, 1, f"RFC number {number} is also used by {other}"))
        seen.setdefault(number, f"rfcs/{path.name}")
    out += _supersession_findings(every, targets)
    if classes and files is None:
        out += _release_class_declared(every, ctx)
    out.sort(key=lambda f: (f.new.file or "", f.new.line or 0, f.kind) if f.new else ("", 0, f.kind))
    return out
