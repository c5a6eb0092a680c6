"""Instance generation from JSON Schemas (drafts 04, 06, 07, 2019-09 and 2020-12).

Used by the compatibility classifier (witnesses and the bounded counter-example search), the
rule checker, fuzzing and benchmarks. Everything is deterministic for a given seed, bounded in
work and depth, resolves ``$ref``/``$dynamicRef``/``$anchor`` offline through a
``referencing.Registry`` (a :class:`~evalport_spec.schemaset.SchemaSet`'s, or none for a single
anonymous schema), and checks every instance it calls valid with the real validator.

Public API::

    minimal_valid(schema, *, registry=None, base_uri="", format_assertion=True) -> value | NOTHING
    generate_valid(schema, *, registry=None, base_uri="", n=50, seed=0, max_depth=8) -> list
    generate_candidates(schema, *, registry=None, base_uri="", n=50, seed=0) -> list
    mutate_duplicates(document) -> Iterator[document]
    schema_kwargs(schema_set, "resultset.json") -> {"schema", "registry", "base_uri"}
"""

from .api import (
    MAX_STEPS,
    Target,
    generate_candidates,
    generate_valid,
    is_nothing,
    minimal_valid,
    schema_kwargs,
)
from .engine import NOTHING, canonical
from .mutate import mutate_duplicates

__all__ = [
    "MAX_STEPS",
    "NOTHING",
    "Target",
    "canonical",
    "generate_candidates",
    "generate_valid",
    "is_nothing",
    "minimal_valid",
    "mutate_duplicates",
    "schema_kwargs",
]
