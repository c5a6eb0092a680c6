"""Tests of evalport_spec.corpus: the repository's example and fixture documents by type."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evalport_spec.corpus import EmbeddedLoaded, detect_type, repo_documents
from evalport_spec.errors import InputError
from evalport_spec.spec import SpecRepo


def _write(path: Path, value) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(value, indent=2) + "\n")


@pytest.mark.parametrize("value, expected", [
    ({"version": "1.0.0", "id": "s", "test_cases": []}, "suite"),
    ({"suite_id": "s", "results": []}, "resultset"),
    ({"id": "t", "input": "hi", "graders": ["g"]}, "testcase"),
    ({"id": "g", "type": "exact_match"}, "grader"),
    ({"id": "x"}, None),
    ([1, 2], None),
])
def test_detect_type(value, expected):
    assert detect_type(value) == expected


def test_repo_documents(tmp_path):
    spec = tmp_path / "spec"
    (spec / "schemas").mkdir(parents=True)
    _write(spec / "examples" / "b-suite.json", {"version": "1.0.0", "id": "s", "test_cases": [{"id": "t"}]})
    _write(spec / "examples" / "a-grader.json", {"id": "g", "type": "regex"})
    _write(spec / "examples" / "odd.json", {"hello": 1})
    (spec / "examples" / "notes.txt").write_text("not json")
    _write(spec / "conformance" / "fixtures" / "rs-one.json",
           {"id": "rs-one", "document_type": "resultset",
            "document": {"suite_id": "s", "results": [{"test_case_id": "t", "attempt": 1}]}})
    _write(spec / "conformance" / "fixtures" / "no-doc.json", {"id": "no-doc", "document_type": "suite"})
    _write(spec / "conformance" / "fixtures" / "bad-type.json",
           {"id": "bad-type", "document_type": "nonsense", "document": {}})
    docs = repo_documents(SpecRepo(tmp_path))
    assert {k: len(v) for k, v in docs.items()} == {"suite": 1, "testcase": 0, "grader": 1, "resultset": 1}
    assert docs["grader"][0].value == {"id": "g", "type": "regex"}
    fx = docs["resultset"][0]
    assert isinstance(fx, EmbeddedLoaded)
    assert fx.value["results"][0]["attempt"] == 1
    assert fx.source.endswith("rs-one.json")
    # the fixture file is indented by json.dumps(indent=2): "attempt" is on line 9 of the file
    # (1 {, 2 id, 3 document_type, 4 document, 5 suite_id, 6 results, 7 {, 8 test_case_id, 9 attempt)
    text = (spec / "conformance" / "fixtures" / "rs-one.json").read_text().splitlines()
    assert '"attempt": 1' in text[fx.line("/results/0/attempt") - 1]
    assert fx.line("/results/0/attempt") == 9


def test_absent_folders_give_empty_lists(tmp_path):
    (tmp_path / "spec" / "schemas").mkdir(parents=True)
    assert repo_documents(SpecRepo(tmp_path)) == {"suite": [], "testcase": [], "grader": [], "resultset": []}


def test_malformed_file_is_input_error(tmp_path):
    (tmp_path / "spec" / "examples").mkdir(parents=True)
    (tmp_path / "spec" / "examples" / "broken.json").write_text('{"id": "g",\n "id": "h"}')
    with pytest.raises(InputError, match=r"broken.json:2:.*duplicate object key 'id'"):
        repo_documents(SpecRepo(tmp_path))


def test_this_repository():
    root = Path(__file__).resolve().parents[1]
    docs = repo_documents(SpecRepo(root))
    fixtures = sorted((root / "spec" / "conformance" / "fixtures").glob("*.json"))
    with_doc = [json.loads(p.read_text()) for p in fixtures]
    n_fx = sum(1 for f in with_doc if "document" in f and f.get("document_type") in docs)
    n_ex = sum(1 for p in (root / "spec" / "examples").glob("*.json") if detect_type(json.loads(p.read_text())))
    assert sum(len(v) for v in docs.values()) == n_fx + n_ex
