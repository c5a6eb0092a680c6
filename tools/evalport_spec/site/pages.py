"""Generate the Markdown pages of one site version into a (temporary) docs folder.

Input: the repository and a version name (``"draft"`` or a release ``X.Y.Z``). Output: files
under ``dest`` and the ``nav`` for mkdocs. What each version shows (toolchain.md, "The site"):

=======================  ======================================================================
``index.md``             the version's home: schema URLs, links, the version history picture
``spec.md``              the version's SPEC.md, relative links mapped onto the site
``schemas/<type>.md``    schema reference: every property with path, type, required (with the
                         condition when its parent is optional), constraints, default,
                         description, examples, the version it arrived in and the rules
                         governing it; the document type's example documents
``schemas/*.json``       the schema files, byte-identical, so ``<version>/schemas/<type>.json``
                         is the URL of their ``$id``
``examples/``            the version's example documents, validated (:mod:`.examples`)
``rules.md``             rule catalogue with documented gaps and fixtures
                         (``evalport_spec.rulecheck.rules_page`` when importable)
``fixtures.md``          the conformance fixtures of the version, files and bundles
                         under ``conformance/`` (:mod:`.fixtures`)
``changelog.md``         history steps with the computed class (see :mod:`.history`)
``changes/<v>.md``       field-level "what changed" of each step (:mod:`.whatchanged`)
``rfcs/``                RFC index with comment periods, each RFC without its front matter
                         (:mod:`.rfcpages`)
toolchain pages          ``docs/`` of the repository, plus ``cli.md`` generated from the parser
=======================  ======================================================================
"""

from __future__ import annotations

import datetime as dt
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
from .examples import Example, check_schema_examples, version_examples
from .fixtures import bundle_name, fixtures_page, json_bundle, version_fixtures, zip_bundle
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
from .mdtext import number_headings, pointer_html, protect_pointers
from .rfcpages import check_examples, example_fences, rfc_fields, rfc_index
from .serve import site_url
from .walk import Prop, code
from .whatchanged import step_page, what_changed

