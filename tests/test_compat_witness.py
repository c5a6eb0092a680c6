"""MAJOR witnesses hold under the old version's FULL validator (schemas and rules)."""

from __future__ import annotations

import copy
import json
import shutil
from pathlib import Path

import pytest

from evalport_spec.compat import compare_versions
from evalport_spec.compat.witness import SCHEMA_ONLY_NOTE, full_witnesses, graft
from evalport_spec.spec import SpecRepo
from evalport_spec.validation import Validator

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def raised_backoff(tmp_path_factory):
    """A copy of the repository whose draft raises retry.backoff_ms' minimum from 100 to 200."""
    repo = tmp_path_factory.mktemp("repo")
    for d in ("spec", "rfcs"):
        shutil.copytree(ROOT / d, repo / d, symlinks=True)
    p = repo / "spec/schemas/suite.json"
    s = json.loads(p.read_text())
    backoff = s["$defs"]["retry"]["properties"]["backoff_ms"] if "retry" in s.get("$defs", {}) else None
    if backoff is None:
        backoff = s["properties"]["config"]["properties"]["retry"]["properties"]["backoff_ms"]
    assert backoff["minimum"] == 100
    backoff["minimum"] = 200
    p.write_text(json.dumps(s, indent=2))
    r = SpecRepo(repo)
    return r.version("1.3.0"), r.version("draft")


def test_backoff_witness_is_valid_under_the_full_old_validator(raised_backoff):
    old, new = raised_backoff
    c = compare_versions(old, new)
    f = next(f for f in c.findings if f.kind == "minimum-increased")
    assert f.extra["instance_path"] == ["config", "retry", "backoff_ms"]
    assert f.extra["witness_scope"] == "full"
    assert f.witness["config"]["retry"]["backoff_ms"] == 100
    assert Validator(old).validate(f.witness, "suite") == []
    assert any(v.instance_path == "/config/retry/backoff_ms" for v in Validator(new).validate(f.witness, "suite"))
    # the engine's own, schema-level witness (a grader id no grader declares) is kept aside
    assert Validator(old).validate(f.extra["schema_witness"], "suite") != []


def test_without_a_repairing_document_the_finding_says_schema_level(raised_backoff):
    old, new = raised_backoff
    f = next(f for f in compare_versions(old, new).findings if f.kind == "minimum-increased")
    f.witness = f.extra.pop("schema_witness")
    f.extra.pop("witness_scope")
    full_witnesses([f], old, new, corpus=[], generated=0)
    assert f.change_class.name == "MAJOR" and f.extra["witness_scope"] == "schema"
    assert f.message.endswith(SCHEMA_ONLY_NOTE)


def test_graft_creates_missing_parents_from_the_witness():
    base = {"id": "s", "config": {"parallel": 2}}
    w = {"config": {"retry": {"backoff_ms": 100}}}
    replaced, merged = graft(base, w, ["config", "retry", "backoff_ms"])
    assert replaced == merged == {"id": "s", "config": {"parallel": 2, "retry": {"backoff_ms": 100}}}
    assert base == {"id": "s", "config": {"parallel": 2}}  # not modified
    base2 = copy.deepcopy(base)
    base2["config"]["retry"] = {"max_attempts": 3, "backoff_ms": 500}
    replaced, merged = graft(base2, {"config": {"retry": {"backoff_ms": 100}}}, ["config", "retry"])
    assert replaced["config"]["retry"] == {"backoff_ms": 100}
    assert merged["config"]["retry"] == {"max_attempts": 3, "backoff_ms": 100}
    assert graft(base, w, []) == []


def test_every_release_witness_names_its_version_and_validates_there():
    """Witnesses anyone can replay: on each consecutive release pair, every decided witness of a
    document type names a real version (the old one for backward findings, the new one for
    forward ones) and the tool's full validator accepts it under that version."""
    repo = SpecRepo(ROOT)
    names = [v for v in ("1.0.0", "1.1.0", "1.2.0", "1.3.0")]
    checked = 0
    for a, b in zip(names, names[1:], strict=False):
        old, new = repo.version(a), repo.version(b)
        c = compare_versions(old, new)
        for f in c.findings:
            if f.direction not in ("backward", "forward") or f.undecided or f.witness is None:
                continue
            doc_type = f.extra.get("file", "").removesuffix(".json")
            if not isinstance(f.witness, dict) or "version" not in f.witness:
                continue
            src = old if f.direction == "backward" else new
            assert f.witness["version"] == src.name, (f.kind, f.witness["version"])
            assert Validator(src).validate(f.witness, doc_type) == [], (f.kind, f.witness)
            checked += 1
    assert checked >= 3  # each release adds optional fields: forward witnesses exist
