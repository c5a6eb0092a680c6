"""Which top-level functions of a module can run when the module is only imported.

:mod:`.rulecode` counts the ``evalport_spec`` modules that ``validate``, ``conformance`` and the
rule program run. Some of them are reached only because the CLI's ``__init__`` imports every
command module (:data:`.rulecode.CLI_PACKAGE`): for ``check``, ``diff``, ``canary``... what runs
on ``validate`` is their module-level code and ``register`` (which adds their sub-parser), never
their ``run``. Such a module is read **shallow**: the body of a top-level function that nothing
counted can call is left out of its digest and of the imports followed, so an edit of
``check``'s ``run`` is not every rule's code change (session 34: every CLI refactor reported every
rule changed, undecided, MAJOR).

A top-level function ``f`` of a shallow module ``M`` is **reachable** (its body counted) when

* its name is :data:`ENTRY_POINTS` (``register``, which the CLI's ``__init__`` calls on every
  command module through a variable; a module ``__getattr__`` or ``__dir__``);
* ``M``'s module-level code (decorators and default values of its functions included) or the
  body of a reachable function names it (a bare name, or a string equal to it: ``getattr(m,
  "f")``), the one exception below aside;
* a counted module that imports ``M`` names it (``from M import f``, an attribute ``.f``, a
  string ``"f"``) in its counted code;
* a counted module that imports ``M``, or ``M`` itself, looks names up by a value the text does
  not show (:func:`looks_up_by_value`: ``getattr`` with a computed name, ``globals()``,
  ``vars()``, ``__dict__``, ``sys.modules``): then every function of ``M`` is.

The exception: in ``register``, ``X.set_defaults(func=f)`` where ``X`` is the module's own
sub-parser (``X = subparsers.add_parser("<module name>", ...)`` with ``subparsers`` the first
parameter of ``register``, and no ``aliases``), or a parser below it (``S = X.add_subparsers(...)``, ``Y =
S.add_parser(...)``), each name bound only so in ``register``: argparse calls ``args.func`` only
when that command was chosen, so ``f`` runs for that command, never for ``validate``. A function
handed to another command's parser (``subparsers.choices["validate"].set_defaults(func=f)``) is
not such a parser, so it counts.

What this leaves out changes only what the other commands do (``check`` itself among them: the
gate of record is the base's toolchain, docs/how-to/gate-in-ci.md promise 1), and is shown by
``toolchain-changed`` (:mod:`.toolchain`, a warning for the reviewer) and tested by the canary.
Code that starts reaching a left-out body another way (through an object handed around at
import, say) changes a counted module by doing so, and fails closed then, as a ``.py`` file read
as data does (:mod:`.rulecode`).
"""

from __future__ import annotations

import ast
from collections.abc import Iterable

ENTRY_POINTS = frozenset({"register", "__getattr__", "__dir__"})
"""Top-level functions always reachable (module docstring)."""

LOOKUPS = frozenset({"globals", "vars", "locals"})
"""Built-ins (called bare) that hand out a namespace to look names up in by value."""

FunctionNode = ast.FunctionDef | ast.AsyncFunctionDef


def top_functions(tree: ast.Module) -> dict[str, list[FunctionNode]]:
    """``{name: [definitions]}`` of the functions defined directly in ``tree``'s body."""
    out: dict[str, list[FunctionNode]] = {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            out.setdefault(node.name, []).append(node)
    return out


def _walk_outside(nodes: Iterable[ast.AST], skip: set[int]) -> Iterable[ast.AST]:
    """Every node under ``nodes``, not entering the body statements whose ``id`` is in ``skip``."""
    stack = list(nodes)
    while stack:
        node = stack.pop()
        yield node
        for field, value in ast.iter_fields(node):
            children = value if isinstance(value, list) else [value]
            if field == "body" and id(node) in skip:
                continue
            stack.extend(c for c in children if isinstance(c, ast.AST))


def words(nodes: Iterable[ast.AST], exempt: frozenset[int] = frozenset()) -> set[str]:
    """The names ``nodes`` use: bare names (but those whose ``id`` is in ``exempt``), attribute
    names, imported names and string constants."""
    out: set[str] = set()
    for node in nodes:
        if isinstance(node, ast.Name) and id(node) not in exempt:
            out.add(node.id)
        elif isinstance(node, ast.Attribute):
            out.add(node.attr)
        elif isinstance(node, ast.alias):
            out.add(node.asname or node.name.rpartition(".")[2])
            out.add(node.name)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            out.add(node.value)
    return out


def looks_up_by_value(nodes: Iterable[ast.AST]) -> bool:
    """Whether ``nodes`` look a name up by a value the text does not show: ``getattr`` with a
    name that is not a string constant, a call of :data:`LOOKUPS`, ``__dict__`` or
    ``sys.modules``."""
    for node in nodes:
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            if node.func.id in LOOKUPS:
                return True
            if node.func.id == "getattr" and not (len(node.args) > 1 and isinstance(node.args[1], ast.Constant)):
                return True
        elif isinstance(node, ast.Attribute) and (node.attr == "__dict__" or (
                node.attr == "modules" and isinstance(node.value, ast.Name) and node.value.id == "sys")):
            return True
    return False


Scope = ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda
NESTED = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)


