"""Deferred witnesses of a failure (``compat.fail``): built once, on first read; inside
``probing()`` (the split decision's short search) an empty answer is provisional."""

from __future__ import annotations

from dataclasses import replace

from evalport_spec.compat.fail import Fail, probe_active, probing


def _counted(answers: list[list]) -> tuple[Fail, list[int]]:
    """A failure whose witness maker returns ``answers`` in turn; the list counts its calls."""
    calls = [0]

    def make() -> list:
        calls[0] += 1
        return answers[min(calls[0], len(answers)) - 1]

    f = Fail("type", "m", None, None)
    f.defer(make)
    return f, calls


def test_deferred_witnesses_are_built_once_and_only_when_read():
    f, calls = _counted([[1, 2]])
    assert calls == [0]
    assert f.witness == [1, 2] and f.witness == [1, 2]
    assert calls == [1]


def test_an_empty_answer_under_probing_is_asked_again_outside():
    f, calls = _counted([[], [], ["w"]])
    with probing():
        assert probe_active()
        assert f.witness == []
        assert f.witness == []  # asked again: still provisional
    assert not probe_active()
    assert f.witness == ["w"]  # the full search, outside the probe
    assert f.witness == ["w"] and calls == [3]


def test_witnesses_found_under_probing_are_kept():
    f, calls = _counted([["w"], ["other"]])
    with probing():
        assert f.witness == ["w"]
    assert f.witness == ["w"] and calls == [1]


def test_an_empty_answer_outside_probing_is_final():
    f, calls = _counted([[], ["late"]])
    assert f.witness == [] and f.witness == []
    assert calls == [1]


def test_setting_witnesses_drops_the_deferred_maker():
    f, calls = _counted([["never"]])
    f.witness = ["set"]
    assert f.witness == ["set"] and calls == [0]


def test_absorb_appends_the_other_failures_witnesses_up_to_the_limit():
    f, _ = _counted([[1, 2]])
    g, g_calls = _counted([[3, 4, 5]])
    f.absorb(g)
    assert g_calls == [0]  # nothing built before the merged witnesses are read
    assert f.witness == [1, 2, 3]
    full, _ = _counted([[1, 2, 3]])
    h, h_calls = _counted([[9]])
    full.absorb(h)
    assert full.witness == [1, 2, 3] and h_calls == [0]  # already at the limit: h not searched


def test_a_long_chain_of_absorbed_failures_reads_without_recursion():
    # a shared subschema reached many ways absorbs many failures: reading their witnesses
    # walked one nested closure per absorb (RecursionError past ~1000)
    f, _ = _counted([[]])
    for i in range(5000):
        g, _ = _counted([[i] if i >= 4998 else []])
        f.absorb(g)
    assert f.witness == [4998, 4999]


def test_absorbed_witnesses_read_under_probing_do_not_replace_the_own_full_search():
    # inside a probe the own search answers [] (provisional) and the absorbed one answers:
    # the own full search must still run outside the probe, ahead of the absorbed witnesses
    f, calls = _counted([[], ["own"]])
    g, _ = _counted([["other"]])
    f.absorb(g)
    with probing():
        assert f.witness == ["other"]
    assert f.witness == ["own", "other"] and calls == [2]


def test_a_failure_carries_no_instance_dictionary():
    # a comparison of a large schema holds about a million failures (azure-pipelines.json with
    # one enum value removed): slotted, each is smaller by its dictionary (issue 16)
    f = Fail("type", "m", None, None)
    assert not hasattr(f, "__dict__")
    g = replace(f, item=1)  # dataclasses.replace still works, the lazy key recomputed
    assert g.key() != f.key() and g.item == 1


def test_a_failure_one_level_up_shares_its_key_and_holds_no_empty_containers():
    """A large comparison makes half a million failures seen one level up (azure-pipelines.json
    with one enum value removed): each is the same failure (code, locations, item) at a longer
    instance path, so it shares the key tuple, and it makes no witness cache or absorbed list
    until one is needed; absorbing still collects the others' witnesses after its own."""
    f = Fail("enum", "m", None, None, ("b",), item="x")
    f.witness = [1]
    g = f.one_level_up("a")
    assert g.path == ("a", "b") and (g.code, g.message, g.item) == ("enum", "m", "x")
    assert g.key() is f.key()
    assert g.witness == [] and g.cache is None and g.absorbed == ()
    h = Fail("enum", "m", None, None)
    h.witness = [2]
    g.absorb(h)
    assert g.witness == [2]
