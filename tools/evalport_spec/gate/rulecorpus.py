"""The documents two rule implementations are compared on (toolchain.md, "Rules count too").

A rule change shows in behaviour only on documents that reach the rule's boundaries, so the
corpus is built for that (issue 21, "Rule behaviour is part of compatibility"):

1. **seeds**: every conformance fixture of every version folder given (the draft's and each
   release's frozen ``conformance/fixtures``), every example, and documents generated from
   each given version's schemas (:func:`evalport_spec.generate.generate_valid`);
2. **duplicates**: each seed with one array item appended again
   (:func:`~evalport_spec.generate.mutate_duplicates`; uniqueness rules live there);
3. **boundaries**: for every location a rule ``reads`` (the catalogue's instance-location
   patterns, ``*`` = any array index), the seed with that value removed, nulled, moved by one,
   made equal to the value at another location of the same rule or *nearly* equal to it (case,
   a trailing space, Unicode NFD, an integer as a float: :func:`_near`), or set where it is
   missing; and two string locations of the rule set at once to a pair of strings a loose
   comparison equates (:data:`NEAR_PAIRS`: NFC, case folding, NFKC, an invisible character);
4. **guards**: the seed with every location of a rule's ``guard`` removed (a rule must then
   stay silent: :mod:`evalport_spec.gate.behaviour` checks it).

Only document types that some catalogue gives a hand-rolled (not ``encoded``) rule are built.
Everything is deterministic; the corpus is memoised by content in :data:`MEMO` and kept on disk
between runs (:mod:`evalport_spec.diskcache`) under the same key: the seed files' bytes, the
generating schemas' text, the rules' locations and parameters, the labels origins name, and
(added by the disk cache) the toolchain's code and libraries.
"""

from __future__ import annotations

import copy
import json
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import diskcache
from ..cache import ContentMemo, digest
from ..catalogue import RuleEntry
from ..corpus import example_documents, fixture_documents
from ..errors import InputError
from ..fsutil import read_limited
from ..jsonload import MAX_BYTES
from ..pointer import split
from ..spec import SpecVersion

GENERATED_PER_TYPE = 4
"""Documents generated per document type (generation costs ~0.2 s per document: few, from the
newest version given; fixtures and examples are the bulk of the seeds)."""

DUPLICATES_PER_SEED = 15
"""At most this many duplicated-item variants per seed."""

PER_LOCATION = 3
"""At most this many matched locations of one pattern are mutated per seed."""

MEMO = ContentMemo(maxsize=8, copies=False)
"""Corpora built in this process, keyed by the content they come from."""


@dataclass
class Corpus:
    """Documents with their type and where each came from.

    Attributes:
        documents: ``[(doc_type, document)]``, no two equal.
        origins: one line per document (``"fixture spec/conformance/fixtures/x.json"``,
            ``"generated from 1.3.0"``, ``"duplicate of ..."``), for messages.
        key: a digest of everything the corpus was built from (memo key of program runs).
        parameters: ``{code: {name: value}}``, the catalogue parameters every program run over
            the corpus gives the rules (:func:`build_corpus`).
    """

    documents: list[tuple[str, Any]]
    origins: list[str]
    key: str = ""
    parameters: dict[str, dict[str, Any]] = field(default_factory=dict)


def rule_types(catalogues: list[list[RuleEntry]]) -> set[str]:
    """Document types that have a hand-rolled rule in any of the catalogues."""
    return {e.document for rules in catalogues for e in rules if not e.encoded}


