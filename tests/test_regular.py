"""evalport_spec.regular: hand-worked facts about ECMA-262 patterns as languages.

Every expectation below was worked out by hand from ECMA-262 (22.2) and JSON Schema's
unanchored ``pattern`` (Validation 6.3.3), not by running the code under test.
"""

from __future__ import annotations

import time

import pytest

from evalport_spec.regular import BudgetExceeded, InvalidPattern, Lang, Unsupported

P = Lang.pattern


@pytest.mark.parametrize(("small", "big"), [
    ("^[a-z]+$", "[a-z]"),          # a non-empty all-lower-case string contains a lower-case letter
    ("^a", "a"),                   # starts with a => contains a
    (r"^\d{4}$", "^[0-9]+$"),      # ECMA \d is [0-9]
    ("^abc$", "b"),
    ("^(ab)+$", "^a"),
    ("x$", "x"),
    ("^$", "^[a-z]*$"),
    ("^a{2,3}$", "^a+$"),
    ("^a{3}$", "aa"),
    (r"^\w+$", r"^[A-Za-z0-9_]+$"),  # ECMA \w is ASCII
    ("^.$", "^.{1}$"),
    ("^[^a]$", "^.$|^[\n\r\u2028\u2029]$"),
    (r"^\s$", "^[ \t\n\v\f\r\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]$"),
])
def test_inclusion_holds(small, big):
    assert P(small) <= P(big)


@pytest.mark.parametrize(("small", "big", "witness"), [
    ("a", "^a", "ba"),              # "ba" contains a but does not start with it
    ("[a-z]", "^[a-z]+$", "a0"),     # letters rank before digits
    ("^[0-9]+$", r"^\d{4}$", "0"),
    ("^a+$", "^a{2,3}$", "a"),
    ("", ".", ""),                   # the empty pattern matches everything, "." needs a char
    (r"^[\s\S]$", "^.$", "\n"),      # "." leaves out the line terminators
    ("^.?$", "^.$", ""),
])
def test_inclusion_fails_with_least_witness(small, big, witness):
    assert not P(small) <= P(big)
    assert (P(small) - P(big)).example() == witness


@pytest.mark.parametrize(("a", "b"), [
    ("(a|b)*", "[ab]*"),             # both match the empty string at position 0: every string
    ("^(a|b)*$", "^[ab]*$"),
    ("a*", ""),
    ("^a|^b", "^[ab]"),
    ("^(?:a|ab)(?:c|bcd)(?:d*)$", "^(?:abcd*|acd*|abbcdd*)$"),
    (r"^\d\D$", "^[0-9][^0-9]$"),
    ("^a{0}b$", "^b$"),
    ("^(?<name>x)y$", "^xy$"),
    ("^a+?$", "^a+$"),               # laziness changes no language
    ("^\\u{1F600}$", "^\U0001F600$"),
    ("^\\uD83D\\uDE00$", "^\U0001F600$"),  # a surrogate pair escape is one code point
    ("^\\x41\\u0042\\cJ$", "^AB\n$"),
    ("^[\\b]$", "^\b$"),
    (r"^\/\-\:$", "^/-:$"),
    ("^[a-]$", "^[-a]$"),
    ("^[^]$", r"^[\s\S]$"),          # ECMA: [^] is any code point
    ("[]", "(?!)" if False else "a^"),  # [] matches nothing; a^ never matches either
])
def test_same_language(a, b):
    assert P(a) == P(b)
    assert hash(P(a)) == hash(P(b))


@pytest.mark.parametrize("src", ["a^", "$a", "[]", "^$a", "a$b", "^[^\\s\\S]"])
def test_empty_patterns(src):
    assert P(src).is_empty()
    assert P(src).example() is None


def test_dot_and_line_terminators():
    dot = P(".")
    assert "\n" not in dot and "\r" not in dot and "\u2028" not in dot and "\u2029" not in dot
    assert "\u0085" in dot and "a" in dot
    assert (~dot).examples(2) == ["", "\n"]
    assert "\n" in (~P("^.+$")).examples(10)


