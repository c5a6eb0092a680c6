"""Which spec version validates a document: the document's own ``version`` member.

SPEC.md, "Versioning and compatibility": the ``version`` of a Suite or ResultSet names the
specification version the document is written to; a consumer that implements X.Y accepts a
document of major X whatever its minor (validating it with the schemas of the version it names
when it has them) and rejects a higher major with a message naming both versions.

:func:`choose_version` applies that to the versions a repository knows (its releases, and the
draft under the version ``spec/VERSION`` declares):

========================================  ==================================================
document ``version``                      validated against
========================================  ==================================================
absent, not a string, not ``X.Y.Z``       the draft (the schema pass reports a bad version)
(or a TestCase / Grader document)
an exact release                          that release
the draft's declared version              the draft
same major, newer than every known        the newest known version of that major, with a note
version of that major (``1.9.0``)
same major, between known versions        the newest known version of that major not above it
(``1.2.5``)                               (``1.2.0``), with a note
a major no known version has              rejected: ``UNSUPPORTED_VERSION`` at ``/version``
========================================  ==================================================

"Known" versions are the releases plus the draft's declared version (when it is a release
semver). Pre-release and build suffixes (``1.4.0-rc.1``) are not release versions: such a
document goes to the draft, whose schema states whether it accepts them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..semver import Version
from ..spec import DRAFT, parse_semver
from .violation import Violation

UNSUPPORTED_VERSION = "UNSUPPORTED_VERSION"
"""Code of a document whose ``version`` has a major version this validator has no spec version
of (SPEC.md, "Validation" and "Versioning and compatibility")."""

VERSIONED_TYPES = ("suite", "resultset")
"""Document types with a top-level ``version`` member naming their spec version."""


@dataclass(frozen=True)
class VersionChoice:
    """The outcome of :func:`choose_version`.

    Attributes:
        name: version to validate against (``"draft"`` or a release ``"X.Y.Z"``), or ``None``
            when the document is rejected.
        note: one line for the user when the version was not an exact match, else ``None``.
        rejection: the ``UNSUPPORTED_VERSION`` violation when ``name`` is ``None``.
    """

    name: str | None
    note: str | None = None
    rejection: Violation | None = None
    newer: bool = False
    """The document names a version newer than every known one of its major."""


def label(name: str, draft_version: str | None) -> str:
    """How a version is shown: a release as ``X.Y.Z``, the draft with the version it declares
    (``"draft (1.4.0)"``, plain ``"draft"`` when it declares none)."""
    if name == DRAFT:
        return f"draft ({draft_version})" if draft_version else "draft"
    return name


def known_versions(releases: list[str], draft_version: str | None) -> dict[Version, str]:
    """``{semver Version: name}`` of the releases (non-semver names ignored) and of the draft
    under its declared version (unless a release has that version)."""
    known: dict[Version, str] = {}
    for name in releases:
        try:
            known[parse_semver(name)] = name
        except ValueError:
            continue
    if draft_version is not None:
        try:
            known.setdefault(parse_semver(draft_version), DRAFT)
        except ValueError:
            pass
    return known


def later_versions(name: str, releases: list[str], draft_version: str | None) -> list[str]:
    """The known versions of the same major as ``name`` (a release or ``"draft"``) and newer,
    oldest first; empty when ``name`` has no semver (a draft that declares none)."""
    known = known_versions(releases, draft_version)
    mine = next((v for v, n in known.items() if n == name), None)
    if mine is None:
        return []
    return [known[v] for v in sorted(known) if v.major == mine.major and v > mine]


def choose_version(document: Any, doc_type: str, releases: list[str],
                   draft_version: str | None) -> VersionChoice:
    """The spec version to validate ``document`` (a ``doc_type``) with (table above).

    Args:
        document: the parsed document.
        doc_type: ``suite``, ``resultset``, ``testcase`` or ``grader``.
        releases: the released versions known (any order; non-semver names are ignored).
        draft_version: the draft's declared version (``spec/VERSION``), or ``None``.

    Returns:
        a :class:`VersionChoice`; never raises.
    """
    declared = document.get("version") if isinstance(document, dict) else None
    if doc_type not in VERSIONED_TYPES or not isinstance(declared, str):
        return VersionChoice(DRAFT)
    try:
        wanted = parse_semver(declared)
    except ValueError:
        return VersionChoice(DRAFT)
    if declared in releases:
        return VersionChoice(declared)
    if declared == draft_version:
        return VersionChoice(DRAFT)
    known = known_versions(releases, draft_version)
    if not known:
        return VersionChoice(DRAFT)
    same_major = sorted(v for v in known if v.major == wanted.major)
    if not same_major:
        newest = max(known)
        newest_label = label(known[newest], draft_version)
        if wanted.major > newest.major:
            why = (f"has a higher major version than the newest spec version known here, "
                   f"{newest_label}; a {newest.major}.x consumer must reject it")
        else:
            majors = ", ".join(f"{m}.x" for m in sorted({v.major for v in known}))
            why = (f"has major version {wanted.major}, of which no spec version is known here "
                   f"(known: {majors}, newest {newest_label})")
        message = f"document version {declared} {why}"
        return VersionChoice(None, rejection=Violation(UNSUPPORTED_VERSION, "/version", message))
    below = [v for v in same_major if v <= wanted]
    if not below:  # e.g. 1.0.5 when only 1.1.0 and later are known: the oldest of the major
        chosen = same_major[0]
        note = (f"document version {declared} is older than every known {wanted.major}.x spec "
                f"version; validated against {label(known[chosen], draft_version)}")
        return VersionChoice(known[chosen], note)
    chosen = below[-1]
    shown = label(known[chosen], draft_version)
    if chosen == same_major[-1]:
        note = (f"document version {declared} is newer than every known {wanted.major}.x spec "
                f"version; validated against the newest, {shown}")
    else:
        note = (f"document version {declared} is not a known spec version; validated against "
                f"{shown}, the newest known version not above it")
    return VersionChoice(known[chosen], note, newer=chosen == same_major[-1] and wanted > chosen)
