"""The issue-17 pieces of the site generator, each on hand-made input with the expected value
worked out by hand: Markdown transforms, comment-period notes, RFC example fences, fixture
bundles, example validation, requirement wording, "what changed" rows, and the loopback server
under the site's path with its 404 pages."""

from __future__ import annotations

import datetime as dt
import io
import json
import urllib.error
import urllib.request
import zipfile
from pathlib import Path

import pytest

from evalport_spec.errors import InputError
from evalport_spec.findings import ChangeClass, Finding, Location
from evalport_spec.site import VersionSet, generate_version, site_path, start_server
from evalport_spec.site.fixtures import ZIP_TIME, version_fixtures, zip_bundle
from evalport_spec.site.history import Change
from evalport_spec.site.mdtext import number_headings, pointer_html, protect_pointers
from evalport_spec.site.pages import _requirement
from evalport_spec.site.rfcpages import example_fences, period_note, rfc_index
from evalport_spec.site.walk import Prop
from evalport_spec.site.whatchanged import instance_pointer, what_changed
from evalport_spec.spec import SpecRepo
from test_site import make_repo

AS_OF = dt.date(2026, 11, 30)


@pytest.fixture
def repo(tmp_path) -> SpecRepo:
    return SpecRepo(make_repo(tmp_path / "repo"))


# -- Markdown transforms -------------------------------------------------------------------------

def test_wildcard_pointers_in_prose_become_code_and_code_is_left_alone():
    text = ("reported at /results/*/isolation when set, else at /results/*.\n"
            "Already `/a/*/b` code; a plain /run_id stays; http://x.org/a/* is a URL.\n"
            "```\n/results/*/x\n```")
    assert protect_pointers(text) == (
        "reported at `/results/*/isolation` when set, else at `/results/*`.\n"
        "Already `/a/*/b` code; a plain /run_id stays; http://x.org/a/* is a URL.\n"
        "```\n/results/*/x\n```")


def test_numbered_headings_keep_the_slugs_mkdocs_gave_them():
    text = ("# Spec\n\n## Status\n\n### Suite\n\n### DUPLICATE_ID\n\n```\n## not a heading\n```\n\n"
            "## Changelog\n\n### 1.3.0 — 2026-10-19 — MINOR\n\n## Kept {#mine}\n")
    assert number_headings(text) == (
        "# Spec\n\n## 1. Status {#status}\n\n### 1.1 Suite {#suite}\n\n### 1.2 DUPLICATE_ID {#duplicate_id}\n\n"
        "```\n## not a heading\n```\n\n## 2. Changelog {#changelog}\n\n"
        "### 2.1 1.3.0 — 2026-10-19 — MINOR {#130-2026-10-19-minor}\n\n## 3. Kept {#mine}\n")


def test_pointer_html_breaks_only_between_tokens():
    assert pointer_html("/results/*/attempt") == "<code>/results/<wbr>*/<wbr>attempt</code>"
    assert pointer_html("/run_id") == "<code>/run_id</code>"
    assert pointer_html("/a<b") == "<code>/a&lt;b</code>"


# -- RFCs ----------------------------------------------------------------------------------------

@pytest.mark.parametrize(("as_of", "note"), [
    (dt.date(2026, 9, 20), "opens in 7 days"),
    (dt.date(2026, 10, 10), "closes in 1 day"),
    (dt.date(2026, 10, 11), "closes today"),
    (dt.date(2026, 11, 30), "closed 50 days ago"),   # 20 days left of October + 30 of November
])
def test_period_note_counts_calendar_days(as_of, note):
    assert period_note({"opens": "2026-09-27", "closes": "2026-10-11"}, as_of) == note


def test_period_note_of_a_period_extended_while_waiting():
    period = {"opens": "2026-09-09", "closes": "2026-09-23"}
    assert period_note(period, dt.date(2026, 9, 20), "a fixture") == "closes in 3 days"
    assert period_note(period, AS_OF, "a fixture") == "extended, no closing date (waiting)"


def test_period_note_without_a_readable_period_is_empty():
    assert period_note(None, AS_OF) == "" and period_note({"opens": "soon"}, AS_OF) == ""


