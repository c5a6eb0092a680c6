"""The canary: the judge's known breaks, planted one at a time, judged by a toolchain under test.

The gate of record for a pull request is the base's toolchain (docs/how-to/gate-in-ci.md,
promise 1), and a change to the toolchain is only shown to the reviewer (``toolchain-changed``,
promise 2). Once such a change lands it judges every later pull request, so a careless edit
(``and f.kind != "enum-value-removed"`` in :func:`evalport_spec.policy.breaking`) would let every
later removal of an enum value through. The canary tests the changed toolchain before it lands
(promise 9):

1. a scratch clone of the checkout (``git clone --shared``: the history is there, the objects
   are borrowed), at its committed ``HEAD``;
2. for each canary of :data:`CANARIES` (defined here, so in CI by the judge's code, never the
   branch's): the clone is reset to ``HEAD``, one known break is written into it and committed;
3. the toolchain under test runs its own gate on that commit as a separate process
   (``env PYTHONPATH=TOOLCHAIN python -P -m evalport_spec -C CLONE check --base HEAD --stage S
   --format json``, started from a scratch folder, with a fresh ``EVALPORT_CACHE_DIR``, bounded in
   time), and must fail the stage ``S`` that catches the break today (exit 1).

A canary whose stage passes is an error finding ``toolchain-canary-passed``; one whose run
crashes, times out, exits 2 or prints no report is ``toolchain-canary-error``; a canary that
finds nothing to break in this spec (no ``enum`` of two values, say) is a warning
``toolchain-canary-skipped``.

What it cannot catch: a toolchain that recognises the canaries and behaves only for them. That
is what review of ``toolchain-changed`` is for.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import git
from ..errors import InputError
from ..findings import Finding, Location, Severity
from ..fsutil import run_bounded
from ..semver import parse_semver
from . import history
from .toolchain import is_toolchain_path

TIMEOUT = 600.0
"""Seconds one canary's gate run may take before it is stopped (a ``toolchain-canary-error``)."""

MAX_OUTPUT = 64 << 20
"""Bytes of output one canary's gate run may write."""

IDENTITY = {"GIT_AUTHOR_NAME": "evalport-canary", "GIT_AUTHOR_EMAIL": "canary@invalid",
            "GIT_COMMITTER_NAME": "evalport-canary", "GIT_COMMITTER_EMAIL": "canary@invalid"}
"""Who commits a planted break (in the scratch clone only)."""


class NothingToBreak(Exception):
    """A canary found no place to plant its break in this spec (the message says what it
    looked for)."""


@dataclass(frozen=True)
class Canary:
    """One known break.

    Attributes:
        name: kebab-case, as findings and progress lines name it (``enum-value-removed``).
        stage: the gate stage that catches it today (:data:`evalport_spec.names.STAGES`).
        plant: writes the break into a checkout's working tree (its root given); returns what
            it did, one phrase (``"removed "runner_error" from spec/schemas/resultset.json#..."``).
            Raises :class:`NothingToBreak` when this spec has no place for it.
    """

    name: str
    stage: str
    plant: Callable[[Path], str]


@dataclass
class Outcome:
    """What one canary's run gave.

    Attributes:
        canary: the canary; status: ``caught``, ``passed``, ``error`` or ``skipped``;
        what: the planted break (or why nothing was planted); detail: for ``error``, what went
        wrong; seconds: wall time of the gate run; kinds: the kinds of the error findings of
        the canary's stage (what caught it), sorted.
    """

    canary: Canary
    status: str
    what: str
    detail: str = ""
    seconds: float = 0.0
    kinds: list[str] = field(default_factory=list)

    def finding(self) -> Finding | None:
        """The finding this outcome reports (``None`` when caught)."""
        name, what = self.canary.name, self.what
        if self.status == "passed":
            return Finding("toolchain-canary-passed",
                           f"the changed toolchain passes a known break ({name}: {what}); its "
                           f"`{self.canary.stage}` stage no longer fails it, so a gate built from "
                           "this change would let it land", extra={"canary": name, "stage": self.canary.stage})
        if self.status == "error":
            return Finding("toolchain-canary-error",
                           f"the changed toolchain could not judge a known break ({name}: {what}): "
                           f"{self.detail}", extra={"canary": name, "stage": self.canary.stage})
        if self.status == "skipped":
            return Finding("toolchain-canary-skipped", f"canary {name} not run: {what}",
                           severity=Severity.WARNING, extra={"canary": name})
        return None


# --- the breaks --------------------------------------------------------------------------------

