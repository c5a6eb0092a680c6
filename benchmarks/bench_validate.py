"""Validation speed and memory on a 100,000-Result ResultSet (issue 16: "validate: 100k Results
<= 1.5x the orjson parse process").

Measures whole processes on the same file (about 90 MB), each run three times (median wall and
CPU time, max peak RSS):

1. parse only: ``orjson.loads`` of the file (the floor any validator pays);
2. ``evalport-spec validate FILE`` as users run it (schema with format assertion, plus every
   cross-field rule): the file is above the streaming threshold, so it is validated as it is read;
3. ``evalport-spec validate --no-stream FILE``: the same, parsed whole;
4. plain ``jsonschema``: ``json.load`` + ``Draft202012Validator`` with the draft's registry (once).

Targets, on CPU time (user + system; wall time is shown too, but on a machine shared by several
processes it measures the neighbours as much as the command): (2) within 1.5x of (1); (2) at
least 10x faster than (4); peak memory of (2) within 1.2x of (1). Exit 1 when a target is
missed. The file is generated once into ``bench-artifacts/`` by
``benchmarks/make_large_resultset.py``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _measure import machine, report_checks, run_process, table  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "bench-artifacts"
N = int(os.environ.get("BENCH_RESULTS", "100000"))

PARSE = "import orjson, sys; orjson.loads(open(sys.argv[1], 'rb').read())"
PLAIN = """
import json, sys, jsonschema, referencing, referencing.jsonschema as rj, pathlib
root = pathlib.Path(sys.argv[2])
res = []
for p in sorted(root.glob('*.json')):
    s = json.loads(p.read_text())
    res.append((s['$id'], rj.DRAFT202012.create_resource(s)))
reg = referencing.Registry().with_resources(res)
schema = json.loads((root / 'resultset.json').read_text())
doc = json.load(open(sys.argv[1]))
v = jsonschema.Draft202012Validator(schema, registry=reg,
        format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER)
errors = list(v.iter_errors(doc))
sys.exit(1 if errors else 0)
"""


def rows_of(runs: list, parse) -> list[list[str]]:
    """Table rows: wall and CPU seconds and peak memory, each with its ratio to ``parse``."""
    return [[r.label, f"{r.seconds:.2f}", f"{r.seconds / parse.seconds:.2f}x", f"{r.cpu:.2f}",
             f"{r.cpu / parse.cpu:.2f}x", f"{r.peak_mib:.0f}", f"{r.peak_mib / parse.peak_mib:.2f}x",
             ",".join(map(str, sorted(set(r.exit_codes))))] for r in runs]


HEADER = ["process", "wall s", "vs parse", "cpu s", "vs parse", "peak MiB", "vs parse", "exit"]


def main() -> int:
    """Generate (once), measure, print the table, return 1 if a target is missed."""
    OUT.mkdir(exist_ok=True)
    data = OUT / f"resultset-{N}.json"
    if not data.exists():
        subprocess.check_call([sys.executable, str(ROOT / "benchmarks" / "make_large_resultset.py"),
                               str(data), "--results", str(N)])
    size_mb = data.stat().st_size / 1e6
    exe = shutil.which("evalport-spec") or "evalport-spec"
    print(machine())
    parse = run_process([sys.executable, "-c", PARSE, str(data)], label="orjson parse only")
    ours = run_process([exe, "validate", "--type", "resultset", str(data)],
                       label="evalport-spec validate (streamed)")
    whole = run_process([exe, "validate", "--no-stream", "--type", "resultset", str(data)],
                        label="evalport-spec validate --no-stream")
    plain = run_process([sys.executable, "-c", PLAIN, str(data), str(ROOT / "spec" / "schemas")],
                        repeat=1, label="plain jsonschema (json.load + iter_errors)")
    print(f"file: {data.name}, {size_mb:.1f} MB, {N} Results\n")
    print(table(rows_of([parse, ours, whole, plain], parse), HEADER))
    print(machine())
    checks = {
        "validate exits 0 on the valid file": ours.exit_codes == [0, 0, 0],
        "validate within 1.5x of parse (cpu)": ours.cpu <= 1.5 * parse.cpu,
        "validate >= 10x faster than plain jsonschema (cpu)": plain.cpu >= 10 * ours.cpu,
        "peak memory within 1.2x of parse": ours.peak_mib <= 1.2 * parse.peak_mib,
    }
    return report_checks(checks)


if __name__ == "__main__":
    sys.exit(main())
