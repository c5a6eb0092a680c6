"""Generate the Markdown pages of one site version into a (temporary) docs folder.

Input: the repository and a version name (``"draft"`` or a release ``X.Y.Z``). Output: files
under ``dest`` and the ``nav`` for mkdocs. What each version shows (toolchain.md, "The site"):

=======================  ======================================================================
``index.md``             the version's home: schema URLs, links, the version history picture
``spec.md``              the version's SPEC.md, relative links mapped onto the site
``schemas/<type>.md``    schema reference: every property with path, type, required, constraints,
                         default, description, the version it arrived in and the rules governing it
``schemas/*.json``       the schema files, byte-identical, so ``<version>/schemas/<type>.json``
                         is the URL of their ``$id``
``rules.md``             rule catalogue with documented gaps and fixtures
                         (``evalport_spec.rulecheck.rules_page`` when importable)
``fixtures.md``          the conformance fixtures of the version
``changelog.md``         history steps with the computed class (see :mod:`.history`)
``rfcs/``                RFC index with statuses and each RFC without its front matter
toolchain pages          ``docs/`` of the repository, plus ``cli.md`` generated from the parser
=======================  ======================================================================
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .. import markdown as md
from ..errors import InputError
from ..fsutil import check_within, read_limited
from ..jsonload import MAX_BYTES, load
from ..report.escape import md_cell
from ..spec import DRAFT, SpecRepo, SpecVersion
from .cliref import cli_reference
from .history import (
    DOC_TYPES,
    Change,
    VersionSet,
    changes,
    history_svg,
    property_since,
    spec_changelog,
)
from .links import rewrite_links
from .walk import Prop, code

SITE_URL = "https://evalport.github.io/spec/"
GENERATED = ("index.md", "spec.md", "schemas", "rules.md", "rules.json", "fixtures.md", "fixtures",
             "changelog.md", "rfcs", "cli.md", "conformance", "examples")
"""Names the generator owns at the top of a version's docs folder (docs/ must not use them)."""

def prop_anchor(path: str) -> str:
    """HTML id of a property's section: ``"/results/*/attempt"`` -> ``"prop-results-item-attempt"``."""
    tokens = [("item" if t == "*" else re.sub(r"[^A-Za-z0-9_]+", "_", t)) for t in path.split("/")[1:]]
    return "prop-" + "-".join(tokens) if tokens else "prop-root"


def rule_anchor(code_: str) -> str:
    """HTML id of a rule's section on ``rules.md``: the code in lower case."""
    return code_.lower()


def _anchors(markdown: str) -> set[str]:
    """Ids a Markdown page defines: explicit ``{#id}`` and ``id="..."``, and heading slugs."""
    ids = set(re.findall(r"\{[^}]*#([A-Za-z0-9_:.-]+)[^}]*\}", markdown))
    ids |= set(re.findall(r"\bid=\"([^\"]+)\"", markdown))
    for h in md.parse(markdown).headings:
        ids.add(re.sub(r"[-\s]+", "-", re.sub(r"[^\w\s-]", "", h.text).strip().lower()))
    return ids


def _title_of(markdown: str, fallback: str) -> str:
    h1 = next((h for h in md.parse(markdown).headings if h.level == 1), None)
    return re.sub(r"\s*\{.*\}\s*$", "", h1.text).strip() if h1 else fallback


@dataclass
class VersionPages:
    """The generated pages of one version.

    Attributes:
        name: the version (``"draft"`` or ``X.Y.Z``).
        docs_dir: the folder holding the pages.
        nav: the mkdocs ``nav`` value.
        notes: what degraded (an optional engine not importable), one line each.
    """

    name: str
    docs_dir: Path
    nav: list[Any]
    notes: list[str]


