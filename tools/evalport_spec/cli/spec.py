"""``evalport-spec spec sync [--check]`` and ``evalport-spec spec changes``: the draft's SPEC.md
kept in step with the schemas, ``rules.json`` and ``spec/VERSION``, and its normative changes on
record.

``spec sync`` rewrites the stale regions (one atomic write) and says which. ``spec sync --check``
writes nothing: it prints one ``path:line: message`` line per stale value, then the unified diff
``spec sync`` would apply (the ``ruff format --check`` model). Exit codes: 0 nothing stale (or
rewritten), 1 stale regions (``--check``) or prose stating a rule parameter, 2 usage or input
error (malformed markers, unreadable schemas). ``--format json`` prints one object:
``{"file", "stale", "changed", "findings", "diff"}``.

``spec changes`` lists every change to SPEC.md's normative content since the latest release
(:mod:`evalport_spec.specsync.record`) with its id and what records it (an RFC's
``spec_changes``, or an editorial mark in the pending changelog entry). Exit codes: 0 every change
on record, 1 one is not (or the pending entry names another version than ``spec/VERSION``), 2
input error. ``--format json`` prints ``{"since", "changes": [...], "findings": [...]}``.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from ..spec import SpecRepo


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``spec`` command with its ``sync`` sub-command."""
    p = subparsers.add_parser("spec", help="keep SPEC.md's generated regions in step with the "
                                           "schemas, rules.json and spec/VERSION",
                              description="The draft's SPEC.md: generated regions.")
    sub = p.add_subparsers(dest="spec_command", metavar="SUBCOMMAND")
    s = sub.add_parser("sync", help="rewrite the generated regions of spec/SPEC.md",
                       description="Rewrite the generated regions of spec/SPEC.md (field tables, "
                                   "rule facts, rule codes, status line) from the schemas, "
                                   "rules.json and spec/VERSION.")
    s.add_argument("--check", action="store_true",
                   help="write nothing; exit 1 and print the diff when a region is stale")
    s.add_argument("--format", choices=("text", "json"), default="text", help="output format")
    s.set_defaults(func=run_sync)
    c = sub.add_parser("changes", help="list the normative changes to SPEC.md since the latest release",
                       description="Every change to SPEC.md's normative content since the latest "
                                   "release, with its id and the RFC or editorial mark that records it.")
    c.add_argument("--format", choices=("text", "json"), default="text", help="output format")
    c.set_defaults(func=run_changes)
    p.set_defaults(func=lambda args: _usage(p))


def _usage(parser: argparse.ArgumentParser) -> int:
    parser.print_usage()
    return 2


def run_sync(args: argparse.Namespace) -> int:
    """Check or rewrite the regions; print findings (and, with ``--check``, the diff)."""
    from ..gate.output import finding_line
    from ..specsync import check_draft, sync_draft

    repo = SpecRepo.discover(Path(args.repo) if args.repo else None)
    result = check_draft(repo) if args.check else sync_draft(repo)
    prose = [f for f in result.findings if not f.kind.startswith("spec-region")]
    if args.format == "json":
        print(json.dumps({"file": result.label, "stale": result.stale, "changed": result.changed,
                          "findings": [f.to_json() for f in result.findings],
                          "diff": result.diff()}, indent=2, ensure_ascii=False))
    elif args.check:
        for f in result.findings:
            print(finding_line(f))
        print(result.diff(), end="")
        print(f"{result.label}: {len(result.changed)} generated region(s) stale; "
              "`evalport-spec spec sync` rewrites them" if result.stale
              else f"{result.label}: generated regions up to date")
    else:
        for f in prose:
            print(finding_line(f))
        print(f"{result.label}: rewrote {len(result.changed)} generated region(s): "
              + ", ".join(result.changed) if result.stale
              else f"{result.label}: generated regions up to date")
    return 1 if prose or (args.check and result.stale) else 0


def run_changes(args: argparse.Namespace) -> int:
    """Print the normative change record; 1 when a change is on no record."""
    import dataclasses

    from ..findings import Severity
    from ..gate.output import finding_line
    from ..specsync.record import record

    repo = SpecRepo.discover(Path(args.repo) if args.repo else None)
    rec = record(repo)
    errors = [f for f in rec.findings if f.severity == Severity.ERROR]
    if args.format == "json":
        print(json.dumps({"since": rec.since, "changes": [dataclasses.asdict(c) for c in rec.changes],
                          "findings": [f.to_json() for f in rec.findings]}, indent=2, ensure_ascii=False))
        return 1 if errors else 0
    for c in rec.changes:
        print(f"spec/SPEC.md:{c.line}: {c.id} {c.summary()} [{c.coverage()}]")
    for f in rec.findings:
        if f.kind not in ("spec-change-recorded", "spec-change-unrecorded"):
            print(finding_line(f))
    if rec.since is None:
        print("spec changes: no release yet, nothing to compare")
    else:
        open_ = sum(not c.covered for c in rec.changes)
        print(f"spec changes: {len(rec.changes)} normative change(s) since {rec.since}, "
              + (f"{open_} on no record" if open_ else "all on record"))
    return 1 if errors else 0
