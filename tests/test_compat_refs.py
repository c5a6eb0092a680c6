"""Bad references in a compared set: refused as InputError, never a crash, hang or pass."""

from __future__ import annotations

import json

import pytest

from evalport_spec.compat import classes_of, compare
from evalport_spec.errors import InputError
from evalport_spec.findings import ChangeClass, Finding
from evalport_spec.jsonload import loads
from evalport_spec.schemaset import SchemaSet

GOOD = {"type": "object", "properties": {"a": {"type": "string"}}}


def sset(schema, name="s.json"):
    return SchemaSet.from_loaded({name: loads(json.dumps(schema, indent=1), name)}, "x")


@pytest.mark.parametrize(("ref", "what"), [
    ("https://example.com/x.json", "remote $ref 'https://example.com/x.json'"),
    ("file:///etc/passwd", "unresolvable $ref 'file:///etc/passwd'"),
    ("#/$defs/missing", "unresolvable $ref '#/$defs/missing'"),
])
@pytest.mark.parametrize("side", ["old", "new"])
def test_unresolvable_ref_is_input_error_on_either_side(ref, what, side):
    bad = {"type": "object", "properties": {"a": {"$ref": ref}}}
    old, new = (bad, GOOD) if side == "old" else (GOOD, bad)
    with pytest.raises(InputError) as exc:
        compare(sset(old), sset(new))
    # bad schema dumped with indent=1: "$ref" is on line 5, under /properties/a
    assert str(exc.value).startswith("s.json:5: " + what)
    assert exc.value.pointer == "/properties/a/$ref"


