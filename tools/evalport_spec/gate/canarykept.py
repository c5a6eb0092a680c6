"""``toolchain-canary-removed``: the toolchain under test keeps every known break of the judge.

The canaries are the judge's code (:data:`~.canarybreaks.CANARIES`) and data (the classifier
pairs, :func:`~.canaryclassifier.load_pairs`), so the list that tests a pull request's toolchain
is its base's. A pull request that deletes canaries from its own toolchain changes no check, so
the base's canaries all pass on it; once it lands it is the next base, and the next pull request
is tested with the shorter list. Red team, session 35: PR1 deleted the four canaries that plant
an enum-value removal (warned only as ``toolchain-changed``), PR2 made ``policy.breaking()`` skip
``enum-value-removed`` (gate-in-ci.md promise 9's own example) and passed the shorter canary,
and PR3 removed ``runner_error`` from the draft as a MAJOR change with no RFC.

So the judge reads the toolchain under test's canaries, without running its code: the names of
the ``Canary("name", ...)`` calls of its ``CANARIES`` (:mod:`ast`) and the pair names of its
``data/classifier-canary.json``. Each name the judge has and the toolchain under test lacks is an
error, and so is a ``CANARIES`` the judge cannot read as one literal tuple bound once. A canary
kept under its name but changed (its ``Canary(...)`` entry, or a function of the module its
planting reaches, compared as syntax trees without docstrings) is a WARNING,
``toolchain-canary-changed``, naming it: improving a canary is legitimate, and the canary
command takes no ignore file, so only the reviewer can tell a better planting from one that no
longer reaches the check. A list filtered where it is used (``run_canaries``, the ``canary``
command) is not seen here: that is code written to pass review, which the reviewer of
``toolchain-changed`` reads.
"""

from __future__ import annotations

import ast
import hashlib
import json
from pathlib import Path

from ..errors import InputError
from ..findings import Finding, Location, Severity
from ..fsutil import read_limited

BREAKS = "evalport_spec/gate/canarybreaks.py"
"""The module holding ``CANARIES``, relative to a ``tools/`` folder."""

PAIRS = "evalport_spec/data/classifier-canary.json"
"""The classifier pairs, relative to a ``tools/`` folder."""

MAX_BYTES = 4 << 20
"""Largest canary module or pair file read."""


def canary_names(tools: Path) -> tuple[set[str] | None, set[str] | None]:
    """``(canary names, pair names)`` of the toolchain at ``tools`` (the folder holding
    ``evalport_spec``), read without importing it; ``None`` for a side that cannot be read (no
    file, not parsable, no literal ``CANARIES`` tuple or ``pairs`` list)."""
    return _breaks(tools / BREAKS), _pairs(tools / PAIRS)


def _breaks(path: Path) -> set[str] | None:
    try:
        tree = ast.parse(read_limited(path, max_bytes=MAX_BYTES, label=str(path)))
    except (InputError, SyntaxError, ValueError):  # missing or unreadable: no list
        return None
    bindings = [node for node in ast.walk(tree) if isinstance(node, ast.Name) and node.id == "CANARIES"
                and isinstance(node.ctx, (ast.Store, ast.Del))]
    if len(bindings) != 1:  # bound twice (a later CANARIES = CANARIES[:16]), deleted, or never
        return None
    for node in tree.body:
        target = node.target if isinstance(node, ast.AnnAssign) else (
            node.targets[0] if isinstance(node, ast.Assign) and len(node.targets) == 1 else None)
        if isinstance(target, ast.Name) and target.id == "CANARIES" and isinstance(node.value, ast.Tuple):
            return {c.args[0].value for c in node.value.elts
                    if isinstance(c, ast.Call) and c.args and isinstance(c.args[0], ast.Constant)
                    and isinstance(c.args[0].value, str)}
    return None


