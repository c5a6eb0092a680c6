"""Benchmark of ``compat.compare`` against one peer: median wall time and peak memory.

Cases (targets, toolchain issue 3): every consecutive release pair of the repository, schema
part only (``compare`` on the SchemaSets, < 1 s in total); a deterministic ~1 MB schema with a
deep ``$ref`` graph against itself (PATCH, no findings, < 5 s), against a copy with one
annotation changed deep down (PATCH: the structural path, no byte-identity shortcut, < 5 s) and
against a copy with one deep ``maxLength`` tightened (MAJOR with a witness verified by the real
validator, < 5 s); ``oneOf`` nested six deep (MINOR, < 1 s). Peak memory < 500 MB everywhere.

The large schema is generated (no installed package on the reference machine ships one: the
``mkdocs-material`` wheel carries no ``schema.json``): definitions ``d0..dN`` are objects with
eight string properties, an integer, and ``next``/``alt`` references to ``d(i+1)``/``d(i+2)``,
so the ``$ref`` graph is ~1200 definitions deep with many paths to every definition.

Peer: the npm package ``json-schema-diff`` (Atlassian), looked up in ``$EVALPORT_PEER_JSON_SCHEMA_DIFF``
(a folder holding ``node_modules/json-schema-diff``) or ``/tmp/peer`` (``npm install --prefix
/tmp/peer json-schema-diff``); never installed into this repository. Its column is skipped, with a
note, when absent. Verdict mapping: ``removalsFound`` -> MAJOR, else ``additionsFound`` -> MINOR,
else PATCH. Cross-file ``$ref`` of the release schemas are bundled into ``definitions`` for it
(it would otherwise fetch them over the network). Time is measured inside each process (median
of the runs, loading excluded); memory is each process's peak RSS (``ru_maxrss``). On the deep
``$ref`` graph the peer stops with "Maximum call stack size exceeded"; given a larger stack
(``node --stack-size=7000``) it did not finish even a 38-definition slice of it in 60 s (its
dereferenced schema is a tree with exponentially many paths), so the default stack is kept.

Prints a markdown table; exits 1 when one of our targets is missed (the peer has no target).
"""

from __future__ import annotations

import copy
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))

from evalport_spec.compat import compare  # noqa: E402
from evalport_spec.jsonload import loads  # noqa: E402
from evalport_spec.schemaset import SchemaSet  # noqa: E402

MB_LIMIT = 500
PEER_TIMEOUT = 60


def sset(schema: dict, label: str) -> SchemaSet:
    return SchemaSet.from_loaded({"s.json": loads(json.dumps(schema, indent=1), f"{label}/s.json")}, label)


def big_schema(target_bytes: int = 1_000_000) -> dict:
    """Definitions d0..dN, each an object whose properties reference the next two: a deep graph."""
    defs: dict = {}
    i = 0
    size = 0
    while size < target_bytes:
        d = {"type": "object", "additionalProperties": False, "properties": {
            **{f"p{k}": {"type": "string", "maxLength": 40 + k, "description": "x" * 20} for k in range(8)},
            "next": {"$ref": f"#/$defs/d{i + 1}"}, "alt": {"$ref": f"#/$defs/d{i + 2}"},
            "n": {"type": "integer", "minimum": 0}}}
        defs[f"d{i}"] = d
        size += len(json.dumps(d)) + 8
        i += 1
    defs[f"d{i}"] = {"type": "string"}
    defs[f"d{i + 1}"] = {"type": "string"}
    # allOf rather than a root $ref: the same meaning, and the peer's $ref parser reads a root $ref
    # beside the $defs it points into as circular
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "allOf": [{"$ref": "#/$defs/d0"}],
            "$defs": defs}


def deep_def(schema: dict) -> str:
    """The object definition three from the end of the chain (the deepest that is an object)."""
    return sorted(schema["$defs"], key=lambda k: int(k[1:]))[-3]


