"""The site generator: schema walk, arrival versions, history, links, CLI reference, pages and a
strict build, on a small hand-made repository whose expected values are worked out by hand."""

from __future__ import annotations

import ast
import json
import shutil
from pathlib import Path

import pytest

from evalport_spec.cli import build_parser, main
from evalport_spec.errors import InputError
from evalport_spec.site import (
    SchemaWalker,
    VersionSet,
    build_site,
    changes,
    cli_reference,
    generate_version,
    history_svg,
    property_since,
)
from evalport_spec.site.build import dump_versions, order_versions
from evalport_spec.site.history import spec_changelog
from evalport_spec.site.links import rewrite_links
from evalport_spec.spec import SpecRepo

REPO = Path(__file__).resolve().parents[1]
BASE = "https://evalport.github.io/spec"


def _resultset(version: str, extra_result_props: dict | None = None) -> dict:
    result = {"type": "object", "additionalProperties": False, "required": ["test_case_id", "passed"],
              "properties": {"test_case_id": {"type": "string", "minLength": 1, "description": "Test case id."},
                             "passed": {"type": "boolean"}, **(extra_result_props or {})}}
    return {"$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": f"{BASE}/{version}/schemas/resultset.json", "title": "ResultSet",
            "type": "object", "additionalProperties": False, "required": ["run_id", "results"],
            "properties": {"run_id": {"type": "string", "minLength": 1},
                           "results": {"type": "array", "minItems": 1, "items": {"$ref": "#/$defs/result"}},
                           "mode": {"enum": ["fast", "slow"], "default": "fast"}},
            "$defs": {"result": result}}


def _grader(version: str) -> dict:
    return {"$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": f"{BASE}/{version}/schemas/grader.json", "title": "Grader",
            "type": "object", "required": ["id", "type"],
            "properties": {"id": {"type": "string"}, "type": {"type": "string"},
                           "params": {"type": "object"}},
            "allOf": [{"if": {"properties": {"type": {"const": "regex"}}, "required": ["type"]},
                       "then": {"required": ["params"], "properties": {"params": {"required": ["pattern"]}}}}]}


ATTEMPT = {"attempt": {"type": "integer", "minimum": 1, "description": "Repetition number."}}
VIOLATIONS = {"constraint_violations": {"type": "array", "items": {"type": "string"}}}
RULES_11 = {"rules": [{"code": "DUPLICATE_ATTEMPT", "document": "resultset", "statement": "Attempts are unique.",
                       "reads": ["/results/*/attempt", "/results/*/test_case_id"],
                       "guard": ["/results/*/attempt"], "since": "1.1.0",
                       "reported_at": "/results/*/attempt",
                       "expressible": False, "encoded": False, "gap": "Needs keyed uniqueness.", "rfc": 1}]}
SPEC_MD = """# EvalPort

See [the result set schema](schemas/resultset.json) and [RFC 1](../rfcs/0001-attempts.md).
The [noxfile](../noxfile.py) is not published.

## Changelog

### {v} — 2026-01-02 — MINOR

- Something changed.

<!-- end of specification -->
"""


def _write(p: Path, data) -> None:
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(data if isinstance(data, str) else json.dumps(data, indent=2), encoding="utf-8")


