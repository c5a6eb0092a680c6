"""``pattern-not-portable`` (compat/portable.py): a change that adds an ECMA-262 pattern which
Python ``re`` (stock python-jsonschema) or jsonschema-rs cannot compile is warned about, by
``diff`` and by the gate; the verdict stays what the classifier decides."""

from __future__ import annotations

import json
import re
import warnings
from pathlib import Path

import jsonschema
import jsonschema_rs
import pytest

from compat_pair import sset
from evalport_spec.cli import main
from evalport_spec.compat import compare
from evalport_spec.findings import ChangeClass, Severity
from evalport_spec.gate import run_gate
from gate_repo import edit_json, make_repo

REPO = Path(__file__).resolve().parents[1]


def py_compiles(source: str) -> bool:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            re.compile(source)
    except re.error:
        return False
    return True


def rs_compiles(source: str) -> bool:
    try:
        jsonschema_rs.validator_for({"pattern": source})
    except Exception:
        return False
    return True


@pytest.mark.parametrize(("source", "py", "rs"), [
    ("^[^]+$", False, False),   # ECMA-262 [^]: any code point; an unterminated set to both
    ("\\p{L}", False, True),     # a Unicode property: Python re has none
    ("(?<n>a)", False, True),    # a named group in ECMA-262 spelling
    ("\\u{1F600}", False, True),  # a code point escape (u flag)
])
def test_the_libraries_really_refuse_these_ecma_patterns(source, py, rs):
    # the ground truth the warning rests on, asked of the libraries themselves
    assert (py_compiles(source), rs_compiles(source)) == (py, rs)
    assert not (py and rs)
    with pytest.raises(re.error):
        jsonschema.Draft202012Validator({"pattern": source}).is_valid("x")


def warned(old, new):
    c = compare(sset(old, "old"), sset(new, "new"), search_budget=0)
    return c, [f for f in c.findings if f.kind == "pattern-not-portable"]


def test_an_added_unportable_pattern_is_one_warning_at_its_place():
    old = {"type": "object", "properties": {"a": {"type": "string"}}}
    new = {"type": "object", "properties": {"a": {"type": "string", "pattern": "^[^]+$"}},
           "patternProperties": {"\\p{L}": {}, "^x$": {}}}
    c, found = warned(old, new)
    found.sort(key=lambda f: f.new.pointer, reverse=True)
    assert [(f.new.pointer, f.item) for f in found] == [("/properties/a/pattern", "^[^]+$"),
                                                        ("/patternProperties/\\p{L}", "\\p{L}")]
    for f in found:
        assert f.severity is Severity.WARNING and f.change_class is ChangeClass.NONE
        assert "Python re" in f.message
    assert "jsonschema-rs" in found[0].message and "jsonschema-rs" not in found[1].message
    # the verdict is the classifier's: "" is lost under a (MAJOR, whether witnessed or not)
    assert c.change_class is ChangeClass.MAJOR


def test_a_pattern_the_old_file_already_had_or_a_portable_one_is_not_warned_about():
    old = {"type": "string", "pattern": "\\p{L}"}
    assert warned(old, {**old, "maxLength": 3})[1] == []
    assert warned({"type": "string"}, {"type": "string", "pattern": "^[a-z]+$"})[1] == []
    # a warning never changes a class: the same pair without the pattern's problem is MINOR too
    c, found = warned({"type": "string", "pattern": "\\p{L}", "maxLength": 2},
                      {"type": "string", "pattern": "\\p{L}|(?<n>z)"})
    assert c.change_class is ChangeClass.MINOR and [f.item for f in found] == ["\\p{L}|(?<n>z)"]


def test_diff_prints_the_warning_and_keeps_the_exit_code(tmp_path, capsys):
    (tmp_path / "old.json").write_text(json.dumps({"type": "string", "maxLength": 3}))
    (tmp_path / "new.json").write_text(json.dumps({"anyOf": [{"type": "string", "maxLength": 3},
                                                             {"type": "string", "pattern": "^[^]{9}$"}]}))
    assert main(["diff", "--no-cache", str(tmp_path / "old.json"), str(tmp_path / "new.json")]) == 0
    out = capsys.readouterr().out
    assert "class: MINOR" in out
    assert "warning pattern-not-portable" in out and "'^[^]{9}$'" in out


