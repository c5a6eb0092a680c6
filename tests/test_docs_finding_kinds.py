"""docs/finding-kinds.md lists every finding kind the toolchain can emit, and nothing else.

The kinds are collected from the package's syntax trees (never by a regular expression over its
text): the first argument of each ``Finding(...)`` call, or its ``kind=`` keyword, and the
argument given for the ``kind`` parameter of each helper that forwards it to ``Finding``
(``input_finding``, ``rfc/lint.py``'s ``_finding``, ``rulecheck``'s ``ctx.finding``...), resolved
through string constants of the module and both branches of a conditional expression; plus the
classifier's kind table (``compat/kinds.py``), whose names ``diff`` and the gate's comparing
stages emit. A call whose kind cannot be resolved so fails the test, unless it is one of
:data:`FORWARDING`, each of which is said why.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from evalport_spec.compat.kinds import INFO_KINDS, KINDS

REPO = Path(__file__).resolve().parents[1]
PACKAGE = REPO / "tools" / "evalport_spec"
PAGE = REPO / "docs" / "finding-kinds.md"

FORWARDING = {
    ("compat/engine.py", "kind_name('counter-example', direction)"): "a name of compat/kinds.py's KINDS",
    ("compat/engine.py", "kind_name(f.code, direction) if not f.undecided else 'undecided'"):
        "a name of compat/kinds.py's KINDS",
    ("diskcache.py", "d['kind']"): "a finding read back from the cache, written from one of the others",
}
"""Calls whose kind is not written where the finding is made: ``(file, kind expression)``: why."""


def _constants(tree: ast.Module) -> dict[str, str]:
    return {n.targets[0].id: n.value.value for n in ast.walk(tree)
            if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name)
            and isinstance(n.value, ast.Constant) and isinstance(n.value.value, str)}


def _values(node: ast.AST, constants: dict[str, str]) -> list[str] | None:
    """The strings ``node`` can be, or ``None`` when the text does not show them."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.Name) and node.id in constants:
        return [constants[node.id]]
    if isinstance(node, ast.IfExp):
        body, orelse = _values(node.body, constants), _values(node.orelse, constants)
        return None if body is None or orelse is None else body + orelse
    return None


def _callee(call: ast.Call) -> str | None:
    f = call.func
    return f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None


def _forwarders(trees: dict[str, ast.Module]) -> dict[tuple[str | None, str], int]:
    """``{(file or None, name): index of its kind parameter}`` of each function with a ``kind``
    parameter that calls ``Finding(kind, ...)``: a method (``None``: called as an attribute from
    anywhere) or a module function (called by name in its module, or imported by name)."""
    out: dict[tuple[str | None, str], int] = {}
    for rel, tree in trees.items():
        classes = {id(f) for c in ast.walk(tree) if isinstance(c, ast.ClassDef) for f in c.body}
        for fn in ast.walk(tree):
            if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            params = [a.arg for a in fn.args.args]
            if "kind" not in params:
                continue
            forwards = any(isinstance(c, ast.Call) and _callee(c) == "Finding" and c.args
                           and isinstance(c.args[0], ast.Name) and c.args[0].id == "kind" for c in ast.walk(fn))
            if forwards:
                index = params.index("kind") - (1 if id(fn) in classes else 0)
                out[(None if id(fn) in classes else rel, fn.name)] = index
    return out


