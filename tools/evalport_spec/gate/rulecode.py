"""Rule code compared by what it says, never by running it (issue 21: the gate fails closed).

Behaviour sampling (:mod:`evalport_spec.gate.behaviour`) can show that a rule changed, never
that it did not: an edit outside the corpus (DUPLICATE_ID made case-insensitive), or a rule that
behaves only while :mod:`~evalport_spec.gate.ruleprogram` runs it, slips through any finite
sample. So ``check --base REF`` also compares the base's and the branch's rule *code*, read as
files and parsed with :mod:`ast` (never imported or executed):

* **modules**: every module of the validation package (``evalport_spec/validation/``, the
  rules below it and the validator that decides which rule runs on which document, with which
  parameters, after which schema pass), every ``evalport_spec`` module they import (explicit
  ``import`` / ``from ... import`` statements, followed transitively; ``from package import
  name`` counts the package's ``__init__`` unless ``name`` is a submodule), and the package's
  own ``__init__`` (``evalport_spec``), which runs before any of them (counted as its own code:
  its imports are not followed), and the ``validate`` and ``conformance`` commands' path
  (:data:`COMMAND_MODULES` with their imports). The CLI's other command modules, which its
  ``__init__`` imports, are read **shallow** (:mod:`.reachable`): their module-level code,
  ``register`` and what those can call count, with the imports of that code; the function a
  command hands to its own parser (its ``run``) and what only it calls do not, since ``validate``,
  ``conformance`` and the rule program never run them (a change there is shown by
  ``toolchain-changed`` and tested by the canary, not reported as every rule's change). What
  stays whole is what those three can run: the CLI's ``__init__`` (``main`` dispatches
  ``validate``), ``spec.py``, ``fixtures.py`` (the ``conformance`` command's fixtures),
  ``fsutil.py`` and ``schemaset.py`` (how the validator reads files and schemas) and the rest of
  their imports. A module name is read as the file CPython would run for it
  (a package folder before a module of the same name, an extension module before source:
  :func:`_module_file`), and the package's importable binaries and the hash-based bytecode in
  its ``__pycache__`` folders, which run in place of the source the gate reads, count too;
* **digest** of a module: SHA-256 of :func:`ast.dump` of its syntax tree without docstrings, so
  comments, docstrings and formatting change nothing and any other edit changes it (a file
  that does not parse digests as its bytes);
* **a rule's code**: the module registering its code (a ``@register("CODE", ...)`` or
  ``@register_items("CODE", ...)`` decorator with a literal code) and that module's imports,
  transitively; a rule whose registration is not found that way has every module as its code;
* **code that runs on import** is every rule's: importing the rules package runs every counted
  module's top level in the validator's process, and a top level can rebind what any rule calls
  (``registry.json_key = ...``, ``resultset.SelfParent.finish = ...``). So a module whose
  import-time code (:func:`import_time_digest`: the module with every function body emptied)
  changed counts for every rule, and so does a changed module that is no *active* rule's code
  (a module registering only rules no catalogue activates, such as an RFC's proposal rules,
  is owned by nobody who is judged). Red team, session 35: ``rates.py`` (RFC 0006's inactive
  rules, imported first) rebound ``registry.json_key`` to compare ids in NFC, so SELF_PARENT
  of release 1.3.0 rejected more and no finding named it; ``suite.py`` patched
  ``SelfParent.finish`` and only DUPLICATE_ID and DANGLING_REFERENCE were named. A change
  inside a function body stays the code of the rules whose modules import it;
* **fail closed**: a changed module that is no rule's code (the validator, the schema pass, a
  package ``__init__``) is every rule's: it can change what any rule, or the validation the rules
  follow, rejects in every version, released ones included. When a counted module loads code
  by name (:data:`CODE_LOADERS`: ``import_module``, ``exec``, ``spec_from_file_location`` ...),
  every file of the package, ``.py`` or not, is every rule's code too; when it reads files
  (:data:`FILE_READERS`), every file of the package that is not Python source (``data/*.json``,
  templates) is. A ``.py`` file read as data is left to the reviewer of the edit that starts
  reading it: that edit changes a counted module, so it fails closed itself. Every importable
  file of ``tools/`` outside the package (a top-level module or package, which can take the
  place of a library the validator imports: :func:`.ruleprogram.beside_package`) is every
  rule's code too, and so is the packaging that decides what the installed command runs
  (``pyproject.toml``, ``setup.py`` ...: :mod:`.packaging`, added by the base stage with
  :meth:`RuleCode.with_modules`).

:func:`code_findings` turns the difference into one error finding ``rule-implementation-changed``
per rule active in some version: MAJOR with the behaviour comparison's valid -> invalid
document as witness when it found one, else undecided (the change is unproven, and the gate
treats undecided as MAJOR). Its fingerprint covers the rule's code digest on both sides
(:attr:`~evalport_spec.findings.Finding.item`), so an RFC accepting it accepts exactly that
edit, not a later one.
"""

from __future__ import annotations

import ast
import copy
import hashlib
from dataclasses import dataclass, field, replace
from importlib.machinery import BYTECODE_SUFFIXES, EXTENSION_SUFFIXES, SOURCE_SUFFIXES
from pathlib import Path

from ..errors import InputError
from ..findings import ChangeClass, Finding, Severity
from ..fsutil import read_limited
from .behaviour import Side, entry_location
from .reachable import looks_up_by_value, prune, reachable, words
from .ruleprogram import beside_package, runs_unchecked

KIND = "rule-implementation-changed"
"""The finding kind."""

PACKAGE = "evalport_spec"
RULES_MODULE = "evalport_spec.validation.rules"
"""Where the rules live (dotted), below :data:`PACKAGE`."""

VALIDATION_MODULE = "evalport_spec.validation"
"""The validation package (dotted): every module below it is counted (module docstring)."""

COMMAND_MODULES = ("evalport_spec/__main__.py", "evalport_spec/cli/__main__.py", "evalport_spec/cli/__init__.py",
                   "evalport_spec/cli/validate.py", "evalport_spec/cli/conformance.py")
"""The ``evalport-spec validate`` and ``conformance`` commands' own path (files relative to
``tools/``): the entry points, the CLI's ``main`` and the two commands that turn the validator's
violations into a verdict and an exit status. Counted with their imports like the validation
package (red team: a check added to ``validate``'s ``run`` rejected a TestCase the spec accepts,
and the gate only warned ``toolchain-changed``)."""

CLI_PACKAGE = "evalport_spec/cli/"
"""The CLI's folder: the other command modules, which the CLI's ``__init__`` imports (their
module-level code and ``register`` run on every command), are read shallow (:mod:`.reachable`:
a command's ``run``, never called by ``validate``, and the engine it imports inside the function
are left out), unless a module read whole imports them too."""

REGISTER = ("register", "register_items")
"""Decorators that register a rule under a literal catalogue code (``validation/rules/registry.py``)."""

CODE_LOADERS = frozenset({"__import__", "import_module", "exec", "eval", "compile", "run_path",
                          "run_module", "exec_module", "load_module", "spec_from_file_location"})
"""Names (called bare; as attributes too, but for ``exec``/``eval``/``compile``, which are
common method names) by which a module can run code the import graph does not show."""

FILE_READERS = frozenset({"open", "read_text", "read_bytes"})
"""Names (called bare or as attributes) by which a module can read data the import graph does
not show."""

IMPORT_SUFFIXES = (*EXTENSION_SUFFIXES, *SOURCE_SUFFIXES, *BYTECODE_SUFFIXES)
"""What a module's file may end with, in the order CPython's path finder
(:class:`importlib.machinery.FileFinder`) tries them: extension modules, then source, then
sourceless bytecode."""

MAX_MODULE_BYTES = 8 * 1024 * 1024
"""A module larger than this is refused (the tree under review is untrusted input)."""

DIGEST_CHARS = 16
"""Hex digits of a rule's code digest kept in findings (the item of the fingerprint)."""


