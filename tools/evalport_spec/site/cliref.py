"""The CLI reference page, generated from the argument parser itself.

Walks the parser it is given (the command line passes its own ``build_parser()``) and every
sub-parser (recursively) and renders, for each command, its description, its usage line and a
table of its arguments, so the page cannot drift from what ``evalport-spec <command> --help``
prints. The parser comes in as an argument: the library never imports the command line.
"""

from __future__ import annotations

import argparse

from ..environ import setting
from ..report.escape import md_cell


def _subcommands(parser: argparse.ArgumentParser) -> list[tuple[str, str, argparse.ArgumentParser]]:
    """``(name, one-line help, parser)`` of each sub-command of ``parser``, in registration order."""
    out = []
    for action in parser._actions:  # argparse offers no public API for this
        if isinstance(action, argparse._SubParsersAction):
            helps = {a.dest: a.help or "" for a in action._choices_actions}
            seen: set[int] = set()
            for name, sub in action.choices.items():
                if id(sub) in seen:  # aliases
                    continue
                seen.add(id(sub))
                out.append((name, helps.get(name, ""), sub))
    return out


def _arguments_table(parser: argparse.ArgumentParser) -> list[str]:
    rows = []
    for a in parser._actions:
        if isinstance(a, (argparse._HelpAction, argparse._SubParsersAction)) or a.help == argparse.SUPPRESS:
            continue
        if a.option_strings:
            metavar = ""
            if a.nargs != 0:
                metavar = " " + (a.metavar if isinstance(a.metavar, str) else a.dest.upper())
            name = ", ".join(f"`{o}{metavar}`" for o in a.option_strings)
        else:
            name = f"`{a.metavar if isinstance(a.metavar, str) else a.dest}`"
        help_text = (a.help or "")
        if "%(" in help_text:
            try:
                help_text = help_text % {**vars(a), "prog": parser.prog}
            except (KeyError, TypeError, ValueError):
                pass
        extra = []
        if a.choices and not isinstance(a.choices, dict):
            extra.append("choices: " + ", ".join(f"`{c}`" for c in a.choices))
        if a.option_strings and a.default not in (None, False, argparse.SUPPRESS) and a.nargs != 0:
            extra.append(f"default: `{a.default}`")
        if a.required:
            extra.append("required")
        desc = help_text + (" (" + "; ".join(extra) + ")" if extra else "")
        rows.append(f"| {name} | {md_cell(desc)} |")
    if not rows:
        return []
    return ["| argument | meaning |", "| --- | --- |", *rows, ""]


def _anchor(prog: str) -> str:
    return prog.replace(" ", "-")


def cli_reference(parser: argparse.ArgumentParser) -> str:
    """The CLI reference as Markdown: one section per command and sub-command.

    Args:
        parser: the top-level parser to document (``evalport_spec.cli.build_parser()``).

    Returns: the page text (``# CLI reference``, a command table, then one section per parser).
    """
    lines = ["# CLI reference", "",
             "Generated from the command-line parser of `evalport-spec` (the same text as `--help`).",
             "Exit codes: 0 ok, 1 findings, 2 usage or input error.", ""]
    with setting("COLUMNS", str(100)):
        top = _subcommands(parser)
        lines += ["| command | what it does |", "| --- | --- |"]
        lines += [f"| [`{name}`](#{_anchor(sub.prog)}) | {md_cell(h)} |" for name, h, sub in top]
        lines.append("")
        lines += _section(parser, 2, "")

    return "\n".join(lines).rstrip() + "\n"


def _section(parser: argparse.ArgumentParser, level: int, help_line: str) -> list[str]:
    out = [f"{'#' * level} `{parser.prog}` {{#{_anchor(parser.prog)}}}", ""]
    desc = parser.description or help_line
    if desc:
        out += [desc, ""]
    out += ["```text", parser.format_usage().strip(), "```", ""]
    out += _arguments_table(parser)
    if parser.epilog:
        out += [parser.epilog, ""]
    for _name, h, sub in _subcommands(parser):
        out += _section(sub, min(level + 1, 4), h)
    return out
