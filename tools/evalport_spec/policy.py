"""Version and change-class policy shared by the gate and ``release``.

Semantic versioning of the spec (SPEC.md "Versioning and compatibility"; evalport-model.md,
"Governance facts"): a MAJOR change needs a major bump, a MINOR change a minor bump (or a major
one), a PATCH change any bump. The only versions that may follow ``X.Y.Z`` are its three
successors ``X+1.0.0``, ``X.Y+1.0`` and ``X.Y.Z+1`` (semver 2.0.0 items 6-8: lower parts reset).

The MAJOR rule of the gate (toolchain.md, "Who uses it": fail a change that would reject a
document that used to be valid, unless the version and an accepted RFC say MAJOR): every
backward finding that is MAJOR or *undecided* (fail closed) is *breaking*, and passes only when

1. ``spec/VERSION`` declares the next major version (``X+1.0.0`` after ``X.Y.Z``), and
2. an RFC with ``status: accepted`` and ``declared_class: MAJOR`` lists the finding's exact
   fingerprint in its ``accepts`` (:mod:`evalport_spec.rfc.accept`; naming a kind accepts
   nothing), and that acceptance predates the change (a :class:`Ledger`, such as those of
   :mod:`evalport_spec.gate.acceptance`), or a live ``check --ignore`` entry names that fingerprint.

A leaf below both the gate and ``release`` (which checks a version number against its class).

Every breaking finding is reported, with what accepts it or "not accepted", as a warning
(accepted) or an error (not accepted). Each decision is also reported as a finding whose kind
names the policy rule that decided (:data:`RULES`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any, Protocol

from .findings import ChangeClass, Finding, Location, Severity
from .rfc.accept import accepts_entry
from .spec import parse_semver

RULES = {
    "policy-additive": "PATCH and MINOR changes pass",
    "policy-major-accepted": "a MAJOR change passes with the next major version declared and every "
                             "breaking finding accepted by fingerprint by an RFC accepted before the change",
    "policy-major-needs-major-version": "a MAJOR change needs spec/VERSION to declare the next major version",
    "policy-major-needs-rfc": "every breaking finding needs an accepted MAJOR RFC listing its fingerprint",
    "policy-acceptance-same-change": "an RFC accepts a breaking change only if it was accepted before that change",
}
"""Policy rule kinds and what each says."""


class Ledger(Protocol):
    """Who accepts a breaking finding, and whether before the change
    (:class:`evalport_spec.gate.acceptance.Ledger` and its subclasses).

    Attributes:
        now: the RFCs of the tree under review, by number.
        before: how messages name the point an acceptance must predate (``"at origin/main"``).
    """

    now: dict[int, Any]
    before: str

    def accepting(self, f: Finding) -> list[int]:
        """Numbers of the RFCs that accept ``f`` now (accepted, MAJOR, listing its fingerprint)."""
        ...

    def predates(self, number: int, f: Finding) -> bool:
        """Whether RFC ``number``'s acceptance of ``f`` predates the change introducing ``f``."""
        ...

    def candidates(self) -> list[int]:
        """RFCs declaring MAJOR, not decided yet or accepted: those that could accept a finding."""
        ...


def bump_class(old: str, new: str) -> ChangeClass | None:
    """The bump from release ``old`` to ``new``: MAJOR (``X+1.0.0``), MINOR (``X.Y+1.0``),
    PATCH (``X.Y.Z+1``), or ``None`` when ``new`` is not one of ``old``'s three successors.

    Raises:
        ValueError: either is not ``MAJOR.MINOR.PATCH``.
    """
    a, b = parse_semver(old), parse_semver(new)
    if b == a.bump_major():
        return ChangeClass.MAJOR
    if b == a.bump_minor():
        return ChangeClass.MINOR
    if b == a.bump_patch():
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
        v = parse_semver(old)
        return (f"{new} does not follow {old}: the next version is {v.bump_major()} (major), "
                f"{v.bump_minor()} (minor) or {v.bump_patch()} (patch)")
    if bump < max(needed, ChangeClass.PATCH):
        v = parse_semver(old)
        want = v.bump_major() if needed == ChangeClass.MAJOR else v.bump_minor()
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


