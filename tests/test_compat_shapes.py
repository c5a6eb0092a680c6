"""The classifier on the shapes of issue 11 (and the per-item findings of issue 20).

Each case is a pair of small schemas written for this file, with its class worked out by hand:

* MAJOR: ``lost`` is a document worked out by hand that the old schema accepts and the new one
  rejects; ``test_hand_worked_documents`` confirms it with python-jsonschema and jsonschema-rs
  (format assertion on), and ``test_classifier`` requires the classifier's own witnesses to pass
  the same double check (an undecided finding fails the case: every MAJOR must carry a witness).
* MINOR: the comment gives the inclusion argument (old ⊆ new); ``gained`` is a document the new
  schema accepts and the old one rejects (so the class is not PATCH), confirmed the same way.
* PATCH: the comment gives the argument for equality.

Cases today's engine gets wrong are ``xfail(strict=True)`` with the shape named, so each one
flips to a failure ("XPASS(strict)") the day the engine decides it: then drop the mark.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import jsonschema
import pytest

from compat_corpus.oracle import Validators, classify, witness_of
from compat_corpus.shapes import anyof_groups, anyof_groups_document
from evalport_spec.compat.kinds import INFO_KINDS, KINDS
from evalport_spec.errors import InputError
from evalport_spec.findings import ChangeClass

MAJOR, MINOR, PATCH = ChangeClass.MAJOR, ChangeClass.MINOR, ChangeClass.PATCH
REGISTERED_KINDS = {k for pair in KINDS.values() for k in pair} | set(INFO_KINDS)
"""Every finding kind the classifier documents (compat/kinds.py): an unregistered failure code
would surface as a kind of its own (kind_name's fallback)."""
D3 = "http://json-schema.org/draft-03/schema#"
D4 = "http://json-schema.org/draft-04/schema#"
D7 = "http://json-schema.org/draft-07/schema#"
D19 = "https://json-schema.org/draft/2019-09/schema"
NONE = object()  # "no document given"


@dataclass
class Case:
    id: str
    old: Any
    new: Any
    cls: ChangeClass
    lost: Any = NONE  # MAJOR: valid under old, invalid under new
    gained: Any = NONE  # MINOR: valid under new, invalid under old
    xfail: str | None = None
    kw: dict = field(default_factory=dict)


def _consts(values: Any) -> dict:
    return {"oneOf": [{"const": v} for v in values]}


_NO_STRING = {"type": "string", "minLength": 2, "maxLength": 1, "pattern": "^a"}


def _not_cond(else_: Any) -> dict:
    return {"not": {"oneOf": [{"if": {"const": "a"}, "then": _NO_STRING, "else": else_}]}}


_OBJ_P_OLD = {"type": "object", "properties": {"p": {"$ref": "#"}}}
_ONEOF_NOT_P = {"oneOf": [{"type": "object"}, {"not": {"type": "object", "properties": {"p": {"$ref": "#"}}}}]}
_NOT_TUPLE_STRING_NUMBER = {"not": {"oneOf": [
    {"type": "array", "prefixItems": [{"type": "number"}, {"type": "string"}], "items": False},
    {"oneOf": [{"type": "string"}]}, {"anyOf": [{"type": "number"}]}]}}


def _kinds_tagged(n: int, required: list[str] | None = None) -> dict:
    """A oneOf of ``n`` objects, each tagged by member ``kind`` (constant "k0".."k{n-1}"), with a
    string ``value``; ``required`` replaces the last branch's required list when given."""
    branches = [{"type": "object", "properties": {"kind": {"const": f"k{i}"}, "value": {"type": "string"}},
                 "required": ["kind"]} for i in range(n)]
    if required is not None:
        branches[-1] = {**branches[-1], "required": required}
    return {"oneOf": branches}


def _chain(last: dict, length: int = 200) -> dict:
    """``d0`` -> ``d1`` -> ... -> ``d<length>`` = ``last``: a plain alias chain of ``$ref``s."""
    defs = {f"d{i}": {"$ref": f"#/$defs/d{i + 1}"} for i in range(length)}
    defs[f"d{length}"] = last
    return {"$ref": "#/$defs/d0", "$defs": defs}


def _tree(v: dict, **root: Any) -> dict:
    """A recursive object: ``kids`` is an array of trees (``$ref`` given by ``root``), ``v`` is ``v``."""
    ref = root.pop("ref")
    return {**root, "type": "object",
            "properties": {"kids": {"type": "array", "items": ref}, "v": v}}


def _kinds(cond: dict) -> dict:
    """An object whose ``kind`` chooses its required members: ``x`` when ``kind`` matches
    ``cond``; ``h`` for a kind outside {a, b} (a sibling conditional on the same member)."""
    return {"type": "object", "required": ["kind"], "properties": {"kind": {"type": "string"}},
            "allOf": [{"if": {"required": ["kind"], "properties": {"kind": cond}}, "then": {"required": ["x"]}},
                      {"if": {"required": ["kind"], "properties": {"kind": {"not": {"enum": ["a", "b"]}}}},
                       "then": {"required": ["h"]}}]}


def _keyed(ks: list[str], cond: Any = None, then: Any = None, else_: Any = None) -> dict:
    """An object with a required ``k`` among ``ks`` and, when ``cond`` is given, the conditional
    ``if k matches cond`` then ``then`` (else ``else_``) beside it."""
    s: dict = {"type": "object", "required": ["k"], "properties": {"k": {"enum": ks}}}
    if cond is not None:
        s["allOf"] = [{"if": {"required": ["k"], "properties": {"k": cond}},
                       **({"then": then} if then is not None else {}),
                       **({"else": else_} if else_ is not None else {})}]
    return s


_ITEM = {"type": "object", "required": ["score"], "properties": {"score": {"type": "null"}}}
_NONEMPTY = {"type": "array", "minItems": 1, "items": _ITEM}
_NULL_SCORE = {"required": ["score"], "properties": {"score": {"type": "null"}}}
_NOT_PASSED = {"properties": {"passed": {"const": False}}}


def _flagged(cond: dict) -> dict:
    """An object that always has ``g`` (an array) and ``passed``, with ``passed`` false when
    ``cond`` holds."""
    return {"type": "object", "required": ["g", "passed"],
            "properties": {"g": {"type": "array"}, "passed": {"type": "boolean"}},
            "if": cond, "then": _NOT_PASSED}


_REQ_A, _REQ_B, _REQ_U = {"required": ["a"]}, {"required": ["b"]}, {"required": ["u"]}
_R_OR_S_MISSING = {"anyOf": [{"not": {"required": ["r"]}}, {"not": {"required": ["s"]}}]}


def _secret_or_list(min_items: int) -> dict:
    """A string or ``{secure}`` object (or a non-empty array of them), a boolean, a closed
    ``{notify}`` object, or an array of at least ``min_items`` such objects, as a oneOf: ``{}``
    is both kinds of object, so the branches overlap."""
    return {"$defs": {"secret": {"oneOf": [{"type": "string"}, {"type": "object", "additionalProperties": False,
                                                                   "properties": {"secure": {"type": "string"}}}]},
                      "hook": {"type": "object", "additionalProperties": False,
                               "properties": {"notify": {"type": "boolean"}}},
                      "secrets": {"oneOf": [{"$ref": "#/$defs/secret"},
                                            {"type": "array", "minItems": 1, "items": {"$ref": "#/$defs/secret"}}]}},
            "oneOf": [{"$ref": "#/$defs/secrets"}, {"type": "boolean"}, {"$ref": "#/$defs/hook"},
                      {"type": "array", "minItems": min_items, "items": {"$ref": "#/$defs/hook"}}]}


def _with_auth(kind: str) -> dict:
    """Member ``s`` is a oneOf: an object with ``g``, or one whose ``a`` is an object with
    ``k`` or ``o`` (combined by ``kind``)."""
    auth = {"type": "object", kind: [{"required": ["k"]}, {"required": ["o"]}]}
    return {"type": "object", "properties": {"s": {"oneOf": [
        {"required": ["g"]}, {"required": ["a"], "properties": {"a": auth}}]}}}


def _errors(second: dict) -> dict:
    """One error name or an array of them; the names are a oneOf of nine cases, ``e0``,
    ``second``, ``e2`` ... ``e8`` (more cases than disjointness is split into)."""
    names = [{"const": "e0"}, second, *({"const": f"e{i}"} for i in range(2, 9))]
    return {"$defs": {"error": {"oneOf": names}},
            "oneOf": [{"$ref": "#/$defs/error"}, {"type": "array", "items": {"$ref": "#/$defs/error"}}]}


def _refs_or_roles(item: dict) -> dict:
    """A non-empty array of ``item``s, beside ``$defs/role``: an object whose ``kind`` (one of
    four) requires the member of the same name, through four sibling conditionals (an ``else``
    reaching it hides eight ``if``/``then`` cases behind one conditional of the item)."""
    role = {"type": "object", "required": ["kind"], "properties": {"kind": {"enum": list("abcd")}},
            "allOf": [{"if": {"properties": {"kind": {"const": k}}}, "then": {"required": [k]}} for k in "abcd"]}
    return {"type": "array", "minItems": 1, "items": item, "$defs": {"role": role}}


def _ref_or_role(min_length: int) -> dict:
    """An item: a string of at least ``min_length`` characters (a reference), else a role."""
    return {"if": {"type": "string"}, "then": {"minLength": min_length}, "else": {"$ref": "#/$defs/role"}}


_REF_OR_ROLE_CASES = {"anyOf": [{"type": "string", "minLength": 1},
                                {"not": {"type": "string"}, "$ref": "#/$defs/role"}]}
_ID_AND_N = {"type": "object", "required": ["id"], "properties": {"id": {"type": "string"}, "n": {"type": "integer"}}}

BIG = 2**70

CASES = [
    # ---------------------------------------------------------------- strings and patterns
    # MINOR: a string holding a match of ^a+$ is a run of a's (Python's `$` also allows one
    # trailing "\n"): it matches ^a*$ too, by both regex dialects.
    Case("pattern-relaxed", {"type": "string", "pattern": "^a+$"}, {"type": "string", "pattern": "^a*$"},
         MINOR, gained=""),
    Case("pattern-replaced-narrower", {"type": "string", "pattern": "^[a-z]+$"},
         {"type": "string", "pattern": "^[a-m]+$"}, MAJOR, lost="z"),
    # PATCH: [0-9]+ and [0-9][0-9]* are the same language, under the same anchors.
    Case("pattern-replaced-equal", {"type": "string", "pattern": "^[0-9]+$"},
         {"type": "string", "pattern": "^[0-9][0-9]*$"}, PATCH),
    # MINOR: `pattern` is a search, not a full match: a string containing "ab" contains "b".
    Case("pattern-unanchored-shorter", {"type": "string", "pattern": "ab"}, {"type": "string", "pattern": "b"},
         MINOR, gained="b"),
    # MINOR: an ipv4 address (dotted quad, both validators) is made of digits and dots only.
    Case("pattern-implied-by-format", {"type": "string", "format": "ipv4"},
         {"type": "string", "pattern": "^[0-9.]+$"}, MINOR, gained="1"),
    # MINOR: every old member name starts with "x-", so with "x"; the values are strings on both sides.
    Case("patternProperties-regex-relaxed",
         {"type": "object", "patternProperties": {"^x-": {"type": "string"}}, "additionalProperties": False},
         {"type": "object", "patternProperties": {"^x": {"type": "string"}}, "additionalProperties": False},
         MINOR, gained={"xa": "s"}),
    Case("patternProperties-regex-narrowed",
         {"type": "object", "patternProperties": {"^x": {"type": "string"}}, "additionalProperties": False},
         {"type": "object", "patternProperties": {"^x-": {"type": "string"}}, "additionalProperties": False},
         MAJOR, lost={"xa": "s"}),
    # PATCH: no string starts with both "a" and "b", so at most one branch matches: oneOf = anyOf.
    Case("oneOf-disjoint-by-pattern",
         {"type": "string", "anyOf": [{"pattern": "^a"}, {"pattern": "^b"}]},
         {"type": "string", "oneOf": [{"pattern": "^a"}, {"pattern": "^b"}]}, PATCH),
    Case("string-line-terminator", {"type": "string"}, {"type": "string", "pattern": "^.*$"},
         MAJOR, lost="a\nb"),
    # ---------------------------------------------------------------- not
    # PATCH: every JSON value has exactly one of the six types (integer inside number).
    Case("not-type", {"not": {"type": "string"}},
         {"type": ["null", "boolean", "number", "object", "array"]}, PATCH),
    # MINOR: an old document is a string of length >= 1, so it is not the empty string.
    Case("not-const-on-new-side", {"type": "string", "minLength": 1}, {"not": {"const": ""}},
         MINOR, gained=5),
    # PATCH: an integer not >= 0 is < 0, i.e. <= -1 (integers only).
    Case("not-minimum-as-maximum", {"type": "integer", "not": {"minimum": 0}}, {"type": "integer", "maximum": -1},
         PATCH),
    Case("not-added", {"type": "integer"}, {"type": "integer", "not": {"const": 3}}, MAJOR, lost=3),
    # MAJOR: every value has one of the six types, so the negated schema holds for every
    # non-string and every string of length >= 3: new accepts only strings of length <= 2.
    Case("not-every-type-and-min-length", {"type": "string"},
         {"not": {"type": ["null", "boolean", "number", "string", "array", "object"], "minLength": 3}},
         MAJOR, lost="abc"),
    # MAJOR: old's negated schema fails for a string of 2 or more code points starting with
    # "a" (its inner 'not pattern' fails), so old accepts "abc"; new rejects every string of
    # length >= 2.
    Case("not-of-a-negated-pattern", {"not": {"minLength": 2, "not": {"pattern": "^a"}}},
         {"not": {"type": "string", "minLength": 2}}, MAJOR, lost="abc"),
    # PATCH: the same set written as a string of at most 2 code points.
    Case("not-every-type-and-min-length-as-max-length", {"type": "string", "maxLength": 2},
         {"not": {"type": ["null", "boolean", "number", "string", "array", "object"], "minLength": 3}},
         PATCH),
    # ---------------------------------------------------------------- if/then/else vs cases
    # PATCH: k present: old needs x, new's first branch needs k and x, the second rejects k;
    # k absent: old needs y, new's first branch fails, the second needs y. The branches are
    # disjoint (k present / absent), so oneOf means anyOf.
    Case("if-then-else-to-oneOf",
         {"type": "object", "if": {"required": ["k"]}, "then": {"required": ["x"]}, "else": {"required": ["y"]}},
         {"type": "object", "oneOf": [{"required": ["k", "x"]}, {"properties": {"k": False}, "required": ["y"]}]},
         PATCH),
    # PATCH: the same two sets, the other way round.
    Case("anyOf-to-if-then-else",
         {"type": "object", "anyOf": [{"required": ["k", "x"]}, {"properties": {"k": False}, "required": ["y"]}]},
         {"type": "object", "if": {"required": ["k"]}, "then": {"required": ["x"]}, "else": {"required": ["y"]}},
         PATCH),
    Case("if-then-tightened",
         {"type": "object", "if": {"required": ["k"]}, "then": {"required": ["x"]}},
         {"type": "object", "if": {"required": ["k"]}, "then": {"required": ["x", "z"]}},
         MAJOR, lost={"k": 1, "x": 1}),
    # ---------------------------------------------------------------- arrays
    # MINOR: every old item is an integer >= 5 >= 0 and there are at least 2, so at least two
    # items match `contains`.
    Case("contains-from-items-and-minItems",
         {"type": "array", "items": {"type": "integer", "minimum": 5}, "minItems": 2},
         {"type": "array", "contains": {"type": "integer", "minimum": 0}, "minContains": 2},
         MINOR, gained=[0, 0, "a"]),
    # MINOR: an old array holds at most 3 items, all strings: at most 3 match `contains`
    # (minContains 0 lets an array with none pass).
    Case("maxContains-from-maxItems",
         {"type": "array", "items": {"type": "string"}, "maxItems": 3},
         {"type": "array", "contains": {"type": "string"}, "minContains": 0, "maxContains": 3},
         MINOR, gained=[1, 2, 3, 4]),
    Case("minContains-raised",
         {"type": "array", "contains": {"type": "integer"}, "minContains": 1},
         {"type": "array", "contains": {"type": "integer"}, "minContains": 2}, MAJOR, lost=[1]),
    # PATCH: at most two items (items: false), a string and an integer, never equal.
    Case("uniqueItems-closed-tuple",
         {"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}], "items": False},
         {"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}], "items": False,
          "uniqueItems": True},
         PATCH),
    # PATCH: three or more booleans always repeat one (two values): old accepts nothing, as false does.
    Case("uniqueItems-finite-domain-empty",
         {"type": "array", "items": {"type": "boolean"}, "minItems": 3, "uniqueItems": True}, False,
         PATCH),
    Case("uniqueItems-finite-domain-major",
         {"type": "array", "items": {"enum": ["a", "b"]}, "minItems": 2, "maxItems": 2},
         {"type": "array", "items": {"enum": ["a", "b"]}, "minItems": 2, "maxItems": 2, "uniqueItems": True},
         MAJOR, lost=["a", "a"]),
    # PATCH: items matched by `contains` are evaluated (2020-12), unevaluatedItems: false rejects
    # every other item, so: at least one item, every item an integer.
    Case("unevaluatedItems-beside-contains",
         {"type": "array", "contains": {"type": "integer"}, "unevaluatedItems": False},
         {"type": "array", "items": {"type": "integer"}, "minItems": 1},
         PATCH),
    # ---------------------------------------------------------------- finite domains
    # MINOR: the old schema accepts exactly {"a": 1, "b": "x"} and {"a": 2, "b": "x"} (1.0 is 1),
    # both in the new enum.
    Case("closed-object-of-consts-vs-enum",
         {"type": "object", "properties": {"a": {"enum": [1, 2]}, "b": {"const": "x"}},
          "required": ["a", "b"], "additionalProperties": False},
         {"enum": [{"a": 1, "b": "x"}, {"a": 2, "b": "x"}, {"a": 3, "b": "x"}]},
         MINOR, gained={"a": 3, "b": "x"}),
    # ---------------------------------------------------------------- dynamic references
    # MINOR: with one dynamic anchor in the set, "$dynamicRef": "#node" is the root (like "#"):
    # a tree of integer v's is a tree of number v's.
    Case("dynamicRef-single-anchor-widened",
         _tree({"type": "integer"}, ref={"$dynamicRef": "#node"}, **{"$dynamicAnchor": "node"}),
         _tree({"type": "number"}, ref={"$dynamicRef": "#node"}, **{"$dynamicAnchor": "node"}),
         MINOR, gained={"v": 0.5}),
    Case("dynamicRef-single-anchor-narrowed",
         _tree({"type": "number"}, ref={"$dynamicRef": "#node"}, **{"$dynamicAnchor": "node"}),
         _tree({"type": "integer"}, ref={"$dynamicRef": "#node"}, **{"$dynamicAnchor": "node"}),
         MAJOR, lost={"kids": [{"v": 0.5}]}),
    # MINOR: 2019-09 "$recursiveRef": "#" with "$recursiveAnchor": true at the root only is "#".
    Case("recursiveRef-widened",
         _tree({"type": "integer"}, ref={"$recursiveRef": "#"}, **{"$schema": D19, "$recursiveAnchor": True}),
         _tree({"type": "number"}, ref={"$recursiveRef": "#"}, **{"$schema": D19, "$recursiveAnchor": True}),
         MINOR, gained={"v": 0.5}),
    # ---------------------------------------------------------------- propertyNames
    # MINOR: dropping propertyNames only lifts a restriction.
    Case("propertyNames-removed", {"type": "object", "propertyNames": {"maxLength": 3}}, {"type": "object"},
         MINOR, gained={"abcd": 1}),
    Case("propertyNames-added", {"type": "object"}, {"type": "object", "propertyNames": {"maxLength": 3}},
         MAJOR, lost={"abcd": 1}),
    # MINOR: names of one or more lower-case letters are names of any number of them.
    Case("propertyNames-pattern-relaxed",
         {"type": "object", "propertyNames": {"pattern": "^[a-z]+$"}},
         {"type": "object", "propertyNames": {"pattern": "^[a-z]*$"}}, MINOR, gained={"": 1}),
    # ---------------------------------------------------------------- combinator blow-up
    # MINOR: the eight groups are the same conjuncts on both sides; the only other change widens
    # n's maximum. Small budgets (cases, searched documents): identical groups must cancel before
    # any product is formed, and a proof needs no search.
    Case("eight-identical-anyOf-groups", anyof_groups(8, 10), anyof_groups(8, 20), MINOR,
         gained=anyof_groups_document(8, 15),
         kw={"max_cases": 100, "search_budget": 5}),
    # ---------------------------------------------------------------- draft-04 integers
    # MINOR: a draft-04 integer (no fraction part written) is a number and a multiple of 1;
    # 1.0 is not a draft-04 integer, and is a multiple of 1.
    Case("draft04-integer-to-multipleOf-1", {"$schema": D4, "type": "integer"},
         {"$schema": D4, "type": "number", "multipleOf": 1}, MINOR, gained=1.0),
    Case("draft04-multipleOf-1-to-integer", {"$schema": D4, "type": "number", "multipleOf": 1},
         {"$schema": D4, "type": "integer"}, MAJOR, lost=2.0),
    Case("draft04-two-as-float-lost", {"$schema": D4, "type": "number", "minimum": 2, "maximum": 2},
         {"$schema": D4, "type": "integer"}, MAJOR, lost=2.0),
    # PATCH: in 2020-12 an integer is any number with a zero fractional part, i.e. a multiple of 1.
    Case("2020-integer-is-multipleOf-1", {"type": "integer"}, {"type": "number", "multipleOf": 1}, PATCH),
    # ---------------------------------------------------------------- unsound verdicts found
    Case("anyOf-to-oneOf-overlapping-objects",
         {"type": "object", "anyOf": [{"required": ["a"]}, {"required": ["b"]}]},
         {"type": "object", "oneOf": [{"required": ["a"]}, {"required": ["b"]}]}, MAJOR, lost={"a": 1, "b": 1}),
    Case("anyOf-to-oneOf-overlapping-patterns",
         {"type": "string", "anyOf": [{"pattern": "^ab"}, {"pattern": "cd$"}]},
         {"type": "string", "oneOf": [{"pattern": "^ab"}, {"pattern": "cd$"}]}, MAJOR, lost="abcd"),
    Case("anyOf-to-oneOf-overlapping-numbers", {"anyOf": [{"type": "integer"}, {"minimum": 0}]},
         {"oneOf": [{"type": "integer"}, {"minimum": 0}]}, MAJOR, lost=5),
    Case("patternProperties-hides-tightened-additionalProperties",
         {"type": "object", "patternProperties": {"^x-": {"type": "string"}}, "additionalProperties": {"type": "string"}},
         {"type": "object", "patternProperties": {"^x-": {"type": "string"}},
          "additionalProperties": {"type": "string", "maxLength": 3}}, MAJOR, lost={"a": "abcd"}),
    Case("patternProperties-hides-new-additionalProperties",
         {"type": "object", "patternProperties": {"^x-": {"type": "string"}}},
         {"type": "object", "patternProperties": {"^x-": {"type": "string"}}, "additionalProperties": False},
         MAJOR, lost={"a": 1}),
    Case("patternProperties-sample-is-a-declared-name",
         {"type": "object", "properties": {"a": {}}, "patternProperties": {"^a": {"type": "string"}}},
         {"type": "object", "properties": {"a": {}}, "patternProperties": {"^a": {"type": "string", "maxLength": 2}}},
         MAJOR, lost={"ab": "xyz"}),
    # old: T = object {n: T, v: integer}; new: anyOf [U1, U2], U1 = {n: U2, v <= 5}, U2 = {n: U1}.
    # {"v": 6, "n": {"v": 6}}: U1 fails on v, U2 fails on n's v (n is checked by U1).
    Case("coinductive-memo-stale",
         {"$ref": "#/$defs/T", "$defs": {"T": {"type": "object", "properties": {
             "n": {"$ref": "#/$defs/T"}, "v": {"type": "integer"}}}}},
         {"anyOf": [{"$ref": "#/$defs/U1"}, {"$ref": "#/$defs/U2"}], "$defs": {
             "U1": {"type": "object", "properties": {"n": {"$ref": "#/$defs/U2"},
                                                     "v": {"type": "integer", "maximum": 5}}},
             "U2": {"type": "object", "properties": {"n": {"$ref": "#/$defs/U1"}}}}},
         MAJOR, lost={"v": 6, "n": {"v": 6}}),
    Case("2020-additionalItems-is-not-a-keyword", {"type": "array"},
         {"type": "array", "prefixItems": [{}], "additionalItems": {}, "unevaluatedItems": False},
         MAJOR, lost=[1, 2]),
    Case("2019-prefixItems-is-not-a-keyword", {"$schema": D19, "type": "array", "maxItems": 2},
         {"$schema": D19, "type": "array", "prefixItems": [{}, {}], "unevaluatedItems": False},
         MAJOR, lost=[1]),
    # MINOR: every multiple of 1/2 is a multiple of 1/4 (exact in binary floating point too).
    Case("multipleOf-halved", {"type": "number", "multipleOf": 0.5}, {"type": "number", "multipleOf": 0.25},
         MINOR, gained=0.25),
    Case("multipleOf-doubled", {"type": "number", "multipleOf": 0.25}, {"type": "number", "multipleOf": 0.5},
         MAJOR, lost=0.25),
    Case("const-beyond-64-bits", {"const": BIG}, {"const": BIG + 1}, MAJOR, lost=BIG),
    # ---------------------------------------------------------------- valid schemas refused
    Case("ref-to-metaschema",
         {"type": "object", "properties": {"s": {"$ref": "https://json-schema.org/draft/2020-12/schema"}}},
         {"type": "object", "properties": {"s": {"type": "object"}}}, MAJOR, lost={"s": True}),
    # MINOR: "tree" resolves against the draft-04 root id to the root itself: integer v's -> numbers.
    Case("draft04-root-id-base-uri",
         _tree({"type": "integer"}, ref={"$ref": "tree"}, **{"$schema": D4, "id": "http://example.com/tree"}),
         _tree({"type": "number"}, ref={"$ref": "tree"}, **{"$schema": D4, "id": "http://example.com/tree"}),
         MINOR, gained={"kids": [{"v": 0.5}]}),
    # MINOR: {} accepts everything, so {"not": {}} accepts nothing.
    Case("draft04-not-empty", {"$schema": D4, "not": {}}, {"$schema": D4, "type": "string"}, MINOR, gained="a"),
    Case("unreached-self-referencing-not",
         {"type": "string", "$defs": {"bad": {"not": {"$ref": "#/$defs/bad"}}}},
         {"type": "string", "minLength": 1, "$defs": {"bad": {"not": {"$ref": "#/$defs/bad"}}}},
         MAJOR, lost=""),
    Case("alias-chain-of-200-defs", _chain({"type": "object"}), _chain({"type": "object", "required": ["a"]}),
         MAJOR, lost={}),
    # ---------------------------------------------------------------- edits of an `if` condition
    # MAJOR: a second value in the condition makes `then` apply to kind "b", which the old `if`
    # let through (and the sibling conditional, for kinds outside {a, b}, does not constrain).
    Case("if-enum-added-in-condition", _kinds({"const": "a"}), _kinds({"enum": ["a", "b"]}), MAJOR, lost={"kind": "b"}),
    # MINOR: the condition now also needs a date, so `then` applies to fewer documents (no
    # `else`): a kind that is not a date no longer needs `x`.
    Case("if-format-added-in-condition", _kinds({"type": "string"}), _kinds({"type": "string", "format": "date"}),
         MINOR, gained={"kind": "c", "h": 1}),
    # PATCH: `g` is required by the object itself, so `required: [g]` in the condition changes nothing.
    Case("if-redundant-required-removed", _flagged({"required": ["g"], "properties": {"g": _NONEMPTY}}),
         _flagged({"properties": {"g": _NONEMPTY}}), PATCH),
    # PATCH: every item already matches, and there is at least one, so `contains` adds nothing.
    Case("if-redundant-contains-removed", _flagged({"properties": {"g": {**_NONEMPTY, "contains": _ITEM}}}),
         _flagged({"properties": {"g": _NONEMPTY}}), PATCH),
    # PATCH: if/then is the oneOf of its two disjoint cases (condition and then; not the condition).
    Case("if-then-as-oneOf-of-cases", {"if": _NULL_SCORE, "then": _NOT_PASSED},
         {"oneOf": [{"allOf": [_NULL_SCORE, _NOT_PASSED]}, {"not": _NULL_SCORE}]}, PATCH),
    # MAJOR: an item that is a string now needs 3 characters, not 1: ["ab"] is lost. The old
    # side's conditionals (the item's, and the role's four behind its else) must not be split
    # into cases and searched for witnesses one by one (issue 11: timeouts of testcase.json).
    Case("if-then-tightened-beside-conditional-else", _refs_or_roles(_ref_or_role(1)),
         _refs_or_roles(_ref_or_role(3)), MAJOR, lost=["ab"]),
    # PATCH: the item's if/then/else as the anyOf of its cases, both ways: a string item has
    # the then (minLength 1) on both sides, and no other branch (not a string); any other item
    # is a role on both sides (the first branch needs a string).
    Case("if-then-else-item-to-anyOf-of-cases", _refs_or_roles(_ref_or_role(1)), _refs_or_roles(_REF_OR_ROLE_CASES),
         PATCH),
    Case("anyOf-of-cases-item-to-if-then-else", _refs_or_roles(_REF_OR_ROLE_CASES), _refs_or_roles(_ref_or_role(1)),
         PATCH),
    # ---------------------------------------------------------------- member counts
    # MAJOR: any object of three members is lost (the witness needs more members than the
    # sampler's usual objects have).
    Case("maxProperties-lowered", {"type": "object", "maxProperties": 3}, {"type": "object", "maxProperties": 2},
         MAJOR, lost={"a": 1, "b": 2, "c": 3}),
    # MAJOR: a bound where there was none: the two declared members and one undeclared one
    # (additionalProperties is open) make three, one more than the new bound.
    Case("maxProperties-added-beside-declared-members", _ID_AND_N, {**_ID_AND_N, "maxProperties": 2}, MAJOR,
         lost={"id": "a", "n": 1, "x": 0}),
    # ---------------------------------------------------------------- oneOf cases, exactly one branch
    # PATCH: oneOf [X, Y] holds when X holds and Y fails, or X fails and Y holds: that is
    # "if X then not Y else Y". Here: exactly one of a, b present, on both sides.
    Case("oneOf-of-overlapping-cases-to-if", {"type": "object", "oneOf": [_REQ_A, _REQ_B]},
         {"type": "object", "if": _REQ_A, "then": {"not": _REQ_B}, "else": _REQ_B}, PATCH),
    # PATCH: the same rewrite with a group inside the condition (X = r or s missing, Y = u
    # missing); `then` is not not (u present), i.e. not Y.
    Case("oneOf-with-a-group-to-if", {"type": "object", "oneOf": [_R_OR_S_MISSING, {"not": _REQ_U}]},
         {"type": "object", "if": _R_OR_S_MISSING, "then": {"not": {"not": _REQ_U}}, "else": {"not": _REQ_U}},
         PATCH),
    # MINOR: an old document passes exactly one old branch. Branch 3 (a non-empty array of
    # closed objects) now also allows []: an old branch-3 document still fails branch 0 (which
    # is unchanged) and is no boolean or object; an old branch 0-2 document is no [] (branch 0
    # needs a non-empty array), so it still fails branch 3. [] itself is new (only branch 3).
    Case("oneOf-branch-loosened-beside-overlapping-branch", _secret_or_list(1), _secret_or_list(0), MINOR,
         gained=[]),
    # MAJOR: a oneOf branch's member turns anyOf into oneOf: an object with both k and o passed
    # the second branch (and not the first, no g) and now passes neither; the classifier must
    # also show that an old document passing the first branch cannot pass the new second one.
    Case("anyOf-to-oneOf-inside-a-oneOf-branch", _with_auth("anyOf"), _with_auth("oneOf"), MAJOR,
         lost={"s": {"a": {"k": 1, "o": 1}}}),
    # MINOR: one case of a oneOf of nine constants (itself a oneOf branch) gains a value no
    # other case has; an old document is one old constant or an array of them, still exactly
    # one case (a string is no array). "c" is new.
    Case("oneOf-constant-widened-to-enum", _errors({"const": "e1"}), _errors({"enum": ["e1", "c"]}), MINOR,
         gained="c"),
    # A oneOf of sixty constants (an enum written with a description per value): each old
    # document is exactly one constant. MINOR: a new constant "x" no other branch has.
    Case("oneOf-of-constants-one-added", _consts(range(60)), _consts([*range(60), "x"]), MINOR, gained="x"),
    # MAJOR: the last branch now also demands a string, so 59 (a number) matches no branch.
    Case("oneOf-of-constants-last-narrowed", _consts(range(60)),
         {"oneOf": [{"const": i} for i in range(59)] + [{"const": 59, "type": "string"}]}, MAJOR, lost=59),
    # MAJOR: 7 written twice: it matches two branches, so it fails a oneOf.
    Case("oneOf-of-constants-one-repeated", _consts(range(60)), _consts([*range(60), 7]), MAJOR, lost=7),
    # MAJOR: a oneOf with a branch that accepts nothing (false, {"not": {}}) is the other
    # branch alone; 1 is lost. The case of branch 1 holds "not false": true for every value.
    Case("oneOf-beside-false-enum-narrowed", {"oneOf": [False, {"enum": [1, 2]}]}, {"enum": [2]}, MAJOR, lost=1),
    Case("oneOf-beside-not-empty-enum-narrowed", {"oneOf": [{"not": {}}, {"enum": [1, 2]}]}, {"enum": [2]}, MAJOR,
         lost=1),
    # PATCH: the same branches in reverse order (oneOf is order-free).
    Case("oneOf-of-constants-reversed", _consts(range(60)), _consts(range(59, -1, -1)), PATCH),
    # PATCH: each constant respelled (1.0 is 1 in JSON Schema), a description added, order reversed.
    Case("oneOf-of-constants-respelled", _consts(range(40)),
         {"oneOf": [{"const": float(i), "description": f"value {i}"} for i in range(39, -1, -1)]}, PATCH),
    # MAJOR: a branch that is no constant joins the constants: "a1" (and "a10".."a19") now match
    # two branches. Only the constants' own values are indexed; this branch must still be met.
    Case("oneOf-of-constants-pattern-branch-added", _consts([f"a{i}" for i in range(30)]),
         {"oneOf": [{"const": f"a{i}"} for i in range(30)] + [{"type": "string", "pattern": "^a1"}]},
         MAJOR, lost="a1"),
    # MAJOR: a type-only branch beside the constants: 5 was an integer matching that branch
    # alone; with 5 also a constant it matches two.
    Case("oneOf-of-constants-and-integers-five-added", {"oneOf": [*_consts("abcdefghij")["oneOf"], {"type": "integer"}]},
         {"oneOf": [*_consts("abcdefghij")["oneOf"], {"type": "integer"}, {"const": 5}]}, MAJOR, lost=5),
    # MAJOR: a oneOf of two-value enums; the first gains 2, which the second branch holds too.
    # MAJOR (property test): old accepts what matches none (or two) of a two-item tuple, a string
    # and a number, so every boolean; new rejects booleans. The engine once proved old's side of a
    # case empty by assuming the very pair it was comparing (an unguarded cycle): PATCH by its rules.
    Case("not-of-a-oneOf-to-not-boolean", _NOT_TUPLE_STRING_NUMBER, {"not": {"oneOf": [{"type": "boolean"}]}}, MAJOR,
         lost=True),
    # MINOR: new's tuple (an integer up to 2, nothing after it) lies inside old's, so new rejects
    # fewer arrays, and strings (rejected by old) are accepted by new.
    Case("not-of-a-oneOf-to-not-of-a-narrower-oneOf", _NOT_TUPLE_STRING_NUMBER,
         {"not": {"oneOf": [{"type": "array", "prefixItems": [{"type": "integer", "maximum": 2}, False], "items": False},
                            {"allOf": [True, {"type": "number"}]}]}}, MINOR, gained="s"),
    # Guarded co-induction in a disjointness proved through a negation. Old: objects whose member
    # "p" (when present) is again such an object. New: oneOf [object, not (object whose "p" is
    # again new)], which is every non-object and the objects whose "p" is new. Old ⊆ new needs
    # old disjoint from the second branch, i.e. old ∧ object ⊆ (object whose "p" is new): true
    # by assuming old ⊆ new for the member "p", one level down (a guarded cycle, a proof by
    # induction on the document's depth). MINOR: 1 is gained; the reverse loses it.
    Case("guarded-cycle-through-a-member-in-a-negation", _OBJ_P_OLD, _ONEOF_NOT_P, MINOR, gained=1),
    Case("guarded-cycle-through-a-member-in-a-negation-reversed", _ONEOF_NOT_P, _OBJ_P_OLD, MAJOR, lost=1),
    # MINOR (random negation-heavy pair): old's oneOf branch is 1 only ("a" goes to a then no
    # string satisfies, minLength 2 with maxLength 1), so old is everything but 1; new's branch
    # accepts nothing (its else is that empty string language too), so new is everything. The
    # else case's strings (an empty language) lie inside the if's const "a": once an undecided
    # MAJOR without a witness, now proved (values-cover-language).
    Case("not-of-a-conditional-whose-else-accepts-no-string", _not_cond({"const": 1}),
         _not_cond(_NO_STRING), MINOR, gained=1),
    # A oneOf of forty objects told apart by a "kind" constant (OpenAPI's discriminator): each case
    # is its own branch (the others are disjoint by their tags, so no negation of theirs is
    # split). MAJOR: the last now also requires "value", so {"kind": "k39"} matches no branch.
    Case("oneOf-of-tagged-objects-last-narrowed", _kinds_tagged(40),
         _kinds_tagged(40, required=["kind", "value"]), MAJOR, lost={"kind": "k39"}),
    # MINOR: a forty-first kind.
    Case("oneOf-of-tagged-objects-one-added", _kinds_tagged(40), _kinds_tagged(41), MINOR, gained={"kind": "k40"}),
    # PATCH: the same branches in reverse order.
    Case("oneOf-of-tagged-objects-reversed", _kinds_tagged(40),
         {"oneOf": _kinds_tagged(40)["oneOf"][::-1]}, PATCH),
    Case("oneOf-of-enums-one-widened-into-the-next", {"oneOf": [{"enum": [2 * i, 2 * i + 1]} for i in range(20)]},
         {"oneOf": [{"enum": [0, 1, 2]}] + [{"enum": [2 * i, 2 * i + 1]} for i in range(1, 20)]}, MAJOR, lost=2),
    # PATCH: every old document has k "a", so the new if (k "b") never holds and its then (z
    # required, which the old side does not imply) never applies: the same documents.
    Case("conditional-added-whose-if-old-never-meets", _keyed(["a"]), _keyed(["a"], {"const": "b"}, {"required": ["z"]}),
         PATCH),
    # MAJOR: k may be "b" on the old side, and then the new then requires z: {"k": "b"} is lost.
    Case("conditional-added-whose-if-old-meets", _keyed(["a", "b"]),
         _keyed(["a", "b"], {"const": "b"}, {"required": ["z"]}), MAJOR, lost={"k": "b"}),
    # PATCH: every old document has k "a", so the new if always holds and its else (z required)
    # never applies: the same documents.
    Case("conditional-added-whose-else-old-never-meets", _keyed(["a"]),
         _keyed(["a"], {"const": "a"}, True, {"required": ["z"]}), PATCH),
    # MAJOR: k "b" fails the new if, and the else requires z: {"k": "b"} is lost.
    Case("conditional-added-whose-else-old-meets", _keyed(["a", "b"]),
         _keyed(["a", "b"], {"const": "a"}, True, {"required": ["z"]}), MAJOR, lost={"k": "b"}),
    # PATCH: "duration" is not a draft-07 format: both validators treat it as an annotation there.
    Case("draft07-unknown-format", {"$schema": D7, "type": "string"},
         {"$schema": D7, "type": "string", "format": "duration"}, PATCH),
    # ---------------------------------------------------------------- enums written other ways
    # PATCH: 2 is in both oneOf branches, so no value of old matches exactly one branch but 1
    # and 3: old is the enum [1, 3] (both directions: the same documents).
    Case("oneof-of-overlapping-enums-is-its-enum", {"oneOf": [{"enum": [1, 2]}, {"enum": [2, 3]}]},
         {"enum": [1, 3]}, PATCH),
    # PATCH: keywords no validator reads ("x-doc", "ignoreCase", as azure-pipelines.json writes
    # them) assert nothing: an anyOf of such annotated constants is the enum of their values.
    Case("anyof-of-annotated-consts-is-an-enum",
         {"anyOf": [{"const": "a", "x-doc": "first", "description": "A"}, {"enum": ["b", "c"], "ignoreCase": "value"}]},
         {"enum": ["a", "b", "c"]}, PATCH),
    # PATCH: "abc" is longer than the old maxLength (3 code points > 2): never an old document.
    Case("enum-cut-by-its-own-maxLength", {"enum": ["ab", "abc", 7], "maxLength": 2}, {"enum": ["ab", 7]}, PATCH),
    # MAJOR: both PowerShell values match the old pattern; the new enum keeps one.
    Case("enum-and-pattern-narrowed-by-a-value",
         {"type": "string", "enum": ["PowerShell@2", "PowerShell@1", "Bash@3"], "pattern": "^PowerShell@"},
         {"type": "string", "enum": ["PowerShell@2"]}, MAJOR, lost="PowerShell@1"),
    # PATCH: in ECMA-262, a\b needs a word boundary after the a: "a b" has one, "ab" not (a
    # pattern with \b, which jsonschema-rs reads otherwise, is validated, never read off).
    Case("enum-with-a-word-boundary-pattern", {"enum": ["a b", "ab"], "pattern": "a\\b"}, {"enum": ["a b"]},
         PATCH),
]

BY_ID = {c.id: c for c in CASES}
assert len(BY_ID) == len(CASES), "case ids must be unique"


def _params(cases: list[Case], with_marks: bool):
    return [pytest.param(c, id=c.id, marks=[pytest.mark.xfail(strict=True, reason=c.xfail)]
                         if with_marks and c.xfail else []) for c in cases]


@pytest.mark.parametrize("case", _params(CASES, with_marks=False))
def test_hand_worked_documents(case: Case):
    """The hand-worked documents say what they claim, by both validators (checks this file,
    not the engine: it must pass whatever the engine does)."""
    vo, vn = Validators(case.old, format_assertion=True), Validators(case.new, format_assertion=True)
    assert not vo.errors and not vn.errors, vo.errors + vn.errors
    if case.cls == MAJOR:
        assert case.lost is not NONE
        assert (vo.py(case.lost), vo.rs(case.lost)) == (True, True)
        assert (vn.py(case.lost), vn.rs(case.lost)) == (False, False)
    if case.cls == MINOR:
        assert case.gained is not NONE
        assert (vn.py(case.gained), vn.rs(case.gained)) == (True, True)
        assert (vo.py(case.gained), vo.rs(case.gained)) == (False, False)


def assert_witnessed(result, old: Any, new: Any) -> None:
    """Every backward MAJOR finding is decided and its witness is valid under old and invalid
    under new by both validators."""
    vo, vn = Validators(old), Validators(new)
    majors = [f for f in result.findings if f.direction == "backward" and f.change_class == MAJOR]
    assert majors
    for f in majors:
        assert not f.undecided, f"{f.kind}: undecided: {f.extra.get('reason')}"
        w = witness_of(f)
        assert w is not None, f"{f.kind}: no witness"
        assert (vo.py(w[0]), vo.rs(w[0])) == (True, True), f"{f.kind}: witness {w[0]!r} not valid under old"
        assert (vn.py(w[0]), vn.rs(w[0])) == (False, False), f"{f.kind}: witness {w[0]!r} not invalid under new"


@pytest.mark.filterwarnings("ignore:The recursion limit will not be reset")
@pytest.mark.parametrize("case", _params(CASES, with_marks=True))
def test_classifier(case: Case):
    """``compat.compare`` gives the hand-worked class; a MAJOR with double-checked witnesses."""
    result = classify(case.old, case.new, **case.kw)
    assert result.change_class == case.cls, [(f.kind, f.extra.get("reason")) for f in result.findings]
    # the engine's own rules decide: the search that backs them up finds nothing they missed
    assert "counter-example-found" not in {f.kind for f in result.findings}
    assert {f.kind for f in result.findings} <= REGISTERED_KINDS
    if case.cls == MAJOR:
        assert_witnessed(result, case.old, case.new)
    elif case.cls == PATCH:
        assert result.forward_class == PATCH, [f.kind for f in result.findings]


def test_multipleOf_point_three_to_point_one_is_minor_by_exact_arithmetic():
    """0.3 -> 0.1: every multiple of 3/10 is a multiple of 1/10 (exact arithmetic, as jsonschema-rs
    and the engine compute). python-jsonschema divides floats (0.3 / 0.1 = 2.9999999999999996) and
    rejects 0.3 under the new schema, so the two validators disagree on 0.3: no document is lost
    by both, and a MAJOR could carry no witness both confirm. The engine must say MINOR."""
    old, new = {"type": "number", "multipleOf": 0.3}, {"type": "number", "multipleOf": 0.1}
    # the disagreement this test is about (the oracle's python-jsonschema is the toolchain's
    # reference pass, exact like jsonschema-rs; plain python-jsonschema is not)
    assert not jsonschema.Draft202012Validator(new).is_valid(0.3)
    assert (Validators(new).py(0.3), Validators(new).rs(0.3)) == (True, True)
    assert classify(old, new).change_class == MINOR


def _major_witnesses(old, new):
    return [f for f in classify(old, new).findings if f.change_class == MAJOR and not f.undecided]


def test_a_major_witness_is_one_plain_python_jsonschema_confirms_when_one_exists():
    """maxLength 2 -> pattern ^.{0,2}$: ECMA-262's "." and "$" reject a line terminator, so
    "\n" is lost by the toolchain's reading (and jsonschema-rs), but Python's "$" also matches
    before a final newline: plain python-jsonschema accepts "\n" under the new schema. "\na"
    is lost in both readings (no "$" before a newline that is not the last character); the
    witness must be one plain python-jsonschema confirms too, with no reading note."""
    old, new = {"type": "string", "maxLength": 2}, {"type": "string", "pattern": "^.{0,2}$"}
    assert jsonschema.Draft202012Validator(new).is_valid("\n")  # the disagreement
    assert (Validators(new).py("\n"), Validators(new).rs("\n")) == (False, False)
    fs = _major_witnesses(old, new)
    assert fs
    for f in fs:
        assert jsonschema.Draft202012Validator(old).is_valid(f.witness), f.witness
        assert not jsonschema.Draft202012Validator(new).is_valid(f.witness), f.witness
        assert Validators(old).both(f.witness) is True and Validators(new).both(f.witness) is False
        assert "witness_reading" not in f.extra


def test_a_witness_only_the_ecma_reading_confirms_says_so():
    """maxLength 1 -> pattern ^.?$: the lost strings are exactly the four line terminators of
    one character, and plain python-jsonschema accepts each under the new schema ("." matches
    "\r", U+2028 and U+2029 in Python; "$" matches before a final "\n"). The change is MAJOR in
    the ECMA-262 reading both validators of the toolchain follow, and the witness says that it
    holds in that reading only."""
    old, new = {"type": "string", "maxLength": 1}, {"type": "string", "pattern": "^.?$"}
    for s in ("\n", "\r", "\u2028", "\u2029"):
        assert jsonschema.Draft202012Validator(new).is_valid(s)
        assert (Validators(new).py(s), Validators(new).rs(s)) == (False, False)
    fs = _major_witnesses(old, new)
    assert fs
    for f in fs:
        assert f.witness in ("\n", "\r", "\u2028", "\u2029")
        assert f.extra["witness_reading"] == "ecma-262"


def test_draft03_type_schema_is_refused_in_one_line_or_classified():
    """draft-03 ``"type": [schema]``: either one clear InputError line, or the right class
    (MINOR: a string is added to the integers), never another exception."""
    old = {"$schema": D3, "type": ["integer"]}
    new = {"$schema": D3, "type": ["integer", {"type": "string"}]}
    try:
        result = classify(old, new)
    except InputError as exc:
        assert "\n" not in str(exc)
        return
    assert result.change_class == MINOR


# ------------------------------------------------------------------ issue 20: one finding per item
def _backward(result) -> list:
    return [f for f in result.findings if f.direction == "backward" and f.change_class == MAJOR]


def test_two_enum_values_removed_give_two_findings():
    old, new = {"enum": ["a", "b", "c"]}, {"enum": ["a"]}
    fs = _backward(classify(old, new))
    assert sorted(f.item for f in fs if f.has_item) == ["b", "c"]
    assert len({f.fingerprint for f in fs}) == len(fs) == 2
    vo, vn = Validators(old), Validators(new)
    for f in fs:  # each finding's witness is the very value it names
        assert f.witness == f.item and vo.both(f.witness) is True and vn.both(f.witness) is False


def test_enum_reordered_keeps_fingerprints():
    a = _backward(classify({"enum": ["a", "b", "c"]}, {"enum": ["a", "x"]}))
    b = _backward(classify({"enum": ["c", "b", "a"]}, {"enum": ["x", "a"]}))
    assert len(a) == 2 and sorted(f.fingerprint for f in a) == sorted(f.fingerprint for f in b)


def test_type_narrowed_by_two_members_gives_two_findings():
    old, new = {"type": ["string", "integer", "null"]}, {"type": "string"}
    fs = _backward(classify(old, new))
    assert sorted(f.item for f in fs if f.has_item) == ["integer", "null"] and len(fs) == 2
    assert len({f.fingerprint for f in fs}) == 2
    assert_witnessed(classify(old, new), old, new)


def test_one_enum_value_added_gives_one_minor_finding():
    result = classify({"enum": ["a"]}, {"enum": ["a", "b"]})
    assert result.change_class == MINOR
    fwd = [f for f in result.findings if f.direction == "forward"]
    assert len(fwd) == 1 and fwd[0].change_class == MINOR and fwd[0].item == "b"


def test_a_value_two_overlapping_branches_share_is_no_old_document():
    """old = oneOf [enum 1, 2; enum 2, 3]: 2 matches both branches, so old accepts exactly 1 and
    3 (both validators), and new = enum [1, 3] loses nothing: no backward finding. Each old case
    keeps the other branch negated, and that negation must exclude 2 when values are checked
    (a check that ignored negated enums called 2 lost)."""
    old, new = {"oneOf": [{"enum": [1, 2]}, {"enum": [2, 3]}]}, {"enum": [1, 3]}
    vo = Validators(old)
    assert [x for x in (1, 2, 3) if vo.py(x) and vo.rs(x)] == [1, 3]
    result = classify(old, new)
    assert [f.kind for f in result.findings if f.direction == "backward"] == []
