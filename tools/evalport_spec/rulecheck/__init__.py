"""Rules vs implementation vs fixtures vs SPEC.md vs the raw schema; rules in compatibility.

Public API (issue 4; toolchain.md, "Cross-field rules and their documented gaps")::

    check_rules(repo_or_spec, *, rules=None, drift=True) -> list[Finding]
    survey(RuleContext.build(repo_or_spec)) -> list[RuleStatus]     # the join behind `rules list`
    rules_table(repo_or_spec, fmt="text"|"json"|"markdown") -> str
    rules_page(spec, *, fixtures=None) -> str                         # the site's rules page
    rule_changes(old, new, corpus=None, *, rules_old=None, rules_new=None) -> list[Finding]
    format_finding(finding) -> "path:line: CODE: what is wrong"
"""

from .check import check_rules, errors_in
from .compat import rule_changes
from .context import RuleContext, format_finding
from .render import rules_page, rules_table
from .survey import RuleStatus, survey

__all__ = ["RuleContext", "RuleStatus", "check_rules", "errors_in", "format_finding",
           "rule_changes", "rules_page", "rules_table", "survey"]
