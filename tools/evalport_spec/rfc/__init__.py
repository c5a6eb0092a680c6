"""The RFC engine: front matter, lint, index, new, status transitions and proposal checks.

RFCs live in ``rfcs/NNNN-slug.md`` with a YAML front matter (toolchain.md, "RFCs"); an optional
proposal folder ``rfcs/NNNN-slug/`` holds ``patch.json`` (RFC 6902 JSON Patch per schema file),
``rules.json`` (catalogue entries it adds) and ``fixtures/*.json`` (conformance fixtures).

Public API (each function takes the repository as a :class:`~evalport_spec.spec.SpecRepo` or
a path to its root):

* :func:`lint_rfcs` ``(repo, files=None, today=None) -> list[Finding]``
* :func:`index_text` ``(repo) -> str``, :func:`write_index` ``(repo) -> Path`` and
  :func:`update_index` ``(repo) -> (Path, written)``
* :func:`new_rfc` ``(repo, title, author=None, today=None, *, declared_class, documents) -> Path``
* :func:`same_slug` ``(repo, path) -> list[Path]`` (other RFCs with the same slug; ``rfc new`` warns)
* :func:`set_status` ``(repo, number, status, change: Change, today=None) -> Path``
* ``rfc check`` runs the gate, which reads this package: it is
  :func:`evalport_spec.workflow.check_rfc`, above both
* :func:`apply_rfc` ``(repo, number) -> ApplyResult`` (an accepted RFC's proposal into the draft)
"""

from .apply import ApplyResult, apply_rfc
from .index import index_findings, index_text, update_index, write_index
from .lint import lint_rfcs
from .model import Rfc, find_rfc, load_rfc, load_rfcs
from .new import new_rfc, same_slug, slugify
from .proposal import proposal_applied
from .status import TRANSITIONS, Change, set_status

__all__ = ["ApplyResult", "Change", "Rfc", "TRANSITIONS", "apply_rfc", "find_rfc",
           "index_findings", "index_text", "lint_rfcs", "load_rfc", "load_rfcs", "new_rfc", "proposal_applied",
           "same_slug", "set_status", "slugify", "update_index", "write_index"]
