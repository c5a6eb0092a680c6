"""``evalport-spec diff`` end to end: inputs, exit codes, formats, ignore files."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from evalport_spec.cli import main
from gate_repo import git

OLD = {"type": "object", "properties": {"t": {"enum": ["a", "b"]}}}
NEW = {"type": "object", "properties": {"t": {"enum": ["a"]}}}


@pytest.fixture
def files(tmp_path):
    (tmp_path / "old.json").write_text(json.dumps(OLD))
    (tmp_path / "new.json").write_text(json.dumps(NEW))
    return tmp_path


def test_exit_codes_and_fail_on(files, capsys):
    o, n = str(files / "old.json"), str(files / "new.json")
    assert main(["diff", o, n]) == 1
    assert "MAJOR enum-value-removed" in capsys.readouterr().out
    assert main(["diff", n, o]) == 0           # MINOR < MAJOR
    assert main(["diff", n, o, "--fail-on", "MINOR"]) == 1
    assert main(["diff", o, n, "--fail-on", "never"]) == 0
    assert main(["diff", n, o, "--direction", "forward"]) == 1   # forward class is MAJOR
    assert main(["diff", o, o, "--fail-on", "MINOR"]) == 0


def test_json_report_is_valid(files, capsys):
    from importlib.resources import files as res
    main(["diff", str(files / "old.json"), str(files / "new.json"), "--format", "json"])
    data = json.loads(capsys.readouterr().out)
    schema = json.loads(res("evalport_spec").joinpath("data/diff-report.schema.json").read_text())
    jsonschema.Draft202012Validator(schema).validate(data)
    assert data["change_class"] == "MAJOR"
    assert data["findings"][0]["witness"] == {"t": "b"}


def test_ignore_file_silences_and_reports_stale_and_expired(files, capsys):
    ign = files / "ignore.yaml"
    ign.write_text("- kind: enum-value-removed\n  pointer: /properties/t/enum\n  reason: accepted in RFC 9\n"
                   "- kind: required-added\n  reason: stale one\n"
                   "- kind: type-narrowed\n  reason: old\n  expires: 2001-01-01\n")
    rc = main(["diff", str(files / "old.json"), str(files / "new.json"), "--ignore", str(ign), "--format", "json"])
    data = json.loads(capsys.readouterr().out)
    assert rc == 0 and data["change_class"] == "PATCH"  # the only finding is silenced
    assert [e["kind"] for e in data["ignored"]["used"]] == ["enum-value-removed"]
    assert [e["kind"] for e in data["ignored"]["stale"]] == ["required-added"]
    assert [e["kind"] for e in data["ignored"]["expired"]] == ["type-narrowed"]


@pytest.mark.parametrize("content", ["", "\n", "# none yet\n", "null\n", "~\n", "ignore:\n"])
def test_a_blank_ignore_file_warns_as_check_does(files, tmp_path, capsys, monkeypatch, content):
    """Session 34: ``diff --ignore`` with an empty (or ``null``, ``~``) file was silent where
    ``check --ignore`` warns; the warning is also given when the report is replayed from the
    disk cache. The findings are not touched: exit 1 on the removed enum value."""
    monkeypatch.setenv("EVALPORT_CACHE_DIR", str(tmp_path / "cache"))
    blank = files / "blank.yml"
    blank.write_text(content)
    for _ in ("computed", "replayed"):
        assert main(["diff", str(files / "old.json"), str(files / "new.json"), "--ignore", str(blank)]) == 1
        out, err = capsys.readouterr()
        assert "MAJOR enum-value-removed" in out
        assert err.splitlines() == [f"evalport-spec diff: warning: {blank} is empty (no entry: nothing but comments, "
                                    "blank lines or a null): it accepts nothing; if that is meant, write [] in it, "
                                    "else check the file's path and content"]
    blank.write_text("[]\n")  # says "no entries" on purpose
    assert main(["diff", str(files / "old.json"), str(files / "new.json"), "--ignore", str(blank)]) == 1
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize(("content", "where", "problem"), [
    (b"\x00\x01", ":1:1", "unacceptable character #x0000: special characters are not allowed"),
    (b"- kind: x\n  reason: \"a\x07b\"\n", ":2:13", "unacceptable character #x0007: special characters are not allowed"),
])
def test_an_ignore_file_with_a_control_character_is_one_line(files, capsys, content, where, problem):
    """Session 34: a NUL byte gave PyYAML's two lines (the second ``in "<unicode string>",
    position 0``): now one line with the line and column of the character (counted by hand)."""
    bad = files / "ctl.yml"
    bad.write_bytes(content)
    assert main(["diff", str(files / "old.json"), str(files / "new.json"), "--ignore", str(bad)]) == 2
    assert capsys.readouterr().err == f"evalport-spec: error: {bad}{where}: not YAML/JSON: {problem}\n"


@pytest.mark.parametrize(("expires", "message"), [
    ("2026-02-30", "entry 0: 'expires' is not an ISO date: '2026-02-30' (at '/0/expires')"),
    ("2026-12-04 10:00:00", "entry 0: 'expires' is not an ISO date: '2026-12-04 10:00:00' (at '/0/expires')"),
    ("!!timestamp 2026-02-30", "not YAML/JSON: a tagged value cannot be read: day is out of range for month"),
])
def test_an_ignore_entry_expiring_on_a_day_the_calendar_lacks_is_one_line(files, tmp_path, capsys, monkeypatch,
                                                                        expires, message):
    """Session 36: ``expires: 2026-02-30`` (February has no 30th) was a traceback ending in
    PyYAML's ``ValueError: day is out of range for month``, exit 1, from ``diff --ignore`` and
    ``check --ignore`` alike: the safe loader builds a date of every unquoted ``YYYY-MM-DD``."""
    monkeypatch.setenv("EVALPORT_CACHE_DIR", str(tmp_path / "cache"))
    ign = files / "ig.yml"
    ign.write_text(f"- kind: enum-value-removed\n  reason: accepted\n  expires: {expires}\n")
    assert main(["diff", str(files / "old.json"), str(files / "new.json"), "--ignore", str(ign)]) == 2
    assert capsys.readouterr().err == f"evalport-spec: error: {ign}: {message}\n"


@pytest.mark.parametrize(("content", "where"), [
    ("[" * 100_000, ":1:257"),                                              # flow: the 257th '['
    ("x:\n" + "".join("  " * i + "- \n" for i in range(300)), ":257:511"),  # block: line 257, indent 510
])
def test_an_ignore_file_nested_past_the_json_bound_is_one_line(files, capsys, content, where):
    """Session 36: an ignore file of 100,000 '[' (or 300 nested block lists) reached Python's
    recursion limit: ``input nested too deeply to process``, naming no file. Now refused at the
    first collection past 256 levels (the JSON bound), positions counted by hand (the root
    mapping of the block case is level 1)."""
    deep = files / "deep.yml"
    deep.write_text(content)
    assert main(["diff", str(files / "old.json"), str(files / "new.json"), "--ignore", str(deep)]) == 2
    assert capsys.readouterr().err == f"evalport-spec: error: {deep}{where}: not YAML/JSON: nesting deeper than 256 levels\n"


def test_bad_inputs_exit_2_with_one_line(files, capsys):
    assert main(["diff", str(files / "old.json"), "no/such/thing.json"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("evalport-spec: error:")
    assert main(["diff", str(files / "old.json"), "--", "--upload-pack=x:spec"]) == 2
    (files / "bad.json").write_text("{")
    assert main(["diff", str(files / "old.json"), str(files / "bad.json")]) == 2
    (files / "i.yaml").write_text("- kind: x\n")
    assert main(["diff", str(files / "old.json"), str(files / "new.json"), "--ignore", str(files / "i.yaml")]) == 2
    capsys.readouterr()
    # an object that is no {"ignore": [...]} (a schema given by mistake) ignores nothing silently: refused
    assert main(["diff", str(files / "old.json"), str(files / "new.json"), "--ignore", str(files / "old.json")]) == 2
    assert capsys.readouterr().err == (f"evalport-spec: error: {files / 'old.json'}: an ignore file is a list of "
                                       "{kind, pointer, fingerprint, reason, expires} entries, or an object whose "
                                       "'ignore' member is that list\n")


def test_git_ref_input(files, capsys):
    git(files, "init", "-q")
    git(files, "add", "old.json")
    git(files, "commit", "-qm", "x")
    import os
    cwd = os.getcwd()
    os.chdir(files)
    try:
        assert main(["diff", "HEAD:old.json", str(files / "new.json")]) == 1
        assert main(["diff", "--", "-HEAD:old.json", str(files / "new.json")]) == 2
        assert main(["diff", "HEAD..x:old.json", str(files / "new.json")]) == 2
    finally:
        os.chdir(cwd)


def test_real_repo_release_pair(capsys):
    root = Path(__file__).resolve().parents[1]
    assert main(["-C", str(root), "diff", "1.1.0", "1.2.0", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["change_class"] == "MINOR"
    added = {f["new"]["pointer"] for f in data["findings"] if f["kind"] == "property-added-to-closed-object"}
    assert added == {"/properties/isolation", "/$defs/result/properties/attempt",
                     "/$defs/result/properties/isolation"}


def _pair(folder, max_length):
    folder.mkdir()
    a = {"$id": "https://x.invalid/a.json", "type": "object",
         "properties": {"b": {"$ref": "https://x.invalid/b.json"}}}
    b = {"$id": "https://x.invalid/b.json", "type": "string", "maxLength": max_length}
    (folder / "a.json").write_text(json.dumps(a))
    (folder / "b.json").write_text(json.dumps(b))
    (folder / "notes.json").write_text("[1, 2")  # an unloadable sibling nobody references
    return folder


def test_single_file_resolves_refs_to_its_siblings(tmp_path, capsys):
    old, new = _pair(tmp_path / "old", 9), _pair(tmp_path / "new", 3)
    assert main(["diff", str(old / "a.json"), str(old / "a.json")]) == 0
    out = capsys.readouterr().out
    assert "class: PATCH" in out and "no findings" in out and "undecided" not in out
    # the sibling's tightened maxLength shows through a.json, as in the folder diff, for a.json only
    assert main(["diff", str(old / "a.json"), str(new / "a.json"), "--format", "json"]) == 1
    single = json.loads(capsys.readouterr().out)
    assert [f["kind"] for f in single["findings"]] == ["max-length-decreased"]
    assert single["findings"][0]["extra"]["file"] == "a.json"
    assert single["stats"]["files"] == 1
    (old / "notes.json").unlink(), (new / "notes.json").unlink()  # not a schema: a folder refuses it
    assert main(["diff", str(old), str(new), "--format", "json"]) == 1
    folder = json.loads(capsys.readouterr().out)
    for_a = [f for f in folder["findings"] if f["extra"].get("file") == "a.json"]
    assert [f["fingerprint"] for f in for_a] == [f["fingerprint"] for f in single["findings"]]


def test_single_file_with_a_dangling_ref_is_refused(tmp_path, capsys):
    folder = _pair(tmp_path / "old", 9)
    (folder / "b.json").unlink()
    assert main(["diff", str(folder / "a.json"), str(folder / "a.json")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(f"evalport-spec: error: {folder / 'a.json'}:1: ")
    assert "no schema with $id 'https://x.invalid/b.json'" in err[0]


def test_a_sibling_repeating_the_files_own_id_is_not_context(tmp_path, capsys):
    folder = _pair(tmp_path / "old", 9)
    (folder / "a-copy.json").write_text((folder / "a.json").read_text())  # same $id as a.json
    assert main(["diff", str(folder / "a.json"), str(folder / "a.json")]) == 0
    assert "class: PATCH" in capsys.readouterr().out


def test_explain_prints_the_derivation_of_a_minor(tmp_path, capsys):
    old = {"type": "object", "properties": {"a": {"type": "string", "maxLength": 5}}, "required": ["a"]}
    new = {"type": "object", "properties": {"a": {"type": "string", "maxLength": 8}}}
    (tmp_path / "o.json").write_text(json.dumps(old))
    (tmp_path / "n.json").write_text(json.dumps(new))
    assert main(["diff", str(tmp_path / "o.json"), str(tmp_path / "n.json"), "--explain"]) == 0
    out = capsys.readouterr().out
    assert "proof of old ⊆ new for n.json:" in out
    assert "language-included: maxLength 8" in out  # strings of <= 5 code points fit <= 8
    main(["diff", str(tmp_path / "o.json"), str(tmp_path / "n.json"), "--format", "json"])
    proof = json.loads(capsys.readouterr().out)["proof"]
    assert {p["rule"] for p in proof if p["direction"] == "backward"} >= {"type-included", "language-included"}
    assert all(p["direction"] == "backward" for p in proof)  # forward is MAJOR: no proof of it


def _diff(tmp_path, capsys, old, new, fmt="json"):
    (tmp_path / "o.json").write_text(json.dumps(old))
    (tmp_path / "n.json").write_text(json.dumps(new))
    code = main(["diff", str(tmp_path / "o.json"), str(tmp_path / "n.json"), "--format", fmt, "--no-cache"])
    out = capsys.readouterr().out
    return code, (json.loads(out) if fmt == "json" else out)


def test_a_string_const_to_its_anchored_pattern_is_patch_both_ways(tmp_path, capsys):
    """const "k8" -> pattern "^k8$" among strings: ECMA-262's "$" matches only at the end, so
    the pattern's language is exactly {"k8"} and neither side accepts a string the other
    rejects: PATCH both ways, the forward direction proved at /pattern (no unaccounted edit).
    (Python's "$" would also let "k8\\n" through: the ECMA-262 reading decides, as for every
    pattern, docs/classifier.md.)"""
    old, new = {"type": "string", "const": "k8"}, {"type": "string", "pattern": "^k8$"}
    code, rep = _diff(tmp_path, capsys, old, new)
    assert code == 0 and (rep["change_class"], rep["forward_class"]) == ("PATCH", "PATCH"), rep["findings"]
    assert not rep["stats"].get("unaccounted_edits")
    assert {(p["direction"], p["rule"], p["new"]) for p in rep["proof"]} >= {
        ("forward", "values-cover-language", "n.json#/pattern")}
    # a second value the pattern does not reach: "k9" is lost, and nothing is gained
    code, rep = _diff(tmp_path, capsys, {"type": "string", "enum": ["k8", "k9"]}, new)
    assert rep["change_class"] == "MAJOR"
    assert [(f["direction"], f.get("witness")) for f in rep["findings"]] == [("backward", "k9")]
    # a pattern reaching past the values is no proof: "k80" is gained
    code, rep = _diff(tmp_path, capsys, old, {"type": "string", "pattern": "^k8"})
    assert rep["forward_class"] == "MAJOR"
    gained = [f["witness"] for f in rep["findings"] if f["direction"] == "forward" and "witness" in f]
    assert gained and all(jsonschema.Draft202012Validator({"pattern": "^k8"}).is_valid(w)
                          and not jsonschema.Draft202012Validator(old).is_valid(w) for w in gained)


def test_a_const_to_a_pattern_on_every_type_shows_each_gained_document(tmp_path, capsys):
    """const "k8" -> pattern "^k8$" with no type: old accepts only "k8", new every non-string
    as well. Backward MINOR; forward MAJOR, each forward finding with a document new accepts and
    old rejects (by python-jsonschema), none unverified; the text output says so per finding."""
    old, new = {"const": "k8"}, {"pattern": "^k8$"}
    code, rep = _diff(tmp_path, capsys, old, new)
    assert (rep["change_class"], rep["forward_class"]) == ("MINOR", "MAJOR")
    assert not rep["stats"].get("unaccounted_edits")
    vo, vn = jsonschema.Draft202012Validator(old), jsonschema.Draft202012Validator(new)
    forward = [f for f in rep["findings"] if f["direction"] == "forward"]
    assert forward and all(f["extra"].get("proof") != "unverified" for f in forward)
    for f in forward:
        w = None if f["extra"].get("witness_is_null") else f["witness"]
        assert vn.is_valid(w) and not vo.is_valid(w), f


def test_text_output_says_a_witness_holds_in_the_ecma_reading_only(tmp_path, capsys):
    old, new = {"type": "string", "maxLength": 1}, {"type": "string", "pattern": "^.?$"}
    code, out = _diff(tmp_path, capsys, old, new, fmt="text")
    assert code == 1
    assert "witness holds in the ECMA-262 reading of 'pattern' only" in out
    code, rep = _diff(tmp_path, capsys, old, new)
    assert {f["extra"].get("witness_reading") for f in rep["findings"] if f["change_class"] == "MAJOR"} == {"ecma-262"}
