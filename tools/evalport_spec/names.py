"""The names the command line offers and the engines use, declared once.

A leaf module (no package imports, no third-party imports): the CLI builds its parser from these
without importing an engine (``--help`` stays fast), and each engine takes its own names from
here, so a choice the CLI offers is always one the engine knows.
"""

from __future__ import annotations

DRAFT = "draft"
"""The working draft's name among spec versions (``spec/``; releases are ``X.Y.Z``)."""

DOC_TYPES = ("suite", "testcase", "grader", "resultset")
"""EvalPort document types, each with a schema file ``<type>.json`` (SPEC.md, "Documents")."""

CHANGE_CLASSES = ("PATCH", "MINOR", "MAJOR")
"""Compatibility classes, lowest first (toolchain.md, "Compatibility classes")."""

STAGES = ("schemas", "spec-text", "manifest", "history", "conformance", "rules", "behaviour",
          "releases", "draft", "base", "rfcs", "examples")
"""The gate's stages in run order (``evalport-spec check``; docs/how-to/gate-in-ci.md)."""

REPORT_FORMATS = ("text", "json", "markdown", "github", "junit", "sarif")
"""Formats of the one reporter (:mod:`evalport_spec.report`)."""

RULES_FORMATS = ("text", "json", "markdown")
"""Formats of the joined rule table (``rules list``, :mod:`evalport_spec.rulecheck.render`)."""

WRITE_FORMATS = ("text", "json")
"""Formats of commands that print what they wrote (``release``, ``rfc new|status|apply|accept-findings``)."""

RFC_STATUSES = ("draft", "comment", "accepted", "rejected", "deferred", "withdrawn", "implemented",
                "superseded")
"""RFC lifecycle statuses (toolchain.md, "RFCs"; ``deferred`` as in PEP 1: the decision is
postponed, with a record of why)."""

MAX_RFC_NUMBER = 9999
"""Highest RFC number: an RFC's file name carries four digits (``rfcs/NNNN-slug.md``)."""

AUTO = "auto"
"""``--spec-version`` / ``--type`` value meaning "decide from the document"."""
