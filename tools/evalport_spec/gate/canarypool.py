"""Jobs run side by side, each in a scratch folder of its own (the canary's clones).

:func:`run_pooled` runs each job of a list with one folder of a pool, at most one job per folder
at a time, so as many jobs run at once as there are folders. Used by
:func:`evalport_spec.gate.canary.run_canaries`: one scratch clone per worker, each canary's
break planted, committed and judged in the clone it was given.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")


class _NotStarted(Exception):
    """A job not started because an earlier one raised."""


def run_pooled(jobs: Sequence[Callable[[Path], T]], folders: Sequence[Path],
               done: Callable[[int, T], None] | None = None, *,
               abort: Callable[[], None] | None = None) -> list[T]:
    """Run every job, each given one folder of ``folders`` that no other job holds meanwhile.

    Args:
        jobs: callables taking a folder; started in order (the longest first is the caller's
            choice).
        folders: the pool; ``len(folders)`` jobs run at once (threads: a job is expected to wait
            on a child process, not to compute).
        done: called in the calling thread with ``(index, result)`` of each job as it ends, in
            the order they end.
        abort: called in the calling thread when it is interrupted (Ctrl-C, SIGTERM's
            exception, an exception of ``done`` or of a job) before the running jobs are waited
            for: it makes them end soon (kills the processes they wait on).

    Returns:
        the jobs' results, in the order of ``jobs``.

    Raises:
        ValueError: ``folders`` is empty.
        Exception: the first exception a job or ``done`` raised, or the calling thread's
            interruption (jobs not started yet are not started; ``abort`` is called, then those
            running are waited for).
    """
    if not folders:
        raise ValueError("no folder to run jobs in")
    free: queue.SimpleQueue[Path] = queue.SimpleQueue()
    for folder in folders:
        free.put(folder)

    failed = threading.Event()  # set by the first job that raises: no job starts after it

    def run(job: Callable[[Path], T]) -> T:
        if failed.is_set():
            raise _NotStarted
        folder = free.get()
        try:
            return job(folder)
        except BaseException:
            failed.set()
            raise
        finally:
            free.put(folder)

    results: dict[int, T] = {}
    with ThreadPoolExecutor(max_workers=len(folders), thread_name_prefix="canary") as pool:
        index: dict[Future[T], int] = {pool.submit(run, job): i for i, job in enumerate(jobs)}
        pending = set(index)
        try:
            while pending:
                finished, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in sorted(finished, key=index.__getitem__):
                    try:
                        results[index[future]] = result = future.result()
                    except _NotStarted:
                        continue  # the job that raised is still to be seen
                    if done is not None:
                        done(index[future], result)
        except BaseException:
            failed.set()
            pool.shutdown(wait=False, cancel_futures=True)
            if abort is not None:
                abort()
            pool.shutdown(wait=True)
            raise
    return [results[i] for i in range(len(jobs))]


__all__ = ["run_pooled"]
