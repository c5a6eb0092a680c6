"""Streaming validation gives what parsing whole gives: the same values or the same refusal
(message, line, column, pointer) from the reader, and the same findings (code, instance path,
message, line, column), versions and warnings from ``validate``, on every conformance fixture and
example and on generated ResultSets with seeded errors of every rule and schema kind.

The reader's sizes are made tiny here, so that every boundary (chunk, batch, window, stretch of
positions) falls inside items, strings, numbers and multi-byte characters.
"""

from __future__ import annotations

import copy
import importlib.util
import json
import random
from pathlib import Path
from typing import Any

import pytest

from evalport_spec import conformance, jsonstream
from evalport_spec.errors import InputError
from evalport_spec.jsonload import loads
from evalport_spec.jsonpos import positions
from evalport_spec.jsonstream import NotAnObject, ObjectStream
from evalport_spec.spec import SpecRepo
from evalport_spec.validation.files import validate_files
from evalport_spec.validation.report import FileError

ROOT = Path(__file__).resolve().parents[1]
REPO = SpecRepo(ROOT)
FIXTURES = conformance.load_fixtures(ROOT / "spec" / "conformance" / "fixtures")
EXAMPLES = sorted((ROOT / "spec" / "examples").glob("*.json"))

_spec = importlib.util.spec_from_file_location(
    "make_large_resultset", ROOT / "benchmarks" / "make_large_resultset.py")
make_large = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(make_large)


