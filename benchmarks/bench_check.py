"""Speed of the gate: median wall time of ``evalport-spec check`` on this repository (issue 8).

Runs ``check --format json`` (every stage; the gate has no docs stage) three times, prints the
median wall time, the per-stage seconds of each run (from the JSON report) and their medians,
and exits 1 when the median misses the target (10 s). Set ``BENCH_PROFILE=1`` to also profile
one run in-process and print the top functions by cumulative and own time, and the number of
``compare_versions`` calls with their total time.
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _measure import table  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
TARGET_S = 10.0
RUNS = int(os.environ.get("BENCH_RUNS", "3"))


def run_once() -> tuple[float, dict]:
    """One ``check --format json`` process: (wall seconds, parsed report)."""
    exe = shutil.which("evalport-spec") or "evalport-spec"
    start = time.perf_counter()
    proc = subprocess.run([exe, "-C", str(ROOT), "check", "--format", "json"], capture_output=True)
    wall = time.perf_counter() - start
    if proc.returncode not in (0, 1):
        sys.exit(f"check exited {proc.returncode}: {proc.stderr.decode()[-500:]}")
    return wall, json.loads(proc.stdout)


def profile() -> None:
    """Profile one in-process gate run; print top functions and compare_versions calls."""
    import cProfile
    import pstats

    from evalport_spec.gate import run_gate
    from evalport_spec.spec import SpecRepo

    prof = cProfile.Profile()
    prof.enable()
    run_gate(SpecRepo(ROOT))
    prof.disable()
    stats = pstats.Stats(prof)
    for key in ("cumulative", "tottime"):
        print(f"\ntop 25 functions by {key}:")
        stats.sort_stats(key).print_stats(25)
    for func, (_cc, nc, _tt, ct, _callers) in stats.stats.items():
        if func[2] in ("compare_versions", "compare", "_search", "counter_example_search"):
            print(f"{func[0]}:{func[1]} {func[2]}: {nc} calls, {ct:.2f}s cumulative")


def main() -> int:
    """Measure, print the tables, return 1 when the median is over the target."""
    walls, per_stage = [], {}
    for _ in range(RUNS):
        wall, report = run_once()
        walls.append(wall)
        for st in report["stages"]:
            per_stage.setdefault(st["name"], []).append(st.get("seconds", 0.0))
    med = statistics.median(walls)
    rows = [[name, *(f"{s:.2f}" for s in secs), f"{statistics.median(secs):.2f}"]
            for name, secs in per_stage.items()]
    rows.append(["(whole process)", *(f"{w:.2f}" for w in walls), f"{med:.2f}"])
    print(f"evalport-spec check on {ROOT.name}, {RUNS} runs, load {os.getloadavg()[0]:.2f}\n")
    print(table(rows, ["stage", *(f"run {i + 1} s" for i in range(RUNS)), "median s"]))
    ok = med < TARGET_S
    print(f"\n{'met   ' if ok else 'MISSED'} check median {med:.2f}s under {TARGET_S:.0f}s")
    if os.environ.get("BENCH_PROFILE"):
        profile()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
