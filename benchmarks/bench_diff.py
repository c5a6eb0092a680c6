"""Benchmark of ``compat.compare``: median wall time and peak traced memory.

Cases: every consecutive release pair of the repository (targets: < 1 s in total), a generated
~1 MB schema with a deep ``$ref`` graph against itself and against a copy with one deep change
(< 5 s), and ``oneOf`` nested six deep (< 1 s); peak memory < 500 MB. Prints a table.
"""

from __future__ import annotations

import copy
import json
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))

from evalport_spec.compat import compare  # noqa: E402
from evalport_spec.jsonload import loads  # noqa: E402
from evalport_spec.schemaset import SchemaSet  # noqa: E402


def sset(schema: dict, label: str) -> SchemaSet:
    return SchemaSet.from_loaded({"s.json": loads(json.dumps(schema), f"{label}/s.json")}, label)


def big_schema(target_bytes: int = 1_000_000) -> dict:
    """Definitions d0..dN, each an object whose properties reference the next few: a deep graph."""
    defs: dict = {}
    i = 0
    while len(json.dumps(defs)) < target_bytes:
        defs[f"d{i}"] = {"type": "object", "additionalProperties": False, "properties": {
            **{f"p{k}": {"type": "string", "maxLength": 40 + k, "description": "x" * 20} for k in range(8)},
            "next": {"$ref": f"#/$defs/d{i + 1}"}, "alt": {"$ref": f"#/$defs/d{i + 2}"},
            "n": {"type": "integer", "minimum": 0}}}
        i += 1
    defs[f"d{i}"] = {"type": "string"}
    defs[f"d{i + 1}"] = {"type": "string"}
    return {"$ref": "#/$defs/d0", "$defs": defs}


def nested_oneof(depth: int) -> dict:
    s: dict = {"type": "string"}
    for d in range(depth):
        s = {"oneOf": [{"type": "object", "required": [f"k{d}"], "properties": {f"k{d}": s}},
                       {"type": "integer", "minimum": d}]}
    return s


def measure(label: str, fn, repeat: int = 3) -> tuple[str, float, float, str]:
    walls, peak, out = [], 0.0, ""
    for _ in range(repeat):
        tracemalloc.start()
        t = time.perf_counter()
        out = fn()
        walls.append(time.perf_counter() - t)
        peak = max(peak, tracemalloc.get_traced_memory()[1] / 2**20)
        tracemalloc.stop()
    return label, statistics.median(walls), peak, out


def main() -> int:
    rows = []
    try:
        from evalport_spec.spec import SpecRepo
        repo = SpecRepo.discover(Path(__file__).resolve().parent.parent)
        rel = repo.releases()
        pairs = list(zip(rel, rel[1:]))
        sets = {v: repo.version(v).schemas for v in rel}

        def releases():
            return " ".join(str(compare(sets[a], sets[b]).change_class) for a, b in pairs)
        rows.append(measure(f"release pairs ({len(pairs)})", releases))
    except Exception as exc:
        print(f"skipped release pairs: {exc}")
    big = big_schema()
    changed = copy.deepcopy(big)
    last = sorted(changed["$defs"], key=lambda k: int(k[1:]))[-3]
    changed["$defs"][last]["properties"]["p0"]["maxLength"] = 5
    a, b, c = sset(big, "a"), sset(big, "b"), sset(changed, "c")
    size = len(json.dumps(big)) / 1e6
    rows.append(measure(f"{size:.1f} MB $ref graph vs itself", lambda: str(compare(a, b).change_class), 1))
    rows.append(measure(f"{size:.1f} MB vs one deep change", lambda: str(compare(a, c).change_class), 1))
    o1, o2 = nested_oneof(6), nested_oneof(6)
    o2["oneOf"][1]["minimum"] = 1
    s1, s2 = sset(o1, "o1"), sset(o2, "o2")
    rows.append(measure("oneOf nested depth 6", lambda: str(compare(s1, s2).change_class)))
    print("| case | median s | peak MiB | class |")
    print("| --- | ---: | ---: | --- |")
    for label, secs, peak, out in rows:
        print(f"| {label} | {secs:.2f} | {peak:.0f} | {out} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
