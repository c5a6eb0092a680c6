"""Which changed paths ``toolchain-changed`` names (docs/how-to/gate-in-ci.md, promise 2): the
toolchain and CI configuration, and anything Python could import from the repository root."""

from __future__ import annotations

import pytest

from evalport_spec.gate.toolchain import is_toolchain_path


@pytest.mark.parametrize(("path", "expected"), [
    ("tools/evalport_spec/gate/policy.py", True),    # the package
    ("pyproject.toml", True),
    ("bootstrap.py", True),                           # the quick start installs with it
    (".ci/run", True),
    (".ci/helper.sh", True),                          # anything under .ci/
    (".github/workflows/gate.yml", True),
    ("action.yml", True),
    (".gitattributes", True),                         # eol/encoding/filter change what a checkout reads
    ("spec/schemas/.gitattributes", True),            # ... in any folder, for the files below it
    (".gitmodules", True),
    ("pip/__init__.py", True),                        # `python -m pip` in the checkout runs this
    ("evalport_spec/__main__.py", True),              # ... and `python -m evalport_spec` this
    ("sitecustomize.py", True),                       # a top-level module
    ("zz.pth", True),
    ("mkdocs.yml", True),                             # its hooks/plugins run Python when the site is
    ("docs/hooks/publish.py", True),                  # ... published, the released schemas' $id URLs
    ("spec/conformance/fixture.schema.json", True),   # what every draft fixture is validated against
    ("spec/releases/1.3.0/conformance/fixture.schema.json", False),  # frozen: the history stage guards it
    ("spec/conformance/fixtures/grader-empty-id.json", False),  # a fixture is judged by the conformance stage
    ("spec/schemas/resultset.json", False),           # the spec itself is judged, not listed
    ("rfcs/0007-version-scope.md", False),
    ("docs/how-to/gate-in-ci.md", False),
    ("tests/conftest.py", False),                     # runs only in the test suite, after the gate
    ("benchmarks/bench_diff.py", False),
    ("README.md", False),
    ("notes/todo.txt", False),                        # a new folder without Python files
    (".hidden/x.py", False),                          # not an importable package name
])
def test_toolchain_paths(path, expected):
    assert is_toolchain_path(path) is expected


def test_one_warning_names_the_first_ten_changed_toolchain_paths_then_how_many_more(tmp_path):
    """Eleven new modules under tools/ and a top-level sitecustomize.py are the toolchain (12
    paths, sorted); a Python file among the examples and a text file at the root are not."""
    from evalport_spec import git
    from evalport_spec.findings import Location, Severity
    from evalport_spec.gate.context import GateContext
    from evalport_spec.gate.toolchain import toolchain_findings
    from evalport_spec.spec import SpecRepo
    from gate_repo import make_repo

    root = make_repo(tmp_path)
    ctx = GateContext(SpecRepo(root), "main", git.resolve(root, "main"))
    assert toolchain_findings(ctx) == []
    (root / "tools").mkdir()
    for rel in [f"tools/m{i:02d}.py" for i in range(11)] + ["sitecustomize.py", "spec/examples/x.py", "notes.txt"]:
        (root / rel).write_text("x = 1\n")
    paths = ["sitecustomize.py"] + [f"tools/m{i:02d}.py" for i in range(11)]
    (found,) = toolchain_findings(ctx)
    assert (found.kind, found.severity, found.new, found.extra) == (
        "toolchain-changed", Severity.WARNING, Location("sitecustomize.py"), {"paths": paths})
    assert found.message == (
        f"the toolchain or CI configuration differs from main: {', '.join(paths[:10])} and 2 more; these "
        "changes judge nothing until they land (the gate of record is main's), so review them as code "
        "that will judge every later change")


def test_a_loosened_fixture_meta_schema_is_a_toolchain_change_the_gate_and_canary_see(tmp_path):
    """Before session 35 nothing watched spec/conformance/fixture.schema.json: a branch dropping
    `since` from its `required` (so a fixture without it, which no version's bounds place, passes
    the meta-schema) got no word from check --base, and canary --base had nothing to test."""
    import json

    from evalport_spec import git
    from evalport_spec.gate.canary import toolchain_changes
    from evalport_spec.gate.context import GateContext
    from evalport_spec.gate.toolchain import toolchain_findings
    from evalport_spec.spec import SpecRepo
    from gate_repo import make_repo

    root = make_repo(tmp_path)
    meta = root / "spec/conformance/fixture.schema.json"
    doc = json.loads(meta.read_text())
    assert "since" in doc["required"]  # the premise
    doc["required"].remove("since")
    meta.write_text(json.dumps(doc, indent=2) + "\n")
    ctx = GateContext(SpecRepo(root), "main", git.resolve(root, "main"))
    (found,) = toolchain_findings(ctx)
    assert found.extra == {"paths": ["spec/conformance/fixture.schema.json"]}
    assert toolchain_changes(root, "main") == ["spec/conformance/fixture.schema.json"]
