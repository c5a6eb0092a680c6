"""Rules vs implementation vs fixtures vs SPEC.md vs the raw schema.

Public API (issue 4; toolchain.md, "Cross-field rules and their documented gaps")::

    check_rules(repo_or_spec, *, rules=None, drift=True) -> list[Finding]
    survey(RuleContext.build(repo_or_spec)) -> list[RuleStatus]     # the join behind `rules list`
    rules_table(repo_or_spec, fmt="text"|"json"|"markdown") -> str
    rules_page(spec, *, fixtures=None) -> str                         # the site's rules page
    format_finding(finding) -> "path:line: CODE: what is wrong"

Rules in compatibility (the classes of rule changes between versions) are
:mod:`evalport_spec.rulechanges`, below the classifier that uses them.
"""

from .check import check_rules, errors_in
from .context import RuleContext, format_finding
from .render import rules_page, rules_table
from .survey import RuleStatus, survey

__all__ = ["RuleContext", "RuleStatus", "check_rules", "errors_in", "format_finding",
           "rules_page", "rules_table", "survey"]
