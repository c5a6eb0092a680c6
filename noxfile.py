"""Developer tasks: ``nox -s tests``, ``nox -s lint``, ``nox -s check``, ``nox -s peer``,
``nox -s bench``, ``nox -s docs``, ``nox -s coverage``, ``nox -s mutants``.

Every session runs on the Python that runs nox (``python=None``), whatever its version, as long
as it is 3.11 or newer (``requires-python`` in pyproject.toml); an older one fails the session,
and a missing interpreter is an error, never a skip that exits 0 with no test run.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import nox

nox.options.sessions = ["lint", "tests", "check"]
nox.options.reuse_existing_virtualenvs = True
nox.options.error_on_missing_interpreters = True
nox.options.download_python = "never"  # no interpreter fetched from the network
PYTHON = None
"""The interpreter running nox (no fixed version: a machine with only 3.12 or 3.13 runs too)."""
MIN_PYTHON = (3, 11)


def _require_supported(session: nox.Session) -> None:
    """Fail (not skip) the session on a Python older than :data:`MIN_PYTHON`."""
    if sys.version_info < MIN_PYTHON:
        session.error(f"Python {'.'.join(map(str, MIN_PYTHON))} or newer is needed; nox runs on "
                      f"{sys.version.split()[0]} ({sys.executable})")


@nox.session(python=PYTHON)
def tests(session: nox.Session) -> None:
    """Run the test suite (browser tests included when Debian's chromium is installed)."""
    _require_supported(session)
    session.install("-e", ".[test]")
    session.run("pytest", *session.posargs)


@nox.session(python=PYTHON)
def lint(session: nox.Session) -> None:
    """ruff over the package and the tests."""
    session.install("ruff>=0.6")
    session.run("ruff", "check", "tools", "tests", "noxfile.py", "benchmarks", "setup.py", "bootstrap.py")


@nox.session(python=PYTHON)
def check(session: nox.Session) -> None:
    """The spec gate on this repository: ``nox -s check -- --base origin/main`` for a PR."""
    _require_supported(session)
    session.install("-e", ".")
    session.run("evalport-spec", "check", *session.posargs)


@nox.session(python=PYTHON)
def peer(session: nox.Session) -> None:
    """Classifier against ../shared/peer-suites/confluent (skips if that folder is absent)."""
    _require_supported(session)
    session.install("-e", ".")
    session.run("python", "benchmarks/peer_confluent.py", *session.posargs)


@nox.session(python=PYTHON)
def bench(session: nox.Session) -> None:
    """Benchmarks: validation speed and memory, diff speed, gate wall time."""
    _require_supported(session)
    session.install("-e", ".[test]")
    session.run("python", "benchmarks/run_all.py", *session.posargs)


@nox.session(python=PYTHON)
def docs(session: nox.Session) -> None:
    """Build the site strictly (every version, generated pages)."""
    _require_supported(session)
    session.install("-e", ".[docs]")
    session.run("evalport-spec", "docs", "build", *session.posargs)


@nox.session(python=PYTHON)
def coverage(session: nox.Session) -> None:
    """Line and branch coverage of the package by the tests run in process (coverage.py through
    pytest-cov; configured in pyproject.toml, ``[tool.coverage]``). Arguments go to pytest."""
    _require_supported(session)
    session.install("-e", ".[test]", "pytest-cov>=5")
    session.run("pytest", "--cov", "--cov-report=term", *session.posargs)


MUTATION_LINKS = ("tests", "spec", "rfcs", "docs", "benchmarks", ".ci", "mkdocs.yml", "README.md",
                  "noxfile.py", "bootstrap.py", "setup.py", "MANIFEST.in", "pyproject.toml", "tools")
"""What ``.mutation/`` links to, besides ``src`` -> ``tools`` (see :func:`mutants`)."""


def _mutation_workspace() -> Path:
    """``.mutation/``: links to this repository's files (:data:`MUTATION_LINKS`) and ``src`` ->
    ``tools``, where mutmut runs (``tools`` itself is linked too, unmutated: tests that build
    repositories copy the checkout's ``tools/``). mutmut names a mutant after its module only when the package sits
    below ``src/`` (``evalport_spec.gate.stages.x_f__mutmut_3``); under ``tools/`` the names would
    carry a ``tools.`` the running code does not have, and no test would ever meet its mutant."""
    root = Path(__file__).resolve().parent
    work = root / ".mutation"
    work.mkdir(exist_ok=True)
    for name, target in [*((n, n) for n in MUTATION_LINKS), ("src", "tools")]:
        link = work / name
        if not link.is_symlink():
            link.symlink_to(root / target)
    return work


def _hook_children(session: nox.Session) -> None:
    """Copy benchmarks/mutation_children.py into the session's ``site-packages`` with a ``.pth``
    line importing it, so every Python of the session's virtualenv (isolated ``-I`` ones too)
    reports the functions it reached to mutmut's stats phase (that module's docstring)."""
    root = Path(__file__).resolve().parent
    name = "evalport_mutation_children"
    for site in Path(session.virtualenv.location).glob("lib/python3*/site-packages"):
        (site / f"{name}.py").write_text((root / "benchmarks" / "mutation_children.py").read_text())
        (site / f"{name}.pth").write_text(f"import {name}\n")


@nox.session(python=PYTHON)
def mutants(session: nox.Session) -> None:
    """Mutation testing (mutmut, ``[tool.mutmut]`` in pyproject.toml) of ``gate/``, ``report/`` and
    ``compat/``, then the score per package (benchmarks/mutation_score.py; target: 80% killed in
    ``gate/``). ``nox -s mutants -- --sample 60`` runs a seeded sample per package instead of all
    (the whole set is about 17,000 mutants: hours on two cores); ``-- --sample 40 --packages compat
    --own-tests`` runs the classifier's mutants against its own tests only (tests/conftest.py).

    mutmut runs in ``.mutation/`` (:func:`_mutation_workspace`); the mutated package,
    ``.mutation/mutants/src``, is put first on ``PYTHONPATH`` so the tests' child processes
    (``python -m evalport_spec``) run the mutated code too. So that mutmut also learns which
    tests reach a function only in such a child (the rule program runs isolated, ``python -I``),
    benchmarks/mutation_children.py goes into this session's virtualenv (:func:`_hook_children`).
    """
    _require_supported(session)
    session.install("-e", ".[test]", "mutmut>=3.8,<4")
    _hook_children(session)
    work = _mutation_workspace()
    mutated = work / "mutants" / "src"
    mutated.mkdir(parents=True, exist_ok=True)  # on sys.path before Python starts
    env = {"PYTHONPATH": os.pathsep.join([str(mutated), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep)}
    session.chdir(work)
    if "--sample" not in session.posargs:
        session.run("mutmut", "run", "--max-children", str(os.cpu_count() or 1), env=env)
    session.run("python", "benchmarks/mutation_score.py", *session.posargs, env=env)
