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
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from tqdm import tqdm

T = TypeVar("T")

MIN_SECONDS = 0.5
"""A bar appears only once the work has run this long (short work stays silent)."""


class _Off:
    """The bar when none can be shown: every call does nothing, and tqdm is not imported (a
    command that shows no bar starts faster)."""

    def __enter__(self) -> _Off:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def update(self, n: float = 1) -> None:
        return None

    def set_postfix_str(self, s: str = "", refresh: bool = True) -> None:
        return None


def _bar(desc: str, total: int | None, unit: str) -> tqdm | Any:
    try:
        shown = sys.stderr.isatty() and os.environ.get("EVALPORT_PROGRESS") != "0"
    except (AttributeError, ValueError, OSError):  # a closed or stripped-down stream
        shown = False
    if not shown:
        return _Off()
    from tqdm import tqdm

    # disable=None: tqdm itself still shows the bar only when the stream is a terminal
    return tqdm(total=total, desc=desc, unit=unit, file=sys.stderr, leave=False, disable=None,
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