@dataclass(frozen=True)
class RuleCode:
    """The rule code of one ``tools/`` folder, read statically.

    Attributes:
        modules: ``{file: digest}`` of every module counted (module docstring), files named
            relative to ``tools/`` (``evalport_spec/validation/rules/suite.py``); when
            :attr:`dynamic`, every other file of the package too; else when :attr:`reads_files`,
            every file of the package that is not a ``.py`` module.
        rules: ``{code: file of the module registering it}``.
        imports: ``{registering module: the modules it imports, transitively, itself included}``.
        dynamic: some counted module loads code by name (:data:`CODE_LOADERS`).
        reads_files: some counted module reads files (:data:`FILE_READERS`).
    """

    modules: dict[str, str]
    rules: dict[str, str]
    imports: dict[str, frozenset[str]]
    dynamic: bool
    reads_files: bool = False
    import_time: dict[str, str] = field(default_factory=dict)
    """``{file: digest}`` of each parsed module's import-time code (:func:`import_time_digest`)."""

    def with_modules(self, extra: dict[str, str]) -> RuleCode:
        """This rule code with ``extra`` (``{name: digest}``) counted as modules no rule owns,
        so that a change to any of them is every rule's (:mod:`.packaging`)."""
        return replace(self, modules={**self.modules, **extra})

    def code_of(self, code: str) -> frozenset[str]:
        """The modules that are rule ``code``'s code (every module when its registration is
        not found statically)."""
        module = self.rules.get(code)
        return self.imports[module] if module is not None else frozenset(self.modules)

    def owned(self, codes: set[str] | None = None) -> frozenset[str]:
        """The modules that are the code of some rule of ``codes`` (every registered rule when
        ``None``): the import closures of the modules registering them."""
        starts = {m for c, m in self.rules.items() if codes is None or c in codes}
        return frozenset().union(*(self.imports[m] for m in starts if m in self.imports))

    def digest(self, code: str, codes: set[str] | None = None) -> str:
        """Digest of rule ``code``'s code when ``codes`` are the rules judged: SHA-256 over its
        modules' names and digests, the modules no rule of ``codes`` owns, and every module's
        import-time digest (:func:`changed_code` counts a change of either for every rule), so
        an acceptance of one such edit does not carry over to another."""
        names = sorted(self.code_of(code) | (set(self.modules) - self.owned(codes)))
        h = hashlib.sha256()
        for name in names:
            h.update(f"{name}\0{self.modules[name]}\1".encode())
        for name in sorted(self.import_time):
            h.update(f"{name}\0import\0{self.import_time[name]}\1".encode())
        return h.hexdigest()[:DIGEST_CHARS]


def _strip_docstrings(tree: ast.AST) -> ast.AST:
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                    and isinstance(body[0].value.value, str):
                node.body = body[1:]
    return tree


