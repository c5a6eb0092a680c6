"""The issue-17 features of the published site, each in a real browser: per-version fixtures and
their bundles, examples, RFC worked examples, "what changed" pages, the contributor's path,
outdated banner and latest marker, dark mode, 404 pages, footer licence, numbered sections,
tables, conditional wording, wildcard pointers, and every schema ``$id`` served locally.

Expected values are worked out from the repository, independently of the site generator: the
fixture files each release froze (spec/releases/X/conformance/) read with ``json``,
the example files, the RFC front matter (comment periods counted by hand from the snapshot's date
2026-11-30), and the schemas' own ``description`` and ``required`` members.
"""

from __future__ import annotations

import io
import json
import re
import zipfile
from urllib.parse import urlsplit

import pytest

from conftest import REPO
from evalport_spec.spec import SpecRepo, parse_semver

pytestmark = pytest.mark.browser

RELEASES = SpecRepo(REPO).releases()
LATEST = RELEASES[-1]


@pytest.fixture(autouse=True)
def _clean_page(outside_requests, console_errors):
    """After each test: nothing went to another host and nothing was logged as an error, but
    the one 404 a not-found test asks for (the document itself)."""
    yield
    assert outside_requests == []
    assert [e for e in console_errors if "status of 404" not in e] == []


def _fixture_folder(version: str):
    return REPO / "spec" / ("conformance" if version == "draft" else f"releases/{version}/conformance")


def _fixture_files(version: str) -> dict[str, dict]:
    """Fixtures of a release by hand: the files it froze, in file-name order (each one's
    ``since`` not above the release, checked)."""
    out = {}
    for p in sorted((_fixture_folder(version) / "fixtures").glob("*.json")):
        doc = json.loads(p.read_text(encoding="utf-8"))
        assert parse_semver(doc["since"]) <= parse_semver(version)
        out[doc["id"]] = doc
    return out


# -- fixtures ------------------------------------------------------------------------------------

def test_fixtures_page_of_1_3_0_lists_since_codes_paths_and_bundles(page, base_url, screenshots):
    expected = _fixture_files("1.3.0")
    page.goto(f"{base_url}1.3.0/fixtures/")
    rows = page.locator("#all-fixtures ~ .md-typeset__scrollwrap table tbody tr, #all-fixtures ~ table tbody tr")
    ids = [c.strip() for c in rows.locator("td:first-child").all_inner_texts()]
    assert ids == list(expected)  # file-name order
    # one fixture checked cell by cell: since, and the exact (code, path) pairs
    fid = next(i for i, d in sorted(expected.items()) if not d["expect"]["full"]["valid"]
               and d["expect"]["full"].get("errors"))
    cells = [c.strip() for c in rows.nth(ids.index(fid)).locator("td").all_inner_texts()]
    assert cells[2] == expected[fid]["since"]
    for err in expected[fid]["expect"]["full"]["errors"]:
        assert f"{err['code']} at {err['instance_path'] or '(root)'}" in cells[-1].replace("\n", " ")
    # the meta-schema is linked and served
    meta = page.locator('a[href$="conformance/fixture.schema.json"]').first
    response = page.request.get(meta.evaluate("a => a.href"))
    assert response.status == 200 and json.loads(response.body())["$schema"].endswith("2020-12/schema")
    # the zip bundle: the meta-schema and one file per fixture, byte for byte
    zhref = page.locator('a[href$="evalport-1.3.0-fixtures.zip"]').evaluate("a => a.href")
    z = zipfile.ZipFile(io.BytesIO(page.request.get(zhref).body()))
    names = sorted(z.namelist())
    top = "evalport-1.3.0-conformance/"
    assert names == sorted([top + "fixture.schema.json"] + [f"{top}fixtures/{i}.json" for i in expected])
    some = sorted(expected)[0]
    assert z.read(f"{top}fixtures/{some}.json") == \
        (_fixture_folder("1.3.0") / "fixtures" / f"{some}.json").read_bytes()
    # the JSON bundle
    jhref = page.locator('a[href$="evalport-1.3.0-fixtures.json"]').evaluate("a => a.href")
    bundle = json.loads(page.request.get(jhref).body())
    assert bundle["spec_version"] == "1.3.0"
    assert [f["id"] for f in bundle["fixtures"]] == list(expected)
    page.evaluate("() => document.getElementById('downloads').scrollIntoView()")
    page.screenshot(path=str(screenshots / "fixtures-1.3.0.png"), full_page=False, animations="disabled")


