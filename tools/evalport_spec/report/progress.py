"""Progress for long work, shown only on a terminal (tqdm), silent everywhere else.

Engines call these without knowing whether anyone watches: on standard error when it is a
terminal, nothing when it is a file, a pipe or CI (tqdm's ``disable=None``), nothing either when
``EVALPORT_PROGRESS=0``. Progress never goes to standard output, so it cannot mix with a report.

    for path in track(paths, "validating", unit="file"): ...
    with task("comparing schemas", total=len(files)) as step:
        for f in files:
            ...; step()
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import TypeVar

from tqdm import tqdm

T = TypeVar("T")

MIN_SECONDS = 0.5
"""A bar appears only once the work has run this long (short work stays silent)."""


def _bar(desc: str, total: int | None, unit: str) -> tqdm:
    # disable=None: tqdm shows the bar only when the stream is a terminal
    off = True if os.environ.get("EVALPORT_PROGRESS") == "0" else None
    return tqdm(total=total, desc=desc, unit=unit, file=sys.stderr, leave=False, disable=off,
                delay=MIN_SECONDS, dynamic_ncols=True)


def track(items: Iterable[T], desc: str, *, total: int | None = None, unit: str = "it") -> Iterator[T]:
    """Yield ``items`` unchanged while a bar counts them (``total`` defaults to ``len(items)``
    when it has one)."""
    if total is None and hasattr(items, "__len__"):
        total = len(items)  # type: ignore[arg-type]
    with _bar(desc, total, unit) as bar:
        for item in items:
            yield item
            bar.update(1)


@contextmanager
def task(desc: str, *, total: int | None = None, unit: str = "it") -> Iterator[Callable[..., None]]:
    """A bar for work the caller steps through: the context value ``step(n=1, note=None)``
    advances it by ``n`` and shows ``note`` beside it (a file name, a version)."""
    with _bar(desc, total, unit) as bar:
        def step(n: int = 1, note: str | None = None) -> None:
            if note is not None:
                bar.set_postfix_str(note, refresh=False)
            bar.update(n)
        yield step