def nested_oneof(depth: int) -> dict:
    s: dict = {"type": "string"}
    for d in range(depth):
        s = {"oneOf": [{"type": "object", "required": [f"k{d}"], "properties": {f"k{d}": s}},
                       {"type": "integer", "minimum": d}]}
    return s


# ---------------------------------------------------------------------------------- cases
class Case:
    """One comparison: pairs of schema sets for us, pairs of single schemas for the peer."""

    def __init__(self, label: str, pairs: list[tuple[SchemaSet, SchemaSet]], limit: float,
                 check, repeat: int = 3) -> None:
        self.label, self.pairs, self.limit, self.check, self.repeat = label, pairs, limit, check, repeat

    def run(self):
        return [compare(a, b) for a, b in self.pairs]


def verified_major(results, old: SchemaSet, new: SchemaSet) -> str | None:
    (r,) = results
    if str(r.change_class) != "MAJOR":
        return f"class {r.change_class}, expected MAJOR"
    majors = [f for f in r.findings if str(f.change_class) == "MAJOR"]
    if not majors or any(f.undecided for f in majors):
        return "MAJOR without a decided finding"
    for f in majors:
        if f.witness is None:
            return f"{f.kind} has no witness"
        name = f.extra.get("file", "s.json")
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(limit, 30000))  # the witness nests ~600 objects deep, like the schema
        try:
            if not old.validator(name).is_valid(f.witness) or new.validator(name).is_valid(f.witness):
                return f"{f.kind}: witness does not verify"
        finally:
            sys.setrecursionlimit(limit)
    return None


def patch_no_findings(results) -> str | None:
    (r,) = results
    if str(r.change_class) != "PATCH" or str(r.forward_class) != "PATCH":
        return f"classes {r.change_class}/{r.forward_class}, expected PATCH/PATCH"
    return None if not r.findings else f"{len(r.findings)} findings, expected none"


def only_patch(results) -> str | None:
    (r,) = results
    bad = [f.kind for f in r.findings if str(f.change_class) != "PATCH"]
    if str(r.change_class) != "PATCH" or bad:
        return f"class {r.change_class} ({bad[:3]}), expected PATCH"
    return None


def expect(cls: str):
    def check(results) -> str | None:
        (r,) = results
        return None if str(r.change_class) == cls else f"class {r.change_class}, expected {cls}"
    return check


def build_cases() -> tuple[list[Case], list[str]]:
    cases: list[Case] = []
    notes: list[str] = []
    try:
        from evalport_spec.spec import SpecRepo
        repo = SpecRepo.discover(Path(__file__).resolve().parent.parent)
        rel = repo.releases()
        sets = {v: repo.version(v).schemas for v in rel}
        pairs = [(sets[a], sets[b]) for a, b in zip(rel, rel[1:], strict=False)]
        cases.append(Case(f"release pairs ({len(pairs)}: {rel[0]}..{rel[-1]})", pairs, 1.0,
                          lambda results: None, repeat=5))
    except Exception as exc:  # noqa: BLE001 - a benchmark reports, never crashes
        notes.append(f"release pairs skipped: {exc}")
    big = big_schema()
    size = len(json.dumps(big, indent=1)) / 1e6
    deep = deep_def(big)
    ann = copy.deepcopy(big)
    ann["$defs"][deep]["properties"]["p3"]["description"] = "changed"
    tight = copy.deepcopy(big)
    tight["$defs"][deep]["properties"]["p0"]["maxLength"] = 5
    a, b, c, t = sset(big, "a"), sset(big, "b"), sset(ann, "c"), sset(tight, "t")
    n = len(big["$defs"])
    cases.append(Case(f"{size:.1f} MB, {n} $defs: vs itself", [(a, b)], 5.0, patch_no_findings))
    cases.append(Case(f"{size:.1f} MB vs one deep annotation", [(a, c)], 5.0, only_patch))
    cases.append(Case(f"{size:.1f} MB vs one deep change", [(a, t)], 5.0,
                      lambda results: verified_major(results, a, t)))
    o1, o2 = nested_oneof(6), nested_oneof(6)
    o2["oneOf"][1]["minimum"] = 1
    cases.append(Case("oneOf nested depth 6", [(sset(o1, "o1"), sset(o2, "o2"))], 1.0, expect("MINOR")))
    return cases, notes


