"""``evalport-spec canary [--toolchain DIR] [--base REF] [--timeout S] [--jobs N] [--format F]``:
known breaks judge a toolchain.

Each canary of :data:`evalport_spec.gate.canary.CANARIES` is planted in a scratch clone of the
repository's committed ``HEAD`` and judged by the toolchain under test (default: the checkout's
own ``tools/``), which must fail the stage that catches it. A progress line per canary goes to
standard error. A control run first (``HEAD`` with a benign change, no break planted) must pass every stage the
canaries use. The toolchain's own ``diff`` also judges the known-breaking schema pairs of
:mod:`evalport_spec.gate.canaryclassifier` in one run: it must call each MAJOR. Exit codes: 0 every canary caught (or skipped: nothing to break in this spec) and
the control clean, 1 a canary passed, a run failed or the control failed, 2 usage or input
error (not a git checkout, no toolchain).
With ``--base REF`` nothing runs (exit 0) unless the toolchain or CI configuration differs from
REF (the paths ``toolchain-changed`` lists): how ``.ci/run`` and the Action call it; a
canary that cannot be planted on ``HEAD`` but can on REF is an error (``toolchain-canary-unplantable``);
and the checkout's own ``canary`` command is run on this package weakened, and must fail every
known break (``toolchain-canary-blind``, :mod:`evalport_spec.gate.canarymeta`).
"""

from __future__ import annotations

import argparse
import sys

from .options import MAX_TIMEOUT, add_format_option, number_in, reports_input_error, repository

MAX_JOBS = 64
"""Most gate runs ``--jobs`` may ask for at once."""


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``canary`` sub-command."""
    p = subparsers.add_parser(
        "canary", help="check that a toolchain still fails known breaks (for a change to tools/)",
        description="Plant known breaks (an enum value removed, a released file edited...) one at a "
                    "time in a scratch clone of the repository's HEAD and run the toolchain under "
                    "test's gate on each: every one must fail the stage that catches it today. CI runs "
                    "the base's command on a branch that changes the toolchain.")
    p.add_argument("--toolchain", metavar="DIR", default=None,
                   help="folder holding the evalport_spec package to test (default: the checkout's "
                        "tools/ as committed)")
    p.add_argument("--base", metavar="REF", default=None,
                   help="run only when the toolchain or CI configuration differs from REF (the paths "
                        "`check --base REF` lists as toolchain-changed); otherwise report nothing to test. A "
                        "canary plantable on REF but not on HEAD is then an error")
    p.add_argument("--timeout", metavar="S", type=number_in(float, 0, MAX_TIMEOUT, above=True), default=None,
                   help="seconds one canary's gate run may take (default 600)")
    p.add_argument("--jobs", metavar="N", type=number_in(int, 1, MAX_JOBS), default=None,
                   help="gate runs at once, each in a scratch clone of its own (default: the processors, "
                        "at most 4)")
    add_format_option(p)
    p.set_defaults(func=run)


@reports_input_error("canary", "EvalPort toolchain canary: input error")
def run(args: argparse.Namespace) -> int:
    """Run the canaries and print their report. Returns 0 or 1; raises InputError (exit 2)."""
    from ..findings import Severity
    from ..gate import canary
    from ..report import Check, Report, emit

    repo = repository(args)
    if args.base is not None and not canary.toolchain_changes(repo.root, args.base):
        said = f"canary: not run (the toolchain does not differ from {args.base}: nothing to test)"
        print(said, file=sys.stderr)
        emit(Report(command="canary", title="EvalPort toolchain canary", verdict=said,
                    data={"ok": True, "canaries": []}), args.format)
        return 0

    def progress(item) -> None:
        if getattr(item, "status", "") == "caught" and item.name.startswith("classifier-"):
            return  # sixty of them: the verdict line counts them
        print(f"canary: {item.name}: {item.status} ({item.what}; {item.seconds:.1f}s)",
              file=sys.stderr, flush=True)

    if args.toolchain is not None:  # before any progress line: a usage error is one line
        canary.require_package(args.toolchain)
    print(f"canary: planting known breaks in a scratch clone of {repo.root} (HEAD)", file=sys.stderr)
    changed = canary.uncommitted_tools(repo.root) if args.toolchain is None else []
    if changed:
        print(f"canary: note: {len(changed)} file(s) under tools/ differ from HEAD ({changed[0]}...); "
              "the committed toolchain is the one tested", file=sys.stderr)
    from ..gate.canaryclassifier import load_pairs

    result = canary.run_canaries(repo.root, args.toolchain, pairs=load_pairs(), base=args.base,
                                 timeout=args.timeout or canary.TIMEOUT,
                                 jobs=args.jobs, progress=progress)
    outcomes = result.outcomes
    findings = result.findings()
    failed = [f for f in findings if f.severity == Severity.ERROR]
    status = {"caught": "ok", "passed": "fail", "error": "fail", "skipped": "skip", "unproven": "fail",
              "unplantable": "fail",
              "clean": "ok", "failed": "fail"}
    checks = [Check(x.name, status[x.status], round(x.seconds, 3), x.what) for x in [*result.controls, *outcomes]]
    caught = sum(o.status == "caught" for o in outcomes)
    missed = sum(o.status in ("passed", "error", "unproven", "unplantable") for o in outcomes)
    spoiled = [c.name for c in result.controls if c.status != "clean"]
    dropped = [f for f in result.removed if f.kind == "toolchain-canary-removed"]
    pairs = result.classified
    major = sum(o.status == "caught" for o in pairs)
    classified = f"; classifier: {major} of {len(pairs)} known breaking schema pairs called MAJOR"
    checks += [Check(o.name, status[o.status], round(o.seconds, 3), o.what) for o in pairs if o.status != "caught"]
    if pairs and major == len(pairs):
        checks.append(Check("classifier", "ok", round(pairs[0].seconds, 3),
                            f"{len(pairs)} known breaking schema pairs, each called MAJOR by diff"))
    verdict = (f"canary: passed ({caught} of {len(outcomes)} known breaks caught){classified}" if not failed else
               f"canary: FAILED ({missed} of {len(outcomes)} known breaks not caught"
               + (f"; {len(spoiled)} of {len(result.controls)} control runs (no break planted) failed" if spoiled
                  else "")
               + (f"; {len(dropped)} known break(s) or pair(s) dropped by the changed toolchain"
                  if dropped else "")
               + (f"; its own canary is blind to {len(result.blind)} known break(s) or pair(s)"
                  if result.blind else "") + f"){classified}")
    data = {"ok": not failed, "canaries": [
        {"name": o.canary.name, "stage": o.canary.stage, "status": o.status, "what": o.what,
         "detail": o.detail, "caught_by": o.kinds, "seconds": round(o.seconds, 3)} for o in outcomes],
        "classifier": [{"name": o.canary.name, "status": o.status, "what": o.what, "detail": o.detail,
                        "major_kinds": o.kinds} for o in pairs],
        "controls": [{"name": c.name, "stages": list(c.stages), "status": c.status, "failing": c.failing,
                      "detail": c.detail, "seconds": round(c.seconds, 3)} for c in result.controls]}
    report = Report.of(findings, command="canary", title="EvalPort toolchain canary",
                       checks=checks, check_noun="known break", data=data, verdict=verdict)
    emit(report, args.format)
    return 1 if failed else 0
