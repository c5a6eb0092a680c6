"""``evalport-spec docs build|serve|publish``: the versioned spec site (mkdocs-material + mike).

A thin layer over :mod:`evalport_spec.site`; it hands the site its own parser's reference page
(:func:`evalport_spec.site.cli_reference`), so the library never imports the command line.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from .options import repository

if TYPE_CHECKING:
    import datetime as dt


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
    _as_of(b)
    b.set_defaults(func=run_build)
    s = sub.add_parser("serve", help="build and preview the site on 127.0.0.1",
                       description="Build every version (or one) into a temporary folder and serve it on "
                                   "127.0.0.1 until interrupted.")
    s.add_argument("--version", metavar="V", default=None, help="only this version (X.Y.Z or draft)")
    s.add_argument("--port", type=int, default=8000, help="port on 127.0.0.1 (0: any free port)")
    _as_of(s)
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
    _as_of(pub)
    pub.set_defaults(func=run_publish)
    p.set_defaults(func=lambda args: (p.print_help(sys.stderr), 2)[1])


def _date(text: str) -> dt.date:
    import datetime as dt

    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a date YYYY-MM-DD: {text!r}") from None


def _as_of(p: argparse.ArgumentParser) -> None:
    p.add_argument("--as-of", metavar="YYYY-MM-DD", type=_date, default=None,
                   help="date the RFC pages count comment periods from (default: the last commit's day)")


def _cli_page() -> str:
    """The CLI reference page's Markdown, from this command line's parser."""
    from ..site import cli_reference
    from . import build_parser

    return cli_reference(build_parser())


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
    """Strict build; 0 ok, 1 a version's pages failed (its mkdocs warnings on stderr), 2 bad
    input (mkdocs failing on mkdocs.yml included, :func:`evalport_spec.site.build.mkdocs_build`)."""
    from ..site import build_site

    repo = repository(args)
    out = Path(args.out).absolute() if args.out else repo.root / "site"  # --out: against the working directory
    code = _report(build_site(repo, out, args.version, progress=_progress, as_of=args.as_of,
                              cli_page=_cli_page()))
    if code == 0:
        print(f"built into {out}")
    return code


def run_serve(args: argparse.Namespace) -> int:
    """Build into a temporary folder and serve it on 127.0.0.1 until Ctrl-C, under the site's
    path (``/spec/`` for ``site_url: https://evalport.github.io/spec/``), so every schema
    ``$id`` has a local twin: ``http://127.0.0.1:PORT/spec/<version>/schemas/<type>.json``."""
    import tempfile
    import threading

    from ..site import bind_server, build_site, site_path, site_url, start_server

    repo = repository(args)
    prefix = site_path(site_url(repo.root / "mkdocs.yml"))
    with tempfile.TemporaryDirectory(prefix="evalport-serve-") as tmp:
        # a busy port fails before the build
        server = bind_server(Path(tmp), args.port, quiet=False, prefix=prefix)
        try:
            code = _report(build_site(repo, Path(tmp), args.version, progress=_progress,
                                      as_of=args.as_of, cli_page=_cli_page()))
        except BaseException:
            server.server_close()
            raise
        if code:
            server.server_close()
            return code
        start_server(Path(tmp), server=server)
        start = args.version + "/" if args.version else ""
        print(f"serving on http://127.0.0.1:{server.server_address[1]}{prefix}{start} (Ctrl-C to stop)",
              flush=True)
        try:
            threading.Event().wait()
        finally:
            server.shutdown()
            server.server_close()
    return 0


def run_publish(args: argparse.Namespace) -> int:
    """Deploy with mike; one progress line per version on stderr."""
    from ..site import publish

    repo = repository(args)
    steps = publish(repo, branch=args.branch, push=args.push, remote=args.remote,
                    allow_dirty=args.allow_dirty, progress=_progress, as_of=args.as_of,
                    cli_page=_cli_page())
    changed = sum(s.changed for s in steps)
    print(f"published {len(steps)} versions to {args.branch} ({changed} changed)")
    return 0