def make_repo(root: Path) -> Path:
    """Releases 1.0.0 and 1.1.0 (adds Result.attempt and DUPLICATE_ATTEMPT) and a draft (adds
    constraint_violations), one RFC, one how-to, and this repository's mkdocs.yml."""
    for version, extra, rules in (("1.0.0", None, {"rules": []}), ("1.1.0", ATTEMPT, RULES_11),
                                  ("draft", {**ATTEMPT, **VIOLATIONS}, RULES_11)):
        vdir = root / "spec" if version == "draft" else root / "spec" / "releases" / version
        _write(vdir / "schemas" / "resultset.json", _resultset(version, extra))
        _write(vdir / "schemas" / "grader.json", _grader(version))
        _write(vdir / "rules.json", rules)
        _write(vdir / "SPEC.md", SPEC_MD.format(v=version).replace("../rfcs", "../../../rfcs"
                                                                   if version != "draft" else "../rfcs")
               .replace("../noxfile.py", "../../../noxfile.py" if version != "draft" else "../noxfile.py"))
    _write(root / "spec" / "VERSION", "1.2.0\n")
    _write(root / "spec" / "conformance" / "fixtures" / "dup-attempt.json",
           {"id": "dup-attempt", "description": "Two results share an attempt.", "document_type": "resultset",
            "rules": ["DUPLICATE_ATTEMPT"], "since": "1.1.0", "document": {"run_id": "r", "results": []},
            "expect": {"schema": {"valid": True},
                       "full": {"valid": False, "errors": [{"code": "DUPLICATE_ATTEMPT",
                                                            "instance_path": "/results/1/attempt"}]}}})
    shutil.copyfile(REPO / "spec" / "conformance" / "fixture.schema.json",
                    root / "spec" / "conformance" / "fixture.schema.json")
    # release 1.1.0 froze the fixture (the release layout: conformance/ beside schemas/)
    shutil.copytree(root / "spec" / "conformance", root / "spec" / "releases" / "1.1.0" / "conformance")
    _write(root / "rfcs" / "0001-attempts.md",
           "---\nnumber: 1\ntitle: Attempts\nstatus: implemented\nauthors:\n  - Ada\ncreated: 2026-01-01\n"
           "declared_class: MINOR\nimplemented_in: 1.1.0\n---\n# RFC 0001: Attempts\n\n## Summary\n\n"
           "Adds `attempt`; later `constraint_violations` too.\n")
    _write(root / "docs" / "how-to" / "do-things.md", "# Do things\n\nSee the [architecture](../architecture.md).\n")
    _write(root / "docs" / "architecture.md", "# Architecture\n\nBoxes.\n")
    _write(root / "noxfile.py", "# tasks\n")
    shutil.copyfile(REPO / "mkdocs.yml", root / "mkdocs.yml")
    shutil.copytree(REPO / "docs" / "assets", root / "docs" / "assets")
    return root


@pytest.fixture
def repo(tmp_path) -> SpecRepo:
    return SpecRepo(make_repo(tmp_path / "repo"))


# -- schema walk ---------------------------------------------------------------------------------

def test_walk_lists_every_property_with_type_required_constraints(repo):
    v = repo.version("draft")
    rows = {p.path: p for p in SchemaWalker(v.schemas, {"resultset.json": "resultset"}).walk("resultset.json")}
    assert list(rows) == ["", "/run_id", "/results", "/results/*/test_case_id", "/results/*/passed",
                          "/results/*/attempt", "/results/*/constraint_violations", "/mode"]
    assert rows["/results/*/attempt"].type == "integer"
    assert rows["/results/*/attempt"].required is False
    assert rows["/results/*/attempt"].constraints == ["minimum 1"]
    assert rows["/results/*/attempt"].description == "Repetition number."
    assert rows["/results/*/test_case_id"].required is True
    assert rows["/results"].type == "array of object"
    assert rows["/results"].constraints == ["at least 1 items"]
    assert rows["/results/*/constraint_violations"].type == "array of string"
    assert rows["/mode"].default == "fast" and rows["/mode"].has_default
    assert rows["/mode"].constraints == ['one of `"fast"`, `"slow"`']
    assert not rows["/run_id"].has_default
    assert rows[""].constraints == ["closed: no other members"]


def test_conditionals_become_prose(repo):
    v = repo.version("draft")
    root = SchemaWalker(v.schemas, {"grader.json": "grader"}).walk("grader.json")[0]
    assert root.conditionals == [("", 'If `type` is `"regex"`, then `params` is required; '
                                      '`params.pattern` is required.')]


# -- history -------------------------------------------------------------------------------------

def test_property_since_checks_each_earlier_release(repo):
    vs = VersionSet(repo)
    since = property_since(vs, "draft", "resultset")
    assert since["/run_id"] == "1.0.0"
    assert since["/results/*/attempt"] == "1.1.0"
    assert since["/results/*/constraint_violations"] == "draft"
    assert property_since(vs, "1.0.0", "resultset").get("/results/*/attempt") is None


def test_changes_list_added_properties_rules_and_rfcs(repo):
    from evalport_spec.rfc import load_rfcs

    steps = changes(VersionSet(repo), "draft", load_rfcs(repo))
    assert [(s.old, s.new, s.declared) for s in steps] == [("1.0.0", "1.1.0", "MINOR"),
                                                           ("1.1.0", "draft", "unreleased")]
    assert steps[0].added == [("resultset", "/results/*/attempt")]
    assert steps[0].rules_added == ["DUPLICATE_ATTEMPT"]
    assert steps[0].rfcs == [(1, "Attempts")]
    assert steps[1].added == [("resultset", "/results/*/constraint_violations")]
    assert steps[0].label in ("MINOR", "MINOR?")  # computed when the compat engine is importable


