"""Version and change-class policy shared by the gate and ``release``.

Semantic versioning of the spec (SPEC.md "Versioning and compatibility"; evalport-model.md,
"Governance facts"): a MAJOR change needs a major bump, a MINOR change a minor bump (or a major
one), a PATCH change any bump. The only versions that may follow ``X.Y.Z`` are its three
successors ``X+1.0.0``, ``X.Y+1.0`` and ``X.Y.Z+1`` (semver 2.0.0 items 6-8: lower parts reset).

The MAJOR rule of the gate (toolchain.md, "Who uses it": fail a change that would reject a
document that used to be valid, unless the version and an accepted RFC say MAJOR): every
backward finding that is MAJOR or *undecided* (fail closed) passes only when

1. ``spec/VERSION`` declares the next major version (``X+1.0.0`` after ``X.Y.Z``), and
2. an RFC with ``status: accepted`` and ``declared_class: MAJOR`` names the finding, by its kind
   (``enum-value-removed``) or its fingerprint, anywhere in its text.

Each decision is reported as a finding whose kind names the policy rule that decided
(:data:`RULES`).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from typing import Any

from ..findings import ChangeClass, Finding, Location, Severity
from ..spec import parse_semver

RULES = {
    "policy-additive": "PATCH and MINOR changes pass",
    "policy-major-accepted": "a MAJOR change passes with the next major version declared and an accepted "
                             "MAJOR RFC naming it",
    "policy-major-needs-major-version": "a MAJOR change needs spec/VERSION to declare the next major version",
    "policy-major-needs-rfc": "a MAJOR change needs an accepted RFC declaring MAJOR that names the finding",
}
"""Policy rule kinds and what each says."""


def bump_class(old: str, new: str) -> ChangeClass | None:
    """The bump from release ``old`` to ``new``: MAJOR (``X+1.0.0``), MINOR (``X.Y+1.0``),
    PATCH (``X.Y.Z+1``), or ``None`` when ``new`` is not one of ``old``'s three successors.

    Raises:
        ValueError: either is not ``MAJOR.MINOR.PATCH``.
    """
    a, b = parse_semver(old), parse_semver(new)
    if b == (a[0] + 1, 0, 0):
        return ChangeClass.MAJOR
    if b == (a[0], a[1] + 1, 0):
        return ChangeClass.MINOR
    if b == (a[0], a[1], a[2] + 1):
        return ChangeClass.PATCH
    return None


def version_problem(old: str | None, new: str, needed: ChangeClass) -> str | None:
    """Why ``new`` may not follow ``old`` for a change of class ``needed``, or ``None`` if it may.

    ``old`` ``None`` (first release) accepts any version.
    """
    try:
        parse_semver(new)
    except ValueError:
        return f"{new!r} is not a MAJOR.MINOR.PATCH version (semver 2.0.0, no pre-release or build)"
    if old is None:
        return None
    bump = bump_class(old, new)
    if bump is None:
        x, y, z = parse_semver(old)
        return (f"{new} does not follow {old}: the next version is {x + 1}.0.0 (major), "
                f"{x}.{y + 1}.0 (minor) or {x}.{y}.{z + 1} (patch)")
    if bump < max(needed, ChangeClass.PATCH):
        x, y, _ = parse_semver(old)
        want = f"{x + 1}.0.0" if needed == ChangeClass.MAJOR else f"{x}.{y + 1}.0"
        return (f"{new} is a {bump.name.lower()} bump from {old} but the change since {old} is "
                f"{needed.name}: it needs {want}")
    return None


def breaking(findings: Sequence[Finding]) -> list[Finding]:
    """Backward findings that are MAJOR or undecided (the ones the MAJOR rule governs)."""
    return [f for f in findings if getattr(f, "direction", "backward") != "forward"
            and (f.change_class == ChangeClass.MAJOR or f.undecided)]


def effective_class(change_class: ChangeClass, findings: Sequence[Finding]) -> ChangeClass:
    """The class the gate acts on: MAJOR when any finding is undecided (fail closed)."""
    return ChangeClass.MAJOR if breaking(findings) else max(change_class, ChangeClass.NONE)


def names_finding(text: str, finding: Finding) -> bool:
    """True when ``text`` names ``finding`` by kind or fingerprint, as a whole token
    (``enum-value-removed`` does not match inside ``enum-value-removed-twice``)."""
    for token in (finding.kind, finding.fingerprint):
        if token and re.search(rf"(?<![\w-]){re.escape(token)}(?![\w-])", text):
            return True
    return False


def _rfc_facts(rfc: Any) -> tuple[int, str, str, str]:
    meta = rfc.meta
    return rfc.number, str(meta.get("status", "")), str(meta.get("declared_class", "")), rfc.text


def apply_major_rule(findings: Sequence[Finding], *, latest: str | None, declared: str | None,
                     rfcs: Sequence[Any], label: str, version_file: str = "spec/VERSION"
                     ) -> tuple[list[Finding], str]:
    """Decide a classified change under the MAJOR rule (module docstring).

    Args:
        findings: the classifier's findings (any direction; forward ones are kept as information).
        latest: the latest release (``None`` when there is none: then the major version check
            is not applied).
        declared: the draft's declared next version (``spec/VERSION``), or ``None``.
        rfcs: :class:`evalport_spec.rfc.Rfc` records (``number``, ``meta``, ``text``).
        label: what was compared, for messages (``"since 1.2.0"``, ``"against origin/main"``).

    Returns:
        ``(findings, rule)``: the classifier's findings re-graded (breaking ones not allowed by the
        policy become errors, everything else information) followed by one finding per policy
        decision whose kind is a key of :data:`RULES`; ``rule`` is the kind of the deciding rule.
    """
    br = breaking(findings)
    br_ids = {id(f) for f in br}
    out = [dataclasses.replace(f, severity=Severity.INFO) for f in findings if id(f) not in br_ids]
    if not br:
        cls = max((f.change_class for f in findings), default=ChangeClass.NONE)
        out.append(Finding("policy-additive", f"policy: {max(cls, ChangeClass.PATCH).name} change {label} "
                           "passes (only MAJOR or undecided changes need a major version and an RFC)",
                           severity=Severity.INFO))
        return out, "policy-additive"
    need = None
    if latest is not None:
        need = f"{parse_semver(latest)[0] + 1}.0.0"
    version_ok = need is None or declared == need
    rule = "policy-major-accepted"
    if not version_ok:
        rule = "policy-major-needs-major-version"
        out.append(Finding(rule, f"policy: {len(br)} MAJOR or undecided change(s) {label}, but "
                           f"{version_file} declares {declared or 'nothing'}; a MAJOR change needs {need} "
                           "declared there and an accepted RFC declaring MAJOR that names it",
                           severity=Severity.ERROR, new=Location(version_file, None, 1)))
    accepting = [r for r in rfcs if _rfc_facts(r)[1] == "accepted" and _rfc_facts(r)[2] == "MAJOR"]
    for f in br:
        namers = [r for r in accepting if names_finding(r.text, f)]
        what = "undecided" if f.undecided else "MAJOR"
        if namers and version_ok:
            nums = ", ".join(f"RFC {r.number:04d}" for r in namers)
            out.append(dataclasses.replace(f, severity=Severity.INFO))
            out.append(Finding("policy-major-accepted",
                               f"policy: {what} {f.kind} {label} accepted: {declared} declared and {nums} "
                               f"(accepted, MAJOR) names it", severity=Severity.INFO, new=f.where(),
                               extra={"finding": f.fingerprint, "rfcs": [r.number for r in namers]}))
            continue
        out.append(dataclasses.replace(f, severity=Severity.ERROR))
        if not namers:
            if rule == "policy-major-accepted":
                rule = "policy-major-needs-rfc"
            out.append(Finding("policy-major-needs-rfc",
                               f"policy: {what} {f.kind} {label} is not named (by kind '{f.kind}' or "
                               f"fingerprint {f.fingerprint}) by any accepted RFC declaring MAJOR",
                               severity=Severity.ERROR, new=f.where(),
                               extra={"finding": f.fingerprint}))
    return out, rule
