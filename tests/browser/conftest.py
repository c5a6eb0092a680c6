"""Fixtures for the published-site browser test (pytest marker ``browser``).

The site is published with mike into a throwaway git repository (a copy of this repository's
content, committed once, dated 2026-11-30: the RFC pages count comment periods from that day),
the ``gh-pages`` tree is extracted with ``git archive`` and served on 127.0.0.1 under the site's
path (``/spec/``, as GitHub Pages serves it, with its 404 pages) by an in-process server, and
Playwright drives Debian's Chromium at
/usr/bin/chromium (docs-stack-notes: flags, selectors, pitfalls). Every request to a host other
than the loopback server is aborted and recorded; tests assert the record is empty.
"""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import tarfile
from pathlib import Path
from urllib.parse import urlsplit

import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
REPO = Path(__file__).resolve().parents[2]
ARTIFACTS = REPO / "test-artifacts"
SCREENSHOTS = ARTIFACTS / "screenshots"
AS_OF = "2026-11-30"
"""The snapshot's commit date: the date the published RFC pages count comment periods from."""
_SKIP_DIRS = {".git", "site", "test-artifacts", ".nox", ".venv", "build", "dist", "__pycache__",
              ".pytest_cache", ".ruff_cache", ".hypothesis", "bench-artifacts"}


def pytest_collection_modifyitems(config, items):
    """Every test in this folder is a ``browser`` test; skip them (with the reason) without Chromium."""
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.browser)
            if not os.path.exists(CHROMIUM):
                item.add_marker(pytest.mark.skip(
                    reason=f"{CHROMIUM} is missing (CI installs it: apt-get install -y chromium)"))


def _ignore(folder: str, names: list[str]) -> set[str]:
    return {n for n in names if n in _SKIP_DIRS or n.endswith(".egg-info")}


def _git(cwd: Path, *args: str) -> bytes:
    env = dict(os.environ, GIT_AUTHOR_DATE=f"{AS_OF}T12:00:00Z", GIT_COMMITTER_DATE=f"{AS_OF}T12:00:00Z",
               GIT_AUTHOR_NAME="site test", GIT_AUTHOR_EMAIL="site@test.invalid",
               GIT_COMMITTER_NAME="site test", GIT_COMMITTER_EMAIL="site@test.invalid")
    return subprocess.run(["git", *args], cwd=cwd, env=env, check=True, capture_output=True).stdout


@pytest.fixture(scope="session")
def published_repo(tmp_path_factory) -> Path:
    """A committed copy of the repository with every version published to its gh-pages branch."""
    from evalport_spec.cli import build_parser
    from evalport_spec.site import cli_reference, publish
    from evalport_spec.spec import SpecRepo

    root = tmp_path_factory.mktemp("published") / "repo"
    shutil.copytree(REPO, root, ignore=_ignore, symlinks=True)
    _git(root, "init", "-q", "-b", "main")
    _git(root, "add", "-A")
    _git(root, "commit", "-q", "-m", "snapshot for the site test")
    publish(SpecRepo(root), cli_page=cli_reference(build_parser()))
    return root


@pytest.fixture(scope="session")
def site_tree(published_repo, tmp_path_factory) -> Path:
    """The gh-pages tree, extracted with ``git archive``."""
    out = tmp_path_factory.mktemp("gh-pages")
    data = _git(published_repo, "archive", "--format=tar", "gh-pages")
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        tar.extractall(out)
    return out


@pytest.fixture(scope="session")
def base_url(site_tree):
    """URL of the site on the loopback server over the published tree, ``http://127.0.0.1:PORT/spec/``
    (overrides pytest-playwright's)."""
    from evalport_spec.site import site_path, site_url, start_server

    prefix = site_path(site_url(REPO / "mkdocs.yml"))
    server = start_server(site_tree, prefix=prefix)
    yield f"http://127.0.0.1:{server.server_address[1]}{prefix}"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    """Debian's Chromium with the flags from the docs-stack notes."""
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_ARGS}


@pytest.fixture
def outside_requests(context) -> list[str]:
    """Requests to anything but the loopback server are aborted and listed here."""
    seen: list[str] = []

    def handle(route):
        host = urlsplit(route.request.url).hostname
        if host in ("127.0.0.1", "localhost"):
            route.continue_()
        else:
            seen.append(route.request.url)
            route.abort()

    context.route("**/*", handle)
    return seen


@pytest.fixture
def console_errors(page) -> list[str]:
    """Console errors and uncaught page errors of the test's page."""
    errors: list[str] = []
    page.on("console", lambda m: errors.append(f"console {m.type}: {m.text}") if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(f"pageerror: {e}"))
    return errors


@pytest.fixture(scope="session")
def screenshots() -> Path:
    """``test-artifacts/screenshots/`` (gitignored), for the test report."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS
