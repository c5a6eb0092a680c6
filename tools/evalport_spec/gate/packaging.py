"""The packaging that decides what the installed ``evalport-spec`` runs counts as rule code.

:mod:`.rulecode` reads the package's modules, but ``pip install`` of a tree runs more than the
package: ``pyproject.toml`` names the console script (``[project.scripts]``: which function
``evalport-spec validate`` calls), the dependencies (the JSON Schema and regular expression
libraries the validator imports) and the package data; ``setup.py`` (and ``setup.cfg``, and
``MANIFEST.in`` for a wheel built from the sdist) decides which spec files are bundled into the
wheel (``evalport_spec/_bundled/spec``, what ``validate`` reads outside a spec repository).
Red team: a branch pointing ``[project.scripts]`` at a new module of the package that no
counted module imports, or bundling a 1.3.0 ``grader.json`` with a raised ``minimum``, made the
installed ``validate`` reject documents the base accepts, and the gate of record gave only a
``toolchain-changed`` warning.

So each of :data:`PACKAGING_FILES` is read (never run) and digested into entries of
:attr:`.rulecode.RuleCode.modules` that no rule owns, so a change to any of them is every
rule's code (fail closed, as for the validator itself): ``pyproject.toml`` per table
(``[build-system]``, ``[project]`` without its descriptive keys :data:`DESCRIPTIVE`, and
``[tool.setuptools]``, with the files its ``dynamic`` table takes dependencies or entry points
from; other ``[tool.*]`` tables configure pytest, ruff and the like, which install nothing),
``setup.py`` as its syntax tree without docstrings (as a module), the others
as bytes. A file that does not parse digests as its bytes.
"""

from __future__ import annotations

import hashlib
import json
import tomllib
from collections.abc import Callable

from .rulecode import normalised_digest

PACKAGING_FILES = ("pyproject.toml", "setup.py", "setup.cfg", "MANIFEST.in")
"""Files at the root of a tree that decide what its installed command runs."""

PYPROJECT = "pyproject.toml"

DESCRIPTIVE = frozenset({"version", "description", "readme", "license", "license-files", "authors",
                         "maintainers", "keywords", "classifiers", "urls"})
"""Keys of ``[project]`` (PEP 621) that describe the distribution and change nothing it runs."""

COUNTED_TABLES = (("build-system",), ("project",), ("tool", "setuptools"))
"""Tables of ``pyproject.toml`` that decide what is built, installed and run."""


def _bytes_digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _table(doc: dict, path: tuple[str, ...]) -> object:
    value: object = doc
    for key in path:
        value = value.get(key) if isinstance(value, dict) else None
    return value


def dynamic_files(doc: dict) -> list[str]:
    """The files ``[tool.setuptools.dynamic]`` of a parsed ``pyproject.toml`` takes metadata from
    (``dependencies = {file = ["requirements.txt"]}``, ``entry-points = {file = ...}``, and one
    level deeper the groups of ``optional-dependencies``: ``optional-dependencies.dev = {file =
    ["dev.txt"]}``, however TOML spells the nesting), in the order written: their contents are
    the dependencies and console scripts, so they count as the table naming them does. Every
    ``file`` value at any depth of the table is taken (setuptools' ``dynamic`` metadata,
    "Dynamic metadata" in its pyproject.toml configuration guide): a key this reading does not
    know still names a file the build reads. Before session 35 only the first level was read,
    so the file of an optional-dependencies group could change what ``pip install .[dev]``
    installs without changing the digest."""
    out: list[str] = []
    todo: list[object] = [_table(doc, ("tool", "setuptools", "dynamic"))]
    while todo:
        spec = todo.pop(0)
        if not isinstance(spec, dict):
            continue
        files = spec.get("file")
        for name in [files] if isinstance(files, str) else files if isinstance(files, list) else []:
            if isinstance(name, str) and name not in out:
                out.append(name)
        todo.extend(v for k, v in spec.items() if k != "file")
    return out


def pyproject_digests(data: bytes, read: Callable[[str], bytes | None] | None = None) -> dict[str, str]:
    """``{"pyproject.toml [TABLE]": digest}`` for each of :data:`COUNTED_TABLES` present in
    ``data`` (``[project]`` without :data:`DESCRIPTIVE`), and with ``read`` (bytes of a file at
    the tree's root, ``None`` when absent) ``{"pyproject.toml [tool.setuptools.dynamic] FILE":
    digest}`` for each of :func:`dynamic_files` (an absent one digests as absent);
    ``{"pyproject.toml": digest of the bytes}`` when ``data`` is not TOML."""
    try:
        doc = tomllib.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError):
        return {PYPROJECT: "bytes:" + _bytes_digest(data)}
    out = {}
    for name in dynamic_files(doc) if read is not None else ():
        content = read(name)
        out[f"{PYPROJECT} [tool.setuptools.dynamic] {name}"] = (
            "absent" if content is None else _bytes_digest(content))
    for path in COUNTED_TABLES:
        value = _table(doc, path)
        if value is None:
            continue
        if path == ("project",) and isinstance(value, dict):
            value = {k: v for k, v in value.items() if k not in DESCRIPTIVE}
        text = json.dumps(value, sort_keys=True, default=str)
        out[f"{PYPROJECT} [{'.'.join(path)}]"] = _bytes_digest(text.encode())
    return out


def packaging_digests(read: Callable[[str], bytes | None]) -> dict[str, str]:
    """``{name: digest}`` of a tree's packaging (module docstring); ``read(name)`` gives the bytes
    of a file at the tree's root, ``None`` when it is absent (an absent file has no entry, so
    adding or removing one is a change).

    Raises:
        whatever ``read`` raises (an unreadable file, a link leaving the tree).
    """
    out: dict[str, str] = {}
    for name in PACKAGING_FILES:
        data = read(name)
        if data is None:
            continue
        if name == PYPROJECT:
            out.update(pyproject_digests(data, read))
        elif name.endswith(".py"):
            out[name] = normalised_digest(data)[0]
        else:
            out[name] = _bytes_digest(data)
    return out