def test_example_fence_gets_a_language_and_a_title():
    body = "Text\n\n```json evalport-resultset\n{}\n```\n\nAfter.\n````json evalport-grader\n{}\n````"
    assert example_fences(body) == (
        'Text\n\n```json title="ResultSet example (validated by rfc check)"\n{}\n```\n\nAfter.\n'
        '````json title="Grader example (validated by rfc check)"\n{}\n````')


def test_rfc_index_row_has_period_and_note(repo):
    from evalport_spec.rfc import load_rfcs

    (repo.root / "rfcs" / "0002-rates.md").write_text(
        "---\nnumber: 2\ntitle: Rates\nstatus: comment\nauthors:\n  - Ada\ncreated: 2026-09-26\n"
        "comment_period:\n  opens: 2026-09-27\n  closes: 2026-10-11\ndeclared_class: MINOR\n---\n# RFC 0002: Rates\n")
    text = rfc_index(load_rfcs(repo), AS_OF, "../contributing.md")
    assert ("| [0002](0002-rates.md) | [Rates](0002-rates.md) | comment | 2026-09-27 | 2026-10-11 | "
            "closed 50 days ago | MINOR | — |") in text
    assert "Comment periods as of 2026-11-30." in text and "[Contributing](../contributing.md)" in text


# -- fixtures ------------------------------------------------------------------------------------

def test_zip_bundle_is_byte_stable_and_laid_out_like_a_release():
    a = zip_bundle("1.0.0", b"{}", [("b.json", b"2"), ("a.json", b"1")])
    b = zip_bundle("1.0.0", b"{}", [("a.json", b"1"), ("b.json", b"2")])
    assert a == b
    z = zipfile.ZipFile(io.BytesIO(a))
    assert z.namelist() == ["evalport-1.0.0-conformance/fixture.schema.json",
                            "evalport-1.0.0-conformance/fixtures/a.json",
                            "evalport-1.0.0-conformance/fixtures/b.json"]
    assert {i.date_time for i in z.infolist()} == {ZIP_TIME}
    assert z.read("evalport-1.0.0-conformance/fixtures/b.json") == b"2"


def test_version_fixtures_follow_since(repo):
    vs = VersionSet(repo)
    # the hand-made fixture dup-attempt has since 1.1.0
    assert [fx.id for fx in version_fixtures(vs, "1.0.0").fixtures] == []
    assert [fx.id for fx in version_fixtures(vs, "1.1.0").fixtures] == ["dup-attempt"]
    assert [fx.id for fx in version_fixtures(vs, "draft").fixtures] == ["dup-attempt"]


def test_fixture_pages_and_bundles(repo, tmp_path):
    dest = tmp_path / "docs"
    generate_version(repo, VersionSet(repo), "1.1.0", dest, as_of=AS_OF)
    page = (dest / "fixtures.md").read_text()
    assert "| [`dup-attempt`](#dup-attempt) | resultset | 1.1.0 | valid / invalid | " \
           "<code>DUPLICATE_ATTEMPT</code> at <code>/results/<wbr>1/<wbr>attempt</code> |" in page
    assert "[`fixture.schema.json`](conformance/fixture.schema.json)" in page
    src = repo.spec_dir / "conformance" / "fixtures" / "dup-attempt.json"
    assert (dest / "conformance" / "fixtures" / "dup-attempt.json").read_bytes() == src.read_bytes()
    bundle = json.loads((dest / "conformance" / "evalport-1.1.0-fixtures.json").read_text())
    assert bundle["spec_version"] == "1.1.0" and bundle["fixtures"] == [json.loads(src.read_text())]
    z = zipfile.ZipFile(dest / "conformance" / "evalport-1.1.0-fixtures.zip")
    assert z.read("evalport-1.1.0-conformance/fixtures/dup-attempt.json") == src.read_bytes()