def test_pure_ref_loop_is_input_error():
    bad = {"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}}, "$ref": "#/$defs/a"}
    with pytest.raises(InputError, match="comes back to itself"):
        compare(sset(GOOD), sset(bad))


@pytest.mark.parametrize("bad", [
    {"not": {"$ref": "#"}},                                # 2020-12 Core 9.4.1: never finishes
    {"oneOf": [{"type": "string"}, {"$ref": "#"}]},
    {"$defs": {"a": {"allOf": [{"$ref": "#/$defs/b"}]}, "b": {"anyOf": [{"$ref": "#/$defs/a"}]}},
     "$ref": "#/$defs/a"},
])
def test_in_place_cycle_is_input_error(bad):
    with pytest.raises(InputError, match="never descends into the instance"):
        compare(sset(bad), sset(GOOD))


def test_recursion_through_the_instance_is_compared():
    # not -> $ref '#' below a property descends the instance: a legal recursive schema
    old = {"type": "object", "properties": {"a": {"not": {"$ref": "#"}}}}
    c = compare(sset(old), sset({"type": "object"}))
    assert c.change_class == ChangeClass.MINOR


def test_undecided_counts_major_in_any_direction():
    for direction in ("backward", "forward", "identity"):
        f = Finding("undecided", "could not decide", ChangeClass.MINOR, undecided=True, direction=direction)
        assert classes_of([f])[0] == ChangeClass.MAJOR, direction
    f = Finding("undecided", "could not decide", ChangeClass.MINOR, direction="forward")
    assert classes_of([f])[0] == ChangeClass.MAJOR


def test_every_reference_to_one_broken_target_is_reported_as_written():
    # two references to "#/$defs/gone" and one to "#/$defs/gone/": each target is looked up once,
    # each problem still names its own reference and line (indent=1 dump: lines 5, 8, 11)
    bad = {"type": "object", "properties": {
        "a": {"$ref": "#/$defs/gone"},
        "b": {"$ref": "#/$defs/gone"},
        "c": {"$ref": "#/$defs/gone/"}}}
    problems = sorted(sset(bad).check_refs(), key=lambda p: p.pointer)
    assert [(p.pointer, p.line) for p in problems] == [
        ("/properties/a/$ref", 5), ("/properties/b/$ref", 8), ("/properties/c/$ref", 11)]
    assert [str(p).split(": ", 1)[1].split(":")[0] for p in problems] == [
        "unresolvable $ref '#/$defs/gone'", "unresolvable $ref '#/$defs/gone'", "unresolvable $ref '#/$defs/gone/'"]


def test_one_reference_text_resolves_by_its_own_base():
    # "#/$defs/t" written in resources a and b (different $id) names two different schemas;
    # resolution is shared per (base URI, reference), never per reference text alone
    from evalport_spec.compat.nodes import Node, Side
    s = {"properties": {
        "x": {"$id": "http://e.org/a", "$defs": {"t": {"type": "string"}}, "properties": {"p": {"$ref": "#/$defs/t"}}},
        "y": {"$id": "http://e.org/b", "$defs": {"t": {"type": "integer"}}, "properties": {"p": {"$ref": "#/$defs/t"}}},
        "z": {"properties": {"p": {"$ref": "#/properties/x/$defs/t"}}}}}
    side = Side("old", sset(s))
    at = {k: Node("old", "s.json", f"/properties/{k}/properties/p") for k in "xyz"}
    got = {k: side.resolve_ref(n, side.value(n)["$ref"]).ptr for k, n in at.items()}
    assert got == {"x": "/properties/x/$defs/t", "y": "/properties/y/$defs/t", "z": "/properties/x/$defs/t"}


def test_a_set_without_references_has_no_in_place_cycle():
    # without a $ref every in-place keyword (not, allOf, if/then/else, ...) goes one level down
    # the file, so no walk can come back: nothing to refuse, and nothing walked
    from evalport_spec.compat.refs import in_place_cycle
    deep = {"not": {"allOf": [{"not": {"anyOf": [{"if": {"not": {}}, "then": {"type": "string"}}]}}]}}
    s = sset(deep)
    assert s.references() == [] and in_place_cycle(s) is None
    looped = sset({"$defs": {"d": deep}, "not": {"$ref": "#"}})
    assert [r[1] for r in looped.references()] == ["/not/$ref"]
    assert "never descends into the instance" in str(in_place_cycle(looped))


def test_a_cycle_only_inside_an_unreferenced_definition_is_no_error():
    # the cheap pass (every $ref target) sees the a <-> b cycle; the full search finds that
    # nothing applies $defs/a or $defs/b (a definition is applied only through a $ref), so the
    # set is compared; a reference to one of them makes the same cycle an error
    from evalport_spec.compat.nodes import Side
    from evalport_spec.compat.refs import _cycle_free, in_place_cycle
    defs = {"a": {"allOf": [{"$ref": "#/$defs/b"}]}, "b": {"anyOf": [{"$ref": "#/$defs/a"}]}}
    unused = sset({"$defs": defs, "type": "object", "properties": {"x": {"type": "string"}}})
    assert not _cycle_free(Side("old", unused), unused) and in_place_cycle(unused) is None
    used = sset({"$defs": defs, "type": "object", "properties": {"x": {"$ref": "#/$defs/a"}}})
    assert "never descends into the instance" in str(in_place_cycle(used))
    recursive = sset({"$defs": defs | {"a": {"properties": {"n": {"$ref": "#/$defs/b"}}}}, "$ref": "#/$defs/a"})
    assert _cycle_free(Side("old", recursive), recursive) and in_place_cycle(recursive) is None


def _chain(n: int, last: dict) -> dict:
    """``$ref`` to ``d0``, ``d0 -> d1 -> ... -> d(n-1) -> dn``, ``dn`` being ``last``."""
    defs: dict = {f"d{i}": {"$ref": f"#/$defs/d{i + 1}"} for i in range(n)}
    defs[f"d{n}"] = last
    return {"$ref": "#/$defs/d0", "$defs": defs}


def test_a_long_ref_chain_is_walked_once(monkeypatch):
    """Every reference of a chain of n links is checked for a loop with about n lookups, not
    n^2/2 (fresh user, session 34: 5,000 links took 70 s). Counted, not timed."""
    import referencing._core

    n = 300
    s = sset(_chain(n, {"type": "string"}))
    lookups = []
    real = referencing._core.Resolver.lookup
    monkeypatch.setattr(referencing._core.Resolver, "lookup", lambda self, ref: lookups.append(ref) or real(self, ref))
    assert s.check_refs() == []
    # one lookup for each of the n + 1 references, one for each of the n links (never n^2/2)
    assert len(lookups) <= 2 * (n + 1), len(lookups)


@pytest.mark.parametrize("back_to", [0, 150, 300])
def test_every_reference_into_a_loop_is_reported(back_to):
    """A chain ending in a loop: each of its n + 1 references leads into the loop (the verdict a
    place gets is reused for the places before it, and must be the same as walking each)."""
    n = 300
    s = sset(_chain(n, {"$ref": f"#/$defs/d{back_to}"}))
    problems = s.check_refs()
    assert len(problems) == n + 2  # the root's $ref, d0 ... d(n-1), and dn's own
    assert all("comes back to itself" in p.message for p in problems)


def test_two_chains_sharing_a_tail_keep_their_own_verdicts():
    """One chain ends, another loops; a third joins the ending one: only the loop's references
    are refused."""
    s = sset({"$defs": {"a0": {"$ref": "#/$defs/a1"}, "a1": {"$ref": "#/$defs/a2"}, "a2": {"type": "string"},
                        "b0": {"$ref": "#/$defs/b1"}, "b1": {"$ref": "#/$defs/b0"},
                        "c0": {"$ref": "#/$defs/a1"}},
              "properties": {"x": {"$ref": "#/$defs/a0"}, "y": {"$ref": "#/$defs/c0"}}})
    assert sorted(p.pointer for p in s.check_refs()) == ["/$defs/b0/$ref", "/$defs/b1/$ref"]