def test_history_svg_draws_boxes_and_labelled_arrows(repo):
    steps = changes(VersionSet(repo), "1.1.0")
    svg = history_svg(["1.0.0", "1.1.0"], steps, current="1.1.0")
    assert svg.startswith("<svg") and svg.endswith("</svg>") and "\n" not in svg
    assert svg.count("<rect") == 2 and svg.count("<line") == 1
    assert ">1.0.0</text>" in svg and 'font-weight="bold">1.1.0</text>' in svg
    assert f">{steps[0].label}</text>" in svg


def test_spec_changelog_parses_entries():
    text = "# X\n\n## Changelog\n\n### 1.2.0 — 2026-08-24 — MINOR\n\n- a\n\n### 1.0.0 — 2026-04-06 — INITIAL\n\n- b\n"
    assert spec_changelog(text) == {"1.2.0": ("2026-08-24", "MINOR", "- a"),
                                    "1.0.0": ("2026-04-06", "INITIAL", "- b")}


# -- links and CLI reference ---------------------------------------------------------------------

def test_rewrite_links_maps_published_files_and_unlinks_unpublished_ones():
    site = {"spec/schemas/a.json": "schemas/a.json", "rfcs/0001-x.md": "rfcs/0001-x.md"}
    exists = {"noxfile.py"}.__contains__
    text = ("[a](schemas/a.json) [r](../rfcs/0001-x.md#summary) [n](../noxfile.py) [gone](missing.md) "
            "[web](https://x.org/a) `[code](schemas/a.json)`\n```\n[a](schemas/a.json)\n```")
    out = rewrite_links(text, "spec/SPEC.md", "spec.md", site, exists)
    assert out == ("[a](schemas/a.json) [r](rfcs/0001-x.md#summary) n (`noxfile.py`) [gone](missing.md) "
                   "[web](https://x.org/a) `[code](schemas/a.json)`\n```\n[a](schemas/a.json)\n```")
    out = rewrite_links("[s](../spec/schemas/a.json)", "rfcs/0001-x.md", "rfcs/0001-x.md", site, exists)
    assert out == "[s](../schemas/a.json)"


def test_cli_reference_walks_every_subcommand():
    text = cli_reference(build_parser())
    assert "## `evalport-spec` {#evalport-spec}" in text
    assert "#### `evalport-spec docs publish` {#evalport-spec-docs-publish}" in text
    assert "| `--allow-dirty` | publish even with uncommitted changes" in text
    assert "| `--branch BRANCH` | branch to deploy to (default: `gh-pages`) |" in text
    assert "| [`docs`](#evalport-spec-docs) |" in text


# -- pages and build -----------------------------------------------------------------------------

def test_generated_pages(repo, tmp_path):
    vs = VersionSet(repo)
    dest = tmp_path / "docs"
    cli_page = cli_reference(build_parser())
    pages = generate_version(repo, vs, "1.1.0", dest, cli_page=cli_page)
    src = repo.releases_dir / "1.1.0" / "schemas" / "resultset.json"
    assert (dest / "schemas" / "resultset.json").read_bytes() == src.read_bytes()
    page = (dest / "schemas" / "resultset.md").read_text()
    assert "### `/results/*/attempt` {#prop-results-item-attempt}" in page
    assert "**integer** · optional · since 1.1.0" in page
    assert "- Rules: [`DUPLICATE_ATTEMPT`](../rules.md#duplicate_attempt)" in page
    assert ('| <a href="#prop-results-item-attempt"><code>/results/<wbr>*/<wbr>attempt</code></a> | integer | '
            "optional | 1.1.0 | Repetition number. |") in page
    assert "constraint_violations" not in page
    spec = (dest / "spec.md").read_text()
    assert "[the result set schema](schemas/resultset.json)" in spec
    assert "[RFC 1](rfcs/0001-attempts.md)" in spec and "noxfile (`noxfile.py`)" in spec
    rfc = (dest / "rfcs" / "0001-attempts.md").read_text()
    assert not rfc.startswith("---")
    assert rfc.startswith("# RFC 0001: Attempts\n\n| field | value |\n| --- | --- |\n| Status | implemented |")
    index = (dest / "rfcs" / "index.md").read_text()
    assert "| [0001](0001-attempts.md) | [Attempts](0001-attempts.md) | implemented | — | — | — | MINOR | 1.1.0 |" in index
    log = (dest / "changelog.md").read_text()
    assert "## 1.1.0 {#v-1-1-0}" in log and "Declared by the version number: **MINOR**" in log
    assert "Declared in SPEC.md: **MINOR** (2026-01-02)" in log
    assert (dest / "how-to" / "do-things.md").is_file()
    assert (dest / "cli.md").read_text(encoding="utf-8") == cli_page
    assert {"Toolchain": [{"Architecture": "architecture.md"}, {"CLI reference": "cli.md"},
                          {"How-to": [{"Do things": "how-to/do-things.md"}]}]} in pages.nav