def locations(document: Any, pattern: str) -> list[tuple[Any, ...]]:
    """The paths (tuples of keys and indexes) of every value in ``document`` matching the
    instance-location ``pattern`` (a JSON Pointer whose ``*`` tokens match any array index)."""
    out: list[tuple[Any, ...]] = []

    def walk(node: Any, tokens: list[str], path: tuple[Any, ...]) -> None:
        if not tokens:
            out.append(path)
            return
        tok, rest = tokens[0], tokens[1:]
        if isinstance(node, list):
            if tok == "*":
                for i, item in enumerate(node):
                    walk(item, rest, path + (i,))
            elif tok.isdigit() and int(tok) < len(node):
                walk(node[int(tok)], rest, path + (int(tok),))
        elif isinstance(node, dict) and tok != "*" and tok in node:
            walk(node[tok], rest, path + (tok,))

    try:
        walk(document, split(pattern), ())
    except ValueError:
        return []
    return out


def parents_missing(document: Any, pattern: str) -> list[tuple[tuple[Any, ...], str]]:
    """``(object path, member name)`` for every object the pattern's parent matches that lacks
    the pattern's last member (where a rule reads a value a document could add)."""
    tokens = split(pattern)
    if not tokens or tokens[-1] == "*":
        return []
    parent = "".join("/" + t.replace("~", "~0").replace("/", "~1") for t in tokens[:-1])
    out = []
    for path in locations(document, parent):
        node = _get(document, path)
        if isinstance(node, dict) and tokens[-1] not in node:
            out.append((path, tokens[-1]))
    return out


def _get(document: Any, path: tuple[Any, ...]) -> Any:
    for k in path:
        document = document[k]
    return document


_DELETE = object()


def _put(document: Any, path: tuple[Any, ...], value: Any) -> Any:
    """A copy of ``document`` with ``value`` at ``path`` (:data:`_DELETE` removes it); only the
    containers on the path are copied."""
    if not path:
        return value
    head, rest = path[0], path[1:]
    out: Any = list(document) if isinstance(document, list) else dict(document)
    if rest:
        out[head] = _put(document[head], rest, value)
    elif value is _DELETE:
        del out[head]
    else:
        out[head] = value
    return out


def _nudged(value: Any) -> Iterator[Any]:
    if isinstance(value, bool) or value is None:
        yield not value
    elif isinstance(value, (int, float)):
        yield from (value + 1, value - 1, 0)
    elif isinstance(value, str):
        yield from (value + "-x", "")
    elif isinstance(value, list):
        yield []
        if value:
            yield value + [copy.deepcopy(value[-1])]


def _near(value: Any) -> Iterator[Any]:
    """Values JSON equality tells apart from ``value`` that an implementation comparing loosely
    would not (RFC 8259 section 8.3: strings compare code unit by code unit): a string with its
    case swapped, with a trailing space, or in Unicode normalisation form NFD; an integer written
    as a float (JSON Schema equality counts 1 and 1.0 as one number, Python's ``==`` too, but a
    rule keyed on type would not)."""
    if isinstance(value, str):
        for v in (value.swapcase(), value + " ", unicodedata.normalize("NFD", value)):
            if v != value:
                yield v
    elif isinstance(value, int) and not isinstance(value, bool):
        yield float(value)


LONG_PREFIX = "g" * 256
"""A prefix longer than any length an implementation would cut an id to before comparing."""

NEAR_PAIRS = (("caf\u00e9", "cafe\u0301"), ("Stra\u00dfe", "STRASSE"), ("\uff21-1", "A-1"), ("id", "i\u200bd"),
              ("ns/id", "id"), ("ns:id", "id"), ("id", "id#2"), (" id", "id"),
              (LONG_PREFIX + "a", LONG_PREFIX + "b"))
"""Pairs of strings JSON tells apart (code unit by code unit, RFC 8259 section 8.3) that a rule
comparing loosely would not: equal in Unicode normalisation form NFC, under full case folding,
under NFKC (a full-width letter), once a default-ignorable character is dropped, once a
namespace or a suffix after a separator is dropped (``ns/id``, ``ns:id``, ``id#2``), once leading
space is stripped, and once both are cut to a length below 257 characters. Set at two
read locations of one rule at once (:func:`boundary_variants`): the values a seed holds are
ASCII, so a variant of one location alone never makes two of them canonically equal. Red team,
session 35: SELF_PARENT made to compare ids in NFC changed no corpus document (case-swapped and
NFD variants of ASCII ids are the ids themselves), and a released rule rejected more. Session
36: the same with SELF_PARENT comparing ids without a path-like namespace (``sweeps/a`` is ``a``).
Each pair only adds documents; a rule that compares exactly tells every pair apart."""