def test_a_fixture_that_ends_shows_until_and_leaves_later_versions(repo, tmp_path):
    path = repo.spec_dir / "conformance" / "fixtures" / "dup-attempt.json"
    path.write_text(json.dumps({**json.loads(path.read_text()), "until": "1.2.0"}))
    vs = VersionSet(repo)
    assert version_fixtures(vs, "draft").fixtures == []  # the draft is to be released as 1.2.0
    repo.spec_dir.joinpath("VERSION").write_text("1.1.5\n")
    dest = tmp_path / "docs"
    generate_version(repo, VersionSet(repo), "draft", dest, as_of=AS_OF)
    page = (dest / "fixtures.md").read_text()
    assert "| id | document | since | until | schema / full |" in page
    assert "| [`dup-attempt`](#dup-attempt) | resultset | 1.1.0 | 1.2.0 | valid / invalid |" in page
    assert "- Applies from 1.1.0 until 1.2.0 (not included)" in page


# -- examples ------------------------------------------------------------------------------------

def _add_example(repo: SpecRepo, name: str, doc: dict) -> None:
    (repo.spec_dir / "examples").mkdir(exist_ok=True)
    (repo.spec_dir / "examples" / name).write_text(json.dumps(doc, indent=2))


def test_examples_are_shown_on_the_schema_page_the_examples_page_and_in_spec(repo, tmp_path):
    _add_example(repo, "g.json", {"id": "judge", "type": "exact"})
    dest = tmp_path / "docs"
    generate_version(repo, VersionSet(repo), "draft", dest, as_of=AS_OF)
    schema = (dest / "schemas" / "grader.md").read_text()
    assert '???+ example "judge (g.json)"' in schema and "[Download `g.json`](../examples/g.json)" in schema
    assert '??? example "judge (g.json)"' in (dest / "examples" / "index.md").read_text()
    assert (dest / "examples" / "g.json").read_text() == (repo.spec_dir / "examples" / "g.json").read_text()


def test_an_invalid_example_stops_the_build(repo, tmp_path):
    _add_example(repo, "bad.json", {"id": "judge", "type": 3})  # type must be a string
    with pytest.raises(InputError) as exc:
        generate_version(repo, VersionSet(repo), "draft", tmp_path / "docs", as_of=AS_OF)
    assert exc.value.source == "spec/examples/bad.json"
    assert "not valid under draft: TYPE at '/type'" in exc.value.message


def test_a_schema_examples_value_its_subschema_rejects_stops_the_build(repo, tmp_path):
    path = repo.spec_dir / "schemas" / "grader.json"
    schema = json.loads(path.read_text())
    schema["properties"]["type"]["examples"] = ["regex", 7]
    path.write_text(json.dumps(schema))
    with pytest.raises(InputError) as exc:
        generate_version(repo, VersionSet(repo), "draft", tmp_path / "docs", as_of=AS_OF)
    assert "examples[1] at /properties/type" in exc.value.message


def test_a_release_shows_only_the_examples_that_name_it(repo, tmp_path):
    rs = {"run_id": "r", "results": [{"test_case_id": "t", "passed": True}]}
    _add_example(repo, "a.json", {**rs, "version": "1.1.0"} | {"run_id": "a"})
    dest = tmp_path / "docs"
    with pytest.raises(InputError):  # the 1.1.0 resultset schema is closed: no "version" member
        generate_version(repo, VersionSet(repo), "1.1.0", dest, as_of=AS_OF)
    (repo.spec_dir / "examples" / "a.json").unlink()
    _add_example(repo, "b.json", rs)  # names no version: shown in the draft only
    generate_version(repo, VersionSet(repo), "1.1.0", dest, as_of=AS_OF)
    assert not (dest / "examples" / "b.json").exists()


# -- schema reference ----------------------------------------------------------------------------

def test_requirement_names_the_optional_parent():
    required = {"/group": False, "/group/group_id": True, "/results": True, "/results/*/error": False,
                "/results/*/error/type": True, "/results/*/id": True}
    def prop(path: str) -> Prop:
        return Prop(path, "string", required[path])
    assert _requirement(prop("/group"), required) == "optional"
    assert _requirement(prop("/group/group_id"), required) == "required when `/group` is present"
    assert _requirement(prop("/results/*/error/type"), required) == "required when `/results/*/error` is present"
    assert _requirement(prop("/results/*/id"), required) == "required"


# -- what changed --------------------------------------------------------------------------------

