"""Rule program runs kept on disk between gate runs (:mod:`evalport_spec.diskcache`).

A run of a tree's rules (:func:`~.ruleprogram.run_program`) is a function of the program's
code, the documents and the catalogue parameters it is given. The key is the program's digest
(every ``*.py`` of its package), the corpus key (:attr:`Corpus.key
<evalport_spec.gate.rulecorpus.Corpus.key>`, a digest of everything the documents and
parameters come from) and today's date (a rule reading the clock answers anew each day); the
disk cache adds the interpreter's version, the judging toolchain's code and its libraries'
versions.
"""

from __future__ import annotations

import hashlib
import json
from datetime import date

from .. import diskcache
from .ruleprogram import Program, ProgramRun


def _key(program: Program, corpus_key: str) -> str:
    return hashlib.sha256(json.dumps(["rule-program-run", program.digest, corpus_key,
                                      date.today().isoformat()]).encode()).hexdigest()


def stored_run(program: Program, corpus_key: str) -> ProgramRun | None:
    """The run of ``program`` over the corpus with key ``corpus_key`` stored today by
    :func:`store_run`, or ``None`` (none, caching off, or a file that does not read back)."""
    data = diskcache.load(_key(program, corpus_key))
    if data is None:
        return None
    try:
        return ProgramRun({str(k): str(v) for k, v in data["rules"].items()},
                          [{str(c): [str(p) for p in ps] for c, ps in d.items()} for d in data["fired"]],
                          [(int(i), str(c), str(m)) for i, c, m in data["crashed"]])
    except (KeyError, TypeError, ValueError, AttributeError):
        return None


def store_run(program: Program, corpus_key: str, run: ProgramRun) -> ProgramRun:
    """Keep ``run`` (of ``program`` over the corpus ``corpus_key``) on disk for
    :func:`stored_run`; returns it."""
    diskcache.store(_key(program, corpus_key), {"rules": run.rules, "fired": run.fired, "crashed": run.crashed})
    return run
