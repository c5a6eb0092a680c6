"""Measure whole processes: wall time and peak resident memory of one child process (a command,
or a function in a forked child).

Uses ``os.wait4`` so the peak RSS (``ru_maxrss``, KiB on Linux) is that child's alone.
"""

from __future__ import annotations

import json
import os
import select
import signal
import statistics
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass
class Run:
    """Median wall seconds and max peak RSS (MiB) over repeated runs of one command."""

    label: str
    seconds: float
    peak_mib: float
    exit_codes: list[int]


def run_process(argv: list[str], repeat: int = 3, env: dict[str, str] | None = None,
                label: str | None = None) -> Run:
    """Run ``argv`` ``repeat`` times; return the median wall time and the largest peak RSS."""
    walls: list[float] = []
    peaks: list[float] = []
    codes: list[int] = []
    for _ in range(repeat):
        start = time.perf_counter()
        proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                env={**os.environ, **(env or {})})
        _, status, usage = os.wait4(proc.pid, 0)
        walls.append(time.perf_counter() - start)
        peaks.append(usage.ru_maxrss / 1024)
        codes.append(os.waitstatus_to_exitcode(status))
    return Run(label or " ".join(argv), statistics.median(walls), max(peaks), codes)


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
