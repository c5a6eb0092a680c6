"""Rule behaviour compared by verdicts (gate.behaviour), the corpus it runs on (gate.rulecorpus)
and the rule program protocol (gate.ruleprogram). Expected values are worked out by hand from
the documents below and release 1.3.0's schemas and catalogue."""

from __future__ import annotations

from pathlib import Path

import pytest

from evalport_spec.catalogue import RuleEntry
from evalport_spec.errors import InputError
from evalport_spec.findings import ChangeClass, Finding, Location, Severity
from evalport_spec.gate.behaviour import (
    Side,
    compare_behaviour,
    guard_findings,
    merge_with_classification,
)
from evalport_spec.gate.rulecorpus import Corpus, boundary_variants, locations, without_guard
from evalport_spec.gate.ruleprogram import (
    Program,
    ProgramRun,
    installed_program,
    run_here,
    run_program,
    runs_here,
)
from evalport_spec.spec import SpecRepo

REPO = SpecRepo(Path(__file__).resolve().parents[1])

SUITE = {"version": "1.3.0", "id": "s", "test_cases": [
    {"id": "t1", "input": "ping", "graders": [{"id": "g", "type": "contains", "params": {"substring": "p"}},
                                             {"id": "g", "type": "contains", "params": {"substring": "q"}}]}]}
DUP_CASES = {"version": "1.3.0", "id": "s", "graders": [{"id": "g", "type": "contains", "params": {"substring": "x"}}],
             "test_cases": [{"id": "t", "input": "a", "graders": ["g"]}, {"id": "t", "input": "b", "graders": ["g"]}]}
NOT_A_SUITE = {"id": "s"}  # no test_cases: invalid under the schema whatever the rules say


def side(name: str, digest: str) -> Side:
    return Side(REPO.version(name), Program(Path("/nowhere"), name, digest), name)


def runs(*fired):
    return ProgramRun({"DUPLICATE_ID": "suite"}, list(fired), [])


def test_valid_to_invalid_is_major_with_the_smallest_witness_and_invalid_to_valid_minor():
    corpus = Corpus([("suite", SUITE), ("suite", DUP_CASES), ("suite", NOT_A_SUITE)], ["a", "b", "c"], "k")
    old = runs({}, {"DUPLICATE_ID": ["/test_cases/1/id"]}, {})
    new = runs({"DUPLICATE_ID": ["/test_cases/0/graders/1/id"]}, {}, {"DUPLICATE_ID": ["/x"]})
    by_digest = {"old": old, "new": new}
    found = compare_behaviour(side("1.3.0", "old"), side("1.3.0", "new"), corpus,
                              lambda p: by_digest[p.digest])
    assert [(f.kind, f.code, f.change_class, f.direction) for f in found] == [
        ("rule-behaviour-tightened", "DUPLICATE_ID", ChangeClass.MAJOR, "backward"),
        ("rule-behaviour-loosened", "DUPLICATE_ID", ChangeClass.MINOR, "forward")]
    assert found[0].witness is SUITE and found[1].witness is DUP_CASES  # NOT_A_SUITE is schema-invalid
    assert found[0].extra["violation"] == {"code": "DUPLICATE_ID", "instance_path": "/test_cases/0/graders/1/id"}
    assert found[0].new == Location("spec/releases/1.3.0/rules.json", "/rules/0", found[0].new.line)


def test_rules_not_in_the_catalogue_and_identical_programs_are_not_compared():
    corpus = Corpus([("suite", SUITE)], ["a"], "k")
    fired = ProgramRun({"SELF_PARENT": "suite"}, [{"SELF_PARENT": ["/"]}], [])

    def must_not_run(_):
        raise AssertionError("identical sides need no program run")
    assert compare_behaviour(side("1.3.0", "same"), side("1.3.0", "same"), corpus, must_not_run) == []
    quiet = ProgramRun({}, [{}], [])
    by_digest = {"old": quiet, "new": fired}
    assert compare_behaviour(side("1.3.0", "old"), side("1.3.0", "new"), corpus,
                             lambda p: by_digest[p.digest]) == []  # SELF_PARENT is a resultset rule


