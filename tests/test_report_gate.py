"""The gate's report on real branches (scratch repositories): a MAJOR branch leads every
format with its breaking finding, and a MINOR branch shows its additive change at the file
and line that changed."""

from __future__ import annotations

import json

import pytest

from evalport_spec.cli import main
from evalport_spec.gate import run_gate
from evalport_spec.gate.output import gate_report, render
from gate_repo import add_optional_runner_field, edit_json, git, make_repo


def _line(path, needle: str) -> int:
    return next(i for i, t in enumerate(path.read_text().splitlines(), 1) if needle in t)


@pytest.fixture(scope="module")
def major(tmp_path_factory):
    root = make_repo(tmp_path_factory.mktemp("major"))
    edit_json(root / "spec/schemas/resultset.json",
              lambda d: d["$defs"]["error"]["properties"]["type"]["enum"].remove("runner_error"))
    (root / "spec/VERSION").write_text("2.0.0\n")
    git(root, "commit", "-qam", "drop runner_error")
    return root, run_gate(root, base="main")


@pytest.fixture(scope="module")
def minor(tmp_path_factory):
    root = make_repo(tmp_path_factory.mktemp("minor"))
    add_optional_runner_field(root)
    git(root, "commit", "-qam", "runner.build")
    return root, run_gate(root, base="main", stages=["draft", "base"])


def test_major_branch_leads_with_the_breaking_finding(major, capsys, monkeypatch) -> None:
    root, report = major
    enum_line = _line(root / "spec/schemas/resultset.json", '"timeout"') - 1  # the "enum": [ line
    md = render(report, "markdown")
    assert md.splitlines()[0].startswith("## MAJOR `enum-value-removed")
    gh = render(report, "github").splitlines()
    assert gh[0].startswith(f"::error file=spec/schemas/resultset.json,line={enum_line},"
                            "title=MAJOR enum-value-removed")
    assert "(draft%2C base)" in gh[0]
    assert sum(ln.startswith("::") and "title=MAJOR enum-value-removed" in ln for ln in gh) == 1
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)
    assert main(["-C", str(root), "check", "--base", "main", "--format", "github"]) == 1
    assert capsys.readouterr().out.splitlines()[0] == gh[0]


def test_major_branch_json_lists_each_finding_once(major) -> None:
    _, report = major
    data = json.loads(render(report, "json"))
    first = data["findings"][0]
    assert (first["kind"], first["stages"], first["section"]) == ("enum-value-removed", ["draft", "base"],
                                                                  "compatibility")
    assert data["findings"][1]["kind"] == "policy-major-needs-rfc"  # its decision right after it
    per_stage = sum(f["kind"] == "enum-value-removed" for s in data["stages"] for f in s["findings"])
    assert per_stage == 2 and sum(f["kind"] == "enum-value-removed" for f in data["findings"]) == 1


def test_minor_branch_shows_the_added_field_where_it_was_added(minor) -> None:
    root, report = minor
    line = _line(root / "spec/schemas/resultset.json", '"build"')
    gh = render(report, "github")
    assert (f"::notice file=spec/schemas/resultset.json,line={line},title=MINOR "
            "property-added-to-closed-object (draft%2C base)::Added optional `runner.build` to ResultSet") in gh
    text = render(report, "text")
    assert (f"spec/schemas/resultset.json:{line}: MINOR property-added-to-closed-object: Added optional "
            "`runner.build` to ResultSet [draft, base]") in text
    assert "Added optional `runner.build` to ResultSet" in render(report, "markdown")
    assert "Added optional `runner.build` to ResultSet" in render(report, "junit")
    assert gate_report(report).breaking is None
