"""Peer yardstick: the classifier on Confluent Schema Registry's 263 JSON Schema diff cases.

Reads ``../shared/peer-suites/confluent/`` (or ``$EVALPORT_PEER_SUITES/confluent``) at run time;
the data is never copied into this repository. Mapping (that folder's README): ``compatible:
false`` means MAJOR; anything else means "not MAJOR". Draft-07-style files are read as
draft-07 when a schema has no ``$schema``. Cases the README says are wrong under our definition
are listed as known disagreements. Prints agreement, every disagreement with a one-line reason,
and crashes (must be 0). Exit 0 when there is no crash and no unexpected disagreement.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent / "tools"), str(HERE.parent / "tests")]

from compat_corpus.sources import CONFLUENT_FILES, confluent_folder, load_confluent  # noqa: E402

KNOWN = {"Detect required array to be changed":
         "required: [foo] -> [bar]: {'foo': 'x'} is valid before and invalid after (README: Confluent "
         "only compares required for properties declared in both)",
         "Detect incompatible changes to dependencies schemas":
         "the dependent schema {type: string} (or number) applies to the object itself, so both versions "
         "reject every object with 'foo' and accept the same documents: PATCH, checked with jsonschema",
         "Detect removed boolean additional items":
         "additionalItems without an array 'items' has no effect (draft-07 section 9.3.1.2): PATCH",
         "Detect changes to additional items schema":
         "additionalItems without an array 'items' has no effect (draft-07 section 9.3.1.2): PATCH"}


def classify(case: dict, dialect: int):
    from evalport_spec.compat import compare
    from evalport_spec.jsonload import loads
    from evalport_spec.schemaset import SchemaSet

    def mk(schema, label):
        if dialect == 7 and isinstance(schema, dict) and "$schema" not in schema:
            schema = {"$schema": "http://json-schema.org/draft-07/schema#", **schema}
        return SchemaSet.from_loaded({"s.json": loads(json.dumps(schema), f"{label}/s.json")}, label)

    return compare(mk(case["original_schema"], "old"), mk(case["update_schema"], "new"),
                   format_assertion=False, search_budget=20)


def main() -> int:
    root = confluent_folder()
    if root is None:
        print("skipped: peer suite folder (shared/peer-suites/confluent) is absent")
        return 0
    total = agree = crashes = 0
    disagreements, known = [], []
    t0 = time.perf_counter()
    for fname, dialect in CONFLUENT_FILES.items():
        for i, case in enumerate(load_confluent(root / fname)):
            total += 1
            expected_major = case.get("compatible") is False
            try:
                c = classify(case, dialect)
            except Exception as exc:  # a crash is a defect: report it
                crashes += 1
                disagreements.append(f"{fname}#{i} CRASH {case['description']}: {type(exc).__name__}: {exc}")
                continue
            got_major = c.change_class.name == "MAJOR"
            if got_major == expected_major:
                agree += 1
                continue
            kinds = sorted({f.kind for f in c.findings if f.direction == "backward"})
            why = (f"ours {c.change_class.name} ({', '.join(kinds) or 'no backward finding'}), "
                   f"Confluent {'incompatible' if expected_major else 'compatible'}")
            line = f"{fname}#{i} {case['description']}: {why}"
            if case["description"] in KNOWN:
                known.append(line + f" -- known: {KNOWN[case['description']]}")
            else:
                disagreements.append(line)
    secs = time.perf_counter() - t0
    print("| cases | agree | known disagreements | other disagreements | crashes | seconds |")
    print(f"| {total} | {agree} | {len(known)} | {len(disagreements) - crashes} | {crashes} | {secs:.1f} |")
    for line in known:
        print("KNOWN  ", line)
    for line in disagreements:
        print("DIFFER ", line)
    return 0 if not disagreements else 1


if __name__ == "__main__":
    sys.exit(main())