@pytest.fixture(autouse=True)
def tiny(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(jsonstream, "BATCH", 700)
    monkeypatch.setattr(jsonstream, "CHUNK", 97)
    monkeypatch.setattr(jsonstream, "STRETCH", 300)
    monkeypatch.setattr(jsonstream, "_FIRST_WINDOW", 50)


# --- the reader --------------------------------------------------------------------------------

def whole(data: bytes) -> tuple:
    try:
        return ("value", loads(data, "f").value)
    except InputError as e:
        return ("refused", e.message, e.line, e.column, e.pointer)


def streamed(path: Path, **sizes: int) -> tuple:
    try:
        with ObjectStream(path, "f", "results", **sizes) as s:
            items: list[Any] = []
            for event in s:
                if event[0] == "items":
                    assert event[1] == len(items)
                    items.extend(event[2])
            doc = dict(s.members)
            if s.streamed:
                doc["results"] = items
            return ("value", doc)
    except InputError as e:
        return ("refused", e.message, e.line, e.column, e.pointer)


def same(tmp_path: Path, data: bytes, **sizes: int) -> tuple:
    path = tmp_path / "doc.json"
    path.write_bytes(data)
    expected, got = whole(data), streamed(path, **sizes)
    if expected[0] == got[0] == "value":  # member order aside (results is read apart)
        assert json.dumps(got[1], sort_keys=True) == json.dumps(expected[1], sort_keys=True)
    else:
        assert got == expected
    return got


BASE = {"version": "1.3.0", "é/x": {"a~b": [1, {"z": "ü"}]},
        "results": [{"test_case_id": f"t{i}", "attempt": i, "s": "ü€" * (i % 3),
                     "g": [{"a": 1.5}, {"b": None}]} for i in range(40)],
        "tail": "end"}
TEXT = json.dumps(BASE).encode()


@pytest.mark.parametrize("indent", [None, 1, "\t"])
def test_valid_documents_read_alike_at_every_size(tmp_path: Path, indent: Any) -> None:
    text = json.dumps(BASE, indent=indent, ensure_ascii=indent is None).encode()
    for batch, chunk in ((64, 7), (300, 50), (1 << 20, 1 << 20)):
        assert same(tmp_path, text, batch=batch, chunk=chunk)[0] == "value"


def test_items_are_mostly_read_in_batches(tmp_path: Path) -> None:
    path = tmp_path / "doc.json"
    path.write_bytes(json.dumps({"results": BASE["results"] * 10}).encode())
    with ObjectStream(path, "f", "results", batch=2000) as s:
        sizes = [len(e[2]) for e in s if e[0] == "items"]
    assert sum(sizes) == 400 and max(sizes) > 10  # batches of many items (the fast path)


CASES = {
    "duplicate member in a Result": TEXT.replace(b'"attempt": 30', b'"attempt": 30, "attempt": 3'),
    "duplicate member nested in a Result": TEXT.replace(
        b'{"a": 1.5}, {"b": null}]}, {"test_case_id": "t21"',
        b'{"a": 1.5, "a": 2}, {"b": null}]}, {"test_case_id": "t21"'),
    "duplicate top-level member": TEXT.replace(b'"tail": "end"', b'"tail": "end", "version": "x"'),
    "duplicate results": TEXT.replace(b'"tail": "end"', b'"tail": "end", "results": []'),
    "duplicate top-level member, then a Result error first": TEXT.replace(
        b'"tail": "end"', b'"tail": "end", "version": "x"').replace(b'"t30", ', b'"t30",, '),
    "NaN": TEXT.replace(b'"attempt": 12', b'"attempt": NaN'),
    "-Infinity": TEXT.replace(b'"attempt": 12', b'"attempt": -Infinity'),
    "out of range": TEXT.replace(b'"attempt": 12', b'"attempt": 1e400'),
    "underflow to 0": TEXT.replace(b'"attempt": 12', b'"attempt": -2.5e-400'),
    "zero with a large exponent (allowed)": TEXT.replace(b'"attempt": 12', b'"attempt": 0.0e-400'),
    "500-digit integer": TEXT.replace(b'"attempt": 12', b'"attempt": ' + b"9" * 500),
    "u0022 escape": TEXT.replace(b'"t12"', b'"t\\u0022"'),
    "escaped quote": TEXT.replace(b'"t12"', b'"t\\"12"'),
    "byte-order mark": b"\xef\xbb\xbf" + TEXT,
    "UTF-16LE without a BOM": TEXT.decode("utf-8").encode("utf-16-le"),
    "UTF-32 with a BOM": TEXT.decode("utf-8").encode("utf-32"),
    "invalid UTF-8 late beats a syntax error early": TEXT.replace(b'"t3"', b'"t3",').replace(
        b'"t33"', b'"t\xff33"'),
    "truncated UTF-8 sequence": TEXT.replace(b'"t12"', b'"t\xe2\x82"'),
    "control character": TEXT.replace(b'"t12"', b'"t\x0112"'),
    "depth 300 inside a Result": TEXT.replace(b'"attempt": 12', b'"attempt": ' + b"[" * 300 + b"]" * 300),
    "depth 300, then a syntax error": TEXT.replace(
        b'"attempt": 12', b'"attempt": ' + b"[" * 300 + b"]" * 300).replace(b'"t30"', b'"t30" 1'),
    "depth 254 inside a Result (allowed)": TEXT.replace(
        b'"attempt": 12', b'"attempt": ' + b"[" * 253 + b"]" * 253),
    "depth 255 inside a Result": TEXT.replace(b'"attempt": 12', b'"attempt": ' + b"[" * 254 + b"]" * 254),
    "depth 3000": TEXT.replace(b'"attempt": 12', b'"attempt": ' + b"[" * 3000 + b"]" * 3000),
    "depth 300 in a top-level member": TEXT.replace(b'"tail": "end"', b'"tail": ' + b"[" * 300 + b"]" * 300),
    "extra data": TEXT + b" x",
    "trailing whitespace": TEXT + b" \r\n\t",
    "truncated": TEXT[:-40],
    "trailing comma in results": TEXT.replace(b'}]}], "tail"', b'}]},], "tail"'),
    "missing comma between Results": TEXT.replace(b'}]}, {"test_case_id": "t9"', b'}]} {"test_case_id": "t9"'),
    "empty results": b'{"results": [ ], "a": 1}',
    "results not an array": b'{"results": {"a": [1]}, "a": 1}',
    "Results of every JSON type": json.dumps({"results": [1, "x", None, [2], {"a": 1}, True] * 20}).encode(),
    "a Result longer than a window": json.dumps({"results": [{"s": "x" * 3000}, {"s": "y"}] * 3}).encode(),
    "escaped member names": json.dumps({"résumé": 1, "results": [{"clé/~": "é" * 40, "n": i} for i in range(30)]}).encode(),
    "whitespace only": b" \n ",
    "empty object": b"{}",
    "unterminated object": b'{"results": [1, 2]',
    "unterminated member name": b'{"resu',
    "lone surrogate in a Result": TEXT.replace(b'"t12"', b'"t\\ud83d12"'),
    "lone low surrogate in a member name of a Result": TEXT.replace(b'"attempt": 20', b'"\\udc00n": 20'),
    "lone surrogate in a top-level member": TEXT.replace(b'"tail": "end"', b'"tail": ["\\ud800"]'),
    "lone surrogate in a top-level member name": TEXT.replace(b'"tail": "end"', b'"\\uDFFF": "end"'),
    "two lone surrogates: the first is reported": TEXT.replace(b'"t12"', b'"\\ud83d"').replace(
        b'"t5"', b'"\\udbff"'),
    "lone surrogate, then a syntax error": TEXT.replace(b'"t3"', b'"\\ud83d"').replace(b'"t30"', b'"t30" 1'),
    "surrogate pair (allowed)": TEXT.replace(b'"t12"', b'"t\\ud83d\\ude0012"'),
    "escaped backslash before u-d800 (allowed)": TEXT.replace(b'"t12"', b'"t\\\\ud83d"'),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_refusals_and_values_match_the_whole_parse(tmp_path: Path, name: str) -> None:
    for batch, chunk in ((64, 7), (700, 97), (1 << 20, 1 << 20)):
        same(tmp_path, CASES[name], batch=batch, chunk=chunk)


def test_some_refusals_worked_out_by_hand(tmp_path: Path) -> None:
    # the one line has "attempt" twice in Result 30: its second name starts 13 characters
    # after the first one's opening quote
    data = CASES["duplicate member in a Result"]
    first = data.index(b'"attempt": 30')
    got = same(tmp_path, data)
    assert got == ("refused", "duplicate object key 'attempt'", 1, first + 1 + len('"attempt": 30, '),
                   "/results/30/attempt")
    # invalid UTF-8 wins wherever it is: the byte 0xff of "t\xff33"
    bad = CASES["invalid UTF-8 late beats a syntax error early"]
    at = bad.index(b"\xff")
    assert same(tmp_path, bad) == ("refused", f"invalid UTF-8 at byte {at}", 1, at + 1, None)
    assert same(tmp_path, b'{"results": [1,\n 2,]}') == (
        "refused", "malformed JSON: Expecting value", 2, 4, None)
    # a lone surrogate is refused at the string holding it (the value of Result 5's
    # test_case_id, before Result 12's), once the whole file is known to be well formed
    lone = CASES["two lone surrogates: the first is reported"]
    assert same(tmp_path, lone) == ("refused", "lone surrogate U+DBFF in a string: not Unicode text "
                                    "(RFC 7493 section 2.1)", 1, lone.index(b'"\\udbff"') + 1,
                                    "/results/5/test_case_id")
    assert same(tmp_path, CASES["lone surrogate, then a syntax error"])[1] == (
        "malformed JSON: Expecting ',' delimiter")
    name = CASES["lone surrogate in a top-level member name"]
    assert same(tmp_path, name) == ("refused", "lone surrogate U+DFFF in a string: not Unicode text "
                                    "(RFC 7493 section 2.1)", 1, name.index(b'"end"') + 1, "/\\udfff")
    for allowed in ("surrogate pair (allowed)", "escaped backslash before u-d800 (allowed)"):
        assert same(tmp_path, CASES[allowed])[0] == "value"


def test_a_number_that_reads_as_zero_is_refused_in_a_batch(tmp_path: Path) -> None:
    """orjson reads -2.5e-400 as -0.0 (the batches are read by orjson): the fresh user of
    session 34 found 1e-400 accepted as 0."""
    data = CASES["underflow to 0"]
    for batch, chunk in ((64, 7), (1 << 20, 1 << 20)):
        got = same(tmp_path, data, batch=batch, chunk=chunk)
        assert got[:2] == ("refused", "number too close to 0 for an IEEE 754 double (it would read as 0): -2.5e-400")
        assert got[3] == data.index(b"-2.5e-400") + 1
    assert same(tmp_path, CASES["zero with a large exponent (allowed)"])[0] == "value"


def test_utf16_and_utf32_are_named(tmp_path: Path) -> None:
    """Session 35: UTF-16LE without a BOM read as UTF-8 text with NULs ("Expecting property
    name", column 2); with a BOM, "invalid UTF-8 at byte 0". RFC 8259 section 8.1 asks for UTF-8."""
    assert same(tmp_path, CASES["UTF-16LE without a BOM"]) == (
        "refused", "the file is UTF-16LE text, not UTF-8 (RFC 8259 section 8.1: JSON text is UTF-8)", 1, 1, None)
    assert same(tmp_path, CASES["UTF-32 with a BOM"])[1].startswith("the file is UTF-32LE text")


def test_integers_beyond_64_bits_stay_exact(tmp_path: Path) -> None:
    big = 123456789012345678901234567890
    data = TEXT.replace(b'"attempt": 12', f'"attempt": {big}'.encode())
    path = tmp_path / "doc.json"
    path.write_bytes(data)
    for batch in (64, 1 << 20):
        value = streamed(path, batch=batch)[1]
        assert value["results"][12]["attempt"] == big and isinstance(value["results"][12]["attempt"], int)


@pytest.mark.parametrize("data", [b"[1, 2]", b'"x"', b"3"])
def test_a_top_level_value_other_than_an_object_is_not_streamed(tmp_path: Path, data: bytes) -> None:
    path = tmp_path / "doc.json"
    path.write_bytes(data)
    with pytest.raises(NotAnObject), ObjectStream(path, "f", "results") as s:
        list(s)


def test_seeded_mutations_are_refused_as_the_whole_parse_refuses(tmp_path: Path) -> None:
    rng = random.Random(7)
    text = json.dumps(BASE, indent=1, ensure_ascii=False).encode()
    inserts = [b"", b",", b"}", b"]", b"{", b"[", b'"', b"NaN", b"1e999", b"\xff", b"\\", b" ",
               b'"a": 1,', b"\x01", b"tru", b"\xc3"]
    for _ in range(300):
        at = rng.randrange(len(text) + 1)
        piece = rng.choice(inserts)
        data = rng.choice([text[:at], text[:at] + piece + text[at:], text[:at] + piece + text[at + 1:]])
        same(tmp_path, data, batch=rng.choice((64, 200, 1000)), chunk=rng.choice((7, 64, 500)))


def nearest(found: dict[str, tuple[int, int]], pointer: str) -> tuple[int, int]:
    while pointer not in found:
        if pointer == "":
            return (1, 1)
        pointer = pointer.rsplit("/", 1)[0]
    return found[pointer]


@pytest.mark.parametrize("layout", ["compact", "indented", "tabs and CRLF"])
def test_positions_match_the_whole_text(tmp_path: Path, layout: str) -> None:
    rng = random.Random(3)
    doc = {**BASE, "results": BASE["results"] * 2, "tail": {"k": [1, 2]}}
    text = {"compact": json.dumps(doc, ensure_ascii=False),
            "indented": json.dumps(doc, indent=2, ensure_ascii=False),
            "tabs and CRLF": json.dumps(doc, indent="\t").replace("\n", "\r\n")}[layout]
    path = tmp_path / "doc.json"
    path.write_text(text, encoding="utf-8")
    wanted = {"", "/version", "/results", "/results/0", "/results/79/g/1/b", "/results/7/missing",
              "/é~1x/a~0b/1/z", "/é~1x/nope", "/tail/k/1", "/nope", "/results/79"}
    wanted |= {f"/results/{rng.randrange(80)}/{rng.choice(['g/0/a', 's', 'attempt', 'g/1', 'x', 'g/5'])}"
               for _ in range(60)}
    with ObjectStream(path, "f", "results", batch=300, chunk=50) as s:
        list(s)
        got = s.positions(wanted)
    found = positions(text, wanted)
    assert got == {p: nearest(found, p) for p in wanted}


# --- validate: streamed and whole ---------------------------------------------------------------

def outcome(entries: list) -> list:
    rows = []
    for e in entries:
        if isinstance(e, FileError):
            rows.append(("error", str(e.error)))
        else:
            rows.append((e.doc_type, e.spec_version, e.spec_label, e.valid, e.note, e.warnings,
                         [(v.code, v.instance_path, v.message, line, col) for v, line, col in e.by_line()]))
    return rows


def both(paths: list[Path], **kw: Any) -> list:
    names = [str(p) for p in paths]
    streamed_out = outcome(validate_files(REPO, names, stream=True, **kw))
    whole_out = outcome(validate_files(REPO, names, stream=False, **kw))
    assert streamed_out == whole_out
    return whole_out


def test_every_fixture_and_example_validates_alike(tmp_path: Path) -> None:
    paths = []
    for f in FIXTURES:
        p = tmp_path / f"{f.id}.json"
        p.write_text(json.dumps(f.document, indent=1), encoding="utf-8")
        paths.append(p)
    assert any(f.document_type == "resultset" and not f.full.valid for f in FIXTURES)
    rows = both(paths + EXAMPLES)
    assert len(rows) == len(FIXTURES) + len(EXAMPLES)
    for f in FIXTURES:  # per fixture type, so a suite fixture read as a resultset shows
        both([tmp_path / f"{f.id}.json"], doc_type=f.document_type)


def seeded(n: int, seed: int = 5) -> dict[str, Any]:
    """A generated ResultSet with one error of every rule and schema kind, the isolation of
    the ResultSet after ``results``; returns the document."""
    doc = make_large.build(n, seed=seed)
    results = doc["results"]
    isolation = doc.pop("isolation")
    doc.pop("summary")
    results[3]["grader_results"][0]["score"] = 1.5                       # MAXIMUM
    results[5]["passed"] = "yes"                                         # TYPE
    del results[7]["grader_results"]                                     # REQUIRED
    results[9]["colour"] = "red"                                         # ADDITIONAL_PROPERTIES
    results[11]["error"] = {"type": "nonsense", "message": "m"}           # ENUM
    results[13]["completed_at"] = "2026-02-30T10:00:00Z"                  # FORMAT
    results[15]["test_case_id"] = ""                                      # MIN_LENGTH
    results[17]["grader_results"][0].update(score=None, passed=True)      # NULL_SCORE_PASSED
    results[19]["attempt"] = results[18]["attempt"]                       # DUPLICATE_ATTEMPT
    results[21]["isolation"] = "shared"                                   # ISOLATION_MISMATCH
    results[23] = "not a Result"                                         # TYPE (a whole Result)
    doc["group"]["parent_group_id"] = doc["group"]["group_id"]             # SELF_PARENT
    doc["isolation"] = isolation                                          # after results
    return doc


def test_generated_resultsets_with_seeded_errors_validate_alike(tmp_path: Path) -> None:
    doc = seeded(120)
    path = tmp_path / "seeded.json"
    path.write_text(json.dumps(doc, indent=1, ensure_ascii=False), encoding="utf-8")
    compact = tmp_path / "compact.json"
    compact.write_text(json.dumps(doc), encoding="utf-8")
    rows = both([path, compact])
    keys = {(code, where) for code, where, *_ in rows[0][6]}
    # every seeded error, worked out from the seeding above (NULL_SCORE_PASSED is encoded in
    # the schema; the isolation of the ResultSet comes after results and is still read)
    assert {("MAXIMUM", "/results/3/grader_results/0/score"), ("TYPE", "/results/5/passed"),
            ("REQUIRED", "/results/7/grader_results"), ("ADDITIONAL_PROPERTIES", "/results/9"),
            ("ENUM", "/results/11/error/type"), ("FORMAT", "/results/13/completed_at"),
            ("MIN_LENGTH", "/results/15/test_case_id"),
            ("NULL_SCORE_PASSED", "/results/17/grader_results/0/passed"),
            ("DUPLICATE_ATTEMPT", "/results/19/attempt"), ("ISOLATION_MISMATCH", "/results/21/isolation"),
            ("TYPE", "/results/23"), ("SELF_PARENT", "/group/parent_group_id")} <= keys


def test_envelope_errors_and_version_after_results(tmp_path: Path) -> None:
    doc = seeded(30)
    version = doc.pop("version")
    doc["version"] = version  # after results: the streamed file is read twice
    doc["colour"] = 1
    cases = {"late-version.json": doc,
             "empty.json": {**doc, "results": []},
             "old.json": {**copy.deepcopy(doc), "version": "1.0.0"},
             "major.json": {**doc, "version": "2.0.0"},
             "newer.json": {**doc, "version": "1.9.0"}}
    paths = []
    for name, d in cases.items():
        p = tmp_path / name
        p.write_text(json.dumps(d, indent=1), encoding="utf-8")
        paths.append(p)
    rows = both(paths)
    assert ("MIN_ITEMS", "/results") in {row[:2] for row in rows[1][6]}
    assert rows[3][1] is None and [row[0] for row in rows[3][6]] == ["UNSUPPORTED_VERSION"]
    both(paths, consumer=True)