def test_a_witnessed_behaviour_finding_replaces_the_classifiers_guess_about_that_rule():
    guess = Finding("rule-added-unwitnessed", "?", ChangeClass.MINOR, Severity.WARNING, code="DUPLICATE_ID")
    other = Finding("rule-reworded", "wording", ChangeClass.PATCH, code="DUPLICATE_ID")
    seen = Finding("rule-behaviour-tightened", "witnessed", ChangeClass.MAJOR, code="DUPLICATE_ID")
    assert merge_with_classification([guess, other], [seen]) == [other, seen]
    proved = Finding("rule-added-breaking", "in-process witness", ChangeClass.MAJOR, code="DUPLICATE_ID")
    assert merge_with_classification([proved], [seen]) == [seen]  # one truth per rule
    # a rule-code finding is what an RFC accepts: always kept; with a witness it is the one truth
    unproven = Finding("rule-implementation-changed", "unproven", ChangeClass.MAJOR, code="DUPLICATE_ID",
                       undecided=True)
    assert merge_with_classification([proved, guess], [unproven]) == [proved, guess, unproven]
    witnessed = Finding("rule-implementation-changed", "seen", ChangeClass.MAJOR, code="DUPLICATE_ID", witness={})
    assert merge_with_classification([proved, guess, other], [witnessed]) == [other, witnessed]


def test_guard_contradicted_when_a_rule_fires_without_any_guard_location():
    without = {"version": "1.3.0", "id": "s", "test_cases": [{"input": "a", "graders": ["nope"]}]}
    with_ref = {"version": "1.3.0", "id": "s", "test_cases": [{"id": "t", "input": "a", "graders": ["nope"]}]}
    corpus = Corpus([("suite", with_ref), ("suite", without)], ["with", "without"], "k")
    run = ProgramRun({"DANGLING_REFERENCE": "suite"},
                     [{"DANGLING_REFERENCE": ["/test_cases/0/graders/0"]}] * 2, [(1, "DUPLICATE_ID", "KeyError: 'x'")])
    v = REPO.version("1.3.0")
    assert guard_findings(v, corpus, run, "x") == [
        f for f in guard_findings(v, corpus, run, "x") if f.kind == "rule-crashed"]  # the guard is a reference
    assert [f.code for f in guard_findings(v, corpus, run, "x")] == ["DUPLICATE_ID"]
    ids_only = ProgramRun({"DUPLICATE_ID": "suite"}, [{}, {"DUPLICATE_ID": ["/test_cases/0/id"]}], [])
    bad = guard_findings(v, corpus, ids_only, "x")
    assert [(f.kind, f.code) for f in bad] == [("rule-guard-contradicted", "DUPLICATE_ID")]
    assert bad[0].witness is without


def test_locations_guard_stripping_and_boundary_variants():
    doc = {"test_cases": [{"id": "a", "graders": ["g", "h"]}, {"id": "b"}], "graders": [{"id": "g"}]}
    assert locations(doc, "/test_cases/*/graders/*") == [("test_cases", 0, "graders", 0),
                                                         ("test_cases", 0, "graders", 1)]
    assert locations(doc, "/graders/*/id") == [("graders", 0, "id")]
    assert locations(doc, "/test_cases/0/id") == [("test_cases", 0, "id")]
    rule = RuleEntry("DANGLING_REFERENCE", "suite", "", ("/test_cases/*/graders/*", "/graders/*/id"), "1.0.0",
                     False, False, guard=("/test_cases/*/graders/*",))
    assert without_guard(doc, rule) == {"test_cases": [{"id": "a", "graders": []}, {"id": "b"}],
                                        "graders": [{"id": "g"}]}
    assert doc["test_cases"][0]["graders"] == ["g", "h"]  # never modified
    variants = list(boundary_variants(doc, rule))
    assert {"test_cases": [{"id": "a", "graders": ["g", "g"]}, {"id": "b"}], "graders": [{"id": "g"}]} in variants
    assert {"test_cases": [{"id": "a", "graders": ["g", "h"]}, {"id": "b"}], "graders": [{"id": "h"}]} in variants
    assert {"test_cases": [{"id": "a", "graders": ["h"]}, {"id": "b"}], "graders": [{"id": "g"}]} in variants
    # an object lacking a member the rule reads gets it, with a value the document holds elsewhere
    reads_id = RuleEntry("X", "suite", "", ("/test_cases/*/id",), "1.0.0", False, False)
    assert {"test_cases": [{"id": "a"}, {"id": "a"}]} in list(boundary_variants({"test_cases": [{"id": "a"}, {}]}, reads_id))


def test_the_installed_rules_answer_in_the_protocol():
    got = run_program(installed_program(), [("suite", DUP_CASES), ("resultset", {"results": 3}), ("suite", [])])
    assert got.fired == [{"DUPLICATE_ID": ["/test_cases/1/id"]}, {}, {}]
    assert got.rules["DUPLICATE_ID"] == "suite" and got.crashed == []


