"""Conformance: loading fixture folders and running an implementation against fixtures.

The fixture model (format, ``since``/``until``, meta-schema) is :mod:`evalport_spec.fixtures`;
a version's own fixtures are :attr:`evalport_spec.spec.SpecVersion.fixtures` (a release's frozen
set, SPEC.md "Conformance": a validator agrees with every fixture *of the version it
implements*). :func:`run` skips fixtures that do not apply to the version run.

Running another implementation (``--command CMD``)
--------------------------------------------------
``CMD`` is split like a POSIX shell word list (:func:`shlex.split`, no shell involved) and run
once per fixture, from the current directory, with:

* standard input: the fixture's ``document`` serialised as JSON (UTF-8); every ``{file}`` in
  the words is replaced by the path of a temporary file holding the same JSON (for a validator
  that reads files, ``other-validator {file}``), removed after the run;
* environment: the caller's, plus ``EVALPORT_DOCUMENT_TYPE`` = ``suite`` | ``testcase`` |
  ``grader`` | ``resultset``;
* a time limit per fixture (``timeout``, ``--timeout SECONDS``; default :data:`COMMAND_TIMEOUT`)
  and an output limit of :data:`MAX_ANSWER_BYTES` bytes (standard output and error together);
* a session and process group of its own: when the run ends, times out or is interrupted
  (Ctrl-C, or SIGTERM to ``evalport-spec``: :mod:`evalport_spec.sigterm`), every process left
  in that group is killed, those the command started included. A process the command moves
  into a new session or group of its own (``setsid``, a daemon that double-forks) has left the
  group and is not killed: no POSIX call finds it again short of a cgroup or a PID namespace,
  so such a command must stop what it starts itself.

It must exit (any status) after printing one JSON object on standard output::

    {"valid": false, "errors": [{"code": "DUPLICATE_ATTEMPT", "instance_path": "/results/1/attempt"}]}

The output is compared with ``expect.full`` only (an implementation reports one verdict). A
time-out, unparsable output or a wrong shape is a disagreement for that fixture whose
``detail`` says what went wrong (``no answer: timed out after 10 s``; after
:data:`MAX_TIMEOUTS` time-outs the remaining fixtures are not run, so a command that never
answers ends the run: they are counted as not run, neither agreeing nor disagreeing, and the
run fails); a command that cannot be started at all, or that writes more
than the output limit (``--command yes``), is an :class:`~evalport_spec.errors.InputError`.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import InputError, OutputTooLarge
from .findings import Finding, Location
from .fixtures import META_SCHEMA_NAME, Fixture, Outcome, Pair, parse_fixtures
from .fsutil import run_bounded
from .jsonload import load
from .report.progress import task
from .spec import SpecVersion
from .validation import Validator

__all__ = ["COMMAND_TIMEOUT", "ConformanceReport", "Disagreement", "Fixture", "Outcome", "Pair",
           "compute_since", "find_meta_schema", "load_fixtures", "run", "run_command"]

COMMAND_TIMEOUT = 10.0
"""Seconds one run of an external implementation may take per fixture."""

MAX_TIMEOUTS = 3
"""Time-outs (or, counted apart, answers over :data:`MAX_ANSWER_BYTES`) after which the
remaining fixtures are not run (:attr:`ConformanceReport.not_run`; a command that never answers
would otherwise hold a run of 91 fixtures for 15 minutes, one that floods would stream 1.5 GB)."""

TIMED_OUT = "no answer: timed out after"
"""How the ``detail`` of a fixture the command timed out on begins."""

TOO_LARGE = "no answer: output larger than the"
"""How the ``detail`` of a fixture the command wrote too much for begins."""

FILE_PLACEHOLDER = "{file}"
"""Replaced, in ``--command``'s words, by the path of a file holding the fixture's document."""

MAX_ANSWER_BYTES = 16 * 1024 * 1024
"""Most output (bytes, standard output and error together) one run of an external
implementation may write; it is stopped beyond that (:func:`~evalport_spec.fsutil.run_bounded`)."""

@dataclass(frozen=True)
class Disagreement:
    """One mismatch between a fixture and an implementation.

    Attributes:
        fixture_id: the fixture.
        path: ``"schema"`` (raw schema) or ``"full"`` (schema plus rules).
        expected: the fixture's outcome.
        actual: the implementation's outcome, or ``None`` when it produced none.
        detail: why there is no outcome (time-out, bad output), else ``""``.
    """

    fixture_id: str
    path: str
    expected: Outcome
    actual: Outcome | None
    detail: str = ""

    def describe(self) -> str:
        """One line: ``FIXTURE [path]: expected ..., got ...``."""
        got = self.detail if self.actual is None else _show(self.actual)
        return f"{self.fixture_id} [{self.path}]: expected {_show(self.expected)}; got {got}"

    def to_finding(self, folder: str) -> Finding:
        """A ``conformance-disagreement`` error finding at ``FOLDER/FIXTURE.json`` and the
        expectation that failed (``/expect/schema`` or ``/expect/full``), message
        :meth:`describe`; ``extra`` names the fixture and the path."""
        return Finding("conformance-disagreement", self.describe(),
                       new=Location(f"{folder}/{self.fixture_id}.json", "/expect/" + self.path),
                       extra={"fixture": self.fixture_id, "path": self.path})


def _show(outcome: Outcome) -> str:
    if outcome.valid:
        return "valid"
    if not outcome.errors:
        return "invalid"
    return "invalid with " + ", ".join(f"{c} {p or '(root)'}" for c, p in sorted(outcome.errors))


@dataclass
class ConformanceReport:
    """The result of :func:`run`: how many fixtures apply to the version run, how many were
    skipped (they do not), every disagreement (fixture order), and the fixtures not run because
    the command stopped answering (``not_run``, fixture order; ``stopped`` says why)."""

    fixtures: int
    disagreements: list[Disagreement] = field(default_factory=list)
    skipped: int = 0
    not_run: list[str] = field(default_factory=list)
    stopped: str = ""

    @property
    def ok(self) -> bool:
        """``True`` when the implementation agrees with every fixture (each one ran)."""
        return not self.disagreements and not self.not_run

    @property
    def disagreeing(self) -> int:
        """How many fixtures disagree (on either path)."""
        return len({d.fixture_id for d in self.disagreements})

    def verdict(self, version: str | None = None) -> str:
        """The closing line: ``N fixtures: A agree, D disagree`` with ``, R not run (why)`` and
        ``, S skipped (not applying to VERSION)`` when there are such; ``A + D + R == N``."""
        agree = self.fixtures - self.disagreeing - len(self.not_run)
        line = f"{self.fixtures} fixtures: {agree} agree, {self.disagreeing} disagree"
        if self.not_run:
            line += f", {len(self.not_run)} not run ({self.stopped})"
        if self.skipped:
            line += f", {self.skipped} skipped (not applying to {version})"
        return line

    def findings(self, folder: str) -> list[Finding]:
        """One finding per disagreement (:meth:`Disagreement.to_finding`) and, when fixtures
        were not run, one ``conformance-not-run`` error at ``folder`` saying how many and why
        (``extra["fixtures"]``: their ids)."""
        out = [d.to_finding(folder) for d in self.disagreements]
        if self.not_run:
            out.append(Finding("conformance-not-run", f"{len(self.not_run)} fixture(s) not run: "
                               f"{self.stopped}", new=Location(folder),
                               extra={"fixtures": list(self.not_run)}))
        return out

    def to_json(self) -> dict[str, Any]:
        """``{"fixtures": N, "skipped": S, "agree": bool, "disagreements": [{"fixture", "path",
        "expected", "actual", "detail"}], "not_run": [fixture id], "stopped": why}``
        (``agree``: :attr:`ok`)."""
        return {"fixtures": self.fixtures, "skipped": self.skipped, "agree": self.ok,
                "disagreements": [
            {"fixture": d.fixture_id, "path": d.path, "expected": d.expected.to_json(),
             "actual": d.actual.to_json() if d.actual else None, "detail": d.detail}
            for d in self.disagreements], "not_run": list(self.not_run), "stopped": self.stopped}


# --- loading -------------------------------------------------------------------------------------

def find_meta_schema(directory: Path) -> Path:
    """The fixture meta-schema for fixtures in ``directory``: ``<directory>/../fixture.schema.json``
    or, in ``directory`` or any ancestor, ``spec/conformance/fixture.schema.json`` (so RFC proposal
    folders ``rfcs/NNNN-slug/fixtures`` use the repository's).

    Raises:
        InputError: none found.
    """
    directory = Path(directory).resolve()
    candidates = [directory.parent / META_SCHEMA_NAME]
    candidates += [p / "spec" / "conformance" / META_SCHEMA_NAME for p in (directory, *directory.parents)]
    for c in candidates:
        if c.is_file():
            return c
    raise InputError(f"no {META_SCHEMA_NAME} beside or above the fixtures folder", str(directory))


def load_fixtures(directory: str | os.PathLike[str], meta_schema: str | os.PathLike[str] | None = None
                  ) -> list[Fixture]:
    """Read every ``*.json`` in ``directory`` (sorted by name) as a :class:`Fixture`.

    Each file is parsed strictly and validated against the fixture meta-schema
    (``meta_schema``, default :func:`find_meta_schema`), which requires ``since``.

    Raises:
        InputError: unreadable or malformed file, a fixture meta-schema that is not a valid schema, a file that violates the meta-schema (at the
            offending location), an ``id`` different from the file stem, a duplicate ``id``, an
            ``until`` not above ``since``, or a folder that does not exist or is a file.
    """
    directory = Path(directory)
    if not directory.is_dir():
        raise InputError("is not a folder: fixtures are read from a folder of *.json files"
                         if directory.exists() else "fixtures folder does not exist", str(directory))
    meta = load(meta_schema or find_meta_schema(directory))
    files = [(path.stem, load(path)) for path in sorted(directory.glob("*.json"))]
    return parse_fixtures(files, meta.value, meta.source)


# --- running -------------------------------------------------------------------------------------

def run(spec: SpecVersion, fixtures: Iterable[Fixture], validator: Validator | None = None,
        command: str | None = None, version: str | None = None,
        timeout: float = COMMAND_TIMEOUT) -> ConformanceReport:
    """Compare an implementation with every fixture that holds for ``version``.

    Without ``command``, the in-process ``validator`` (default ``Validator(spec)``) is checked
    on both paths: the raw schema's validity against ``expect.schema``, and the full validator's
    validity and exact ``(code, instance_path)`` set against ``expect.full``. With ``command``,
    the external implementation (module docstring protocol) is checked against ``expect.full``.
    ``version``: the semver of ``spec`` (a release's name, or the draft's declared version);
    fixtures that do not apply to it (``since`` newer, or ``until`` reached) are skipped and
    counted. ``None`` runs every fixture.
    ``timeout``: seconds ``command`` may take per fixture (a run past it is a disagreement for
    that fixture, as is output over :data:`MAX_ANSWER_BYTES`); once it has timed out on
    :data:`MAX_TIMEOUTS` fixtures, or written too much on as many, the remaining ones are not
    run: listed in ``not_run``, ``stopped`` saying why (the run waits at most
    ``MAX_TIMEOUTS * timeout`` seconds on a command that does not answer). A bar counts the
    fixtures on a terminal (:mod:`evalport_spec.report.progress`).

    Returns:
        a :class:`ConformanceReport` with one :class:`Disagreement` per mismatching path.

    Raises:
        InputError: ``command`` cannot be started; a fixture's document type has no schema.
    """
    every = list(fixtures)
    fixtures = [fx for fx in every if fx.applies_to(version)]
    report = ConformanceReport(len(fixtures), skipped=len(every) - len(fixtures))
    if command is None:
        validator = validator or Validator(spec)
    timeouts = floods = 0
    with task("conformance", total=len(fixtures), unit="fixture") as step:
        for fx in fixtures:
            if command is not None and max(timeouts, floods) >= MAX_TIMEOUTS:
                report.not_run.append(fx.id)
                report.stopped = (f"the command timed out on {timeouts} fixtures, {timeout:g} s each"
                                  if timeouts >= MAX_TIMEOUTS else f"the command wrote more than the "
                                  f"{MAX_ANSWER_BYTES}-byte limit on {floods} fixtures")
                step(note=fx.id)
                continue
            if command is None:
                schema = validator.validate_schema_only(fx.document, fx.document_type)
                actual_schema = Outcome(not schema, frozenset(v.key() for v in schema))
                if actual_schema.valid != fx.schema.valid:
                    report.disagreements.append(Disagreement(fx.id, "schema", fx.schema, actual_schema))
                full = validator.validate(fx.document, fx.document_type)
                actual: Outcome | None = Outcome(not full, frozenset(v.key() for v in full))
                detail = ""
            else:
                actual, detail = run_command(command, fx, timeout)
                timeouts += detail.startswith(TIMED_OUT)
                floods += detail.startswith(TOO_LARGE)
            if actual is None or not _agrees(fx.full, actual):
                report.disagreements.append(Disagreement(fx.id, "full", fx.full, actual, detail))
            step(note=fx.id)
    return report


def _agrees(expected: Outcome, actual: Outcome) -> bool:
    if expected.valid != actual.valid:
        return False
    return expected.valid or expected.errors == actual.errors


def run_command(command: str, fixture: Fixture, timeout: float = COMMAND_TIMEOUT
                ) -> tuple[Outcome | None, str]:
    """Run ``command`` on one fixture (module docstring protocol).

    Returns:
        ``(outcome, "")``, or ``(None, detail)`` when the command timed out, wrote more than
        :data:`MAX_ANSWER_BYTES` bytes (it is stopped) or its output is not the expected JSON
        object.

    Raises:
        InputError: the command is empty or cannot be started.
    """
    argv = shlex.split(command)
    if not argv:
        raise InputError("--command is empty")
    env = dict(os.environ, EVALPORT_DOCUMENT_TYPE=fixture.document_type)
    data = json.dumps(fixture.document, ensure_ascii=False).encode("utf-8")
    with tempfile.TemporaryDirectory(prefix="evalport-conformance-") as tmp:
        if any(FILE_PLACEHOLDER in word for word in argv):
            path = Path(tmp) / f"{fixture.id}.json"
            path.write_bytes(data)
            argv = [word.replace(FILE_PLACEHOLDER, str(path)) for word in argv]
        try:
            proc = run_bounded(argv, input=data, env=env, timeout=timeout, max_bytes=MAX_ANSWER_BYTES,
                               label=f"--command {argv[0]!r}", own_group=True)
        except subprocess.TimeoutExpired:
            return None, f"{TIMED_OUT} {timeout:g} s"
        except OutputTooLarge:
            return None, f"{TOO_LARGE} {MAX_ANSWER_BYTES}-byte limit; stopped it"
        except OSError as exc:
            raise InputError(f"cannot run command {argv[0]!r}: {exc.strerror}") from None
    try:
        answer = json.loads(proc.stdout.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return None, f"no answer: output is not JSON (exit status {proc.returncode})"
    return _parse_answer(answer)


def _parse_answer(answer: Any) -> tuple[Outcome | None, str]:
    if not isinstance(answer, dict) or not isinstance(answer.get("valid"), bool):
        return None, "no answer: output lacks a boolean 'valid'"
    errors = answer.get("errors", [])
    if not isinstance(errors, list) or not all(
            isinstance(e, dict) and isinstance(e.get("code"), str)
            and isinstance(e.get("instance_path"), str) for e in errors):
        return None, "no answer: 'errors' is not an array of {code, instance_path} objects"
    return Outcome(answer["valid"], frozenset((e["code"], e["instance_path"]) for e in errors)), ""


def compute_since(fixtures: Iterable[Fixture], versions: list[tuple[str, SpecVersion]]
                  ) -> dict[str, str | None]:
    """The ``since`` of each fixture: the oldest version from which the in-process validator
    agrees with it (both paths) in that version and every later one.

    Args:
        fixtures: the fixtures (their own ``since`` is ignored).
        versions: ``(semver, SpecVersion)`` pairs, oldest first (the draft last, under its
            declared version).

    Returns:
        ``{fixture id: "X.Y.Z"}``; ``None`` for a fixture the newest version disagrees with.
    """
    fixtures = [Fixture(**{**fx.__dict__, "since": None}) for fx in fixtures]
    bad: dict[str, set[str]] = {fx.id: set() for fx in fixtures}
    for semver, spec in versions:
        for d in run(spec, fixtures).disagreements:
            bad[d.fixture_id].add(semver)
    out: dict[str, str | None] = {}
    for fx in fixtures:
        since = None
        for semver, _ in reversed(versions):
            if semver in bad[fx.id]:
                break
            since = semver
        out[fx.id] = since
    return out
