"""Judge the classifier on corpus pairs: each pair in its own forked process, with time limits.

For one pair (:func:`judge`):

* the classifier runs (``compat.compare`` on the pair's sets, the compared file only);
  ``InputError`` on these valid schemas is a *refusal*, any other exception a *crash*, more than
  ``limit`` seconds of CPU a *timeout* (the kernel's ``RLIMIT_CPU`` ends the process, so the
  budget does not shrink when the machine is busy; ``WALL_FACTOR`` times it in wall-clock
  seconds also ends it, for a process that waits instead of computing);
* every backward MAJOR finding that is decided must carry a witness valid under old and invalid
  under new by python-jsonschema and jsonschema-rs, else it is a *bad witness*;
* the pair is *undecided* when a finding is undecided, or the class is MAJOR with no decided
  backward finding;
* a MINOR or PATCH verdict, and an undecided one, is searched for a lost document
  (:func:`.search.find_lost`): one found is an *unsound verdict* (for undecided pairs it only
  says the MAJOR was right); a PATCH is also searched the other way (a *missed gain*: the new
  schema accepts more, so the class should be MINOR). The search has its own time limit;
* a pair whose schema one validator cannot compile is *abstained* (the oracle needs both).

The records are plain dicts (JSON-ready); :func:`summarize` turns them into the figures.
"""

from __future__ import annotations

import json
import math
import os
import resource
import select
import signal
import statistics
import time
import traceback
from collections import Counter
from collections.abc import Callable
from typing import Any

from evalport_spec.errors import InputError

from .corpus import Pair
from .oracle import Validators, classify, lost, witness_of
from .search import find_lost

MEMORY_LIMIT = 3 << 30
"""Address-space limit of each pair's process (bytes): a blow-up is a crash, not a dead machine."""

WALL_FACTOR = 6
"""A pair still unclassified after ``WALL_FACTOR * limit`` wall-clock seconds is a timeout too."""


def judge(pair: Pair, send: Callable[[dict], None], *, search_limit: float = 8.0,
          search_kw: dict | None = None) -> None:
    """Judge one pair; ``send`` receives the classification record, then the search record
    (``search_kw``: extra arguments of :func:`.search.find_lost`)."""
    t0, c0 = time.perf_counter(), time.process_time()
    try:
        result = classify(pair.old, pair.new, focus=pair.focus, format_assertion=pair.format_assertion)
    except InputError as exc:
        send({"phase": "classified", "status": "refused", "detail": str(exc)[:300],
              "seconds": time.perf_counter() - t0})
        return
    except Exception as exc:  # noqa: BLE001 - a crash is what this records
        tb = traceback.extract_tb(exc.__traceback__)[-1]
        send({"phase": "classified", "status": "crash", "seconds": time.perf_counter() - t0,
              "detail": f"{type(exc).__name__}: {str(exc)[:200]} ({os.path.basename(tb.filename)}:{tb.lineno})"})
        return
    secs, cpu = time.perf_counter() - t0, time.process_time() - c0
    _lift_cpu_limit()
    vo = Validators(pair.old, pair.focus, format_assertion=pair.format_assertion)
    vn = Validators(pair.new, pair.focus, format_assertion=pair.format_assertion)
    back = [f for f in result.findings if f.direction == "backward" and str(f.change_class) == "MAJOR"]
    undecided = [f for f in result.findings if f.undecided or f.kind == "undecided"]
    verdict = str(result.change_class)
    rec: dict[str, Any] = {
        "phase": "classified", "status": "ok", "seconds": secs, "cpu_seconds": cpu, "verdict": verdict,
        "forward": str(result.forward_class), "findings": len(result.findings),
        "undecided": bool(undecided) or (verdict == "MAJOR" and not any(not f.undecided for f in back)),
        "reasons": sorted({str(f.extra.get("reason", f.message))[:160] for f in undecided})[:3],
        "abstained": vo.errors + vn.errors, "bad_witness": []}
    if not rec["abstained"]:
        for f in back:
            if f.undecided:
                continue
            w = witness_of(f)
            if w is None or not lost(vo, vn, w[0]):
                rec["bad_witness"].append({
                    "kind": f.kind, "witness": None if w is None else w[0],
                    "old": [vo.py(w[0]), vo.rs(w[0])] if w else None,
                    "new": [vn.py(w[0]), vn.rs(w[0])] if w else None})
    send(rec)
    out: dict[str, Any] = {"phase": "searched"}
    if not rec["abstained"] and (verdict != "MAJOR" or rec["undecided"]):
        deadline = time.monotonic() + search_limit
        kw = {"format_assertion": pair.format_assertion, "deadline": deadline, **(search_kw or {})}
        hit = find_lost(vo, vn, pair.old, **kw)
        if hit is not None:
            out["lost"] = hit[0]
        if verdict == "PATCH" and str(result.forward_class) == "PATCH" and time.monotonic() < deadline:
            gain = find_lost(vn, vo, pair.new, **kw)
            if gain is not None:
                out["gained"] = gain[0]
    send(out)