def _scope_nodes(scope: Scope) -> list[ast.AST]:
    """The nodes of ``scope``'s parameters and body, not entering a nested function's body (the
    nested definition itself, its decorators and defaults, are this scope's)."""
    out: list[ast.AST] = []
    body = scope.body if isinstance(scope.body, list) else [scope.body]
    stack: list[ast.AST] = [scope.args, *body]
    while stack:
        node = stack.pop()
        out.append(node)
        if isinstance(node, NESTED):
            stack.extend([*getattr(node, "decorator_list", []), *node.args.defaults,
                          *(d for d in node.args.kw_defaults if d is not None)])
            continue
        stack.extend(ast.iter_child_nodes(node))
    return out


class _Scopes:
    """The scopes of ``register`` (itself and every function nested in it): the nodes of each,
    what each binds, and the scope around each."""

    def __init__(self, register: FunctionNode) -> None:
        self.register = register
        self.parent: dict[int, Scope | None] = {id(register): None}
        self.nodes: dict[int, list[ast.AST]] = {}
        self.binds: dict[int, dict[str, list[ast.AST]]] = {}
        self.scopes: dict[int, Scope] = {}
        todo: list[Scope] = [register]
        while todo:
            scope = todo.pop()
            self.scopes[id(scope)] = scope
            nodes = self.nodes[id(scope)] = [n for n in _scope_nodes(scope) if n is not scope]
            binds = self.binds[id(scope)] = {}
            args = scope.args
            for a in [*args.posonlyargs, *args.args, *args.kwonlyargs, *(x for x in (args.vararg, args.kwarg) if x)]:
                binds.setdefault(a.arg, []).append(a)
            for node in nodes:
                if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
                    binds.setdefault(node.id, []).append(node)
                elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    binds.setdefault(node.name, []).append(node)
                elif isinstance(node, ast.alias):
                    binds.setdefault(node.asname or node.name.partition(".")[0], []).append(node)
                elif isinstance(node, (ast.Global, ast.Nonlocal)):
                    for name in node.names:
                        binds.setdefault(name, []).append(node)
                if isinstance(node, NESTED):
                    self.parent[id(node)] = scope
                    todo.append(node)

    def owner(self, sid: int, name: str) -> Scope | None:
        """The scope of ``register`` that binds ``name`` as seen from scope ``sid`` (``None``:
        the module binds it, or nothing does)."""
        at: Scope | None = self.scopes[sid]
        while at is not None:
            if name in self.binds[id(at)]:
                return at
            at = self.parent[id(at)]
        return None

    def key(self, sid: int, name: str) -> tuple[int, str] | None:
        """``(scope id, name)`` of what ``name`` means in scope ``sid`` (``None``: the module's)."""
        at = self.owner(sid, name)
        return None if at is None else (id(at), name)


def _assignments(sc: _Scopes) -> dict[tuple[int, str], list[ast.Call | None]]:
    """``{(scope id, name): value of each binding}``: the call ``name = receiver.method(...)``
    for a plain assignment of that shape, ``None`` for any other binding."""
    values: dict[int, ast.AST] = {}
    for nodes in sc.nodes.values():
        for node in nodes:
            if isinstance(node, ast.Assign) and len(node.targets) == 1:
                values[id(node.targets[0])] = node.value
    out: dict[tuple[int, str], list[ast.Call | None]] = {}
    for sid, binds in sc.binds.items():
        for name, nodes in binds.items():
            for node in nodes:
                value = values.get(id(node))
                ok = (isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute)
                      and isinstance(value.func.value, ast.Name))
                out.setdefault((sid, name), []).append(value if ok else None)  # type: ignore[arg-type]
    return out


def _own_parsers(sc: _Scopes, command: str) -> set[tuple[int, str]]:
    """The names (``(scope id, name)``) bound only to the command's own parser or a parser
    below it (module docstring)."""
    param = (id(sc.register), sc.register.args.args[0].arg)
    parsers: set[tuple[int, str]] = set()
    subs: set[tuple[int, str]] = set()

    def kind(sid: int, call: ast.Call | None) -> str | None:
        if call is None:
            return None
        assert isinstance(call.func, ast.Attribute) and isinstance(call.func.value, ast.Name)
        receiver, method = sc.key(sid, call.func.value.id), call.func.attr
        if method == "add_parser" and receiver == param:
            first = call.args[0] if call.args else None
            named = isinstance(first, ast.Constant) and first.value == command
            # an alias could name another command (argparse before 3.11 let the later one win)
            return "parser" if named and not any(k.arg in ("aliases", None) for k in call.keywords) else None
        if method == "add_parser" and receiver in subs:
            return "parser"
        if method == "add_subparsers" and receiver in parsers:
            return "subparsers"
        return None

    assigned = _assignments(sc)
    grew = True
    while grew:
        grew = False
        for key, calls in assigned.items():
            if key in parsers or key in subs or key == param:
                continue
            kinds = {kind(key[0], c) for c in calls}  # None: bound another way too
            if kinds in ({"parser"}, {"subparsers"}):
                (parsers if kinds == {"parser"} else subs).add(key)
                grew = True
    return parsers


