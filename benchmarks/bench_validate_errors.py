"""Validation with many errors: reporting N errors must cost O(document + N log N), not O(N^2)
(issue 14: 8k errors took 15 s and 50k more than 300 s, because every error's line number
rebuilt a set of all the others).

Makes ResultSets of 8,000 and 50,000 Results with ``benchmarks/make_large_resultset.py`` into
``bench-artifacts/``, gives *every* Result the same mistake (its first grader score set to 1.5,
above the ``maximum`` of 1), and times ``evalport-spec validate`` on each (median of three whole
processes; a run is stopped after :data:`LIMIT` seconds).

Targets: 8k errors in < 10 s, 50k errors in < 45 s; each run exits 1 and reports exactly N
MAXIMUM errors, each on its own line (the text output's per-error lines). Exit 1 when a target
is missed.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _measure import report_checks, run_process, table  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "bench-artifacts"
CASES = ((8_000, 10.0), (50_000, 45.0))  # (errors, target seconds)
LIMIT = 600
_SCORE = re.compile(r'"score": (?:null|[0-9.]+)')


def make_all_bad(n: int) -> Path:
    """The ``n``-Result file in which every Result has one score of 1.5 (made once)."""
    OUT.mkdir(exist_ok=True)
    valid, bad = OUT / f"resultset-{n}.json", OUT / f"resultset-{n}-every-score-bad.json"
    if not valid.exists():
        subprocess.check_call([sys.executable, str(ROOT / "benchmarks" / "make_large_resultset.py"),
                               str(valid), "--results", str(n)])
    if not bad.exists():
        lines = valid.read_text(encoding="utf-8").split("\n")  # one Result per line
        lines = [_SCORE.sub('"score": 1.5', ln, count=1) if '"test_case_id"' in ln else ln for ln in lines]
        bad.write_text("\n".join(lines), encoding="utf-8")
    return bad


def main() -> int:
    """Generate (once), measure, print the table, return 1 if a target is missed."""
    exe = shutil.which("evalport-spec") or "evalport-spec"
    rows, checks = [], {}
    for n, target in CASES:
        data = make_all_bad(n)
        size = data.stat().st_size / 1e6
        label = f"{n} errors, {size:.1f} MB"
        try:  # once with a time limit (the quadratic version never finished 50k), counting lines
            out = subprocess.run([exe, "validate", str(data)], capture_output=True, text=True,
                                 timeout=LIMIT).stdout
        except subprocess.TimeoutExpired:
            rows.append([label, f"> {LIMIT}", f"{target:.0f}", "-", "-"])
            checks[f"{label}: < {target:.0f} s"] = False
            continue
        errors = len(re.findall(r": MAXIMUM ", out))
        run = run_process([exe, "validate", str(data)], label=label)
        rows.append([label, f"{run.seconds:.2f}", f"{target:.0f}", f"{run.peak_mib:.0f}", str(errors)])
        checks[f"{label}: < {target:.0f} s"] = run.seconds < target
        checks[f"{label}: exit 1 with {n} MAXIMUM lines"] = set(run.exit_codes) == {1} and errors == n
    print(table(rows, ["file", "median s", "target s", "peak MiB", "MAXIMUM lines"]))
    return report_checks(checks)


if __name__ == "__main__":
    sys.exit(main())