def test_each_release_shows_only_its_fixtures(page, base_url):
    for version in (RELEASES[0], LATEST):
        page.goto(f"{base_url}{version}/fixtures/")
        shown = page.locator("#all-fixtures ~ .md-typeset__scrollwrap table tbody tr td:first-child").all_inner_texts()
        assert sorted(s.strip() for s in shown) == sorted(_fixture_files(version)), version


# -- examples ------------------------------------------------------------------------------------

def test_schema_page_shows_its_examples_downloadable(page, base_url, screenshots):
    files = {p.name: p for p in (REPO / "spec" / "examples").glob("*.json")}
    resultsets = sorted(n for n, p in files.items() if '"results"' in p.read_text(encoding="utf-8"))
    page.goto(f"{base_url}draft/schemas/resultset/")
    section = page.locator("#examples")
    assert section.is_visible()
    blocks = page.locator("details.example")
    titles = " ".join(blocks.locator("summary").all_inner_texts())
    for name in resultsets:
        assert name in titles
    href = page.locator(f'a[href$="examples/{resultsets[0]}"]').first.evaluate("a => a.href")
    assert page.request.get(href).body() == files[resultsets[0]].read_bytes()
    # the first example is open and highlighted as JSON
    first = blocks.first
    assert first.get_attribute("open") is not None
    assert first.locator(".highlight .nt").count() > 3  # JSON member names, highlighted
    section.scroll_into_view_if_needed()
    page.screenshot(path=str(screenshots / "schema-with-examples.png"), full_page=False, animations="disabled")


def test_spec_shows_an_example_where_each_document_type_is_defined(page, base_url):
    page.goto(f"{base_url}draft/spec/")
    for anchor, needle in (("suite", "rag-suite.json"), ("testcase", "tool-use-testcase.json"),
                           ("grader", "llm-judge-grader.json"), ("resultset", "multi-attempt-resultset.json")):
        # the example block follows the section's heading, before the next heading
        found = page.evaluate("""([id, needle]) => {
            let el = document.getElementById(id).nextElementSibling;
            while (el && !/^H[1-3]$/.test(el.tagName)) {
                if (el.tagName === 'DETAILS' && el.textContent.includes(needle)) return true;
                el = el.nextElementSibling;
            }
            return false; }""", [anchor, needle])
        assert found, anchor


# -- RFC worked examples ------------------------------------------------------------------------

def test_rfc_worked_example_is_highlighted_json_and_the_text_after_it_is_prose(page, base_url, screenshots):
    page.goto(f"{base_url}draft/rfcs/0005-hard-constraints/")
    block = page.locator(".highlight", has=page.locator(".filename", has_text="ResultSet example")).first
    assert block.is_visible()
    assert block.locator(".nt").count() > 5 and '"constraint_violations"' in block.inner_text()
    # the paragraph after the example is a paragraph, not code
    after = block.evaluate("b => b.nextElementSibling && b.nextElementSibling.tagName")
    assert after == "P"
    assert page.locator("p", has_text="Both grader verdicts are genuine").count() == 1
    block.scroll_into_view_if_needed()
    page.screenshot(path=str(screenshots / "rfc-example.png"), full_page=False, animations="disabled")


# -- what changed --------------------------------------------------------------------------------

def test_home_version_history_links_to_field_level_changes(page, base_url):
    page.goto(f"{base_url}latest/")
    link = page.locator(".md-content a", has_text="1.2.0").first
    link.click()
    page.wait_for_url("**/changes/1.2.0/")
    rows = page.locator("table tbody tr")
    texts = [" ".join(r.split()) for r in rows.all_inner_texts()]
    # RFC 0003 (repetitions) added Result.attempt in 1.2.0: one MINOR row about that field
    attempt = [t for t in texts if "/results/*/attempt" in t]
    assert len(attempt) == 1 and attempt[0].startswith("MINOR") and "results[].attempt" in attempt[0]
    # the arrows of the picture link there too
    page.goto(f"{base_url}latest/")
    hrefs = page.eval_on_selector_all(".ep-history-wrap svg a", "els => els.map(e => e.href.baseVal || e.getAttribute('href'))")
    assert any(h.endswith("changes/1.2.0/") for h in hrefs), hrefs


