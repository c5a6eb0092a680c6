"""Every third-party module the package imports is a declared runtime dependency (issue 18).

A module that arrives only as another library's dependency (``jsonpointer`` through
``jsonpatch``) works until that library drops it; so every ``import`` in
``tools/evalport_spec`` of a module outside the standard library and outside the package must
map (``importlib.metadata.packages_distributions``) to a distribution named in
``[project] dependencies`` of pyproject.toml. Two exceptions, both declared too: the site
(``evalport_spec/site/``) may also use the ``docs`` extra (``evalport-spec docs`` needs it), and an
import inside ``try: ... except ImportError`` is optional (the code runs without it).
"""

from __future__ import annotations

import ast
import sys
import tomllib
from importlib.metadata import packages_distributions
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

import evalport_spec

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = Path(evalport_spec.__file__).parent


def _optional(tree: ast.AST) -> set[int]:
    """``id()`` of the import nodes inside a ``try`` that catches ``ImportError`` (or a bare
    ``except``, or ``ModuleNotFoundError``)."""
    out: set[int] = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Try):
            continue
        caught = {ast.unparse(h.type) if h.type is not None else "" for h in node.handlers}
        if caught & {"ImportError", "ModuleNotFoundError", ""}:
            out.update(id(n) for stmt in node.body for n in ast.walk(stmt)
                       if isinstance(n, ast.Import | ast.ImportFrom))
    return out


def top_level_imports(root: Path, site: bool | None = None) -> dict[str, str]:
    """``{top-level module name: first file:line importing it}`` for the absolute, not optional
    (see the module docstring) imports under ``root`` (relative imports and the package itself
    left out); ``site`` True keeps only the files of ``root/site``, False all but those."""
    found: dict[str, str] = {}
    for path in sorted(root.rglob("*.py")):
        if site is not None and site != path.is_relative_to(root / "site"):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        optional = _optional(tree)
        for node in ast.walk(tree):
            if id(node) in optional:
                continue
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
                names = [node.module]
            else:
                continue
            for name in names:
                found.setdefault(name.split(".")[0], f"{path.relative_to(root.parent)}:{node.lineno}")
    found.pop(root.name, None)
    return found


def third_party(imports: dict[str, str]) -> dict[str, str]:
    """``imports`` without the standard library's modules (``sys.stdlib_module_names``)."""
    return {m: where for m, where in imports.items()
            if m not in sys.stdlib_module_names and m != "__future__"}


def declared(pyproject: Path, extra: str | None = None) -> set[str]:
    """Canonical distribution names (PEP 503) of ``[project] dependencies`` (PEP 508), plus those
    of ``[project.optional-dependencies] extra`` when given."""
    project = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]
    reqs = project["dependencies"] + (project["optional-dependencies"][extra] if extra else [])
    return {canonicalize_name(Requirement(r).name) for r in reqs}


def undeclared(imports: dict[str, str], names: set[str]) -> list[str]:
    """``module (file:line)`` for each imported module no declared distribution provides."""
    providers = packages_distributions()
    out = []
    for module, where in sorted(imports.items()):
        dists = {canonicalize_name(d) for d in providers.get(module, [])}
        if not dists & names:
            out.append(f"{module} ({where}; from {sorted(dists) or 'no installed distribution'})")
    return out


def test_the_checker_sees_an_import_no_dependency_declares(tmp_path):
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "a.py").write_text("import json\nimport yaml\nfrom jsonpointer import resolve_pointer\n"
                              "from . import b\ntry:\n    import ujson\nexcept ImportError:\n"
                              "    ujson = None\n", encoding="utf-8")
    imports = third_party(top_level_imports(pkg))
    assert set(imports) == {"yaml", "jsonpointer"}
    assert [u.split(" ")[0] for u in undeclared(imports, {"pyyaml"})] == ["jsonpointer"]
    assert undeclared(imports, {"pyyaml", "jsonpointer"}) == []


def test_every_third_party_import_of_the_package_is_declared():
    imports = third_party(top_level_imports(PACKAGE))
    assert {"jsonschema", "referencing", "orjson", "semver", "deepdiff"} <= set(imports)
    engines = third_party(top_level_imports(PACKAGE, site=False))
    site = third_party(top_level_imports(PACKAGE, site=True))
    assert set(imports) == set(engines) | set(site) and "markdown" in site
    assert undeclared(engines, declared(ROOT / "pyproject.toml")) == []
    assert undeclared(site, declared(ROOT / "pyproject.toml", "docs")) == []
