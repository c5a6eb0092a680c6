"""Consumer mode (``validate --consumer``): what a 1.x consumer accepts beyond the strict
verdict of the version a document names.

SPEC.md, "Versioning and compatibility": a consumer implementing X.Y MUST accept a document of
major X whatever its minor, and MUST NOT reject a document of a newer minor for carrying members
its own schemas do not define. Producers also stamp *stale* versions (a document using
``group``, which 1.3.0 adds, stamped ``1.0.0``). So, in consumer mode:

* a document that fails its version V only through members that a later minor of the same major
  defines is checked against the earliest later version W that defines all of them (its schema
  and rules), with the warning ``stamped 1.0.0, uses `group` from 1.3.0``; its errors are W's,
  plus every error of V that is not about an unknown member (those stay errors);
* a document naming a minor newer than every version known here is checked against the newest
  known one, whose unknown-member errors become the warning ``stamped 1.9.0, newer than every
  known 1.x version: ignored `foo` (unknown to 1.4.0)``;
* anything else is the strict verdict.

"Members a later version defines" are read off ``ADDITIONAL_PROPERTIES`` violations (their
:attr:`~.violation.Violation.members`): a member at an instance location is defined by the first
later version under which it is no longer unexpected there.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from .violation import Violation, sort_violations

UNKNOWN_MEMBER = "ADDITIONAL_PROPERTIES"
"""The code of a member a closed object does not define."""


@dataclass
class Outcome:
    """What validating one document came to.

    Attributes:
        name: the version whose schema and rules the violations are (``"draft"`` or a release).
        violations: sorted.
        warnings: one line each (empty outside consumer mode).
    """

    name: str
    violations: list[Violation]
    warnings: list[str] = field(default_factory=list)


def _unknown(violations: list[Violation]) -> set[tuple[str, str]]:
    return {(v.instance_path, m) for v in violations if v.code == UNKNOWN_MEMBER for m in v.members}


def _named(members: list[tuple[str, str]]) -> str:
    return ", ".join(f"`{m}` from {version}" for m, version in members)


def consumer_outcome(check: Callable[[str], list[Violation]], name: str, stamped: str,
                     later: list[str], shown: Callable[[str], str], newer: bool) -> Outcome:
    """The consumer-mode outcome for a document that names version ``stamped``.

    Args:
        check: violations of the document under a version (``"draft"`` or a release).
        name: the version ``stamped`` resolved to (:func:`.versions.choose_version`).
        stamped: the document's ``version`` member.
        later: the known versions after ``name`` in its major, oldest first.
        shown: how a version is named in messages (``"draft (1.4.0)"``).
        newer: ``stamped`` is newer than every known version of its major.
    """
    strict = check(name)
    unknown = _unknown(strict)
    if not unknown:
        return Outcome(name, strict)
    defined: dict[tuple[str, str], int] = {}
    for i, version in enumerate(later):
        for key in unknown - _unknown(check(version)) - defined.keys():
            defined[key] = i
        if len(defined) == len(unknown):
            break
    others = [v for v in strict if v.code != UNKNOWN_MEMBER]
    if defined:
        target = later[max(defined.values())]
        found = check(target)
        keys = {v.key() for v in found}
        uses = sorted({(i, m) for (_, m), i in defined.items()})
        members = [(m, shown(later[i])) for i, m in uses]
        return Outcome(target, sort_violations(found + [v for v in others if v.key() not in keys]),
                       [f"stamped {stamped}, uses {_named(members)}"])
    if newer:
        names = sorted({m for _, m in unknown})
        major = stamped.split(".", 1)[0]
        return Outcome(name, others,
                       [f"stamped {stamped}, newer than every known {major}.x version: ignored "
                        f"{', '.join(f'`{m}`' for m in names)} (unknown to {shown(name)})"])
    return Outcome(name, strict)