def boundary_variants(document: Any, rule: RuleEntry) -> Iterator[Any]:
    """Variants of ``document`` at the locations ``rule`` reads (module docstring, step 3), and
    each :data:`NEAR_PAIRS` pair set at two of them."""
    found = {p: locations(document, p)[:PER_LOCATION] for p in rule.reads}
    values = [_get(document, path) for paths in found.values() for path in paths]
    for pattern, paths in found.items():
        for path in paths:
            value = _get(document, path)
            yield _put(document, path, _DELETE)
            yield _put(document, path, None)
            yield from (_put(document, path, v) for v in _nudged(value))
            yield from (_put(document, path, copy.deepcopy(v)) for v in values if v != value)
            yield from (_put(document, path, n) for v in values for n in _near(v) if n != value)
        for path, name in parents_missing(document, pattern)[:PER_LOCATION]:
            for v in (values[:2] or [1, "x"]):
                yield _put(document, path + (name,), copy.deepcopy(v))
    spots = [path for paths in found.values() for path in paths if isinstance(_get(document, path), str)]
    for i, first in enumerate(spots[:PER_LOCATION * 2]):
        for second in spots[i + 1:PER_LOCATION * 2]:
            for a, b in NEAR_PAIRS:
                yield _put(_put(document, first, a), second, b)


def without_guard(document: Any, rule: RuleEntry) -> Any | None:
    """``document`` with every location of ``rule.guard`` removed (``None`` when it has none)."""
    paths = sorted({p for g in rule.guard for p in locations(document, g)},
                   key=lambda p: [(0, k) if isinstance(k, int) else (1, k) for k in p], reverse=True)
    if not paths:
        return None
    for path in paths:  # deepest and highest indexes first: earlier paths stay valid
        document = _put(document, path, _DELETE)
    return document


def _seed_documents(generate_from: SpecVersion, folders: list[tuple[Path, str]], types: set[str]
                    ) -> list[tuple[str, Any, str]]:
    from ..generate import generate_valid, schema_kwargs

    seeds: list[tuple[str, Any, str]] = []
    for folder, label in folders:
        for getter, what in ((fixture_documents, "fixture"), (example_documents, "example")):
            try:
                found = getter(folder)
            except InputError:  # a broken file is the conformance/examples stage's finding
                continue
            for doc_type, loaded in found.items():
                if doc_type in types:
                    seeds += [(doc_type, d.value, f"{what} {label}/{_below(d.source, folder)}")
                              for d in loaded]
    for doc_type in sorted(types):
        try:
            name = generate_from.schema_name(doc_type)
            docs = generate_valid(**schema_kwargs(generate_from.schemas, name), n=GENERATED_PER_TYPE, seed=0)
        except InputError:  # a broken schema set is the schemas stage's finding
            continue
        seeds += [(doc_type, doc, f"generated from {generate_from.label}/schemas/{name}") for doc in docs]
    return seeds


def _below(source: Any, folder: Path) -> str:
    p = Path(str(source)).resolve()
    return p.relative_to(folder.resolve()).as_posix() if p.is_relative_to(folder.resolve()) else p.name


def _folder_digest(folder: Path) -> list[Any]:
    files = sorted(q for q in folder.rglob("*.json") if "conformance" in q.parts or "examples" in q.parts)
    return [(q.relative_to(folder).as_posix(), digest(read_limited(q, max_bytes=MAX_BYTES, label=str(q))))
            for q in files]


