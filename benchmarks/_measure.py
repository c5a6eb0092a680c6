"""Measure whole processes: wall time and peak resident memory of one child process.

Uses ``os.wait4`` so the peak RSS (``ru_maxrss``, KiB on Linux) is that child's alone.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import time
from dataclasses import dataclass


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
