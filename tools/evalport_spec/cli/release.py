"""``evalport-spec release VERSION [--date YYYY-MM-DD] [--dry-run] [--format text|json]``: freeze
the draft.

Exit codes: 0 released (or planned, with ``--dry-run``), 1 refused (the reason is printed;
nothing was written), 2 usage or input error (a version that is not MAJOR.MINOR.PATCH, a bad
date). With ``--format json`` stdout is one JSON object: the plan (``ReleasePlan.to_json()``)
plus ``status`` (``"released"`` or ``"planned"``), or ``{"status": "refused", "version", "reason"}``.
"""

from __future__ import annotations

import argparse
import json
import sys

from ..names import WRITE_FORMATS
from .options import add_format_option, repository


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``release`` sub-command."""
    p = subparsers.add_parser("release", help="freeze the draft into spec/releases/VERSION",
                              description="Freeze the draft as a release: frozen schemas with "
                                          "versioned $ids, changelog entry, RFCs marked implemented, "
                                          "manifest updated, spec/VERSION bumped. Refuses a version "
                                          "other than the one spec/VERSION declares, one that "
                                          "disagrees with the computed change class, and a date "
                                          "before the previous release or after tomorrow.")
    p.add_argument("version", metavar="VERSION", help="MAJOR.MINOR.PATCH (must equal spec/VERSION)")
    p.add_argument("--date", default=None, metavar="YYYY-MM-DD",
                   help="release date (default: today, UTC; not before the previous release, "
                        "at most tomorrow)")
    p.add_argument("--dry-run", action="store_true", help="show what would be written; write nothing")
    add_format_option(p, WRITE_FORMATS, json="the plan, with status released, planned or refused")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Release (or plan) and print a summary. Returns 0, or 1 when refused."""
    from ..release import ReleaseRefused
    from ..workflow import check_and_plan, cut_release

    repo = repository(args)
    try:
        plan = (check_and_plan if args.dry_run else cut_release)(repo, args.version, date=args.date)
    except ReleaseRefused as exc:
        print(f"evalport-spec release: refused: {exc}", file=sys.stderr)
        if args.format == "json":
            print(json.dumps({"status": "refused", "version": args.version, "reason": str(exc)}, indent=2))
        return 1
    if args.format == "json":
        out = {"status": "planned" if args.dry_run else "released", **plan.to_json()}
        print(json.dumps(out, indent=2, ensure_ascii=False))
        return 0
    verb = "would release" if args.dry_run else "released"
    print(f"{verb} {plan.version} ({plan.change_class} since {plan.previous or 'nothing'}) "
          f"as spec/releases/{plan.version}/")
    fixtures = f"spec/releases/{plan.version}/conformance/fixtures/"
    frozen = [rel for rel in plan.paths() if rel.startswith(fixtures)]
    for rel in plan.paths():
        if rel not in frozen:
            print(f"  {rel}")
        elif rel == frozen[0]:
            print(f"  {fixtures} ({len(frozen)} fixture(s) frozen)")
    print()
    print(plan.entry, end="")
    return 0
