"""Where an EvalPort spec repository is, found without reading it (a leaf module: every command
looks before it starts, :func:`evalport_spec.cli.main`)."""

from __future__ import annotations

from pathlib import Path


def find_repo_root(start: Path | None = None) -> Path | None:
    """The EvalPort spec repository around ``start`` (default: the working directory): the
    nearest of it and its parents holding a ``spec/schemas`` folder, or ``None``."""
    here = Path(start or Path.cwd()).resolve()
    for p in (here, *here.parents):
        if (p / "spec" / "schemas").is_dir():
            return p
    return None
