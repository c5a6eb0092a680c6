"""SPEC.md kept in step with the schemas, the catalogue and ``spec/VERSION`` (issue 13).

* :mod:`.regions` finds the generated regions (``<!-- evalport:generated ID -->`` ...
  ``<!-- /evalport:generated -->``); :mod:`.fields` and :mod:`.facts` say what each holds;
  :mod:`.sync` compares and rewrites them (``evalport-spec spec sync [--check]``);
* :mod:`.record` lists the normative changes since the latest release and what records each
  (``evalport-spec spec changes``; the gate's ``spec-text`` stage; ``release``'s changelog).

Guide: docs/how-to/edit-spec-md.md.

Public API::

    draft_blocks(repo) -> {region id: Block}
    check_draft(repo) -> SyncResult          findings, synced text, unified diff; writes nothing
    sync_draft(repo) -> SyncResult           rewrites spec/SPEC.md (atomic) when stale
    draft_status(declared, latest) / released_status(version, date)   the status lines
    record.record(repo) -> Record            changes since the latest release, each with its record
"""

from .facts import draft_status, released_status
from .sync import SyncResult, blocks_for, check_draft, draft_blocks, sync_draft, sync_text

__all__ = ["SyncResult", "blocks_for", "check_draft", "draft_blocks", "draft_status", "released_status",
           "sync_draft", "sync_text"]
