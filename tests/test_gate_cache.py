"""Memos and the disk cache behind a fast ``check`` (issue 16): a changed input is never answered
from an old entry.

Each test changes one input between two computations in a scratch repository and checks that
the answer follows it; the disk-cache tests clear the in-process memos first, so the second
answer can only come from disk or from a fresh computation.
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest

from evalport_spec.cache import tree_digest
from evalport_spec.gate import context, rulecorpus, run_gate, runcache
from evalport_spec.gate.ruleprogram import Program, ProgramRun
from evalport_spec.rfc.model import find_rfc
from evalport_spec.rfc.proposal import PARTIAL, UNAPPLIED, plan
from evalport_spec.schemawalk import titled_objects
from evalport_spec.spec import SpecRepo
from evalport_spec.specsync.fields import field_since, node_at
from evalport_spec.specsync.sync import draft_blocks, version
from gate_repo import edit_json, make_repo


@pytest.fixture()
def root(tmp_path):
    return make_repo(tmp_path)


def forget_runs() -> None:
    """Drop what this process memoised, as a new ``check`` process starts without it."""
    rulecorpus.MEMO.clear()
    context.RUNS.clear()


def test_tree_digest_follows_content_and_names(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "x.json").write_text("1")
    first = tree_digest(tmp_path / "a", tmp_path / "missing")
    assert tree_digest(tmp_path / "a", tmp_path / "missing") == first
    (tmp_path / "a" / "x.json").write_text("2")
    second = tree_digest(tmp_path / "a", tmp_path / "missing")
    (tmp_path / "a" / "x.json").rename(tmp_path / "a" / "y.json")
    third = tree_digest(tmp_path / "a", tmp_path / "missing")
    (tmp_path / "missing").mkdir()
    fourth = tree_digest(tmp_path / "a", tmp_path / "missing")
    assert len({first, second, third, fourth}) == 4


def test_plan_follows_a_rule_added_to_the_draft(root):
    rfc = find_rfc(root, 6)
    first = plan(root, rfc)
    assert first.state == UNAPPLIED and plan(root, rfc) is first  # the second ask is the memo
    proposed = json.loads((root / "rfcs/0006-rate-denominators/rules.json").read_text())["rules"]
    edit_json(root / "spec/rules.json", lambda d: d["rules"].append(proposed[0]))
    again = plan(root, rfc)
    # one of the proposal's rules is now in the draft, the patch is not: partly applied
    assert again.state == PARTIAL and f"rule {proposed[0]['code']}" in again.present


def test_blocks_follow_a_changed_description(root):
    repo = SpecRepo(root)
    draft = version(repo, "draft")
    obj = titled_objects(draft.schemas)[0]
    prop = sorted(node_at(draft.schemas, obj)["properties"])[0]
    before = draft_blocks(repo)
    assert "Marker 4711" not in json.dumps([b.rows for b in before.values()], default=repr)

    def describe(doc):
        node = doc
        for token in [t for t in obj.pointer.split("/") if t]:
            node = node[int(token)] if isinstance(node, list) else node[token]
        node["properties"][prop]["description"] = "Marker 4711."
    edit_json(root / "spec/schemas" / obj.file, describe)
    after = draft_blocks(repo)
    assert "Marker 4711" in json.dumps([b.rows for b in after.values()], default=repr)


def test_field_since_follows_a_property_added_to_a_release(root):
    repo = SpecRepo(root)
    oldest = repo.releases()[0]
    rel = version(repo, oldest)
    obj = titled_objects(rel.schemas)[0]
    assert (obj.title, "zz_added") not in field_since([rel])

    def add(doc):
        node = doc
        for token in [t for t in obj.pointer.split("/") if t]:
            node = node[int(token)] if isinstance(node, list) else node[token]
        node.setdefault("properties", {})["zz_added"] = {"type": "string"}
    edit_json(root / "spec/releases" / oldest / "schemas" / obj.file, add)
    assert field_since([version(repo, oldest)])[(obj.title, "zz_added")] == oldest


def test_runs_read_back_equal_and_miss_on_another_day_program_or_corpus(monkeypatch):
    program = Program(Path("/nowhere"), "p", "digest-a")
    run = ProgramRun({"R": "suite"}, [{"R": ["/a/0"]}, {}], [(1, "R", "KeyError: 'x'")])
    runcache.store_run(program, "corpus-1", run)
    assert runcache.stored_run(program, "corpus-1") == run
    assert runcache.stored_run(program, "corpus-2") is None
    assert runcache.stored_run(Program(program.tools, "p", "digest-b"), "corpus-1") is None

    class Tomorrow(dt.date):
        @classmethod
        def today(cls):
            return dt.date.today() + dt.timedelta(days=1)
    monkeypatch.setattr(runcache, "date", Tomorrow)
    assert runcache.stored_run(program, "corpus-1") is None
    monkeypatch.setenv("EVALPORT_CACHE_DIR", "off")
    assert runcache.stored_run(program, "corpus-1") is None


def test_behaviour_verdict_follows_a_changed_guard_across_runs(root, monkeypatch):
    forget_runs()
    assert run_gate(root, stages=["behaviour"]).stage("behaviour").status == "ok"
    forget_runs()

    def refuse(*args, **kwargs):
        raise AssertionError("computed again: the disk cache was not used")
    with monkeypatch.context() as m:  # nothing changed: the corpus comes from disk (the
        # installed rules, this process's own, run here: ruleprogram.runs_here)
        m.setattr(rulecorpus, "_build", refuse)
        m.setattr(context, "run_program", refuse)
        assert run_gate(root, stages=["behaviour"]).stage("behaviour").status == "ok"

    def f(d):
        rule = next(r for r in d["rules"] if r["code"] == "DANGLING_REFERENCE")
        rule["guard"] = ["/graders/*/id"]
    edit_json(root / "spec/rules.json", f)
    forget_runs()
    stage = run_gate(root, stages=["behaviour"]).stage("behaviour")
    assert stage.status == "fail"
    assert [x.code for x in stage.errors if x.kind == "rule-guard-contradicted"] == ["DANGLING_REFERENCE"]


def test_corpus_misses_when_a_fixture_changes(root, monkeypatch):
    forget_runs()
    run_gate(root, stages=["behaviour"])
    forget_runs()
    calls = []
    real = rulecorpus._build
    monkeypatch.setattr(rulecorpus, "_build", lambda *a: calls.append(1) or real(*a))
    fixture = sorted((root / "spec/conformance/fixtures").glob("*.json"))[0]
    edit_json(fixture, lambda d: d.__setitem__("description", str(d.get("description")) + " (edited)"))
    run_gate(root, stages=["behaviour"])
    assert calls == [1]