def own_handlers(tree: ast.Module, command: str) -> frozenset[int]:
    """The ``id`` of each bare name in ``tree`` that names a function only to hand it to the
    ``set_defaults`` of the command's own parser, or of a parser below it, in ``register``
    (module docstring): a keyword value of such a call that names a module function, and an
    argument given to a function nested in ``register`` for a parameter it uses only so
    (``add("new", run_new, ...)`` with ``sp.set_defaults(func=run, rfc_func=fn)`` in ``add``)."""
    found = top_functions(tree).get("register", [])
    if len(found) != 1 or not found[0].args.args or found[0].args.posonlyargs:
        return frozenset()
    sc = _Scopes(found[0])
    parsers = _own_parsers(sc, command)
    exempt: set[int] = set()
    handed: dict[tuple[int, str], set[int]] = {}
    for sid, nodes in sc.nodes.items():
        for node in nodes:
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr == "set_defaults" and isinstance(node.func.value, ast.Name)
                    and sc.key(sid, node.func.value.id) in parsers):
                continue
            for k in node.keywords:
                if isinstance(k.value, ast.Name):
                    key = sc.key(sid, k.value.id)
                    if key is None:
                        exempt.add(id(k.value))
                    else:
                        handed.setdefault(key, set()).add(id(k.value))
    for (sid, name), uses in handed.items():
        exempt |= _handed_arguments(sc, sid, name, uses)
    return frozenset(exempt)


def _handed_arguments(sc: _Scopes, sid: int, name: str, uses: set[int]) -> set[int]:
    """For parameter ``name`` of the function nested in ``register`` whose scope is ``sid``,
    when every use of it is in ``uses`` (handed to an own ``set_defaults``) and the function's
    name is used only to call it with plain arguments: the ``id`` of each bare name given for the
    parameter in those calls. Else nothing."""
    helper = sc.scopes[sid]
    if not isinstance(helper, (ast.FunctionDef, ast.AsyncFunctionDef)) or helper is sc.register:
        return set()
    params = [a.arg for a in helper.args.args]
    loads = {id(n) for n in sc.nodes[sid] if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load)}
    if name not in params or loads != uses or len(sc.binds[sid][name]) != 1:
        return set()
    index = params.index(name)
    parent = sc.parent[sid]
    if parent is None or len(sc.binds[id(parent)].get(helper.name, ())) != 1:
        return set()
    out: set[int] = set()
    for at, nodes in sc.nodes.items():
        calls = {id(c.func): c for c in nodes if isinstance(c, ast.Call)}
        for node in nodes:
            if not (isinstance(node, ast.Name) and node.id == helper.name and isinstance(node.ctx, ast.Load)
                    and sc.owner(at, helper.name) is parent):
                continue
            call = calls.get(id(node))
            if call is None or any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None
                                                                                           for k in call.keywords):
                return set()  # the helper handed on, or called with unpacked arguments
            given = [k.value for k in call.keywords if k.arg == name] + call.args[index:index + 1]
            out |= {id(v) for v in given if isinstance(v, ast.Name)}
    return out


def reachable(tree: ast.Module, named: set[str], everything: bool, command: str | None) -> set[str]:
    """The reachable top-level functions of ``tree`` (module docstring): ``named``, the words
    the counted modules that import it use; ``everything``, one of them looks names up by value;
    ``command``, the command name when the module is a command module of the CLI (its own
    ``set_defaults`` handlers are exempt), else ``None``."""
    top = top_functions(tree)
    bodies = {id(f) for defs in top.values() for f in defs}
    exempt = own_handlers(tree, command) if command is not None else frozenset()
    outside = list(_walk_outside([tree], bodies))
    if everything or looks_up_by_value(outside):
        return set(top)
    found = {n for n in top if n in ENTRY_POINTS or n in named or len(top[n]) > 1}
    found |= words(outside, exempt) & set(top)
    todo = list(found)
    while todo:
        for f in top[todo.pop()]:
            inner = list(ast.walk(f))
            if looks_up_by_value(inner):
                return set(top)
            for n in (words(inner, exempt) & set(top)) - found:
                found.add(n)
                todo.append(n)
    return found


def prune(tree: ast.Module, keep: set[str]) -> ast.Module:
    """``tree`` with the body of every top-level function not in ``keep`` replaced by ``pass``
    (in place; returned)."""
    for defs in top_functions(tree).values():
        for f in defs:
            if f.name not in keep:
                f.body = [ast.Pass()]
    return tree
