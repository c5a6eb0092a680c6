"""Shared test setup: the classifier's on-disk cache goes to a fresh folder per session, never
to the user's cache directory."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True, scope="session")
def _private_cache(tmp_path_factory):
    mp = pytest.MonkeyPatch()
    mp.setenv("EVALPORT_CACHE_DIR", str(tmp_path_factory.mktemp("evalport-cache")))
    yield
    mp.undo()