class PageGenerator:
    """Writes one version's pages. Use :func:`generate_version`."""

    def __init__(self, repo: SpecRepo, vs: VersionSet, name: str, dest: Path, rfcs: list[Any]) -> None:
        self.repo, self.vs, self.name, self.dest, self.rfcs = repo, vs, name, Path(dest), rfcs
        self.version: SpecVersion = vs.version(name)
        self.vroot = Path(self.version.root) if self.version.root else repo.spec_dir
        self.notes: list[str] = []
        self.site_map: dict[str, str] = {}
        self.page_paths: dict[str, dict[str, str]] = {}  # doc type -> {path: anchor}
        self.rule_anchors: set[str] = set()
        self.fixtures = self._load_fixtures()

    # -- helpers -----------------------------------------------------------------------------
    def label(self, p: Path) -> str:
        """``p`` as named in messages: relative to the repository root when it lies under it."""
        try:
            return Path(p).relative_to(self.repo.root).as_posix()
        except ValueError:
            return str(p)

    def rel(self, p: Path) -> str:
        """Path of ``p`` (symlinks resolved) relative to the repository root, POSIX style.

        Raises:
            InputError: ``p`` resolves outside the repository (:func:`check_within`).
        """
        root = self.repo.root.resolve()
        return check_within(p, root, self.label(p)).relative_to(root).as_posix()

    def read(self, src: Path) -> bytes:
        """The bytes of repository file ``src``, fenced (:func:`read_limited` ``within`` the
        repository root): a symlink leaving the repository is refused, never published."""
        return read_limited(src, max_bytes=MAX_BYTES, label=self.label(src), within=self.repo.root)

    def read_text(self, src: Path) -> str:
        """:meth:`read` decoded as UTF-8 (InputError naming the file when it is not)."""
        try:
            return self.read(src).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise InputError(f"not UTF-8 text (byte {exc.start})", self.label(src)) from None

    def write(self, rel: str, data: str | bytes) -> None:
        p = self.dest / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(data, str):
            p.write_text(data, encoding="utf-8")
        else:
            p.write_bytes(data)

    def copy(self, src: Path, rel: str) -> None:
        """Copy repository file ``src`` to ``rel`` in the docs folder, through :meth:`read`."""
        self.write(rel, self.read(src))

    def exists(self, repo_rel: str) -> bool:
        return (self.repo.root / repo_rel).exists()

    def _rewrite(self, text: str, source: str, page: str) -> str:
        return rewrite_links(text, source, page, self.site_map, self.exists)

    def _load_fixtures(self) -> list[dict[str, Any]]:
        folder = self.vroot / "conformance" / "fixtures"
        self.fixture_dir = folder
        out = []
        if folder.is_dir():
            for p in sorted(folder.glob("*.json")):
                doc = load(p, label=self.label(p), within=self.repo.root).value
                if isinstance(doc, dict):
                    out.append({**doc, "_file": p})
        return out

    # -- the whole version -------------------------------------------------------------------
    def generate(self) -> VersionPages:
        self._map_files()
        self._copy_static()
        steps = changes(self.vs, self.name, self.rfcs)
        rules_md = self._rules_page()
        self.rule_anchors = _anchors(rules_md)
        schema_nav = self._schema_pages()
        self.write("rules.md", rules_md)
        self.write("fixtures.md", self._fixtures_page())
        self.write("changelog.md", self._changelog_page(steps))
        rfc_nav = self._rfc_pages()
        self.write("spec.md", self._spec_page())
        self.write("index.md", self._index_page(steps))
        self.write("cli.md", cli_reference())
        nav: list[Any] = [
            {"Home": "index.md"},
            {"Specification": "spec.md"},
            {"Schemas": [{"Overview": "schemas/index.md"}, *schema_nav]},
            {"Rules": "rules.md"},
            {"Fixtures": "fixtures.md"},
            {"Changelog": "changelog.md"},
            {"RFCs": [{"Index": "rfcs/index.md"}, *rfc_nav]},
            {"Toolchain": self._toolchain_nav()},
        ]
        return VersionPages(self.name, self.dest, nav, self.notes)

    def _map_files(self) -> None:
        v = self.vroot
        self.site_map[self.rel(v / "SPEC.md")] = "spec.md"
        self.site_map[self.rel(v / "rules.json")] = "rules.json"
        for p in sorted((v / "schemas").glob("*.json")):
            self.site_map[self.rel(p)] = f"schemas/{p.name}"
        for p in sorted(self.fixture_dir.glob("*.json")) if self.fixture_dir.is_dir() else []:
            self.site_map[self.rel(p)] = f"fixtures/{p.name}"
        meta = v / "conformance" / "fixture.schema.json"
        if meta.is_file():
            self.site_map[self.rel(meta)] = "conformance/fixture.schema.json"
        ex = v / "examples"
        for p in sorted(ex.glob("*.json")) if ex.is_dir() else []:
            self.site_map[self.rel(p)] = f"examples/{p.name}"
        rdir = self.repo.root / "rfcs"
        if rdir.is_dir():
            self.site_map["rfcs/README.md"] = "rfcs/index.md"
            for r in self.rfcs:
                self.site_map[self.rel(r.path)] = f"rfcs/{r.path.name}"
                if r.proposal_dir.is_dir():
                    for f in sorted(r.proposal_dir.rglob("*")):
                        if f.is_file():
                            self.site_map[self.rel(f)] = f"rfcs/{f.relative_to(rdir).as_posix()}"
        docs = self.repo.root / "docs"
        for f in self._docs_files():
            self.site_map[self.rel(f)] = f.relative_to(docs).as_posix()

    def _docs_files(self) -> list[Path]:
        docs = self.repo.root / "docs"
        if not docs.is_dir():
            return []
        files = []
        for f in sorted(docs.rglob("*")):
            rel = f.relative_to(docs)
            if f.is_file() and not any(part.startswith(".") for part in rel.parts):
                if rel.parts[0] in GENERATED:
                    raise InputError(f"docs/{rel.parts[0]} clashes with a generated page; rename it",
                                     str(f))
                files.append(f)
        return files

    def _copy_static(self) -> None:
        for repo_rel, site_rel in self.site_map.items():
            src = self.repo.root / repo_rel
            if src.is_file() and not site_rel.endswith(".md"):
                self.copy(src, site_rel)
        docs = self.repo.root / "docs"
        for f in self._docs_files():
            rel = f.relative_to(docs).as_posix()
            if f.suffix == ".md":
                self.write(rel, self._rewrite(self.read_text(f), self.rel(f), rel))
            else:
                self.copy(f, rel)

    # -- schema reference --------------------------------------------------------------------
    def _schema_pages(self) -> list[dict[str, str]]:
        w = self.vs.walker(self.name)
        nav, overview = [], []
        rows_by_type: dict[str, list[Prop]] = {}
        for t in DOC_TYPES:
            fname = f"{t}.json"
            if fname in w.schemas.files:
                rows_by_type[t] = w.walk(fname)
                self.page_paths[t] = {p.path: prop_anchor(p.path) for p in rows_by_type[t] if p.path}
        for t, rows in rows_by_type.items():
            since = property_since(self.vs, self.name, t)
            page = self._schema_page(t, rows, since)
            self.write(f"schemas/{t}.md", page)
            title = rows[0].type
            nav.append({title: f"schemas/{t}.md"})
            sf = w.schemas.files[f"{t}.json"]
            overview.append(f"| [{title}]({t}.md) | [`{t}.json`]({t}.json) | `{sf.uri}` |")
        others = [n for n in w.schemas.files if n.removesuffix(".json") not in rows_by_type]
        lines = [f"# Schemas of {self._vlabel()}", "",
                 "JSON Schema 2020-12, one file per document type. Each file is served at the URL of its "
                 "`$id`, byte for byte as it is in the repository.", "",
                 "| document | file | `$id` |", "| --- | --- | --- |", *overview, ""]
        if others:
            lines += ["Other schema files of this version: " +
                      ", ".join(f"[`{n}`]({n})" for n in others), ""]
        self.write("schemas/index.md", "\n".join(lines))
        return nav

    def _rule_links(self, codes: list[str]) -> str:
        out = []
        for c in codes:
            a = rule_anchor(c)
            out.append(f"[`{c}`](../rules.md#{a})" if a in self.rule_anchors else f"[`{c}`](../rules.md)")
        return ", ".join(out)

    def _governing(self, doc_type: str, paths: set[str]) -> dict[str, list[str]]:
        """``{property path: [rule codes]}``: a rule governs each path it reads (or, when the path
        is not on this page, e.g. inside another document type, its nearest listed ancestor)."""
        out: dict[str, list[str]] = {}
        for r in self.version.catalogue.for_document(doc_type):
            for pattern in r.reads:
                p = pattern
                while p and p not in paths:
                    p = p.rsplit("/", 1)[0]
                if p and r.code not in out.setdefault(p, []):
                    out[p].append(r.code)
        return out

    def _schema_page(self, t: str, rows: list[Prop], since: dict[str, str]) -> str:
        root, props = rows[0], rows[1:]
        sf = self.vs.walker(self.name).schemas.files[f"{t}.json"]
        paths = {p.path for p in props}
        governs = self._governing(t, paths)
        all_rules = self.version.catalogue.for_document(t)
        lines = [f"# {root.type} (`{t}.json`)", ""]
        if root.description:
            lines += [root.description, ""]
        lines += [f"- `$id`: `{sf.uri}` ([download]({t}.json))",
                  f"- Version: {self._vlabel()}"]
        if root.constraints:
            lines.append(f"- The document: {', '.join(root.constraints)}")
        if all_rules:
            lines.append("- Cross-field rules: " + self._rule_links([r.code for r in all_rules]))
        lines += ["", "Paths are JSON Pointers (RFC 6901) to instance locations; `*` stands for any array "
                  "index or map key. *Since* is the release the property first appeared in.", ""]
        conds = [(where, c) for p in rows for where, c in p.conditionals]
        if conds:
            lines += ["## Conditional requirements", ""]
            lines += [f"- At `{where}`: {c}" if where else f"- {c}" for where, c in conds]
            lines.append("")
        lines += ["## Properties", "", "| path | type | required | since |", "| --- | --- | --- | --- |"]
        for p in props:
            lines.append(f"| [`{md_cell(p.path)}`](#{prop_anchor(p.path)}) | {md_cell(self._type_md(p))} | "
                         f"{'required' if p.required else 'optional'} | {self._since(since.get(p.path))} |")
        lines += ["", "## Property details", ""]
        for p in props:
            lines += [f"### `{p.path}` {{#{prop_anchor(p.path)}}}", "",
                      f"**{self._type_md(p)}** · {'required' if p.required else 'optional'} · "
                      f"since {self._since(since.get(p.path))}", ""]
            if p.description:
                lines += [p.description, ""]
            if p.constraints:
                lines.append("- Constraints: " + "; ".join(p.constraints))
            if p.has_default:
                lines.append(f"- Default: {code(p.default)}")
            if p.conditionals:
                lines += [f"- Conditional{' (each item)' if where != p.path else ''}: {c}"
                          for where, c in p.conditionals]
            if p.path in governs:
                lines.append("- Rules: " + self._rule_links(governs[p.path]))
            lines.append("")
        return "\n".join(lines)

    def _type_md(self, p: Prop) -> str:
        if p.link and p.link in self.page_paths:
            return f"{p.type} ([{p.link}]({p.link}.md))"
        return p.type

    def _since(self, v: str | None) -> str:
        if v is None:
            return "?"
        if v == DRAFT:
            planned = self.repo.declared_draft_version()
            return f"draft (unreleased{', planned ' + planned if planned else ''})"
        return v

    def _vlabel(self) -> str:
        if self.name == DRAFT:
            planned = self.repo.declared_draft_version()
            return f"the draft{' (to be released as ' + planned + ')' if planned else ''}"
        return f"release {self.name}"

    def _prop_link(self, doc_type: str, path: str, prefix: str = "") -> str:
        anchors = self.page_paths.get(doc_type, {})
        p = path
        while p and p not in anchors:
            p = p.rsplit("/", 1)[0]
        if p:
            return f"[`{path}`]({prefix}schemas/{doc_type}.md#{anchors[p]})"
        return f"`{path}`"

    # -- rules -------------------------------------------------------------------------------
    def _rules_page(self) -> str:
        try:
            from ..rulecheck import rules_page  # type: ignore[attr-defined]
        except ImportError:
            rules_page = None
        if rules_page is not None:
            try:
                text = rules_page(self.version)
                if isinstance(text, str) and text.strip():
                    return text
            except Exception as exc:  # fall back rather than lose the page
                self.notes.append(f"rulecheck.rules_page failed ({exc}); rendered rules.json instead")
        else:
            self.notes.append("evalport_spec.rulecheck.rules_page not importable; rendered rules.json directly")
        return self._own_rules_page()

    def _own_rules_page(self) -> str:
        cat = self.version.catalogue
        by_rule: dict[str, list[str]] = {}
        for fx in self.fixtures:
            for c in self._fixture_codes(fx):
                by_rule.setdefault(c, []).append(str(fx.get("id")))
        lines = [f"# Rule catalogue of {self._vlabel()}", "",
                 "Cross-field rules the validator enforces beside the JSON Schema, from "
                 "[`rules.json`](rules.json). For each rule: the fields it reads, whether plain JSON "
                 "Schema 2020-12 can express it (and whether the schema encodes it), and the documented "
                 "gap when it cannot.", ""]
        if not cat.rules:
            return "\n".join(lines + ["This version has no cross-field rules.", ""])
        lines += ["| code | document | since | expressible | encoded | fixtures |",
                  "| --- | --- | --- | --- | --- | --- |"]
        for r in cat.rules:
            lines.append(f"| [`{r.code}`](#{rule_anchor(r.code)}) | {r.document} | {r.since} | "
                         f"{'yes' if r.expressible else 'no'} | {'yes' if r.encoded else 'no'} | "
                         f"{len(by_rule.get(r.code, []))} |")
        lines.append("")
        for r in cat.rules:
            lines += [f"## `{r.code}` {{#{rule_anchor(r.code)}}}", "", r.statement, "",
                      f"- Document: [{r.document}](schemas/{r.document}.md)"
                      if r.document in self.page_paths else f"- Document: {r.document}",
                      "- Reads: " + ", ".join(self._prop_link(r.document, p) for p in r.reads),
                      f"- Since: {r.since}",
                      f"- Expressible in JSON Schema 2020-12: {'yes' if r.expressible else 'no'}; "
                      f"encoded in the schema: {'yes' if r.encoded else 'no'}"]
            if r.reported_at:
                at = [r.reported_at] if isinstance(r.reported_at, str) else list(r.reported_at)
                lines.append("- Reported at: " + ", ".join(f"`{a}`" for a in at))
            if r.rfc is not None:
                lines.append(f"- RFC: {self._rfc_link(r.rfc, '')}")
            fx = by_rule.get(r.code, [])
            if fx and self.fixtures:
                lines.append("- Fixtures: " + ", ".join(f"[`{i}`](fixtures.md#{i})" for i in fx))
            lines.append("")
            if r.gap:
                lines += ["!!! note \"Documented gap\"", "", f"    {r.gap}", ""]
        return "\n".join(lines)

    def _rfc_link(self, number: int, prefix: str) -> str:
        for r in self.rfcs:
            if r.number == number:
                return f"[RFC {number:04d}]({prefix}rfcs/{r.path.name})"
        return f"RFC {number:04d}"

    # -- fixtures ----------------------------------------------------------------------------
    @staticmethod
    def _fixture_codes(fx: dict[str, Any]) -> list[str]:
        codes = list(fx.get("rules") or [])
        full = (fx.get("expect") or {}).get("full") or {}
        for e in full.get("errors") or []:
            if isinstance(e, dict) and e.get("code") not in codes:
                codes.append(e.get("code"))
        return [c for c in codes if isinstance(c, str)]

    def _fixtures_page(self) -> str:
        lines = [f"# Conformance fixtures of {self._vlabel()}", ""]
        if not self.fixtures:
            lines += ["This release folder freezes no conformance fixtures. The conformance suite lives "
                      f"with the draft: <{SITE_URL}draft/fixtures/>.", ""]
            return "\n".join(lines)
        lines += ["Each case gives a document and the outcome both validation paths must produce: the raw "
                  "JSON Schema alone (*schema*) and the schema plus every cross-field rule (*full*). "
                  "The fixture files are downloadable beside this page.", ""]
        lines += ["| id | document | schema | full | rules |", "| --- | --- | --- | --- | --- |"]
        for fx in self.fixtures:
            exp = fx.get("expect") or {}
            lines.append(f"| [`{fx.get('id')}`](#{fx.get('id')}) | {fx.get('document_type', '?')} | "
                         f"{_valid((exp.get('schema') or {}).get('valid'))} | "
                         f"{_valid((exp.get('full') or {}).get('valid'))} | "
                         f"{', '.join(self._fixture_codes(fx))} |")
        lines.append("")
        for fx in self.fixtures:
            fid = str(fx.get("id"))
            exp = fx.get("expect") or {}
            dt = fx.get("document_type", "?")
            lines += [f"## `{fid}` {{#{fid}}}", "", str(fx.get("description", "")), "",
                      f"- Document type: [{dt}](schemas/{dt}.md)" if dt in self.page_paths
                      else f"- Document type: {dt}",
                      f"- Schema only: {_valid((exp.get('schema') or {}).get('valid'))}",
                      f"- Full validator: {_valid((exp.get('full') or {}).get('valid'))}"]
            errs = ((exp.get("full") or {}).get("errors")) or []
            for e in errs:
                if isinstance(e, dict):
                    c = str(e.get("code"))
                    link = f"[`{c}`](rules.md#{rule_anchor(c)})" if rule_anchor(c) in self.rule_anchors else f"`{c}`"
                    lines.append(f"    - {link} at `{e.get('instance_path', '')}`")
            lines += [f"- File: [`{fx['_file'].name}`](fixtures/{fx['_file'].name})", "",
                      '??? example "Document"', "", "    ```json"]
            doc = json.dumps(fx.get("document"), indent=2, ensure_ascii=False)
            lines += ["    " + ln for ln in doc.split("\n")]
            lines += ["    ```", ""]
        return "\n".join(lines)

    # -- changelog ---------------------------------------------------------------------------
    def _changelog_page(self, steps: list[Change]) -> str:
        chain = self.vs.releases_upto(self.name) + ([DRAFT] if self.name == DRAFT else [])
        lines = [f"# Changelog up to {self._vlabel()}", "",
                 "Each step gives the compatibility class computed by the diff engine "
                 "(PATCH: same documents accepted; MINOR: every old document stays valid; MAJOR: some "
                 "old document is rejected) beside the class the version numbers declare.", "",
                 '<div class="ep-history-wrap" markdown="0">' + history_svg(chain, steps, self.name) + "</div>",
                 ""]
        entries = spec_changelog(self.version.spec_md)
        for ch in reversed(steps):
            title = "Unreleased (draft)" if ch.new == DRAFT else ch.new
            lines += [f"## {title} {{#{_vid(ch.new)}}}", "",
                      f"From {ch.old}. Computed class: **{ch.computed or 'not computed'}**. "
                      f"Declared by the version number: **{ch.declared}**."
                      + (f" Declared in SPEC.md: **{entries[ch.new][1]}** ({entries[ch.new][0]})."
                         if ch.new in entries else ""), ""]
            if ch.new in entries and entries[ch.new][2]:
                lines += [self._rewrite(entries[ch.new][2], self.rel(self.vroot / "SPEC.md"), "changelog.md"), ""]
            if ch.engine_error:
                lines += [f"*Class not computed: {ch.engine_error}.*", ""]
            elif ch.computed and ch.declared not in ("unreleased", ch.computed):
                lines += ["!!! warning \"Class and version number disagree\"", "",
                          f"    The diff engine computed {ch.computed}, the version number declares "
                          f"{ch.declared}.", ""]
            if ch.rfcs:
                lines.append("- RFCs implemented: " + ", ".join(
                    f"{self._rfc_link(n, '')} {t}" for n, t in ch.rfcs))
            if ch.added:
                lines.append("- Properties added: " + ", ".join(
                    f"{t} {self._prop_link(t, p) if p in self.page_paths.get(t, {}) else f'`{p}`'}"
                    for t, p in ch.added))
            if ch.removed:
                lines.append("- Properties removed: " + ", ".join(f"{t} `{p}`" for t, p in ch.removed))
            if ch.rules_added:
                lines.append("- Rules added: " + ", ".join(
                    f"[`{c}`](rules.md#{rule_anchor(c)})" if rule_anchor(c) in self.rule_anchors else f"`{c}`"
                    for c in ch.rules_added))
            if ch.rules_removed:
                lines.append("- Rules removed: " + ", ".join(f"`{c}`" for c in ch.rules_removed))
            if ch.findings:
                lines += ["", "??? info \"Findings of the diff engine\"", ""]
                lines += [f"    - {md_cell(f)}" for f in ch.findings[:200]]
            lines.append("")
        first = chain[0] if chain else None
        if first and first != DRAFT:
            lines += [f"## {first} {{#{_vid(first)}}}", "", "The first release.", ""]
            if first in entries and entries[first][2]:
                lines += [self._rewrite(entries[first][2], self.rel(self.vroot / "SPEC.md"), "changelog.md"), ""]
        return "\n".join(lines)

    # -- RFCs --------------------------------------------------------------------------------
    def _rfc_pages(self) -> list[dict[str, str]]:
        nav = []
        rows = []
        for r in self.rfcs:
            m = r.meta
            title = str(m.get("title", r.slug))
            page = f"rfcs/{r.path.name}"
            body = r.fm.body
            table = ["| | |", "| --- | --- |"] + [f"| {k} | {md_cell(v)} |" for k, v in _rfc_fields(m)]
            doc = md.parse(body)
            h1 = doc.headings[0] if doc.headings and doc.headings[0].level == 1 else None
            if h1 and not "\n".join(doc.lines[:h1.line - 1]).strip():
                head, tail = "\n".join(doc.lines[:h1.line]), "\n".join(doc.lines[h1.line:])
                body = head + "\n\n" + "\n".join(table) + "\n\n" + tail
            else:
                body = f"# RFC {r.number:04d}: {title}\n\n" + "\n".join(table) + "\n\n" + body
            self.write(page, self._rewrite(body, r.rel, page))
            nav.append({f"{r.number:04d} {title}": page})
            rows.append(f"| [{r.number:04d}]({r.path.name}) | [{md_cell(title)}]({r.path.name}) | "
                        f"{m.get('status', '?')} | {m.get('declared_class', '')} | "
                        f"{m.get('implemented_in', '') or ''} | {md_cell(', '.join(map(str, m.get('affected_documents') or [])))} |")
        counts: dict[str, int] = {}
        for r in self.rfcs:
            counts[str(r.meta.get("status", "?"))] = counts.get(str(r.meta.get("status", "?")), 0) + 1
        lines = ["# RFCs", "",
                 "Every schema change goes through an RFC with a comment period of at least two weeks. "
                 "Statuses: draft, comment, accepted, rejected, withdrawn, implemented, superseded.", ""]
        if not self.rfcs:
            lines += ["No RFCs yet.", ""]
        else:
            lines += ["Status counts: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())), "",
                      "| RFC | title | status | declared class | implemented in | documents |",
                      "| --- | --- | --- | --- | --- | --- |", *rows, ""]
        self.write("rfcs/index.md", "\n".join(lines))
        return nav

    # -- SPEC.md, home, toolchain ------------------------------------------------------------
    def _spec_page(self) -> str:
        text = self.version.spec_md
        if not text.strip():
            return f"# Specification\n\n{self._vlabel().capitalize()} has no SPEC.md.\n"
        return self._rewrite(text, self.rel(self.vroot / "SPEC.md"), "spec.md")

    def _index_page(self, steps: list[Change]) -> str:
        w = self.vs.walker(self.name)
        chain = self.vs.releases_upto(self.name) + ([DRAFT] if self.name == DRAFT else [])
        lines = [f"# EvalPort specification, {self._vlabel()}", ""]
        if self.name == DRAFT:
            lines += ["!!! warning \"Working draft\"", "",
                      "    This is the working draft: it changes with every merged pull request. "
                      "Cite a release instead.", ""]
        lines += ["EvalPort is an open interchange format for LLM evaluations: a **Suite** of **TestCases** "
                  "scored by **Graders**, and the **ResultSet** a runner writes after running it.", "",
                  "- [Specification](spec.md): the normative text",
                  "- [Schemas](schemas/index.md): a reference for each document type",
                  "- [Rules](rules.md): cross-field rules and their documented gaps",
                  "- [Fixtures](fixtures.md): the conformance cases",
                  "- [Changelog](changelog.md): what changed, with computed compatibility classes",
                  "- [RFCs](rfcs/index.md): proposals and their statuses", "",
                  "## Schema URLs", "",
                  "| document | `$id` (the URL it is served at) |", "| --- | --- |"]
        for t in DOC_TYPES:
            sf = w.schemas.files.get(f"{t}.json")
            if sf:
                lines.append(f"| [{t}](schemas/{t}.md) | [`{sf.uri}`](schemas/{t}.json) |")
        lines += ["", "## Version history", "",
                  '<div class="ep-history-wrap" markdown="0">' + history_svg(chain, steps, self.name) + "</div>",
                  "", "Arrows carry the compatibility class of each step ([changelog](changelog.md)); "
                  "a class ending in `?` is the one the version number declares, not yet computed.", ""]
        return "\n".join(lines)

    def _toolchain_nav(self) -> list[Any]:
        docs = self.repo.root / "docs"
        pages: list[tuple[str, str]] = []
        for f in self._docs_files():
            if f.suffix == ".md":
                rel = f.relative_to(docs).as_posix()
                pages.append((_title_of(self.read_text(f), f.stem), rel))
        first = [p for p in pages if p[1] == "architecture.md"]
        howto = [p for p in pages if p[1].startswith("how-to/")]
        rest = [p for p in pages if p not in first and p not in howto]
        nav: list[Any] = [{t: r} for t, r in first] + [{"CLI reference": "cli.md"}]
        if howto:
            nav.append({"How-to": [{t: r} for t, r in howto]})
        nav += [{t: r} for t, r in rest]
        return nav


