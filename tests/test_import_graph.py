"""The package's import graph, computed here from the source (issue 18, "One house").

Every ``import`` / ``from ... import`` in ``tools/evalport_spec`` is read with :mod:`ast`, at any
depth (imports inside functions count: they run too), relative imports resolved. The graph is
drawn between *units*: a top-level module (``evalport_spec/spec.py`` is ``spec``) or a top-level
subpackage (``evalport_spec/gate/**`` is ``gate``), as ``/work/shared/tools/import_graph.py``
draws it. Three rules:

* no cycle between units (a strongly connected component of more than one unit);
* no engine imports the CLI: only ``cli`` and ``__main__`` may import ``evalport_spec.cli``;
* no import by string: no call of ``importlib.import_module`` or ``__import__`` anywhere in the
  package (a module named in a string is invisible to this graph and to every reader).

The checker is tested on small packages written to ``tmp_path`` first, so a checker that sees
nothing cannot pass for a clean graph.
"""

from __future__ import annotations

import ast
from pathlib import Path

import evalport_spec

PACKAGE = Path(evalport_spec.__file__).parent
FRONT = ("cli", "__main__")
"""Units allowed to import ``cli``."""
STRING_IMPORTERS = ("import_module", "__import__")


def _module_name(path: Path, root: Path) -> list[str]:
    """Dotted parts of the module at ``path`` inside the package folder ``root`` (a package's
    ``__init__.py`` is the package itself)."""
    parts = [root.name, *path.relative_to(root).with_suffix("").parts]
    return parts[:-1] if parts[-1] == "__init__" else parts


def imported_modules(path: Path, root: Path) -> set[str]:
    """Absolute dotted names ``path`` imports from the package ``root`` (a folder whose name is
    the package name), at any depth of the file. ``from X import y`` yields both ``X`` and
    ``X.y`` (``y`` may be a submodule); names outside the package are left out."""
    package = root.name
    here = _module_name(path, root)
    is_package = path.name == "__init__.py"
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here if is_package else here[:-1]
                base = base[:len(base) - (node.level - 1)]
            else:
                base = []
            mod = ".".join(base + ([node.module] if node.module else []))
            names.add(mod)
            names.update(f"{mod}.{a.name}" for a in node.names)
    return {n for n in names if n == package or n.startswith(package + ".")}


def _unit(dotted: str) -> str | None:
    """The unit of an absolute module name (``evalport_spec.gate.stages`` -> ``gate``); None for
    the package itself."""
    parts = dotted.split(".")
    return parts[1] if len(parts) > 1 else None


def unit_graph(root: Path) -> dict[str, set[str]]:
    """``unit -> units it imports`` over every ``*.py`` under ``root`` (self-edges dropped; a name
    that is not a unit of the package, such as ``evalport_spec.__version__``, is dropped too)."""
    units = {p.relative_to(root).parts[0].removesuffix(".py") for p in root.rglob("*.py")}
    units.discard("__init__")
    graph: dict[str, set[str]] = {}
    for path in sorted(root.rglob("*.py")):
        here = _unit(".".join(_module_name(path, root)))
        if here is None:
            continue
        targets = {_unit(n) for n in imported_modules(path, root)}
        graph.setdefault(here, set()).update(t for t in targets if t in units and t != here)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of ``graph`` with more than one node, each sorted (Tarjan's
    algorithm, iterative so a deep graph cannot hit the recursion limit)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph.get(start, ()))))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return sorted(found)


def engine_imports_of_cli(graph: dict[str, set[str]]) -> list[str]:
    """Units other than the CLI front (``cli``, ``__main__``) that import ``cli``."""
    return sorted(u for u, targets in graph.items() if "cli" in targets and u not in FRONT)


def string_imports(root: Path) -> list[str]:
    """``file:line call`` for every call of ``import_module`` / ``__import__`` (bare or as an
    attribute, such as ``importlib.import_module``) under ``root``."""
    hits = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
            if name in STRING_IMPORTERS:
                hits.append(f"{path.relative_to(root.parent)}:{node.lineno} {ast.unparse(node)}")
    return hits


# ---- the checker itself, on packages written for the purpose ---------------------------------

def _write(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8")
    return root


def test_checker_sees_a_cycle_through_a_function_level_relative_import(tmp_path):
    pkg = _write(tmp_path / "pkg", {
        "__init__.py": "",
        "a.py": "from .b import thing\n",
        "b/__init__.py": "",
        "b/inner.py": "def f():\n    from ..c import other\n",
        "c.py": "import pkg.a\n",
        "d.py": "from . import a\n",  # d -> a only: not in the cycle
    })
    graph = unit_graph(pkg)
    assert graph == {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(graph) == [["a", "b", "c"]]


def test_checker_sees_an_engine_importing_the_cli(tmp_path):
    pkg = _write(tmp_path / "pkg", {
        "__init__.py": "",
        "__main__.py": "from .cli import main\n",
        "cli/__init__.py": "from ..engine import run\n",
        "engine.py": "def run():\n    from .cli.options import x\n",
    })
    graph = unit_graph(pkg)
    assert engine_imports_of_cli(graph) == ["engine"]
    assert cycles(graph) == [["cli", "engine"]]


def test_checker_sees_imports_by_string(tmp_path):
    pkg = _write(tmp_path / "pkg", {
        "__init__.py": "",
        "a.py": "import importlib\n\ndef f(n):\n    return importlib.import_module(f'pkg.{n}')\n",
        "b.py": "X = __import__('pkg.a')\nfrom importlib import resources\n",
    })
    assert string_imports(pkg) == ["pkg/a.py:4 importlib.import_module(f'pkg.{n}')",
                                   "pkg/b.py:1 __import__('pkg.a')"]


def test_checker_finds_nothing_in_a_layered_package(tmp_path):
    pkg = _write(tmp_path / "pkg", {
        "__init__.py": "from .low import x\n",
        "low.py": "import json\nx = 1\n",
        "mid/__init__.py": "from ..low import x\nfrom . import part\n",
        "mid/part.py": "from . import __name__ as n\nfrom pkg import low\n",
        "cli/__init__.py": "def main():\n    from ..mid import part\n",
    })
    graph = unit_graph(pkg)
    assert graph == {"low": set(), "mid": {"low"}, "cli": {"mid"}}
    assert cycles(graph) == [] and engine_imports_of_cli(graph) == [] and string_imports(pkg) == []


# ---- the package -----------------------------------------------------------------------------

def test_the_package_graph_is_read():
    graph = unit_graph(PACKAGE)
    # a few edges known from the code, so an empty graph cannot pass the tests below
    assert {"gate", "rfc", "compat"} <= graph["workflow"]
    assert "compat" in graph["gate"]
    assert "site" in graph["cli"]


def test_no_cycle_between_units():
    assert cycles(unit_graph(PACKAGE)) == []


def test_no_engine_imports_the_cli():
    assert engine_imports_of_cli(unit_graph(PACKAGE)) == []


def test_no_import_by_string():
    assert string_imports(PACKAGE) == []
