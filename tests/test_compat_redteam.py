"""Schema changes found by red-teaming the classifier (session 32): each pair once gave an unsound
PATCH/MINOR verdict, a crash or a missed cycle. Expected classes are worked out from
python-jsonschema's own verdict on a witness document, never from the classifier's output."""

from __future__ import annotations

import jsonschema
import pytest

from compat_pair import sset
from evalport_spec.compat import compare
from evalport_spec.findings import ChangeClass

D4 = "http://json-schema.org/draft-04/schema#"
D7 = "http://json-schema.org/draft-07/schema#"
D2019 = "https://json-schema.org/draft/2019-09/schema"


def classify(old, new):
    return compare(sset(old, "old"), sset(new, "new"), search_budget=0).change_class


def lost(old, new, doc) -> bool:
    """python-jsonschema: ``doc`` valid under ``old``, invalid under ``new`` (the ground truth)."""
    v = lambda s: jsonschema.validators.validator_for(s)(s)  # noqa: E731
    return v(old).is_valid(doc) and not v(new).is_valid(doc)


@pytest.mark.parametrize(("dialect", "keyword", "defs"), [
    (D7, "$dynamicRef", "definitions"),     # 2020-12 keyword, unknown in draft-07
    (D2019, "$dynamicRef", "$defs"),        # 2020-12 keyword, unknown in 2019-09
    (None, "$recursiveRef", "$defs"),       # 2019-09 keyword, unknown in 2020-12
    (D7, "$recursiveRef", "definitions"),   # 2019-09 keyword, unknown in draft-07
])
def test_dynamic_reference_of_another_dialect_is_ignored(dialect, keyword, defs):
    head = {"$schema": dialect} if dialect else {}
    old = {**head, keyword: f"#/{defs}/s", defs: {"s": {"type": "string"}}}
    new = {**head, "type": "string"}
    assert lost(old, new, 1)  # the keyword asserts nothing: 1 was valid
    assert classify(old, new) is ChangeClass.MAJOR