# ---------------------------------------------------------------------------------- ours
def measure_ours(case: Case) -> tuple[float, float, str, str | None]:
    """(median seconds, peak RSS MiB of a forked child running the case once, verdicts, problem)."""
    walls, results = [], None
    for _ in range(case.repeat):
        t = time.perf_counter()
        results = case.run()
        walls.append(time.perf_counter() - t)
    problem = case.check(results)
    verdict = " ".join(str(r.change_class) for r in results)
    pid = os.fork()
    if pid == 0:  # child: one run, then report its peak through the exit status of wait4
        try:
            case.run()
        finally:
            os._exit(0)
    _, _, usage = os.wait4(pid, 0)
    return statistics.median(walls), usage.ru_maxrss / 1024, verdict, problem


# ---------------------------------------------------------------------------------- peer
PEER_JS = r"""
const fs = require('fs');
const diff = require('json-schema-diff');
const [pairsFile, repeat] = [process.argv[2], Number(process.argv[3])];
const pairs = JSON.parse(fs.readFileSync(pairsFile, 'utf8'));
(async () => {
  const walls = []; let verdicts = [];
  for (let r = 0; r < repeat; r++) {
    verdicts = [];
    const t = process.hrtime.bigint();
    for (const files of pairs) {
      let cls = 'PATCH';
      for (const [a, b] of files) {
        const res = await diff.diffSchemas({sourceSchema: a, destinationSchema: b});
        if (res.removalsFound) cls = 'MAJOR'; else if (res.additionsFound && cls !== 'MAJOR') cls = 'MINOR';
      }
      verdicts.push(cls);
    }
    walls.push(Number(process.hrtime.bigint() - t) / 1e9);
  }
  walls.sort((x, y) => x - y);
  process.stdout.write(JSON.stringify({seconds: walls[Math.floor(walls.length / 2)], verdicts}));
})().catch(e => { process.stdout.write(JSON.stringify({error: String(e && e.message || e).slice(0, 200)})); });
"""


def peer_dir() -> Path | None:
    for base in filter(None, [os.environ.get("EVALPORT_PEER_JSON_SCHEMA_DIFF"), "/tmp/peer"]):
        p = Path(base)
        if (p / "node_modules" / "json-schema-diff").is_dir():
            return p
    return None


def bundle(schemas: SchemaSet, name: str) -> dict:
    """File ``name`` with every other file of the set it references copied under
    ``definitions`` and its ``$ref`` rewritten to point there (the peer resolves only local refs)."""
    key = {n: "__file_" + re.sub(r"\W", "_", n) for n in schemas.files}

    def rewrite(v, owner: str):
        if isinstance(v, dict):
            out = {k: rewrite(x, owner) for k, x in v.items() if not (k == "$id" and v is schemas.files[owner].schema)}
            ref = v.get("$ref")
            if isinstance(ref, str):
                doc, _, frag = ref.partition("#")
                target = Path(doc).name if doc else owner
                if target in key:
                    prefix = "" if target == name else f"/definitions/{key[target]}"
                    out["$ref"] = "#" + prefix + frag
            return out
        if isinstance(v, list):
            return [rewrite(x, owner) for x in v]
        return v

    reach, todo = {name}, [name]
    while todo:  # only the files the bundled one reaches
        for ref in re.findall(r'"\$ref": "([^"#]+)', json.dumps(schemas.files[todo.pop()].schema)):
            n = Path(ref).name
            if n in key and n not in reach:
                reach.add(n)
                todo.append(n)
    root = rewrite(schemas.files[name].schema, name)
    if not isinstance(root, dict):
        return root
    extra = {key[n]: rewrite(f.schema, n) for n, f in schemas.files.items() if n != name and n in reach}
    root.setdefault("definitions", {}).update(extra)
    root.pop("$schema", None)  # the peer reads draft-07-style keywords whatever the dialect says
    return root