def test_the_gate_keeps_the_warning(tmp_path):
    repo = make_repo(tmp_path)
    edit_json(repo / "spec/schemas/resultset.json", lambda d: d["$defs"]["runner"]["properties"].__setitem__(
        "build", {"type": "string", "pattern": "^[^]+$"}))
    stage = run_gate(repo, base="main", stages=["base"]).stage("base")
    assert stage.change_class == ChangeClass.MINOR
    found = [f for f in stage.findings if f.kind == "pattern-not-portable"]
    assert len(found) == 1 and found[0].severity is Severity.WARNING, stage.findings
    assert stage.status == "warn"


D2019 = "https://json-schema.org/draft/2019-09/schema"
D7 = "http://json-schema.org/draft-07/schema#"


@pytest.mark.parametrize("dialect", [None, D2019])
def test_dependencies_in_a_modern_dialect_is_warned_about(dialect):
    # the ground truth: python-jsonschema ignores `dependencies` there, jsonschema-rs asserts it
    new = {"type": "object", "dependencies": {"a": ["b"]}, **({"$schema": dialect} if dialect else {})}
    old = {k: v for k, v in new.items() if k != "dependencies"}
    assert jsonschema.validators.validator_for(new)(new).is_valid({"a": 1})
    assert not jsonschema_rs.validator_for(new).is_valid({"a": 1})
    c = compare(sset(old, "old"), sset(new, "new"), search_budget=0)
    assert c.change_class is ChangeClass.PATCH  # the specification's verdict stands
    found = [f for f in c.findings if f.kind == "keyword-not-portable"]
    assert [(f.new.pointer, f.severity) for f in found] == [("/dependencies", Severity.WARNING)]
    # an unchanged one is not warned about again; a changed one is
    assert not [f for f in compare(sset(new, "old"), sset({**new, "minProperties": 0}, "new"),
                                   search_budget=0).findings if f.kind == "keyword-not-portable"]
    edited = {**new, "dependencies": {"a": ["b", "c"]}}
    assert [f.kind for f in compare(sset(new, "old"), sset(edited, "new"), search_budget=0).findings
            if f.kind == "keyword-not-portable"] == ["keyword-not-portable"]


def test_a_property_named_dependencies_is_not_the_keyword():
    # `properties` maps names to schemas: a member called "dependencies" is data about the
    # instance, asserted by no validator as the keyword (jsonschema-rs accepts the lost-looking doc)
    new = {"type": "object", "properties": {"dependencies": {"type": "object"}}}
    assert jsonschema_rs.validator_for(new).is_valid({"a": 1})
    c = compare(sset({"type": "object"}, "old"), sset(new, "new"), search_budget=0)
    assert not [f for f in c.findings if f.kind == "keyword-not-portable"], c.findings


def test_dependencies_in_draft_07_is_a_keyword_and_not_warned_about():
    new = {"$schema": D7, "type": "object", "dependencies": {"a": ["b"]}}
    old = {"$schema": D7, "type": "object"}
    c = compare(sset(old, "old"), sset(new, "new"), search_budget=0)
    assert c.change_class is ChangeClass.MAJOR  # {"a": 1} is lost, by every validator
    assert not [f for f in c.findings if f.kind == "keyword-not-portable"]


@pytest.mark.parametrize("kind", ["pattern-not-portable", "keyword-not-portable"])
def test_the_kind_is_documented(kind):
    assert f"`{kind}`" in (REPO / "docs/classifier.md").read_text()


def test_a_pattern_rewritten_into_another_python_reading_is_warned_about():
    """Adversary 35: the version pattern's ``\\d`` written ``[0-9]`` is the same pattern in
    ECMA-262 (PATCH, rightly), but stock python-jsonschema read the old ``\\d`` as any Unicode
    digit and so loses ``1٣`` (ARABIC-INDIC DIGIT THREE), which it accepted before."""
    old = {"type": "string", "pattern": "^[1-9]\\d*$"}
    new = {"type": "string", "pattern": "^[1-9][0-9]*$"}
    assert jsonschema.Draft202012Validator(old).is_valid("1\u0663")
    assert not jsonschema.Draft202012Validator(new).is_valid("1\u0663")
    c, found = warned(old, new)
    assert c.change_class is ChangeClass.PATCH
    assert [(f.new.pointer, f.item) for f in found] == [("/pattern", "^[1-9][0-9]*$")]
    assert "replacing '^[1-9]\\\\d*$'" in found[0].message and "Unicode decimal digit" in found[0].message
    # added with \w: warned; a class escape spelled out, or none at all: not
    assert [f.item for f in warned({"type": "string"}, {"type": "string", "pattern": "^\\w+$"})[1]] == ["^\\w+$"]
    assert warned({"type": "string"}, {"type": "string", "pattern": "^[a-z]+$"})[1] == []
    assert warned({"type": "string"}, {"type": "string", "pattern": "^\\\\d$"})[1] == []  # a backslash, then d
    # ECMA-262 (without the u flag) reads \A and \U as the letters; Python as an anchor, a code point
    for source, text in (("^\\Ab$", "Ab"), ("^\\U00000041$", "U00000041")):
        assert not jsonschema.Draft202012Validator({"pattern": source}).is_valid(text)
        assert [f.item for f in warned({"type": "string"}, {"type": "string", "pattern": source})[1]] == [source]