def canary_digests(path: Path) -> dict[str, str]:
    """``{name: digest}`` of each canary of the ``CANARIES`` tuple in the module at ``path``: the
    SHA-256 of its ``Canary(...)`` call and of every function of the module the call names,
    followed through the names those functions use (docstrings stripped, no positions); ``{}``
    when the module cannot be read."""
    try:
        tree = ast.parse(read_limited(path, max_bytes=MAX_BYTES, label=str(path)))
    except (InputError, SyntaxError, ValueError):
        return {}
    functions = {n.name: n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
    for f in functions.values():
        if f.body and isinstance(f.body[0], ast.Expr) and isinstance(f.body[0].value, ast.Constant) \
                and isinstance(f.body[0].value.value, str):
            f.body = f.body[1:] or [ast.Pass()]
    out: dict[str, str] = {}
    for node in tree.body:
        if not (isinstance(node, (ast.Assign, ast.AnnAssign)) and isinstance(node.value, ast.Tuple)):
            continue
        target = node.target if isinstance(node, ast.AnnAssign) else node.targets[0]
        if not (isinstance(target, ast.Name) and target.id == "CANARIES"):
            continue
        for call in node.value.elts:
            if not (isinstance(call, ast.Call) and call.args and isinstance(call.args[0], ast.Constant)):
                continue
            reached: list[str] = []
            todo = [n.id for n in ast.walk(call) if isinstance(n, ast.Name)]
            while todo:
                name = todo.pop()
                if name in functions and name not in reached:
                    reached.append(name)
                    todo.extend(n.id for n in ast.walk(functions[name]) if isinstance(n, ast.Name))
            h = hashlib.sha256(ast.dump(call, include_attributes=False).encode())
            for name in sorted(reached):
                h.update(ast.dump(functions[name], include_attributes=False).encode())
            out[str(call.args[0].value)] = h.hexdigest()
    return out


def _pairs(path: Path) -> set[str] | None:
    try:
        doc = json.loads(read_limited(path, max_bytes=MAX_BYTES, label=str(path)))
        return {str(p["name"]) for p in doc["pairs"]}
    except (InputError, ValueError, KeyError, TypeError):  # missing or unreadable: no list
        return None


def changed_findings(tools: Path, canaries: set[str], judge: Path) -> list[Finding]:
    """One ``toolchain-canary-changed`` WARNING per name of ``canaries`` whose
    :func:`canary_digests` differs between the judge's module ``judge`` and the toolchain at
    ``tools`` (a name missing there is :func:`removed_findings`'s); located at ``tools/``."""
    mine, theirs = canary_digests(judge), canary_digests(tools / BREAKS)
    return [Finding("toolchain-canary-changed",
                    f"the changed toolchain keeps the known break {name} but plants it otherwise ({BREAKS}: its "
                    "entry or a function its planting reaches differs from the judge's): confirm it still "
                    "reaches the check it is named after, since the next change is tested with this one",
                    severity=Severity.WARNING, new=Location("tools"), extra={"canary": name, "file": BREAKS})
            for name in sorted(canaries) if name in mine and name in theirs and mine[name] != theirs[name]]


def removed_findings(tools: Path, canaries: set[str], pairs: set[str]) -> list[Finding]:
    """One ``toolchain-canary-removed`` error per name of ``canaries`` (the judge's known breaks)
    or ``pairs`` (its classifier pairs) that the toolchain at ``tools`` does not list, or one
    for a list it does not have in a form the judge can read; located at ``tools/``. A toolchain
    without the file at all is not judged here: its own ``canary`` could not run, so it cannot
    test the next change with fewer canaries (its gate runs fail every canary instead)."""
    theirs, their_pairs = canary_names(tools)
    out = []
    for what, mine, kept, where in (("known break", canaries, theirs, BREAKS),
                                    ("classifier pair", pairs, their_pairs, PAIRS)):
        if not mine or not (tools / where).is_file():
            continue  # a toolchain without the file has no canary command to judge the next change with
        if kept is None:
            out.append(Finding("toolchain-canary-removed",
                               f"the changed toolchain's {where} lists no {what}s the judge can read: every one "
                               "of the judge's would go untested once this change judges the next",
                               new=Location("tools"), extra={"file": where}))
            continue
        for name in sorted(mine - kept):
            out.append(Finding("toolchain-canary-removed",
                               f"the changed toolchain drops the {what} {name} ({where}): the base's canary still "
                               "tests this change with it, but once it lands the next change is tested without "
                               "it, so the check it plants for can be weakened then (a branch older than its base "
                               "lacks the base's newer canaries too: merge the base first)", new=Location("tools"),
                               extra={"canary": name, "file": where}))
    return out
