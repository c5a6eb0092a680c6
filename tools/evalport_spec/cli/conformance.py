"""``evalport-spec conformance``: run the conformance fixtures against this validator or
another implementation (``--command``). Exit 0 all agree, 1 any disagreement, 2 input error.

``--spec-version X`` runs X's own fixtures: a release's frozen set
(``spec/releases/X/conformance/``), or the draft's fixtures that apply to its declared version.
Outside a spec repository the copy shipped in the package is used (as ``validate`` does), so a
second implementation can run a release's suite from an installed wheel. With ``--fixtures DIR``
the folder's fixtures run instead; those that do not apply to the version are skipped and
counted. ``--compute-since`` prints, per fixture, the ``since`` the runner finds over every
version.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import InputError, UsageError
from ..names import DRAFT
from .options import MAX_TIMEOUT, add_format_option, number_in, relative, reports_input_error

if TYPE_CHECKING:
    from .. import conformance
    from ..spec import SpecRepo



def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``conformance`` sub-command."""
    p = subparsers.add_parser("conformance", help="run the conformance fixtures",
                              description="Check an implementation against the conformance "
                                          "fixtures (both paths, codes and instance paths). "
                                          "Fixtures whose 'since' is newer than the version "
                                          "run are skipped.")
    p.add_argument("--fixtures", metavar="DIR", default=None,
                   help="fixtures folder (default: the fixtures of --spec-version: a release's frozen "
                        "set, the draft's spec/conformance/fixtures)")
    p.add_argument("--command", metavar="CMD", default=None,
                   help="another implementation: run per fixture with the document on stdin ({file} "
                        "in CMD: the path of a file holding it) and EVALPORT_DOCUMENT_TYPE set; "
                        "prints {\"valid\", \"errors\"}")
    p.add_argument("--timeout", type=number_in(float, 0, MAX_TIMEOUT, above=True), default=None,
                   metavar="SECONDS",
                   help="with --command: seconds one fixture's run may take; a run past it is "
                        "killed (with every process it started) and reported as a disagreement "
                        "naming the fixture (default: 10)")
    p.add_argument("--spec-version", default=DRAFT, metavar="V",
                   help="spec version whose schemas, rules and fixtures apply (default: draft)")
    p.add_argument("--compute-since", action="store_true",
                   help="run every version and print each fixture's computed 'since' "
                        "(the oldest version from which it holds in every later one)")
    add_format_option(p)
    p.set_defaults(func=run)


def _semver(repo: SpecRepo, name: str) -> str | None:
    """The semver of a version name: a release's own, the draft's declared one."""
    return repo.declared_draft_version() if name == DRAFT else name


@reports_input_error("conformance")
def run(args: argparse.Namespace) -> int:
    """Load the fixtures, run them, print the report; return 0 or 1 (InputError: 2, reported in
    a machine ``--format`` too: :func:`~evalport_spec.cli.options.reports_input_error`)."""
    from .. import conformance
    from ..report import Report, emit
    from ..validation.bundled import find_spec

    if args.timeout is not None and args.command is None:
        raise UsageError("--timeout applies to --command (the built-in validator has no time limit)")
    repo = find_spec(args.repo)
    if args.compute_since:
        folder = Path(args.fixtures) if args.fixtures else repo.spec_dir / "conformance" / "fixtures"
        return _compute_since(repo, conformance.load_fixtures(folder), args.format)
    spec = repo.version(args.spec_version)
    version = spec.semver
    folder = Path(args.fixtures) if args.fixtures else spec.root / "conformance" / "fixtures"
    if args.fixtures:
        fixtures = conformance.load_fixtures(Path(args.fixtures))
    else:
        fixtures = spec.stored_fixtures
        if not fixtures:
            raise InputError(f"version {args.spec_version} has no conformance fixtures",
                             spec.path_label("conformance/fixtures"))
    timeout = conformance.COMMAND_TIMEOUT if args.timeout is None else args.timeout
    report = conformance.run(spec, fixtures, command=args.command, version=version, timeout=timeout)
    emit(Report.of(report.findings(relative(repo.root, folder)), stage="conformance",
                   command="conformance", data=report.to_json(), verdict=report.verdict(version)),
         args.format)
    return 0 if report.ok else 1


def _compute_since(repo: SpecRepo, fixtures: list[conformance.Fixture], fmt: str) -> int:
    versions = []
    for name in repo.all_versions():
        semver = _semver(repo, name)
        if semver is None:
            raise InputError("the draft declares no version (spec/VERSION), so 'since' cannot "
                             "name it", str(repo.spec_dir / "VERSION"))
        versions.append((semver, repo.version(name)))
    from .. import conformance

    since = conformance.compute_since(fixtures, versions)
    if fmt == "json":
        print(json.dumps(since, indent=2, sort_keys=True))
    else:
        for fx in fixtures:
            mark = "" if fx.since == since[fx.id] else f"  (file says {fx.since or 'nothing'})"
            print(f"{fx.id} {since[fx.id] or 'never'}{mark}")
    return 0 if all(since[fx.id] == fx.since for fx in fixtures) else 1