def emitted_kinds() -> tuple[dict[str, set[str]], list[tuple[str, str]]]:
    """``({kind: files making it}, [(file, expression) of each kind the text does not show]``)."""
    trees = {p.relative_to(PACKAGE).as_posix(): ast.parse(p.read_text(encoding="utf-8"))
             for p in sorted(PACKAGE.rglob("*.py"))}
    forwarders = _forwarders(trees)
    by_name = {name: index for (rel, name), index in forwarders.items() if rel is not None}
    found: dict[str, set[str]] = {}
    unresolved: list[tuple[str, str]] = []
    for rel, tree in trees.items():
        constants = _constants(tree)
        local = {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
        for fn in ast.walk(tree):
            if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            kind_param = [a for a in fn.args.args if a.arg == "kind"]
            for default, arg in zip(reversed(fn.args.defaults), reversed(fn.args.args), strict=False):
                if kind_param and arg is kind_param[0] and ((rel, fn.name) in forwarders or (None, fn.name)
                                                            in forwarders):
                    for v in _values(default, constants) or ():
                        found.setdefault(v, set()).add(rel)
        for call in ast.walk(tree):
            if not isinstance(call, ast.Call):
                continue
            name = _callee(call)
            if name == "Finding":
                index: int | None = 0
            elif isinstance(call.func, ast.Attribute):
                index = forwarders.get((None, name or ""))
            elif name in local:
                index = forwarders.get((rel, name))
            else:
                index = by_name.get(name or "")
            if index is None:
                continue
            given = call.args[index] if len(call.args) > index else next(
                (k.value for k in call.keywords if k.arg == "kind"), None)
            if given is None:
                continue  # the helper's default: collected above
            values = _values(given, constants)
            if values is None:
                if isinstance(given, ast.Name) and given.id == "kind":
                    continue  # a forwarder passing its own parameter on
                unresolved.append((rel, ast.unparse(given)))
                continue
            for v in values:
                found.setdefault(v, set()).add(rel)
    for back, forward in KINDS.values():
        found.setdefault(back, set()).add("compat/kinds.py")
        found.setdefault(forward, set()).add("compat/kinds.py")
    for kind in INFO_KINDS:
        found.setdefault(kind, set()).add("compat/kinds.py")
    return found, unresolved


ROW = re.compile(r"^\| `([a-z0-9][a-z0-9-]*)` \|", re.M)
"""A row of one of the page's tables: its first cell is the kind, in backticks."""


def documented_kinds() -> list[str]:
    return ROW.findall(PAGE.read_text(encoding="utf-8"))


def test_every_kind_made_in_the_package_is_written_where_it_is_made():
    _, unresolved = emitted_kinds()
    assert [u for u in unresolved if u not in FORWARDING] == []


def test_the_page_lists_every_kind_once_and_no_kind_that_is_no_longer_made():
    found, _ = emitted_kinds()
    listed = documented_kinds()
    assert len(found) > 150  # the premise: the scan sees the gate's, the classifier's and the rfc kinds
    assert sorted(k for k in set(listed) if listed.count(k) > 1) == []
    missing = sorted(set(found) - set(listed))
    assert missing == [], f"undocumented finding kinds (add a row to {PAGE.name}): {missing}"
    stale = sorted(set(listed) - set(found))
    assert stale == [], f"{PAGE.name} lists kinds nothing makes any more: {stale}"


def test_the_scan_finds_kinds_made_each_way(tmp_path):
    """The scan itself: a literal, a constant, a conditional, a forwarding helper with a default,
    and a method forwarder all count; this file's own expectations are written out by hand."""
    found, _ = emitted_kinds()
    assert {"toolchain-changed", "rule-implementation-changed", "ignore-file-empty"} <= set(found)  # constants
    assert {"rule-added-breaking", "rule-tightened", "schema-unreadable"} <= set(found)  # conditionals
    assert "input-error" in found  # input_finding's default
    assert {"rfc-waiting", "spec-object-undocumented", "rfc-examples"} <= set(found)  # helpers and methods
    assert {"enum-value-removed", "enum-value-added", "counter-example-found"} <= set(found)  # KINDS


def made_severities() -> dict[str, set[str | None]]:
    """``{kind: severities}`` of the kinds a ``Finding(...)`` call makes with no change class (or
    ``ChangeClass.NONE``): each call's ``severity`` (the fourth positional argument or the
    keyword) as the page writes it (``error``, ``warning``, ``info``), ``error`` when it is not
    given (``Finding``'s default), ``None`` when the text does not show it."""
    made: dict[str, set[str | None]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        constants = _constants(tree)
        for call in ast.walk(tree):
            if not isinstance(call, ast.Call) or _callee(call) != "Finding":
                continue
            keywords = {k.arg: k.value for k in call.keywords}
            given = call.args[0] if call.args else keywords.get("kind")
            kinds = _values(given, constants) if given is not None else None
            change_class = keywords.get("change_class", call.args[2] if len(call.args) > 2 else None)
            if not kinds or (change_class is not None and not (isinstance(change_class, ast.Attribute)
                                                               and change_class.attr == "NONE")):
                continue
            severity = keywords.get("severity", call.args[3] if len(call.args) > 3 else None)
            if severity is None:
                said: str | None = "error"
            elif isinstance(severity, ast.Attribute) and isinstance(severity.value, ast.Name) \
                    and severity.value.id == "Severity":
                said = severity.attr.lower()
            else:
                said = None
            for kind in kinds:
                made.setdefault(kind, set()).add(said)
    return made


def test_the_severity_column_says_what_the_package_makes():
    """A row whose severity column says ``warning`` for a kind the package makes as an error (or
    the other way round) tells a reader that a failing gate passes: the column's words must be
    exactly the severities of the calls that make the kind (where the call's text shows it)."""
    cells = {m.group(1): m.group(2) for m in re.finditer(r"^\| `([a-z0-9][a-z0-9-]*)` \|[^|]*\|([^|]*)\|",
                                                         PAGE.read_text(encoding="utf-8"), re.M)}
    made = made_severities()
    checked = {k: s for k, s in made.items() if None not in s and k in cells}
    assert len(checked) > 80  # the premise: most of the gate's kinds are made with a literal severity (91)
    assert {"warning"} == checked["toolchain-changed"] and {"error"} == checked["released-file-changed"]
    wrong = {k: (sorted(s), cells[k].strip()) for k, s in checked.items()
             if set(re.findall(r"\b(error|warning|info)\b", cells[k].lower())) != s}
    assert wrong == {}
