"""Semantic Versioning 2.0.0 for spec versions: the pattern and the release-version parser.

A leaf module (no package imports) so that models read by :mod:`evalport_spec.spec`, such as
the conformance fixtures (:mod:`evalport_spec.fixtures`), can order versions without importing
the spec model.
"""

from __future__ import annotations

import re

SEMVER = re.compile(
    r"^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)"
    r"(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?"
    r"(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$"
)
"""Semantic Versioning 2.0.0, the regular expression given at semver.org."""


def parse_semver(text: str) -> tuple[int, int, int]:
    """``"1.2.3"`` -> ``(1, 2, 3)``. Raises ``ValueError`` for anything but a release semver."""
    m = SEMVER.match(text)
    if not m or m.group(4) or m.group(5):
        raise ValueError(f"not a release version (MAJOR.MINOR.PATCH): {text!r}")
    return int(m.group(1)), int(m.group(2)), int(m.group(3))
