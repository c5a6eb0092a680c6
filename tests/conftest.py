"""Session-wide test settings.

* Tests that commit (throwaway repositories, mike's site branch, git plumbing) need a git
  identity; a fresh machine (empty HOME, no ``user.name``) has none. It is given here through
  git's environment configuration (``GIT_CONFIG_COUNT``/``KEY``/``VALUE``, git 2.31), which every
  git process the tests start reads, mike's included, without touching any configuration file.
  An author or committer a test sets itself (``GIT_AUTHOR_NAME``, ``GIT_COMMITTER_NAME``) still wins.
* The classifier's on-disk cache goes to a fresh folder per session, never to the user's cache
  directory.
* A gate stage that crashes (``stage-crashed``: the gate turns an engine's exception into a
  failed stage so users get a report, not a traceback) fails the test that ran it, unless the
  test is marked ``stage_crash``: otherwise a test asserting only the finding it is about would
  pass while another stage of the same run is broken (a mutation test showed it).
* Under mutmut's stats phase only (``nox -s mutants``: ``MUTANT_UNDER_TEST=stats``), the
  functions the test's child processes reached (the rule program, the CLI run as
  ``python -m evalport_spec``) are counted as the test's too: see benchmarks/mutation_children.py,
  which records them in the children into the file named by ``EVALPORT_MUTMUT_CHILD_HITS``.
* With ``EVALPORT_MUTANT_OWN_TESTS=compat`` (benchmarks/mutation_score.py ``--own-tests``), a
  mutant of ``evalport_spec.compat`` runs only its package's own tests, ``tests/test_compat*.py``
  (and so does mutmut's clean run): a classifier mutant must be caught by the classifier's tests,
  not by a gate run that happens to reach it, and each mutant costs about a third of the time.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

import pytest

import evalport_spec.gate as gate

_IDENTITY = {"user.name": "evalport-spec tests", "user.email": "tests@example.invalid"}

if "GIT_CONFIG_COUNT" not in os.environ:
    os.environ["GIT_CONFIG_COUNT"] = str(len(_IDENTITY))
    for i, (key, value) in enumerate(_IDENTITY.items()):
        os.environ[f"GIT_CONFIG_KEY_{i}"] = key
        os.environ[f"GIT_CONFIG_VALUE_{i}"] = value


MUTMUT_CHILD_HITS = "EVALPORT_MUTMUT_CHILD_HITS"
"""The file the children's hits go to (the name benchmarks/mutation_children.py reads)."""


def _mutmut_stats() -> set[str] | None:
    """mutmut's set of the functions the running test reached (``mutmut.state.state()._stats``,
    emptied by mutmut's plugin at each test's teardown) while its stats phase runs; else None."""
    if os.environ.get("MUTANT_UNDER_TEST") != "stats" or "mutmut.state" not in sys.modules:
        return None
    from mutmut.state import state

    return state()._stats


def pytest_configure(config):
    if _mutmut_stats() is None or MUTMUT_CHILD_HITS in os.environ:
        return
    fd, name = tempfile.mkstemp(prefix="mutmut-child-hits-")
    os.close(fd)
    os.environ[MUTMUT_CHILD_HITS] = name

    def cleanup():
        os.environ.pop(MUTMUT_CHILD_HITS, None)
        Path(name).unlink(missing_ok=True)

    config.add_cleanup(cleanup)


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_teardown(item):
    """Before mutmut's plugin files the hits under ``item``: add the children's."""
    stats, name = _mutmut_stats(), os.environ.get(MUTMUT_CHILD_HITS)
    if stats is None or not name:
        return
    with open(name, "r+", encoding="utf-8") as f:
        stats.update(f.read().split())
        f.truncate(0)


MUTANT_OWN_TESTS = "EVALPORT_MUTANT_OWN_TESTS"
"""Comma-separated packages whose mutants run only ``tests/test_<package>*.py``."""


def pytest_collection_modifyitems(config, items):
    """Under :data:`MUTANT_OWN_TESTS`, deselect the tests outside the mutated package's own files
    (mutmut's ``MUTANT_UNDER_TEST`` is ``evalport_spec.<package>.<mangled function>__mutmut_<n>``,
    empty in its clean run, which keeps every listed package's files)."""
    own = [p for p in os.environ.get(MUTANT_OWN_TESTS, "").split(",") if p]
    mutant = os.environ.get("MUTANT_UNDER_TEST", "")
    if mutant:  # a mutant's run; mutmut's other phases (stats, fail, ...) keep every test
        parts = mutant.split(".")
        own = [parts[1]] if len(parts) > 2 and parts[0] == "evalport_spec" and parts[1] in own else []
    if not own:
        return
    prefixes = tuple(f"tests/test_{p}" for p in own)
    dropped = [i for i in items if not i.nodeid.startswith(prefixes)]
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = [i for i in items if i.nodeid.startswith(prefixes)]


@pytest.fixture(autouse=True, scope="session")
def _private_cache(tmp_path_factory):
    mp = pytest.MonkeyPatch()
    mp.setenv("EVALPORT_CACHE_DIR", str(tmp_path_factory.mktemp("evalport-cache")))
    yield
    mp.undo()


@pytest.fixture(autouse=True)
def _environment_kept():
    """A test (or the code it calls in-process, such as ``main([..., "--no-cache"])``) leaves the
    process environment as it found it: a variable set for good would change every later test
    of a one-process run (CI's), while a sharded run would not show it."""
    before = dict(os.environ)
    yield
    after = dict(os.environ)
    changed = sorted(k for k in before.keys() | after.keys()
                     if before.get(k) != after.get(k) and k != "PYTEST_CURRENT_TEST")
    assert not changed, f"the test changed the process environment: {changed}"


@pytest.fixture(autouse=True)
def _no_stage_crashes(request, monkeypatch):
    if request.node.get_closest_marker("stage_crash"):
        yield
        return
    crashed: list[str] = []
    run_stage = gate._run_stage

    def watched(name, ctx):
        result = run_stage(name, ctx)
        crashed.extend(f.message for f in result.findings if f.kind == "stage-crashed")
        return result

    monkeypatch.setattr(gate, "_run_stage", watched)
    yield
    assert not crashed, f"a gate stage crashed during the test: {crashed}"
