"""Options and small helpers several commands share, declared once."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

from ..report import FORMATS

_HELP = {"text": "lines for a terminal", "json": "one object (data/report.schema.json)",
         "markdown": "a PR comment or job summary", "github": "workflow-command annotations "
         "(+ job summary)", "junit": "JUnit XML", "sarif": "SARIF 2.1.0 for code scanning"}


def add_format_option(parser: argparse.ArgumentParser, choices: Sequence[str] = FORMATS) -> None:
    """Add ``--format`` (default ``text``) with ``choices`` (default every report format), each
    explained in the help."""
    parser.add_argument("--format", default="text", choices=tuple(choices), metavar="FORMAT",
                        help="output format: " + "; ".join(f"{c} ({_HELP[c]})" if c in _HELP else c
                                                           for c in choices) + " (default: text)")


def relative(root: Path, path: Path) -> str:
    """``path`` relative to the repository ``root`` when inside it (POSIX separators), else as
    given."""
    r, p = root.resolve(), path.resolve()
    return p.relative_to(r).as_posix() if p.is_relative_to(r) else str(path)
