"""Helpers for the gate/release tests: a throw-away git repository holding a copy of this
repository's spec/ and rfcs/, committed on ``main``, with a branch ``feature`` checked out."""

from __future__ import annotations

import hashlib
import importlib
import json
import os
import shutil
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
ENV = {**{k: v for k, v in os.environ.items() if not k.startswith("GIT_")},
       "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org",
       "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.org",
       "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}


def git(root: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True,
                          env=ENV, text=True).stdout


def make_repo(tmp: Path) -> Path:
    root = tmp / "repo"
    root.mkdir()
    shutil.copytree(REPO / "spec", root / "spec")
    if (REPO / "rfcs").is_dir():
        shutil.copytree(REPO / "rfcs", root / "rfcs")
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "base")
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


def has_engine(module: str, name: str) -> bool:
    try:
        return hasattr(importlib.import_module(f"evalport_spec.{module}"), name)
    except ImportError:
        return False
