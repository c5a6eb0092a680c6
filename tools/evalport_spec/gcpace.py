"""The pace of Python's cyclic garbage collector for the toolchain's work (one job, no imports
of the package: the command line sets it before loading anything else).

A command allocates far more than it frees in cycles: importing its modules, reading schemas,
building canons and memo tables. At Python's default pace (a collection of the youngest
generation every 700 allocations, of the middle one every ten of those) most collections find
nothing and each rescans the survivors of the last ones: a large comparison spent half its
time there, and a two-copy ``diff`` (mergify.json, a cold process) about 3 ms of its ~90 ms
in 26 collections, 17 of them after the command line was loaded.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator

GC_YOUNG_THRESHOLD = 100_000
"""Allocations between two collections of the garbage collector's youngest generation within
:func:`paced_gc` (Python's default is 700)."""


@contextlib.contextmanager
def paced_gc() -> Iterator[None]:
    """Within the block the cyclic garbage collector collects its youngest generation every
    :data:`GC_YOUNG_THRESHOLD` allocations (the older generations' thresholds, counted in
    collections of the younger one, unchanged; a higher threshold already set is kept); restored
    on leaving. A large comparison keeps millions of objects alive (memoised failures, canons,
    proofs), and at the default pace the objects surviving each young collection soon triggered
    full collections, each rescanning all of them: azure-pipelines.json with one ``enum`` value
    removed ran 15 full collections, 4.9 of its 10.4 s. Garbage is still collected, in larger
    steps (its peak memory was the same); results do not depend on when memory is reclaimed."""
    old = gc.get_threshold()
    gc.set_threshold(max(old[0], GC_YOUNG_THRESHOLD), *old[1:])
    try:
        yield
    finally:
        gc.set_threshold(*old)
