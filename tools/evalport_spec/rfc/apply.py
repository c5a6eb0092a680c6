"""``rfc apply N``: write an accepted RFC's proposal into the draft in one step.

What it writes (:func:`evalport_spec.rfc.proposal.plan` computes it; ``rfc check N`` judges the
very same result before anything is written): the patched ``spec/schemas/*.json``, the
proposal's rules appended to ``spec/rules.json``, its fixtures in
``spec/conformance/fixtures/`` with ``since`` = the draft's version, and ``spec/SPEC.md`` with
the new field rows, rule sections and an unreleased changelog line
(:mod:`evalport_spec.rfc.specrows`).

Only an ``accepted`` RFC is applied (SPEC.md "Governance": the working draft collects accepted
changes). A proposal already in the draft, or an ``implemented`` RFC (shipped in a release), is a
no-op with a message, so the command can be run twice. Everything else is refused with one line and nothing written: an RFC in any other status,
no proposal folder, a proposal partly in the draft, a malformed proposal. Files are written one
by one with :func:`~evalport_spec.fsutil.atomic_write` under the repository lock; if a write
fails, the files already written are restored, so the draft ends as it was or fully applied.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import InputError
from ..fsutil import atomic_write, repo_lock
from ..spec import SpecRepo
from .model import find_rfc, repo_root
from .proposal import APPLIED, PARTIAL, plan


@dataclass
class ApplyResult:
    """What ``rfc apply`` did.

    Attributes:
        number: the RFC.
        written: repository-relative paths written, sorted (empty for a no-op).
        already: the proposal was already in the draft, or the RFC is implemented (nothing
            written).
    """

    number: int
    written: list[str] = field(default_factory=list)
    already: bool = False


def write_all(root: Path, writes: dict[str, bytes]) -> None:
    """Write ``{repository-relative path: bytes}`` all or none: each file atomically; on any
    failure the files already written get their old content back (new ones are removed) and
    the error is re-raised."""
    done: list[tuple[Path, bytes | None]] = []
    try:
        for rel in sorted(writes):
            path = root / rel
            old = path.read_bytes() if path.is_file() else None
            atomic_write(path, writes[rel])
            done.append((path, old))
    except BaseException:
        for path, old in reversed(done):
            with contextlib.suppress(OSError):
                if old is None:
                    path.unlink()
                else:
                    atomic_write(path, old)
        raise


def apply_rfc(repo: SpecRepo | str | Path, number: int) -> ApplyResult:
    """Apply RFC ``number``'s proposal to the draft (module docstring).

    Returns:
        An :class:`ApplyResult` (``already`` when the proposal was in the draft before).

    Raises:
        InputError: the RFC is not accepted (the message says its status; a status that is no
            status word, :meth:`~.model.Rfc.status_word`, says so), has no proposal
            folder, its proposal is partly in the draft or cannot be read or applied; nothing is
            written then.
    """
    root = repo_root(repo)
    with repo_lock(root, "rfc apply"):
        rfc = find_rfc(root, number)
        status = rfc.status_word()  # [accepted], ACCEPTED: one line at its status line (was a TypeError)
        if status == "implemented":
            return ApplyResult(number, already=True)
        if status != "accepted":
            hint = {"rejected": "a rejected proposal never enters the draft",
                    "comment": "its comment period has to end in acceptance first",
                    "draft": "it has not been through its comment period"}.get(status, "")
            raise InputError(f"RFC {number} is {status}, not accepted: only an accepted RFC's proposal is "
                             f"applied{'; ' + hint if hint else ''}", rfc.rel, rfc.fm.line("status"))
        if not rfc.has_proposal():
            raise InputError(f"RFC {number} has no proposal folder rfcs/{rfc.path.stem}/ to apply", rfc.rel)
        p = plan(root, rfc)
        if p.state == APPLIED:
            return ApplyResult(number, already=True)
        if p.state == PARTIAL:
            raise InputError(f"the proposal is partly in the draft ({', '.join(p.present)} already; "
                             f"{', '.join(p.missing)} not): finish or undo the hand edit, then apply again",
                             p.proposal.label)
        write_all(root, p.writes)
    return ApplyResult(number, sorted(p.writes))
