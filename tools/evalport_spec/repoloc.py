"""Where an EvalPort spec repository is, and where its write journal would be, found without
reading either (a leaf module: every command looks before it starts, :func:`evalport_spec.cli.main`)."""

from __future__ import annotations

import os
from pathlib import Path


def find_repo_root(start: Path | None = None) -> Path | None:
    """The EvalPort spec repository around ``start`` (default: the working directory): the
    nearest of it and its parents holding a ``spec/schemas`` folder, or ``None``."""
    here = Path(start or Path.cwd()).resolve()
    for p in (here, *here.parents):
        if (p / "spec" / "schemas").is_dir():
            return p
    return None


def journal_dir(root: str | os.PathLike[str]) -> Path:
    """Where the journal of the repository at ``root`` lives (:mod:`evalport_spec.journal`):
    ``<root>/.git/evalport-journal`` when ``.git`` is a folder (hidden from ``git status``, never
    cloned), else ``<root>/.evalport-journal``. Both are on the repository's file system, so
    renames from them are atomic."""
    root = Path(root)
    return root / ".git" / "evalport-journal" if (root / ".git").is_dir() else root / ".evalport-journal"