def build_corpus(catalogues: list[SpecVersion], folders: list[tuple[Path, str]],
                 generate_from: SpecVersion) -> Corpus:
    """The corpus for comparing rule implementations.

    Args:
        catalogues: the versions whose catalogues give the rules' ``reads`` and ``guard``
            locations (every version compared).
        folders: ``(version folder, label)``: folders whose ``conformance/fixtures`` and
            ``examples`` are seeds, and how origins name them (``spec``, ``main:spec``).
        generate_from: the version whose schemas generate the extra seeds.

    A rule's parameters are those of the last catalogue in ``catalogues`` giving it any: both
    sides of a behaviour comparison run with the same values, so what differs is the
    implementation; a value changed between versions is the classifier's finding
    (:mod:`evalport_spec.rulechanges`).

    Raises:
        InputError: a version's catalogue cannot be read.
    """
    entries = [v.catalogue.rules for v in catalogues]
    types = rule_types(entries)
    rules: dict[str, list[RuleEntry]] = {}
    for rule_list in entries:
        for e in rule_list:
            if not e.encoded and e not in rules.setdefault(e.document, []):
                rules[e.document].append(e)
    parameters = {e.code: e.parameter_values() for rule_list in entries for e in rule_list if e.parameters}
    kept: list[tuple[Path, str]] = []
    seen: list[Any] = []
    for folder, label in folders:  # a base's folder equal to the working tree's adds nothing
        d = _folder_digest(folder) if folder.is_dir() else None
        if d and d not in seen:
            seen.append(d)
            kept.append((folder, label))
    folders = kept
    key = digest("rule-corpus", sorted((f.name, f.loaded.text) for f in generate_from.schemas), seen,
                 [[e.code, e.document, list(e.reads), list(e.guard)] for t in sorted(rules) for e in rules[t]],
                 GENERATED_PER_TYPE, DUPLICATES_PER_SEED, PER_LOCATION, parameters,
                 [label for _, label in folders], generate_from.label)
    corpus = MEMO.get(key, lambda: _from_disk(key) or _to_disk(key, _build(generate_from, folders, types, rules)))
    corpus.key = key
    corpus.parameters = parameters
    return corpus


def _from_disk(key: str) -> Corpus | None:
    """The corpus stored under ``key`` by :func:`_to_disk`, or ``None``."""
    data = diskcache.load(digest("rule-corpus-disk", key))
    if data is None:
        return None
    try:
        docs = [(str(t), d) for t, d in data["documents"]]
        origins = [str(o) for o in data["origins"]]
    except (KeyError, TypeError, ValueError):
        return None
    return Corpus(docs, origins) if len(docs) == len(origins) else None


def _to_disk(key: str, corpus: Corpus) -> Corpus:
    diskcache.store(digest("rule-corpus-disk", key), {"documents": corpus.documents, "origins": corpus.origins})
    return corpus


def _build(generate_from: SpecVersion, folders: list[tuple[Path, str]], types: set[str],
           rules: dict[str, list[RuleEntry]]) -> Corpus:
    from ..generate import mutate_duplicates

    docs: list[tuple[str, Any]] = []
    origins: list[str] = []
    seen: set[str] = set()

    def add(doc_type: str, doc: Any, origin: str) -> None:
        text = json.dumps([doc_type, doc], sort_keys=True)
        if text not in seen:
            seen.add(text)
            docs.append((doc_type, doc))
            origins.append(origin)

    for doc_type, seed, origin in _seed_documents(generate_from, folders, types):
        add(doc_type, seed, origin)
        for variant in mutate_duplicates(seed, limit=DUPLICATES_PER_SEED):
            add(doc_type, variant, f"{origin}, an array item duplicated")
        for rule in rules.get(doc_type, []):
            for variant in boundary_variants(seed, rule):
                add(doc_type, variant, f"{origin}, changed where {rule.code} reads")
            stripped = without_guard(seed, rule)
            if stripped is not None:
                add(doc_type, stripped, f"{origin}, without {rule.code}'s guard locations")
    return Corpus(docs, origins)
