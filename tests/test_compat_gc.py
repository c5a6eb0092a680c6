"""The garbage collector's pace while comparing (:func:`evalport_spec.gcpace.paced_gc`, which :mod:`evalport_spec.compat.engine` applies):
the youngest generation's threshold is raised for the comparison only, and put back after it,
also when the comparison raises."""

from __future__ import annotations

import gc

import pytest

from compat_corpus.oracle import schema_set
from evalport_spec.compat import compare
from evalport_spec.errors import InputError
from evalport_spec.gcpace import GC_YOUNG_THRESHOLD


@pytest.fixture
def default_pace():
    before = gc.get_threshold()
    gc.set_threshold(700, 10, 10)  # Python's default, whatever the session set
    yield
    gc.set_threshold(*before)


def test_the_young_generation_is_collected_less_often_while_comparing(default_pace):
    seen = []

    def candidates(name):
        seen.append(gc.get_threshold())
        return []

    old, new = schema_set({"s.json": {"type": "string"}}, "old"), schema_set({"s.json": {"type": ["string", "null"]}}, "new")
    assert str(compare(old, new, candidates=candidates).change_class) == "MINOR"
    assert seen and set(seen) == {(GC_YOUNG_THRESHOLD, 10, 10)}  # (asked once per side)
    assert gc.get_threshold() == (700, 10, 10)


def test_the_pace_is_put_back_when_the_comparison_refuses(default_pace):
    old = schema_set({"s.json": {"type": "string"}}, "old")
    new = schema_set({"s.json": {"$ref": "#/$defs/missing"}}, "new")
    with pytest.raises(InputError):
        compare(old, new)
    assert gc.get_threshold() == (700, 10, 10)


def test_a_command_runs_at_the_pace_and_puts_it_back(default_pace, tmp_path, monkeypatch, capsys):
    """The command line runs every command at :func:`evalport_spec.gcpace.paced_gc`'s pace (a
    two-copy ``diff`` is answered before the engine, so the comparison's own pace never applied:
    the collector ran 17 times in that command at 700), and restores Python's on return."""
    from evalport_spec import selfdiff
    from evalport_spec.cli import main

    seen = []
    plain = selfdiff.plain_copies

    def spy(old, new):
        seen.append(gc.get_threshold())
        return plain(old, new)

    monkeypatch.setattr(selfdiff, "plain_copies", spy)
    monkeypatch.setenv("EVALPORT_CACHE_DIR", "off")
    for side in ("a", "b"):
        (tmp_path / side).mkdir()
        (tmp_path / side / "s.json").write_text('{"type": "string"}', encoding="utf-8")
    assert main(["diff", str(tmp_path / "a/s.json"), str(tmp_path / "b/s.json")]) == 0
    assert "class: PATCH" in capsys.readouterr().out
    assert seen == [(GC_YOUNG_THRESHOLD, 10, 10)]
    assert gc.get_threshold() == (700, 10, 10)
