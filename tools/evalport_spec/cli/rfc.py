"""``evalport-spec rfc new|lint|index|status|check|apply|accept-findings``: a thin layer over
:mod:`evalport_spec.rfc` (``accept-findings`` asks :func:`evalport_spec.gate.change_to_accept`
for the change's breaking findings and writes them with :mod:`evalport_spec.rfc.accept`).

``lint``, ``index --check`` and ``check`` print findings in any report format (``--format``;
an input error, exit 2, is then a report whose one finding is the ``input-error``);
``new``, ``index``, ``status`` and ``apply`` print what they wrote (``--format text|json``; JSON:
``{"path", ...}`` with repository-relative paths; ``rfc index`` says when ``rfcs/README.md`` was
already up to date and is left unchanged, JSON ``"changed": false``). ``rfc new`` warns on stderr (and in JSON
``warnings``) when another RFC already uses the new file's slug.

The commands work on the spec repository around the working directory (or ``-C DIR``) and
refuse to run outside one, so that nothing creates an ``rfcs/`` folder in an unrelated place;
``--rfcs-only`` asks for an RFC-only folder explicitly (the working directory, or ``-C DIR``,
holds ``rfcs/`` and no spec).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import InputError
from ..names import CHANGE_CLASSES, MAX_RFC_NUMBER, RFC_STATUSES, WRITE_FORMATS
from .options import (
    add_format_option,
    nonblank_text,
    number_in,
    relative,
    reports_input_error,
    repository,
    utf8_text,
)

RFC_NUMBER = number_in(int, 1, MAX_RFC_NUMBER)
"""An RFC number argument: a usage error (exit 2) outside 1..MAX_RFC_NUMBER."""

if TYPE_CHECKING:
    import datetime as dt

    from ..findings import Finding


def _repo(args: argparse.Namespace) -> Path:
    """The repository root: the spec repository around ``-C DIR`` or the working directory;
    with ``--rfcs-only``, that folder itself.

    Raises:
        InputError: no spec repository there and ``--rfcs-only`` not given.
    """
    where = Path(args.repo) if args.repo else Path.cwd()
    if getattr(args, "rfcs_only", False):
        return where
    try:
        return repository(args).root
    except InputError:
        raise InputError("not inside an EvalPort spec repository (no spec/schemas/ here or above); "
                         "pass --rfcs-only to work on an RFC-only folder here", str(where)) from None


def _today(args: argparse.Namespace) -> dt.date | None:
    return _date(getattr(args, "today", None), "--today")


def _date(value: str | None, flag: str) -> dt.date | None:
    """``value`` as a date (``None`` stays ``None``). Raises :class:`InputError` naming ``flag``."""
    if value is None:
        return None
    from ..rfc.dates import parse_date

    d = parse_date(value)
    if d is None:
        raise InputError(f"{flag} {value!r} is not an ISO date (YYYY-MM-DD)")
    return d


def _emit(findings: list[Finding], fmt: str, command: str) -> None:
    from ..findings import Severity
    from ..report import Report, emit

    errors = sum(f.severity >= Severity.ERROR for f in findings)
    emit(Report.of(findings, stage="rfcs", command=command,
                   verdict=f"{command}: {errors} error(s), {len(findings) - errors} other finding(s)"),
         fmt)


def _exit(findings: list[Finding]) -> int:
    from ..findings import Severity

    return 1 if any(f.severity >= Severity.ERROR for f in findings) else 0


def _index_or_undo(root: Path, undo: Callable[[], object], undone: str) -> Path:
    """Regenerate ``rfcs/README.md`` after ``rfc new`` or ``rfc status`` wrote an RFC, and return
    its path; if that fails (a full disk, a read-only file), call ``undo`` to take the RFC's
    write back, so the command leaves both files as they were or both changed.

    Raises:
        InputError: the index could not be written: its message, then ``undone`` (or why the
            undo failed too).
    """
    from ..rfc import write_index

    try:
        return write_index(root)
    except InputError as exc:
        try:
            undo()
            after = f"{undone}; nothing changed"
        except (InputError, OSError) as again:
            after = f"and undoing the RFC's write failed too ({again})"
        raise InputError(f"{exc.message}; {after}", exc.source, exc.line, exc.column) from None


def run_new(args: argparse.Namespace) -> int:
    from ..fsutil import repo_lock
    from ..rfc import new_rfc, same_slug

    root = _repo(args)
    documents = [d for part in args.documents for d in part.split(",") if d] if args.documents else None
    # one hold of the lock for the RFC and the index it joins: released in between, a concurrent
    # `rfc new` could take it there, and this one would fail with its RFC written but unlisted
    with repo_lock(root, "rfc new"):
        path = new_rfc(root, args.title, args.author, _today(args), number=args.number,
                       declared_class=args.change_class, documents=documents)
        index = _index_or_undo(root, lambda: path.unlink(), f"{relative(root, path)} was not created")
    rel = relative(root, path)
    warnings = [f"{relative(root, other)} already uses the slug {path.name[5:-3]!r}; {rel} was created "
                "beside it under its own number (nothing was overwritten); consider a more specific title"
                for other in same_slug(root, path)]
    for w in warnings:
        print(f"evalport-spec rfc new: warning: {w}", file=sys.stderr)
    if args.format == "json":
        print(json.dumps({"path": rel, "number": int(path.name[:4]), "status": "draft",
                          "index": relative(root, index), "warnings": warnings}, indent=2))
    else:
        print(rel)
    return 0


@reports_input_error("rfc lint")
def run_lint(args: argparse.Namespace) -> int:
    from ..rfc import lint_rfcs

    findings = lint_rfcs(_repo(args), args.files or None, _today(args))
    _emit(findings, args.format, "rfc lint")
    return _exit(findings)


@reports_input_error("rfc index --check")
def _index_check(args: argparse.Namespace) -> int:
    from ..rfc import index_findings

    findings = index_findings(_repo(args))
    _emit(findings, args.format, "rfc index --check")
    return _exit(findings)


def run_index(args: argparse.Namespace) -> int:
    from ..rfc import update_index

    if args.check:
        return _index_check(args)
    root = _repo(args)
    path, written = update_index(root)
    if args.format == "json":
        print(json.dumps({"path": relative(root, path), "changed": written}, indent=2))
    else:
        print(f"wrote {relative(root, path)}" if written else f"{relative(root, path)} is up to date (unchanged)")
    return 0


def run_status(args: argparse.Namespace) -> int:
    from ..fsutil import atomic_write, repo_lock
    from ..rfc import Change, find_rfc, set_status

    root = _repo(args)
    approvers = [(n, "maintainer") for n in args.approver or []] + [(n, "spec-lead") for n in args.spec_lead or []]
    change = Change(opens=_date(args.opens, "--opens"), closes=_date(args.closes, "--closes"),
                    date=_date(args.date, "--date"), release=args.release, by=args.by, reason=args.reason,
                    waiting_on=args.waiting_on, resolution=args.resolution, option=args.option,
                    approvers=approvers)
    with repo_lock(root, "rfc status"):  # the RFC and the index in one hold (see run_new)
        before = find_rfc(root, args.number).path.read_bytes()
        path = set_status(root, args.number, args.status, change, today=_today(args))
        index = _index_or_undo(root, lambda: atomic_write(path, before),
                               f"{relative(root, path)} was put back as it was")
    if args.format == "json":
        print(json.dumps({"path": relative(root, path), "number": args.number, "status": args.status,
                          "index": relative(root, index)}, indent=2))
    else:
        print(f"{path.name}: {args.status}")
    return 0


@reports_input_error("rfc check", lambda args: f"rfc check {args.number}")
def run_check(args: argparse.Namespace) -> int:
    from ..workflow import check_rfc

    report = check_rfc(_repo(args), args.number)
    _emit(report.findings, args.format, f"rfc check {args.number}")
    return 0 if report.ok else 1


def run_apply(args: argparse.Namespace) -> int:
    from ..rfc import apply_rfc

    root = _repo(args)
    result = apply_rfc(root, args.number)
    if args.format == "json":
        print(json.dumps({"number": result.number, "already": result.already, "written": result.written},
                         indent=2))
    elif result.already:
        print(f"RFC {args.number:04d}: its proposal is already in the draft; nothing written")
    else:
        print(f"RFC {args.number:04d}: applied to the draft ({len(result.written)} file(s)):")
        for rel in result.written:
            print(f"  {rel}")
    return 0


def run_accept_findings(args: argparse.Namespace) -> int:
    from ..gate import change_to_accept
    from ..rfc.accept import accepting_rfc, write_accepts

    root = _repo(args)
    accepting_rfc(root, args.number)  # a wrong number is an error even with nothing to accept
    findings, label = change_to_accept(root, base=args.base)
    if not findings:
        print(f"no breaking finding {label}: nothing to accept, nothing written", file=sys.stderr)
        return 0
    path, added, kept = write_accepts(root, args.number, findings)
    if args.format == "json":
        print(json.dumps({"path": relative(root, path), "number": args.number, "compared": label,
                          "added": added, "already_listed": kept}, indent=2, ensure_ascii=False))
        return 0
    print(f"{relative(root, path)}: {len(added)} breaking finding(s) {label} added to accepts, "
          f"{len(kept)} already listed")
    for e in added + kept:
        item = f" item {json.dumps(e['item'], ensure_ascii=False)}" if "item" in e else ""
        print(f"  {e['fingerprint']}  {e['kind']}  {e['location']}{item}")
    return 0


def run(args: argparse.Namespace) -> int:
    """Dispatch to the chosen ``rfc`` sub-command; returns 0, 1 or 2."""
    return args.rfc_func(args)


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``rfc`` and its sub-commands to the top-level parser."""
    p = subparsers.add_parser("rfc", help="create, lint, index, transition and check RFCs",
                              description="RFC workflow: rfcs/NNNN-slug.md with YAML front matter.")
    p.set_defaults(func=lambda a: (p.print_help(sys.stderr), 2)[1])
    sub = p.add_subparsers(dest="rfc_command", metavar="SUBCOMMAND", parser_class=type(p))

    def add(name: str, fn, help_: str) -> argparse.ArgumentParser:
        sp = sub.add_parser(name, help=help_, description=help_)
        sp.set_defaults(func=run, rfc_func=fn)
        sp.add_argument("--rfcs-only", action="store_true",
                        help="work on an RFC-only folder (the working directory or -C DIR holds rfcs/ "
                             "and no spec); without it the command refuses outside a spec repository")
        return sp

    sp = add("new", run_new, "create rfcs/NNNN-slug.md (next free number, status draft) from the template")
    sp.add_argument("title", type=utf8_text,
                    help="the RFC's title: one line, at most 200 characters; the file name's slug is made from it")
    sp.add_argument("--author", type=nonblank_text, default=None, help="author name for the front matter")
    sp.add_argument("--number", type=RFC_NUMBER, default=None, help="use this number instead of the next free one")
    sp.add_argument("--class", dest="change_class", choices=CHANGE_CLASSES, default="MINOR",
                    help="declared change class (default MINOR; the proposal's computed class is checked "
                         "against it)")
    sp.add_argument("--documents", action="append", metavar="TYPE[,TYPE]",
                    help="affected document types: suite, testcase, grader, resultset (repeatable or "
                         "comma-separated)")
    add_format_option(sp, WRITE_FORMATS, text="the path written", json="{path, number, status, index, warnings}")
    sp.add_argument("--today", default=None, help=argparse.SUPPRESS)

    sp = add("lint", run_lint, "check RFC front matter, dates, statuses, releases, classes and sections")
    sp.add_argument("files", nargs="*", metavar="FILE", help="RFC files (default: every rfcs/NNNN-*.md)")
    add_format_option(sp)
    sp.add_argument("--today", default=None, metavar="DATE", help="judge dates as of DATE (default: today)")

    sp = add("index", run_index, "regenerate rfcs/README.md (or --check that it is current)")
    sp.add_argument("--check", action="store_true", help="exit 1 if rfcs/README.md is stale; write nothing")
    add_format_option(sp)

    sp = add("status", run_status, "move an RFC to a new status (validated transition, dates written)")
    sp.add_argument("number", type=RFC_NUMBER, help=f"the RFC's number (1 to {MAX_RFC_NUMBER}; 7 names rfcs/0007-*.md)")
    sp.add_argument("status", metavar="STATUS", help=f"one of: {', '.join(RFC_STATUSES)}")
    sp.add_argument("--opens", metavar="DATE", help="comment period start (default: today)")
    sp.add_argument("--closes", metavar="DATE", help="comment period end (default: opens + 14 days)")
    sp.add_argument("--date", metavar="DATE", help="decision date (default: today)")
    sp.add_argument("--release", metavar="X.Y.Z", help="release that implements it (for implemented)")
    sp.add_argument("--by", type=RFC_NUMBER, metavar="N", help="superseding RFC (for superseded)")
    sp.add_argument("--reason", metavar="TEXT", type=nonblank_text,
                    help="why the comment period is extended (with --closes) or reopened (from deferred)")
    sp.add_argument("--waiting-on", metavar="WHAT", type=nonblank_text,
                    help="extend the comment period with no closing date until WHAT arrives")
    sp.add_argument("--resolution", metavar="URL", type=nonblank_text,
                    help="link to the post that records the decision (accepted, rejected, deferred)")
    sp.add_argument("--option", metavar="X", type=nonblank_text, help="the option accepted (an RFC with an Options section)")
    sp.add_argument("--approver", action="append", metavar="NAME", type=nonblank_text, help="a maintainer who approved (repeatable)")
    sp.add_argument("--spec-lead", action="append", metavar="NAME", type=nonblank_text,
                    help="the spec lead's sign-off (needed to accept a MAJOR change)")
    add_format_option(sp, WRITE_FORMATS, text="'FILE: STATUS'", json="{path, number, status, index}")
    sp.add_argument("--today", default=None, help=argparse.SUPPRESS)

    sp = add("check", run_check, "judge an RFC's proposal as the gate would judge the draft it produces "
             "(in memory, before or after rfc apply): class, rules, the gate's content stages, examples")
    sp.add_argument("number", type=RFC_NUMBER, help=f"the RFC's number (1 to {MAX_RFC_NUMBER}; 7 names rfcs/0007-*.md)")
    add_format_option(sp)

    sp = add("apply", run_apply, "write an accepted RFC's proposal into the draft: schema patch, rules, "
             "fixtures (since = the draft's version), SPEC.md rows and rule sections, a changelog line; "
             "all files or none; a no-op when already applied")
    sp.add_argument("number", type=RFC_NUMBER, help=f"the RFC's number (1 to {MAX_RFC_NUMBER}; 7 names rfcs/0007-*.md)")
    add_format_option(sp, WRITE_FORMATS, text="what was written", json="{number, already, written}")

    sp = add("accept-findings", run_accept_findings,
             "list the current change's breaking findings, by fingerprint, in the accepts of a MAJOR RFC")
    sp.add_argument("number", type=RFC_NUMBER, help=f"the RFC's number (1 to {MAX_RFC_NUMBER}; 7 names rfcs/0007-*.md)")
    sp.add_argument("--base", metavar="REF", default=None,
                    help="the change against REF (as `check --base REF` sees it, rule code changes "
                         "(rule-implementation-changed) included); default: the draft since the latest "
                         "release, whose rule code is compared by behaviour only")
    add_format_option(sp, WRITE_FORMATS, text="one line per entry",
                      json="{path, number, compared, added, already_listed}")
