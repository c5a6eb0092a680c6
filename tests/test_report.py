"""Reporters over diff classifications and plain finding lists."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

from evalport_spec.findings import ChangeClass, Finding, Location
from evalport_spec.report import render, use_color

F = [Finding("enum-value-removed", "value 'c' is in the old enum and not in the new one", ChangeClass.MAJOR,
             old=Location("old/s.json", "/enum", 3), new=Location("new/s.json", "/enum", 4),
             witness={"t": "c"}),
     Finding("property-added-to-closed-object", "p, q", ChangeClass.MINOR,
             new=Location("new/s.json", "/properties/b", 9), direction="forward")]


def test_text_has_location_class_kind_and_witness():
    out = render(F, "text", color=False)
    assert "new/s.json:4 (/enum): MAJOR enum-value-removed: value 'c'" in out
    assert 'witness: {"t": "c"}' in out and "\033[" not in out
    assert "\033[31mMAJOR" in render(F, "text", color=True)


def test_colour_only_on_tty_without_no_color(monkeypatch):
    class Tty:
        def isatty(self):
            return True
    monkeypatch.delenv("NO_COLOR", raising=False)
    assert use_color(Tty())
    monkeypatch.setenv("NO_COLOR", "1")
    assert not use_color(Tty())


def test_github_workflow_commands():
    lines = render(F, "github").splitlines()
    assert lines[0] == ("::error file=new/s.json,line=4,title=enum-value-removed::value 'c' is in the "
                        "old enum and not in the new one")
    assert lines[1].startswith("::warning file=new/s.json,line=9,title=property-added-to-closed-object::p, q")


def test_junit_counts_failures():
    root = ET.fromstring(render(F, "junit"))
    suite = root.find("testsuite")
    assert suite.get("tests") == "2" and suite.get("failures") == "1"
    assert len(root.findall(".//failure")) == 1


def test_markdown_table_and_details():
    out = render(F, "markdown", header={"title": "diff a -> b", "class": "MAJOR"})
    assert out.startswith("### diff a -> b")
    assert "| MAJOR | `enum-value-removed` | `new/s.json:4 (/enum)` |" in out
    assert "<details><summary>witness for <code>enum-value-removed</code>" in out


def test_json_of_plain_findings_and_empty_list():
    data = json.loads(render(F, "json"))
    assert [f["kind"] for f in data["findings"]] == ["enum-value-removed", "property-added-to-closed-object"]
    assert "no findings" in render([], "text", color=False)