def normalised_digest(source: bytes) -> tuple[str, ast.Module | None]:
    """``(digest, tree)`` of a module's ``source``: SHA-256 of ``ast.dump`` of its syntax tree
    without docstrings (no line numbers: comments and formatting do not count); a source that
    does not parse gives the digest of its bytes and no tree."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return "bytes:" + hashlib.sha256(source).hexdigest(), None
    dump = ast.dump(_strip_docstrings(tree), include_attributes=False)
    return hashlib.sha256(dump.encode()).hexdigest(), tree


def import_time_digest(tree: ast.Module) -> str:
    """SHA-256 of ``tree`` (parsed, docstrings already stripped by :func:`normalised_digest`)
    with the body of every function emptied: what importing the module runs (its imports,
    assignments, class bodies, decorators and default values), not what its functions do when
    called. Lambdas keep their bodies (one assigned at import may replace anything)."""
    shell = copy.deepcopy(tree)
    for node in ast.walk(shell):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            node.body = [ast.Pass()]
    return hashlib.sha256(ast.dump(shell, include_attributes=False).encode()).hexdigest()


def _module_file(tools: Path, name: str) -> str | None:
    """The file (relative to ``tools``, POSIX) that importing dotted module ``name`` runs, or
    ``None``: chosen as CPython's path finder (:class:`importlib.machinery.FileFinder`) chooses
    it, a package folder's ``__init__`` before a module file of the same name, each tried with
    :data:`IMPORT_SUFFIXES` in order. (A folder ``pointer/`` with an ``__init__.py`` runs in place
    of ``pointer.py``, and an extension module in place of the source beside it: red team.)"""
    base = tools.joinpath(*name.split("."))
    candidates = [base / f"__init__{s}" for s in IMPORT_SUFFIXES]
    candidates += [base.with_name(base.name + s) for s in IMPORT_SUFFIXES]
    for p in candidates:
        if p.is_file():
            return p.relative_to(tools).as_posix()
    return None


def _counted_file(rel: str, path: Path, dynamic: bool, reads_files: bool) -> bool:
    """Whether a package file no import statement reached is rule code all the same (module
    docstring): hash-based bytecode in ``__pycache__`` (:func:`.ruleprogram.runs_unchecked`);
    any importable binary (an extension module, sourceless bytecode); any source file when a
    counted module loads code by name (``dynamic``); any other file when one reads files
    (``reads_files``)."""
    if "__pycache__" in rel.split("/"):
        return runs_unchecked(read_limited(path, max_bytes=MAX_MODULE_BYTES, label=str(path)))
    if rel.endswith(tuple(SOURCE_SUFFIXES)):
        return dynamic  # read as data only by an edit that itself changes a counted module
    return dynamic or reads_files or rel.endswith(IMPORT_SUFFIXES)


def _imported(tools: Path, path: str, tree: ast.Module) -> set[str]:
    """Files of the ``evalport_spec`` modules that ``tree`` (the module at ``path``) imports
    explicitly."""
    dotted = path.removesuffix(".py").replace("/", ".")
    package = dotted.removesuffix(".__init__") if path.endswith("/__init__.py") else dotted.rpartition(".")[0]
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                parts = alias.name.split(".")
                names.update(".".join(parts[:i]) for i in range(2, len(parts) + 1))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                anchor = package.split(".")
                anchor = anchor[:len(anchor) - (node.level - 1)]
                source = ".".join(anchor + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            for alias in node.names:
                sub = f"{source}.{alias.name}"
                names.add(sub if _module_file(tools, sub) is not None else source)
    files = {_module_file(tools, n) for n in names if n.split(".")[0] == PACKAGE}
    return {f for f in files if f is not None}


def _registrations(tree: ast.Module) -> list[str]:
    codes = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            for d in node.decorator_list:
                if isinstance(d, ast.Call) and d.args and isinstance(d.args[0], ast.Constant) \
                        and isinstance(d.args[0].value, str):
                    name = d.func.attr if isinstance(d.func, ast.Attribute) else getattr(d.func, "id", None)
                    if name in REGISTER:
                        codes.append(d.args[0].value)
    return codes


def _calls(tree: ast.Module, names: frozenset[str], attributes: frozenset[str]) -> bool:
    """Whether ``tree`` calls one of ``names`` bare, or one of ``attributes`` as an attribute."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            f = node.func
            if isinstance(f, ast.Name) and f.id in names:
                return True
            if isinstance(f, ast.Attribute) and f.attr in attributes:
                return True
    return False


def _closure(start: str, direct: dict[str, set[str]]) -> frozenset[str]:
    seen = {start}
    todo = [start]
    while todo:
        for m in direct.get(todo.pop(), ()):
            if m not in seen:
                seen.add(m)
                todo.append(m)
    return frozenset(seen)


def _parse(data: bytes) -> ast.Module | None:
    """``data`` parsed, docstrings stripped (``None`` when it does not parse)."""
    return normalised_digest(data)[1]


def _command(path: str) -> str | None:
    """The command name of a module directly in :data:`CLI_PACKAGE` (``check`` for
    ``evalport_spec/cli/check.py``), else ``None``."""
    rest = path.removeprefix(CLI_PACKAGE)
    return rest.removesuffix(".py") if rest != path and "/" not in rest and rest.endswith(".py") else None


