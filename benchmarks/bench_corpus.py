"""The classifier judged on the seeded mutation corpus (tests/compat_corpus), issue 11's yardstick.

Builds ``--pairs`` pairs (default 2,000, seed 0: the repository's schema sets, Confluent's cases
read from ../shared/peer-suites, check-jsonschema's vendored schemas, each mutated by the
operators of ``compat_corpus.mutate``), runs the classifier on each in its own process (time
limit ``--limit`` CPU seconds, 3 GiB address space) and checks every verdict with python-jsonschema and
jsonschema-rs: a MAJOR's witnesses must be lost by both (else *bad witness*), a MINOR/PATCH is
searched for a lost document (*unsound* when one is found). Prints the figures table, then a
few examples of each problem; ``--jsonl FILE`` keeps every record, written as each pair is judged
(the pairs are judged in a seeded random order, so the records of an interrupted run are a fair
sample of the corpus: ``compat_corpus.run.summarize`` gives their figures).

Targets (issue 11): UNDECIDED under 1% of the pairs; no unsound verdict, bad witness, crash or
refusal. Exit 1 when one is missed.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "tools"), str(ROOT / "tests")]

from _measure import report_checks, table  # noqa: E402

from compat_corpus.corpus import build  # noqa: E402
from compat_corpus.run import report, run, summarize  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pairs", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1))
    ap.add_argument("--limit", type=float, default=30.0, help="classifier CPU seconds per pair")
    ap.add_argument("--search-limit", type=float, default=6.0, help="counter-example search seconds per pair")
    ap.add_argument("--generated", type=int, default=6,
                    help="documents asked of the repository's generator per search (twice as many candidates)")
    ap.add_argument("--jsonl", metavar="FILE", help="append every pair's record here as it is judged")
    ap.add_argument("--resume", action="store_true",
                    help="skip the pairs already recorded in --jsonl FILE; the figures cover them all")
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    pairs = build(args.pairs, args.seed)
    random.Random(args.seed).shuffle(pairs)  # judged in a seeded order: any prefix is a fair sample
    built = time.perf_counter() - t0
    earlier: list[dict] = []
    if args.resume and args.jsonl and Path(args.jsonl).exists():
        with open(args.jsonl, encoding="utf-8") as f:
            earlier = [json.loads(line) for line in f if line.strip()]
        ids = {r["id"] for r in earlier}
        pairs = [p for p in pairs if p.id not in ids]

    out = open(args.jsonl, "a", encoding="utf-8") if args.jsonl else None  # noqa: SIM115 - closed below

    def progress(done: int, rec: dict) -> None:
        if out:
            out.write(json.dumps(rec, default=repr) + "\n")
            out.flush()
        if done % 100 == 0 or done == len(pairs):
            print(f"  {done}/{len(pairs)} pairs judged ({time.perf_counter() - t0:.0f} s)", file=sys.stderr, flush=True)

    try:
        records = run(pairs, jobs=args.jobs, limit=args.limit, search_limit=args.search_limit,
                      search_kw={"generated": args.generated}, progress=progress)
    finally:
        if out:
            out.close()
    s = summarize(earlier + records)
    n = s["pairs"]
    pct = (lambda k: f"{k} ({100 * k / n:.2f}%)") if n else str
    rows = [[f"pairs (seed {args.seed})", str(n), " ".join(f"{k} {v}" for k, v in sorted(s["sources"].items()))],
            ["verdicts", "", " ".join(f"{k} {v}" for k, v in sorted(s["verdicts"].items()))],
            ["UNDECIDED", pct(s["undecided"]), f"{s['undecided_but_lost_found']} of them lose a document the oracle found"],
            ["unsound verdicts", str(s["unsound"]), "MINOR/PATCH with a lost document (both validators)"],
            ["bad witnesses", str(s["bad_witness"]), "a MAJOR witness not lost by both validators"],
            ["crashes", str(s["crash"]), ""], ["refusals", str(s["refused"]), "InputError on valid schemas"],
            ["timeouts", pct(s["timeout"]), f"no verdict within {args.limit:g} s of CPU"],
            ["no decision", pct(s["undecided"] + s["timeout"]), "UNDECIDED + timeouts: the target's figure"],
            ["missed gains", str(s["missed_gain"]), "PATCH where the new schema accepts more (should be MINOR)"],
            ["abstained", str(s["abstained"]), "a validator could not compile a schema: not judged"],
            ["classifier CPU s median / p95", f"{s['median_cpu_s']:.2f} / {s['p95_cpu_s']:.2f}", f"max peak {s['max_peak_mib']} MiB"],
            ["wall s", f"{time.perf_counter() - t0:.0f}", f"corpus built in {built:.0f} s, {args.jobs} jobs"]]
    print(table(rows, ["figure", "value", "note"]))
    print()
    print(report(s))
    return report_checks({
        # a timeout is an exhausted budget: no decision either (issue 11)
        "UNDECIDED or out of budget < 1% of the pairs": s["undecided"] + s["timeout"] < 0.01 * n,
        "no unsound verdict": s["unsound"] == 0, "no bad witness": s["bad_witness"] == 0,
        "no crash": s["crash"] == 0, "no refusal of a valid schema": s["refused"] == 0})


if __name__ == "__main__":
    sys.exit(main())
