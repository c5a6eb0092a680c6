"""``evalport-spec conformance``: run the conformance fixtures against this validator or
another implementation (``--command``). Exit 0 all agree, 1 any disagreement, 2 input error."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from .. import conformance
from ..spec import DRAFT, SpecRepo


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``conformance`` sub-command."""
    p = subparsers.add_parser("conformance", help="run the conformance fixtures",
                              description="Check an implementation against the conformance "
                                          "fixtures (both paths, codes and instance paths).")
    p.add_argument("--fixtures", metavar="DIR", default=None,
                   help="fixtures folder (default: spec/conformance/fixtures)")
    p.add_argument("--command", metavar="CMD", default=None,
                   help="another implementation: run per fixture with the document on stdin and "
                        "EVALPORT_DOCUMENT_TYPE set; prints {\"valid\", \"errors\"}")
    p.add_argument("--spec-version", default=DRAFT, metavar="V",
                   help="spec version whose schemas and rules apply (default: draft)")
    p.add_argument("--format", default="text", choices=("text", "json"), help="output format")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Load the fixtures, run them, print the report; return 0 or 1 (InputError: 2)."""
    repo = SpecRepo.discover(Path(args.repo) if args.repo else None)
    folder = Path(args.fixtures) if args.fixtures else repo.spec_dir / "conformance" / "fixtures"
    fixtures = conformance.load_fixtures(folder)
    report = conformance.run(repo.version(args.spec_version), fixtures, command=args.command)
    if args.format == "json":
        print(json.dumps(report.to_json(), indent=2, sort_keys=True))
    else:
        for d in report.disagreements:
            print(d.describe())
        bad = len({d.fixture_id for d in report.disagreements})
        print(f"{report.fixtures} fixtures: {report.fixtures - bad} agree, {bad} disagree")
    return 0 if report.ok else 1