def test_the_running_package_answers_here_as_its_own_process_would():
    # a duplicated test case id fires at the second one; a reference in a suite without
    # graders dangles; the process itself is the oracle for the whole run
    dangling = {"test_cases": [{"id": "t", "graders": ["nope"]}]}
    docs = [("suite", DUP_CASES), ("suite", dangling), ("resultset", {"results": 3}), ("suite", "x")]
    here = run_here(installed_program(), docs)
    assert here == run_program(installed_program(), docs)
    assert here.fired[:3] == [{"DUPLICATE_ID": ["/test_cases/1/id"]},
                              {"DANGLING_REFERENCE": ["/test_cases/0/graders/0"]}, {}]


def test_only_the_package_this_process_runs_runs_here(tmp_path):
    mine = installed_program()
    assert runs_here(mine)
    assert not runs_here(Program(mine.tools, "edited since", "another digest"))
    assert not runs_here(Program(tmp_path, "another tree", mine.digest))
    with pytest.raises(InputError, match="not the package this process runs"):
        run_here(Program(tmp_path, "another tree", mine.digest), [("suite", {})])


def test_a_run_here_follows_a_substituted_rule(monkeypatch):
    from evalport_spec.gate.context import RUNS, GateContext
    from evalport_spec.validation.rules import RULES, Rule
    from evalport_spec.validation.violation import Violation

    ctx = GateContext(REPO)
    try:
        corpus = ctx.corpus()
        before = ctx.run(installed_program())
        assert ctx.run(installed_program()) is before  # the memo answers the second use
        suites = [i for i, (t, _) in enumerate(corpus.documents) if t == "suite"]
        monkeypatch.setitem(RULES, "DUPLICATE_ID", Rule("DUPLICATE_ID", "suite", lambda d: iter(
            [Violation("DUPLICATE_ID", "/always", "always")])))
        after = ctx.run(installed_program())
        assert [before.fired[i].get("DUPLICATE_ID") for i in suites].count(["/always"]) == 0
        assert [after.fired[i].get("DUPLICATE_ID") for i in suites] == [["/always"]] * len(suites)
    finally:
        ctx.close()
        RUNS.clear()


def test_rules_take_their_catalogue_parameters_from_the_request():
    # score 0.3 for 1 success in 3 trials: |0.3 - 1/3| = 0.0333..., over 0.01, under 0.05
    doc = {"results": [{"grader_results": [{"score": 0.3, "trials": 3, "successes": 1}]}]}
    where = "/results/0/grader_results/0/score"
    strict = run_program(installed_program(), [("resultset", doc)], {"RATE_SCORE_MISMATCH": {"tolerance": 0.01}})
    loose = run_program(installed_program(), [("resultset", doc)], {"RATE_SCORE_MISMATCH": {"tolerance": 0.05}})
    unset = run_program(installed_program(), [("resultset", doc)])  # no value: the rule is not run
    assert strict.fired == [{"RATE_SCORE_MISMATCH": [where]}]
    assert loose.fired == [{}] and unset.fired == [{}]
    assert strict.crashed == loose.crashed == unset.crashed == []


def test_a_tree_whose_package_cannot_load_is_an_input_error(tmp_path):
    (tmp_path / "evalport_spec/validation/rules").mkdir(parents=True)
    (tmp_path / "evalport_spec/__init__.py").write_text("raise RuntimeError('broken tree')\n")
    with pytest.raises(InputError, match="cannot run the rule implementations of broken .*RuntimeError: broken tree"):
        run_program(Program(tmp_path, "broken", "d"), [("suite", {})])


