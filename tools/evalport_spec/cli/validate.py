"""``evalport-spec validate FILE...``: validate EvalPort documents (schema pass + rules).

Exit codes: 0 every file valid, 1 some file invalid, 2 input or usage error (one line).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..errors import InputError
from ..jsonload import load, loads
from ..spec import DOC_TYPES, DRAFT, SpecRepo
from ..validation import Validator
from ..validation.report import RENDERERS, FileReport


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``validate`` sub-command."""
    p = subparsers.add_parser("validate", help="validate EvalPort documents against a spec version",
                              description="Validate EvalPort documents: JSON Schema (format "
                                          "asserted) plus the cross-field rules.")
    p.add_argument("files", nargs="+", metavar="FILE", help="JSON document(s); '-' reads stdin")
    p.add_argument("--type", default="auto", choices=("auto", *DOC_TYPES),
                   help="document type (default: detected from the members)")
    p.add_argument("--spec-version", default=DRAFT, metavar="V",
                   help="'draft' (default) or a released version such as 1.2.0")
    p.add_argument("--format", default="text", choices=tuple(RENDERERS), help="output format")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Validate every file; print the report; return 0, 1 (invalid) or raise InputError (2)."""
    repo = SpecRepo.discover(Path(args.repo) if args.repo else None)
    validator = Validator(repo.version(args.spec_version))
    if validator.unimplemented:
        raise InputError(f"spec version {args.spec_version}: rule(s) "
                         f"{', '.join(validator.unimplemented)} are catalogued but have no "
                         "implementation, so documents cannot be fully validated")
    docs = [loads(sys.stdin.buffer.read(), "<stdin>") if f == "-" else load(f) for f in args.files]
    reports = []
    for doc in docs:
        doc_type = args.type
        if doc_type == "auto":
            try:
                doc_type = Validator.detect_type(doc.value)
            except InputError as exc:
                raise InputError(exc.message, doc.source, 1, 1) from None
        reports.append(FileReport(doc.source, doc_type, doc, validator.validate(doc.value, doc_type)))
    out = RENDERERS[args.format](reports)
    if out:
        print(out)
    return 0 if all(r.valid for r in reports) else 1
