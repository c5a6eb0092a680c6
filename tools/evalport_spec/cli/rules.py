"""``evalport-spec rules list|check``: the rule catalogue joined with the repository, and the
check that every rule has an implementation, a fixture and a documented, true gap.

Exit codes: ``list`` 0; ``check`` 0 (no error findings; warnings are printed), 1 (errors),
2 (input or usage error, one line).
"""

from __future__ import annotations

import argparse

from ..names import RULES_FORMATS
from .options import add_format_option, reports_input_error, repository, require_subcommand


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``rules`` command with its ``list`` and ``check`` sub-commands."""
    p = subparsers.add_parser("rules", help="cross-field rules: list them, check their gaps",
                              description="The rule catalogue joined with implementations, "
                                          "fixtures, SPEC.md and the raw schema.")
    sub = p.add_subparsers(dest="rules_command", metavar="SUBCOMMAND")
    lst = sub.add_parser("list", help="the catalogue joined with what the repository has")
    add_format_option(lst, RULES_FORMATS, json="one object per rule", markdown="the rule table")
    lst.set_defaults(func=run_list)
    chk = sub.add_parser("check", help="every rule: implementation, fixtures, SPEC.md, true gap; "
                                       "SPEC.md/schema drift")
    add_format_option(chk)
    chk.set_defaults(func=run_check)
    require_subcommand(p)


def run_list(args: argparse.Namespace) -> int:
    """Print the joined rule list; always 0 unless the input is bad (InputError, exit 2)."""
    from ..rulecheck.render import rules_table

    print(rules_table(repository(args), args.format), end="")
    return 0


@reports_input_error("rules check")
def run_check(args: argparse.Namespace) -> int:
    """Print the findings (errors first) and a count line; 1 if any is an error (InputError:
    2, reported in a machine ``--format`` too)."""
    from ..report import Report, emit
    from ..rulecheck import check_rules
    from ..rulecheck.check import errors_in

    findings = check_rules(repository(args))
    n_err = len(errors_in(findings))
    emit(Report.of(findings, stage="rules", command="rules check",
                   verdict=f"rules check: {n_err} error(s), {len(findings) - n_err} warning(s)"),
         args.format)
    return 1 if n_err else 0
