"""Python modules at the repository root are every rule's code (``gate/rootmodules.py``).

Red team (session 34): a branch adding a root ``orjson.py`` that rewrites every document's
``version`` while reading it passed ``check --base`` as PATCH with only a ``toolchain-changed``
warning, and ``python -m evalport_spec validate`` run from the checkout imported it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from evalport_spec.gate import run_gate
from evalport_spec.gate.rootmodules import KNOWN, counted, root_module_digests
from gate_repo import SHADOW_ORJSON, commit_all, git, reset_fixtures

scratch, repo = reset_fixtures("rootmodules", toolchain=True)

ALL_RULES = ["DANGLING_REFERENCE", "DUPLICATE_ATTEMPT", "DUPLICATE_ID", "ISOLATION_MISMATCH", "SELF_PARENT"]
"""Every rule some catalogue has hand-rolled (NULL_SCORE_PASSED, UNSCORED_RESULT_PASSED are encoded)."""

def code_findings(report):
    return {f.code: f for f in report.stage("base").findings if f.kind == "rule-implementation-changed"}


@pytest.mark.parametrize("path", ["orjson.py", "yaml/__init__.py", "json.py"])
def test_a_module_at_the_root_is_every_rules_code(repo, path):
    (repo / path).parent.mkdir(parents=True, exist_ok=True)
    (repo / path).write_text(SHADOW_ORJSON)
    commit_all(repo, f"add {path}")
    report = run_gate(repo, base="main", stages=["base"], cache=False)
    found = code_findings(report)
    assert report.stage("base").status == "fail"
    assert sorted(found) == ALL_RULES
    assert all(f.extra["modules"] == [f"{path} (at the repository root)"] and f.undecided
               for f in found.values())


def test_the_shadow_is_what_validate_imports_from_the_checkout(repo, tmp_path):
    """Why it counts: ``python -m`` from the checkout root imports the root module in place of
    the library (the example declares a real version; through the fake it declares 0.0.1)."""
    (repo / "orjson.py").write_text(SHADOW_ORJSON)
    example = "spec/examples/rag-suite.json"
    assert json.loads((repo / example).read_text())["version"] != "0.0.1"
    doc = str(tmp_path / "big-rag-suite.json")  # padded past jsonload.FAST_MIN_BYTES: smaller files skip orjson
    Path(doc).write_bytes((repo / example).read_bytes() + b" " * (1 << 20))
    env = {**os.environ, "PYTHONPATH": str(repo / "tools")}
    proc = subprocess.run([sys.executable, "-c", "import sys; sys.path.insert(0, ''); "
                           "from evalport_spec.jsonload import load; print(load(sys.argv[1]).value['version'])",
                           doc], cwd=repo, capture_output=True, text=True, env=env, timeout=120)
    assert proc.stdout.strip() == "0.0.1", proc.stderr


def test_a_changed_or_removed_root_module_counts_and_an_unchanged_one_does_not(repo):
    (repo / "orjson.py").write_text(SHADOW_ORJSON)
    base = commit_all(repo, "a root module lands (reviewed)")
    assert code_findings(run_gate(repo, base=base, stages=["base"], cache=False)) == {}
    (repo / "orjson.py").write_text(SHADOW_ORJSON.replace('"0.0.1"', '"0.0.2"'))
    assert sorted(code_findings(run_gate(repo, base=base, stages=["base"], cache=False))) == ALL_RULES
    (repo / "orjson.py").unlink()
    assert sorted(code_findings(run_gate(repo, base=base, stages=["base"], cache=False))) == ALL_RULES


def test_an_ignored_file_does_not_land_and_does_not_count(repo):
    (repo / ".gitignore").write_text("build/\n")
    base = commit_all(repo, "ignore build/")
    (repo / "build/lib").mkdir(parents=True)
    (repo / "build/lib/orjson.py").write_text(SHADOW_ORJSON)
    assert code_findings(run_gate(repo, base=base, stages=["base"], cache=False)) == {}
    git(repo, "add", "-f", "build/lib/orjson.py")  # committed despite .gitignore: it lands
    assert sorted(code_findings(run_gate(repo, base=base, stages=["base"], cache=False))) == ALL_RULES


def test_which_paths_count():
    assert counted("orjson.py") and counted("yaml/__init__.py") and counted("json.pth")
    assert counted("fast/_speedups.cpython-312-x86_64-linux-gnu.so") and counted("x.pyc")
    for path in ("noxfile.py", "bootstrap.py", "setup.py", "tests/conftest.py", "docs/hooks.py",
                 "spec/x.py", "rfcs/x.py", "benchmarks/x.py", "tools/orjson.py", ".ci/x.py",
                 "README.md", "pyproject.toml"):
        assert not counted(path), path
    files = {"orjson.py": b"x = 1  # a\n", "README.md": b"#"}
    reformatted = {"orjson.py": b'"""doc"""\nx = 1\n', "README.md": b"# other"}
    assert root_module_digests(files, files.get) == root_module_digests(reformatted, reformatted.get)
    assert list(root_module_digests(files, files.get)) == ["orjson.py (at the repository root)"]


def test_the_known_scripts_are_never_imported_by_validate(tmp_path):
    """The exemption of :data:`KNOWN` holds only while no module of those names is imported by
    the validator or its dependencies: validate a document and list what was loaded."""
    doc = tmp_path / "suite.json"
    doc.write_text((Path(__file__).resolve().parents[1] / "spec/examples/rag-suite.json").read_text())
    code = ("import sys, runpy; sys.argv = ['evalport-spec', 'validate', sys.argv[1]]\n"
            "try:\n    runpy.run_module('evalport_spec', run_name='__main__')\n"
            "except SystemExit:\n    pass\n"
            "import json; print(json.dumps(sorted(sys.modules)), file=sys.stderr)")
    proc = subprocess.run([sys.executable, "-c", code, str(doc)], capture_output=True, text=True,
                          cwd=tmp_path, timeout=120,
                          env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    loaded = set(json.loads(proc.stderr.strip().splitlines()[-1]))
    assert "evalport_spec.validation" in loaded, proc.stderr
    assert not {name.removesuffix(".py") for name in KNOWN} & loaded


def test_a_packaging_file_that_is_a_link_is_refused_on_both_sides(repo):
    """Red team of the link refusal (session 34): ``[tool.setuptools.dynamic]`` names a file
    (``requirements.txt``) that no fixed list of packaging names covers; as a link, git reads
    skipped it (absent) while the checkout followed it."""
    pyproject = (repo / "pyproject.toml").read_text()
    (repo / "pyproject.toml").write_text(
        pyproject + '\n[tool.setuptools.dynamic]\ndependencies = {file = ["requirements.txt"]}\n')
    (repo / "docs").mkdir(exist_ok=True)
    (repo / "docs/requirements.txt").write_text("pytest\n")
    (repo / "requirements.txt").write_text("pytest\n")
    base = commit_all(repo, "dependencies from a file")
    (repo / "requirements.txt").unlink()
    os.symlink("docs/requirements.txt", repo / "requirements.txt")
    stage = run_gate(repo, base=base, stages=["base"], cache=False).stage("base")
    assert stage.status == "fail"
    assert any("requirements.txt is a symbolic link" in f.message for f in stage.errors), \
        [f.message for f in stage.errors]
    landed = commit_all(repo, "the link lands")
    git(repo, "checkout", "-q", "-b", "next")
    stage = run_gate(repo, base=landed, stages=["base"], cache=False).stage("base")
    assert any("requirements.txt is a symbolic link at commit" in f.message for f in stage.errors), \
        [f.message for f in stage.errors]
