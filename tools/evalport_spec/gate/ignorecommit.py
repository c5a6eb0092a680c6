"""A ``gate-ignore.yml`` entry names the commit whose rule code it excuses, and the gate checks it.

The repository's ignore file accepts one kind of finding, ``rule-implementation-changed``
(:mod:`.ignores`), and only through entries that landed before the change they excuse. Such an
entry's ``fingerprint`` pins the rule's code digest on both sides (:mod:`.rulecode`), but it is
sixteen hex digits: the reviewer who approves the entry cannot tell from it which code it will
excuse (red team, sessions 35 and 36: an entry landed for an edit that made SELF_PARENT compare
ids without their namespace, approved as "a helper extraction"). So each such entry must also
name, in ``commit``, the commit whose ``tools/`` holds the code it excuses (the full object
name, :data:`~evalport_spec.compat.ignore.COMMIT_ID`, which the file's reader checks). The reviewer reads that code
(``git diff BASE COMMIT -- tools/``) before approving; the gate checks that the entry tells the
truth.

When the ``base`` stage finds a ``rule-implementation-changed`` finding that an entry of the
repository's ignore file names by its fingerprint, the entry accepts it only when

1. the entry has a ``commit``;
2. that commit is in the clone; and
3. the rule's code digest at that commit (the same reading as the finding's ``to`` digest:
   the rule's modules, the modules no judged rule owns, import-time code and packaging,
   :meth:`~.rulecode.RuleCode.digest`) equals the finding's ``to`` digest.

Otherwise the entry is withdrawn for the run (the finding stays an error, so the gate fails
closed) and an ``ignore-entry-commit-mismatch`` warning says why. Entries of an ignore file
from outside the repository (the CI owner's) keep their full power and need no ``commit``.
"""

from __future__ import annotations

from typing import Any

from ..errors import InputError
from ..findings import Finding, Location, Severity
from .context import GateContext
from .history import commit_subject
from .rulecode import KIND as CODE_KIND

KIND = "ignore-entry-commit-mismatch"
"""The warning for an entry withdrawn because its ``commit`` does not hold the code it excuses."""

COMMIT = "commit"
"""The entry member naming the commit whose code the entry excuses."""


def bind_entries(ctx: GateContext, findings: list[Finding], codes: set[str]) -> list[Finding]:
    """Withdraw from ``ctx.ignores`` each entry of the repository's ignore file that names a
    ``rule-implementation-changed`` finding of ``findings`` without a ``commit`` holding that
    finding's code (module docstring), and return one WARNING :data:`KIND` per withdrawn entry.

    Args:
        ctx: the gate run; ``ctx.ignore_committed`` says whether its ignore file lies inside the
            repository (else nothing is checked).
        findings: the base stage's findings (those of :data:`~.rulecode.KIND` carry
            ``item = {"rule", "from", "to"}``).
        codes: the rules judged (the keys of the base stage's ``active_in``), which the digest
            depends on (:meth:`~.rulecode.RuleCode.digest`).
    """
    if not ctx.ignore_committed or not ctx.ignores:
        return []
    out: list[Finding] = []
    for f in findings:
        if f.kind != CODE_KIND or not isinstance(f.item, dict):
            continue
        entry = next((e for e in ctx.ignores if e.get("kind") == CODE_KIND
                      and e.get("fingerprint") == f.fingerprint), None)
        if entry is None:
            continue
        why = _unbound(ctx, entry, f, codes)
        if why is None:
            continue
        ctx.ignores.remove(entry)
        out.append(Finding(KIND, f"the gate-ignore.yml entry for [{f.fingerprint}] ({f.code}) accepts "
                           f"nothing: {why} (an entry names the commit whose tools/ holds the code it "
                           "excuses, so its reviewer can read that code)",
                           severity=Severity.WARNING, new=Location("gate-ignore.yml")))
    return out


def _unbound(ctx: GateContext, entry: dict[str, Any], f: Finding, codes: set[str]) -> str | None:
    """Why ``entry`` may not accept the code finding ``f``, or ``None`` when its commit holds
    the code ``f``'s ``to`` digest names."""
    commit = entry.get(COMMIT)
    if commit is None:
        return "it names no commit"
    if commit_subject(ctx.root, commit) is None:
        return f"its commit {commit} is not in this clone"
    program = ctx.program(commit, commit[:12])
    try:
        digest = ctx.rule_code(program).with_modules(ctx.packaging(program)).digest(f.code, codes)
    except InputError as exc:
        return f"the code of its commit {commit[:12]} cannot be read ({exc})"
    if digest != f.item.get("to"):
        return (f"its commit {commit[:12]} holds other code for {f.code} (digest {digest}) than the tree "
                f"judged ({f.item.get('to')})")
    return None
