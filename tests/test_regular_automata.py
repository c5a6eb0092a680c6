"""evalport_spec.regular.dfa checked against pyformlang (the oracle): our Hopcroft minimisation
gives pyformlang's number of live states, and our minimal automata and products accept
exactly the words (all words of up to 4 symbols) that pyformlang's automata accept, as do our
unions, differences and complements by their definitions, on random automata. (pyformlang's own ``is_equivalent_to`` is not used: it
answers False for two empty languages when one automaton keeps a dead state.)"""

from __future__ import annotations

from itertools import product as words

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pyformlang.finite_automaton import DeterministicFiniteAutomaton, EpsilonNFA

from evalport_spec.regular import charset as cs
from evalport_spec.regular.dfa import complement, make, product

# A fixed alphabet of 3 classes: [0-9], [a-z], everything else.
CLASSES = (cs.normalize([(0x30, 0x39)]), cs.normalize([(0x61, 0x7A)]),
           cs.complement(cs.normalize([(0x30, 0x39), (0x61, 0x7A)])))
PROBE = ("0", "a", "!")  # one code point of each class


@st.composite
def raw_dfa(draw):
    n = draw(st.integers(1, 7))
    delta = [[draw(st.integers(0, n - 1)) for _ in CLASSES] for _ in range(n)]
    finals = draw(st.sets(st.integers(0, n - 1)))
    return delta, finals


def library(delta, finals) -> DeterministicFiniteAutomaton:
    lib = DeterministicFiniteAutomaton()
    lib.add_start_state(0)
    for q in finals:
        lib.add_final_state(q)
    for q, row in enumerate(delta):
        for k, t in enumerate(row):
            lib.add_transition(q, k, t)
    return lib


WORDS = [w for n in range(5) for w in words(range(len(PROBE)), repeat=n)]


def same(ours, oracle) -> bool:
    """Our DFA accepts the same words as ``oracle`` (a pyformlang automaton whose symbols
    are class numbers, or a predicate on words)."""
    if isinstance(oracle, DeterministicFiniteAutomaton | EpsilonNFA):
        return same(ours, lambda w: oracle.accepts(list(w)))
    accepts = oracle
    return all(ours.accepts("".join(PROBE[k] for k in w)) == accepts(w) for w in WORDS)


def live_states(lib) -> int:
    """States of a pyformlang DFA from which a final state can be reached."""
    table = lib.to_dict()
    live = set(lib.final_states)
    grew = True
    while grew:
        grew = False
        for q, out in table.items():
            if q not in live and any(t in live for t in out.values()):
                live.add(q)
                grew = True
    return len(live)


CFG = settings(max_examples=50, deadline=None, derandomize=True,
               suppress_health_check=list(HealthCheck))


@CFG
@given(raw_dfa())
def test_minimisation_matches_pyformlang(raw):
    delta, finals = raw
    ours = make(CLASSES, delta, finals)
    lib = library(delta, finals)
    assert same(ours, lib)
    if finals and not lib.is_empty():
        dead = sum(1 for q in range(ours.size) if q not in ours.live())
        assert ours.size - dead == live_states(lib.minimize())


@CFG
@given(raw_dfa(), raw_dfa())
def test_product_and_complement_match_pyformlang(r1, r2):
    a, b = make(CLASSES, *r1), make(CLASSES, *r2)
    la, lb = library(*r1), library(*r2)
    both = product(a, b, "and")
    assert same(both, la.get_intersection(lb))
    assert same(product(a, b, "or"), lambda w: la.accepts(list(w)) or lb.accepts(list(w)))
    assert same(product(a, b, "diff"), lambda w: la.accepts(list(w)) and not lb.accepts(list(w)))
    assert same(complement(a), lambda w: not la.accepts(list(w)))
