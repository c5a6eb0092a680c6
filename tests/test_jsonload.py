"""Strict JSON loading: every refusal names file, line and column; positions map pointers to lines."""

from __future__ import annotations

import pytest

from evalport_spec.errors import InputError
from evalport_spec.jsonload import MAX_DEPTH, load, loads
from evalport_spec.jsonpos import positions


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('{"a": 1,\n "a": 2}', "f.json:2:2: duplicate object key 'a' (at '/a')"),
        ('{"x": [1, {"c": 1, "c": 2}]}', "f.json:1:20: duplicate object key 'c' (at '/x/1/c')"),
        ("[NaN]", "f.json:1:2: NaN/Infinity is not JSON: NaN"),
        ('{"v": -Infinity}', "f.json:1:7: NaN/Infinity is not JSON: -Infinity"),
        ("[1e999]", "f.json:1:2: number out of range for an IEEE 754 double: 1e999"),
        # nonzero as written, 0 as a double (the smallest subnormal is about 4.94e-324)
        ('{"minimum": 1e-400}', "f.json:1:13: number too close to 0 for an IEEE 754 double (it would read as 0): 1e-400"),
        ("[-2E-324]", "f.json:1:2: number too close to 0 for an IEEE 754 double (it would read as 0): -2E-324"),
        ("[0.00000000000000000001e-310]", "f.json:1:2: number too close to 0 for an IEEE 754 double "
         "(it would read as 0): 0.00000000000000000001e-310"),
        ('{"a":\n  }', "f.json:2:3: malformed JSON: Expecting value"),
        ("\ufeff{}", "f.json:1:1: byte-order mark at start of file (RFC 8259 section 8.1 forbids it)"),
        ("", "f.json:1:1: malformed JSON: Expecting value"),
    ],
)
def test_refusals_are_one_line_with_position(text: str, expected: str) -> None:
    with pytest.raises(InputError) as info:
        loads(text, "f.json")
    assert str(info.value) == expected
    assert "\n" not in str(info.value)


@pytest.mark.parametrize("text", ['{"minimum": 1e-400}', "[-2E-324]", "[1.0e-0400]", '{"a": [5E-999]}'])
def test_a_nonzero_number_read_as_zero_is_refused_on_the_fast_path_too(text: str) -> None:
    """Bytes go to orjson first, which reads these as 0.0 (fresh user, session 34:
    ``minimum 0 -> 1e-400`` was PATCH)."""
    with pytest.raises(InputError, match="too close to 0"):
        loads(text.encode(), "f.json")


@pytest.mark.parametrize(("text", "value"), [
    ("[0e-400]", 0.0), ("[-0.000e-999]", -0.0), ("[4.9e-324]", 5e-324), ("[1e-320]", 1e-320),
    ('["case-100", "1e-400"]', "1e-400"),  # in strings: no number
])
def test_zero_and_subnormal_numbers_are_read(text: str, value: object) -> None:
    for given in (text, text.encode()):
        got = loads(given, "f.json").value
        assert got[-1] == value and str(got[-1]) == str(value)


@pytest.mark.parametrize(("data", "name"), [
    ('{"a": 1}'.encode("utf-16-le"), "UTF-16LE"), ('{"a": 1}'.encode("utf-16-be"), "UTF-16BE"),
    ('{"a": 1}'.encode("utf-16"), "UTF-16LE"),  # with its BOM (FF FE), little-endian here
    ('{"a": 1}'.encode("utf-32-le"), "UTF-32LE"), ('{"a": 1}'.encode("utf-32-be"), "UTF-32BE"),
    (b"\xfe\xff\x00[\x00]", "UTF-16BE"),
])
def test_utf16_and_utf32_text_is_named(data: bytes, name: str) -> None:
    """RFC 4627 section 3's patterns of NULs in the first four bytes, or a UTF-16/32 BOM (session 35:
    "invalid UTF-8 at byte 0", or "Expecting property name" for UTF-16LE without a BOM)."""
    with pytest.raises(InputError) as info:
        loads(data, "f.json")
    assert str(info.value) == f"f.json:1:1: the file is {name} text, not UTF-8 (RFC 8259 section 8.1: JSON text is UTF-8)"