def test_behaviour_findings_say_which_side_did_what_where_and_on_which_document():
    """Messages, severities and extras of the three behaviour findings, for DUPLICATE_ID
    (entry 0 of 1.3.0's catalogue, guarded by ``/test_cases/*/id`` and ``/graders/*/id``)."""
    corpus = Corpus([("suite", SUITE), ("suite", DUP_CASES)], ["fixture a.json", "example b.json"], "k")
    v = REPO.version("1.3.0")
    main = Side(v, Program(Path("/nowhere"), "main", "old"), "main")
    branch = Side(v, Program(Path("/nowhere"), "branch", "new"), "this branch")
    by_digest = {"old": runs({}, {"DUPLICATE_ID": ["/test_cases/1/id"]}), "new": runs({"DUPLICATE_ID": [""]}, {})}
    tightened, loosened = compare_behaviour(main, branch, corpus, lambda p: by_digest[p.digest])
    entry = Location("spec/releases/1.3.0/rules.json", "/rules/0", tightened.new.line)
    assert (tightened.message, tightened.severity, tightened.old, tightened.new, tightened.extra) == (
        "DUPLICATE_ID: this branch rejects a document main accepts (DUPLICATE_ID at /; document: fixture a.json)",
        Severity.ERROR, entry, entry,
        {"violation": {"code": "DUPLICATE_ID", "instance_path": ""}, "old": "main", "new": "this branch",
         "compared": 2})
    assert (loosened.message, loosened.severity, loosened.old, loosened.witness, loosened.extra["violation"]) == (
        "DUPLICATE_ID: this branch accepts a document main rejects with DUPLICATE_ID at /test_cases/1/id "
        "(document: example b.json)", Severity.INFO, entry, DUP_CASES,
        {"code": "DUPLICATE_ID", "instance_path": "/test_cases/1/id"})
    # a firing with no guard location in the document, and two crashes of one rule (the first is named)
    no_ids = {"version": "1.3.0", "id": "s", "test_cases": [{"input": "a", "graders": ["g"]}]}
    crashed = ProgramRun({"DUPLICATE_ID": "suite"}, [{}, {"DUPLICATE_ID": [""]}],
                         [(1, "DUPLICATE_ID", "KeyError: 'id'"), (0, "DUPLICATE_ID", "TypeError: x")])
    found = guard_findings(v, Corpus([("suite", SUITE), ("suite", no_ids)], ["a", "generated from 1.3.0"], "k"),
                           crashed, "the working tree's implementation")
    assert [(f.kind, f.message, f.new, f.witness) for f in found] == [
        ("rule-guard-contradicted", "DUPLICATE_ID: the working tree's implementation reports / on a document "
         "with none of its guard locations (/test_cases/*/id, /graders/*/id); the catalogue's guard must name "
         "a location every firing needs (document: generated from 1.3.0)", entry, no_ids),
        ("rule-crashed", "DUPLICATE_ID: the working tree's implementation raised KeyError: 'id' "
         "(rules must read defensively; document: generated from 1.3.0)", entry, no_ids)]


FAKE_RULES = '''
class Rule:
    def __init__(self, document_type, function, parameters=()):
        self.document_type, self.function, self.parameters = document_type, function, parameters


class Violation:
    code, instance_path = "ALIAS", "/a"


def boom(document):
    raise KeyError("id")
    yield


def fires(document):
    yield Violation()


def plain(document):
    yield object()


def longer_than(document, limit):
    if len(document) > limit:
        yield object()


def bare(document):
    yield object()


class Called:
    document_type = "resultset"

    def __call__(self, document):
        yield Violation()


RULES = {"BOOM": Rule("suite", boom), "FIRES": Rule("suite", fires), "PLAIN": Rule("resultset", plain),
         "LONG": Rule("suite", longer_than, ("limit",)), "UNSET": Rule("suite", longer_than, ("limit",)),
         "BARE": bare, "CALLED": Called()}
'''


def test_the_rule_program_protocol_over_a_trees_own_rules(tmp_path):
    """A tree's own registry, run in its process: a violation's own code and location, or the
    rule's code and "" when it has none; a crash reported, not fatal; a rule run with its
    parameter, one missing its parameter not run; a bare function (no document type) never run,
    a callable with a document type run as it is."""
    from evalport_spec.errors import InputError

    rules = tmp_path / "tools/evalport_spec/validation/rules"
    rules.mkdir(parents=True)
    for init in ("evalport_spec", "evalport_spec/validation"):
        (tmp_path / "tools" / init / "__init__.py").write_text("")
    (rules / "__init__.py").write_text(FAKE_RULES)
    got = run_program(Program(tmp_path / "tools", "fake", "d"), [("suite", {"a": 1}), ("resultset", {})],
                      {"LONG": {"limit": 0}})
    assert got.rules == {"BOOM": "suite", "FIRES": "suite", "PLAIN": "resultset", "LONG": "suite",
                         "UNSET": "suite", "BARE": "None", "CALLED": "resultset"}
    assert got.fired == [{"ALIAS": ["/a"], "LONG": [""]}, {"PLAIN": [""], "ALIAS": ["/a"]}]
    assert got.crashed == [(0, "BOOM", "KeyError: 'id'")]
    # an answer that is not the protocol, and a tree without a package of its own
    (rules / "__init__.py").write_text("import os, sys\nsys.stdout.write('nonsense')\nsys.stdout.flush()\nos._exit(0)\n")
    with pytest.raises(InputError) as exc:
        run_program(Program(tmp_path / "tools", "fake", "d"), [("suite", {})])
    assert exc.value.message == (f"the rule implementations of fake ({tmp_path / 'tools'}) did not answer in "
                                 "the rule-program protocol")
    (tmp_path / "empty").mkdir()
    with pytest.raises(InputError, match=r"^the rule implementations of empty \(.*\): the process imported .*, "
                                         r"not the tree's own package$"):
        run_program(Program(tmp_path / "empty", "empty", "d"), [("suite", {})])