def rule_code(tools: Path) -> RuleCode:
    """The :class:`RuleCode` of the ``evalport_spec`` package under ``tools`` (module
    docstring); a tree without the rules package has no rule code.

    Raises:
        InputError: a module cannot be read (not a regular file, too large, unreadable).
    """
    rules_dir = tools.joinpath(*RULES_MODULE.split("."))
    if not (rules_dir / "__init__.py").is_file():
        return RuleCode({}, {}, {}, False)
    above = {f"{PACKAGE}/__init__.py"}
    validation_dir = tools.joinpath(*VALIDATION_MODULE.split("."))
    todo = ([p.relative_to(tools).as_posix() for p in sorted(validation_dir.rglob("*.py"))] + sorted(above)
            + list(COMMAND_MODULES))
    modules: dict[str, str] = {}
    import_time: dict[str, str] = {}
    direct: dict[str, set[str]] = {}
    counted: dict[str, ast.Module] = {}  # the code of each module that runs (shallow ones pruned)
    rules: dict[str, str] = {}
    seeds: set[str] = set()  # command modules reached only through the CLI's __init__: read shallow
    dynamic = reads_files = False
    while todo:  # the full closure: every module's whole code, its imports followed
        path = todo.pop()
        if path in modules or not (tools / path).is_file():
            continue
        data = read_limited(tools / path, max_bytes=MAX_MODULE_BYTES, label=str(tools / path))
        modules[path], tree = normalised_digest(data)
        direct[path] = set()
        if tree is not None:
            import_time[path] = import_time_digest(tree)
        if tree is None:
            dynamic = dynamic or not path.endswith(tuple(SOURCE_SUFFIXES))  # binary: imports unknown
            continue
        counted[path] = tree
        for code in _registrations(tree):
            rules.setdefault(code, path)
        if path not in above:  # the package's __init__ counts as its own code only (it runs first)
            direct[path] = _imported(tools, path, tree)
            held = set()
            if path == f"{CLI_PACKAGE}__init__.py":  # its command modules: shallow, unless reached otherwise
                held = {m for m in direct[path] if _command(m) is not None and m not in COMMAND_MODULES}
                seeds |= held
            todo.extend(direct[path] - set(modules) - held)
    shallow = _read_shallow(tools, seeds - set(modules), modules, direct, counted)
    for path in shallow:
        tree = counted[path]
        modules[path] = "shallow:" + hashlib.sha256(ast.dump(tree, include_attributes=False).encode()).hexdigest()
    for tree in counted.values():
        dynamic = dynamic or _calls(tree, CODE_LOADERS, CODE_LOADERS - {"exec", "eval", "compile"})
        reads_files = reads_files or _calls(tree, FILE_READERS, FILE_READERS)
    imports = {m: _closure(m, direct) for m in set(rules.values())}
    for p in sorted((tools / PACKAGE).rglob("*")):
        rel = p.relative_to(tools).as_posix()
        if not p.is_file() or rel in modules or not _counted_file(rel, p, dynamic, reads_files):
            continue
        data = read_limited(p, max_bytes=MAX_MODULE_BYTES, label=str(p))
        modules[rel] = (normalised_digest(data)[0] if rel.endswith(".py")
                        else hashlib.sha256(data).hexdigest())
    modules.update(_beside_package(tools))
    return RuleCode(modules, rules, imports, dynamic, reads_files, import_time)


def _read_shallow(tools: Path, seeds: set[str], full: dict[str, str], direct: dict[str, set[str]],
                  counted: dict[str, ast.Module]) -> set[str]:
    """Read the modules reached only through ``seeds`` (the command modules the CLI's
    ``__init__`` imports, outside :data:`COMMAND_MODULES`) shallow (:mod:`.reachable`): each
    one's code pruned to its reachable functions goes into ``counted``, its imports from that
    code into ``direct`` (followed, shallow too unless in ``full``). Returns the shallow modules.
    A module that does not parse is read whole (its bytes: a binary's imports are unknown).

    Raises:
        InputError: a module cannot be read.
    """
    shallow: set[str] = set()
    sources: dict[str, bytes] = {}
    todo = sorted(seeds)
    changed = True
    while changed:
        changed = False
        while todo:
            path = todo.pop()
            if path in shallow or path in full or not (tools / path).is_file():
                continue
            sources[path] = read_limited(tools / path, max_bytes=MAX_MODULE_BYTES, label=str(tools / path))
            shallow.add(path)
            changed = True
        for path in sorted(shallow):
            tree = _parse(sources[path])
            if tree is None:
                full[path] = normalised_digest(sources[path])[0]
                direct[path] = set()
                shallow.discard(path)
                continue
            importers = [counted[k] for k, imported in direct.items() if path in imported and k in counted]
            named = set().union(*(words(ast.walk(t)) for t in importers)) if importers else set()
            everything = any(looks_up_by_value(ast.walk(t)) for t in importers)
            pruned = prune(tree, reachable(tree, named, everything, _command(path)))
            before = counted.get(path)
            if before is None or ast.dump(before) != ast.dump(pruned):
                counted[path] = pruned
                direct[path] = _imported(tools, path, pruned)
                todo.extend(sorted(direct[path] - shallow - set(full)))
                changed = True
    return shallow


