"""Hand-rolled cross-field rules, registered by catalogue code in :data:`RULES`.

Importing this package registers every rule of :mod:`.suite`, :mod:`.resultset` and
:mod:`.rates`. Rules the schema encodes (``x-evalport-rule`` markers, e.g. NULL_SCORE_PASSED)
have no implementation here: the schema pass reports them.
"""

from . import rates, resultset, suite  # noqa: F401  (registration side effect)
from .registry import RULES, Rule, RuleImpl, register

__all__ = ["RULES", "Rule", "RuleImpl", "register"]
