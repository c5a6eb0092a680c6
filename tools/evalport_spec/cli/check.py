"""``evalport-spec check [--base REF] [--stage NAME]... [--format F]``: the spec gate.

Prints one line per stage (``✓ schemas  0.12s`` on a terminal, ``ok   schemas  0.12s``
otherwise or with ``NO_COLOR``), then each failing stage's findings as ``path:line: message``.
Exit codes: 0 every stage passed, 1 a stage failed, 2 usage or input error (an unknown stage,
an unsafe or missing ``--base`` revision: the message says what to ``git fetch``).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..spec import SpecRepo

# Registration needs only these choices; the gate is imported in run() so that `--help` stays
# fast. tests/test_cli_imports.py asserts they equal gate.STAGES and gate.output.FORMATS.
STAGES = ("schemas", "spec-text", "manifest", "conformance", "rules", "releases", "draft", "base",
          "rfcs", "examples")
FORMATS = ("text", "json", "markdown", "github", "junit")


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``check`` sub-command."""
    p = subparsers.add_parser(
        "check", help="run the spec gate (schemas, SPEC.md, manifest, fixtures, rules, classes, RFCs)",
        description="Run the gate over the repository. With --base REF, also classify the change "
                    "this branch makes to the draft against REF's draft and fail a MAJOR change "
                    "unless spec/VERSION declares the next major version and an accepted RFC "
                    "declaring MAJOR names it.")
    p.add_argument("--base", metavar="REF", default=None,
                   help="git revision to compare with, e.g. origin/main (a shallow clone must fetch it)")
    p.add_argument("--stage", dest="stages", action="append", choices=STAGES, metavar="NAME",
                   help=f"run only this stage (repeatable): {', '.join(STAGES)}")
    p.add_argument("--format", default="text", choices=FORMATS, help="output format (default: text)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run the gate and print its report. Returns 0 or 1; raises InputError (exit 2)."""
    from ..gate import run_gate
    from ..gate.output import render, render_footer_text, render_stage_text, use_fancy

    repo = SpecRepo.discover(Path(args.repo) if args.repo else None)
    if args.format == "text":
        fancy = use_fancy(sys.stdout)

        def progress(stage):  # print each stage as soon as it is done
            print(render_stage_text(stage, fancy), flush=True)

        report = run_gate(repo, base=args.base, stages=args.stages, progress=progress)
        print(render_footer_text(report))
    else:
        report = run_gate(repo, base=args.base, stages=args.stages)
        sys.stdout.write(render(report, args.format))
    return report.exit_code
