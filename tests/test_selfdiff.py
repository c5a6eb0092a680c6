"""``diff`` of two copies of one plain schema file without the engine (:mod:`evalport_spec.selfdiff`).

The rule under test: the engine-free answer is given only where the full path (read, check,
compare) answers PATCH, and then the command prints what the full path prints. Each schema
below is paired with the outcome worked out by hand from the JSON Schema rules and the full
path's documented refusals (``"PATCH"`` or ``"refused"``) and with whether it is plain (the
module docstring's conditions); the full path, run with the engine-free answer switched off,
must agree with the hand-worked outcome, and the command's output must be the same both ways.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from evalport_spec import selfdiff
from evalport_spec.cli import main

D7 = "http://json-schema.org/draft-07/schema#"
D4 = "http://json-schema.org/draft-04/schema#"
D2020 = "https://json-schema.org/draft/2020-12/schema"

CASES = {  # name -> (schema or file text, outcome worked out by hand, plain)
    "no keywords": ({}, "PATCH", True),
    "refs, defs, a pattern": ({"$schema": D2020, "$defs": {"n": {"type": "integer"}, "s": {"$ref": "#/$defs/n"}},
                               "type": "object", "properties": {"a": {"$ref": "#/$defs/s"}, "b": {"pattern": "^x"}},
                               "patternProperties": {"^y": {"$ref": "#"}}}, "PATCH", True),
    "draft-07 definitions and dependencies": ({"$schema": D7, "definitions": {"a": {"type": "string"}},
                                               "dependencies": {"x": {"$ref": "#/definitions/a"}}}, "PATCH", True),
    "root $id and an escaped member": ({"$id": "https://example.com/s.json", "$defs": {"a/b": {"type": "string"}},
                                        "$ref": "#/$defs/a~1b"}, "PATCH", True),
    "a property named $id": ({"properties": {"$id": {"type": "string"}}}, "PATCH", True),
    "recursion below a property": ({"properties": {"next": {"$ref": "#"}}}, "PATCH", True),
    "a $ref into an array, canonical index": ({"anyOf": [{"type": "string"}, {"type": "null"}],
                                               "properties": {"a": {"$ref": "#/anyOf/1"}}}, "PATCH", True),
    # not plain, and still PATCH on the full path: the engine decides, same answer
    "a $ref into an array, leading zero": ({"anyOf": [{"type": "string"}, {"type": "null"}],
                                            "properties": {"a": {"$ref": "#/anyOf/01"}}}, "PATCH", False),
    "an $anchor": ({"$defs": {"a": {"$anchor": "x", "type": "string"}}, "$ref": "#x"}, "PATCH", False),
    "a nested $id": ({"$defs": {"a": {"$id": "https://example.com/a", "type": "string"}},
                      "$ref": "https://example.com/a"}, "PATCH", False),
    "a relative root $id": ({"$id": "s.json", "type": "string"}, "PATCH", False),
    "a percent-encoded $ref": ({"$defs": {"a b": {"type": "string"}}, "$ref": "#/$defs/a%20b"}, "PATCH", False),
    "draft-04": ({"$schema": D4, "type": "string"}, "PATCH", False),
    "a boolean schema": (True, "PATCH", False),
    "an in-place cycle no validation reaches": ({"$defs": {"a": {"not": {"$ref": "#/$defs/a"}}}, "type": "object"},
                                                "PATCH", False),
    # refused on the full path: never plain
    "a dangling $ref into an array": ({"anyOf": [{"type": "string"}], "$ref": "#/anyOf/1"}, "refused", False),
    "a dangling escaped member": ({"$defs": {"a~b": {}}, "$ref": "#/$defs/a~1b"}, "refused", False),
    "a $ref chain that loops": ({"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}},
                                 "properties": {"x": {"$ref": "#/$defs/a"}}}, "refused", False),
    "an in-place cycle through allOf": ({"allOf": [{"$ref": "#/$defs/a"}], "$defs": {"a": {"anyOf": [{"$ref": "#"}]}}},
                                        "refused", False),
    "an in-place cycle through dependentSchemas": ({"dependentSchemas": {"x": {"$ref": "#"}}}, "refused", False),
    "a nested $id that is a number": ({"properties": {"a": {"$id": 5}}}, "refused", False),
    "a nested $schema naming draft-03": ({"properties": {"a": {"$schema": "http://json-schema.org/draft-03/schema#"}}},
                                         "refused", False),
    "a nested $schema naming another dialect": ({"properties": {"a": {"$schema": D7, "type": "string"}}},
                                                "refused", False),
    "draft-04 enum with a value twice": ({"$schema": D4, "enum": [1, 1.0]}, "refused", False),
    "an unknown dialect": ({"$schema": "https://example.com/dialect", "type": "string"}, "refused", False),
    "a type that is no type": ({"properties": {"a": {"type": "nonsense"}}}, "refused", False),
    "a pattern name that is no regex": ({"patternProperties": {"([": {}}}, "refused", False),
    "a remote $ref": ({"$ref": "https://example.com/other.json"}, "refused", False),
    "an object that is not a schema": ("[1, 2]", "refused", False),
}


def _copies(tmp_path: Path, schema) -> tuple[str, str]:
    text = schema if isinstance(schema, str) else json.dumps(schema, indent=1)
    paths = []
    for side in ("old", "new"):
        (tmp_path / side).mkdir()
        (tmp_path / side / "s.json").write_text(text, encoding="utf-8")
        paths.append(str(tmp_path / side / "s.json"))
    return paths[0], paths[1]


def _diff(capsys, old: str, new: str, *extra: str) -> tuple[int, str, str]:
    code = main(["diff", "--no-cache", old, new, *extra])
    out, err = capsys.readouterr()
    return code, out, err


def _without_seconds(out: str) -> dict:
    report = json.loads(out)
    report["summary"] = {k: v for k, v in report.get("summary", {}).items() if k != "seconds"}
    for holder in (report, report.get("data", {})):
        if isinstance(holder.get("stats"), dict):
            holder["stats"].pop("seconds", None)
    return report


@pytest.mark.parametrize("name", sorted(CASES))
def test_plain_only_where_the_full_path_says_patch(tmp_path, capsys, monkeypatch, name):
    schema, outcome, plain = CASES[name]
    old, new = _copies(tmp_path, schema)
    assert selfdiff.plain_copies(old, new) is plain
    fast = _diff(capsys, old, new)
    monkeypatch.setattr(selfdiff, "plain_copies", lambda a, b: False)  # the full path alone
    full = _diff(capsys, old, new)
    assert full[0] == (0 if outcome == "PATCH" else 2), full
    assert ("class: PATCH" in full[1]) == (outcome == "PATCH")
    assert fast == full


@pytest.mark.parametrize("fmt", ["json", "text", "markdown", "sarif"])
def test_the_engine_free_report_is_the_full_paths(tmp_path, capsys, monkeypatch, fmt):
    old, new = _copies(tmp_path, CASES["refs, defs, a pattern"][0])
    fast = _diff(capsys, old, new, "--format", fmt)
    monkeypatch.setattr(selfdiff, "plain_copies", lambda a, b: False)
    full = _diff(capsys, old, new, "--format", fmt)
    if fmt == "json":
        assert (fast[0], _without_seconds(fast[1]), fast[2]) == (full[0], _without_seconds(full[1]), full[2])
    else:
        assert fast == full


@pytest.mark.parametrize(("last", "plain"), [({"type": "string"}, True), ({"$ref": "#/$defs/d100"}, False)])
def test_a_long_ref_chain_is_walked_once(tmp_path, monkeypatch, last, plain):
    """Deciding that a file whose ``$ref``\\ s form a chain of n links is plain visits each place
    a bounded number of times, not n^2/2 (fresh user, session 34: 5,000 links took 21 s);
    a chain that ends in a loop is still not plain. Counted, not timed."""
    n = 300
    defs = {f"d{i}": {"$ref": f"#/$defs/d{i + 1}"} for i in range(n)}
    defs[f"d{n}"] = last
    old, new = _copies(tmp_path, {"$ref": "#/$defs/d0", "$defs": defs})
    visits = []
    real = selfdiff._at
    monkeypatch.setattr(selfdiff, "_at", lambda root, ptr: visits.append(ptr) or real(root, ptr))
    assert selfdiff.plain_copies(old, new) is plain
    assert len(visits) <= 6 * (n + 1), len(visits)


def test_copies_that_differ_are_not_plain(tmp_path):
    old, new = _copies(tmp_path, {"type": "string"})
    Path(new).write_text(json.dumps({"type": "string"}, indent=2), encoding="utf-8")
    assert not selfdiff.plain_copies(old, new)


def test_every_plain_dialect_is_one_referencing_and_the_classifier_know():
    import referencing.jsonschema

    from evalport_spec.compat.nodes import D6, D2019, dialect_of

    for uri, later in selfdiff.PLAIN_DIALECTS.items():
        referencing.jsonschema.specification_with(uri)  # raises UnknownDialect otherwise
        assert dialect_of(uri) >= D6
        assert later == (dialect_of(uri) >= D2019)


def test_a_self_diff_of_a_plain_file_loads_no_engine(tmp_path):
    old, new = _copies(tmp_path, CASES["refs, defs, a pattern"][0])
    code = ("import json, sys\nfrom evalport_spec.cli import main\n"
            f"rc = main(['diff', '--no-cache', {old!r}, {new!r}])\n"
            "print(json.dumps([rc, sorted(sys.modules)]))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    rc, mods = json.loads(out.stdout.splitlines()[-1])
    assert rc == 0 and "class: PATCH" in out.stdout
    heavy = ("evalport_spec.compat", "referencing", "jsonschema_specifications", "jsonschema.", "attrs")
    assert sorted(m for m in mods if m.startswith(heavy) or m == "jsonschema") == []
    # nor what only other paths use: child processes (fsutil.run_bounded), HTML escaping
    assert sorted({"subprocess", "html", "html.entities"} & set(mods)) == []


def test_a_huge_or_different_file_is_never_read_whole(tmp_path, monkeypatch):
    """Deciding whether two arguments are copies reads no byte of files of different sizes, and
    a copy too large for the loader is refused by it before anything is read (a sparse 600 MB
    pair was read whole, twice: 1.2 GB)."""
    from evalport_spec import diffinputs

    read = []
    real = diffinputs.regular_bytes
    monkeypatch.setattr(diffinputs, "regular_bytes", lambda p: read.append(p) or real(p))
    old, new = _copies(tmp_path, {"type": "string"})
    Path(new).write_text(json.dumps({"type": "integer"}), encoding="utf-8")  # another size
    assert not selfdiff.plain_copies(old, new)
    assert not diffinputs.same_local_file(old, new)
    assert read == []
    for p in (old, new):
        with open(p, "wb") as fh:
            fh.truncate(600 << 20)  # sparse: no disk used
    assert not selfdiff.plain_copies(old, new)
    assert read == []
