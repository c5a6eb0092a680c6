"""The SPEC.md text an applied proposal brings: its generated regions, and a changelog line.

:func:`spec_md_with_proposal` regenerates the draft's generated regions from the proposed
schemas and catalogue (:mod:`evalport_spec.specsync`: the new field rows with their types,
constraints and since; a section for each new titled object and each new rule, opened with its
description or statement and, for a rule, closed with its documented gap; the list of rule
codes) and adds one line for the RFC to the draft's pending changelog entry
(:func:`evalport_spec.changelog.add_pending`), which ``release`` turns into the next release's
entry.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import changelog
from ..schemawalk import titled_objects
from ..spec import SpecRepo, SpecVersion
from ..specsync import blocks_for, sync_text
from ..specsync.sync import version

if TYPE_CHECKING:
    from .proposal import Proposal


def changelog_line(proposal: Proposal, draft: SpecVersion, proposed: SpecVersion) -> str:
    """The pending changelog bullet for an applied proposal: what the proposed version adds to
    the draft's titled objects and catalogue, naming ``RFC 000N`` so the release that ships it is
    tied to the RFC (``- RFC 0006 (MINOR): GraderResult gains `trials`, `successes`; ...``)."""
    had = {o.title: set(o.properties) for o in titled_objects(draft.schemas)}
    parts = []
    for o in titled_objects(proposed.schemas):
        if o.title not in had:
            parts.append(f"new object {o.title}")
        elif added := [p for p in o.properties if p not in had[o.title]]:
            parts.append(f"{o.title} gains {', '.join(f'`{n}`' for n in added)}")
    codes = [r.code for r in proposal.rules]
    if codes:
        listed = codes[0] if len(codes) == 1 else ", ".join(codes[:-1]) + " and " + codes[-1]
        parts.append(f"cross-field rule{'s' if len(codes) > 1 else ''} {listed}")
    what = "; ".join(parts) or "schema change"
    declared = proposal.rfc.meta.get("declared_class", "?")
    return f"- RFC {proposal.rfc.number:04d} ({declared}): {what}."


def spec_md_with_proposal(text: str, proposal: Proposal, draft: SpecVersion, proposed: SpecVersion,
                          repo: SpecRepo) -> str:
    """``text`` (the draft's SPEC.md) with its generated regions as ``proposed`` (the draft with
    the proposal applied) gives them, and the RFC's line in the pending changelog entry.

    Raises:
        InputError: malformed region markers in ``text``; no ``## Changelog`` section.
    """
    releases = [version(repo, r) for r in repo.releases()]
    declared = repo.declared_draft_version()
    synced = sync_text(text, blocks_for(proposed, releases, declared, repo.latest_release()), proposed).synced
    if declared is None:
        return synced
    return changelog.add_pending(synced, declared, changelog_line(proposal, draft, proposed), "spec/SPEC.md")