def _valid(v: Any) -> str:
    return "valid" if v is True else "invalid" if v is False else "?"


def _vid(v: str) -> str:
    return "v-" + v.replace(".", "-")


def _rfc_fields(m: dict[str, Any]) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for key, label in (("status", "Status"), ("number", "Number"), ("authors", "Authors"),
                       ("created", "Created"), ("comment_period", "Comment period"),
                       ("discussion", "Discussion"), ("affected_documents", "Affected documents"),
                       ("declared_class", "Declared class"), ("implemented_in", "Implemented in"),
                       ("decision_date", "Decision date"), ("superseded_by", "Superseded by")):
        v = m.get(key)
        if v in (None, "", []):
            continue
        if isinstance(v, dict):
            v = " to ".join(str(x) for x in v.values())
        elif isinstance(v, list):
            v = ", ".join(str(x) for x in v)
        elif key == "discussion":
            v = f"<{v}>"
        out.append((label, str(v)))
    return out


def generate_version(repo: SpecRepo, vs: VersionSet, name: str, dest: Path,
                     rfcs: list[Any] | None = None) -> VersionPages:
    """Write every page of version ``name`` into ``dest`` (a fresh, temporary folder).

    Args:
        repo: the repository.
        vs: the loaded versions (shared between versions of one build).
        name: ``"draft"`` or a release.
        dest: the docs folder to fill; it should be empty.
        rfcs: loaded RFCs (default: :func:`evalport_spec.rfc.load_rfcs`).

    Returns: the :class:`VersionPages` (nav, notes on what degraded).

    Raises:
        InputError: an unreadable schema, catalogue, fixture or RFC (one line naming the file).
    """
    if rfcs is None:
        rfcs = load_rfcs_or_empty(repo)
    return PageGenerator(repo, vs, name, dest, rfcs).generate()


def load_rfcs_or_empty(repo: SpecRepo) -> list[Any]:
    """The repository's RFCs (:func:`evalport_spec.rfc.load_rfcs`), ``[]`` without ``rfcs/``."""
    from ..rfc import load_rfcs

    return load_rfcs(repo) if (repo.root / "rfcs").is_dir() else []

