"""The classifier's report is the same in every process.

Python's ``hash`` of a string depends on ``PYTHONHASHSEED`` (random per process unless set) and,
before Python 3.12, ``hash(None)`` on an address, so sets of subschema nodes hashed that way
were iterated in another order in each run. The checker took a case's negated parts in that
order, and the proof of the same pair came out differently from run to run (session 35: a
random pair of ``differential_gen``, seed 439, gave three proofs in five runs under one
``PYTHONHASHSEED``). A gate whose report differs between two runs of the same input cannot be
reviewed or cached; these tests run the comparison in fresh interpreters with different seeds.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

NODE_HASH = """
from evalport_spec.compat.nodes import Node
print(hash(Node("old", "s.json", "/properties/a")), hash(Node("new", "s.json", "", '{"type": "string"}')))
"""

REPORT = """
import json, random, sys
from compat_pair import sset
from differential_gen import focus_pair, pair
from evalport_spec.compat import compare
seed, focus = int(sys.argv[1]), int(sys.argv[2])
r = random.Random(seed)
old, new = focus_pair(r)[:2] if focus else pair(r)
d = compare(sset(old, "old"), sset(new, "new"), search_budget=0).to_json()
d["stats"].pop("seconds")
print(json.dumps(d, sort_keys=True, default=repr))
"""


def _run(code: str, hash_seed: int, *args: str) -> str:
    env = {**os.environ, "PYTHONHASHSEED": str(hash_seed),
           "PYTHONPATH": os.pathsep.join([str(ROOT / "tools"), str(ROOT / "tests")])}
    done = subprocess.run([sys.executable, "-c", code, *args], env=env, capture_output=True, text=True,
                          timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def test_a_node_hashes_alike_in_every_process():
    """The root cause: on the old code the two seeds give other hashes (string hashing is
    salted per seed) and, on Python 3.11, two runs with one seed differ too (``hash(None)``)."""
    got = {_run(NODE_HASH, seed) for seed in (1, 2, 3)}
    assert len(got) == 1, got


@pytest.mark.parametrize(("seed", "focus"), [(439, 0), (67, 0)])
def test_the_report_of_a_pair_is_the_same_in_every_process(seed, focus):
    """Two random pairs whose proof differed between runs on the old code (seed 439: three proofs
    in five runs; seed 67: another proof under ``PYTHONHASHSEED`` 1 and 2)."""
    reports = [_run(REPORT, h, str(seed), str(focus)) for h in (1, 2, 3, 4)]
    assert json.loads(reports[0])["proof"]  # the premise: there is a proof to differ
    assert len(set(reports)) == 1
