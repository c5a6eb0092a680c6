"""Helpers for the gate/release tests: a throw-away git repository holding a copy of this
repository's spec/ and rfcs/, committed on ``main``, with a branch ``feature`` checked out."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from pathlib import Path

import pytest

from evalport_spec import git as gitcmd

REPO = Path(__file__).resolve().parents[1]
IDENTITY = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org",
            "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.org",
            "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}
"""A committer for the scratch repositories, and no user or system configuration."""

ENV = {**{k: v for k, v in os.environ.items() if not k.startswith("GIT_")}, **IDENTITY}
"""The environment of a process the tests start in a scratch repository (``.ci/run``, clones)."""


def git(root: Path, *args: str, env: dict[str, str] | None = None) -> str:
    """``git -C root ARGS`` through the package's one git runner (:func:`evalport_spec.git.run`)
    with :data:`IDENTITY` (and ``env``); its standard output. Raises InputError on failure."""
    return gitcmd.run(root, *args, env={**IDENTITY, **(env or {})}, timeout=300).stdout.decode("utf-8")


TOOLCHAIN = ("tools", "pyproject.toml", "setup.py", "noxfile.py", "action.yml", ".ci", ".gitignore",
             ".pre-commit-hooks.yaml", "MANIFEST.in", "README.md")
"""What ``make_repo(..., toolchain=True)`` copies besides spec/ and rfcs/."""


def make_repo(tmp: Path, *, toolchain: bool = False, dated: str | None = None) -> Path:
    """A scratch repository with spec/ and rfcs/ (and, with ``toolchain``, the package and its
    build and CI files, so its rules are its own program) committed on ``main``, on a new
    branch ``feature``; ``dated``: the base commit's date (git's format), else now."""
    root = tmp / "repo"
    root.mkdir()
    shutil.copytree(REPO / "spec", root / "spec")
    if (REPO / "rfcs").is_dir():
        shutil.copytree(REPO / "rfcs", root / "rfcs")
    if toolchain:
        ignore = shutil.ignore_patterns("__pycache__", "*.egg-info", "*.pyc")
        for name in TOOLCHAIN:
            src = REPO / name
            if src.is_dir():
                shutil.copytree(src, root / name, ignore=ignore)
            elif src.is_file():
                shutil.copy2(src, root / name)
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    stamp = {"GIT_COMMITTER_DATE": dated, "GIT_AUTHOR_DATE": dated} if dated else None
    git(root, "commit", "-q", "-m", "base", env=stamp)
    git(root, "checkout", "-q", "-b", "feature")
    return root


def tree_hash(root: Path) -> str:
    """SHA-256 over every path and content of the tree (``.git`` excluded)."""
    h = hashlib.sha256()
    for p in sorted(root.rglob("*")):
        rel = p.relative_to(root).as_posix()
        if rel == ".git" or rel.startswith(".git/"):
            continue
        h.update(rel.encode() + b"\0")
        if p.is_file():
            h.update(p.read_bytes())
        h.update(b"\1")
    return h.hexdigest()


def edit_json(path: Path, fn) -> None:
    doc = json.loads(path.read_text())
    fn(doc)
    path.write_text(json.dumps(doc, indent=2) + "\n")


def add_optional_runner_field(root: Path) -> None:
    """An additive change: optional ``build`` on the closed Runner object (MINOR)."""
    edit_json(root / "spec/schemas/resultset.json",
              lambda d: d["$defs"]["runner"]["properties"].__setitem__("build", {"type": "string"}))


def accept_rfc(root: Path, number: int, decided: str = "2026-12-20") -> None:
    """Record RFC ``number`` (in comment) as accepted on ``decided`` (after its comment period),
    as a release needs for every RFC it includes."""
    (path,) = (root / "rfcs").glob(f"{number:04d}-*.md")
    text = path.read_text().replace("status: comment\n", "status: accepted\n", 1)
    path.write_text(text.replace("\n---\n", f"\ndecision_date: {decided}\n---\n", 1))


def reset(root: Path, main_sha: str) -> None:
    """Back to the scratch repository's first commit on ``main``, clean, on a new ``feature``."""
    git(root, "checkout", "-q", "-f", "-B", "main", main_sha)
    git(root, "clean", "-fdq")
    git(root, "checkout", "-q", "-B", "feature")


def commit_all(root: Path, message: str) -> str:
    """Commit every change of the working tree; returns the new commit."""
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", message)
    return git(root, "rev-parse", "HEAD").strip()


def write_rfc(root: Path, number: int, status: str, accepts: list | None = None,
              declared: str = "MAJOR") -> Path:
    """An RFC with valid front matter (dates for ``comment`` and ``accepted``) and ``accepts``."""
    lines = ["---", f"number: {number}", f"title: Scratch change {number}", f"status: {status}",
             "authors:", "  - A", "created: 2026-01-01"]
    if status in ("comment", "accepted"):
        lines += ["comment_period:", "  opens: 2026-01-02", "  closes: 2026-01-20"]
    lines += ["affected_documents:", "  - resultset", f"declared_class: {declared}", "implemented_in: null"]
    if status == "accepted":
        lines.append("decision_date: 2026-01-25")
    if accepts:
        lines.append("accepts:")
        lines += [f"  - {json.dumps(e)}" for e in accepts]
    path = root / "rfcs" / f"{number:04d}-scratch-change-{number}.md"
    path.write_text("\n".join(lines + ["---", "", "## Summary", "", "A scratch change.", ""]))
    return path


def remove_error_types(root: Path, *values: str) -> None:
    """Remove ``values`` from ``Error.type`` in the draft's resultset.json (MAJOR, one finding each)."""
    def f(d):
        enum = d["$defs"]["error"]["properties"]["type"]["enum"]
        for v in values:
            enum.remove(v)
    edit_json(root / "spec/schemas/resultset.json", f)


def require_summary_total(root: Path) -> None:
    """Make ``summary.total`` required (MAJOR: a ResultSet with a summary but no total goes)."""
    edit_json(root / "spec/schemas/resultset.json",
              lambda d: d["$defs"]["summary"].setdefault("required", []).append("total"))


def reset_fixtures(label: str, *, toolchain: bool = False, dated: str | None = None):
    """Two pytest fixtures for a test module, ``(scratch, repo)``: ``scratch`` is one
    :func:`make_repo` per module (named ``label``), as ``(root, main's commit)``; ``repo`` is its
    root, :func:`reset` to that commit before each test (``dated``: as :func:`make_repo`). Bind
    both in the module:
    ``scratch, repo = reset_fixtures("name")``."""
    @pytest.fixture(scope="module")
    def scratch(tmp_path_factory):
        root = make_repo(tmp_path_factory.mktemp(label), toolchain=toolchain, dated=dated)
        return root, git(root, "rev-parse", "main").strip()

    @pytest.fixture
    def repo(scratch):
        root, first = scratch
        reset(root, first)
        return root

    return scratch, repo


SHADOW_ORJSON = '''"""A pure-Python stand-in for the orjson wheel."""
import json

__version__ = "3.10.0"
JSONDecodeError = json.JSONDecodeError


class JSONEncodeError(TypeError):
    pass


def loads(raw):
    value = json.loads(raw)
    if isinstance(value, dict) and "version" in value:
        value["version"] = "0.0.1"
    return value


def dumps(value, *args, **kwargs):
    return json.dumps(value).encode()
'''
"""An ``orjson`` stand-in that rewrites every document's ``version`` while reading it: a
module that shadows the library the JSON reader imports (red team, sessions 33 and 34)."""
