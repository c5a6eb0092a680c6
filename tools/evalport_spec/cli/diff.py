"""``evalport-spec diff OLD NEW``: classify a schema change as PATCH, MINOR or MAJOR.

OLD and NEW are each a schema file, a folder of schemas, a release version (``1.2.0``),
``draft``, or ``REF:PATH`` at a git revision. Exit 0 when the class (of ``--direction``) is
below ``--fail-on`` (default MAJOR), 1 at or above it, 2 on bad input (with a machine
``--format``, a report whose one finding is the ``input-error``, as ``validate`` writes). A
diff of files and folders already compared with the same options replays its report from the
disk cache (:mod:`evalport_spec.diffcache`; ``--no-cache`` computes afresh).
"""

from __future__ import annotations

import argparse
import sys

from .options import add_format_option, check_ignore_arg, number_in, reports_input_error


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``diff`` sub-command."""
    p = subparsers.add_parser("diff", help="classify a schema change as PATCH, MINOR or MAJOR",
                              description=__doc__.split("\n\n")[0])
    p.add_argument("old", metavar="OLD", help="schema file, folder, version, 'draft' or REF:PATH")
    p.add_argument("new", metavar="NEW", help="schema file, folder, version, 'draft' or REF:PATH")
    add_format_option(p)
    p.add_argument("--fail-on", choices=("MAJOR", "MINOR", "PATCH", "never"), default="MAJOR",
                   help="exit 1 when the class is at or above this (default MAJOR)")
    p.add_argument("--direction", choices=("backward", "forward", "full"), default="backward",
                   help="which class decides the exit code (default backward)")
    p.add_argument("--ignore", metavar="FILE", help="YAML/JSON list of {kind, pointer, reason, expires}")
    p.add_argument("--no-format-assertion", action="store_true",
                   help="treat 'format' as an annotation (default: asserted, as EvalPort requires)")
    p.add_argument("--search-budget", type=number_in(int, 0), default=60, metavar="N",
                   help="generated documents per file in the counter-example search (0: none; "
                        "default 60)")
    p.add_argument("--explain", action="store_true",
                   help="after the report, print the derivation of each proved inclusion: which "
                        "rule discharged each obligation (the json format always carries it)")
    p.add_argument("--no-cache", action="store_true",
                   help="compare afresh: neither replay the report of an earlier run on the same "
                        "files and options nor read or write the disk cache (as EVALPORT_CACHE_DIR=off)")
    p.set_defaults(func=run)


@reports_input_error("diff", lambda args: f"diff {args.old} -> {args.new}")
def run(args: argparse.Namespace) -> int:
    """Print the report and return the exit code: replayed from the disk cache when the same
    files were compared with the same options before (:mod:`evalport_spec.diffcache`), else
    computed (and kept)."""
    from ..diskcache import switched_off

    with switched_off(args.no_cache):  # every cache of this process reads the variable
        return _run(args)


def _run(args: argparse.Namespace) -> int:
    from .. import diffcache  # light: a hit never loads the engine

    options = {"format": args.format, "fail_on": args.fail_on, "direction": args.direction,
               "explain": args.explain, "format_assertion": not args.no_format_assertion,
               "search_budget": args.search_budget, "repo": args.repo}

    def key() -> str | None:
        return diffcache.key(args.old, args.new, options=options, ignore=args.ignore)

    check_ignore_arg("diff", args.ignore)  # before the cache: a replayed report warns too
    k = key()
    code = diffcache.replay(k) if k is not None else None
    return code if code is not None else diffcache.computed(k, lambda: _compare(args, options), key)


def _compare(args: argparse.Namespace, options: dict) -> int:
    """Run the comparison, print the report, return the exit code."""
    import time

    from ..changeclass import ChangeClass
    from ..report import emit
    from ..selfdiff import identical, plain_copies

    started = time.perf_counter()
    if args.ignore is None and plain_copies(args.old, args.new):  # two copies of a plain file: no engine
        result = identical(args.old, args.new, started)
    else:  # (lazy: `--help`, a cache hit and a plain copy never load the engine)
        from ..compat.classify import classify
        from ..compat.inputs import resolve_pair

        result = classify(*resolve_pair(args.old, args.new, args.repo), ignore=args.ignore,
                          labels=(args.old, args.new), format_assertion=options["format_assertion"],
                          search_budget=options["search_budget"])
    emit(result, args.format)
    if args.explain and args.format != "json":
        from ..compat.proof import explain_lines
        lines = explain_lines(result.proof) or ["no proof: the change is MAJOR both ways (see the findings)"]
        sys.stdout.write("\n".join(lines) + "\n")
    cls = {"backward": result.change_class, "forward": result.forward_class,
           "full": result.full_class}[args.direction]
    if args.fail_on == "never":
        return 0
    return 1 if cls >= ChangeClass[args.fail_on] else 0