GENERATED = ("index.md", "spec.md", "schemas", "rules.md", "rules.json", "fixtures.md", "fixtures",
             "changelog.md", "changes", "rfcs", "cli.md", "conformance", "examples")
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

    def __init__(self, repo: SpecRepo, vs: VersionSet, name: str, dest: Path, rfcs: list[Any],
                 as_of: dt.date, cli_page: str | None = None) -> None:
        self.repo, self.vs, self.name, self.dest, self.rfcs = repo, vs, name, Path(dest), rfcs
        self.as_of, self.cli_page = as_of, cli_page
        self.site_url = site_url(repo.root / "mkdocs.yml")
        self.version: SpecVersion = vs.version(name)
        self.vroot = Path(self.version.root) if self.version.root else repo.spec_dir
        self.notes: list[str] = []
        self.site_map: dict[str, str] = {}
        self.page_paths: dict[str, dict[str, str]] = {}  # doc type -> {path: anchor}
        self.rule_anchors: set[str] = set()
        self.fixtures = version_fixtures(vs, name)
        self.examples: list[Example] = version_examples(repo, self.version)
        check_schema_examples(self.version)

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

    # -- the whole version -------------------------------------------------------------------
    def generate(self) -> VersionPages:
        self._map_files()
        self._copy_static()
        steps = changes(self.vs, self.name, self.rfcs)
        rules_md = self._rules_page()
        self.rule_anchors = _anchors(rules_md)
        schema_nav = self._schema_pages()
        self.write("rules.md", rules_md)
        self._fixtures()
        self.write("examples/index.md", self._examples_page())
        self.write("changelog.md", self._changelog_page(steps))
        changes_nav = []
        for ch in reversed(steps):
            self.write(step_page(ch), what_changed(ch, lambda t, p: self._prop_link(t, p, "../")))
            changes_nav.append({f"{'Draft' if ch.new == DRAFT else ch.new} (from {ch.old})": step_page(ch)})
        rfc_nav = self._rfc_pages()
        self.write("spec.md", self._spec_page())
        self.write("index.md", self._index_page(steps))
        if self.cli_page is not None:
            self.write("cli.md", self.cli_page)
        nav: list[Any] = [
            {"Home": "index.md"},
            {"Specification": "spec.md"},
            {"Schemas": [{"Overview": "schemas/index.md"}, *schema_nav]},
            {"Examples": "examples/index.md"},
            {"Rules": "rules.md"},
            {"Fixtures": "fixtures.md"},
            {"Changelog": [{"Overview": "changelog.md"}, *changes_nav]} if changes_nav else {"Changelog": "changelog.md"},
            {"RFCs": [{"Index": "rfcs/index.md"}, *rfc_nav]},
        ]
        if self._contributing():
            nav.append({"Contributing": self._contributing()})
        nav.append({"Toolchain": self._toolchain_nav()})
        return VersionPages(self.name, self.dest, nav, self.notes)

    def _contributing(self) -> str | None:
        """``contributing.md`` when the repository's docs/ has it (it is shown at the top level)."""
        return "contributing.md" if (self.repo.root / "docs" / "contributing.md").is_file() else None

    def _map_files(self) -> None:
        v = self.vroot
        self.site_map[self.rel(v / "SPEC.md")] = "spec.md"
        self.site_map[self.rel(v / "rules.json")] = "rules.json"
        for p in sorted((v / "schemas").glob("*.json")):
            self.site_map[self.rel(p)] = f"schemas/{p.name}"
        vf = self.fixtures
        if vf.fixtures and vf.meta_schema.is_file():
            self.site_map[self.rel(vf.meta_schema)] = f"conformance/{vf.meta_schema.name}"
        for fx in vf.fixtures:
            self.site_map[self.rel(vf.file(fx))] = f"conformance/fixtures/{fx.id}.json"
        for ex in self.examples:
            self.site_map[self.rel(ex.source)] = f"examples/{ex.name}"
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
                self.write(rel, protect_pointers(self._rewrite(self.read_text(f), self.rel(f), rel)))
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
                  "index or map key. *Since* is the release the property first appeared in. A member "
                  "required inside an optional object is required only when that object is present.", ""]
        mine = [ex for ex in self.examples if ex.doc_type == t]
        lines += ["## Examples {#examples}", ""]
        if mine:
            lines += [f"Validated against {self._vlabel()} when this page was built; also on the "
                      "[examples page](../examples/index.md).", ""]
            for i, ex in enumerate(mine):
                lines += self._example_block(ex, "../", open_=i == 0)
        else:
            lines += [f"No example {root.type} names {self._vlabel()}; see the "
                      f"[examples page](../examples/index.md).", ""]
        conds = [(where, c) for p in rows for where, c in p.conditionals]
        if conds:
            lines += ["## Conditional requirements", ""]
            lines += [f"- At `{where}`: {c}" if where else f"- {c}" for where, c in conds]
            lines.append("")
        lines += ["## Properties", "", "| path | type | required | since | description |",
                  "| --- | --- | --- | --- | --- |"]
        required = {p.path: p.required for p in props}
        for p in props:
            lines.append(f'| <a href="#{prop_anchor(p.path)}">{pointer_html(p.path)}</a> | '
                         f"{md_cell(self._type_md(p))} | {md_cell(_requirement(p, required))} | "
                         f"{self._since(since.get(p.path))} | {md_cell(p.description)} |")
        lines += ["", "## Property details", ""]
        for p in props:
            lines += [f"### `{p.path}` {{#{prop_anchor(p.path)}}}", "",
                      f"**{self._type_md(p)}** · {_requirement(p, required)} · "
                      f"since {self._since(since.get(p.path))}", ""]
            if p.description:
                lines += [p.description, ""]
            if p.constraints:
                lines.append("- Constraints: " + "; ".join(p.constraints))
            if p.has_default:
                lines.append(f"- Default: {code(p.default)}")
            if p.examples:
                lines.append("- Examples (from the schema, validated): " + ", ".join(code(v) for v in p.examples))
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
        """The rule catalogue page (:func:`evalport_spec.rulecheck.rules_page`), its wildcard
        pointers kept out of emphasis and each fixture it names linked to the fixtures page."""
        from ..rulecheck import rules_page

        ids = {fx.id for fx in self.fixtures.fixtures}

        def link(m: re.Match[str]) -> str:
            return f"{m.group(1)}[`{m.group(2)}`](fixtures.md#{m.group(2)}){m.group(3)}" if m.group(2) in ids \
                else m.group(0)
        text = re.sub(r"^(\s*- )`([A-Za-z0-9_.-]+)`(:)", link, rules_page(self.version), flags=re.M)
        return protect_pointers(text)

    def _rfc_link(self, number: int, prefix: str) -> str:
        for r in self.rfcs:
            if r.number == number:
                return f"[RFC {number:04d}]({prefix}rfcs/{r.path.name})"
        return f"RFC {number:04d}"

    # -- fixtures and examples ---------------------------------------------------------------
    def _fixtures(self) -> None:
        """``fixtures.md``, each fixture file, the meta-schema and both bundles (:mod:`.fixtures`)."""
        vf = self.fixtures
        meta_url = f"{self.site_url}{self.name}/conformance/{vf.meta_schema.name}"
        if vf.fixtures:
            meta = self.read(vf.meta_schema)
            meta_id = load(vf.meta_schema, label=self.label(vf.meta_schema), within=self.repo.root).value.get("$id")
            meta_url = meta_id if isinstance(meta_id, str) else meta_url
            files = [(f"{fx.id}.json", self.read(vf.file(fx))) for fx in vf.fixtures]
            self.write(f"conformance/{bundle_name(self.name, 'zip')}", zip_bundle(self.name, meta, files))
            self.write(f"conformance/{bundle_name(self.name, 'json')}",
                       json_bundle(self.name, meta_url, [json.loads(d) for _, d in files]))
        self.write("fixtures.md", fixtures_page(self.name, self._vlabel(), vf, set(self.page_paths),
                                                self.rule_anchors, meta_url))

    def _examples_page(self) -> str:
        """``examples/index.md``: one section per document type with its example documents."""
        lines = [f"# Examples of {self._vlabel()}", "",
                 "Realistic documents, one section per document type. Every one is validated with this "
                 "version's full validator (schema and cross-field rules) when the site is built. "
                 "Examples are informative; the schemas and the specification decide.", ""]
        if not self.examples:
            lines += [f"No example document in the repository names {self._vlabel()}. "
                      f"The draft's examples: <{self.site_url}draft/examples/>.", ""]
        for t in DOC_TYPES:
            mine = [ex for ex in self.examples if ex.doc_type == t]
            title = self.vs.walker(self.name).titles.get(
                self.version.schemas.files[f"{t}.json"].uri, t) if f"{t}.json" in self.version.schemas.files else t
            lines += [f"## {title} {{#{t}}}", ""]
            if not mine:
                lines += [f"No example {title} in {self._vlabel()}.", ""]
            for ex in mine:
                lines += self._example_block(ex, "../", open_=False)
        return "\n".join(lines)

    def _example_block(self, ex: Example, prefix: str, open_: bool, indent: str = "") -> list[str]:
        """A folded block showing example ``ex`` with its download link (``prefix``: the path
        from the page to the version's root)."""
        head = "???+" if open_ else "???"
        body = [f"[Download `{ex.name}`]({prefix}examples/{ex.name}) · valid under {self._vlabel()}", "",
                "```json", *ex.text().split("\n"), "```"]
        return [f'{indent}{head} example "{ex.title.replace(chr(34), chr(39))} ({ex.name})"', "",
                *[f"{indent}    {ln}" if ln else "" for ln in body], ""]

    # -- changelog ---------------------------------------------------------------------------
    def _changelog_page(self, steps: list[Change]) -> str:
        chain = self.vs.releases_upto(self.name) + ([DRAFT] if self.name == DRAFT else [])
        lines = [f"# Changelog up to {self._vlabel()}", "",
                 "Each step gives the compatibility class computed by the diff engine "
                 "(PATCH: same documents accepted; MINOR: every old document stays valid; MAJOR: some "
                 "old document is rejected) beside the class the version numbers declare.", "",
                 '<div class="ep-history-wrap" markdown="0">'
                 + history_svg(chain, steps, self.name, href=lambda ch: f"../{step_page(ch)[:-3]}/") + "</div>",
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
            lines += [f"- Field by field: [what changed in {'the draft' if ch.new == DRAFT else ch.new}]"
                      f"({step_page(ch)}) ({len(ch.findings)} findings of the diff engine)", ""]
        first = chain[0] if chain else None
        if first and first != DRAFT:
            lines += [f"## {first} {{#{_vid(first)}}}", "", "The first release.", ""]
            if first in entries and entries[first][2]:
                lines += [self._rewrite(entries[first][2], self.rel(self.vroot / "SPEC.md"), "changelog.md"), ""]
        return "\n".join(lines)

    # -- RFCs --------------------------------------------------------------------------------
    def _rfc_pages(self) -> list[dict[str, str]]:
        """Each RFC without its front matter, with a details table (comment period on
        :attr:`as_of`) and its worked examples validated and highlighted (:mod:`.rfcpages`);
        then ``rfcs/index.md``."""
        nav = []
        for r in self.rfcs:
            check_examples(self.repo, r)
            title = str(r.meta.get("title", r.slug))
            page = f"rfcs/{r.path.name}"
            body = example_fences(r.fm.body)
            table = ["| field | value |", "| --- | --- |"] + [f"| {k} | {md_cell(v)} |"
                                                         for k, v in rfc_fields(r.meta, self.as_of)]
            doc = md.parse(body)
            h1 = doc.headings[0] if doc.headings and doc.headings[0].level == 1 else None
            if h1 and not "\n".join(doc.lines[:h1.line - 1]).strip():
                head, tail = "\n".join(doc.lines[:h1.line]), "\n".join(doc.lines[h1.line:])
                body = head + "\n\n" + "\n".join(table) + "\n\n" + tail
            else:
                body = f"# RFC {r.number:04d}: {title}\n\n" + "\n".join(table) + "\n\n" + body
            self.write(page, protect_pointers(self._rewrite(body, r.rel, page)))
            nav.append({f"{r.number:04d} {title}": page})
        contributing = f"../{self._contributing()}" if self._contributing() else None
        self.write("rfcs/index.md", rfc_index(self.rfcs, self.as_of, contributing))
        return nav

    # -- SPEC.md, home, toolchain ------------------------------------------------------------
    def _spec_page(self) -> str:
        """SPEC.md with its links mapped onto the site, each document type's examples placed at
        the end of the section defining it, sections numbered and wildcard pointers protected."""
        text = self.version.spec_md
        if not text.strip():
            return f"# Specification\n\n{self._vlabel().capitalize()} has no SPEC.md.\n"
        text = self._rewrite(text, self.rel(self.vroot / "SPEC.md"), "spec.md")
        titles = {self.vs.walker(self.name).titles.get(sf.uri): t for t in DOC_TYPES
                  if (sf := self.version.schemas.files.get(f"{t}.json"))}
        lines = text.split("\n")
        out: list[str] = []
        pending: list[str] = []
        fence = False
        for line in lines + ["## (end)"]:
            if line.lstrip().startswith(("```", "~~~")):
                fence = not fence
            heading = None if fence else re.match(r"^(#{1,3})\s+(.+?)\s*$", line)
            if heading:
                out += pending
                pending = []
                doc_type = titles.get(heading.group(2).strip())
                mine = [ex for ex in self.examples if ex.doc_type == doc_type]
                for ex in mine:
                    pending += self._example_block(ex, "", open_=False)
                if mine:
                    pending[:0] = [f"Example{'s' if len(mine) > 1 else ''} (informative, validated "
                                   f"against {self._vlabel()}):", ""]
            out.append(line)
        return protect_pointers(number_headings("\n".join(out[:-1])))

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
                  "- [Examples](examples/index.md): example documents of each type, validated",
                  "- [Rules](rules.md): cross-field rules and their documented gaps",
                  "- [Fixtures](fixtures.md): the conformance cases, downloadable",
                  "- [Changelog](changelog.md): what changed, with computed compatibility classes",
                  "- [RFCs](rfcs/index.md): proposals, their statuses and comment periods"]
        if self._contributing():
            lines.append(f"- [Contributing]({self._contributing()}): how to propose a change (an RFC "
                         "and a pull request)")
        lines += ["",
                  "## Schema URLs", "",
                  "| document | `$id` (the URL it is served at) |", "| --- | --- |"]
        for t in DOC_TYPES:
            sf = w.schemas.files.get(f"{t}.json")
            if sf:
                lines.append(f"| [{t}](schemas/{t}.md) | [`{sf.uri}`](schemas/{t}.json) |")
        lines += ["", "## Version history", "",
                  '<div class="ep-history-wrap" markdown="0">'
                  + history_svg(chain, steps, self.name, href=lambda ch: f"{step_page(ch)[:-3]}/") + "</div>",
                  "", "Arrows carry the compatibility class of each step ([changelog](changelog.md)); "
                  "a class ending in `?` is the one the version number declares, not yet computed. "
                  "What changed, field by field:", ""]
        for ch in reversed(steps):
            lines.append(f"- [{'The draft' if ch.new == DRAFT else ch.new}]({step_page(ch)}) "
                         f"(from {ch.old}): {ch.label}, {len(ch.findings)} findings")
        if not steps:
            lines.append(f"- {self.name} is the first release.")
        return "\n".join(lines + [""])

    def _toolchain_nav(self) -> list[Any]:
        docs = self.repo.root / "docs"
        pages: list[tuple[str, str]] = []
        for f in self._docs_files():
            if f.suffix == ".md":
                rel = f.relative_to(docs).as_posix()
                pages.append((_title_of(self.read_text(f), f.stem), rel))
        first = [p for p in pages if p[1] == "architecture.md"]
        howto = [p for p in pages if p[1].startswith("how-to/")]
        rest = [p for p in pages if p not in first and p not in howto and p[1] != self._contributing()]
        nav: list[Any] = [{t: r} for t, r in first]
        if self.cli_page is not None:
            nav.append({"CLI reference": "cli.md"})
        if howto:
            nav.append({"How-to": [{t: r} for t, r in howto]})
        nav += [{t: r} for t, r in rest]
        return nav


