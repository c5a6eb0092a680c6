"""A lone surrogate in a document handed to :class:`Validator` as a Python value (the CLI's loader
refuses such files first): a verdict where ECMA-262 matching can decide it, else one
:class:`InputError` naming the string, never a bare ``ValueError`` from the pattern matcher."""

from __future__ import annotations

import pytest

from evalport_spec.errors import InputError
from test_validation import synthetic


def grader(pattern: str):
    return synthetic(grader={"type": "object", "properties": {"id": {"type": "string", "pattern": pattern}}})


@pytest.mark.parametrize("pattern", ["^\\p{L}", "^[\\ud800-\\udbff]$", "\\P{Cs}"])
@pytest.mark.parametrize("document", [{"id": "\ud800", "type": "x"}, {"type": "x", "id": "a\udc00"}])
def test_undecidable_lone_surrogate_is_an_input_error_naming_the_string(pattern, document):
    with pytest.raises(InputError, match="lone surrogate U\\+D[8C]00") as exc:
        grader(pattern).validate(document, "grader")
    assert "/id" in str(exc.value)


@pytest.mark.parametrize(("pattern", "document", "codes"), [
    ("^a", {"id": "\ud800", "type": "x"}, ["PATTERN"]),   # ECMA-262: a code point, not "a"
    ("^a", {"id": "a\ud800", "type": "x"}, []),
    ("^.$", {"id": "\ud800", "type": "x"}, []),           # one code point under the u flag
])
def test_decidable_lone_surrogate_gets_a_verdict(pattern, document, codes):
    assert [v.code for v in grader(pattern).validate(document, "grader")] == codes