# -- contributor path ----------------------------------------------------------------------------

def test_header_links_the_repository_without_fetching_anything(page, base_url):
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page.goto(f"{base_url}latest/")
    repo = page.locator("header a.ep-repo")
    assert repo.get_attribute("href") == "https://github.com/evalport/spec"
    page.wait_for_timeout(300)
    assert not [u for u in requests if "github" in urlsplit(u).netloc]


def test_contributing_page_names_rfc_and_pull_request(page, base_url):
    page.goto(f"{base_url}latest/")
    page.locator(".md-nav--primary a", has_text="Contributing").first.click()
    page.wait_for_url("**/contributing/")
    text = page.inner_text("article")
    assert "pull request" in text and "RFC" in text and "rfc check" in text


def test_rfc_index_has_status_periods_and_days_left(page, base_url):
    page.goto(f"{base_url}draft/rfcs/")
    header = [h.strip().lower() for h in page.locator("article table thead th").all_inner_texts()]
    assert header[:6] == ["rfc", "title", "status", "period opens", "period closes", "comment period"]
    rows = {r.split("\t")[0].strip(): [c.strip() for c in r.split("\t")]
            for r in page.locator("article table tbody tr").all_inner_texts()}
    # RFC 0006: comment period 2026-09-27 to 2026-10-11; on 2026-11-30 that is 20 + 30 days ago
    assert rows["0006"][2:6] == ["comment", "2026-09-27", "2026-10-11", "closed 50 days ago"]
    # RFC 0005's period (closed 2026-09-23) was extended with no closing date: waiting_on is set
    assert rows["0005"][2:6] == ["comment", "2026-09-09", "2026-09-23", "extended, no closing date (waiting)"]
    # each RFC's own table has a header
    page.goto(f"{base_url}draft/rfcs/0006-rate-denominators/")
    assert [h.strip().lower() for h in page.locator("article table").first.locator("th").all_inner_texts()] == \
        ["field", "value"]


# -- versions: banner, marker, dark mode, footer ------------------------------------------------

def test_old_release_shows_the_outdated_banner_latest_and_draft_do_not(page, base_url, screenshots):
    page.goto(f"{base_url}{RELEASES[0]}/")
    banner = page.locator("[data-md-component=outdated]")
    banner.wait_for(state="visible")
    assert RELEASES[0] in banner.inner_text()
    target = banner.locator("a").evaluate("a => a.href")
    assert target == f"{base_url}latest/"
    page.screenshot(path=str(screenshots / "outdated-1.0.0.png"), full_page=False, animations="disabled")
    for version in ("latest", "draft"):
        page.goto(f"{base_url}{version}/")
        page.wait_for_selector(".md-version__current")
        page.wait_for_timeout(300)
        assert not page.locator("[data-md-component=outdated]").is_visible(), version


def test_dark_mode_toggle_switches_the_scheme_both_ways(page, base_url):
    page.goto(f"{base_url}latest/")
    scheme = "() => document.body.getAttribute('data-md-color-scheme')"
    assert page.evaluate(scheme) == "default"
    page.locator("label.md-header__button[title='Switch to dark mode']").click()
    assert page.evaluate(scheme) == "slate"
    page.locator("label.md-header__button[title='Switch to light mode']").click()
    assert page.evaluate(scheme) == "default"


def test_footer_names_the_licence(page, base_url):
    page.goto(f"{base_url}latest/spec/")
    footer = page.locator(".md-copyright")
    assert "Apache-2.0" in footer.inner_text()
    assert footer.locator("a", has_text="Apache-2.0").get_attribute("href") == \
        "https://www.apache.org/licenses/LICENSE-2.0"


# -- 404 -----------------------------------------------------------------------------------------

