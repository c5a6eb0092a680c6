"""``evalport-spec docs build|serve|publish``: the versioned spec site (mkdocs-material + mike).

A thin layer over :mod:`evalport_spec.site`.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import threading
from pathlib import Path

from ..spec import SpecRepo


def _progress(line: str) -> None:
    print(f"docs: {line}", file=sys.stderr, flush=True)


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``docs`` command and its sub-commands."""
    p = subparsers.add_parser("docs", help="build, preview or publish the versioned spec site",
                              description="Build, preview or publish the versioned spec site "
                                          "(mkdocs-material, versioned with mike).")
    sub = p.add_subparsers(dest="docs_command", metavar="SUBCOMMAND")
    b = sub.add_parser("build", help="build every version strictly (a broken link or anchor fails)",
                       description="Generate each version's pages in a temporary folder and build them with "
                                   "mkdocs --strict into OUT/<version>/ (plus versions.json and latest/ when "
                                   "building all versions).")
    b.add_argument("--version", metavar="V", default=None, help="only this version (X.Y.Z or draft)")
    b.add_argument("--out", metavar="DIR", default=None, help="output folder (default: site/ in the repository)")
    b.set_defaults(func=run_build)
    s = sub.add_parser("serve", help="build and preview the site on 127.0.0.1",
                       description="Build every version (or one) into a temporary folder and serve it on "
                                   "127.0.0.1 until interrupted.")
    s.add_argument("--version", metavar="V", default=None, help="only this version (X.Y.Z or draft)")
    s.add_argument("--port", type=int, default=8000, help="port on 127.0.0.1 (0: any free port)")
    s.set_defaults(func=run_serve)
    pub = sub.add_parser("publish", help="deploy every release and the draft to gh-pages with mike",
                         description="Deploy every release and the draft with mike (alias latest on the newest "
                                     "release, which is also the default page). Idempotent; never removes "
                                     "another version; works without a remote.")
    pub.add_argument("--push", action="store_true", help="push the branch to the remote afterwards")
    pub.add_argument("--branch", default="gh-pages", help="branch to deploy to")
    pub.add_argument("--remote", default="origin", help="remote to push to with --push")
    pub.add_argument("--allow-dirty", action="store_true",
                     help="publish even with uncommitted changes (mike deploys the working tree as it is)")
    pub.set_defaults(func=run_publish)
    p.set_defaults(func=lambda args: (p.print_help(sys.stderr), 2)[1])


def _report(results: list) -> int:
    bad = 0
    notes: set[str] = set()
    for r in results:
        notes.update(r.notes)
        if not r.ok:
            bad += 1
            for line in r.problems:
                print(f"docs: {r.version}: {line}", file=sys.stderr)
    for n in sorted(notes):
        print(f"docs: note: {n}", file=sys.stderr)
    return 1 if bad else 0


def run_build(args: argparse.Namespace) -> int:
    """Strict build; 0 ok, 1 a version failed (its mkdocs warnings on stderr), 2 bad input."""
    from ..site import build_site

    repo = SpecRepo.discover(Path(args.repo) if args.repo else None)
    out = Path(args.out).absolute() if args.out else repo.root / "site"  # --out: against the working directory
    code = _report(build_site(repo, out, args.version, progress=_progress))
    if code == 0:
        print(f"built into {out}")
    return code


def run_serve(args: argparse.Namespace) -> int:
    """Build into a temporary folder and serve it on 127.0.0.1 until Ctrl-C."""
    from ..site import build_site, start_server
    from ..site.build import bind_server

    repo = SpecRepo.discover(Path(args.repo) if args.repo else None)
    with tempfile.TemporaryDirectory(prefix="evalport-serve-") as tmp:
        server = bind_server(Path(tmp), args.port, quiet=False)  # a busy port fails before the build
        try:
            code = _report(build_site(repo, Path(tmp), args.version, progress=_progress))
        except BaseException:
            server.server_close()
            raise
        if code:
            server.server_close()
            return code
        start_server(Path(tmp), server=server)
        start = args.version + "/" if args.version else ""
        print(f"serving on http://127.0.0.1:{server.server_address[1]}/{start} (Ctrl-C to stop)", flush=True)
        try:
            threading.Event().wait()
        finally:
            server.shutdown()
            server.server_close()
    return 0


def run_publish(args: argparse.Namespace) -> int:
    """Deploy with mike; one progress line per version on stderr."""
    from ..site import publish

    repo = SpecRepo.discover(Path(args.repo) if args.repo else None)
    steps = publish(repo, branch=args.branch, push=args.push, remote=args.remote,
                    allow_dirty=args.allow_dirty, progress=_progress)
    changed = sum(s.changed for s in steps)
    print(f"published {len(steps)} versions to {args.branch} ({changed} changed)")
    return 0
