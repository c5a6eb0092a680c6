"""Accessibility audit of every page type of the published site with axe-core.

axe-core is the copy vendored in the ``axe-playwright-python`` wheel (its ``axe.min.js``),
injected into each page by ``page.evaluate``: nothing is fetched at test time. Each page type is
audited in the light scheme and, for the pages that show the most colour (home, schema reference,
fixtures, RFC), in the dark one too. No violation of impact ``serious`` or ``critical`` is
allowed; every violation found, whatever its impact, is written with its page to
``test-artifacts/axe.json``.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest

from conftest import ARTIFACTS

pytestmark = pytest.mark.browser

PAGE_TYPES = {
    "home": "latest/",
    "home (outdated release)": "1.0.0/",
    "specification": "draft/spec/",
    "schema index": "latest/schemas/",
    "schema reference": "draft/schemas/resultset/",
    "examples": "draft/examples/",
    "rules": "draft/rules/",
    "fixtures": "1.3.0/fixtures/",
    "changelog": "draft/changelog/",
    "what changed": "latest/changes/1.2.0/",
    "RFC index": "draft/rfcs/",
    "RFC": "draft/rfcs/0005-hard-constraints/",
    "contributing": "latest/contributing/",
    "toolchain page": "latest/architecture/",
    "CLI reference": "latest/cli/",
    "version 404": "1.2.0/no-such-page/",
    "top-level 404": "no/such/page",
}
DARK = ("home", "schema reference", "fixtures", "RFC")


def test_no_serious_or_critical_violation_on_any_page_type(page, base_url, outside_requests):
    from axe_playwright_python.sync_playwright import Axe

    axe = Axe()
    audits = []
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        for name, url in PAGE_TYPES.items():
            if scheme == "dark" and name not in DARK:
                continue
            page.goto(base_url + url)
            page.wait_for_load_state("networkidle")
            result = axe.run(page).response
            audits.append({"page": name, "url": url, "scheme": scheme,
                           "violations": [{"id": v["id"], "impact": v["impact"], "nodes": len(v["nodes"]),
                                           "help": v["help"],
                                           "targets": [n["target"] for n in v["nodes"][:5]]}
                                          for v in result["violations"]]})
    impacts = Counter(v["impact"] for a in audits for v in a["violations"])
    summary = {"axe": "axe-core (axe-playwright-python)", "pages_audited": len(audits),
               "page_types": len(PAGE_TYPES), "violations_by_impact": dict(impacts), "audits": audits}
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / "axe.json").write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    severe = [(a["page"], a["scheme"], v["id"], v["targets"]) for a in audits for v in a["violations"]
              if v["impact"] in ("serious", "critical")]
    assert severe == []
    assert outside_requests == []