def _beside_package(tools: Path) -> dict[str, str]:
    """``{file: digest}`` of :func:`.ruleprogram.beside_package`: modules no rule owns, so each
    counts for every rule."""
    out: dict[str, str] = {}
    for p in beside_package(tools):
        rel = p.relative_to(tools).as_posix()
        data = read_limited(p, max_bytes=MAX_MODULE_BYTES, label=str(p))
        out[rel] = normalised_digest(data)[0] if rel.endswith(".py") else hashlib.sha256(data).hexdigest()
    return out


def changed_code(old: RuleCode, new: RuleCode, codes: set[str]) -> dict[str, list[str]]:
    """``{code: changed modules}`` for each of ``codes`` whose code differs between ``old``
    and ``new``: the changed modules (digest differs, or present on one side only) that are
    its code on either side, plus, for every rule (fail closed), changed modules that are no
    rule of ``codes``'s code and changed modules whose import-time code changed (module
    docstring)."""
    changed = {m for m in set(old.modules) | set(new.modules) if old.modules.get(m) != new.modules.get(m)}
    if not changed:
        return {}
    owned = old.owned(codes) | new.owned(codes)
    on_import = {m for m in changed if old.import_time.get(m) != new.import_time.get(m)
                 and (m in old.import_time or m in new.import_time)}
    orphans = (changed - owned) | on_import
    out = {}
    for code in sorted(codes):
        hit = ((old.code_of(code) | new.code_of(code)) & changed) | orphans
        if hit:
            out[code] = sorted(hit)
    return out


def code_findings(old: Side, new: Side, old_code: RuleCode, new_code: RuleCode,
                  active_in: dict[str, list[str]], behaviour: list[Finding], compared: int) -> list[Finding]:
    """One ``rule-implementation-changed`` error per rule of ``active_in`` (``{code: versions
    whose catalogue has it hand-rolled}``) whose code differs between the sides (module
    docstring). A ``rule-behaviour-tightened`` finding of ``behaviour`` for the rule gives the
    witness and makes it MAJOR; without one it is undecided. ``compared``: how many documents
    the behaviour comparison ran (for the message)."""
    witnessed = {f.code: f for f in behaviour if f.kind == "rule-behaviour-tightened"}
    out = []
    for code, modules in changed_code(old_code, new_code, set(active_in)).items():
        seen = witnessed.get(code)
        names = ", ".join(modules)
        head = (f"{code}: its implementation differs from {old.label}'s in meaning ({names} changed; "
                f"the rule is active in {', '.join(active_in[code])})")
        if seen is not None:
            tail = seen.message.split(": ", 1)[1] if ": " in seen.message else seen.message
            message = f"{head}; {tail}"
        else:
            message = (f"{head}; none of the {compared} document(s) compared tells the two apart, so "
                       "the change is unproven and counts as breaking (rule code is judged by its "
                       "code, not by a sample; an edit reviewers agree keeps every verdict is accepted "
                       "by an entry for this fingerprint in gate-ignore.yml landed before it)")
        item = {"rule": code, "from": old_code.digest(code, set(active_in)),
                "to": new_code.digest(code, set(active_in))}
        out.append(Finding(
            KIND, message, ChangeClass.MAJOR, Severity.ERROR,
            entry_location(old.version, code), entry_location(new.version, code),
            witness=seen.witness if seen is not None else None, code=code, undecided=seen is None,
            item=item, extra={**(seen.extra if seen is not None else {}), "modules": modules,
                              "versions": active_in[code]}))
    return out


def rule_code_of(tools: Path, label: str) -> RuleCode:
    """:func:`rule_code` with ``label`` (the side's name) in the error message.

    Raises:
        InputError: a module of ``label``'s rule code cannot be read.
    """
    try:
        return rule_code(tools)
    except InputError as exc:
        raise InputError(f"cannot read the rule code of {label}: {exc.message}") from None
