"""The published site in a real browser: version selector, version switch, search, schema URLs,
the schema reference's "since", no console errors, no request leaving the machine.

Expected values come from the repository itself: the releases in spec/releases/, RFC 0005
(hard constraints) which mentions ``constraint_violations``, and ``Result.attempt`` which
arrived in release 1.2.0 (RFC "repetitions", evalport-model.md step 3).
"""

from __future__ import annotations

import json
import re

import pytest

from conftest import REPO
from evalport_spec.spec import SpecRepo

pytestmark = pytest.mark.browser

RELEASES = SpecRepo(REPO).releases()


@pytest.fixture(autouse=True)
def _clean_page(outside_requests, console_errors):
    """After each test: nothing went to another host and nothing was logged as an error."""
    yield
    assert outside_requests == []
    assert console_errors == []


def _open_versions(page):
    page.wait_for_selector(".md-version__current")
    page.hover(".md-version")
    page.wait_for_selector(".md-version__link", state="visible")


def test_selector_lists_every_version_and_root_redirects_to_latest(page, base_url, screenshots):
    page.goto(base_url)
    page.wait_for_url(f"{base_url}latest/")
    _open_versions(page)
    assert page.inner_text(".md-version__current").strip() == RELEASES[-1]
    links = [t.strip() for t in page.locator(".md-version__link").all_inner_texts()]
    # releases newest first, the draft last (publish re-orders mike's versions.json, which would
    # put the non-numeric "draft" above every release)
    assert links == list(reversed(RELEASES)) + ["draft"]
    page.mouse.move(0, 400)
    page.screenshot(path=str(screenshots / "home.png"), full_page=True, animations="disabled")


def test_switching_version_keeps_the_page(page, base_url):
    page.goto(f"{base_url}latest/schemas/resultset/")
    _open_versions(page)
    page.locator(".md-version").get_by_role("link", name=RELEASES[0], exact=True).click()
    page.wait_for_url(f"**/{RELEASES[0]}/schemas/resultset/")
    assert page.url == f"{base_url}{RELEASES[0]}/schemas/resultset/"
    assert page.inner_text(".md-version__current").strip() == RELEASES[0]


def _search(page, url: str, term: str) -> list[str]:
    page.goto(url)
    page.click(".md-search__input")
    # a query typed before the search worker has loaded its index is dropped: wait for it
    page.wait_for_function("() => (document.querySelector('.md-search-result__meta') || {}).textContent"
                           " === 'Type to start searching'")
    page.keyboard.type(term)  # keystrokes: fill() after the click does not start a query
    page.wait_for_selector(".md-search-result__item")
    return page.eval_on_selector_all(".md-search-result__item a", "els => els.map(e => e.href)")


def test_search_finds_constraint_violations_in_the_draft(page, base_url):
    hrefs = _search(page, f"{base_url}draft/", "constraint_violations")
    assert any("/draft/rfcs/0005-" in h for h in hrefs), hrefs


def test_search_finds_attempt_in_1_2_0(page, base_url):
    hrefs = _search(page, f"{base_url}1.2.0/", "attempt")
    assert any("/1.2.0/schemas/resultset/" in h for h in hrefs), hrefs


@pytest.mark.parametrize("version", ["1.2.0", "latest", "draft"])
def test_schema_url_serves_the_release_file_at_its_id(page, base_url, version):
    name = RELEASES[-1] if version == "latest" else version
    folder = REPO / "spec" if name == "draft" else REPO / "spec" / "releases" / name
    expected = (folder / "schemas" / "resultset.json").read_bytes()
    response = page.request.get(f"{base_url}{version}/schemas/resultset.json")
    assert response.status == 200
    assert response.body() == expected
    assert json.loads(response.body())["$id"] == f"https://evalport.github.io/spec/{name}/schemas/resultset.json"


def test_schema_reference_shows_attempt_since_1_2_0(page, base_url, screenshots):
    page.goto(f"{base_url}1.2.0/schemas/resultset/")
    heading = page.locator("#prop-results-item-attempt")
    assert heading.inner_text().strip().startswith("/results/*/attempt")
    info = page.locator("#prop-results-item-attempt + p").inner_text()
    assert re.search(r"\binteger\b.*optional.*since 1\.2\.0", info), info
    row = page.locator("table tr", has=page.locator('a[href="#prop-results-item-attempt"]'))
    assert row.locator("td").last.inner_text().strip() == "1.2.0"
    page.screenshot(path=str(screenshots / "schema-resultset.png"), full_page=False, animations="disabled")


def test_changelog_shows_computed_classes_and_history(page, base_url, screenshots):
    page.goto(f"{base_url}draft/changelog/")
    svg = page.locator(".ep-history-wrap svg").first
    labels = svg.locator("text").all_text_contents()
    for v in RELEASES + ["draft"]:
        assert v in labels
    assert page.locator("h2", has_text=RELEASES[-1]).count() == 1
    page.screenshot(path=str(screenshots / "changelog.png"), full_page=True, animations="disabled")