def test_without_a_cli_page_the_toolchain_section_has_none(repo, tmp_path):
    pages = generate_version(repo, VersionSet(repo), "1.1.0", tmp_path / "docs")
    assert not (tmp_path / "docs" / "cli.md").exists()
    assert {"Toolchain": [{"Architecture": "architecture.md"},
                          {"How-to": [{"Do things": "how-to/do-things.md"}]}]} in pages.nav


def _imported_modules(path: Path, package: str) -> set[str]:
    """Absolute names of the modules ``path`` (a module of ``package``) imports, at any depth of
    the file (function-level imports included); relative imports resolved."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")
            base = base[:len(base) - node.level + 1] if node.level else []
            mod = ".".join(base + ([node.module] if node.module else []))
            names.add(mod)
            names.update(f"{mod}.{a.name}" for a in node.names)
    return names


def test_the_site_library_never_imports_the_command_line():
    site = REPO / "tools" / "evalport_spec" / "site"
    offenders = {f.name: sorted(m for m in _imported_modules(f, "evalport_spec.site")
                                if m == "evalport_spec.cli" or m.startswith("evalport_spec.cli."))
                 for f in sorted(site.glob("*.py"))}
    assert {k: v for k, v in offenders.items() if v} == {}
    assert "evalport_spec.cli" in _imported_modules(REPO / "tools" / "evalport_spec" / "cli" / "docs.py",
                                                    "evalport_spec.cli")  # the resolver sees `from . import`


def test_strict_build_all_versions(repo, tmp_path):
    out = tmp_path / "site"
    results = build_site(repo, out)
    assert [(r.version, r.ok, r.problems) for r in results] == [("1.0.0", True, []), ("1.1.0", True, []),
                                                                 ("draft", True, [])]
    assert json.loads((out / "versions.json").read_text()) == [
        {"version": "1.1.0", "title": "1.1.0", "aliases": ["latest"]},
        {"version": "1.0.0", "title": "1.0.0", "aliases": []},
        {"version": "draft", "title": "draft", "aliases": []}]
    for name in ("1.0.0", "1.1.0", "latest"):
        rel = "1.1.0" if name == "latest" else name
        assert (out / name / "schemas" / "grader.json").read_bytes() == \
            (repo.releases_dir / rel / "schemas" / "grader.json").read_bytes()
    html = (out / "1.1.0" / "schemas" / "resultset" / "index.html").read_text()
    assert 'id="prop-results-item-attempt"' in html and "since 1.1.0" in html
    assert "fonts.googleapis.com" not in html and "unpkg.com" not in html


def test_broken_link_fails_the_build_with_exit_1(repo, tmp_path, capsys):
    spec = repo.spec_dir / "SPEC.md"
    spec.write_text(spec.read_text() + "\nSee [nowhere](nowhere.md) and [x](schemas/resultset.json#nope).\n")
    code = main(["-C", str(repo.root), "docs", "build", "--version", "draft", "--out", str(tmp_path / "o")])
    err = capsys.readouterr().err
    assert code == 1
    assert "draft: FAILED" in err
    assert "nowhere.md" in err
    assert not (tmp_path / "o" / "draft").exists()


def test_unknown_version_is_an_input_error(repo, tmp_path, capsys):
    code = main(["-C", str(repo.root), "docs", "build", "--version", "9.9.9", "--out", str(tmp_path / "o")])
    assert code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["evalport-spec: error: unknown spec version '9.9.9' (known: 1.0.0, 1.1.0, draft)"]


def test_order_versions_puts_releases_newest_first_and_the_draft_last():
    # mike's own order for these names: draft, 10.0.0, 2.0.0, 1.10.0, 1.9.1 (non-numeric first)
    mike = [{"version": v, "title": v, "aliases": a} for v, a in
            (("draft", []), ("10.0.0", ["latest"]), ("2.0.0", []), ("1.10.0", []), ("1.9.1", []))]
    got = [(e["version"], e["aliases"]) for e in order_versions(mike)]
    assert got == [("10.0.0", ["latest"]), ("2.0.0", []), ("1.10.0", []), ("1.9.1", []), ("draft", [])]
    assert dump_versions(mike).endswith("]\n")


@pytest.mark.parametrize("link", ["spec/examples/evil.json", "spec/releases/1.0.0/examples/evil.json",
                                  "rfcs/0002-evil.md", "docs/evil.md", "spec/conformance/fixtures/evil.json"])
def test_build_refuses_a_symlink_leaving_the_repository(repo, tmp_path, capsys, link):
    outside = tmp_path / "secret.json"
    outside.write_text('{"secret": true}\n')
    (repo.root / link).parent.mkdir(parents=True, exist_ok=True)
    (repo.root / link).symlink_to(outside)
    out = tmp_path / "o"
    code = main(["-C", str(repo.root), "docs", "build", "--version", "1.0.0", "--out", str(out)])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2
    assert err == [f"evalport-spec: error: {link}: refusing a symlink that leaves the repository "
                   f"(it points to {outside})"]
    assert not out.exists()


def test_generator_fences_each_file_it_copies(repo, tmp_path):
    """Called directly (without build_site's up-front check) the generator still refuses a
    symlinked example instead of copying it."""
    outside = tmp_path / "secret.json"
    outside.write_text("{}\n")
    (repo.spec_dir / "examples").mkdir()
    (repo.spec_dir / "examples" / "evil.json").symlink_to(outside)
    with pytest.raises(InputError) as exc:
        generate_version(repo, VersionSet(repo), "draft", tmp_path / "docs")
    assert exc.value.source == "spec/examples/evil.json"
    assert "refusing a symlink that leaves the repository" in exc.value.message
    assert not (tmp_path / "docs" / "examples" / "evil.json").exists()


def test_symlink_inside_the_repository_is_published(repo, tmp_path):
    (repo.root / "shared.json").write_text('{"id": "g", "type": "exact"}\n')
    (repo.spec_dir / "examples").mkdir()
    (repo.spec_dir / "examples" / "alias.json").symlink_to("../../shared.json")
    dest = tmp_path / "docs"
    generate_version(repo, VersionSet(repo), "draft", dest)
    assert (dest / "examples" / "alias.json").read_text() == '{"id": "g", "type": "exact"}\n'


@pytest.mark.parametrize(("config", "said"), [
    ("use_directory_urls: maybe\n", "configuration: Config value 'use_directory_urls': Expected type"),
    ("x: " + "[" * 5000 + "]" * 5000 + "\n", "RecursionError"),
], ids=["config-error", "too-deep"])
def test_mkdocs_failing_on_its_configuration_is_an_input_error(repo, tmp_path, capsys, config, said):
    """fresh36: mkdocs' own failures on a broken mkdocs.yml exited 1, as if a page had a broken
    link (`docs: draft: RecursionError: ...`). The CLI convention (0 ok, 1 findings, 2 usage or
    input error) makes them input errors: one line at mkdocs.yml, exit 2, nothing built."""
    cfg = repo.root / "mkdocs.yml"
    cfg.write_text(cfg.read_text() + config)
    out = tmp_path / "o"
    code = main(["-C", str(repo.root), "docs", "build", "--version", "draft", "--out", str(out)])
    err = [ln for ln in capsys.readouterr().err.splitlines() if not ln.startswith("docs: ")]
    assert code == 2
    assert len(err) == 1 and err[0].startswith("evalport-spec: error: mkdocs.yml: mkdocs cannot build the site "
                                               "with this configuration: "), err
    assert said in err[0], err
    assert not (out / "draft").exists() and not [p for p in out.iterdir() if p.name.startswith(".draft.")]


# -- mkdocs.yml is screened for Python tags --------------------------------------------------------

EMOJI_AND_FENCES = """\
  - pymdownx.emoji:
      emoji_index: !!python/name:material.extensions.emoji.twemoji
      emoji_generator: !!python/name:material.extensions.emoji.to_svg
  - pymdownx.superfences:
      custom_fences:
        - name: math
          class: arithmatex
          format: !!python/name:pymdownx.superfences.fence_code_format
"""
"""mkdocs-material's documented settings (emoji, custom fences): the Python names allowed."""


def _tagged(cfg, line: str) -> tuple[int, int]:
    """Append ``line`` to ``cfg``; return the line and column (1-based) of its ``!`` as counted here."""
    text = cfg.read_text()
    cfg.write_text(text + line + "\n")
    return len(text.splitlines()) + 1, line.index("!") + 1


@pytest.mark.parametrize("line", [
    "nav: !!python/object/apply:os.system ['touch {pwned}']",
    "nav: !!python/object/new:os.system ['touch {pwned}']",
    "nav: !<tag:yaml.org,2002:python/object/apply:os.system> ['touch {pwned}']",
    "nav: !<tag:yaml.org,2002:python%2Fobject/apply:os.system> ['touch {pwned}']",
    "nav: !!python/module:os",
    "nav: !!python/name:os.system",
    "nav: !!python/name:pymdownxevil.run",
    "nav: !!python/tuple [1]",
], ids=["apply", "new", "verbatim", "escaped", "module", "name-os", "name-lookalike", "tuple"])
def test_a_python_tag_in_mkdocs_yml_is_refused_before_mkdocs_runs(repo, tmp_path, capsys, line):
    """fresh36: mkdocs loads mkdocs.yml with PyYAML's unsafe loader, so `!!python/object/apply:
    os.system` ran in a docs build of a pull request. Refused in one line at the tag, exit 2,
    nothing run or built."""
    pwned = tmp_path / "PWNED"
    where = _tagged(repo.root / "mkdocs.yml", line.replace("{pwned}", str(pwned)))
    out = tmp_path / "o"
    code = main(["-C", str(repo.root), "docs", "build", "--version", "draft", "--out", str(out)])
    err = capsys.readouterr().err.splitlines()
    assert code == 2
    assert len(err) == 1 and err[0].startswith(f"evalport-spec: error: mkdocs.yml:{where[0]}:{where[1]}: YAML tag "
                                               "!!python/"), err
    assert not out.exists() and not pwned.exists()


def test_a_tag_handle_naming_the_python_namespace_is_refused(repo, tmp_path, capsys):
    cfg = repo.root / "mkdocs.yml"
    cfg.write_text("%TAG !p! tag:yaml.org,2002:python/\n---\n" + cfg.read_text() + "nav: !p!object/apply:os.system [x]\n")
    code = main(["-C", str(repo.root), "docs", "build", "--version", "draft", "--out", str(tmp_path / "o")])
    err = capsys.readouterr().err.splitlines()
    assert code == 2 and len(err) == 1 and "YAML tag !!python/object/apply:os.system" in err[0], err
    assert err[0].startswith(f"evalport-spec: error: mkdocs.yml:{len(cfg.read_text().splitlines())}:6: ")


def test_an_inherited_file_is_screened_too(repo, tmp_path, capsys):
    cfg = repo.root / "mkdocs.yml"
    (repo.root / "docs" / "base.yml").write_text("site_author: x\nextra_css: !!python/object/apply:os.getcwd []\n")
    cfg.write_text("INHERIT: docs/base.yml\n" + cfg.read_text())
    code = main(["-C", str(repo.root), "docs", "build", "--version", "draft", "--out", str(tmp_path / "o")])
    err = capsys.readouterr().err.splitlines()
    assert (code, err) == (2, [
        "evalport-spec: error: docs/base.yml:2:12: YAML tag !!python/object/apply:os.getcwd builds a Python "
        "object while mkdocs loads the file (its loader is PyYAML's unsafe one), which can run code: refused; "
        "only !!python/name: of material.extensions.emoji or pymdownx attributes is allowed"])
    cfg.write_text(cfg.read_text().replace("INHERIT: docs/base.yml", f"INHERIT: {tmp_path / 'elsewhere.yml'}"))
    assert main(["-C", str(repo.root), "docs", "build", "--version", "draft", "--out", str(tmp_path / "o")]) == 2
    assert capsys.readouterr().err.splitlines() == [
        f"evalport-spec: error: mkdocs.yml: INHERIT names {tmp_path / 'elsewhere.yml'}, outside the repository: "
        "it could not be screened for Python tags"]


def test_material_emoji_and_superfences_names_are_allowed_and_build(repo, tmp_path, capsys):
    cfg = repo.root / "mkdocs.yml"
    text = cfg.read_text()
    assert "  - pymdownx.superfences\n" in text
    cfg.write_text(text.replace("  - pymdownx.superfences\n", EMOJI_AND_FENCES))
    out = tmp_path / "o"
    code = main(["-C", str(repo.root), "docs", "build", "--version", "draft", "--out", str(out)])
    assert code == 0, capsys.readouterr().err
    assert (out / "draft" / "index.html").exists()
