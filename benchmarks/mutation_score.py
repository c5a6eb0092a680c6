"""Mutation score of the test suite over the gate, the reports and the classifier (issue 18).

Run by ``nox -s mutants`` after ``mutmut run`` (configured in pyproject.toml, ``[tool.mutmut]``),
in the folder mutmut ran in (``.mutation/``, see the session). Reads mutmut's verdicts (``mutmut results --all true``: one
``name: status`` line per mutant) and prints, per package (``gate``, ``report``, ``compat``), the
mutants checked, killed (a test failed; a timeout counts as killed, the mutant was noticed),
survived (every test passed; "no tests" counts here, nothing ran the mutated code) and the score
killed / checked, then the surviving mutants' names (``mutmut show NAME`` prints the change).

``--sample N`` first runs a seeded sample of N mutants per package (``mutmut run NAME ...``)
instead of all of them: on a 2-core machine the whole set takes hours. The score of a sample
comes with its 95% Wilson interval. ``--own-tests`` has each mutant run only its own package's
tests (``tests/test_compat*.py`` for a mutant of ``compat``: tests/conftest.py deselects the
rest through ``EVALPORT_MUTANT_OWN_TESTS``): a classifier mutant only a gate run notices counts
as survived, and a classifier mutant costs about a third of the time.

Target (issue 18): at least 80% of ``gate``'s checked mutants killed; exit 1 when missed, 2 when
mutmut has no results (run ``mutmut run`` first) or judged none of the packages asked for.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import subprocess
import sys
from collections import Counter, defaultdict

PACKAGES = ("gate", "report", "compat")
TARGETS = {"gate": 0.80}
"""Least share of checked mutants killed, per package (issue 18: 80% in ``gate/``)."""
FIRST_RUN = "evalport_spec.gate.acceptance.xǁLedgerǁpredates__mutmut_1"
"""One mutant of a function one quick test reaches (``Ledger.predates``, the ledger outside git:
tests/test_gate.py's ledger candidates test): ``mutmut run`` on it generates every mutant and
records which tests reach which function, so a sample can be drawn (mutant names exist only
after generation), at the cost of that test run twice (clean, then mutated). A function most
gate tests reach would cost two runs of them: ``StageResult.to_json``, the earlier choice, is
reached by every gate run since each report is stored (:mod:`evalport_spec.gate.runmemo`)."""
KILLED = {"killed", "timeout", "caught by type check"}
SURVIVED = {"survived", "no tests"}


def read_results(mutmut: list[str]) -> dict[str, str]:
    """``{mutant name: status}`` from ``mutmut results --all true`` (statuses as mutmut prints
    them: killed, survived, no tests, timeout, suspicious, skipped, not checked, ...).

    Raises:
        RuntimeError: mutmut failed (its stderr in the message).
    """
    proc = subprocess.run([*mutmut, "results", "--all", "true"], capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"mutmut results failed: {proc.stderr.strip()}")
    out: dict[str, str] = {}
    for line in proc.stdout.splitlines():
        name, sep, status = line.strip().rpartition(": ")
        if sep and name.startswith("evalport_spec."):
            out[name] = status
    return out


def package_of(name: str) -> str | None:
    """``evalport_spec.gate.stages.x_stage_rules__mutmut_3`` -> ``gate``; None outside PACKAGES."""
    parts = name.split(".")
    return parts[1] if len(parts) > 2 and parts[1] in PACKAGES else None


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a proportion ``k``/``n`` (Wilson 1927), as ``(low, high)``."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def score(results: dict[str, str]) -> dict[str, Counter]:
    """Per package: a Counter of ``checked``, ``killed``, ``survived`` (statuses grouped as the
    module docstring says; not checked, skipped and suspicious mutants are left out)."""
    table: dict[str, Counter] = defaultdict(Counter)
    for name, status in results.items():
        pkg = package_of(name)
        if pkg is None:
            continue
        if status in KILLED:
            table[pkg]["killed"] += 1
        elif status in SURVIVED:
            table[pkg]["survived"] += 1
        else:
            continue
        table[pkg]["checked"] += 1
    return table


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sample", type=int, metavar="N", help="run N seeded mutants per package first")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--packages", nargs="+", choices=PACKAGES, default=list(PACKAGES))
    ap.add_argument("--max-children", type=int, default=1)
    ap.add_argument("--own-tests", action="store_true",
                    help="a mutant runs only tests/test_<its package>*.py (see tests/conftest.py)")
    ap.add_argument("--list", type=int, default=40, metavar="K", help="survivors listed per package")
    args = ap.parse_args(argv)
    mutmut = [sys.executable, "-m", "mutmut"]
    try:
        results = read_results(mutmut)
        if not results and args.sample:
            subprocess.run([*mutmut, "run", "--max-children", str(args.max_children), FIRST_RUN], check=False)
            results = read_results(mutmut)
    except RuntimeError as exc:
        print(f"mutation_score: error: {exc}", file=sys.stderr)
        return 2
    if not results:
        print("mutation_score: error: no mutmut results here (run `mutmut run` first)", file=sys.stderr)
        return 2
    if args.sample:
        rng = random.Random(args.seed)
        chosen: list[str] = []
        for pkg in args.packages:
            names = sorted(n for n in results if package_of(n) == pkg)
            chosen += rng.sample(names, min(args.sample, len(names)))
        env = {**os.environ, "EVALPORT_MUTANT_OWN_TESTS": ",".join(args.packages)} if args.own_tests else None
        subprocess.run([*mutmut, "run", "--max-children", str(args.max_children), *chosen], check=False, env=env)
        results = {n: s for n, s in read_results(mutmut).items() if n in set(chosen)}
    table = score(results)
    if not any(table.get(pkg, Counter())["checked"] for pkg in args.packages):
        print("mutation_score: error: mutmut judged no mutant of "
              f"{', '.join(args.packages)} (see its output above: a failing clean test run stops it)",
              file=sys.stderr)
        return 2
    failed = False
    print(f"{'package':<8} {'checked':>8} {'killed':>7} {'survived':>9} {'score':>7}  95% interval")
    for pkg in args.packages:
        row = table.get(pkg, Counter())
        n, k = row["checked"], row["killed"]
        low, high = wilson(k, n)
        share = k / n if n else 0.0
        target = TARGETS.get(pkg)
        verdict = "" if target is None else ("  ok" if share >= target else f"  BELOW {target:.0%}")
        failed |= target is not None and n > 0 and share < target
        print(f"{pkg:<8} {n:>8} {k:>7} {row['survived']:>9} {share:>7.1%}  {low:.1%}-{high:.1%}{verdict}")
    for pkg in args.packages:
        alive = sorted(n for n, s in results.items() if package_of(n) == pkg and s in SURVIVED)
        if alive:
            print(f"\nsurviving in {pkg} ({len(alive)}; `mutmut show NAME` prints the change):")
            for name in alive[:args.list]:
                print(f"  {name}: {results[name]}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
