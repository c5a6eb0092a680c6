"""One process environment variable set for the length of a block, then put back as it was."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def setting(name: str, value: str) -> Iterator[None]:
    """Within the block, ``os.environ[name]`` is ``value`` (for this process and the processes it
    starts); on leaving, by return or by exception, it is what it was before: the same string, or
    unset. Not thread-safe: the environment is the process's."""
    before = os.environ.get(name)
    os.environ[name] = value
    try:
        yield
    finally:
        if before is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = before
