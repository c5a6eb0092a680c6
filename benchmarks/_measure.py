"""Measure whole processes: wall time and peak resident memory of one child process (a command,
or a function in a forked child).

A command is started by a small probe process (:data:`PROBE`) that reports its child's
``RUSAGE_CHILDREN``: Linux keeps ``ru_maxrss`` across ``execve``, so a command forked straight
from the benchmark would count the benchmark's own resident pages (about 90 MiB) as its peak.
A function runs in a forked child and is measured with ``os.wait4``.
"""

from __future__ import annotations

import json
import os
import select
import signal
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass
class Run:
    """Median wall seconds and max peak RSS (MiB) over repeated runs of one command, and the
    median CPU seconds (user + system: steadier than wall time on a shared machine)."""

    label: str
    seconds: float
    peak_mib: float
    exit_codes: list[int]
    cpu: float = 0.0


PROCESS_ENV = {"PYTHONDONTWRITEBYTECODE": ""}
"""Environment for the toolchain's own processes: they may cache their bytecode, as an installed
wheel's is (this machine's shells set ``PYTHONDONTWRITEBYTECODE``, which has an editable checkout
without fresh caches compile every module it imports anew in each process, its rule programs
too: up to about 0.2 s of a cold ``check``)."""

PROBE = ("import json, resource, subprocess, sys, time\n"
         "start = time.perf_counter()\n"
         "code = subprocess.call(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)\n"
         "wall = time.perf_counter() - start\n"
         "u = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
         "print(json.dumps([code, wall, u.ru_utime + u.ru_stime, u.ru_maxrss]))\n")
"""Runs ``argv`` once and prints ``[exit code, wall s, CPU s, peak RSS KiB]`` of that one child
(forked from this small process, so its peak is its own, not the benchmark's: the floor is the
probe's own pages, about 11 MiB; a signal's exit code is -N, reported as 128 + N)."""


def run_process(argv: list[str], repeat: int = 3, env: dict[str, str] | None = None,
                label: str | None = None) -> Run:
    """Run ``argv`` ``repeat`` times (each through :data:`PROBE`); return the median wall time,
    the largest peak RSS and the median CPU seconds of the command itself."""
    walls: list[float] = []
    peaks: list[float] = []
    codes: list[int] = []
    cpus: list[float] = []
    for _ in range(repeat):
        out = subprocess.run([sys.executable, "-c", PROBE, *argv], capture_output=True, text=True,
                             env={**os.environ, **(env or {})}, check=True)
        code, wall, cpu, peak_kib = json.loads(out.stdout.splitlines()[-1])
        walls.append(wall)
        peaks.append(peak_kib / 1024)
        codes.append(code if code >= 0 else 128 - code)
        cpus.append(cpu)
    return Run(label or " ".join(argv), statistics.median(walls), max(peaks), codes,
               statistics.median(cpus))


def machine() -> str:
    """One line describing where the figures come from: cores and load averages."""
    return (f"machine: {os.cpu_count()} cores (nproc), load average "
            f"{' / '.join(f'{x:.2f}' for x in os.getloadavg())} (1/5/15 min)")


def table(rows: list[list[str]], header: list[str]) -> str:
    """A GitHub-flavoured markdown table."""
    widths = [max(len(str(x)) for x in col) for col in zip(header, *rows, strict=False)]
    fmt = "| " + " | ".join(f"{{:<{w}}}" for w in widths) + " |"
    out = [fmt.format(*header), "|" + "|".join("-" * (w + 2) for w in widths) + "|"]
    out += [fmt.format(*map(str, r)) for r in rows]
    return "\n".join(out)


def report_checks(checks: dict[str, bool]) -> int:
    """Print one ``met``/``MISSED`` line per target; return the exit code (1 if any missed)."""
    print()
    for name, ok in checks.items():
        print(f"{'met   ' if ok else 'MISSED'} {name}")
    return 0 if all(checks.values()) else 1


def forked(fn: Callable[[], Any], timeout: float) -> tuple[Any, float, float, str | None]:
    """Run ``fn()`` once in a forked child: ``(its JSON-able result, wall seconds, peak RSS MiB,
    problem)``; ``problem`` is ``"timeout"`` (the child is killed after ``timeout`` s) or the
    child's exception or exit status, and the result is then ``None``. The peak is the child's
    own (``wait4``), the parent's pages it shares counted once touched."""
    r, w = os.pipe()
    start = time.perf_counter()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        try:
            with os.fdopen(w, "w") as out:
                try:
                    out.write(json.dumps({"ok": fn()}, default=repr))
                except BaseException as exc:  # noqa: BLE001 - reported to the parent
                    out.write(json.dumps({"error": f"{type(exc).__name__}: {str(exc)[:200]}"}))
        finally:
            os._exit(0)
    os.close(w)
    chunks: list[bytes] = []
    deadline = time.monotonic() + timeout
    problem = None
    while True:
        ready, _, _ = select.select([r], [], [], max(0.0, deadline - time.monotonic()))
        if not ready:
            os.kill(pid, signal.SIGKILL)
            problem = "timeout"
            break
        chunk = os.read(r, 1 << 16)
        if not chunk:
            break
        chunks.append(chunk)
    os.close(r)
    _, status, usage = os.wait4(pid, 0)
    wall = time.perf_counter() - start
    result = None
    if problem is None:
        try:
            msg = json.loads(b"".join(chunks))
            result, problem = msg.get("ok"), msg.get("error")
        except ValueError:
            problem = f"child ended ({os.waitstatus_to_exitcode(status)}) without a result"
    return result, wall, usage.ru_maxrss / 1024, problem
