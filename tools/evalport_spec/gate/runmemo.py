"""Gate runs kept on disk and replayed while everything they read is unchanged (issue 16).

A gate run's report is a function of what it read, and :mod:`evalport_spec.inputlog` records
exactly that: every file and folder listing, the tree a rule program runs from, every git call
with its answer (HEAD, tree ids, refs, a file's history), and the listing of the whole
repository for existence checks. The entry (:mod:`evalport_spec.diskcache`, so also keyed by
the toolchain's code digest, the interpreter and the validators' versions) is named by the
options (repository root, ``base``, stages, ignore file) and today's date, local and UTC (the
RFC statuses and ignore expiries read the clock), and holds the report with the inputs'
digests. A later run with the same key replays the report when :func:`~evalport_spec.inputlog.unchanged`
holds (each file hashed again, each git call run again) and runs every stage otherwise.

Never stored: a run whose recording is tainted (a process or a read the recorder cannot replay),
a run in which a stage crashed (an engine's bug or a resource limit is not a verdict), a run
that raised. The whole run is the unit, not each stage: the stages share the memos of one
:class:`~evalport_spec.gate.context.GateContext`, so what a stage uses is not only what it read.
``EVALPORT_CACHE_DIR=off`` (``check --no-cache``) runs every stage; the gate of record starts
from an empty cache folder of its own (docs/how-to/gate-in-ci.md).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from .. import diskcache, git, inputlog
from ..findings import ChangeClass
from .model import GateReport, StageResult


def enabled() -> bool:
    """Whether runs are stored and replayed: the disk cache is on (not ``EVALPORT_CACHE_DIR=off``,
    ``check --no-cache``). Off, a run neither reads an entry nor records its inputs."""
    return diskcache.cache_dir() is not None


def run_key(root: Path, base: str | None, stages: list[str] | None, ignore: str | Path | None) -> str:
    """The entry name of a run with these options today."""
    today = dt.date.today().isoformat(), dt.datetime.now(dt.UTC).date().isoformat()
    return hashlib.sha256(json.dumps(["gate-run", str(root.resolve()), base, stages,
                                      None if ignore is None else os.path.abspath(ignore),
                                      today]).encode()).hexdigest()


def _rerun(key: list[str], stdin: bytes | None) -> tuple[int, bytes, bytes]:
    if key[0] != "git":
        raise ValueError(f"no way to run {key[0]!r} again")
    proc = git.run(key[1], *key[2:], input=stdin, check=False)
    return proc.returncode, proc.stdout, proc.stderr


def replay(key: str) -> GateReport | None:
    """The report stored under ``key`` by :func:`store` when every input it recorded is
    unchanged, its stages' ``seconds`` zero and ``context["replayed"]`` true; else ``None``."""
    data = diskcache.load(key)
    if data is None:
        return None
    try:
        if not inputlog.unchanged(data["inputs"], _rerun):
            return None
        stages = [StageResult(s["name"], s["status"], [diskcache.finding_from_json(f) for f in s["findings"]],
                              0.0, s["summary"],
                              ChangeClass[s["change_class"]] if "change_class" in s else None)
                  for s in data["report"]["stages"]]
        return GateReport(stages, data["report"]["base"], {"replayed": True})
    except (KeyError, TypeError, ValueError):
        return None


@contextmanager
def recording() -> Iterator[inputlog.InputLog]:
    """:func:`evalport_spec.inputlog.recording`, the cache folder made first: made during the
    run, it would change the listing of its parent (the working folder, say, which the import
    system lists), and the run would never replay."""
    folder = diskcache.cache_dir()
    if folder is not None:
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError:
            pass  # diskcache.store ignores an unwritable folder too
    with inputlog.recording() as log:
        yield log


def store(key: str, log: inputlog.InputLog, root: Path, report: GateReport) -> None:
    """Keep ``report`` with the digests of the inputs ``log`` recorded, unless the log is
    tainted, a stage crashed, or an input was modified during the run
    (:func:`evalport_spec.inputlog.snapshot`)."""
    if log.tainted or any(f.kind == "stage-crashed" for s in report.stages for f in s.findings):
        return
    folder = diskcache.cache_dir()
    if folder is None:
        return
    inputs = inputlog.snapshot(log, root, excluded=[str(folder)],
                               kept=[str(Path(diskcache.__file__).resolve().parent)])
    if inputs is not None:
        diskcache.store(key, {"inputs": inputs, "report": report.to_json()})
