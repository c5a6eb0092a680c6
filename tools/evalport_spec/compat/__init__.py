"""The compatibility classifier behind ``evalport-spec diff`` (toolchain.md, "Compatibility classes").

Public API:

* :func:`compare` -- two :class:`~evalport_spec.schemaset.SchemaSet` values -> :class:`Classification`;
* :func:`compare_versions` -- two :class:`~evalport_spec.spec.SpecVersion` values, with the
  cross-field rule changes and the repository's documents as counter-example candidates;
* :class:`Classification` -- ``change_class`` (backward, decides the gate), ``forward_class``,
  ``findings``, labels and stats, with ``to_json()`` valid against ``data/diff-report.schema.json``.
"""

from __future__ import annotations

from .engine import Classification, classes_of, compare, identity_findings
from .versions import compare_versions, repo_candidates

__all__ = ["Classification", "classes_of", "compare", "compare_versions", "identity_findings",
           "repo_candidates"]