def test_anchors_are_input_boundaries_only():
    end = P("^a$")
    assert "a" in end and "a\n" not in end and "\na" not in end
    assert "ba" not in P("^a") and "ba" in P("a$")
    assert P("^") == Lang.any() and P("$") == Lang.any()
    assert P("^^a$$") == P("^a$")


def test_length_counts_code_points_and_composes():
    assert "\U0001F600" in Lang.length(1, 1)  # one code point, two UTF-16 units
    lower = P("^[a-z]*$")
    bounded = lower & Lang.length(2, 3)
    assert bounded.example() == "aa"
    assert bounded <= Lang.length(2, 3) and bounded <= lower
    assert not lower <= Lang.length(0, 10)
    assert (lower - Lang.length(0, 10)).example() == "a" * 11
    assert Lang.length(3, 2).is_empty()
    assert Lang.length(0, 0) == Lang.literal("")
    huge = P("^[a-z]+$") & Lang.length(5, 100_000)
    assert huge.example() == "aaaaa"
    assert max(map(len, huge.examples(5))) == 100_000
    assert P(r"^\d{3}$") <= Lang.length(3, 3)
    assert not P(r"^\d{3}") <= Lang.length(3, 3)


def test_boolean_algebra():
    a, b = P("^a"), P("b$")
    assert (a & b).example() == "ab"
    assert (a | b) == (b | a)
    assert ~~a == a
    assert (a - b) == (a & ~b)
    assert (a | ~a) == Lang.any()
    assert (a & ~a).is_empty()
    assert Lang.nothing() <= a <= Lang.any()
    assert Lang.literal("ab") <= (a & b)
    assert Lang.literal("a\n") <= a and Lang.literal("a\n").example() == "a\n"


def test_example_is_shortest_and_prefers_printable_ascii():
    assert P("^[\u00e9a]$").example() == "a"
    assert P("^[\u00e9\u00e8]$").example() == "\u00e8"
    assert P("^[^a-zA-Z0-9]$").example() == " "
    assert P("x+y").example() == "xy"
    assert P(r"^\d{2}$").example() == "00"
    assert [P("^[ab]{2}$").example() for _ in range(3)] == ["aa"] * 3


def test_examples_where_python_re_would_differ_are_witnesses_now():
    # Both validators read patterns as ECMA-262 (evalport_spec.ecmaregex): "a\n" is outside ^a$
    # for all of them (Python's re alone would match it, $ before a final newline)
    outside = ~P("^a$") & P("^a")
    assert outside.example() == "aa"
    assert "a\n" in outside and "a\n" in outside.examples(20)
    # ECMA's \d is [0-9]: an Arabic-Indic digit is a non-digit for us and both validators
    from evalport_spec.regular.oracles import agree

    non_digits = P("^.$") - P(r"^\d$")
    assert all(len(s) == 1 and not ("0" <= s <= "9") for s in non_digits.examples(5))
    assert "\u0663" in non_digits and agree(("pattern", r"^\d$"), "\u0663", False)


def test_example_skips_strings_the_validators_disagree_on():
    # jsonschema-rs's \b is Unicode-aware, ECMA-262's is ASCII: "aé" matches a\b for the
    # reference pass only, so no verdict on it is a witness
    from evalport_spec.regular.oracles import agree

    assert not agree(("pattern", "a\\b"), "a\u00e9", True)
    assert not agree(("pattern", "a\\b"), "a\u00e9", False)
    assert agree(("pattern", "a\\b"), "a-", True)


def test_examples_cover_boundaries():
    lang = P("^[a-c]{2,4}$")
    got = lang.examples(10)
    assert got[0] == "aa" and "aaaa" in got
    assert len(set(got)) == len(got) <= 10
    assert all(s in lang for s in got)
    everything = Lang.any().examples(6)
    assert everything[:2] == ["", "\n"]
    assert Lang.nothing().examples(5) == []


