"""Regular languages of strings, for deciding inclusion between JSON Schema string constraints.

``Lang.pattern`` (ECMA-262 ``pattern``), ``Lang.length`` (``minLength``/``maxLength``) and
``Lang.format`` (asserted formats whose language is regular) build languages; ``& | ~ -``
combine them; ``is_empty``, ``<=`` and ``==`` decide; ``example``/``examples`` give witnesses.
"""

from .errors import BudgetExceeded, InvalidPattern, Unsupported
from .lang import Lang

__all__ = ["BudgetExceeded", "InvalidPattern", "Lang", "Unsupported"]
