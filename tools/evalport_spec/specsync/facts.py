"""The other generated regions: each rule's facts, the list of rule codes, and the status line.

* ``rule CODE`` (in the rule's ``### CODE`` section of "Cross-field rules"): code, document
  type, where it is reported, its parameters (tolerances, limits), since (with its RFC), whether
  JSON Schema 2020-12 can express it and whether the schema encodes it, all from the catalogue
  entry (``rules.json``).
* ``rule-codes`` (in "Validation"): the codes of the version's catalogue, in catalogue order.
* ``status`` (in "Status"): the draft's status line, from ``spec/VERSION`` and the latest
  release; :func:`released_status` is the line ``release`` freezes into a release's SPEC.md.
"""

from __future__ import annotations

from ..catalogue import Catalogue, RuleEntry
from .blocks import LIST, PARAGRAPH, Block, Row, number

STATUS = "status"
RULE_CODES = "rule-codes"


def rule_region(code: str) -> str:
    """``rule <CODE>``."""
    return f"rule {code}"


def _yes(flag: bool) -> str:
    return "yes" if flag else "no"


def rule_block(entry: RuleEntry, catalogue: Catalogue) -> Block:
    """The facts of one catalogued rule as a bullet list ``- Label: value``."""
    origin = f"{catalogue.source}:{entry.line}" if entry.line else catalogue.source
    params = "; ".join(f"`{p.name}` = {number(p.value)}" + (f" ({p.description.rstrip('.')})" if p.description else "")
                       for p in entry.parameters)
    facts = [("Code", f"`{entry.code}`"),
             ("Document type", entry.document),
             ("Reported at", ", ".join(f"`{p}`" for p in entry.reported_at) or "not stated"),
             ("Parameters", params or "none"),
             ("Since", entry.since + (f" (RFC {entry.rfc:04d})" if entry.rfc is not None else "")),
             ("Expressible in JSON Schema 2020-12", _yes(entry.expressible)),
             ("Encoded in the schema", _yes(entry.encoded))]
    return Block(rule_region(entry.code), LIST, [Row(k, {k: v}, origin, "the catalogue") for k, v in facts])


def codes_block(catalogue: Catalogue) -> Block:
    """The sentence listing the version's rule codes."""
    codes = catalogue.codes()
    text = ("The rule codes of this version are: " + ", ".join(codes) + "." if codes
            else "This version has no cross-field rules.")
    return Block(RULE_CODES, PARAGRAPH, [Row("Rule codes", {"Rule codes": text}, catalogue.source, "the catalogue")])


def draft_status(declared: str, latest: str | None) -> str:
    """The draft's status line: the version it will be released as, and the latest release."""
    tail = f"the latest release is {latest}." if latest else "there is no release yet."
    return (f"**Status:** working draft of EvalPort {declared}, not yet released. It changes only "
            f"through accepted RFCs; {tail}")


def released_status(version: str, date: str) -> str:
    """The status line of a frozen release."""
    return (f"**Status:** EvalPort {version}, released {date}. This text is frozen; any correction "
            "appears in a later version.")


def status_block(declared: str, latest: str | None) -> Block:
    """The draft's status line as a region (from ``spec/VERSION`` and ``spec/releases/``)."""
    origin = "spec/VERSION" + (f", spec/releases/{latest}" if latest else "")
    return Block(STATUS, PARAGRAPH, [Row("Status", {"Status": draft_status(declared, latest)}, origin,
                                         "spec/VERSION and the latest release")])