def test_what_changed_has_one_row_per_finding_with_its_field_and_value():
    f = Finding("enum-value-removed", "enum value 'b' removed", ChangeClass.MAJOR,
                old=Location("old/resultset.json", "/properties/mode/enum"),
                new=Location("new/resultset.json", "/properties/mode/enum"),
                item="b", extra={"instance_path": ["results", 0, "mode"]}, witness={"mode": "b"})
    assert instance_pointer(f) == "/results/*/mode"
    ch = Change("1.0.0", "2.0.0", "MAJOR", computed="MAJOR", findings=[f])
    page = what_changed(ch, lambda t, p: f"`{p}`")
    row = next(line for line in page.split("\n") if line.startswith("| MAJOR"))
    assert "`/results/*/mode`" in row and '`"b"`' in row and f"`{f.fingerprint}`" in row
    assert "## Witnesses" in page and '"mode": "b"' in page


# -- serving under the site's path ----------------------------------------------------------------

def _get(url: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=10) as r:  # noqa: S310 - loopback
            return r.status, r.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()


def test_server_serves_under_the_prefix_with_version_and_site_404(tmp_path: Path):
    (tmp_path / "1.0.0" / "schemas").mkdir(parents=True)
    (tmp_path / "1.0.0" / "schemas" / "x.json").write_text('{"$id": "x"}')
    (tmp_path / "1.0.0" / "404.html").write_text("version 404")
    (tmp_path / "404.html").write_text("site 404")
    (tmp_path / "index.html").write_text("home")
    assert site_path("https://evalport.github.io/spec/") == "/spec/"
    server = start_server(tmp_path, prefix="/spec/")
    base = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        assert _get(f"{base}/spec/1.0.0/schemas/x.json") == (200, b'{"$id": "x"}')
        assert _get(f"{base}/spec/") == (200, b"home")
        assert _get(f"{base}/spec/1.0.0/nope") == (404, b"version 404")
        assert _get(f"{base}/spec/2.0.0/nope") == (404, b"site 404")
        assert _get(f"{base}/1.0.0/schemas/x.json") == (404, b"site 404")  # outside the prefix
        assert _get(f"{base}/")[1] == b"home"  # redirected to /spec/
    finally:
        server.shutdown()
        server.server_close()


def test_a_worked_example_rfc_check_rejects_stops_the_build(tmp_path):
    """An RFC's worked example is validated as ``rfc check`` validates it (on the draft with the
    RFC's proposal applied); one the schema rejects stops the build, naming the RFC and line.
    (This repository's spec and RFCs: RFC 0006 has a proposal and a ResultSet example.)"""
    from gate_repo import make_repo as copy_of_this_repo

    repo = SpecRepo(copy_of_this_repo(tmp_path))
    path = repo.spec_dir.parent / "rfcs" / "0006-rate-denominators.md"
    text = path.read_text()
    assert text.count('"run_id": "nightly-2026-10-02"') == 1
    line = text[:text.index('"run_id": "nightly-2026-10-02"')].count("\n") + 1
    path.write_text(text.replace('"run_id": "nightly-2026-10-02"', '"run_id": 17'))
    with pytest.raises(InputError) as exc:
        generate_version(repo, VersionSet(repo), "draft", tmp_path / "docs", as_of=AS_OF)
    assert exc.value.message.startswith("worked example rejected by rfc check: ")
    assert str(exc.value.source).startswith("rfcs/0006-rate-denominators.md"), exc.value.source
    assert "/run_id" in exc.value.message or f":{line}" in str(exc.value.source), (exc.value.message, line)


@pytest.mark.parametrize(("config", "expected"), [
    # a date the calendar lacks: PyYAML's safe loader raised ValueError (a traceback of `docs
    # build`); read as text, the rest of the file still counts
    ("site_name: 2026-02-30\nsite_url: https://x.example/docs\n", "https://x.example/docs/"),
    # nesting past 256 levels: RecursionError before; now the default (mkdocs reports the file)
    ("site_url: https://x.example/docs\nx: " + "[" * 5000 + "]" * 5000 + "\n", "https://evalport.github.io/spec/"),
])
def test_site_url_of_a_hostile_mkdocs_yml(tmp_path, config, expected):
    """Session 36: `docs build` with such a mkdocs.yml ended in a traceback from site_url."""
    from evalport_spec.site.serve import site_url

    cfg = tmp_path / "mkdocs.yml"
    cfg.write_text(config)
    assert site_url(cfg) == expected