def _with(doc, changes):
    """A deep copy of ``doc`` with ``changes`` (``{path tuple: value, or DEL}``) applied."""
    import copy

    out = copy.deepcopy(doc)
    for path, value in changes.items():
        node = out
        for k in path[:-1]:
            node = node[k]
        if value is DEL:
            del node[path[-1]]
        else:
            node[path[-1]] = value
    return out


DEL = object()


def test_boundary_variants_in_order_for_each_kind_of_value():
    """Per location read, in order: removed, nulled, nudged (a boolean or null flipped; a number
    +1, -1 and 0; a string suffixed and emptied; a list emptied and its last item repeated), then
    each other value the rule reads, then values nearly equal to those; then the member set where an object lacks it (the first two
    values read). Written out by hand for one document."""
    doc = {"n": 2, "s": "ab", "f": True, "l": [1], "items": [{"k": None}, {}]}
    rule = RuleEntry("X", "suite", "", ("/n", "/s", "/f", "/l", "/items/*/k"), "1.0.0", False, False)
    k = ("items", 0, "k")
    # nearly equal values of those read (2, "ab", True, [1], None): 2.0, "AB", "ab " (NFD of
    # "ab" is "ab"; booleans, lists and null have none), each where it differs from the value
    expected = [{("n",): v} for v in (DEL, None, 3, 1, 0, "ab", True, [1], None, "AB", "ab ")]
    expected += [{("s",): v} for v in (DEL, None, "ab-x", "", 2, True, [1], None, 2.0, "AB", "ab ")]
    expected += [{("f",): v} for v in (DEL, None, False, 2, "ab", [1], None, 2.0, "AB", "ab ")]
    expected += [{("l",): v} for v in (DEL, None, [], [1, 1], 2, "ab", True, None, 2.0, "AB", "ab ")]
    expected += [{k: v} for v in (DEL, None, True, 2, "ab", True, [1], 2.0, "AB", "ab ")]
    expected += [{("items", 1, "k"): v} for v in (2, "ab")]
    assert list(boundary_variants(doc, rule)) == [_with(doc, c) for c in expected]
    assert doc == {"n": 2, "s": "ab", "f": True, "l": [1], "items": [{"k": None}, {}]}  # never modified
    # at most three matches of one pattern are varied: 3 x (removed, nulled, 3 nudges, 2 others,
    # the 2 others as floats)
    xs = RuleEntry("X", "suite", "", ("/xs/*",), "1.0.0", False, False)
    variants = list(boundary_variants({"xs": [5, 6, 7, 8]}, xs))
    assert len(variants) == 27 and {"xs": [5, 6, 7, 9]} not in variants and {"xs": [6.0, 6, 7, 8]} in variants


def test_guard_locations_are_removed_from_the_last_index_up():
    guarded = RuleEntry("X", "suite", "", (), "1.0.0", False, False, guard=("/a/*", "/c"))
    assert without_guard({"a": [1, 2, 3], "b": 0, "c": 1}, guarded) == {"a": [], "b": 0}
    assert without_guard({"b": 0}, guarded) is None


def test_locations_and_missing_members_follow_json_pointer_escapes():
    from evalport_spec.gate.rulecorpus import parents_missing

    doc = {"a": [{"b": 1}], "m": {"*": 1}, "a~b": [{}], "c/d": {"k": 0}, "g/h": {}, "e": {}}
    assert locations(doc, "/a/0/b") == [("a", 0, "b")]
    assert locations(doc, "/a/1/b") == [] and locations(doc, "/a/x") == []  # past the end; not an index
    assert locations(doc, "/m/*") == []  # `*` matches array indexes only
    assert locations(doc, "no-slash") == []  # not a JSON Pointer
    assert locations(doc, "/c~1d/k") == [("c/d", "k")]
    assert parents_missing(doc, "/a~0b/*/k") == [(("a~b", 0), "k")]
    assert parents_missing(doc, "/c~1d/k") == [] and parents_missing(doc, "/g~1h/k") == [(("g/h",), "k")]
    assert parents_missing(doc, "/e/k") == [(("e",), "k")]
    assert parents_missing(doc, "/a~0b/*") == [] and parents_missing(doc, "") == []