def _requirement(p: Prop, required: dict[str, bool]) -> str:
    """``optional``, ``required``, or ``required when `/group` is present`` for a member
    required in an object that is itself optional (the nearest optional ancestor is named;
    ``*`` steps, array items and map values, are not members and are skipped)."""
    if not p.required:
        return "optional"
    parent = p.path.rsplit("/", 1)[0]
    while parent:
        if not parent.endswith("/*") and required.get(parent) is False:
            return f"required when `{parent}` is present"
        parent = parent.rsplit("/", 1)[0]
    return "required"


def _vid(v: str) -> str:
    return "v-" + v.replace(".", "-")


def generate_version(repo: SpecRepo, vs: VersionSet, name: str, dest: Path,
                     rfcs: list[Any] | None = None, *, as_of: dt.date | None = None,
                     cli_page: str | None = None) -> VersionPages:
    """Write every page of version ``name`` into ``dest`` (a fresh, temporary folder).

    Args:
        repo: the repository.
        vs: the loaded versions (shared between versions of one build).
        name: ``"draft"`` or a release.
        dest: the docs folder to fill; it should be empty.
        rfcs: loaded RFCs (default: :func:`evalport_spec.rfc.load_rfcs`).
        as_of: the date RFC comment periods are counted from (default: today, UTC).
        cli_page: Markdown of the toolchain's ``cli.md`` (:func:`.cliref.cli_reference` of the
            command line's parser); ``None`` leaves the CLI reference page out.

    Returns: the :class:`VersionPages` (nav, notes on what degraded).

    Raises:
        InputError: an unreadable schema, catalogue, fixture or RFC (one line naming the file);
            an example document, schema ``examples`` value or RFC worked example that its version
            rejects.
    """
    if rfcs is None:
        rfcs = load_rfcs_or_empty(repo)
    as_of = as_of or dt.datetime.now(dt.UTC).date()
    return PageGenerator(repo, vs, name, dest, rfcs, as_of, cli_page).generate()


def load_rfcs_or_empty(repo: SpecRepo) -> list[Any]:
    """The repository's RFCs (:func:`evalport_spec.rfc.load_rfcs`), ``[]`` without ``rfcs/``."""
    from ..rfc import load_rfcs

    return load_rfcs(repo) if (repo.root / "rfcs").is_dir() else []

