"""Property-based fuzzing (hypothesis) of the JSON loader, the validator, the diff engine and
the fast ``date-time`` check (issue 8). Every property is bounded (``max_examples``,
``deadline``) so the whole file runs in well under a minute.
"""

from __future__ import annotations

import copy
import json
import math
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from evalport_spec import jsonload
from evalport_spec.errors import InputError
from evalport_spec.jsonload import _SLOW, _fast_loads, loads
from evalport_spec.rsvalidator import _reference_datetime, rfc3339_date_time
from evalport_spec.rsvalidator import available as fast_available
from evalport_spec.spec import DOC_TYPES, SpecRepo
from evalport_spec.validation import Validator
from evalport_spec.validation.violation import Violation

MAIN = Path(__file__).resolve().parents[1]
FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck),
                database=None)

# --- JSON values and their texts ---------------------------------------------------------------

scalars = (st.none() | st.booleans() | st.integers(min_value=-(2**63), max_value=2**63 - 1)
           | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=12))
json_values = st.recursive(scalars, lambda kids: st.lists(kids, max_size=4)
                           | st.dictionaries(st.text(max_size=6), kids, max_size=4), max_leaves=20)


def _same(a, b) -> bool:
    """Equality that tells 1 from 1.0 and -0.0 from 0.0 (the fast path must not change them)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, float):
        return a == b and math.copysign(1, a) == math.copysign(1, b)
    return a == b


def _strict(raw: bytes):
    """The strict standard-library path alone: ``("ok", value)`` or ``("error", message)``."""
    try:
        return "ok", loads(raw, "<fuzz>", max_depth=254).value  # max_depth < 255 skips the fast path
    except InputError as exc:
        return "error", exc.message


def _both(raw: bytes) -> None:
    """Only InputError or a value; the fast path agrees with the strict path."""
    strict = _strict(raw)
    try:
        full = "ok", loads(raw, "<fuzz>").value
    except InputError as exc:
        full = "error", exc.message
    fast = _fast_loads(raw)
    if fast is not _SLOW:  # the fast path decided: the strict path must accept the same value
        assert strict[0] == "ok", (raw[:200], strict)
        # orjson reads integers beyond 64 bits as floats (documented in _fast_loads)
        if not any(isinstance(x, int) and abs(x) >= 2**63 for x in _ints(strict[1])):
            assert _same(fast, strict[1]), raw[:200]
    if strict[0] == "error" and full[0] == "ok":  # depth 255-256: strict path limited to 254 here
        assert "nesting" in strict[1]
    else:
        assert strict[0] == full[0], (raw[:200], strict, full)


def _ints(v):
    if isinstance(v, dict):
        for x in v.values():
            yield from _ints(x)
    elif isinstance(v, list):
        for x in v:
            yield from _ints(x)
    elif isinstance(v, int) and not isinstance(v, bool):
        yield v


@FUZZ
@given(st.binary(max_size=200))
def test_loader_random_bytes(raw):
    _both(raw)


@FUZZ
@given(json_values, st.data())
def test_loader_mutated_documents(value, data):
    raw = bytearray(json.dumps(value, ensure_ascii=data.draw(st.booleans())).encode())
    for _ in range(data.draw(st.integers(0, 3))):
        op = data.draw(st.sampled_from(["flip", "insert", "delete", "dup"]))
        pos = data.draw(st.integers(0, len(raw)))
        if op == "flip" and pos < len(raw):
            raw[pos] = data.draw(st.sampled_from(b'{}[]",:\\ 0e-.nNI\xff\xef'))
        elif op == "insert":
            raw[pos:pos] = data.draw(st.sampled_from([b'"', b",", b"NaN", b"1e999", b"\xef\xbb\xbf",
                                                      b'\\u0022', b'"a":1,', b"[", b"}"]))
        elif op == "delete" and pos < len(raw):
            del raw[pos]
        elif op == "dup":
            raw += raw[pos:]
    _both(bytes(raw))


@FUZZ
@given(json_values)
def test_loader_round_trips_valid_documents(value):
    raw = json.dumps(value).encode()
    assume(not _has_duplicate_keys(value))
    assert _same(loads(raw, "<fuzz>").value, json.loads(raw))


def _has_duplicate_keys(value) -> bool:
    return False  # dict strategies never produce duplicates; kept for clarity


def test_loader_duplicate_hidden_behind_escaped_quote():
    """``\\u0022`` inside a key makes the quote count unreliable: the strict path must decide
    and find the duplicate (worked out by hand: both keys decode to ``a"``)."""
    raw = b'{"a\\u0022": 1, "a\\"": 2}'
    assert _fast_loads(raw) is _SLOW
    with pytest.raises(InputError, match="duplicate object key"):
        loads(raw, "<t>")


# --- the validator: random documents per type and mutated fixtures -------------------------


@pytest.fixture(scope="module")
def validator() -> Validator:
    return Validator(SpecRepo.discover(MAIN).version("draft"))


def _fixtures() -> list[dict]:
    folder = MAIN / "spec" / "conformance" / "fixtures"
    return [json.loads(p.read_text()) for p in sorted(folder.glob("*.json"))]


FIXTURES = _fixtures()
hostile_scalars = scalars | st.sampled_from(["2024-02-30T00:00:00Z", "", "\x00", "x" * 300, -0.0,
                                              1e308, 2**70, True, None, 1.0, 0.5, -1, 2**53 + 1,
                                              "2016-12-31T23:59:60Z", "2024-01-01t00:00:00z",
                                              "2024-01-01T00:00:00+24:00", "\U0001f600" * 3,
                                              "1.0.0", "1.0.0-rc.1+b", "01.0.0"])
hostile_values = st.recursive(hostile_scalars, lambda kids: st.lists(kids, max_size=3)
                              | st.dictionaries(st.text(max_size=12) | st.sampled_from(
                                  ["id", "type", "results", "test_case_id", "attempt", "isolation",
                                   "graders", "input", "test_cases", "passed", "score"]),
                                  kids, max_size=5), max_leaves=15)


def _only_violations(validator: Validator, doc, doc_type: str) -> list[Violation]:
    out = validator.validate(doc, doc_type)
    assert isinstance(out, list) and all(isinstance(v, Violation) for v in out)
    assert all(isinstance(v.code, str) and v.instance_path.startswith(("", "/")) for v in out)
    return out


@FUZZ
@given(hostile_values, st.sampled_from(DOC_TYPES))
def test_validator_random_documents(validator, doc, doc_type):
    out = _only_violations(validator, doc, doc_type)
    if not isinstance(doc, dict):
        assert any(v.code == "TYPE" and v.instance_path == "" for v in out)


def _mutated(document, data):
    """A deep copy of ``document`` with one to four random edits: a node replaced by a hostile
    value, a member deleted, or an array element repeated (the DUPLICATE_* rules)."""
    doc = copy.deepcopy(document)
    for _ in range(data.draw(st.integers(1, 4))):
        node, parent, key = doc, None, None
        for _depth in range(data.draw(st.integers(0, 4))):  # walk to a random node
            if isinstance(node, dict) and node:
                parent, key = node, data.draw(st.sampled_from(sorted(node)))
            elif isinstance(node, list) and node:
                parent, key = node, data.draw(st.integers(0, len(node) - 1))
            else:
                break
            node = parent[key]
        new = data.draw(hostile_values)
        if parent is None:
            doc = new
        elif data.draw(st.booleans()) and isinstance(parent, dict):
            del parent[key]
        elif isinstance(parent, list) and data.draw(st.booleans()):
            parent.append(copy.deepcopy(parent[key]))
        else:
            parent[key] = new
    return doc


@FUZZ
@given(st.sampled_from(FIXTURES), st.data())
def test_validator_mutated_fixtures(validator, fixture, data):
    _only_violations(validator, _mutated(fixture["document"], data), fixture["document_type"])


@pytest.fixture(scope="module")
def reference_validator() -> Validator:
    return Validator(SpecRepo.discover(MAIN).version("draft"), fast=False)


@pytest.mark.skipif(not fast_available(), reason="jsonschema-rs not installed")
@FUZZ
@given(st.sampled_from(FIXTURES), st.data())
def test_fast_backend_agrees_with_python_jsonschema_on_mutated_fixtures(
        validator, reference_validator, fixture, data):
    """Differential: the jsonschema-rs backend (the default) and the python-jsonschema reference
    give the same violations (codes, instance and schema locations, messages) on each mutated
    fixture, so a document the reference rejects is never accepted through the fast path."""
    doc = _mutated(fixture["document"], data)
    assert validator.validate(doc, fixture["document_type"]) == \
        reference_validator.validate(doc, fixture["document_type"])


def test_validator_unmutated_fixtures_keep_their_verdict(validator):
    """Sanity anchor for the mutation property: each fixture's recorded full verdict holds."""
    for fx in FIXTURES:
        out = validator.validate(fx["document"], fx["document_type"])
        assert (not out) == fx["expect"]["full"]["valid"], fx["id"]


# --- the diff engine: random small schemas -------------------------------------------------------

small_schemas = st.recursive(
    st.booleans() | st.fixed_dictionaries({}, optional={
        "type": st.sampled_from(["string", "integer", "number", "object", "array", "boolean", "null"]),
        "minimum": st.integers(-3, 3), "maxLength": st.integers(0, 3),
        "enum": st.lists(scalars, min_size=1, max_size=3, unique_by=json.dumps),
        "const": scalars, "format": st.just("date-time"), "pattern": st.sampled_from(["^a", "b$", "["]),
        "$ref": st.sampled_from(["#", "#/$defs/x", "#/nope", "other.json", "https://example.com/x"]),
    }),
    lambda kids: st.fixed_dictionaries({}, optional={
        "properties": st.dictionaries(st.sampled_from(["a", "b", "c"]), kids, max_size=2),
        "required": st.lists(st.sampled_from(["a", "b", "c"]), max_size=2, unique=True),
        "additionalProperties": kids, "items": kids, "anyOf": st.lists(kids, min_size=1, max_size=2),
        "oneOf": st.lists(kids, min_size=1, max_size=2), "not": kids, "$defs": st.fixed_dictionaries({"x": kids}),
    }), max_leaves=6)


DIFF_PROPERTY = """
import json, sys
from hypothesis import HealthCheck, given, settings
sys.path.insert(0, sys.argv[1])
from test_fuzz import small_schemas
from evalport_spec.compat import Classification, compare
from evalport_spec.errors import InputError
from evalport_spec.jsonload import loads
from evalport_spec.schemaset import SchemaSet

def set_of(schema):
    return SchemaSet.from_loaded({"s.json": loads(json.dumps(schema).encode(), "s.json")}, "x")

@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck), database=None)
@given(small_schemas, small_schemas)
def prop(old, new):
    try:
        result = compare(set_of(old), set_of(new), search_budget=5)
    except InputError:
        return
    assert isinstance(result, Classification)

prop()
"""


def test_diff_random_small_schemas():
    """Only a Classification or InputError for random small schemas. Runs in a child process:
    a crash of the interpreter itself (a C stack overflow) must fail the test, not the run."""
    import subprocess
    import sys
    proc = subprocess.run([sys.executable, "-c", DIFF_PROPERTY, str(Path(__file__).parent)],
                          capture_output=True, timeout=120)
    assert proc.returncode == 0, proc.stderr.decode(errors="replace")[-3000:]


# --- the fast date-time check equals the reference -----------------------------------------------

REFERENCE_DT = _reference_datetime()
DT_EDGES = [
    "2024-02-29T10:00:00Z", "2023-02-29T10:00:00Z", "1900-02-29T00:00:00Z", "2000-02-29T00:00:00Z",
    "2100-02-29T00:00:00Z", "2024-04-31T00:00:00Z", "2024-12-31T23:59:59Z", "2024-01-00T00:00:00Z",
    "0000-01-01T00:00:00Z", "0001-01-01T00:00:00Z", "9999-12-31T23:59:59.999999999+23:59",
    "2020-01-01t00:00:00z", "2020-01-01 00:00:00Z", "2020-01-01T24:00:00Z", "2020-01-01T23:60:00Z",
    "2020-01-01T23:59:60Z", "2020-01-01T00:00:00", "2020-01-01T00:00:00+24:00", "2020-01-01T00:00:00-00:00",
    "2020-01-01T00:00:00.Z", "2020-01-01T00:00:00,5Z", "2020-01-01T00:00:00Z\n", "2020-01-01T00:00:00Z\n\n",
    "\n2020-01-01T00:00:00Z", "2020-13-01T00:00:00Z", "2020-00-01T00:00:00Z", "２０２０-01-01T00:00:00Z",
    "2020-01-01T00:00:00+0100", "", "Z", "2020-01-01", "2020-01-01T00:00:00.1234567890123Z",
    "20200-01-01T00:00:00Z", "2020-1-01T00:00:00Z", "2020-01-01ŧ00:00:00Z", "2020-01-01T00:00:00ż",
]


@pytest.mark.parametrize("value", DT_EDGES)
def test_fast_datetime_equals_reference_edges(value):
    assert rfc3339_date_time(value) is REFERENCE_DT(value)


def test_fast_datetime_hand_checked():
    assert rfc3339_date_time("2024-02-29T10:00:00Z") is True  # 2024 is a leap year
    assert rfc3339_date_time("1900-02-29T10:00:00Z") is False  # 1900 is not (divisible by 100)
    assert rfc3339_date_time("2000-02-29T10:00:00Z") is True  # 2000 is (divisible by 400)
    assert rfc3339_date_time("2020-01-01T00:00:00Z\n") is True  # the reference's `$` quirk


dt_like = st.builds(
    lambda y, mo, d, h, mi, s, frac, off, t, noise: (
        f"{y:04d}-{mo:02d}-{d:02d}{t}{h:02d}:{mi:02d}:{s:02d}{frac}{off}{noise}"),
    st.integers(0, 10000), st.integers(0, 13), st.integers(0, 32), st.integers(0, 25),
    st.integers(0, 61), st.integers(0, 61), st.sampled_from(["", ".5", ".", ".123456789"]),
    st.sampled_from(["Z", "z", "+01:00", "-23:59", "+24:00", "", "+0100"]),
    st.sampled_from(["T", "t", " "]), st.sampled_from(["", "\n", "x"]))


@settings(max_examples=1500, deadline=None, database=None)
@given(dt_like | st.text(max_size=30))
def test_fast_datetime_equals_reference_generated(value):
    assert rfc3339_date_time(value) is REFERENCE_DT(value)


def test_fast_check_uses_the_fast_datetime():
    """The jsonschema-rs path uses the proven-equal function for date-time, the reference's
    callback for every other format (checked on the compiled draft schema's formats)."""
    from evalport_spec import rsvalidator
    v = Validator(SpecRepo.discover(MAIN).version("draft"))
    checker = v.spec.schemas.validator("resultset.json").format_checker
    assert checker.checkers["date-time"][0] is REFERENCE_DT
    assert rsvalidator.rfc3339_date_time("2024-02-30T00:00:00Z") is False
    assert jsonload.MAX_DEPTH == 256
