"""The static reading of rule code (:mod:`evalport_spec.gate.rulecode`): digests that ignore
docstrings, comments and layout, and which rules a changed module belongs to (fail closed)."""

from __future__ import annotations

import py_compile
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

from evalport_spec.gate.rulecode import changed_code, normalised_digest, rule_code
from evalport_spec.gate.ruleprogram import program_for_tree

RULES = "evalport_spec/validation/rules"


def test_docstrings_comments_and_layout_do_not_count_but_code_does():
    plain = b'def f(x):\n    return x.lower()\n'
    same = b'def f(x):\n    """Lower-case."""\n    # a comment\n    return (\n        x.lower()\n    )\n'
    changed = b'def f(x):\n    return x.casefold()\n'
    assert normalised_digest(plain)[0] == normalised_digest(same)[0]
    assert normalised_digest(plain)[0] != normalised_digest(changed)[0]
    assert normalised_digest(b"def (:\n")[0].startswith("bytes:")  # unparsable: its bytes


def write(tools: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        p = tools / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
    return tools


def tree(tmp: Path, overrides: dict[str, str] | None = None) -> Path:
    """A miniature package: rule A in a.py (imports helper.py), rule B in b.py (does not)."""
    files = {
        "evalport_spec/__init__.py": "",
        "evalport_spec/validation/__init__.py": "",
        "evalport_spec/helper.py": "def h(x):\n    return x\n",
        "evalport_spec/other.py": "def unrelated():\n    return 1\n",
        f"{RULES}/__init__.py": "from . import a, b\n",
        f"{RULES}/registry.py": "def register(code, doc):\n    return lambda f: f\n",
        f"{RULES}/a.py": "from ...helper import h\nfrom .registry import register\n\n"
                         "@register('A', 'suite')\ndef a(doc):\n    return h(doc)\n",
        f"{RULES}/b.py": "from .registry import register\n\n@register('B', 'suite')\ndef b(doc):\n    return []\n",
    }
    files.update(overrides or {})
    return write(tmp, files)


def test_a_changed_module_names_the_rules_whose_code_it_is(tmp_path):
    old = rule_code(tree(tmp_path / "old"))
    assert old.rules == {"A": f"{RULES}/a.py", "B": f"{RULES}/b.py"}
    assert "evalport_spec/other.py" not in old.modules  # no rule imports it
    helper = rule_code(tree(tmp_path / "helper", {"evalport_spec/helper.py": "def h(x):\n    return x[::-1]\n"}))
    assert changed_code(old, helper, {"A", "B"}) == {"A": ["evalport_spec/helper.py"]}
    assert old.digest("A") != helper.digest("A") and old.digest("B") == helper.digest("B")
    # the rules package's __init__ is no rule's own code: it runs before all of them
    init = rule_code(tree(tmp_path / "init", {f"{RULES}/__init__.py": "from . import b, a\n"}))
    assert changed_code(old, init, {"A", "B"}) == {c: [f"{RULES}/__init__.py"] for c in ("A", "B")}
    unrelated = rule_code(tree(tmp_path / "other", {"evalport_spec/other.py": "def unrelated():\n    return 2\n"}))
    assert changed_code(old, unrelated, {"A", "B"}) == {}



def test_a_module_of_inactive_rules_is_every_active_rules_code(tmp_path):
    # red team, session 35: rates.py registers only RFC 0006's proposal rules (no catalogue
    # activates them) and is imported first by the rules package; appended to it,
    # `registry.json_key = <NFC key>` made SELF_PARENT of release 1.3.0 reject more, and no
    # finding named it (the module was "owned" by rules nobody judges)
    proposal = ("from .registry import register\n\n@register('C', 'resultset')\n"
                "def c(doc):\n    return []\n")
    base = {f"{RULES}/__init__.py": "from . import c, a, b\n", f"{RULES}/c.py": proposal}
    old = rule_code(tree(tmp_path / "old", base))
    assert old.rules["C"] == f"{RULES}/c.py"
    rebinding = proposal + "\nfrom . import registry\nregistry.register = lambda code, doc: (lambda f: f)\n"
    new = rule_code(tree(tmp_path / "new", {**base, f"{RULES}/c.py": rebinding}))
    assert changed_code(old, new, {"A", "B"}) == {c: [f"{RULES}/c.py"] for c in ("A", "B")}
    # even an edit inside its function: the rules it registers are judged by nobody
    body = rule_code(tree(tmp_path / "body", {**base, f"{RULES}/c.py": proposal.replace("return []", "return [1]")}))
    assert changed_code(old, body, {"A", "B"}) == {c: [f"{RULES}/c.py"] for c in ("A", "B")}
    assert changed_code(old, body, {"A", "B", "C"}) == {"C": [f"{RULES}/c.py"]}  # once C is active, it is C's
    assert old.digest("A", {"A", "B"}) != new.digest("A", {"A", "B"})


def test_code_that_runs_on_import_is_every_rules_code(tmp_path):
    # red team, session 35: suite.py (DUPLICATE_ID, DANGLING_REFERENCE) patched
    # resultset.SelfParent.finish at import time; only the two suite rules were named, so an
    # acceptance of "a suite refactor" would have excused a change of SELF_PARENT
    old = rule_code(tree(tmp_path / "old"))
    patch = "\nfrom . import a\na.a = lambda doc: ['x']\n"
    patched = rule_code(tree(tmp_path / "patched", {f"{RULES}/b.py": tree_text(tmp_path / "old", "b.py") + patch}))
    assert changed_code(old, patched, {"A", "B"}) == {c: [f"{RULES}/b.py"] for c in ("A", "B")}
    assert old.digest("A", {"A", "B"}) != patched.digest("A", {"A", "B"})
    # a change inside a function body stays the code of the rules whose modules import it
    body = rule_code(tree(tmp_path / "body", {f"{RULES}/b.py": tree_text(tmp_path / "old", "b.py")
                                              .replace("return []", "return ['y']")}))
    assert changed_code(old, body, {"A", "B"}) == {"B": [f"{RULES}/b.py"]}
    assert old.digest("A", {"A", "B"}) == body.digest("A", {"A", "B"})
    # a new top-level helper runs on import (it is a definition, but so is a patch): every rule
    helper = rule_code(tree(tmp_path / "helper", {f"{RULES}/b.py": tree_text(tmp_path / "old", "b.py")
                                                  + "\ndef _fold(x):\n    return x\n"}))
    assert changed_code(old, helper, {"A", "B"}) == {c: [f"{RULES}/b.py"] for c in ("A", "B")}


def tree_text(tools: Path, rule_file: str) -> str:
    """The text of ``rule_file`` in the rules folder of the miniature package at ``tools``."""
    return (tools / RULES / rule_file).read_text()

def test_the_validator_that_dispatches_the_rules_and_what_it_imports_are_every_rules_code(tmp_path):
    # the red team's route: the loop that picks which rules run on which document type is not a
    # rule's module, yet an edit there (a Suite rule run on TestCases) tightens a released version
    validator = ("from .rules import a\nfrom ..schemapass import schema_errors\n\n"
                 "def check(doc, kind):\n    return [r for r in ('A', 'B') if kind == 'suite']\n")
    schemapass = "def schema_errors(doc):\n    return []\n"
    base = {"evalport_spec/validation/validator.py": validator, "evalport_spec/schemapass.py": schemapass}
    old = rule_code(tree(tmp_path / "old", base))
    assert {"evalport_spec/validation/validator.py", "evalport_spec/schemapass.py"} <= set(old.modules)
    assert "evalport_spec/other.py" not in old.modules  # nothing on the validation path imports it
    dispatch = rule_code(tree(tmp_path / "dispatch", {**base, "evalport_spec/validation/validator.py":
                                                      validator.replace("kind == 'suite'", "kind in ('suite', 'testcase')")}))
    assert changed_code(old, dispatch, {"A", "B"}) == {
        c: ["evalport_spec/validation/validator.py"] for c in ("A", "B")}
    assert old.digest("B") != dispatch.digest("B")  # an acceptance of the old code does not carry over
    deeper = rule_code(tree(tmp_path / "deeper", {**base, "evalport_spec/schemapass.py":
                                                  "def schema_errors(doc):\n    return ['x']\n"}))
    assert changed_code(old, deeper, {"A", "B"}) == {c: ["evalport_spec/schemapass.py"] for c in ("A", "B")}



CLI = {
    "evalport_spec/__main__.py": "from .cli import main\nmain()\n",
    "evalport_spec/cli/__init__.py": "from . import check, validate\n\ndef main():\n"
                                     "    from ..helper import h\n    return h(0)\n",
    "evalport_spec/cli/validate.py": "def run(args):\n    from ..validation import validator\n"
                                     "    return 0\n",
    "evalport_spec/cli/check.py": "from ..helper import h\n\ndef register(p):\n    return p\n\n"
                                  "def run(args):\n    from ..other import unrelated\n    return unrelated()\n",
}


def test_the_validate_commands_path_is_every_rules_code(tmp_path):
    # red team: a check added to `validate`'s run (the exit status) rejected a TestCase the spec
    # accepts, and the gate only warned toolchain-changed
    old = rule_code(tree(tmp_path / "old", CLI))
    assert {"evalport_spec/__main__.py", "evalport_spec/cli/__init__.py", "evalport_spec/cli/validate.py",
            "evalport_spec/cli/check.py"} <= set(old.modules)
    assert "evalport_spec/other.py" not in old.modules  # only another command's run imports it
    stricter = CLI["evalport_spec/cli/validate.py"].replace("return 0", "return 1 if args.files else 0")
    new = rule_code(tree(tmp_path / "new", {**CLI, "evalport_spec/cli/validate.py": stricter}))
    assert changed_code(old, new, {"A", "B"}) == {c: ["evalport_spec/cli/validate.py"] for c in ("A", "B")}
    # every command module runs on import (the CLI's __init__ imports them): a patch there counts
    patched = CLI["evalport_spec/cli/check.py"] + "import evalport_spec.validation.validator as v\nv.check = None\n"
    new = rule_code(tree(tmp_path / "patched", {**CLI, "evalport_spec/cli/check.py": patched}))
    assert changed_code(old, new, {"A"}) == {"A": ["evalport_spec/cli/check.py"]}


def test_reading_files_or_importing_by_string_makes_the_whole_package_every_rules_code(tmp_path):
    reads = "import json\nfrom .registry import register\n\n@register('B', 'suite')\ndef b(doc):\n" \
            "    return json.loads(open('cfg.json').read())\n"
    old = rule_code(write(tree(tmp_path / "old", {f"{RULES}/b.py": reads}),
                          {"evalport_spec/cfg.json": "[]"}))
    new = rule_code(write(tree(tmp_path / "new", {f"{RULES}/b.py": reads}),
                          {"evalport_spec/cfg.json": "[1]"}))
    assert old.reads_files and not old.dynamic and changed_code(old, new, {"A", "B"}) == {
        "A": ["evalport_spec/cfg.json"], "B": ["evalport_spec/cfg.json"]}
    # reading files counts the package's data, not every module: other.py stays outside
    edited = rule_code(write(tree(tmp_path / "edited", {f"{RULES}/b.py": reads,
                                                        "evalport_spec/other.py": "X = 2\n"}),
                             {"evalport_spec/cfg.json": "[]"}))
    assert changed_code(old, edited, {"A", "B"}) == {}
    # loading code by name counts every file, .py included
    loads = reads.replace("json.loads(open('cfg.json').read())", "__import__('evalport_spec.other')")
    by_name = rule_code(tree(tmp_path / "by-name", {f"{RULES}/b.py": loads}))
    by_name_edited = rule_code(tree(tmp_path / "by-name-edited", {f"{RULES}/b.py": loads,
                                                                   "evalport_spec/other.py": "X = 2\n"}))
    assert by_name.dynamic and changed_code(by_name, by_name_edited, {"B"}) == {"B": ["evalport_spec/other.py"]}


def test_a_rule_registered_under_a_computed_code_has_every_module_as_its_code(tmp_path):
    computed = "from .registry import register\nCODE = 'B'\n\n@register(CODE, 'suite')\ndef b(doc):\n    return []\n"
    old = rule_code(tree(tmp_path / "old", {f"{RULES}/b.py": computed}))
    assert "B" not in old.rules and old.code_of("B") == frozenset(old.modules)
    new = rule_code(tree(tmp_path / "new", {f"{RULES}/b.py": computed,
                                             "evalport_spec/helper.py": "def h(x):\n    return None\n"}))
    assert changed_code(old, new, {"B"}) == {"B": ["evalport_spec/helper.py"]}


def test_a_package_folder_shadowing_a_module_is_the_code_python_runs(tmp_path):
    # red team: evalport_spec/helper/__init__.py is what `from ...helper import h` imports once it
    # exists (a package before a module of the same name), so it, not helper.py, is rule A's code
    old = rule_code(tree(tmp_path / "old"))
    shadow = rule_code(tree(tmp_path / "shadow", {"evalport_spec/helper/__init__.py": "def h(x):\n    return []\n"}))
    assert "evalport_spec/helper/__init__.py" in shadow.code_of("A")
    # the new module's top level runs when A's module is imported, before any rule runs, so it
    # is every rule's code (it could rebind what B calls), and so is the module it replaces
    assert changed_code(old, shadow, {"A", "B"}) == {
        c: ["evalport_spec/helper.py", "evalport_spec/helper/__init__.py"] for c in ("A", "B")}


def compiled(source: str, mode: py_compile.PycInvalidationMode, at: Path) -> bytes:
    src = at / "m.py"
    src.parent.mkdir(parents=True, exist_ok=True)
    src.write_text(source)
    return Path(py_compile.compile(str(src), cfile=str(at / "m.pyc"), invalidation_mode=mode,
                                   doraise=True)).read_bytes()


def test_hash_based_bytecode_in_pycache_is_every_rules_code_and_timestamped_bytecode_is_not(tmp_path):
    # red team: an unchecked-hash a.cpython-3XX.pyc runs in place of a.py, whose source is unchanged
    name = f"{RULES}/__pycache__/a.{sys.implementation.cache_tag}.pyc"
    old = rule_code(tree(tmp_path / "old"))
    for mode in (py_compile.PycInvalidationMode.UNCHECKED_HASH, py_compile.PycInvalidationMode.CHECKED_HASH):
        tools = tree(tmp_path / mode.name)
        (tools / name).parent.mkdir(parents=True)
        (tools / name).write_bytes(compiled("def a(doc):\n    return ['x']\n", mode, tmp_path / f"src-{mode.name}"))
        assert changed_code(old, rule_code(tools), {"A", "B"}) == {"A": [name], "B": [name]}
    tools = tree(tmp_path / "timestamp")  # what CPython writes itself: used only while it matches a.py
    (tools / name).parent.mkdir(parents=True)
    (tools / name).write_bytes(compiled("x = 1\n", py_compile.PycInvalidationMode.TIMESTAMP, tmp_path / "src-ts"))
    assert changed_code(old, rule_code(tools), {"A", "B"}) == {}


def test_the_rule_programs_digest_covers_the_bytecode_that_runs_in_place_of_source(tmp_path):
    # the gate reads rule code once per program digest: a digest blind to the committed pyc gave
    # the branch the base's reading (and the base's run) although a different program runs
    name = f"{RULES}/__pycache__/a.{sys.implementation.cache_tag}.pyc"
    digests = {}
    for mode in py_compile.PycInvalidationMode:
        tools = tree(tmp_path / mode.name / "tools")
        (tools / name).parent.mkdir(parents=True)
        (tools / name).write_bytes(compiled("def a(doc):\n    return ['x']\n", mode, tmp_path / f"src-{mode.name}"))
        digests[mode.name] = program_for_tree(tmp_path / mode.name, "t").digest
    tree(tmp_path / "plain" / "tools")
    plain = program_for_tree(tmp_path / "plain", "t").digest
    assert digests["TIMESTAMP"] == plain != digests["UNCHECKED_HASH"] != digests["CHECKED_HASH"] != plain


def test_an_extension_module_beside_a_source_module_is_what_runs(tmp_path):
    # CPython tries extension modules before source: helper.<ext> runs in place of helper.py
    ext = f"evalport_spec/helper{EXTENSION_SUFFIXES[0]}"
    old = rule_code(tree(tmp_path / "old"))
    new_tools = tree(tmp_path / "ext")
    (new_tools / ext).write_bytes(b"\x7fELF\x02\x01\x01\x00")
    new = rule_code(new_tools)
    assert new.dynamic and ext in new.code_of("A")  # a binary's imports cannot be read: fail closed
    changed = changed_code(old, new, {"A", "B"})
    assert set(changed) == {"A", "B"} and ext in changed["A"]


def test_a_changed_active_rule_is_one_finding_pinning_both_code_digests():
    """Hand-made rule code: DUPLICATE_ID's module changed, DUPLICATE_ATTEMPT's did not, the
    validator (no rule's module) did not either. Digest of a rule's code (documented formula):
    SHA-256 over ``name\\0digest\\1`` of its modules and the unowned ones, sorted, 16 hex digits."""
    import hashlib

    from evalport_spec.findings import ChangeClass, Finding, Location, Severity
    from evalport_spec.gate.behaviour import Side
    from evalport_spec.gate.rulecode import RuleCode, code_findings
    from evalport_spec.gate.ruleprogram import Program
    from evalport_spec.spec import SpecRepo

    def code(suite_digest):
        return RuleCode({"r/suite.py": suite_digest, "r/rs.py": "r", "v.py": "v"},
                        {"DUPLICATE_ID": "r/suite.py", "DUPLICATE_ATTEMPT": "r/rs.py"},
                        {"r/suite.py": frozenset({"r/suite.py"}), "r/rs.py": frozenset({"r/rs.py"})}, False)

    def digest(suite_digest):
        h = hashlib.sha256(f"r/suite.py\0{suite_digest}\1v.py\0v\1".encode())
        return h.hexdigest()[:16]

    old, new = code("a"), code("b")
    assert (old.digest("DUPLICATE_ID"), new.digest("DUPLICATE_ID")) == (digest("a"), digest("b"))
    v = SpecRepo(Path(__file__).resolve().parents[1]).version("1.3.0")
    main, branch = (Side(v, Program(Path("/nowhere"), n, n), n) for n in ("main", "this branch"))
    active = {"DUPLICATE_ID": ["1.3.0", "draft"], "DUPLICATE_ATTEMPT": ["1.3.0"]}
    (found,) = code_findings(main, branch, old, new, active, [], 7)
    entry = Location("spec/releases/1.3.0/rules.json", "/rules/0", found.new.line)
    assert (found.kind, found.code, found.change_class, found.severity, found.old, found.new) == (
        "rule-implementation-changed", "DUPLICATE_ID", ChangeClass.MAJOR, Severity.ERROR, entry, entry)
    assert (found.undecided, found.witness, found.item) == (
        True, None, {"rule": "DUPLICATE_ID", "from": digest("a"), "to": digest("b")})
    assert found.extra == {"modules": ["r/suite.py"], "versions": ["1.3.0", "draft"]}
    head = ("DUPLICATE_ID: its implementation differs from main's in meaning (r/suite.py changed; the rule "
            "is active in 1.3.0, draft)")
    assert found.message == (
        f"{head}; none of the 7 document(s) compared tells the two apart, so the change is unproven and "
        "counts as breaking (rule code is judged by its code, not by a sample; an edit reviewers agree "
        "keeps every verdict is accepted by an entry for this fingerprint in gate-ignore.yml landed before it)")
    # with the behaviour comparison's witness it is decided MAJOR and says what the witness shows
    seen = Finding("rule-behaviour-tightened", "DUPLICATE_ID: this branch rejects a document main accepts "
                   "(DUPLICATE_ID at /x; document: d)", ChangeClass.MAJOR, witness={"w": 1}, code="DUPLICATE_ID",
                   extra={"violation": {"code": "DUPLICATE_ID", "instance_path": "/x"}})
    (found,) = code_findings(main, branch, old, new, active, [seen], 7)
    assert (found.undecided, found.witness) == (False, {"w": 1})
    assert found.message == f"{head}; this branch rejects a document main accepts (DUPLICATE_ID at /x; document: d)"
    assert found.extra == {"violation": {"code": "DUPLICATE_ID", "instance_path": "/x"},
                           "modules": ["r/suite.py"], "versions": ["1.3.0", "draft"]}
    # the validator changed too: no rule owns it, so it is every rule's code
    assert changed_code(old, RuleCode({**new.modules, "v.py": "w"}, new.rules, new.imports, False),
                        set(active)) == {"DUPLICATE_ATTEMPT": ["v.py"], "DUPLICATE_ID": ["r/suite.py", "v.py"]}


PYPROJECT = b'''[build-system]
requires = ["setuptools>=68"]

[project]
name = "evalport-spec"
version = "0.1.0"
description = "toolchain"
dependencies = ["jsonschema>=4.23"]

[project.scripts]
evalport-spec = "evalport_spec.cli:main"

[tool.setuptools]
package-dir = { "" = "tools" }

[tool.pytest.ini_options]
addopts = "-ra"
'''


def packaging_of(files: dict[str, bytes]) -> dict[str, str]:
    from evalport_spec.gate.packaging import packaging_digests
    return packaging_digests(files.get)


def test_the_packaging_that_decides_what_the_installed_command_runs_is_counted_table_by_table():
    """Red team: ``[project.scripts]`` pointed at a new module no counted module imports, and a
    ``setup.py`` bundling an edited release schema into the wheel, changed what the installed
    ``validate`` rejects. Each counted table and file is its own entry, so the changed one is named;
    descriptive keys of ``[project]``, other tools' tables and setup.py's layout do not count."""
    base = packaging_of({"pyproject.toml": PYPROJECT, "setup.py": b"setup()\n", "MANIFEST.in": b"include spec/VERSION\n"})
    assert sorted(base) == ["MANIFEST.in", "pyproject.toml [build-system]", "pyproject.toml [project]",
                            "pyproject.toml [tool.setuptools]", "setup.py"]

    def changed(**files: bytes) -> list[str]:
        other = packaging_of({"pyproject.toml": PYPROJECT, "setup.py": b"setup()\n",
                              "MANIFEST.in": b"include spec/VERSION\n", **files})
        return sorted(k for k in base.keys() | other.keys() if base.get(k) != other.get(k))

    script = PYPROJECT.replace(b'"evalport_spec.cli:main"', b'"evalport_spec.site.launch:main"')
    assert changed(**{"pyproject.toml": script}) == ["pyproject.toml [project]"]
    pinned = PYPROJECT.replace(b'"jsonschema>=4.23"', b'"jsonschema==4.0.0"')
    assert changed(**{"pyproject.toml": pinned}) == ["pyproject.toml [project]"]
    data = PYPROJECT.replace(b'package-dir = { "" = "tools" }', b'package-dir = { "" = "tools" }\ndata-files = { "" = ["x.pth"] }')
    assert changed(**{"pyproject.toml": data}) == ["pyproject.toml [tool.setuptools]"]
    assert changed(**{"setup.py": b"import shutil\nsetup()\n"}) == ["setup.py"]
    assert changed(**{"setup.cfg": b"[options.entry_points]\n"}) == ["setup.cfg"]  # added
    assert changed(**{"MANIFEST.in": b"include spec/VERSION spec/rules.json\n"}) == ["MANIFEST.in"]
    # what installs and runs nothing else
    described = PYPROJECT.replace(b'version = "0.1.0"', b'version = "0.2.0"').replace(
        b'description = "toolchain"', b'description = "the toolchain"')
    other_tool = PYPROJECT.replace(b'addopts = "-ra"', b'addopts = "-ra -q"')
    assert changed(**{"pyproject.toml": described}) == changed(**{"pyproject.toml": other_tool}) == []
    assert changed(**{"setup.py": b"# build hook\nsetup(\n)\n"}) == []
    # a pyproject.toml that is not TOML digests as its bytes
    assert list(packaging_of({"pyproject.toml": b"[project\n"})) == ["pyproject.toml"]


def test_packaging_counted_with_the_rule_code_is_every_rules_code(tmp_path):
    code = rule_code(tree(tmp_path / "t"))
    old = code.with_modules(packaging_of({"pyproject.toml": PYPROJECT}))
    script = PYPROJECT.replace(b'"evalport_spec.cli:main"', b'"evalport_spec.site.launch:main"')
    new = code.with_modules(packaging_of({"pyproject.toml": script}))
    assert changed_code(old, new, {"A", "B"}) == {c: ["pyproject.toml [project]"] for c in ("A", "B")}
    assert old.digest("A") != new.digest("A") and old.digest("B") != new.digest("B")
    assert changed_code(old, code.with_modules(packaging_of({"pyproject.toml": PYPROJECT})), {"A", "B"}) == {}


def test_a_file_setuptools_takes_dependencies_or_entry_points_from_is_counted_with_its_table():
    dynamic = PYPROJECT.replace(b'package-dir = { "" = "tools" }', b'package-dir = { "" = "tools" }\n\n'
                                b'[tool.setuptools.dynamic]\ndependencies = { file = ["requirements.txt"] }\n'
                                b'entry-points = { file = "scripts.txt" }\n')
    files = {"pyproject.toml": dynamic, "requirements.txt": b"jsonschema>=4.23\n", "scripts.txt": b""}
    base = packaging_of(files)
    deps, scripts = ("pyproject.toml [tool.setuptools.dynamic] requirements.txt",
                     "pyproject.toml [tool.setuptools.dynamic] scripts.txt")
    assert deps in base and scripts in base
    pinned = packaging_of({**files, "requirements.txt": b"jsonschema==4.0.0\n"})
    assert sorted(k for k in base if base[k] != pinned[k]) == [deps]
    gone = packaging_of({k: v for k, v in files.items() if k != "scripts.txt"})
    assert sorted(k for k in base if base[k] != gone[k]) == [scripts]


COMMAND = ("import argparse\n\n\ndef register(subparsers):\n"
           "    p = subparsers.add_parser('check', help='the gate')\n"
           "    sub = p.add_subparsers()\n"
           "    q = sub.add_parser('now')\n"
           "    q.set_defaults(func=run_now)\n"
           "    p.set_defaults(func=run)\n\n\n"
           "def run(args):\n    from ..other import unrelated\n    return _run(args) + unrelated()\n\n\n"
           "def _run(args):\n    return 0\n\n\n"
           "def run_now(args):\n    return 0\n")
"""A CLI command module: ``register`` hands ``run`` and ``run_now`` to its own parsers only."""

NESTED = ("def register(subparsers):\n"
          "    p = subparsers.add_parser('check')\n"
          "    sub = p.add_subparsers()\n\n"
          "    def add(name, fn):\n        sp = sub.add_parser(name)\n        sp.set_defaults(func=run, own=fn)\n"
          "        return sp\n\n"
          "    sp = add('new', run_new)\n    sp.add_argument('x')\n\n\n"
          "def run(args):\n    return args.own(args)\n\n\n"
          "def run_new(args):\n    return 0\n")
"""The ``rfc`` command's shape: a helper nested in ``register`` hands each sub-command's function on."""


def command_tree(tmp: Path, check: str) -> Path:
    return tree(tmp, {**CLI, "evalport_spec/cli/check.py": check})


def edited(source: str, old: str, new: str) -> str:
    assert source.count(old) == 1  # the premise: the code the edit changes
    return source.replace(old, new)


def test_a_commands_run_is_not_rule_code_but_what_validate_runs_is(tmp_path):
    """Session 34: every edit of cli/check.py (the gate's own command) reported every rule
    changed (undecided, MAJOR). A command module runs on `validate` only as far as its module-level
    code and `register` go; its `run`, handed to its own parser, runs only for that command."""
    old = rule_code(command_tree(tmp_path / "old", COMMAND))
    assert "evalport_spec/other.py" not in old.modules  # only the command's run imports it
    for i, (before, after) in enumerate([("    return 0\n\n\ndef run_now", "    return 1\n\n\ndef run_now"),
                                         ("+ unrelated()", "- unrelated()"),
                                         ("def run_now(args):\n    return 0", "def run_now(args):\n    return 2")]):
        new = rule_code(command_tree(tmp_path / f"run{i}", edited(COMMAND, before, after)))
        assert changed_code(old, new, {"A", "B"}) == {}, (before, after)
    # register runs on every command line that names no command first: it counts
    new = rule_code(command_tree(tmp_path / "reg", edited(COMMAND, "help='the gate'", "help='gate'")))
    assert changed_code(old, new, {"A", "B"}) == {c: ["evalport_spec/cli/check.py"] for c in ("A", "B")}
    # and a module a rule imports is that rule's code, as before
    new = rule_code(tree(tmp_path / "helper", {**CLI, "evalport_spec/cli/check.py": COMMAND,
                                               "evalport_spec/helper.py": "def h(x):\n    return x[1:]\n"}))
    assert changed_code(old, new, {"A", "B"}) == {"A": ["evalport_spec/helper.py"]}


@pytest.mark.parametrize(("name", "wiring"), [
    ("another command's parser", "    subparsers.choices['validate'].set_defaults(func=run)\n"),
    ("a parser named after another command", "    v = subparsers.add_parser('validate')\n"
                                              "    v.set_defaults(func=run)\n"),
    ("own parser name rebound", "    p = subparsers.choices['validate']\n    p.set_defaults(func=run)\n"),
    ("an alias naming another command", "    a = subparsers.add_parser('check', aliases=['validate'])\n"
                                        "    a.set_defaults(func=run)\n"),
    ("a module-level alias", None),
    ("a lookup by computed name", None),
])
def test_a_run_wired_where_validate_can_reach_it_stays_rule_code(tmp_path, name, wiring):
    """Red team of the narrowing: each route by which `run` could run on `validate` keeps its
    body counted, so a later edit of it is every rule's code change."""
    if name == "a module-level alias":
        base = COMMAND + "\n\nHANDLER = run\n"
    elif name == "a lookup by computed name":
        base = COMMAND + "\n\ndef pick(n):\n    return globals()[n]\n\n\nPICKED = pick('r' + 'un')\n"
    else:
        base = edited(COMMAND, "    p.set_defaults(func=run)\n", "    p.set_defaults(func=run)\n" + wiring)
    old = rule_code(command_tree(tmp_path / "old", base))
    assert "evalport_spec/other.py" in old.modules  # run's imports are followed: it can run
    new = rule_code(command_tree(tmp_path / "new", edited(base, "+ unrelated()", "- unrelated()")))
    assert changed_code(old, new, {"A"}) == {"A": ["evalport_spec/cli/check.py"]}


def test_a_handler_handed_through_a_helper_nested_in_register_is_not_rule_code(tmp_path):
    old = rule_code(command_tree(tmp_path / "old", NESTED))
    new = rule_code(command_tree(tmp_path / "new", edited(NESTED, "return 0", "return 3")))
    assert changed_code(old, new, {"A"}) == {}
    # the helper used otherwise than called (handed on): its arguments may run anywhere
    leaky = edited(NESTED, "    sp.add_argument('x')\n", "    sp.add_argument('x')\n    HOOKS.append(add)\n")
    old = rule_code(command_tree(tmp_path / "old2", leaky))
    new = rule_code(command_tree(tmp_path / "new2", edited(leaky, "return 0", "return 3")))
    assert changed_code(old, new, {"A"}) == {"A": ["evalport_spec/cli/check.py"]}


def test_this_toolchains_command_modules_but_validate_and_conformance_are_read_shallow(tmp_path):
    """On this repository's own tools/: an edit inside `check`'s run path (cli/check.py `_run`)
    is no rule's code change; an edit of `validate`'s run, or of a module a rule imports
    (pointer.py), still is."""
    import shutil
    src = Path(__file__).resolve().parents[1] / "tools"
    tools = tmp_path / "tools"
    shutil.copytree(src / "evalport_spec", tools / "evalport_spec",
                    ignore=shutil.ignore_patterns("__pycache__"))
    old = rule_code(tools)
    codes = set(old.rules)
    check = tools / "evalport_spec/cli/check.py"
    check.write_text(edited(check.read_text(), "def _run(args: argparse.Namespace) -> int:\n",
                            "def _run(args: argparse.Namespace) -> int:\n    print('refactored')\n"))
    assert changed_code(old, rule_code(tools), codes) == {}
    validate = tools / "evalport_spec/cli/validate.py"
    text = validate.read_text()
    validate.write_text(text + "\n\ndef _stricter():\n    return 1\n")
    assert set(changed_code(old, rule_code(tools), codes)) == codes
    validate.write_text(text)
    pointer = tools / "evalport_spec/pointer.py"
    pointer.write_text(pointer.read_text() + "\n\ndef _more():\n    return 1\n")
    hit = changed_code(old, rule_code(tools), codes)
    assert hit and all(modules == ["evalport_spec/pointer.py"] for modules in hit.values())


OPTIONAL_FILES = {
    "dotted keys": b'[tool.setuptools.dynamic]\noptional-dependencies.dev = { file = ["dev.txt"] }\n',
    "nested table": b'[tool.setuptools.dynamic.optional-dependencies]\ndev = { file = ["dev.txt"] }\n',
    "deepest table": b'[tool.setuptools.dynamic.optional-dependencies.dev]\nfile = ["dev.txt"]\n',
    "inline tables": b'[tool.setuptools.dynamic]\noptional-dependencies = { dev = { file = "dev.txt" } }\n',
}
"""One optional-dependencies group whose requirements setuptools reads from dev.txt, in each TOML
spelling of the nesting (setuptools, "Dynamic metadata")."""


@pytest.mark.parametrize("spelling", list(OPTIONAL_FILES))
def test_the_file_of_an_optional_dependencies_group_is_counted_however_toml_nests_it(spelling):
    """Before session 35 only the first level of [tool.setuptools.dynamic] was read for `file`,
    so dev.txt (what `pip install .[dev]` installs) could change with no digest changing."""
    files = {"pyproject.toml": PYPROJECT + b"\n" + OPTIONAL_FILES[spelling], "dev.txt": b"jsonschema>=4.23\n"}
    base = packaging_of(files)
    entry = "pyproject.toml [tool.setuptools.dynamic] dev.txt"
    assert entry in base
    pinned = packaging_of({**files, "dev.txt": b"jsonschema==4.0.0\n"})
    assert sorted(k for k in base.keys() | pinned.keys() if base.get(k) != pinned.get(k)) == [entry]


OPTIONAL_INLINE = {
    "table": b'[project.optional-dependencies]\ndev = ["pytest>=8"]\n',
    "inline": b'[project]\noptional-dependencies = { dev = ["pytest>=8"] }\n',
    "dotted": b'[project]\noptional-dependencies.dev = ["pytest>=8"]\n',
}


def test_optional_dependencies_in_project_count_in_every_spelling_and_respelling_changes_nothing():
    """[project] optional-dependencies, written as a table, an inline table or dotted keys: the
    same groups give the same digest, a changed requirement a changed one (tomllib reads all
    three to one value)."""
    def project(extra: bytes) -> bytes:
        text = PYPROJECT.replace(b'dependencies = ["jsonschema>=4.23"]\n',
                                 b'dependencies = ["jsonschema>=4.23"]\n' + extra.removeprefix(b"[project]\n")
                                 if extra.startswith(b"[project]\n") else b'dependencies = ["jsonschema>=4.23"]\n')
        return text if extra.startswith(b"[project]\n") else text + b"\n" + extra
    digests = {name: packaging_of({"pyproject.toml": project(extra)}) for name, extra in OPTIONAL_INLINE.items()}
    assert digests["table"] == digests["inline"] == digests["dotted"]
    for name, extra in OPTIONAL_INLINE.items():
        pinned = packaging_of({"pyproject.toml": project(extra.replace(b"pytest>=8", b"pytest==7.0"))})
        assert pinned["pyproject.toml [project]"] != digests[name]["pyproject.toml [project]"], name