def _shown(f: Finding) -> str:
    what = "undecided" if f.undecided else "MAJOR"
    return f"{what} {f.kind} [{f.fingerprint}]"


def _ignored(f: Finding, ignores: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The first entry naming ``f`` by its kind and fingerprint and, for a finding bound to its
    new value, by ``to`` (:func:`evalport_spec.rfc.accept.accepts_entry`). The kind counts: the
    repository's ignore file may name ``rule-implementation-changed`` findings only
    (:mod:`evalport_spec.gate.ignores`), so that kind with another finding's fingerprint must
    accept nothing."""
    return next((e for e in ignores if e.get("kind") == f.kind and accepts_entry(e, f)), None)


def apply_major_rule(findings: Sequence[Finding], *, latest: str | None, declared: str | None,
                     ledger: Ledger | None, label: str, version_file: str = "spec/VERSION",
                     ignores: Sequence[dict[str, Any]] = ()) -> tuple[list[Finding], str]:
    """Decide a classified change under the MAJOR rule (module docstring).

    Args:
        findings: the change's findings (any direction; forward ones are kept as information).
        latest: the latest release (``None`` when there is none: then the major version check
            is not applied).
        declared: the draft's declared next version (``spec/VERSION``), or ``None``.
        ledger: who accepts what, and since when (a :class:`Ledger`);
            ``None`` when there are no RFCs.
        label: what was compared, for messages (``"since 1.2.0"``, ``"against origin/main"``).
        ignores: live ``check --ignore`` entries; one with a ``fingerprint`` (and, for a finding
            bound to its new value, the same ``to``) accepts that finding.

    Returns:
        ``(findings, rule)``: the non-breaking findings as information (a warning, such as the
        classifier's ``pattern-not-portable``, stays a warning), every breaking finding
        with its verdict appended to its message (warning when accepted, error when not; its
        ``extra["accepted_by"]`` lists the RFC numbers, or names the ignore file entry), then one
        finding per policy decision whose kind is a key of :data:`RULES`; ``rule`` is the kind
        of the deciding rule.
    """
    br = breaking(findings)
    br_ids = {id(f) for f in br}
    out = [dataclasses.replace(f, severity=Severity.WARNING if f.severity == Severity.WARNING else Severity.INFO)
           for f in findings if id(f) not in br_ids]
    if not br:
        cls = max((f.change_class for f in findings), default=ChangeClass.NONE)
        out.append(Finding("policy-additive", f"policy: {max(cls, ChangeClass.PATCH).name} change {label} "
                           "passes (only MAJOR or undecided changes need a major version and an RFC)",
                           severity=Severity.INFO))
        return out, "policy-additive"
    need = str(parse_semver(latest).bump_major()) if latest is not None else None
    version_ok = need is None or declared == need
    accepted_by: set[int] = set()
    missing: list[Finding] = []
    late: dict[int, list[Finding]] = {}
    counted = 0
    for f in br:
        ignore = _ignored(f, list(ignores))
        if ignore is not None:
            until = f" until {ignore['expires']}" if "expires" in ignore else ""
            out.append(dataclasses.replace(
                f, severity=Severity.WARNING, extra={**f.extra, "accepted_by": {"ignore": ignore}},
                message=f"{f.message}: ignored by the --ignore entry for [{f.fingerprint}] "
                        f"({ignore.get('reason', '').strip()}){until}"))
            continue
        counted += 1
        listing = ledger.accepting(f) if ledger is not None else []
        timely = [n for n in listing if ledger is not None and ledger.predates(n, f)]
        if timely:
            nums = ", ".join(f"RFC {n:04d}" for n in timely)
            accepted_by.update(timely)
            sev = Severity.WARNING if version_ok else Severity.ERROR
            out.append(dataclasses.replace(f, severity=sev, extra={**f.extra, "accepted_by": timely},
                                           message=f"{f.message}: accepted by {nums}"))
            continue
        for n in listing:
            late.setdefault(n, []).append(f)
        waiting = [] if ledger is None else sorted(
            n for n, st in ledger.now.items() if f.fingerprint in st.fingerprints and not st.accepts_major)
        other = [] if ledger is None else sorted(
            n for n, st in ledger.now.items() if f.fingerprint in st.fingerprints and st.accepts_major
            and n not in listing)
        if other and not listing and ledger is not None:
            why = ("not accepted: " + ", ".join(f"RFC {n:04d}" for n in other) + f" lists fingerprint "
                   f"{f.fingerprint} for another value at this location (its `to` names the value it "
                   "accepted; a fingerprint without an item names the place, not the value)")
        elif listing and ledger is not None:
            why = (f"not accepted: {', '.join(f'RFC {n:04d}' for n in listing)} lists it but was not "
                   f"accepted with it {ledger.before}")
        elif waiting and ledger is not None:
            why = "not accepted: " + ", ".join(
                f"RFC {n:04d} lists it but is {ledger.now[n].status} declaring {ledger.now[n].declared_class}"
                for n in waiting) + " (only an accepted MAJOR RFC accepts)"
        else:
            cands = ledger.candidates() if ledger is not None else []
            need_rfc = (", ".join(f"RFC {n:04d}" for n in cands) + " would need it (`evalport-spec rfc "
                        f"accept-findings {cands[0]}`)") if cands else ("no RFC declaring MAJOR is open for it (an accepted RFC's accepts list is "
                                     "closed: propose the change in a new RFC, `evalport-spec rfc new`)")
            why = f"not accepted: no accepted MAJOR RFC lists fingerprint {f.fingerprint}; {need_rfc}"
        missing.append(f)
        out.append(dataclasses.replace(f, severity=Severity.ERROR, extra={**f.extra, "accepted_by": []},
                                       message=f"{f.message}: {why}"))
    rule = "policy-major-accepted"
    if counted and not version_ok:
        rule = "policy-major-needs-major-version"
        out.append(Finding(rule, f"policy: {counted} MAJOR or undecided change(s) {label}, but "
                           f"{version_file} declares {declared or 'nothing'}; a MAJOR change needs {need} "
                           "declared there and an accepted RFC listing each finding's fingerprint",
                           severity=Severity.ERROR, new=Location(version_file, None, 1)))
    before = ledger.before if ledger is not None else ""
    for n, fs in sorted(late.items()):
        if rule == "policy-major-accepted":
            rule = "policy-acceptance-same-change"
        out.append(Finding("policy-acceptance-same-change",
                           f"policy: RFC {n:04d} accepts {len(fs)} breaking finding(s) {label} but was not "
                           f"accepted with them {before}: an RFC that becomes "
                           "accepted in the same change it excuses accepts nothing (land the decision first)",
                           severity=Severity.ERROR, extra={"rfc": n, "findings": [f.fingerprint for f in fs]}))
    if missing:
        if rule == "policy-major-accepted":
            rule = "policy-major-needs-rfc"
        out.append(Finding("policy-major-needs-rfc",
                           f"policy: {len(missing)} of {len(br)} breaking finding(s) {label} not accepted: "
                           + ", ".join(_shown(f) for f in missing), severity=Severity.ERROR,
                           extra={"findings": [f.fingerprint for f in missing]}))
    if accepted_by:
        out.append(Finding("policy-major-accepted",
                           f"policy: {len(br) - len(missing)} of {len(br)} breaking finding(s) {label} "
                           f"accepted by " + ", ".join(f"RFC {n:04d}" for n in sorted(accepted_by)),
                           severity=Severity.INFO, extra={"rfcs": sorted(accepted_by)}))
    return out, rule
