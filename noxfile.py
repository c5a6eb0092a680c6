"""Developer tasks: ``nox -s tests``, ``nox -s lint``, ``nox -s check``, ``nox -s peer``,
``nox -s bench``, ``nox -s docs``."""

from __future__ import annotations

import nox

nox.options.sessions = ["lint", "tests", "check"]
nox.options.reuse_existing_virtualenvs = True
PYTHON = "3.11"


@nox.session(python=PYTHON)
def tests(session: nox.Session) -> None:
    """Run the test suite (browser tests included when Debian's chromium is installed)."""
    session.install("-e", ".[test]")
    session.run("pytest", *session.posargs)


@nox.session(python=PYTHON)
def lint(session: nox.Session) -> None:
    """ruff over the package and the tests."""
    session.install("ruff>=0.6")
    session.run("ruff", "check", "tools", "tests", "noxfile.py", "benchmarks", "setup.py")


@nox.session(python=PYTHON)
def check(session: nox.Session) -> None:
    """The spec gate on this repository: ``nox -s check -- --base origin/main`` for a PR."""
    session.install("-e", ".")
    session.run("evalport-spec", "check", *session.posargs)


@nox.session(python=PYTHON)
def peer(session: nox.Session) -> None:
    """Classifier against ../shared/peer-suites/confluent (skips if that folder is absent)."""
    session.install("-e", ".")
    session.run("python", "benchmarks/peer_confluent.py", *session.posargs)


@nox.session(python=PYTHON)
def bench(session: nox.Session) -> None:
    """Benchmarks: validation speed and memory, diff speed, gate wall time."""
    session.install("-e", ".[test]")
    session.run("python", "benchmarks/run_all.py", *session.posargs)


@nox.session(python=PYTHON)
def docs(session: nox.Session) -> None:
    """Build the site strictly (every version, generated pages)."""
    session.install("-e", ".[docs]")
    session.run("evalport-spec", "docs", "build", *session.posargs)
