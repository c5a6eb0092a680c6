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
    ("pip/__init__.py", True),                        # `python -m pip` in the checkout runs this
    ("evalport_spec/__main__.py", True),              # ... and `python -m evalport_spec` this
    ("sitecustomize.py", True),                       # a top-level module
    ("zz.pth", True),
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
