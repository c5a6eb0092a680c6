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