@pytest.mark.parametrize(("src", "named"), [
    ("(a)\\1", "backreference"),
    ("(?<x>a)\\k<x>", "named backreference"),
    ("(?=a)", "lookahead"),
    ("(?!a)", "negative lookahead"),
    ("(?<=a)b", "lookbehind"),
    ("(?<!a)b", "negative lookbehind"),
    ("a\\b", "word boundary"),
    ("a\\B", "non-word-boundary"),
    ("(?i)a", "inline modifier"),
    ("(?P<x>a)", "(?P"),
    ("\\p{Script=Greek}", "Unicode property escape"),
    ("\\z", "escape \\z"),
])
def test_unsupported_constructs_are_named(src, named):
    with pytest.raises(Unsupported, match=None) as err:
        P(src)
    assert named in str(err.value)
    assert not isinstance(err.value, InvalidPattern)


@pytest.mark.parametrize("src", ["(", "a)", "[a", "*a", "a**", "a{2,1}", "[z-a]", "a{", "\\",
                                 "[\\d-z]", "\\u12", "\\c1", "(?<1a>x)"])
def test_syntax_errors(src):
    with pytest.raises(InvalidPattern):
        P(src)


def test_general_category_escape():
    lu = P("^\\p{Lu}$")
    assert "A" in lu and "\u00c9" in lu and "a" not in lu
    assert P("^\\P{L}$").example() == "0"


@pytest.mark.parametrize("src", [
    "(a|b)*a(a|b){40}",          # 2^41 subsets: the determinisation blows up
    "^(?:[a-z]{1,200}){1,200}$",  # 40,000 NFA copies
])
def test_budget_exhaustion_is_prompt(src):
    start = time.monotonic()
    with pytest.raises(BudgetExceeded, match="budget exceeded"):
        P(src)
    assert time.monotonic() - start < 15


@pytest.mark.parametrize("src", [
    "^(a{1000}){1000}$",            # a million states: refused by counting, before building
    "^((a{100}){100}){100}b$",      # deeper nesting: the count saturates, no big integers
    "^x(?:[0-9]{500}|y){101}$",     # 101 x 501 = 50,601 states: just past the budget
])
def test_size_budget_refuses_big_repetition_counts(src):
    with pytest.raises(BudgetExceeded, match="size budget exceeded.*50000 automaton states"):
        P(src)


def test_size_budget_counts_the_states_the_build_adds():
    from evalport_spec.regular import ecma, nfa

    # ^ x (...){99} $: 3 states between the 4 parts; each of the 99 copies is 1 state plus its
    # body, [0-9]{500} (500 states; "y" adds none): 3 + 99 * 501 = 49,602, under the budget
    assert nfa.expansion_size(ecma.parse("^x(?:[0-9]{500}|y){99}$")) == 49_602
    assert nfa.expansion_size(ecma.parse("^x(?:[0-9]{500}|y){101}$")) == nfa.MAX_NFA_STATES + 1


def test_languages_are_hashable_values():
    memo = {P("^[ab]*$"): 1}
    assert memo[P("^(a|b)*$")] == 1
    assert P("^a$") is P("^a$")  # compiled once, cached by source
    assert len({P("a"), P("a"), P("(?:a)")}) == 1


def test_formats_exact_and_bounded():
    ipv4 = Lang.format("ipv4")
    assert "255.255.255.255" in ipv4 and "256.0.0.1" not in ipv4 and "01.0.0.0" not in ipv4
    under, over = Lang.format_bounds("date")
    assert "2024-02-29" in under and "2023-02-29" not in over and "1900-02-29" not in over
    assert "0000-02-29" in over and "0000-02-29" not in under
    with pytest.raises(Unsupported, match="disagree"):
        Lang.format("date")
    with pytest.raises(Unsupported, match="email"):
        Lang.format("email")
    assert under <= P(r"^\d{4}-\d{2}-\d{2}$")
