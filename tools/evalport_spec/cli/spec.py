"""``evalport-spec spec sync [--check]`` and ``evalport-spec spec changes``: the draft's SPEC.md
kept in step with the schemas, ``rules.json`` and ``spec/VERSION``, and its normative changes on
record (docs/how-to/edit-spec-md.md).

``spec sync`` rewrites the stale generated regions (field tables, rule facts, rule codes, status
line; one atomic write) and says which. ``spec sync --check`` writes nothing: one finding per
stale value (file, line, what SPEC.md says and what the schema, the catalogue or
``spec/VERSION`` gives), the last followed by the unified diff ``spec sync`` would apply (the
``ruff format --check`` model). Exit codes: 0 nothing stale (or rewritten), 1 stale regions
(``--check``) or prose stating a rule parameter, 2 usage or input error (malformed markers,
unreadable schemas).

``spec changes`` lists every change to SPEC.md's normative content since the latest release with
its id and what records it (an RFC's ``spec_changes``, or an editorial mark in the pending
changelog entry): exit 0 when every change is on record, 1 when one is not (or the pending
entry names another version than ``spec/VERSION``), 2 on bad input.

Both print through the reporter (``--format``: text, json, markdown, github, junit, sarif).
"""

from __future__ import annotations

import argparse

from .options import add_format_option, repository, require_subcommand


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``spec`` command with its ``sync`` and ``changes`` sub-commands."""
    p = subparsers.add_parser("spec", help="SPEC.md: generated regions and the normative change record",
                              description="The draft's SPEC.md: its generated regions and the record "
                                          "of its normative changes.")
    sub = p.add_subparsers(dest="spec_command", metavar="SUBCOMMAND")
    s = sub.add_parser("sync", help="rewrite the generated regions of spec/SPEC.md",
                       description="Rewrite the generated regions of spec/SPEC.md (field tables, "
                                   "rule facts, rule codes, status line) from the schemas, "
                                   "rules.json and spec/VERSION.")
    s.add_argument("--check", action="store_true",
                   help="write nothing; exit 1 and show the diff when a region is stale")
    add_format_option(s)
    s.set_defaults(func=run_sync)
    c = sub.add_parser("changes", help="list the normative changes to SPEC.md since the latest release",
                       description="Every change to SPEC.md's normative content since the latest "
                                   "release, with its id and the RFC or editorial mark that records it.")
    add_format_option(c)
    c.set_defaults(func=run_changes)
    require_subcommand(p)


def run_sync(args: argparse.Namespace) -> int:
    """Check or rewrite the regions and report what was found."""
    from ..report import Report, emit
    from ..specsync import check_draft, sync_draft

    result = check_draft(repository(args)) if args.check else sync_draft(repository(args))
    prose = [f for f in result.findings if not f.kind.startswith("spec-region")]
    if not result.stale:
        verdict = f"{result.label}: generated regions up to date"
    elif args.check:
        verdict = (f"{result.label}: {len(result.changed)} generated region(s) stale; "
                   "`evalport-spec spec sync` rewrites them")
    else:
        verdict = f"{result.label}: rewrote {len(result.changed)} generated region(s): " + ", ".join(result.changed)
    shown = result.findings if args.check else prose
    emit(Report.of(shown, command="spec sync", verdict=verdict,
                   data={"file": result.label, "stale": result.stale, "changed": result.changed,
                         "diff": result.diff()}), args.format)
    return 1 if prose or (args.check and result.stale) else 0


def run_changes(args: argparse.Namespace) -> int:
    """Report the normative change record; 1 when a change is on no record."""
    import dataclasses

    from ..findings import Severity
    from ..report import Report, emit
    from ..rfc import load_rfcs
    from ..specsync.record import record

    repo = repository(args)
    rec = record(repo, load_rfcs(repo) if (repo.root / "rfcs").is_dir() else [])
    if rec.since is None:
        verdict = "spec changes: no release yet, nothing to compare"
    else:
        open_ = sum(not c.covered for c in rec.changes)
        verdict = (f"spec changes: {len(rec.changes)} normative change(s) since {rec.since}, "
                   + (f"{open_} on no record" if open_ else "all on record"))
    emit(Report.of(rec.findings, command="spec changes", verdict=verdict,
                   data={"since": rec.since, "changes": [dataclasses.asdict(c) for c in rec.changes]}),
         args.format)
    return 1 if any(f.severity == Severity.ERROR for f in rec.findings) else 0
