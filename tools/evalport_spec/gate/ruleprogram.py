"""A tree's cross-field rule implementations, run as that tree's own program.

The gate never imports the rule code of the change it judges: :func:`run_program` starts a
separate Python process (``python -I -B ruleprogram.py TOOLS``: isolated, writing no bytecode
into the tree) whose only ``evalport_spec`` is the
one in ``TOOLS`` (a branch's ``tools/``, a base commit's, or the commit that created a
release), feeds it documents as JSON on standard input and reads back, for every document and
every registered rule of its type, the instance locations the rule reports. This file is that
program too (:func:`_serve`); it imports nothing but the standard library before ``TOOLS`` is on
the path, so the judging toolchain and the judged one never share a module. The gate of record
(``check --base``) runs no program its base has not reviewed (the working tree's, a commit only
the branch has): :meth:`evalport_spec.gate.context.GateContext.executed` puts the base's in its
place, and :mod:`.rulecode` judges the code under review by reading it. The one program not
given a process is the package already running the gate (:func:`runs_here`: ``check`` in
the working tree of an editable install): :func:`run_here` answers with the loaded rules.

Protocol, one JSON value each way:

* in: ``{"documents": [[doc_type, document], ...], "parameters": {code: {name: value}}}``
  (the catalogue parameters a rule's implementation takes as keyword arguments, such as
  RATE_SCORE_MISMATCH's ``tolerance``; a rule declaring a parameter the request does not give
  is not run, as the validator refuses a catalogue entry without it; a program older than
  rule parameters ignores the member);
* out: ``{"package": path of the evalport_spec imported, "rules": {code: doc_type},
  "fired": [{code: [instance location, ...]}, ...] (one object per document),
  "crashed": [[document index, code, "Type: message"], ...]}``.

A tree without ``tools/evalport_spec`` (a spec repository using an installed toolchain) runs
the installed package's rules: its rules cannot change with its branches.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from dataclasses import dataclass
from importlib.machinery import BYTECODE_SUFFIXES, EXTENSION_SUFFIXES, SOURCE_SUFFIXES
from pathlib import Path
from typing import Any

TIMEOUT = 300
"""Seconds one program run may take before it is killed (no hangs)."""

RULES_PACKAGE = ("evalport_spec", "validation", "rules")
"""Where a tree keeps its rule registry, under its ``tools/`` folder."""

WORKING_TREE = "working-tree"
""":attr:`Program.origin` of the checked-out tree."""

INSTALLED = "installed"
""":attr:`Program.origin` of the toolchain running the gate."""


@dataclass(frozen=True)
class Program:
    """One tree's rule implementations.

    Attributes:
        tools: the folder holding that tree's ``evalport_spec`` package.
        label: how messages name it (``"the working tree"``, ``"origin/main"``, ...).
        digest: SHA-256 over the package's files (paths and contents) but the bytecode CPython
            wrote itself (:func:`runs_unchecked`): two programs with the same digest behave the
            same (same interpreter, same dependencies).
        origin: where the tree comes from: a commit id, :data:`WORKING_TREE` or
            :data:`INSTALLED` (the gate of record runs only programs its base has reviewed:
            :meth:`~evalport_spec.gate.context.GateContext.executed`).
    """

    tools: Path
    label: str
    digest: str
    origin: str = INSTALLED


@dataclass
class ProgramRun:
    """What a program reported.

    Attributes:
        rules: ``{code: document type}`` of every registered rule.
        fired: per input document, ``{code: [instance location, ...]}`` of the rules that
            reported something (a rule of another document type is not run).
        crashed: ``[(document index, code, message)]`` for rules that raised.
    """

    rules: dict[str, str]
    fired: list[dict[str, list[str]]]
    crashed: list[tuple[int, str, str]]


def runs_unchecked(pyc: bytes) -> bool:
    """Whether ``pyc``, the bytes of a ``__pycache__`` file, is hash-based bytecode (PEP 552: the
    flags word after the magic number is not zero). CPython runs such a file without comparing
    it with its source's modification time (an unchecked one without comparing it at all, a
    checked one by the source's hash only, never by the code it holds), so one committed to a
    tree runs in place of the source the gate reads (red team); the bytecode CPython writes
    itself is timestamp-based, used only while it matches its source."""
    return len(pyc) >= 8 and pyc[4:8] != bytes(4)


def _digest(package: Path) -> str:
    h = hashlib.sha256()
    for p in sorted(package.rglob("*")):
        if not p.is_file():
            continue
        data = p.read_bytes()
        if "__pycache__" in p.relative_to(package).parts and not runs_unchecked(data):
            continue
        h.update(p.relative_to(package).as_posix().encode() + b"\0" + data + b"\1")
    return h.hexdigest()


def beside_package(tools: Path) -> list[Path]:
    """The importable files of ``tools`` outside the ``evalport_spec`` package, sorted: every
    module file (source, bytecode, extension) of a top-level module or package, and the
    hash-based bytecode of its ``__pycache__`` folders that runs unchecked; ``*.egg-info`` and
    ``*.dist-info`` folders left out. Such a module is importable beside the package wherever
    the tree's toolchain runs (this program, ``.ci/run``, and setuptools installs every package
    of ``tools/``), so it takes the place of any library the rules import by that name (red
    team: a ``tools/orjson.py`` changed how every document is read)."""
    suffixes = (*EXTENSION_SUFFIXES, *SOURCE_SUFFIXES, *BYTECODE_SUFFIXES)
    out = []
    for p in sorted(tools.rglob("*")):
        parts = p.relative_to(tools).parts
        if parts[0] == RULES_PACKAGE[0] or parts[0].endswith((".egg-info", ".dist-info")) or not p.is_file():
            continue
        if "__pycache__" in parts:
            if runs_unchecked(p.read_bytes()):
                out.append(p)
        elif p.name.endswith(suffixes):
            out.append(p)
    return out


def installed_program() -> Program:
    """The rules of the toolchain running this process (what a tree without ``tools/`` uses),
    read once per process."""
    global _INSTALLED
    if _INSTALLED is None:
        package = Path(__file__).resolve().parents[1]
        _INSTALLED = Program(package.parent, "the installed toolchain", _digest(package), INSTALLED)
    return _INSTALLED


_INSTALLED: Program | None = None


def program_for_tree(tree: Path, label: str, origin: str = WORKING_TREE) -> Program:
    """The rule program of the tree checked out or extracted at ``tree`` (``origin``: the
    commit it was extracted from, or :data:`WORKING_TREE`): its own ``tools/evalport_spec``
    when it has a rule registry there, else :func:`installed_program`."""
    tools = tree / "tools"
    if (tools.joinpath(*RULES_PACKAGE) / "__init__.py").is_file():
        digest = _digest(tools / RULES_PACKAGE[0])
        beside = beside_package(tools)
        if beside:  # a module beside the package runs in place of a library: part of the program
            h = hashlib.sha256(digest.encode())
            for p in beside:
                h.update(p.relative_to(tools).as_posix().encode() + b"\0" + p.read_bytes() + b"\1")
            digest = h.hexdigest()
        return Program(tools.resolve(), label, digest, origin)
    return installed_program()


def run_program(program: Program, documents: list[tuple[str, Any]],
                parameters: dict[str, dict[str, Any]] | None = None) -> ProgramRun:
    """Run ``program`` over ``documents`` (``[(doc_type, document)]``) in its own process,
    rules given their catalogue ``parameters`` (``{code: {name: value}}``; module docstring).

    Raises:
        InputError: the process fails, times out, answers with something that is not the
            protocol, or imported an ``evalport_spec`` from outside ``program.tools``.
    """
    from .. import inputlog
    from ..errors import InputError

    payload = json.dumps(_request(documents, parameters)).encode()
    what = _what(program)
    try:
        with inputlog.child(program.tools):  # its inputs: the tree's code and the payload
            proc = subprocess.run([sys.executable, "-I", "-B", __file__, str(program.tools)], input=payload,
                                  capture_output=True, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        raise InputError(f"{what} did not finish within {TIMEOUT}s") from None
    if proc.returncode != 0:
        err = proc.stderr.decode("utf-8", "replace").strip().splitlines()
        raise InputError(f"cannot run {what}: {err[-1] if err else f'exit {proc.returncode}'}")
    try:
        out = json.loads(proc.stdout)
        package = Path(out["package"]).resolve()
    except (ValueError, KeyError, TypeError):
        raise InputError(f"{what} did not answer in the rule-program protocol") from None
    run = _run_of(out, what)
    if not package.is_relative_to(program.tools.resolve()) or len(run.fired) != len(documents):
        raise InputError(f"{what}: the process imported {package}, not the tree's own package")
    return run


def runs_here(program: Program) -> bool:
    """Whether ``program`` is the package this process runs: :func:`installed_program`'s folder
    and digest (the working tree of an editable install, checked by ``check`` without
    ``--base`` or by a branch's own ``check --base``). Its rules are already this process's
    code (the validator runs them on every fixture), so :func:`run_here` runs them without
    starting a process."""
    mine = installed_program()
    return program.tools == mine.tools and program.digest == mine.digest


def run_here(program: Program, documents: list[tuple[str, Any]],
             parameters: dict[str, dict[str, Any]] | None = None) -> ProgramRun:
    """:func:`run_program` for a program that :func:`runs_here`, in this process: the request
    and the answer pass through JSON as they do between processes, so the run is the one the
    program's own process gives (documents as JSON values, codes and locations as strings).

    Raises:
        InputError: ``program`` is not this process's package, or the answer breaks the protocol.
    """
    from ..errors import InputError
    from ..validation.rules import RULES

    if not runs_here(program):
        raise InputError(f"{_what(program)} is not the package this process runs")
    out = json.loads(json.dumps(answer(RULES, json.loads(json.dumps(_request(documents, parameters))))))
    return _run_of(out, _what(program))


def _request(documents: list[tuple[str, Any]], parameters: dict[str, dict[str, Any]] | None) -> dict[str, Any]:
    return {"documents": documents, "parameters": parameters or {}}


def _what(program: Program) -> str:
    return f"the rule implementations of {program.label} ({program.tools})"


def _run_of(out: Any, what: str) -> ProgramRun:
    """The :class:`ProgramRun` of a protocol answer ``out`` (a parsed JSON value).

    Raises:
        InputError: ``out`` is not the protocol.
    """
    from ..errors import InputError

    try:
        rules = {str(k): str(v) for k, v in out["rules"].items()}
        fired = [{str(c): [str(p) for p in ps] for c, ps in d.items()} for d in out["fired"]]
        crashed = [(int(i), str(c), str(m)) for i, c, m in out["crashed"]]
    except (ValueError, KeyError, TypeError, AttributeError):
        raise InputError(f"{what} did not answer in the rule-program protocol") from None
    return ProgramRun(rules, fired, crashed)


def answer(rules: dict[str, Any], request: dict[str, Any]) -> dict[str, Any]:
    """The protocol's answer (module docstring) of the rule registry ``rules`` (``{code: rule}``,
    a tree's ``evalport_spec.validation.rules.RULES``) to ``request``, ``package`` left out:
    ``{"rules": {code: doc_type}, "fired": [...], "crashed": [...]}``. A rule that raises is
    reported in ``crashed``, never propagated."""
    given = request.get("parameters", {})
    registry = {code: (getattr(rule, "document_type", None), getattr(rule, "function", rule))
                for code, rule in rules.items()}
    runnable = {}  # code -> keyword arguments; a rule missing a declared parameter is not run
    for code, rule in rules.items():
        declared = getattr(rule, "parameters", ())
        if all(name in given.get(code, {}) for name in declared):
            runnable[code] = {name: given[code][name] for name in declared}
    fired: list[dict[str, list[str]]] = []
    crashed: list[list[Any]] = []
    for index, (doc_type, document) in enumerate(request["documents"]):
        hits: dict[str, list[str]] = {}
        for code, (rule_type, function) in registry.items():
            if rule_type != doc_type or code not in runnable:
                continue
            try:
                for v in function(document, **runnable[code]):
                    hits.setdefault(getattr(v, "code", code), []).append(getattr(v, "instance_path", ""))
            except Exception as exc:  # noqa: BLE001 - a crashing rule is reported, not fatal
                crashed.append([index, code, f"{type(exc).__name__}: {exc}"])
        fired.append(hits)
    return {"rules": {code: t for code, (t, _) in registry.items()}, "fired": fired, "crashed": crashed}


def _serve(tools: str) -> None:
    """The program side: import the rules under ``tools`` and answer one request on stdio."""
    sys.path.insert(0, tools)
    import evalport_spec
    from evalport_spec.validation.rules import RULES

    json.dump({"package": str(Path(evalport_spec.__file__).parent), **answer(RULES, json.load(sys.stdin))},
              sys.stdout)


if __name__ == "__main__":
    _serve(sys.argv[1])
