"""Streaming validation at a million Results and beyond (issue 16: "1M Results with peak memory
< 500 MB in streaming mode at <= 3x the parse time; a 10 GB generated ResultSet validated on
this machine").

Generates a 1,000,000-Result ResultSet (about 900 MB, ``make_large_resultset.py --pool``) into a
temporary folder (``BENCH_TMP``, default the system's), measures the orjson parse process and
``evalport-spec validate`` (streamed: the file is above the threshold) once each, then deletes
the file. Targets: validate's peak RSS < 500 MiB and its CPU time <= 3x the parse's.

With ``BENCH_HUGE_GB=10`` it also generates a ResultSet of that many gigabytes (or the largest
that fits on the disk, leaving 4 GB free; said in the output), validates it (the parse process
is not run: it would need several times the file in memory), reports time, throughput and
peak memory, and deletes it. Target: it validates (exit 0) with a peak RSS < 1 GiB.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _measure import machine, report_checks, run_process, table  # noqa: E402
from bench_validate import HEADER, PARSE, rows_of  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
N = int(os.environ.get("BENCH_STREAM_RESULTS", "1000000"))
HUGE_GB = float(os.environ.get("BENCH_HUGE_GB", "0"))
BYTES_PER_RESULT = 910  # about, for the pooled generator
MARGIN = 4 * 10**9


def generate(path: Path, n: int) -> None:
    subprocess.check_call([sys.executable, str(ROOT / "benchmarks" / "make_large_resultset.py"),
                           str(path), "--results", str(n), "--pool", "2000"])


def main() -> int:
    """Generate, measure, delete; print the tables; return 1 if a target is missed."""
    exe = shutil.which("evalport-spec") or "evalport-spec"
    checks: dict[str, bool] = {}
    print(machine())
    with tempfile.TemporaryDirectory(prefix="evalport-bench-", dir=os.environ.get("BENCH_TMP")) as tmp:
        data = Path(tmp) / f"resultset-{N}.json"
        generate(data, N)
        size = data.stat().st_size
        parse = run_process([sys.executable, "-c", PARSE, str(data)], repeat=1,
                            label="orjson parse only")
        ours = run_process([exe, "validate", str(data)], repeat=1,
                           label="evalport-spec validate (streamed)")
        data.unlink()
        print(f"file: {N} Results, {size / 1e6:.0f} MB\n")
        print(table(rows_of([parse, ours], parse), HEADER))
        checks["validate exits 0 on the valid file"] = ours.exit_codes == [0]
        checks["streamed peak RSS < 500 MiB"] = ours.peak_mib < 500
        checks["streamed validate within 3x of parse (cpu)"] = ours.cpu <= 3 * parse.cpu
        if HUGE_GB > 0:
            free = shutil.disk_usage(tmp).free
            want = int(HUGE_GB * 1e9)
            fits = min(want, free - MARGIN)
            if fits < want:
                print(f"\nthe disk has {free / 1e9:.1f} GB free: generating {fits / 1e9:.1f} GB "
                      f"instead of {HUGE_GB:g} GB")
            n = max(1, fits // BYTES_PER_RESULT)
            huge = Path(tmp) / "resultset-huge.json"
            generate(huge, n)
            size = huge.stat().st_size
            run = run_process([exe, "validate", str(huge)], repeat=1,
                              label=f"evalport-spec validate, {size / 1e9:.2f} GB")
            huge.unlink()
            print(f"\nfile: {n} Results, {size / 1e9:.2f} GB\n")
            print(table([[run.label, f"{run.seconds:.0f}", f"{run.cpu:.0f}",
                          f"{size / 1e6 / run.seconds:.0f}", f"{run.peak_mib:.0f}",
                          ",".join(map(str, run.exit_codes))]],
                        ["process", "wall s", "cpu s", "MB/s (wall)", "peak MiB", "exit"]))
            checks[f"{size / 1e9:.1f} GB ResultSet validates (exit 0)"] = run.exit_codes == [0]
            checks[f"{size / 1e9:.1f} GB ResultSet: peak RSS < 1 GiB"] = run.peak_mib < 1024
    print(machine())
    return report_checks(checks)


if __name__ == "__main__":
    sys.exit(main())