def test_top_level_404_has_a_working_selector_and_search(page, base_url, screenshots):
    response = page.goto(f"{base_url}no/such/page")
    assert response.status == 404
    assert page.locator("h1").inner_text().strip() == "Page not found"
    page.wait_for_selector(".md-version__current")
    page.click(".md-search__input")
    page.wait_for_function("() => (document.querySelector('.md-search-result__meta') || {}).textContent"
                           " === 'Type to start searching'")
    page.keyboard.type("isolation")
    page.wait_for_selector(".md-search-result__item")
    page.keyboard.press("Escape")
    page.mouse.move(0, 400)
    page.wait_for_timeout(300)
    page.screenshot(path=str(screenshots / "404.png"), full_page=False, animations="disabled")


@pytest.mark.parametrize("version", [RELEASES[0], "draft"])
def test_version_404_page_names_its_version(page, base_url, version):
    response = page.goto(f"{base_url}{version}/no-such-page/")
    assert response.status == 404
    text = page.inner_text("article")
    assert ("Home of the working draft" if version == "draft" else f"Home of release {version}") in text
    page.wait_for_selector(".md-version__current")
    assert page.eval_on_selector(".md-version__current", "e => e.firstChild.textContent").strip() == version


# -- reading the pages ---------------------------------------------------------------------------

def test_spec_sections_are_numbered_and_keep_their_anchors(page, base_url):
    page.goto(f"{base_url}draft/spec/")
    h2 = [h.strip() for h in page.locator("article h2").all_inner_texts()]
    assert h2[0].startswith("1. ") and all(re.match(r"^\d+\. ", h) for h in h2)
    assert re.match(r"^\d+\.\d+ Suite", page.locator("h3#suite").inner_text().strip())


def test_properties_table_has_descriptions_and_conditional_requirements(page, base_url):
    schema = json.loads((REPO / "spec" / "schemas" / "resultset.json").read_text(encoding="utf-8"))
    page.goto(f"{base_url}draft/schemas/resultset/")
    table = page.locator("#properties ~ .md-typeset__scrollwrap table").first
    header = [h.strip() for h in table.locator("thead th").all_inner_texts()]
    assert header == ["path", "type", "required", "since", "description"]
    row = table.locator("tr", has=page.locator('a[href="#prop-run_id"]'))
    cells = [c.strip() for c in row.locator("td").all_inner_texts()]
    assert cells[2] == "required" and cells[4] == schema["properties"]["run_id"]["description"]
    # group_id is required inside the optional group object
    assert "group" not in schema["required"] and "group_id" in schema["$defs"]["group"]["required"]
    row = table.locator("tr", has=page.locator('a[href="#prop-group-group_id"]'))
    assert row.locator("td").nth(2).inner_text().strip() == "required when /group is present"


def test_table_cells_wrap_only_between_words_on_a_phone(page, base_url):
    page.set_viewport_size({"width": 375, "height": 800})
    for url in ("draft/schemas/resultset/", "1.3.0/fixtures/", "draft/rfcs/"):
        page.goto(base_url + url)
        broken = page.evaluate("""() => {
            const out = [];
            for (const cell of document.querySelectorAll('article table td, article table th')) {
                const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
                for (let n = walker.nextNode(); n; n = walker.nextNode()) {
                    const re = /[^\\s\\-]+/g; let m;
                    while ((m = re.exec(n.textContent))) {
                        const r = document.createRange();
                        r.setStart(n, m.index); r.setEnd(n, m.index + m[0].length);
                        const tops = new Set([...r.getClientRects()].map(x => Math.round(x.top)));
                        if (tops.size > 1) out.push(m[0]);
                    }
                }
            }
            return out; }""")
        assert broken == [], (url, broken[:10])


def test_wildcard_pointers_stay_literal_on_the_rules_page(page, base_url):
    page.goto(f"{base_url}draft/rules/")
    text = page.inner_text("article")
    assert "/results/*/isolation" in text
    assert page.locator("article em", has_text=re.compile(r"^/|^isolation")).count() == 0


def test_every_schema_id_resolves_on_the_local_server(page, base_url):
    origin = base_url[: -len(urlsplit(base_url).path)]
    for version in RELEASES + ["draft"]:
        folder = REPO / "spec" if version == "draft" else REPO / "spec" / "releases" / version
        for path in sorted((folder / "schemas").glob("*.json")):
            schema_id = json.loads(path.read_text(encoding="utf-8"))["$id"]
            response = page.request.get(origin + urlsplit(schema_id).path)
            assert response.status == 200, schema_id
            assert response.body() == path.read_bytes(), schema_id
