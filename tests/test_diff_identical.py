"""``diff OLD NEW`` on two copies of one schema file (issue 16): the new side is not read and
checked a second time (:func:`evalport_spec.compat.inputs.resolve_pair`), and a broken schema
is refused exactly as when it is compared with another file: exit 2 and the same one-line
message naming the old file, never PATCH.

The phrases each refusal must carry are written by hand from the kind of problem; the whole
message is compared with the one the same file gets against a different, valid schema (where
both sides are read and checked).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from evalport_spec.cli import main
from evalport_spec.compat import inputs

GOOD = {"type": "object", "properties": {"a": {"type": "string"}}}

BROKEN = {  # file text -> a phrase the refusal must carry
    "malformed JSON": ('{"type": "object",}', "malformed json"),
    "duplicate member": ('{"type": "object", "type": "string"}', "duplicate object key"),
    "NaN": ('{"maximum": NaN}', "nan/infinity is not json"),
    "dangling $ref": ('{"$ref": "#/$defs/missing", "$defs": {}}', "unresolvable $ref"),
    "remote $ref": ('{"$ref": "https://example.com/s.json"}', "remote $ref"),
    "invalid against the meta-schema": ('{"type": "nonsense"}', "not a valid schema"),
    "pattern that is no ECMA-262 regex": ('{"type": "string", "pattern": "(["}', "not a valid schema"),
    "$ref chain that loops": ('{"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}}, '
                              '"$ref": "#/$defs/a"}', "comes back to itself"),
    "in-place cycle": ('{"not": {"$ref": "#"}}', "cycle"),
    "draft-03": ('{"$schema": "http://json-schema.org/draft-03/schema#", "type": "object"}', "draft-03"),
    # fresh user, session 34: referencing called .rstrip on these (a traceback, exit 1; nested:
    # a raw AttributeError message without a location)
    "root $schema a number": ('{"$schema": 5, "type": "object"}', "'$schema' must be a string, the uri of a "
                              "dialect, not integer (at '/$schema')"),
    "root $schema null": ('{"$schema": null}', "not null (at '/$schema')"),
    "root $schema true": ('{"$schema": true}', "not boolean (at '/$schema')"),
    "root $schema an object": ('{"$schema": {}}', "not object (at '/$schema')"),
    "nested $schema a number": ('{"$defs": {"a": {"$schema": 7}}}', "7 is not of type 'string' "
                                "(at '/$defs/a/$schema')"),
    "$schema a number in allOf": ('{"allOf": [{"$schema": null}]}', "(at '/allof/0/$schema')"),
    # session 35: urljoin raised ValueError (an unclosed IPv6 host, RFC 3986 3.2.2): tracebacks
    "nested $id no URI": ('{"$defs": {"a": {"$id": "http://[::1/x"}}}', "'$id' is not a uri reference "
                          "(invalid ipv6 url): 'http://[::1/x' (at '/$defs/a/$id')"),
    "$ref no URI": ('{"$defs": {"a": {"$ref": "http://[::1/x"}}}', "(at '/$defs/a/$ref')"),
    "root $id no URI": ('{"$id": "http://[::1", "type": "string"}', "(at '/$id')"),
}


def _write(folder: Path, text: str, name: str = "s.json") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    p = folder / name
    p.write_text(text, encoding="utf-8")
    return p


def _diff(capsys, old: Path, new: Path) -> tuple[int, str, str]:
    code = main(["diff", "--no-cache", str(old), str(new)])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_a_broken_schema_against_its_copy_is_refused_as_against_another(tmp_path, capsys, case):
    text, phrase = BROKEN[case]
    old = _write(tmp_path / "old", text)
    copy = _write(tmp_path / "new", text)
    other = _write(tmp_path / "other", json.dumps(GOOD))
    code, out, err = _diff(capsys, old, copy)
    assert code == 2, (case, out, err)
    assert "PATCH" not in out
    assert str(old) in err and phrase in err.lower(), err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert (code, out, err) == _diff(capsys, old, other)


def test_a_valid_schema_against_its_copy_is_patch(tmp_path, capsys):
    old = _write(tmp_path / "old", json.dumps(GOOD))
    new = _write(tmp_path / "new", json.dumps(GOOD))
    code, out, _ = _diff(capsys, old, new)
    assert code == 0 and "class: PATCH" in out


@pytest.mark.parametrize("text", [
    '{"type": "object", "properties": {"$schema": {"type": "string"}}, "required": ["$schema"]}',
    '{"dependentRequired": {"$schema": ["a"]}, "patternProperties": {"^[$]schema$": {}}}',
    '{"x-note": {"$schema": 5}}',  # an unknown keyword's value is no schema: nothing to check
])
def test_a_member_named_schema_is_no_dialect(tmp_path, capsys, text):
    """Only a ``$schema`` at a schema position names a dialect: a property called ``$schema``
    (spec/releases 1.0.0 to 1.2.0, resultset.json, have one) is accepted (a reverted fix of
    session 34 refused it)."""
    old = _write(tmp_path / "old", text)
    new = _write(tmp_path / "new", text + "\n")
    code, out, err = _diff(capsys, old, new)
    assert code == 0 and "class: PATCH" in out, err


def test_the_copy_is_not_read_again(tmp_path, monkeypatch):
    old = _write(tmp_path / "old", json.dumps(GOOD))
    new = _write(tmp_path / "new", json.dumps(GOOD))
    loaded = []
    real = inputs.load
    monkeypatch.setattr(inputs, "load", lambda p: loaded.append(Path(p)) or real(p))
    a, b = inputs.resolve_pair(str(old), str(new))
    assert a is b
    assert loaded == [old]


@pytest.mark.parametrize("change", ["bytes", "sibling added", "sibling differs", "name"])
def test_copies_that_differ_anywhere_are_both_read(tmp_path, monkeypatch, change):
    old = _write(tmp_path / "old", json.dumps(GOOD))
    _write(tmp_path / "old", json.dumps({"$id": "urn:x", "type": "string"}), "x.json")
    text = json.dumps(GOOD, indent=2) if change == "bytes" else json.dumps(GOOD)
    new = _write(tmp_path / "new", text, "t.json" if change == "name" else "s.json")
    if change != "sibling added":
        sibling = {"$id": "urn:x", "type": "integer" if change == "sibling differs" else "string"}
        _write(tmp_path / "new", json.dumps(sibling), "x.json")
    else:
        shutil.copy(tmp_path / "old" / "x.json", tmp_path / "new" / "x.json")
        _write(tmp_path / "new", "{}", "y.json")
    loaded = []
    real = inputs.load
    monkeypatch.setattr(inputs, "load", lambda p: loaded.append(Path(p).name) or real(p))
    a, b = inputs.resolve_pair(str(old), str(new))
    assert a is not b
    assert loaded == ["s.json", new.name]


def test_a_sibling_the_file_refers_to_still_decides(tmp_path, capsys):
    # the two files are byte-identical but refer to a sibling that differs: not PATCH
    text = json.dumps({"$id": "urn:s", "$ref": "urn:x"})
    old = _write(tmp_path / "old", text)
    new = _write(tmp_path / "new", text)
    _write(tmp_path / "old", json.dumps({"$id": "urn:x", "type": "string"}), "x.json")
    _write(tmp_path / "new", json.dumps({"$id": "urn:x", "type": "integer"}), "x.json")
    code, out, _ = _diff(capsys, old, new)
    assert code == 1 and "class: MAJOR" in out