def test_a_multiple_of_that_is_no_binary_fraction_is_warned_about():
    """Adversary 35: ``multipleOf: 0.00001`` on an integer keeps every document (each integer is
    an exact multiple), PATCH with no finding; stock python-jsonschema computes 1 / 1e-05 =
    99999.99999999999 and rejects 1."""
    old = {"type": "integer", "minimum": 1}
    new = {"type": "integer", "minimum": 1, "multipleOf": 0.00001}
    assert jsonschema.Draft202012Validator(old).is_valid(1) and not jsonschema.Draft202012Validator(new).is_valid(1)
    c = compare(sset(old, "old"), sset(new, "new"), search_budget=0)
    assert c.change_class is ChangeClass.PATCH
    found = [f for f in c.findings if f.kind == "keyword-not-portable"]
    assert [(f.new.pointer, f.severity, f.change_class) for f in found] == [
        ("/multipleOf", Severity.WARNING, ChangeClass.NONE)]
    for divisor in (0.5, 2, 0.25):  # binary fractions: the float division is exact for multiples
        c = compare(sset(old, "old"), sset({**new, "multipleOf": divisor}, "new"), search_budget=0)
        assert [f for f in c.findings if f.kind == "keyword-not-portable"] == [], divisor


def test_a_dot_spelled_out_or_a_pattern_property_renamed_is_warned_about():
    """Adversary 36: Python ``re``'s ``.`` also matches ``\\r``, U+2028 and U+2029, which
    ECMA-262's excludes, so ``.`` spelled ``[^\\n\\r\\u2028\\u2029]`` is PATCH (rightly) and stock
    python-jsonschema loses ``x_a\\u2028b``; and a ``patternProperties`` name rewritten so (or
    ``\\d`` as ``[0-9]``) was never compared with the name it replaced (only a ``pattern`` at
    the same pointer was). The expected losses are python-jsonschema's own verdicts."""
    V = jsonschema.Draft202012Validator
    line = "[^\\n\\r\\u2028\\u2029]"
    cases = [({"type": "string", "pattern": "^.$"}, {"type": "string", "pattern": f"^{line}$"}, "\u2028"),
             ({"type": "object", "patternProperties": {"^x_.+$": {}}, "additionalProperties": False},
              {"type": "object", "patternProperties": {f"^x_{line}+$": {}}, "additionalProperties": False},
              {"x_a\u2028b": 1}),
             ({"type": "object", "patternProperties": {"^x\\d$": {}}, "additionalProperties": False},
              {"type": "object", "patternProperties": {"^x[0-9]$": {}}, "additionalProperties": False},
              {"x\u0663": 1})]
    for old, new, lost in cases:
        assert V(old).is_valid(lost) and not V(new).is_valid(lost)
        c, found = warned(old, new)
        assert c.change_class is ChangeClass.PATCH
        assert len(found) == 1 and "replacing" in found[0].message, (old, new)
    # a dot escaped or in a class is the same character in both: no warning
    assert warned({"type": "string", "pattern": "^a\\.b$"}, {"type": "string", "pattern": "^a[.]b$"})[1] == []


def test_a_removed_pattern_python_reads_otherwise_is_warned_about():
    """Adversary 36: ECMA-262 reads ``[]`` as the empty class, so ``^[]a]$`` matches nothing
    and the ``anyOf`` branch holding it can go (PATCH, rightly); Python ``re`` reads it as the
    class ``[]a]``, so python-jsonschema accepted ``a`` under the old schema and loses it."""
    old = {"type": "string", "anyOf": [{"const": ""}, {"pattern": "^[]a]$"}]}
    new = {"type": "string", "const": ""}
    V = jsonschema.Draft202012Validator
    assert V(old).is_valid("a") and not V(new).is_valid("a")
    c, found = warned(old, new)
    assert c.change_class is ChangeClass.PATCH
    assert [(f.old.pointer, f.new) for f in found] == [("/anyOf/1/pattern", None)]
    assert "empty class" in found[0].message
