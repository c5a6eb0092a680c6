"""Benchmark of ``evalport_spec.regular``: compiling ``pattern`` regexes and deciding inclusion.

Corpora: the repository's schemas (``spec/``, the package's data), hand-written ECMA-262
patterns (``regular.corpus.HAND_WRITTEN``) and the public schemas check-jsonschema vendors
(a test extra; the row is skipped with a note when it is not installed). All caches are
cleared before each timed phase, so every figure is a cold one.

Phases and targets (2-core reference machine):

- compile every pattern: median < 20 ms, slowest < 2.5 s (the time budget is 2 s a pattern);
- inclusion both ways between neighbouring patterns of a corpus (what ``diff`` asks when a
  ``pattern`` is replaced), and between each pattern and itself narrowed by
  ``minLength``/``maxLength`` 1..255: median < 5 ms, 99th percentile < 250 ms;
- ``examples(8)`` of each language and of its complement (the sampler's boundary strings,
  each checked with both validators): median < 20 ms;
- a pattern that blows up (``(a|b)*a(a|b){40}``) is refused within 3 s;
- a pattern whose repetition counts expand past the size budget (``^(a{1000}){1000}$``, a million
  states; ``regular/nfa.py`` ``MAX_NFA_STATES`` = 50,000) is refused within 0.1 s, and ``diff``'s
  classifier decides a change of it (fail closed: MAJOR, undecided) within 5 s.

For the library choice (``regular/dfa.py``): the same products through pyformlang, when it is
installed, for comparison (no target). Measured once by hand on the same machine: greenery
4.2 builds ``[a-z]{0,300}`` in 84 s and complements a 35-state ``date-time`` automaton in 0.9 s.

Prints a markdown table; exits 1 when a target is missed.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _measure import report_checks, table  # noqa: E402

from evalport_spec.regular import BudgetExceeded, Lang, Unsupported  # noqa: E402
from evalport_spec.regular import dfa as dfa_module  # noqa: E402
from evalport_spec.regular import lang as lang_module  # noqa: E402
from evalport_spec.regular.corpus import (  # noqa: E402
    HAND_WRITTEN,
    schema_patterns,
    vendored_schema_dirs,
)

ROOT = Path(__file__).resolve().parent.parent


HOSTILE = "^(a{1000}){1000}$"


def hostile_change() -> tuple[float, str]:
    """Seconds and class of ``diff`` on ``pattern`` HOSTILE -> HOSTILE with ``b?`` before ``$``."""
    import json

    from evalport_spec.compat import compare
    from evalport_spec.jsonload import loads
    from evalport_spec.schemaset import SchemaSet

    def sset(pattern: str, label: str) -> SchemaSet:
        text = json.dumps({"type": "string", "pattern": pattern})
        return SchemaSet.from_loaded({"s.json": loads(text, f"{label}/s.json")}, label)

    start = time.perf_counter()
    result = compare(sset(HOSTILE, "old"), sset(HOSTILE[:-1] + "b?$", "new"))
    return time.perf_counter() - start, result.change_class.name


def clear_caches() -> None:
    for f in (lang_module._pattern, lang_module._combine, lang_module._included,
              lang_module._piece_dist, lang_module._length, dfa_module.product):
        f.cache_clear()


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] if values else 0.0


def timed(fn) -> tuple[float, object]:
    start = time.perf_counter()
    try:
        out = fn()
    except Unsupported as err:
        out = err
    return time.perf_counter() - start, out


def run_corpus(name: str, patterns: list[str]) -> dict:
    clear_caches()
    compile_times, langs, refused = [], [], 0
    for src in patterns:
        dt, got = timed(lambda src=src: Lang.pattern(src))
        compile_times.append(dt)
        if isinstance(got, Lang):
            langs.append(got)
        else:
            refused += 1
    clear_caches()
    incl_times = []
    pairs = list(zip(langs, langs[1:], strict=False))
    bounded = Lang.length(1, 255)
    for a in langs:
        pairs.append((a & bounded, a))
    for a, b in pairs:
        incl_times.append(timed(lambda a=a, b=b: a <= b)[0])
        incl_times.append(timed(lambda a=a, b=b: b <= a)[0])
    clear_caches()
    example_times = []
    for a in langs:
        example_times.append(timed(lambda a=a: a.examples(8))[0])
        example_times.append(timed(lambda a=a: (~a).examples(8))[0])
    return {
        "corpus": name, "patterns": len(patterns), "refused": refused,
        "compile_total": sum(compile_times), "compile_median": statistics.median(compile_times),
        "compile_max": max(compile_times), "pairs": len(incl_times),
        "incl_median": statistics.median(incl_times), "incl_p99": pct(incl_times, 0.99),
        "incl_total": sum(incl_times), "examples_median": statistics.median(example_times),
        "examples_total": sum(example_times),
    }


def pyformlang_products(patterns: list[str], limit: int = 60) -> tuple[float, float, int] | None:
    """Seconds for the same neighbouring products through our code and through pyformlang."""
    try:
        from pyformlang.finite_automaton import DeterministicFiniteAutomaton
    except ImportError:
        return None
    dfas = []
    for src in patterns[:limit]:
        try:
            dfas.append(Lang.pattern(src)._pieces[0][2])
        except Unsupported:
            continue

    def library(d, keys, side):
        lib = DeterministicFiniteAutomaton()
        lib.add_start_state(0)
        for q in d.finals:
            lib.add_final_state(q)
        for q, row in enumerate(d.delta):
            for k, key in enumerate(keys):
                lib.add_transition(q, k, row[key[side]])
        return lib

    ours = theirs = 0.0
    for a, b in zip(dfas, dfas[1:], strict=False):
        dfa_module.product.cache_clear()
        ours += timed(lambda a=a, b=b: dfa_module.product(a, b, "and"))[0]
        _, keys = dfa_module.refine(a.classes, b.classes)
        start = time.perf_counter()
        library(a, keys, 0).get_intersection(library(b, keys, 1)).to_deterministic().minimize()
        theirs += time.perf_counter() - start
    return ours, theirs, len(dfas) - 1


def main() -> int:
    corpora = [("repository", schema_patterns([ROOT / "spec", ROOT / "tools/evalport_spec/data"])),
               ("hand-written", list(HAND_WRITTEN))]
    public = schema_patterns(vendored_schema_dirs())
    if public:
        corpora.append(("check-jsonschema vendored", public))
    else:
        print("note: check-jsonschema is not installed; the public-schema row is skipped")
    rows, results = [], []
    for name, patterns in corpora:
        r = run_corpus(name, patterns)
        results.append(r)
        rows.append([r["corpus"], r["patterns"], r["refused"], f"{r['compile_total']:.2f}",
                     f"{r['compile_median'] * 1000:.1f}", f"{r['compile_max']:.2f}", r["pairs"],
                     f"{r['incl_median'] * 1000:.2f}", f"{r['incl_p99'] * 1000:.1f}",
                     f"{r['examples_median'] * 1000:.1f}"])
    print(table(rows, ["corpus", "patterns", "refused", "compile s", "median ms", "max s",
                       "inclusions", "incl median ms", "incl p99 ms", "examples median ms"]))
    start = time.perf_counter()
    try:
        Lang.pattern("(a|b)*a(a|b){40}")
        blowup_refused = False
    except BudgetExceeded:
        blowup_refused = True
    blowup = time.perf_counter() - start
    print(f"\nblow-up pattern refused: {blowup_refused} in {blowup:.2f} s")
    start = time.perf_counter()
    try:
        Lang.pattern(HOSTILE)
        hostile_refused = False
    except BudgetExceeded:
        hostile_refused = True
    hostile = time.perf_counter() - start
    hostile_diff, hostile_class = hostile_change()
    print(f"size-budget pattern refused: {hostile_refused} in {hostile:.3f} s; its change "
          f"classified {hostile_class} in {hostile_diff:.2f} s")
    lib = pyformlang_products(public or corpora[0][1])
    if lib:
        print(f"products of {lib[2]} neighbouring pattern automata: ours {lib[0]:.3f} s, "
              f"pyformlang {lib[1]:.3f} s")
    checks = {}
    for r in results:
        checks[f"{r['corpus']}: compile median < 20 ms"] = r["compile_median"] < 0.020
        checks[f"{r['corpus']}: compile max < 2.5 s"] = r["compile_max"] < 2.5
        checks[f"{r['corpus']}: inclusion median < 5 ms"] = r["incl_median"] < 0.005
        checks[f"{r['corpus']}: inclusion p99 < 250 ms"] = r["incl_p99"] < 0.250
        checks[f"{r['corpus']}: examples median < 20 ms"] = r["examples_median"] < 0.020
    checks["blow-up refused within 3 s"] = blowup_refused and blowup < 3
    checks["size-budget pattern refused within 0.1 s"] = hostile_refused and hostile < 0.1
    checks["its change classified MAJOR within 5 s"] = hostile_class == "MAJOR" and hostile_diff < 5
    return report_checks(checks)


if __name__ == "__main__":
    sys.exit(main())
