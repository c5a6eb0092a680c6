"""Validation speed on large *invalid* ResultSets: the error path must cost in proportion to
the errors, not to the document (fresh-user trial, W8).

Makes two ResultSets with ``benchmarks/make_large_resultset.py`` (about 2 MB: 2,500 Results; and
about 28 MB: 30,000 Results) into ``bench-artifacts/``, puts one bad score (1.5, above the
``maximum`` of 1) into the middle Result of each, and times ``evalport-spec validate`` on them
(median of three whole processes).

Targets: the 2 MB file in < 2 s, the 28 MB file in < 15 s; each run exits 1 and reports exactly
one MAXIMUM error. Exit 1 when a target is missed.
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
CASES = ((2_500, 2.0), (30_000, 15.0))  # (Results, target seconds)


def make_invalid(n: int) -> Path:
    """The ``n``-Result file with one bad score in its middle Result (made once)."""
    OUT.mkdir(exist_ok=True)
    valid, bad = OUT / f"resultset-{n}.json", OUT / f"resultset-{n}-one-bad-score.json"
    if not valid.exists():
        subprocess.check_call([sys.executable, str(ROOT / "benchmarks" / "make_large_resultset.py"),
                               str(valid), "--results", str(n)])
    if not bad.exists():
        lines = valid.read_text(encoding="utf-8").split("\n")  # one Result per line
        i = len(lines) // 2
        while not re.search(r'"score": [0-9.]+', lines[i]):
            i += 1
        lines[i] = re.sub(r'"score": [0-9.]+', '"score": 1.5', lines[i], count=1)
        bad.write_text("\n".join(lines), encoding="utf-8")
    return bad


def main() -> int:
    """Generate (once), measure, print the table, return 1 if a target is missed."""
    exe = shutil.which("evalport-spec") or "evalport-spec"
    rows, checks = [], {}
    for n, target in CASES:
        data = make_invalid(n)
        size = data.stat().st_size / 1e6
        run = run_process([exe, "validate", str(data)], label=f"{n} Results, {size:.1f} MB")
        out = subprocess.run([exe, "validate", "--format", "json", str(data)],
                             capture_output=True, text=True).stdout
        errors = re.findall(r'"code": "(\w+)"', out)
        rows.append([run.label, f"{run.seconds:.2f}", f"{target:.0f}", " ".join(errors)])
        checks[f"{run.label}: < {target:.0f} s"] = run.seconds < target
        checks[f"{run.label}: exit 1 with one MAXIMUM"] = (set(run.exit_codes) == {1}
                                                            and errors == ["MAXIMUM"])
    print(table(rows, ["file", "median s", "target s", "errors"]))
    return report_checks(checks)


if __name__ == "__main__":
    sys.exit(main())
