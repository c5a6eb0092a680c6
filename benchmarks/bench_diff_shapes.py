"""The classifier on issue 16's blow-up shapes and large real schemas: time, peak memory, verdict.

Each case runs once in a forked child (killed after ``--timeout`` s): time is ``compat.compare``'s
CPU seconds alone (the sets are read before it; CPU, not wall clock, on a shared machine), peak
memory the child's peak RSS (the parent's imported modules included). ``--only TEXT`` keeps the
cases whose label holds TEXT. The verdict is
checked against the class worked out by hand (``compat_corpus.shapes`` states it), and every
backward MAJOR finding's witness against python-jsonschema and jsonschema-rs.

Cases: ``oneOf`` nested 3/6/9 deep (two closed object branches a level, the leaf's ``maxLength``
raised: MINOR); eight identical 4-branch ``anyOf`` groups with one unrelated bound raised (MINOR);
a string ``enum`` of 5,000/10,000/50,000 values with one removed (MAJOR, one finding) and of 5,000
losing 2,500 (MAJOR, 2,500 findings: issue 20); a ``oneOf`` of 5,000 six-character string
``const``s against ``maxLength`` 5 (MAJOR, 5,000 findings); a ``$ref`` chain of 1,000/5,000 links with a
``description`` added at its end (PATCH); the draft ``grader.json`` with one ``then``
tightened (MAJOR) and with each ``if``/``then`` split into an ``anyOf`` of its cases (PATCH);
check-jsonschema's vendored renovate.json, azure-pipelines.json and mergify.json against
themselves with keys reordered (PATCH without the byte-identity shortcut), with one ``enum``
value removed (MAJOR), one ``description`` changed (PATCH) and one property added (MINOR on a
closed object, MAJOR on an open one).

Peer: jsoncompat (``check_compat(old, new, "deserializer")``, i.e. backward) on mergify.json
against itself and against a copy with one ``title`` edited, as a whole process, beside
``evalport-spec diff`` as a whole process: cold (an empty ``$EVALPORT_CACHE_DIR``: the comparison
computed and stored) and, on the self pair, warm (the stored report replayed,
:mod:`evalport_spec.diffcache`), CPU seconds, median of 5. jsoncompat
needs Python >= 3.12: point ``$EVALPORT_PEER_JSONCOMPAT`` at such a Python with jsoncompat
installed (default ``/tmp/peer-jsoncompat/bin/python``); the row is skipped, with a note, without it.

Targets (issues 16 and 20): nested ``oneOf`` depth 9 < 1 s; the ``anyOf`` groups < 1 s and
< 200 MiB; the 50,000-value enum < 1 s; 2,500 findings in < 1 s; the 5,000 string consts < 2 s; grader.json < 2 s; the 5,000-link chain < 2 s; each large
schema case < 2 s and < 300 MiB with the right verdict; mergify self, cold and warm, no slower than
jsoncompat (the edited-title figure is printed beside them).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "tools"), str(ROOT / "tests")]

from _measure import PROCESS_ENV, forked, report_checks, run_process, table  # noqa: E402

from compat_corpus import shapes  # noqa: E402
from compat_corpus.oracle import Validators, lost, schema_set, witness_of  # noqa: E402
from compat_corpus.sources import vendored  # noqa: E402
from evalport_spec.compat import compare  # noqa: E402

PEER_DEFAULT = "/tmp/peer-jsoncompat/bin/python"
PEER_SCRIPT = ("import sys, jsoncompat; a, b = (open(p, encoding='utf-8').read() for p in sys.argv[1:3]); "
               "sys.exit(0 if jsoncompat.check_compat(a, b, 'deserializer') else 1)")


@dataclass
class Case:
    """One comparison with its expected classes and targets (``None``: figure only)."""

    label: str
    old: dict
    new: dict
    expect: tuple[str, ...]
    seconds: float | None = None
    mib: float | None = None
    findings: int | None = None  # backward MAJOR findings expected (issue 20)
    focus: str | None = None
    notes: list[str] = field(default_factory=list)


def _one(schema: Any, name: str = "s.json") -> dict:
    return {name: schema}


def build_cases(skip_large: bool) -> tuple[list[Case], list[str]]:
    cases: list[Case] = []
    notes: list[str] = []
    for depth in (3, 6, 9):
        cases.append(Case(f"oneOf nested depth {depth}", _one(shapes.nested_oneof(depth, 10)),
                          _one(shapes.nested_oneof(depth, 20)), ("MINOR",), 1.0 if depth == 9 else None))
    cases.append(Case("8 identical 4-branch anyOf groups, one bound raised", _one(shapes.anyof_groups(8, 10)),
                      _one(shapes.anyof_groups(8, 20)), ("MINOR",), 1.0, 200))
    for size in (5_000, 10_000, 50_000):
        old, new = shapes.big_enum(size, 1)
        cases.append(Case(f"enum of {size:,} values, one removed", _one(old), _one(new), ("MAJOR",),
                          1.0 if size == 50_000 else None, findings=1))
    for size in (80, 200, 1_000):  # an enum written as a oneOf of constants (red team b08: n³ before)
        consts = [{"const": i} for i in range(size)]
        cases.append(Case(f"oneOf of {size} consts, one added", _one({"oneOf": consts}),
                          _one({"oneOf": [*consts, {"const": "x"}]}), ("MINOR",), 2.0 if size == 80 else None))
        cases.append(Case(f"oneOf of {size} consts, last narrowed", _one({"oneOf": consts}),
                          _one({"oneOf": [*consts[:-1], {"const": size - 1, "type": "string"}]}), ("MAJOR",),
                          2.0 if size == 80 else None))
    strings = [{"const": f"v{i:05d}"} for i in range(5_000)]  # red team, session 33: 250 s before
    cases.append(Case("oneOf of 5,000 string consts against maxLength 5", _one({"oneOf": strings}),
                      _one({"type": "string", "maxLength": 5}), ("MAJOR",), 2.0, findings=5_000))
    cases.append(Case("oneOf of 5,000 string consts with a pattern against maxLength 5",
                      _one({"oneOf": strings, "pattern": "^v\\d+$"}), _one({"type": "string", "maxLength": 5}),
                      ("MAJOR",), 2.0, findings=5_000))
    for size in (40, 150):  # objects told apart by a "kind" constant (undecided at 150 before: 3^n cases)
        tagged = [{"type": "object", "properties": {"kind": {"const": f"k{i}"}, "value": {"type": "string"}},
                   "required": ["kind"]} for i in range(size)]
        narrowed = [*tagged[:-1], {**tagged[-1], "required": ["kind", "value"]}]
        cases.append(Case(f"oneOf of {size} tagged objects, last narrowed", _one({"oneOf": tagged}),
                          _one({"oneOf": narrowed}), ("MAJOR",), 2.0 if size == 40 else None))
    for links in (1_000, 5_000):  # fresh user, session 34: each reference walked the rest of the chain (70 s)
        chain = {"$ref": "#/$defs/d0", "$defs": {f"d{i}": {"$ref": f"#/$defs/d{i + 1}"} for i in range(links)}}
        chain["$defs"][f"d{links}"] = {"type": "string"}
        noted = json.loads(json.dumps(chain))
        noted["$defs"][f"d{links}"]["description"] = "the end of the chain"
        cases.append(Case(f"$ref chain of {links:,} links, last one's description added", _one(chain), _one(noted),
                          ("PATCH",), 2.0 if links == 5_000 else None))
    old, new = shapes.big_enum(5_000, 2_500)
    cases.append(Case("enum of 5,000 values losing 2,500", _one(old), _one(new), ("MAJOR",), 1.0, findings=2_500))
    grader = json.loads((ROOT / "spec" / "schemas" / "grader.json").read_text(encoding="utf-8"))
    tight = shapes.edited(grader, "/allOf/1/then/properties/params/properties/pattern",
                          lambda s: s.update(minLength=1))
    cases.append(Case("grader.json, one then tightened", _one(grader, "grader.json"), _one(tight, "grader.json"),
                      ("MAJOR",), 2.0))
    cases.append(Case("grader.json, if/then split into anyOf cases", _one(grader, "grader.json"),
                      _one(shapes.split_if_then(grader), "grader.json"), ("PATCH",), 2.0))
    if skip_large:
        notes.append("large vendored schemas skipped (--skip-large)")
        return cases, notes
    for name in ("renovate.json", "azure-pipelines.json", "mergify.json"):
        try:
            s = vendored(name)
        except FileNotFoundError as exc:
            notes.append(str(exc))
            continue
        size = len(json.dumps(s)) / 1e6
        cases.append(Case(f"{name} ({size:.1f} MB) self, keys reordered", _one(s, name),
                          _one(shapes.keys_reversed(s), name), ("PATCH",), 2.0, 300))
        for what, edit, expect in (("one enum value removed", shapes.enum_value_removed, ("MAJOR",)),
                                   ("one description changed", shapes.description_changed, ("PATCH",)),
                                   ("one property added", shapes.property_added, ("MINOR", "MAJOR"))):
            new, ptr = edit(s)
            cases.append(Case(f"{name} {what} ({ptr or '/'})", _one(s, name), _one(new, name), expect, 2.0, 300))
    return cases, notes


def judge(case: Case) -> dict:
    """In the child: classify, then check the witnesses (time: the classification's CPU seconds alone)."""
    sets = schema_set(case.old, "old"), schema_set(case.new, "new")  # reading the files is not timed
    t = time.process_time()
    r = compare(*sets)
    secs = time.process_time() - t
    name = next(iter(case.old))
    back = [f for f in r.findings if f.direction == "backward" and str(f.change_class) == "MAJOR"]
    bad = 0
    undecided = sum(1 for f in r.findings if f.undecided)
    if back:
        vo, vn = Validators(case.old, name), Validators(case.new, name)
        for f in back:
            w = witness_of(f)
            if not f.undecided and (w is None or not lost(vo, vn, w[0])):
                bad += 1
    return {"seconds": secs, "class": str(r.change_class), "back": len(back), "undecided": undecided, "bad": bad}


def problems(case: Case, res: dict) -> list[str]:
    out = []
    if res["class"] not in case.expect:
        out.append(f"class {res['class']}, expected {'/'.join(case.expect)}")
    if res["undecided"]:
        out.append(f"{res['undecided']} undecided")
    if res["bad"]:
        out.append(f"{res['bad']} witnesses not confirmed")
    if case.findings is not None and res["back"] != case.findings:
        out.append(f"{res['back']} backward findings, expected {case.findings:,}")
    return out


def titled(schema: dict) -> dict:
    """``schema`` with the ``title`` of its first ``$defs`` entry (by name) that has one edited:
    an annotation, so backward and forward PATCH, found by a real comparison (no byte identity)."""
    out = json.loads(json.dumps(schema))
    name = next(n for n in sorted(out["$defs"]) if isinstance(out["$defs"][n], dict) and "title" in out["$defs"][n])
    out["$defs"][name]["title"] += " (edited)"
    return out


def peer_rows(timeout: float) -> tuple[list[list[str]], str | None, dict[str, bool]]:
    """(rows, note, checks): jsoncompat's process and ``evalport-spec diff``'s, CPU seconds (median
    of 5), on mergify.json against itself and against a copy with one ``title`` edited
    (:func:`titled`). Ours runs cold (an empty cache folder each run: the comparison computed
    and stored) and, on the self pair, warm (the report replayed,
    :mod:`evalport_spec.diffcache`). Checks: self, cold and warm, no slower than jsoncompat."""
    py = os.environ.get("EVALPORT_PEER_JSONCOMPAT", PEER_DEFAULT)
    try:
        ok = subprocess.run([py, "-c", "import jsoncompat"], capture_output=True, timeout=60).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        ok = False
    if not ok:
        return [], ("peer jsoncompat not installed (it needs Python >= 3.12): `python3.12 -m venv "
                      f"/tmp/peer-jsoncompat && /tmp/peer-jsoncompat/bin/pip install jsoncompat`, or set "
                      f"$EVALPORT_PEER_JSONCOMPAT; peer row skipped (looked for {py})"), {}
    try:
        s = vendored("mergify.json")
    except FileNotFoundError as exc:
        return [], str(exc), {}
    rows, checks = [], {}
    with tempfile.TemporaryDirectory(prefix="bench-shapes-") as tmp:
        paths = {}
        for side, value in (("a", s), ("b", s), ("t", titled(s))):
            paths[side] = Path(tmp, side, "mergify.json")
            paths[side].parent.mkdir()
            paths[side].write_text(json.dumps(value, indent=1), encoding="utf-8")
        for label, new in (("self", paths["b"]), ("one title edited", paths["t"])):
            a, b = str(paths["a"]), str(new)
            peer = run_process([py, "-c", PEER_SCRIPT, a, b], repeat=5, label="jsoncompat")
            peer_text = (f"jsoncompat {peer.cpu:.2f} s, {peer.peak_mib:.0f} MiB, exit {peer.exit_codes[0]} "
                         f"({'compatible' if peer.exit_codes[0] == 0 else 'incompatible'})")
            ours = [sys.executable, "-m", "evalport_spec", "diff", a, b]
            cold = [run_process(ours, repeat=1, env={**PROCESS_ENV, "EVALPORT_CACHE_DIR": str(Path(tmp, f"{label}{i}"))})
                    for i in range(5)]
            cold_cpu = statistics.median(r.cpu for r in cold)
            rows.append([f"mergify.json {label}, process, cold (empty cache)",
                         "<= jsoncompat" if label == "self" else "- (figure)", f"{cold_cpu:.2f}",
                         f"{max(r.peak_mib for r in cold):.0f}", f"exit {cold[0].exit_codes[0]}",
                         f"{peer_text}; ratio {cold_cpu / peer.cpu:.2f}" if peer.cpu else peer_text])
            if label != "self":
                continue
            checks["mergify self process (cold) no slower than jsoncompat's"] = cold_cpu <= peer.cpu
            warm_env = {**PROCESS_ENV, "EVALPORT_CACHE_DIR": str(Path(tmp, "warm"))}
            run_process(ours, repeat=1, env=warm_env)  # fills the cache
            warm = run_process(ours, repeat=5, env=warm_env)
            rows.append(["mergify.json self, process, warm (cache hit)", "<= jsoncompat", f"{warm.cpu:.2f}",
                         f"{warm.peak_mib:.0f}", f"exit {warm.exit_codes[0]}",
                         f"{peer_text}; ratio {warm.cpu / peer.cpu:.2f}" if peer.cpu else peer_text])
            checks["mergify self process (warm cache) no slower than jsoncompat's"] = warm.cpu <= peer.cpu
    return rows, None, checks


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--timeout", type=float, default=120.0, help="seconds before a case is killed")
    ap.add_argument("--skip-large", action="store_true", help="skip the vendored schemas")
    ap.add_argument("--only", metavar="TEXT", help="run only the cases whose label contains TEXT")
    args = ap.parse_args(argv)
    cases, notes = build_cases(args.skip_large)
    if args.only:
        cases = [c for c in cases if args.only in c.label]
    rows, checks = [], {}
    for case in cases:
        res, wall, peak, problem = forked(lambda c=case: judge(c), args.timeout)
        if res is None:
            secs, verdict, found = (f"> {args.timeout:g}" if problem == "timeout" else "-"), problem or "?", []
            found = [problem or "no result"]
        else:
            secs, verdict, found = f"{res['seconds']:.2f}", res["class"], problems(case, res)
            verdict += f" ({res['back']:,} backward)" if res["back"] else ""
        if res is not None and case.seconds is not None and res["seconds"] >= case.seconds:
            found.append(f"{res['seconds']:.1f} s >= {case.seconds:g} s")
        if case.mib is not None and peak >= case.mib:
            found.append(f"{peak:.0f} MiB >= {case.mib:g} MiB")
        ok = res is not None and not found
        target = " ".join(x for x in (f"< {case.seconds:g} s" if case.seconds else "",
                                      f"< {case.mib:g} MiB" if case.mib else "") if x) or "-"
        rows.append([case.label, target, secs, f"{peak:.0f}", verdict, "; ".join(found) or ("ok" if ok else "")])
        if case.seconds is not None or found:
            checks[case.label] = ok
        print(f"done: {case.label} ({wall:.1f} s)", file=sys.stderr, flush=True)
    peer, note, peer_checks = peer_rows(args.timeout) if not args.only or "mergify" in args.only else ([], None, {})
    rows += peer
    if note:
        notes.append(note)
    checks.update(peer_checks)
    print(table(rows, ["case", "target", "compare CPU s", "peak MiB", "class", "problems"]))
    for n in notes:
        print(f"note: {n}")
    print("time: compat.compare's CPU seconds in a forked child, one run (the peer rows: whole processes' CPU seconds, median of 5, "
          "with bytecode cached as an installed package has it); "
          "memory: the child's peak RSS, the parent's imported modules included")
    return report_checks(checks)


if __name__ == "__main__":
    sys.exit(main())