def _lift_cpu_limit() -> None:
    """Lift the classifier's CPU budget (the search that follows has its own wall-clock limit)."""
    try:
        resource.setrlimit(resource.RLIMIT_CPU, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
    except (ValueError, OSError):
        pass


def _child(pair: Pair, fd: int, limit: float, search_limit: float, search_kw: dict | None) -> None:
    try:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
    except (ValueError, OSError):
        pass
    try:  # the soft limit sends SIGXCPU (ends the process); the hard limit stays open so it can be lifted
        used = resource.getrusage(resource.RUSAGE_SELF)
        spent = used.ru_utime + used.ru_stime
        resource.setrlimit(resource.RLIMIT_CPU, (max(1, math.ceil(spent + limit)), resource.RLIM_INFINITY))
    except (ValueError, OSError):
        pass
    with os.fdopen(fd, "w") as w:
        def send(d: dict) -> None:
            w.write(json.dumps(d, default=repr) + "\n")
            w.flush()
        try:
            judge(pair, send, search_limit=search_limit, search_kw=search_kw)
        except BaseException as exc:  # noqa: BLE001 - report, then exit
            send({"phase": "error", "detail": f"{type(exc).__name__}: {str(exc)[:200]}"})


def run(pairs: list[Pair], *, jobs: int = 1, limit: float = 30.0, search_limit: float = 8.0,
        search_kw: dict | None = None, progress: Callable[[int, dict], None] | None = None) -> list[dict]:
    """Judge every pair, ``jobs`` at a time, each in a forked process; one record per pair, in
    order. ``limit``: classifier CPU seconds before the pair is a timeout (or ``WALL_FACTOR``
    times as many wall-clock seconds); ``search_limit``: the
    counter-example search's seconds (past them the search is cut, and recorded as cut);
    ``search_kw``: extra arguments of :func:`.search.find_lost`; ``progress(done, record)``."""
    records: list[dict | None] = [None] * len(pairs)
    todo = list(range(len(pairs)))[::-1]
    running: dict[int, dict] = {}  # read fd -> state
    done = 0
    while todo or running:
        while todo and len(running) < max(1, jobs):
            i = todo.pop()
            r, w = os.pipe()
            pid = os.fork()
            if pid == 0:  # the child: judge, report through the pipe, leave without cleanup
                os.close(r)
                try:
                    _child(pairs[i], w, limit, search_limit, search_kw)
                finally:
                    os._exit(0)
            os.close(w)
            p = pairs[i]
            running[r] = {"i": i, "pid": pid, "buf": b"", "start": time.monotonic(),
                          "deadline": time.monotonic() + WALL_FACTOR * limit,
                          "rec": {"id": p.id, "source": p.source, "operator": p.operator}, "classified": False}
        ready, _, _ = select.select(list(running), [], [], 0.2)
        now = time.monotonic()
        for r in list(running):
            st = running[r]
            eof = False
            if r in ready:
                chunk = os.read(r, 1 << 16)
                eof = not chunk
                st["buf"] += chunk
                *lines, st["buf"] = st["buf"].split(b"\n")
                for line in lines:
                    msg = json.loads(line)
                    phase = msg.pop("phase")
                    if phase == "classified":
                        st["classified"] = True
                        st["deadline"] = now + search_limit + 10
                    if phase == "error" and st["classified"]:
                        msg = {"search": "error: " + msg["detail"]}
                    elif phase == "error":
                        msg = {"status": "crash", "detail": msg["detail"]}
                    st["rec"].update(msg)
            timed_out = not eof and now > st["deadline"]
            if not (eof or timed_out):
                continue
            if timed_out:
                os.kill(st["pid"], signal.SIGKILL)
            _, status, usage = os.wait4(st["pid"], 0)
            os.close(r)
            rec = st["rec"]
            rec["peak_mib"] = round(usage.ru_maxrss / 1024)
            if not st["classified"]:
                rec.setdefault("seconds", now - st["start"])
                rec.setdefault("cpu_seconds", usage.ru_utime + usage.ru_stime)
                out_of_cpu = os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGXCPU
                if timed_out or out_of_cpu:
                    rec.update(status="timeout", detail=f"no verdict after {limit:g} s of CPU"
                               if out_of_cpu else f"no verdict after {WALL_FACTOR * limit:g} s")
                elif "status" not in rec:
                    code = os.waitstatus_to_exitcode(status)
                    rec.update(status="crash", detail=f"process ended ({'signal ' + str(-code) if code < 0 else 'exit ' + str(code)}),"
                               " e.g. out of memory")
            elif timed_out:
                rec["search"] = "cut"
            records[st["i"]] = rec
            del running[r]
            done += 1
            if progress:
                progress(done, rec)
    return [r for r in records if r is not None]


def _share(k: int, n: int) -> str:
    return f"{k} ({100 * k / n:.1f}%)" if n else "0"


def summarize(records: list[dict]) -> dict[str, Any]:
    """The figures over judged pairs: counts and shares, times, and a few examples of each
    problem (``examples``: ``{problem: [record, ...]}``)."""
    n = len(records)
    ok = [r for r in records if r.get("status") == "ok"]
    secs = sorted(r.get("cpu_seconds", r.get("seconds")) for r in records if "seconds" in r)
    unsound = [r for r in ok if r["verdict"] != "MAJOR" and "lost" in r]
    undecided = [r for r in ok if r["undecided"]]
    bad = [r for r in ok if r["bad_witness"]]
    gained = [r for r in ok if "gained" in r]
    by = Counter(r.get("status") for r in records)
    return {
        "pairs": n, "sources": dict(Counter(r["source"] for r in records)),
        "verdicts": dict(Counter(r.get("verdict", r.get("status")) for r in records)),
        "undecided": len(undecided), "undecided_share": len(undecided) / n if n else 0.0,
        "undecided_but_lost_found": sum(1 for r in undecided if "lost" in r),
        "unsound": len(unsound), "bad_witness": len(bad), "missed_gain": len(gained),
        "crash": by["crash"], "refused": by["refused"], "timeout": by["timeout"],
        "search_cut": sum(1 for r in records if r.get("search") == "cut"),
        "abstained": sum(1 for r in ok if r.get("abstained")),
        "median_cpu_s": statistics.median(secs) if secs else 0.0,
        "p95_cpu_s": secs[min(len(secs) - 1, int(0.95 * len(secs)))] if secs else 0.0,
        "max_peak_mib": max((r.get("peak_mib", 0) for r in records), default=0),
        "examples": {"unsound": unsound[:8], "bad_witness": bad[:8], "crash": [r for r in records if r.get("status") == "crash"][:8],
                     "refused": [r for r in records if r.get("status") == "refused"][:8],
                     "timeout": [r for r in records if r.get("status") == "timeout"][:8],
                     "missed_gain": gained[:5], "undecided": undecided[:5]},
    }


def report(summary: dict[str, Any]) -> str:
    """The summary as text: one line of figures, then the examples, one line each."""
    s, n = summary, summary["pairs"]
    lines = [f"pairs {n} {s['sources']}", f"verdicts {s['verdicts']}",
             f"UNDECIDED {_share(s['undecided'], n)} (of them {s['undecided_but_lost_found']} with a lost "
             f"document found by the oracle); unsound {s['unsound']}; bad witnesses {s['bad_witness']}; "
             f"crashes {s['crash']}; refusals {s['refused']}; timeouts {s['timeout']}; missed gains (PATCH "
             f"that should be MINOR) {s['missed_gain']}; searches cut {s['search_cut']}; abstained {s['abstained']}",
             f"classifier CPU seconds: median {s['median_cpu_s']:.2f}, p95 {s['p95_cpu_s']:.2f}; max peak {s['max_peak_mib']} MiB"]
    for problem, recs in s["examples"].items():
        for r in recs:
            what = {"unsound": lambda r: f"{r['verdict']} but loses {json.dumps(r.get('lost'), default=repr)[:120]}",
                    "bad_witness": lambda r: json.dumps(r["bad_witness"][0], default=repr)[:160],
                    "missed_gain": lambda r: f"PATCH but gains {json.dumps(r.get('gained'), default=repr)[:120]}",
                    "undecided": lambda r: "; ".join(r.get("reasons", []))[:160]}.get(
                problem, lambda r: str(r.get("detail", ""))[:160])(r)
            lines.append(f"  {problem:12} {r['id']}: {what}")
    return "\n".join(lines)
