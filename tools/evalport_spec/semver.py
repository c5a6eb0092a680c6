"""Semantic Versioning 2.0.0 for spec versions: the pattern and the release-version parser.

Parsing and ordering are python-semver's (:class:`semver.Version`, the reference implementation
of semver.org's grammar and precedence rules); this module only narrows it to *release* versions
(``MAJOR.MINOR.PATCH``, no pre-release or build part), the only versions a spec release or a
conformance fixture's ``since``/``until`` may carry (toolchain.md, "Versions").

A leaf module (no package imports) so that models read by :mod:`evalport_spec.spec`, such as
the conformance fixtures (:mod:`evalport_spec.fixtures`), can order versions without importing
the spec model.
"""

from __future__ import annotations

import re

from semver import Version

__all__ = ["SEMVER", "Version", "parse_semver"]

SEMVER = re.compile(
    r"^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)"
    r"(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?"
    r"(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$"
)
"""Semantic Versioning 2.0.0, the regular expression given at semver.org: the text of the
``pattern`` the schemas put on version fields (SPEC.md's field tables name it by this text)."""


def parse_semver(text: str) -> Version:
    """``"1.2.3"`` -> ``Version(1, 2, 3)``: ordered by semver precedence, hashable, with
    ``major``/``minor``/``patch`` and ``bump_major()``/``bump_minor()``/``bump_patch()``.

    Raises:
        ValueError: ``text`` is not a string holding a release version (a pre-release such as
            ``1.2.3-rc.1``, build metadata, leading zeros or a missing part are all refused).
    """
    if not isinstance(text, str):
        raise ValueError(f"not a release version (MAJOR.MINOR.PATCH): {text!r}")
    try:
        v = Version.parse(text)
    except (ValueError, TypeError):
        raise ValueError(f"not a release version (MAJOR.MINOR.PATCH): {text!r}") from None
    if v.prerelease is not None or v.build is not None:
        raise ValueError(f"not a release version (MAJOR.MINOR.PATCH): {text!r}")
    return v
