"""The link crawl of the published site: every page reachable from the site's root, every link,
asset and anchor on it.

Starting from ``/spec/`` (the mike redirect page, followed by hand to ``latest/``) and every
version's home, each HTML page on the loopback server is fetched once and parsed; every URL it
names (``a[href]``, ``link[href]``, ``script[src]``, ``img[src]``) on the site's origin is
fetched once and must answer 200; every fragment must be an ``id`` (or ``name``) of the page it
points into. Links to other hosts are counted, never fetched. The figures are written to
``test-artifacts/crawl.json``.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from html.parser import HTMLParser
from urllib.parse import urldefrag, urljoin, urlsplit

import pytest

from conftest import ARTIFACTS, REPO
from evalport_spec.spec import SpecRepo

pytestmark = pytest.mark.browser

_ATTRS = {("a", "href"): "link", ("link", "href"): "asset", ("script", "src"): "asset",
          ("img", "src"): "asset", ("source", "src"): "asset"}


class _Page(HTMLParser):
    """The ids of an HTML page and the URLs it names, ``(kind, url)``."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: set[str] = set()
        self.urls: list[tuple[str, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if value is None:
                continue
            if name == "id" or (tag == "a" and name == "name"):
                self.ids.add(value)
            kind = _ATTRS.get((tag, name))
            if kind and not value.startswith(("data:", "javascript:")):
                self.urls.append((kind, value))


def _fetch(url: str) -> tuple[int, str, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=30) as r:  # noqa: S310 - loopback only
            return r.status, r.headers.get("Content-Type", ""), r.read()
    except urllib.error.HTTPError as exc:
        return exc.code, "", b""


def crawl(start: list[str], prefix: str) -> dict:
    """Crawl from ``start`` (see the module docstring); returns the figures and the broken list."""
    origin = "{0.scheme}://{0.netloc}".format(urlsplit(prefix))
    fetched: dict[str, tuple[int, str, bytes]] = {}
    parsed: dict[str, _Page] = {}
    queue = list(start)
    figures = {"pages": 0, "links": 0, "assets": set(), "anchors": 0, "external": set(), "broken": []}
    pending_anchors: list[tuple[str, str, str]] = []

    def get(url: str) -> tuple[int, str, bytes]:
        if url not in fetched:
            fetched[url] = _fetch(url)
        return fetched[url]

    while queue:
        url = queue.pop()
        if url in parsed:
            continue
        status, ctype, body = get(url)
        if status != 200 or "html" not in ctype:
            continue
        page = _Page()
        page.feed(body.decode("utf-8", "replace"))
        parsed[url] = page
        figures["pages"] += 1
        for kind, raw in page.urls:
            target = urljoin(url, raw)
            if not target.startswith(origin):
                figures["external"].add(target)
                continue
            base, frag = urldefrag(target)
            if kind == "link":
                figures["links"] += 1
            else:
                figures["assets"].add(base)
            status, ctype, _ = get(base)
            if status != 200:
                figures["broken"].append(f"{url}: {raw} -> {status}")
                continue
            if frag:
                pending_anchors.append((url, raw, base))
            if "html" in ctype and base.startswith(prefix) and base not in parsed:
                queue.append(base)
    for url, raw, base in pending_anchors:
        figures["anchors"] += 1
        frag = urldefrag(urljoin(url, raw))[1]
        page = parsed.get(base)
        if page is None:
            status, ctype, body = get(base)
            page = _Page()
            page.feed(body.decode("utf-8", "replace"))
            parsed[base] = page
        if frag not in page.ids:
            figures["broken"].append(f"{url}: {raw} -> no id {frag!r}")
    return {**figures, "assets": len(figures["assets"]), "external": len(figures["external"])}


def test_every_page_link_asset_and_anchor_resolves(base_url):
    versions = SpecRepo(REPO).all_versions() + ["latest"]
    figures = crawl([base_url] + [f"{base_url}{v}/" for v in versions], base_url)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / "crawl.json").write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    assert figures["broken"] == []
    # every version's pages were reached (home, spec, 4 schemas, rules, fixtures, ...)
    assert figures["pages"] >= 20 * len(versions)
    assert figures["links"] > 0 and figures["anchors"] > 0 and figures["assets"] > 0
