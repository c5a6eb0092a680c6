"""Speed of the gate: ``evalport-spec check`` on this repository (issues 8 and 16).

Runs ``check --format json`` (every stage; the gate has no docs stage) three times, prints the
median wall time, the per-stage seconds of each run (from the JSON report) and their medians,
and exits 1 when the median misses the target (10 s, issue 8). Then the cold/warm rows (issue
16): ``check`` with an empty disk cache (a fresh ``EVALPORT_CACHE_DIR`` per run: cold) and
with one primed by a run before (warm), every process allowed to cache its bytecode as an installed
package has it (:data:`_measure.PROCESS_ENV`; the runs before the cold ones write it), median CPU (user + system, the process and its rule
programs) and wall seconds; targets warm < 2 s and cold < 5 s of CPU. Set ``BENCH_PROFILE=1`` to also profile
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
from _measure import PROCESS_ENV, machine, run_process, table  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
TARGET_S = 10.0
WARM_TARGET_S = 2.0
COLD_TARGET_S = 5.0
RUNS = int(os.environ.get("BENCH_RUNS", "3"))


def command() -> list[str]:
    """How to start ``evalport-spec``: the command on PATH (what ``nox -s bench`` installs), else
    the one beside this interpreter (``.venv/bin``), else ``python -m evalport_spec``. Before
    session 37 the bench died with a traceback when run as ``.venv/bin/python benchmarks/...``
    outside an activated environment."""
    found = shutil.which("evalport-spec")
    if found:
        return [found]
    beside = Path(sys.executable).with_name("evalport-spec")
    return [str(beside)] if beside.is_file() else [sys.executable, "-m", "evalport_spec"]


def run_once() -> tuple[float, dict]:
    """One ``check --format json`` process: (wall seconds, parsed report)."""
    start = time.perf_counter()
    proc = subprocess.run([*command(), "-C", str(ROOT), "check", "--format", "json"], capture_output=True,
                          env={**os.environ, **PROCESS_ENV})
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


def cold_warm() -> tuple[list[list[str]], dict[str, bool]]:
    """Rows ``[label, median CPU s, median wall s, exit codes]`` for cold and warm ``check``
    processes, and whether each met its target."""
    import tempfile

    argv = [*command(), "-C", str(ROOT), "check", "--format", "json"]
    with tempfile.TemporaryDirectory(prefix="bench-check-") as tmp:
        colds = [run_process(argv, 1, {**PROCESS_ENV, "EVALPORT_CACHE_DIR": str(Path(tmp) / f"cold{i}")})
                 for i in range(RUNS)]
        warm_env = {**PROCESS_ENV, "EVALPORT_CACHE_DIR": str(Path(tmp) / "cold0")}  # primed by the first cold run
        warm = run_process(argv, RUNS, warm_env)
    cold_cpu = statistics.median(r.cpu for r in colds)
    cold_wall = statistics.median(r.seconds for r in colds)
    rows = [["cold (empty cache)", f"{cold_cpu:.2f}", f"{cold_wall:.2f}", str([c for r in colds for c in r.exit_codes])],
            ["warm (primed cache)", f"{warm.cpu:.2f}", f"{warm.seconds:.2f}", str(warm.exit_codes)]]
    return rows, {f"check warm CPU {warm.cpu:.2f}s under {WARM_TARGET_S:.0f}s": warm.cpu < WARM_TARGET_S,
                  f"check cold CPU {cold_cpu:.2f}s under {COLD_TARGET_S:.0f}s": cold_cpu < COLD_TARGET_S}


def main() -> int:
    """Measure, print the tables, return 1 when a median is over its target."""
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
    rows, checks = cold_warm()
    print(f"\n{machine()}\n")
    print(table(rows, ["check", f"median CPU s ({RUNS} runs)", "median wall s", "exit codes"]))
    for name, met in checks.items():
        print(f"{'met   ' if met else 'MISSED'} {name}")
    if os.environ.get("BENCH_PROFILE"):
        profile()
    return 0 if ok and all(checks.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