def measure_peer(case: Case, folder: Path, work: Path) -> tuple[str, str, str, str]:
    """(seconds, peak MiB, verdicts, note) for the peer on the same pairs."""
    pairs = [[[bundle(a, n), bundle(b, n)] for n in sorted(set(a.files) & set(b.files))] for a, b in case.pairs]
    pf = work / "pairs.json"
    pf.write_text(json.dumps(pairs))
    js = work / "peer.js"
    js.write_text(PEER_JS)
    env = {**os.environ, "NODE_PATH": str(folder / "node_modules")}
    proc = subprocess.Popen(["node", "--max-old-space-size=4096", str(js), str(pf), str(case.repeat)],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
    deadline = time.monotonic() + PEER_TIMEOUT
    while True:
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            break
        if time.monotonic() > deadline:
            proc.kill()
            _, status, usage = os.wait4(proc.pid, 0)
            return f">{PEER_TIMEOUT}", f"{usage.ru_maxrss / 1024:.0f}", "-", "timed out (killed)"
        time.sleep(0.05)
    out = proc.stdout.read().decode() if proc.stdout else ""
    peak = f"{usage.ru_maxrss / 1024:.0f}"
    try:
        data = json.loads(out)
    except ValueError:
        return "-", peak, "-", f"crashed (exit {os.waitstatus_to_exitcode(status)})"
    if "error" in data:
        return "-", peak, "-", f"error: {data['error']}"
    return f"{data['seconds']:.2f}", peak, " ".join(data["verdicts"]), ""


def main() -> int:
    cases, notes = build_cases()
    folder = peer_dir()
    if folder is None:
        notes.append("peer json-schema-diff not found (set EVALPORT_PEER_JSON_SCHEMA_DIFF or run "
                     "`npm install --prefix /tmp/peer json-schema-diff`): peer columns skipped")
    elif shutil.which("node") is None:
        notes.append("node not on PATH: peer columns skipped")
        folder = None
    missed: list[str] = []
    rows = []
    work = Path(tempfile.mkdtemp(prefix="bench-diff-"))
    try:
        for case in cases:
            secs, peak, verdict, problem = measure_ours(case)
            ok = problem is None and secs < case.limit and peak < MB_LIMIT
            if not ok:
                missed.append(f"{case.label}: " + "; ".join(
                    x for x in (problem, f"{secs:.2f} s >= {case.limit} s" if secs >= case.limit else None,
                                f"{peak:.0f} MiB >= {MB_LIMIT}" if peak >= MB_LIMIT else None) if x))
            row = [case.label, f"< {case.limit:g} s", f"{secs:.2f}", f"{peak:.0f}", verdict, "ok" if ok else "MISSED"]
            if folder is not None:
                p_secs, p_peak, p_verdict, p_note = measure_peer(case, folder, work)
                ratio = f"{float(p_secs) / secs:.1f}x" if re.fullmatch(r"[\d.]+", p_secs) and secs > 0 else "-"
                row += [p_secs, p_peak, p_verdict + (f" ({p_note})" if p_note else ""), ratio]
            rows.append(row)
            print(f"done: {case.label}", file=sys.stderr, flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    header = ["case", "target", "ours s (median)", "ours peak MiB", "ours class", "status"]
    if folder is not None:
        header += ["json-schema-diff s", "peer peak MiB", "peer class", "peer s / ours s"]
    print("| " + " | ".join(header) + " |")
    print("|" + "|".join(" --- " for _ in header) + "|")
    for row in rows:
        print("| " + " | ".join(row) + " |")
    for n in notes:
        print(f"note: {n}")
    print("time: wall seconds inside the process (median of runs, loading excluded); "
          "memory: peak RSS of the process running the case")
    for m in missed:
        print(f"MISSED {m}")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
