"""Command-line interface: ``evalport-spec <command> ...``.

A thin layer: each command module in this package defines ``register(subparsers)`` which adds
its sub-parser with ``func=run``; ``run(args) -> int`` calls one library engine, picks a
reporter and returns the exit code. Exit codes follow check-jsonschema / ruff / oasdiff:
0 ok, 1 findings, 2 usage or input error.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

from .. import __version__
from ..errors import EvalportError, InputError, UsageError, one_line
from ..gcpace import paced_gc
from ..sigterm import EXIT_STATUS as TERMINATED
from ..sigterm import Terminated, sigterm_raises

COMMANDS = ("validate", "conformance", "diff", "check", "canary", "rules", "spec", "rfc", "release", "docs")
"""Command names (each a module of this package), in the order ``--help`` lists them."""

EXIT_OK, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


class _Formatter(argparse.HelpFormatter):
    """argparse's help layout, with the terminal measured when help is written rather than when
    the formatter is made: argparse also makes one at each ``add_argument`` (to check the
    metavar), and measuring imports ``shutil`` (with ``bz2``, ``lzma``, ``zlib``: about 2 ms of
    every command's start-up, issue 16). Every use of the width is in :meth:`format_help`."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24,
                 width: int | None = None) -> None:
        super().__init__(prog, indent_increment, max_help_position, 80 if width is None else width)
        self._unmeasured = (indent_increment, max_help_position) if width is None else None

    def format_help(self) -> str:
        if self._unmeasured is not None:
            import shutil

            indent_increment, max_help_position = self._unmeasured
            self._width = shutil.get_terminal_size().columns - 2  # as argparse sizes it
            self._max_help_position = min(max_help_position, max(self._width - 20, indent_increment * 2))
            self._unmeasured = None
        return super().format_help()


class _Parser(argparse.ArgumentParser):
    def __init__(self, *args: object, **kwargs: object) -> None:
        kwargs.setdefault("formatter_class", _Formatter)
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]

    def error(self, message: str) -> None:  # argparse exits 2 already; keep one line
        self.exit(EXIT_ERROR, f"{self.prog}: error: {message}\n")


class _CommandParser(_Parser):
    """A command's (or subcommand's) parser: it also takes ``-C DIR`` after the command name, so
    ``evalport-spec check -C DIR`` means ``evalport-spec -C DIR check``. The default is
    suppressed, so the value given before the command stands unless one is given after it."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.add_argument("-C", "--repo", metavar="DIR", default=argparse.SUPPRESS,
                          help="spec repository root, as `evalport-spec -C DIR COMMAND`")


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The top-level parser with every available command registered, or only the command named
    ``only`` (a name of :data:`COMMANDS`: what :func:`main` parses when the command line starts
    with it; building the other commands' parsers is most of a short command's start-up, and
    their modules are then not imported at all)."""
    parser = _Parser(prog="evalport-spec",
                     description="Spec-authoring and schema-evolution toolchain for EvalPort.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    parser.add_argument("-C", "--repo", metavar="DIR", default=None,
                        help="spec repository root (default: found from the working directory)")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_CommandParser,
                                prog=parser.prog)  # (what argparse would lay out: no positional yet)
    for name in COMMANDS:
        if only is None or name == only:
            command(name).register(sub)
    return parser


def command(name: str) -> ModuleType:
    """The module of the command ``name`` (one of :data:`COMMANDS`), imported when first asked
    for: a short command loads only its own module (the others' imports are about a millisecond
    of its start-up).

    Raises:
        ValueError: not a command name.
    """
    if name == "validate":
        from . import validate as module
    elif name == "conformance":
        from . import conformance as module
    elif name == "diff":
        from . import diff as module
    elif name == "check":
        from . import check as module
    elif name == "canary":
        from . import canary as module
    elif name == "rules":
        from . import rules as module
    elif name == "spec":
        from . import spec as module
    elif name == "rfc":
        from . import rfc as module
    elif name == "release":
        from . import release as module
    elif name == "docs":
        from . import docs as module
    else:
        raise ValueError(f"unknown command {name!r} (expected one of {', '.join(COMMANDS)})")
    return module


def _leading_command(argv: Sequence[str]) -> str | None:
    """The command ``argv`` starts with (its first word, when that names one), else ``None``
    (an option first, ``--help``, no command, an unknown word: the whole parser decides)."""
    return argv[0] if argv and argv[0] in COMMANDS else None


def _finish_interrupted_write(args: argparse.Namespace) -> None:
    """Before any command reads the repository, complete or discard a multi-file write that was
    interrupted (:func:`evalport_spec.journal.recover`); a note on stderr when one was completed.
    Outside a spec repository there is nothing to do."""
    from ..repoloc import find_repo_root, journal_dir

    root = find_repo_root(Path(args.repo) if args.repo else None)
    if root is None or not os.path.lexists(journal_dir(root)):  # (no journal: journal.py not even loaded)
        return
    from ..journal import recover

    note = recover(root)
    if note:
        print(f"evalport-spec: note: {note}", file=sys.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point. Returns (and, as a script, exits with) 0, 1 or 2; 130 after Ctrl-C, 143
    after SIGTERM (:mod:`evalport_spec.sigterm`), once the command has cleaned up. The command
    runs with the garbage collector at :func:`~evalport_spec.gcpace.paced_gc`'s pace, put back
    on return."""
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(_leading_command(argv))
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help(sys.stderr)
        return EXIT_ERROR
    if args.repo is not None and not os.path.isdir(args.repo):
        what = "not a directory" if os.path.exists(args.repo) else "no such directory"
        print(f"evalport-spec: error: {what}: {args.repo} (-C)", file=sys.stderr)
        return EXIT_ERROR
    try:  # SIGTERM cleans up as Ctrl-C does (the processes a command started); the collector at
        with sigterm_raises(), paced_gc():  # the toolchain's pace (:mod:`evalport_spec.gcpace`)
            _finish_interrupted_write(args)
            return int(args.func(args))
    except (InputError, UsageError, EvalportError) as exc:
        print(f"evalport-spec: error: {exc}", file=sys.stderr)
        return EXIT_ERROR
    except Terminated:
        print("evalport-spec: terminated", file=sys.stderr)
        return TERMINATED
    except KeyboardInterrupt as exc:
        detail = f" ({exc})" if str(exc) else ""
        print(f"evalport-spec: interrupted{detail}", file=sys.stderr)
        return 130
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK
    except RecursionError:
        print("evalport-spec: error: input nested too deeply to process", file=sys.stderr)
        return EXIT_ERROR
    except OSError as exc:  # the file system refused a path no reader checked (ENAMETOOLONG from
        # pathlib's exists()/is_file(), which swallow only "not there"): bad input, one line
        where = f"{exc.filename}: " if exc.filename else ""
        print(f"evalport-spec: error: {one_line(where + str(exc.strerror or exc))}", file=sys.stderr)
        return EXIT_ERROR


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
