"""Write a large, realistic EvalPort ResultSet for benchmarks.

    python benchmarks/make_large_resultset.py OUT.json --results 100000 [--seed S] [--pool P]

100,000 Results = 20,000 test cases x 5 attempts of one run (about 50-100 MB). The document is
valid under ``spec/schemas/resultset.json`` (format assertion on) and breaks no cross-field rule
of evalport-model.md: ``(test_case_id, run_id, attempt)`` is unique; one isolation value is in
effect per repetition group (the ResultSet's ``fresh``, or ``shared`` carried by every attempt
of a group); a GraderResult with a null score has ``passed: false``; a Result whose scores are
all null has ``passed: false``; ``summary`` counts match the Results.

The file is streamed: one Result is serialised at a time and written to a temporary file that is
renamed over ``OUT`` at the end, so the whole document is never held as one string.
:func:`build` returns the same document as a ``dict`` (for tests, with small ``n``).

``--pool P`` (:func:`stream_pooled`) writes gigabytes quickly: P Results are generated once and
then repeated, each copy under its own ``test_case_id``/``attempt`` (and ``isolation`` where its
group overrides it), so every rule still holds and ``summary`` still counts the Results.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, TextIO

ATTEMPTS = 5
RUN_ID = "run-2026-11-02-bench"
STARTED = datetime(2026, 11, 2, 9, 0, 0, tzinfo=UTC)
GRADERS = [
    ("exact", "exact_match", 1.0),
    ("mentions-policy", "contains", 1.0),
    ("answer-relevance", "semantic_similarity", 0.8),
    ("faithfulness", "llm_judge", 0.7),
    ("json-valid", "json_schema", 1.0),
    ("human-review", "human", 0.5),
]
_WORDS = ("the refund window is thirty days from delivery for unopened items and store credit "
          "applies after that period customers may contact support through chat email or phone "
          "orders shipped internationally follow the regional policy described in article").split()
_REASONS = ["matched the reference answer", "cosine similarity above the threshold",
            "judge found the answer grounded in the retrieved context",
            "output did not mention the policy", "no score: the judge timed out"]


def _stamp(seconds: float) -> str:
    return (STARTED + timedelta(seconds=seconds)).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


def _header(seed: int) -> dict[str, Any]:
    return {
        "$schema": "https://evalport.github.io/spec/draft/schemas/resultset.json",
        "version": "1.3.0",
        "suite_id": "acme-support-bench",
        "suite_version": "2026-11-01",
        "run_id": RUN_ID,
        "started_at": _stamp(0),
        "provider": {"model": "gpt-4o-mini", "api_key_env": "OPENAI_API_KEY", "temperature": 0.7,
                     "max_tokens": 512},
        "runner": {"name": "acme-evalrunner", "version": "4.2.1"},
        "isolation": "fresh",
        "group": {"group_id": f"bench-{seed}", "role": "baseline", "label": "benchmark run",
                  "sequence": 0},
    }


def _results(n: int, seed: int, stats: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """Yield ``n`` Results (test case ``tc-00000`` attempts 1..5, then ``tc-00001`` ...),
    accumulating summary counts into ``stats``."""
    rng = random.Random(seed)
    clock = 0.0
    for i in range(n):
        tc, attempt = divmod(i, ATTEMPTS)
        shared = tc % 10 == 7  # every attempt of these groups overrides the ResultSet's isolation
        k = rng.randint(1, 4)
        graders = rng.sample(GRADERS, k)
        grader_results = []
        for gid, gtype, threshold in graders:
            score = None if rng.random() < 0.05 else round(rng.random() ** 0.5, 4)
            gr: dict[str, Any] = {"grader_id": gid, "type": gtype, "score": score,
                                  "passed": score is not None and score >= threshold,
                                  "reason": _REASONS[4] if score is None else rng.choice(_REASONS[:4])}
            if gtype == "llm_judge":
                gr["metadata"] = {"judge_model": "gpt-4o", "tokens": rng.randint(200, 900)}
            grader_results.append(gr)
            stats["by_grader"].setdefault(gid, {"applied": 0, "passed": 0})
            stats["by_grader"][gid]["applied"] += 1
            stats["by_grader"][gid]["passed"] += int(gr["passed"])
            if score is not None:
                stats["scores"].append(score)
        error = rng.random() < 0.02
        passed = (not error and all(g["passed"] for g in grader_results)
                  and any(g["score"] is not None for g in grader_results))
        duration = rng.randint(300, 4000)
        clock += duration / 1000
        words = rng.choices(_WORDS, k=rng.randint(30, 55))
        result: dict[str, Any] = {
            "test_case_id": f"tc-{tc:05d}",
            "attempt": attempt + 1,
            "actual_output": " ".join(words).capitalize() + ".",
            "grader_results": grader_results,
            "passed": passed,
            "completed_at": _stamp(clock),
            "duration_ms": duration,
            "metadata": {"trace_id": f"{rng.getrandbits(64):016x}",
                         "tokens": {"prompt": rng.randint(300, 1500), "completion": len(words) * 2}},
        }
        if shared:
            result["isolation"] = "shared"
        if error:
            result["error"] = {"type": "timeout", "message": "provider did not answer within 30000 ms",
                               "code": 504, "retryable": True}
        stats["total"] += 1
        stats["passed"] += int(passed)
        stats["duration_ms"] += duration
        stats["clock"] = clock
        yield result


def _new_stats() -> dict[str, Any]:
    return {"total": 0, "passed": 0, "duration_ms": 0, "scores": [], "by_grader": {}, "clock": 0.0}


def _tail(stats: dict[str, Any]) -> dict[str, Any]:
    total, passed = stats["total"], stats["passed"]
    scores = stats["scores"]
    return {
        "completed_at": _stamp(stats["clock"] + 1),
        "summary": {
            "total": total, "passed": passed, "failed": total - passed, "skipped": 0,
            "pass_rate": round(passed / total, 4) if total else 0,
            "avg_score": round(sum(scores) / len(scores), 4) if scores else 0,
            "duration_ms": stats["duration_ms"],
            "by_grader": {k: dict(v) for k, v in sorted(stats["by_grader"].items())},
        },
        "metadata": {"generator": "benchmarks/make_large_resultset.py", "attempts_per_test_case": ATTEMPTS},
    }


def build(n: int, seed: int = 0) -> dict[str, Any]:
    """The ResultSet with ``n`` Results as a ``dict`` (same content as :func:`write`)."""
    stats = _new_stats()
    doc = _header(seed)
    doc["results"] = list(_results(n, seed, stats))
    doc.update(_tail(stats))
    return doc


def stream(out: TextIO, n: int, seed: int = 0) -> None:
    """Write the ResultSet with ``n`` Results to ``out`` as JSON, one Result at a time."""
    stats = _new_stats()
    header = json.dumps(_header(seed), ensure_ascii=False)
    out.write(header[:-1] + ', "results": [\n')
    for i, result in enumerate(_results(n, seed, stats)):
        if i:
            out.write(",\n")
        out.write(json.dumps(result, ensure_ascii=False))
    tail = json.dumps(_tail(stats), ensure_ascii=False)
    out.write("\n], " + tail[1:] + "\n")


def _pool(size: int, seed: int) -> list[tuple[str, dict[str, Any]]]:
    """``size`` Results serialised without ``test_case_id``, ``attempt`` and ``isolation``
    (``'"actual_output": ...}'``), each with the summary counts it contributes."""
    pool = []
    for result in _results(size, seed, _new_stats()):
        own = _new_stats()
        own["total"], own["passed"], own["duration_ms"] = 1, int(result["passed"]), result["duration_ms"]
        for gr in result["grader_results"]:
            entry = own["by_grader"].setdefault(gr["grader_id"], {"applied": 0, "passed": 0})
            entry["applied"] += 1
            entry["passed"] += int(gr["passed"])
            if gr["score"] is not None:
                own["scores"].append(gr["score"])
        body = {k: v for k, v in result.items() if k not in ("test_case_id", "attempt", "isolation")}
        pool.append((json.dumps(body, ensure_ascii=False)[1:], own))
    return pool


def stream_pooled(out: TextIO, n: int, seed: int = 0, pool_size: int = 2000) -> None:
    """Write a ResultSet of ``n`` Results cycling through a pool of ``pool_size`` generated
    ones (module docstring): Result ``i`` is test case ``i // 5``, attempt ``i % 5 + 1``, with
    ``isolation: "shared"`` on every attempt of the test cases :func:`_results` marks shared."""
    pool = _pool(min(pool_size, n), seed)
    stats = _new_stats()
    score_sum, scored = 0.0, 0
    header = json.dumps(_header(seed), ensure_ascii=False)
    out.write(header[:-1] + ', "results": [\n')
    for i in range(n):
        tc, attempt = divmod(i, ATTEMPTS)
        body, own = pool[i % len(pool)]
        shared = '"isolation": "shared", ' if tc % 10 == 7 else ""
        sep = ",\n" if i else ""
        out.write(f'{sep}{{"test_case_id": "tc-{tc:05d}", "attempt": {attempt + 1}, {shared}{body}')
        stats["total"] += 1
        stats["passed"] += own["passed"]
        stats["duration_ms"] += own["duration_ms"]
        score_sum += sum(own["scores"])
        scored += len(own["scores"])
        for gid, counts in own["by_grader"].items():
            entry = stats["by_grader"].setdefault(gid, {"applied": 0, "passed": 0})
            entry["applied"] += counts["applied"]
            entry["passed"] += counts["passed"]
    tail = _tail(stats)
    tail["summary"]["avg_score"] = round(score_sum / scored, 4) if scored else 0
    out.write("\n], " + json.dumps(tail, ensure_ascii=False)[1:] + "\n")


def write(path: str | os.PathLike[str], n: int, seed: int = 0, pool: int | None = None) -> int:
    """Stream the ResultSet to ``path`` atomically (temporary file + rename), pooled
    (:func:`stream_pooled`) when ``pool`` is given. Returns its size."""
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".tmp", dir=p.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", buffering=1 << 20) as fh:
            if pool:
                stream_pooled(fh, n, seed, pool)
            else:
                stream(fh, n, seed)
        os.chmod(tmp, 0o644)  # mkstemp creates 0600; give the usual mode of a written file
        os.replace(tmp, p)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return p.stat().st_size


def main(argv: list[str] | None = None) -> int:
    """Command line entry point; returns the exit code (2 on bad arguments or an unwritable path)."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out", help="output JSON file")
    ap.add_argument("--results", type=int, default=100_000, help="number of Results (default 100000)")
    ap.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    ap.add_argument("--pool", type=int, default=None, metavar="P",
                    help="repeat a pool of P generated Results (fast, for gigabyte files)")
    args = ap.parse_args(argv)
    if args.results < 1:
        print("make_large_resultset: error: --results must be at least 1 (a ResultSet needs a Result)",
              file=sys.stderr)
        return 2
    start = time.perf_counter()
    try:
        size = write(args.out, args.results, args.seed, args.pool)
    except OSError as exc:
        print(f"make_large_resultset: error: {args.out}: {exc.strerror}", file=sys.stderr)
        return 2
    print(f"{args.out}: {args.results} results, {size / 1e6:.1f} MB in {time.perf_counter() - start:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
