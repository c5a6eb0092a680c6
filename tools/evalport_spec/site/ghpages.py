"""The version list on the published branch: put ``versions.json`` in selector order after mike.

mike rewrites ``versions.json`` on every deploy in its own order, which puts a non-numeric
version (``draft``) above every release (``mike.versions.Versions.__iter__``; ``mike deploy``
has no ordering option in mike 2.x). :func:`order_branch_versions` commits the file again in
:func:`~evalport_spec.site.build.order_versions` order (releases newest first, draft last) with
git plumbing, the way mike writes its own commits (``hash-object``, ``mktree``, ``commit-tree``,
``update-ref`` with the old value, so a concurrent change of the branch is not overwritten).
:func:`same_publication` and :func:`drop_noop_commits` keep a republish of the same commit
from adding commits: mike's re-sorted file and the re-ordering commit cancel out.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..errors import InputError
from ..fsutil import run_bounded
from .build import MAX_CHILD_OUTPUT, dump_versions

VERSIONS_FILE = "versions.json"
MESSAGE = "Ordered versions.json: releases newest first, draft last (evalport-spec docs publish)"


def _run(root: Path, *args: str, data: bytes | None = None, check: bool = True) -> bytes | None:
    """``git -C root ARGS`` stdout bytes; ``None`` on failure unless ``check`` (InputError)."""
    r = run_bounded(["git", "-C", str(root), *args], input=data, max_bytes=MAX_CHILD_OUTPUT)
    if r.returncode != 0:
        if not check:
            return None
        msg = r.stderr.decode("utf-8", "replace").strip().splitlines() or [f"exit code {r.returncode}"]
        raise InputError(f"git {args[0]} failed: {msg[-1]}", str(root))
    return r.stdout


def _entries(raw: bytes, where: str) -> list[dict[str, Any]]:
    try:
        value = json.loads(raw)
    except ValueError:
        raise InputError("is not JSON (mike's version list)", where) from None
    if not isinstance(value, list) or not all(isinstance(e, dict) and "version" in e for e in value):
        raise InputError("is not mike's version list (an array of objects with \"version\")", where)
    return value


def _canonical(entries: list[dict[str, Any]]) -> list[str]:
    """The entries as a sorted list of canonical strings (order and alias order ignored)."""
    return sorted(json.dumps({**e, "aliases": sorted(e.get("aliases") or [])}, sort_keys=True)
                  for e in entries)


def order_branch_versions(root: Path, branch: str) -> str | None:
    """Rewrite ``<branch>:versions.json`` in selector order when its bytes differ.

    Args:
        root: the git work tree. branch: the published branch (``gh-pages``).

    Returns: the new commit id, or ``None`` when the branch or the file is missing or the file
        is already in order (nothing written: publishing stays idempotent).

    Raises:
        InputError: the file is not mike's version list, or a git command fails (for example
            no committer identity, or the branch moved while ordering).
    """
    ref = f"refs/heads/{branch}"
    head = _run(root, "rev-parse", "--verify", "-q", f"{ref}^{{commit}}", check=False)
    if not head:
        return None
    head_id = head.decode().strip()
    current = _run(root, "cat-file", "blob", f"{head_id}:{VERSIONS_FILE}", check=False)
    if current is None:
        return None
    new = dump_versions(_entries(current, f"{branch}:{VERSIONS_FILE}")).encode("utf-8")
    if new == current:
        return None
    blob = _run(root, "hash-object", "-w", "--stdin", data=new).decode().strip()
    listing = _run(root, "ls-tree", "-z", head_id) or b""
    rows = [row for row in listing.split(b"\0") if row and not row.endswith(b"\t" + VERSIONS_FILE.encode())]
    rows.append(f"100644 blob {blob}\t{VERSIONS_FILE}".encode())
    tree = _run(root, "mktree", "-z", data=b"\0".join(rows) + b"\0").decode().strip()
    commit = _run(root, "commit-tree", tree, "-p", head_id, "-m", MESSAGE).decode().strip()
    _run(root, "update-ref", "-m", MESSAGE, ref, commit, head_id)
    return commit


def same_publication(root: Path, before: str | None, after: str | None) -> bool:
    """True when commits ``before`` and ``after`` publish the same thing: equal, or their trees
    differ only in the order of ``versions.json`` (same entries and aliases)."""
    if before == after:
        return True
    if before is None or after is None:
        return False
    names = [n for n in (_run(root, "diff-tree", "-r", "--name-only", "-z", before, after) or b"").split(b"\0") if n]
    if names != [VERSIONS_FILE.encode()]:
        return not names
    a = _run(root, "cat-file", "blob", f"{before}:{VERSIONS_FILE}", check=False)
    b = _run(root, "cat-file", "blob", f"{after}:{VERSIONS_FILE}", check=False)
    if a is None or b is None:
        return False
    try:
        return _canonical(json.loads(a)) == _canonical(json.loads(b))
    except (ValueError, TypeError, AttributeError):
        return False


def drop_noop_commits(root: Path, branch: str, start: str | None) -> bool:
    """Move ``branch`` back to ``start`` when its current tree equals ``start``'s (this run's
    commits changed nothing: mike's re-sorted versions.json, then the re-ordering). Only
    commits made since ``start`` are dropped, checked with ``update-ref``'s old value.
    Returns True when the branch was moved back."""
    if start is None:
        return False
    ref = f"refs/heads/{branch}"
    head = (_run(root, "rev-parse", "--verify", "-q", ref, check=False) or b"").decode().strip()
    if not head or head == start:
        return False
    trees = [(_run(root, "rev-parse", f"{c}^{{tree}}", check=False) or b"").strip() for c in (start, head)]
    if not trees[0] or trees[0] != trees[1]:
        return False
    _run(root, "update-ref", "-m", "evalport-spec docs publish: nothing changed", ref, start, head)
    return True
