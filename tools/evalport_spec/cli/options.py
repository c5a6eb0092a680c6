"""Options and small helpers several commands share, declared once."""

from __future__ import annotations

import argparse
import functools
import math
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import InputError
from ..names import REPORT_FORMATS

if TYPE_CHECKING:
    from ..spec import SpecRepo

_HELP = {"text": "lines for a terminal", "json": "one object (data/report.schema.json)",
         "markdown": "a PR comment or job summary", "github": "workflow-command annotations "
         "(+ job summary)", "junit": "JUnit XML", "sarif": "SARIF 2.1.0 for code scanning"}


def add_format_option(parser: argparse.ArgumentParser, choices: Sequence[str] = REPORT_FORMATS,
                      **meaning: str) -> None:
    """Add ``--format`` (default ``text``) with ``choices`` (default every report format), each
    explained in the help: by ``meaning[choice]`` when given (what a command that prints what it
    wrote puts in its JSON, say), else by what the reporter writes in that format."""
    said = {**_HELP, **meaning}
    parser.add_argument("--format", default="text", choices=tuple(choices), metavar="FORMAT",
                        help="output format: " + "; ".join(f"{c} ({said[c]})" if c in said else c
                                                           for c in choices) + " (default: text)")


def reports_input_error(command: str, title: str | Callable[[argparse.Namespace], str] | None = None
                        ) -> Callable[[Callable[[argparse.Namespace], int]], Callable[[argparse.Namespace], int]]:
    """Decorate a command's ``run(args) -> int`` whose ``--format`` is a report format so that an
    :class:`~evalport_spec.errors.InputError` it raises is also answered on standard output in a
    machine format (:func:`~evalport_spec.report.emit_input_error`: a report of ``command``, titled
    ``title`` (given ``args`` when callable; default ``command``), whose one finding is the ``input-error``) before
    :func:`evalport_spec.cli.main` says it on standard error and exits 2. ``text`` writes nothing
    more than that line."""
    def decorate(run: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
        @functools.wraps(run)
        def wrapped(args: argparse.Namespace) -> int:
            try:
                return run(args)
            except InputError as exc:
                from ..report import emit_input_error  # lazy: `--help` stays light

                said = title(args) if callable(title) else title or command
                emit_input_error(exc, args.format, command=command, title=said)
                raise
        return wrapped
    return decorate


MAX_TIMEOUT = 86_400.0
"""Longest ``--timeout`` a command accepts (a day per run): larger values overflow the operating
system's wait (``OverflowError`` from ``selectors``), so they are a usage error."""


def number_in(kind: type[int] | type[float], low: float, high: float = math.inf, *,
              above: bool = False) -> Callable[[str], float]:
    """An argparse ``type=`` reading an option's text as ``kind`` (``int`` or ``float``) and
    accepting a finite value from ``low`` to ``high`` (strictly above ``low`` with ``above``), so
    that ``--search-budget -5`` or ``--timeout nan`` is a usage error (one line, exit 2) before
    any work starts. The error says the accepted range and repeats the text given."""
    whole = "a whole number" if kind is int else "a number"
    if above:
        span = f"{whole} greater than {low:g}" + (f" and at most {high:g}" if high != math.inf else "")
    elif high == math.inf:
        span = f"{whole} from {low:g} up"
    else:
        span = f"{whole} from {low:g} to {high:g}"

    def parse(text: str) -> float:
        try:
            value = kind(text)
        except ValueError:
            value = math.nan
        if not (math.isfinite(value) and low <= value <= high and not (above and value == low)):
            raise argparse.ArgumentTypeError(f"must be {span}, not {text!r}")
        return value
    return parse


def utf8_text(text: str) -> str:
    """An argparse ``type=`` for free text a command writes into a file (an RFC's title, author,
    reason): a command-line argument holding bytes that are not UTF-8 reaches Python as lone
    surrogates (PEP 383), which no UTF-8 file can hold; refused as a usage error (one line,
    exit 2) before anything is written, instead of a UnicodeEncodeError on writing."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise argparse.ArgumentTypeError(f"not UTF-8 text: {text!r}") from None
    return text


def nonblank_text(text: str) -> str:
    """:func:`utf8_text` that says something: an empty or blank value (``--waiting-on ''``) is
    refused as a usage error. The option's reader tests it for truth, so a blank one was taken
    as not given and the command answered a question the user had not asked ("already in
    comment: extend it with ...")."""
    text = utf8_text(text)
    if not text.strip():
        raise argparse.ArgumentTypeError("must not be empty or blank")
    return text


def check_ignore_arg(command: str, path: str | None) -> None:
    """Before anything reads the ``--ignore`` file ``path`` (a cache key, its entries): refuse
    it when written with a trailing ``/`` (:func:`~evalport_spec.fsutil.refuse_trailing_slash`),
    and say on standard error, as ``evalport-spec COMMAND: warning: ...``, that it says nothing
    (:func:`~evalport_spec.ignorefile.is_blank`): it accepts nothing, so the run goes on, but
    naming such a file is most likely a mistake. Nothing for no file, or for a path that is no
    regular file (reading its entries refuses it).

    Raises:
        InputError: a trailing ``/``; the file is too large to read.
    """
    import os
    import sys

    from ..fsutil import refuse_trailing_slash

    if path is None:
        return
    refuse_trailing_slash(path)
    if not os.path.isfile(path):
        return
    from ..ignorefile import blank_message, is_blank

    if is_blank(path):
        print(f"evalport-spec {command}: warning: {blank_message(path)}", file=sys.stderr)


def repository(args: argparse.Namespace) -> SpecRepo:
    """The spec repository a command works on: the one around ``-C DIR`` (``args.repo``), else
    around the working directory.

    Raises:
        InputError: no ``spec/schemas`` folder there or in any parent (exit 2).
    """
    from ..spec import SpecRepo  # lazy: commands that need no repository stay light

    return SpecRepo.discover(Path(args.repo) if args.repo else None)


def relative(root: Path, path: Path) -> str:
    """``path`` relative to the repository ``root`` when inside it (POSIX separators), else as
    given."""
    r, p = root.resolve(), path.resolve()
    return p.relative_to(r).as_posix() if p.is_relative_to(r) else str(path)


def require_subcommand(parser: argparse.ArgumentParser) -> None:
    """Make ``parser`` (a command with sub-commands) print its usage and exit 2 when it is given
    none (the usage-error exit, as ``git`` and ``ruff`` do for a bare command group)."""
    def usage(args: argparse.Namespace) -> int:
        parser.print_usage()
        return 2

    parser.set_defaults(func=usage)
