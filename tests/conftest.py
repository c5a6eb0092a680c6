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
"""

from __future__ import annotations

import os

import pytest

import evalport_spec.gate as gate

_IDENTITY = {"user.name": "evalport-spec tests", "user.email": "tests@example.invalid"}

if "GIT_CONFIG_COUNT" not in os.environ:
    os.environ["GIT_CONFIG_COUNT"] = str(len(_IDENTITY))
    for i, (key, value) in enumerate(_IDENTITY.items()):
        os.environ[f"GIT_CONFIG_KEY_{i}"] = key
        os.environ[f"GIT_CONFIG_VALUE_{i}"] = value


@pytest.fixture(autouse=True, scope="session")
def _private_cache(tmp_path_factory):
    mp = pytest.MonkeyPatch()
    mp.setenv("EVALPORT_CACHE_DIR", str(tmp_path_factory.mktemp("evalport-cache")))
    yield
    mp.undo()


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