def _read_json(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def _write_json(path: Path, doc: Any) -> None:
    path.write_text(json.dumps(doc, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def _plain_subschemas(node: Any, pointer: str = "") -> Iterator[tuple[str, dict[str, Any]]]:
    """``(pointer, subschema)`` of every subschema reached only through ``properties``,
    ``$defs`` and ``items`` (document order): a constraint there applies to every document
    that has the member, never only under a condition (``if``, ``not``, ``anyOf``...), so
    tightening it is a break whatever the rest of the schema says."""
    if not isinstance(node, dict):
        return
    yield pointer, node
    for key in ("properties", "$defs"):
        for name, sub in (node.get(key) or {}).items() if isinstance(node.get(key), dict) else ():
            esc = name.replace("~", "~0").replace("/", "~1")
            yield from _plain_subschemas(sub, f"{pointer}/{key}/{esc}")
    if isinstance(node.get("items"), dict):
        yield from _plain_subschemas(node["items"], f"{pointer}/items")


def _draft_schemas(root: Path) -> list[Path]:
    return sorted((root / "spec" / "schemas").glob("*.json"))


def _first(root: Path, test: Callable[[dict[str, Any]], bool], looked_for: str
           ) -> tuple[Path, Any, str, dict[str, Any]]:
    for path in _draft_schemas(root):
        doc = _read_json(path)
        for pointer, sub in _plain_subschemas(doc):
            if test(sub):
                return path, doc, pointer, sub
    raise NothingToBreak(f"no draft schema has {looked_for}")


def _rel(root: Path, path: Path) -> str:
    return path.relative_to(root).as_posix()


def remove_enum_value(root: Path) -> str:
    """Remove the last value of the first ``enum`` of two or more values (a MAJOR
    ``enum-value-removed``: a document holding it was valid and is not)."""
    path, doc, pointer, sub = _first(
        root, lambda s: isinstance(s.get("enum"), list) and len(s["enum"]) >= 2, "an enum of two values")
    value = sub["enum"].pop()
    _write_json(path, doc)
    return f"removed {json.dumps(value)} from {_rel(root, path)}#{pointer}/enum"


def remove_enum_value_declaring_major(root: Path) -> str:
    """The break of :func:`remove_enum_value`, with ``spec/VERSION`` declaring the next major
    version after the latest release: a MAJOR change still needs an accepted RFC listing the
    finding (the second condition of the MAJOR rule, :mod:`evalport_spec.policy`)."""
    releases = [v for v in (p.name for p in (root / "spec" / "releases").glob("*")) if _is_version(v)]
    if not releases:
        raise NothingToBreak("no release to declare the next major version after")
    major = str(max(map(parse_semver, releases)).bump_major())
    what = remove_enum_value(root)
    (root / "spec" / "VERSION").write_text(major + "\n", encoding="utf-8")
    return f"{what}, and spec/VERSION set to {major}"


def _is_version(text: str) -> bool:
    try:
        parse_semver(text)
    except ValueError:
        return False
    return True


def add_required_member(root: Path) -> str:
    """Add a required string member ``canary_member`` to the first titled closed object (a
    MAJOR ``required-added``: every document of that object lacks it)."""
    path, doc, pointer, sub = _first(
        root, lambda s: "title" in s and s.get("additionalProperties") is False
        and isinstance(s.get("properties"), dict) and "canary_member" not in s["properties"],
        "a titled object with additionalProperties false")
    sub["properties"]["canary_member"] = {"type": "string"}
    sub["required"] = [*sub.get("required", []), "canary_member"]
    _write_json(path, doc)
    return f"made canary_member a new required member of {sub['title']} ({_rel(root, path)}#{pointer})"


def tighten_bound(root: Path) -> str:
    """Raise the first ``minLength``, ``minItems`` or ``minimum`` by one (a MAJOR tightening:
    a value at the old bound is rejected)."""
    keys = ("minLength", "minItems", "minimum")
    path, doc, pointer, sub = _first(
        root, lambda s: any(isinstance(s.get(k), int) and not isinstance(s.get(k), bool) for k in keys),
        "a minLength, minItems or minimum")
    key = next(k for k in keys if isinstance(sub.get(k), int) and not isinstance(sub.get(k), bool))
    sub[key] += 1
    _write_json(path, doc)
    return f"raised {_rel(root, path)}#{pointer}/{key} from {sub[key] - 1} to {sub[key]}"


def _released_json(root: Path) -> tuple[Path, list[str], int]:
    """The first released ``.json`` file listed in ``spec/releases/SHA256SUMS``, the file's
    lines and the index of its line."""
    sums = root / "spec" / "releases" / "SHA256SUMS"
    lines = sums.read_text(encoding="utf-8").splitlines() if sums.is_file() else []
    for i, line in enumerate(lines):
        name = line.partition("  ")[2]
        if name.endswith(".json") and (root / "spec" / "releases" / name).is_file():
            return root / "spec" / "releases" / name, lines, i
    raise NothingToBreak("spec/releases/SHA256SUMS lists no released .json file")


def edit_released_file(root: Path) -> str:
    """Append one space to a released file, leaving ``SHA256SUMS`` as it was (the manifest no
    longer matches)."""
    path, _, _ = _released_json(root)
    path.write_bytes(path.read_bytes() + b" ")
    return f"appended a space to {_rel(root, path)}"


def edit_released_file_and_sums(root: Path) -> str:
    """Append one space to a released file and rewrite its ``SHA256SUMS`` line to match (only
    history shows the file is not what its release shipped)."""
    path, lines, i = _released_json(root)
    data = path.read_bytes() + b" "
    path.write_bytes(data)
    lines[i] = f"{hashlib.sha256(data).hexdigest()}  {lines[i].partition('  ')[2]}"
    (root / "spec" / "releases" / "SHA256SUMS").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return f"appended a space to {_rel(root, path)} and updated its SHA256SUMS line"


def flip_fixture(root: Path) -> str:
    """Turn the first draft conformance fixture of an invalid document into one expecting it
    valid (its errors dropped): the fixture now disagrees with the validator, which rejects it.
    (The other way round would need an ``errors`` list the fixture schema checks first.)"""
    for path in sorted((root / "spec" / "conformance" / "fixtures").glob("*.json")):
        doc = _read_json(path)
        expect = doc.get("expect") if isinstance(doc, dict) else None
        if isinstance(expect, dict) and expect and all(isinstance(v, dict) and v.get("valid") is False
                                                       for v in expect.values()):
            doc["expect"] = {k: {"valid": True} for k in expect}
            _write_json(path, doc)
            return f"marked {_rel(root, path)} (an invalid document) as valid"
    raise NothingToBreak("no draft conformance fixture expects an invalid document")


FIELD_ROW = re.compile(r"^(\|[^|\n]*\|[^|\n]*\| )(yes|no)( \|.*)$", re.M)
"""A row of a generated field table: field, type, then the ``Required`` cell."""


def edit_field_table(root: Path) -> str:
    """Flip the ``Required`` cell of the first row of the first generated field table of the
    draft SPEC.md (the region no longer says what its schema says)."""
    path = root / "spec" / "SPEC.md"
    text = path.read_text(encoding="utf-8") if path.is_file() else ""
    start = text.find("<!-- evalport:generated fields ")
    end = text.find("<!-- /evalport:generated -->", start)
    match = FIELD_ROW.search(text, start, end) if start >= 0 and end >= 0 else None
    if match is None:
        raise NothingToBreak("spec/SPEC.md has no generated field table")
    flipped = "no" if match[2] == "yes" else "yes"
    path.write_text(text[:match.start(2)] + flipped + text[match.end(2):], encoding="utf-8")
    region = text[start:text.find("-->", start)].removeprefix("<!-- evalport:generated fields ").strip()
    return f"changed a Required cell of SPEC.md's generated {region} table from {match[2]} to {flipped}"


def dangle_ref(root: Path) -> str:
    """Add an optional member whose schema is a ``$ref`` to a ``$defs`` entry that does not
    exist, to the first draft schema with ``properties`` at its root (a reference that does not
    resolve: every validator of the schema fails on it)."""
    for path in _draft_schemas(root):
        doc = _read_json(path)
        if isinstance(doc, dict) and isinstance(doc.get("properties"), dict):
            doc["properties"]["canary_member"] = {"$ref": "#/$defs/canary_missing"}
            _write_json(path, doc)
            return f"added a member whose $ref (#/$defs/canary_missing) resolves nowhere to {_rel(root, path)}"
    raise NothingToBreak("no draft schema has properties at its root")


def drop_catalogued_rule(root: Path) -> str:
    """Remove the first rule of ``spec/rules.json`` (its implementation still registers it:
    the catalogue and the code disagree, and documents lose a rule SPEC.md states)."""
    path = root / "spec" / "rules.json"
    doc = _read_json(path) if path.is_file() else None
    rules = doc.get("rules") if isinstance(doc, dict) else None
    if not isinstance(rules, list) or not rules or not isinstance(rules[0], dict):
        raise NothingToBreak("spec/rules.json catalogues no rule")
    code = rules.pop(0).get("code")
    _write_json(path, doc)
    return f"removed rule {code} from spec/rules.json"


def break_example(root: Path) -> str:
    """Add a member ``canary_member`` to the first example that is a JSON object (every
    document type's root object is closed, so the example is no longer valid)."""
    for path in sorted((root / "spec" / "examples").glob("*.json")):
        doc = _read_json(path)
        if isinstance(doc, dict) and "canary_member" not in doc:
            doc["canary_member"] = True
            _write_json(path, doc)
            return f"added an unknown member canary_member to {_rel(root, path)}"
    raise NothingToBreak("spec/examples holds no JSON object")


CANARIES: tuple[Canary, ...] = (
    Canary("enum-value-removed", "base", remove_enum_value),
    Canary("major-declared-without-rfc", "base", remove_enum_value_declaring_major),
    Canary("required-member-added", "draft", add_required_member),
    Canary("bound-tightened", "base", tighten_bound),
    Canary("released-file-edited", "manifest", edit_released_file),
    Canary("released-file-and-sums-edited", "history", edit_released_file_and_sums),
    Canary("fixture-contradicts-validator", "conformance", flip_fixture),
    Canary("field-table-edited", "spec-text", edit_field_table),
    Canary("dangling-ref", "schemas", dangle_ref),
    Canary("rule-dropped-from-catalogue", "rules", drop_catalogued_rule),
    Canary("example-invalid", "examples", break_example),
)
"""The known breaks, each with the stage that catches it (every one is caught by this
toolchain: tests/test_canary.py)."""


# --- running -----------------------------------------------------------------------------------

def _verdict(proc: subprocess.CompletedProcess[bytes], stage: str) -> tuple[str, str, list[str]]:
    """``(status, detail, kinds)`` of a finished gate run of ``stage``: ``kinds`` are the kinds
    of the stage's error findings, sorted, once each (what caught the break). The stage failing
    is what counts, whatever finding fails it: a break it fails cannot land."""
    err = proc.stderr.decode("utf-8", "replace").strip().splitlines()
    tail = f" ({err[-1][:300]})" if err else ""
    if proc.returncode not in (0, 1):
        return "error", f"its gate exited {proc.returncode}{tail}", []
    try:
        report = json.loads(proc.stdout)
        result = next(s for s in report["stages"] if s["name"] == stage)
        status = result["status"]
        kinds = sorted({f["kind"] for f in result.get("findings", []) if f.get("severity") == "error"})
    except (ValueError, KeyError, TypeError, StopIteration, AttributeError):
        return "error", f"its gate (exit {proc.returncode}) wrote no JSON report with a `{stage}` stage{tail}", []
    if proc.returncode == 1 and status == "fail":
        return "caught", "", kinds
    if proc.returncode == 1 or status == "fail":
        return "error", f"its gate exited {proc.returncode} with the `{stage}` stage {status!r}", kinds
    return "passed", "", kinds


def _gate_env(toolchain: Path, cache: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "PYTHON"))}
    env.update(PYTHONPATH=str(toolchain), EVALPORT_CACHE_DIR=cache, PYTHONDONTWRITEBYTECODE="1",
               NO_COLOR="1")
    return env


def run_canary(canary: Canary, clone: Path, head: str, toolchain: Path, *, python: str,
               timeout: float, scratch: Path) -> Outcome:
    """Plant ``canary`` in ``clone`` (reset to ``head`` first), commit it, and run the
    toolchain under test on it. Returns its :class:`Outcome`.

    Raises:
        InputError: git failed to reset or commit the scratch clone.
    """
    git.run(clone, "reset", "-q", "--hard", head)
    git.run(clone, "clean", "-q", "-fdx")
    try:
        what = canary.plant(clone)
    except NothingToBreak as exc:
        return Outcome(canary, "skipped", str(exc))
    except (OSError, ValueError) as exc:
        return Outcome(canary, "skipped", f"could not plant it: {exc}")
    git.run(clone, "add", "-A")
    git.run(clone, "-c", "commit.gpgsign=false", "commit", "-q", "--no-verify", "-m",
            f"canary: {canary.name}", env=IDENTITY)
    cache = tempfile.mkdtemp(prefix="cache-", dir=scratch)
    argv = [python, "-P", "-m", "evalport_spec", "-C", str(clone), "check", "--base", head,
            "--stage", canary.stage, "--format", "json"]
    start = time.monotonic()
    try:
        proc = run_bounded(argv, timeout=timeout, max_bytes=MAX_OUTPUT, env=_gate_env(toolchain, cache),
                           cwd=scratch, label="the toolchain's gate", own_group=True)
    except subprocess.TimeoutExpired:
        return Outcome(canary, "error", what, f"its gate ran longer than {timeout:g}s", time.monotonic() - start)
    except (OSError, InputError) as exc:
        return Outcome(canary, "error", what, f"its gate could not run: {exc}", time.monotonic() - start)
    status, detail, kinds = _verdict(proc, canary.stage)
    return Outcome(canary, status, what, detail, time.monotonic() - start, kinds)


def require_package(tools: str | os.PathLike[str], shown: str | None = None) -> None:
    """Check that folder ``tools`` holds the ``evalport_spec`` package to test.

    Raises:
        InputError: it does not (one line naming ``shown``, default the folder).
    """
    if not (Path(tools) / "evalport_spec" / "__init__.py").is_file():
        raise InputError(f"{shown or tools}: no evalport_spec package to test (--toolchain)")


def run_canaries(repo: str | os.PathLike[str], toolchain: str | os.PathLike[str] | None = None, *,
                 canaries: tuple[Canary, ...] = CANARIES, python: str | None = None,
                 timeout: float = TIMEOUT, progress: Callable[[Outcome], None] | None = None
                 ) -> list[Outcome]:
    """Run every canary against the toolchain under test.

    Args:
        repo: a git checkout of a spec repository (its committed ``HEAD`` is what is cloned).
        toolchain: the folder put on ``PYTHONPATH`` (it holds ``evalport_spec``); default the
            scratch clone's own ``tools/`` (the checkout's toolchain as committed).
        canaries: the breaks to plant (default :data:`CANARIES`).
        python: the interpreter that runs the toolchain (default this one).
        timeout: seconds per canary's gate run.
        progress: called with each :class:`Outcome` as soon as it is known.

    Returns:
        one :class:`Outcome` per canary, in order.

    Raises:
        InputError: ``repo`` is not a git checkout with a commit; ``toolchain`` has no
            ``evalport_spec`` package; git failed in the scratch clone.
    """
    root = Path(repo).resolve()
    if not (root / "spec" / "schemas").is_dir():
        raise InputError(f"{root}: not a spec repository (no spec/schemas folder)")
    head = git.resolve(root, "HEAD")
    outcomes = []
    with tempfile.TemporaryDirectory(prefix="evalport-canary-") as tmp:
        scratch = Path(tmp)
        clone = scratch / "repo"
        # started outside the checkout, so none of its own git configuration applies, and with
        # no hooks in the clone (a global core.hooksPath would otherwise run on every commit)
        git.run(scratch, "clone", "-q", "--shared", "--no-checkout", "--config", f"core.hooksPath={os.devnull}",
                str(root), str(clone))
        tools = clone / "tools" if toolchain is None else Path(toolchain).resolve()
        git.run(clone, "checkout", "-q", "--detach", head)
        require_package(tools, "the checkout's tools/" if toolchain is None else str(toolchain))
        for canary in canaries:
            outcome = run_canary(canary, clone, head, tools, python=python or sys.executable,
                                 timeout=timeout, scratch=scratch)
            outcomes.append(outcome)
            if progress is not None:
                progress(outcome)
    return outcomes


def uncommitted_tools(repo: str | os.PathLike[str]) -> list[str]:
    """Paths under ``tools/`` that differ from ``HEAD`` in ``repo``'s working tree (edited or
    new): what a canary of the committed toolchain does not test."""
    return history.changed_paths(Path(repo).resolve(), "HEAD", ("tools",))


def toolchain_changes(repo: str | os.PathLike[str], base: str) -> list[str]:
    """The paths of the toolchain or CI configuration (:func:`.toolchain.is_toolchain_path`, the
    paths ``toolchain-changed`` lists) that differ between the commit ``base`` and ``repo``'s
    working tree, sorted: the canary has something to test only when there are some.

    Raises:
        InputError: ``base`` is not a safe revision of ``repo`` (the message says what to fetch).
    """
    root = Path(repo).resolve()
    sha = git.resolve(root, base, option="--base")
    return [p for p in history.changed_paths(root, sha, (":/",)) if is_toolchain_path(p)]


def canary_findings(outcomes: list[Outcome]) -> list[Finding]:
    """The findings of ``outcomes`` (none for a caught canary), located at ``tools/``."""
    found = [o.finding() for o in outcomes]
    for f in found:
        if f is not None:
            f.new = Location("tools")
    return [f for f in found if f is not None]


__all__ = ["CANARIES", "Canary", "NothingToBreak", "Outcome", "canary_findings", "run_canaries",
           "toolchain_changes", "uncommitted_tools"]
