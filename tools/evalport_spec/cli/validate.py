"""``evalport-spec validate FILE...``: validate EvalPort documents (schema pass + rules).

Exit codes (check-jsonschema / ruff): 2 when some file could not be read, parsed or typed (each
reported on one line on standard error, the others still validated), else 1 when some file is
invalid, else 0.
"""

from __future__ import annotations

import argparse
import sys

from ..names import DOC_TYPES
from .options import add_format_option

# Registration needs only this value; the engine is imported in run() so that `--help` stays
# fast. tests/test_cli_imports.py asserts it equals validation.files.AUTO.
AUTO = "auto"

DESCRIPTION = """\
Validate EvalPort documents: JSON Schema (format asserted) plus the cross-field rules.

Spec versions come from the spec repository given with -C/--repo, else the one around the
working directory, else the copy bundled with this package (so validate works anywhere).
By default each Suite or ResultSet is validated against the spec version its own 'version'
member names (SPEC.md, "Versioning and compatibility"): an exact release, the draft's
declared version, the newest known version of the same major for a newer minor (with a
note), the newest release not above a non-release version such as 1.2.5; a higher major is
rejected with UNSUPPORTED_VERSION. Other documents, and documents without a well-formed
version, are validated against the draft.

--consumer validates as a consumer would accept (SPEC.md, "Versioning and compatibility"): a
document that fails the version it names only through members a later minor of the same major
defines is checked against that later version, with a warning naming it ("stamped 1.0.0, uses
`group` from 1.3.0"); the unknown members of a document naming a minor newer than every known
one are ignored, with a warning. Anything else invalid stays an error.

ResultSet files larger than 64 MiB are validated while they are read (memory stays bounded
whatever the size), with the same findings and positions as parsing them whole; a progress bar
shows on a terminal."""


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``validate`` sub-command."""
    p = subparsers.add_parser("validate", help="validate EvalPort documents against a spec version",
                              description=DESCRIPTION,
                              formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("files", nargs="+", metavar="FILE", help="JSON document(s); '-' reads stdin")
    p.add_argument("--type", default=AUTO, choices=(AUTO, *DOC_TYPES),
                   help="document type (default: detected from the members)")
    p.add_argument("--spec-version", default=AUTO, metavar="V",
                   help="'auto' (default: each document's own version), 'draft', or a release "
                        "such as 1.2.0 for every file")
    p.add_argument("--consumer", action="store_true",
                   help="accept what a consumer must: members of later minors (stale version "
                        "stamps) and unknown members of newer minors, with a warning")
    p.add_argument("--stream", action=argparse.BooleanOptionalAction, default=None,
                   help="validate ResultSet files while reading them (default: above 64 MiB)")
    add_format_option(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Validate every file; print the report; return 0, 1 (invalid) or 2 (unreadable file).

    Raises:
        InputError: no spec repository and no bundled copy, or an unusable ``--spec-version``.
    """
    from ..report import emit
    from ..validation.bundled import find_spec
    from ..validation.files import validate_files
    from ..validation.report import FileError, validation_report

    repo = find_spec(args.repo)
    entries = validate_files(repo, args.files, doc_type=args.type,
                             spec_version=args.spec_version,
                             stdin=getattr(sys.stdin, "buffer", None), stream=args.stream,
                             consumer=args.consumer)
    for e in entries:
        if isinstance(e, FileError):
            print(f"evalport-spec: error: {e.error}", file=sys.stderr)
        elif e.note:
            print(f"evalport-spec: note: {e.file}: {e.note}", file=sys.stderr)
    # text leaves unreadable files to the one line each got on standard error
    emit(validation_report(entries, input_errors=args.format != "text"), args.format)
    if any(isinstance(e, FileError) for e in entries):
        return 2
    return 0 if all(e.valid for e in entries) else 1