def test_invalid_utf8_names_byte_offset() -> None:
    with pytest.raises(InputError) as info:
        loads(b'{"a": "\xff"}', "bad.json")
    assert str(info.value) == "bad.json:1:8: invalid UTF-8 at byte 7"


def test_depth_limit_without_recursion_error() -> None:
    deep = "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1)
    with pytest.raises(InputError, match=f"nesting deeper than {MAX_DEPTH} levels"):
        loads(deep, "deep.json")
    very_deep = "[" * 100_000 + "]" * 100_000
    with pytest.raises(InputError, match="nesting deeper"):
        loads(very_deep, "deep.json")
    ok = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    assert loads(ok, "ok.json").value is not None


def test_huge_integer_refused() -> None:
    with pytest.raises(InputError, match="out of range"):
        loads("[" + "9" * 5000 + "]", "big.json")


def test_positions_map_pointers_to_line_and_column() -> None:
    text = '{\n  "a": [1, {"b": 2}],\n  "c/d~": null\n}'
    pos = positions(text)
    assert pos[""] == (1, 1)
    assert pos["/a"] == (2, 8)
    assert pos["/a/0"] == (2, 9)
    assert pos["/a/1"] == (2, 12)
    assert pos["/a/1/b"] == (2, 18)
    assert pos["/c~1d~0"] == (3, 11)


def test_line_of_missing_pointer_falls_back_to_ancestor() -> None:
    doc = loads('{\n "results": [\n  {"x": 1}\n ]\n}', "r.json")
    assert doc.line("/results/0") == 3
    assert doc.line("/results/0/passed") == 3
    assert doc.line("/nope") == 1


def test_load_file_errors(tmp_path) -> None:
    with pytest.raises(InputError, match="no such file"):
        load(tmp_path / "missing.json")
    with pytest.raises(InputError, match="is a directory"):
        load(tmp_path)
    big = tmp_path / "big.json"
    big.write_text("[" + "1," * 100 + "1]")
    with pytest.raises(InputError, match="larger than the 50-byte limit"):
        load(big, max_bytes=50)
    assert load(big).value[0] == 1


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (b'{"a": {"k": 1, "k": "x"}}', "b.json:1:16: duplicate object key 'k' (at '/a/k')"),
        (b'[{"q\\u0022": 1, "q\\"": 2}]', None),  # escaped quotes in keys: distinct keys q" and q"?
        (b"[" * 300 + b"]" * 300, "b.json: nesting deeper than 256 levels"),
        (b'{"v": NaN}', "b.json:1:7: NaN/Infinity is not JSON: NaN"),
        (b"\xef\xbb\xbf[]", "b.json:1:1: byte-order mark at start of file (RFC 8259 section 8.1 forbids it)"),
    ],
)
def test_bytes_fast_path_is_as_strict_as_the_slow_path(data: bytes, expected: str | None) -> None:
    if expected is None:
        # q\u0022 and q\" spell the same key: a duplicate the quote count cannot see; the strict
        # path must catch it.
        with pytest.raises(InputError, match="duplicate object key"):
            loads(data, "b.json")
        return
    with pytest.raises(InputError) as info:
        loads(data, "b.json")
    assert str(info.value) == expected


def test_fast_and_slow_paths_agree_on_values() -> None:
    text = '{"a": [1, 2.5, -0.0, 1e3, true, null, "x\\"y", {"\\u00e9": {}}], "b": "\\u0022"}'
    fast = loads(text.encode(), "f.json").value
    slow = loads(text, "f.json").value
    assert fast == slow
    assert fast["b"] == '"' and fast["a"][7] == {"\u00e9": {}}


def test_positions_available_after_fast_path(tmp_path) -> None:
    p = tmp_path / "doc.json"
    p.write_text('{\n  "results": [\n    {"passed": true}\n  ]\n}\n')
    doc = load(p)
    assert doc.position("/results/0/passed") == (3, 16)
