"""``evalport-spec check [--base REF] [--stage NAME]... [--no-cache] [--format F]``: the spec gate.

Text output prints one line per stage as it finishes (``✓  schemas  0.12s`` on a terminal,
``ok    schemas  0.12s`` otherwise or with ``NO_COLOR``), then the findings, compatibility first,
each once, then the verdict. ``--format github`` writes at most ten annotations (the most severe)
and, when ``$GITHUB_STEP_SUMMARY`` is set, the full Markdown report there.
An ``--ignore`` file that is empty or holds only comments is read as no entries, with a warning
on standard error and an ``ignore-file-empty`` warning in the report (``[]`` says "no entries"
on purpose and gives none).
Exit codes: 0 every stage passed, 1 a stage failed, 2 usage or input error (an unknown stage,
an unsafe or missing ``--base`` revision: the message says what to ``git fetch``, or names
``--base origin/NAME`` when NAME is only a remote-tracking branch here).
"""

from __future__ import annotations

import argparse
import sys

from ..names import STAGES
from .options import add_format_option, check_ignore_arg, reports_input_error, repository


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``check`` sub-command."""
    p = subparsers.add_parser(
        "check", help="run the spec gate (schemas, SPEC.md, manifest, fixtures, rules, classes, RFCs)",
        description="Run the gate over the repository. With --base REF, also classify the change "
                    "this branch makes to the draft against REF's draft and fail a MAJOR change "
                    "unless spec/VERSION declares the next major version and every breaking finding "
                    "is listed, by fingerprint, by an RFC that was accepted (MAJOR) at REF.")
    p.add_argument("--base", metavar="REF", default=None,
                   help="git revision to compare with, e.g. origin/main (a shallow clone must fetch it)")
    p.add_argument("--stage", dest="stages", action="append", choices=STAGES, metavar="NAME",
                   help=f"run only this stage (repeatable): {', '.join(STAGES)}")
    p.add_argument("--ignore", metavar="FILE", default=None,
                   help="YAML/JSON list of {kind, pointer, fingerprint, reason, expires} (as diff "
                        "--ignore); a breaking finding is accepted only by its fingerprint; a file inside "
                        "the repository may name rule-implementation-changed findings only")
    p.add_argument("--no-cache", action="store_true",
                   help="run every stage and every engine afresh: neither replay an earlier run on "
                        "unchanged inputs nor read or write the disk cache (as EVALPORT_CACHE_DIR=off)")
    add_format_option(p)
    p.set_defaults(func=run)


@reports_input_error("check", "EvalPort spec gate: input error")
def run(args: argparse.Namespace) -> int:
    """Run the gate and print its report. Returns 0 or 1; raises InputError (exit 2): no gate
    run (no spec repository, an unknown --base, an unreadable --ignore)."""
    from ..diskcache import switched_off

    with switched_off(args.no_cache):  # every cache of this process reads the variable
        return _run(args)


def _run(args: argparse.Namespace) -> int:
    from ..gate import run_gate
    from ..gate.output import gate_report, to_check
    from ..report import emit, use_color
    from ..report.text import check_line

    repo = repository(args)
    progress = None
    if args.format == "text":
        color = use_color(sys.stdout)

        def progress(stage):  # each stage's line as soon as it is done
            print(check_line(to_check(stage), color), flush=True)

    check_ignore_arg("check", args.ignore)
    report = run_gate(repo, base=args.base, stages=args.stages, progress=progress, ignore=args.ignore)
    emit(gate_report(report), args.format, checks=progress is None)
    if report.context.get("replayed") and args.format == "text":
        print("(replayed: every file, listing and git answer the last run read is unchanged; "
              "--no-cache runs every stage)", file=sys.stderr)
    return report.exit_code
