"""``compare_versions``: the classifier over two spec versions, rules included.

Adds to :func:`~evalport_spec.compat.engine.compare` what a spec version has beyond its
schemas: the cross-field rule changes (``rulechanges.rule_changes``; toolchain.md "Rules
count too") and the repository's example and fixture documents as counter-example candidates
(toolchain.md "Prove it": "plus every fixture and example in the repo").
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .. import diskcache
from ..cache import ContentMemo, digest, version_digest
from ..errors import InputError
from ..findings import ChangeClass, Finding
from ..spec import SCHEMA_FILE, SpecVersion
from .engine import Classification, classes_of, compare, order_findings
from .witness import full_witnesses

MEMO = ContentMemo(maxsize=32)
"""Classifications computed in this process, keyed by content (see :func:`compare_versions`)."""


def repo_candidates(*versions: SpecVersion) -> list[tuple[str, Any]]:
    """``[(schema file name, document)]`` for the examples and fixtures found beside the given
    versions (a version folder's ``examples/`` and ``conformance/fixtures/``, and those of the
    repository's draft ``spec/`` when the version is a release inside it)."""
    out: list[tuple[str, Any]] = []
    seen: set[Path] = set()
    from ..corpus import example_documents, fixture_documents
    for v in versions:
        if v.root is None:
            continue
        roots = [Path(v.root)]
        if Path(v.root).parent.name == "releases":
            roots.append(Path(v.root).parent.parent)
        for root in roots:
            root = root.resolve()
            if root in seen:
                continue
            seen.add(root)
            for getter in (example_documents, fixture_documents):
                try:
                    docs = getter(root)
                except InputError:  # a broken file is the conformance/examples stage's finding
                    continue
                for kind, loaded in docs.items():
                    out.extend((SCHEMA_FILE[kind], d.value) for d in loaded)
    return out


def compare_versions(old: SpecVersion, new: SpecVersion, **kw: Any) -> Classification:
    """Classify ``old`` -> ``new``: schemas (see :func:`compare`) plus rule changes.

    Keyword arguments go to :func:`compare`; ``candidates`` is extended with the repository's
    documents. Rule findings (from ``rulechanges.rule_changes`` when importable) are added
    with ``direction="backward"`` when MAJOR and count toward the class.

    Memoised in-process (:data:`MEMO`, a :class:`~evalport_spec.cache.ContentMemo`): the key is
    the content of both versions (:func:`~evalport_spec.cache.version_digest`: names, labels,
    schema texts, catalogue entries), the candidate documents (given and found in the
    repository), the other keyword arguments and the rule implementations in use, so one
    ``check`` computes each pair once and a changed byte always recomputes. Calls with a
    callable ``candidates`` or ``generator`` (whose output cannot be keyed) are not memoised.
    Each call returns its own deep copy, safe to modify.

    Raises:
        InputError: unreadable schemas in either version.
    """
    given = kw.get("candidates", ()) or ()
    repo = repo_candidates(old, new)
    if callable(given) or any(callable(v) for k, v in kw.items() if k != "candidates"):
        return _compare_versions(old, new, repo, **kw)
    given = list(given)
    kw["candidates"] = given
    options = {k: v for k, v in kw.items() if k != "candidates"}
    # a (file name, document) pair and a two-item array document serialise alike: tag them
    tagged = [["pair", *c] if isinstance(c, tuple) and len(c) == 2 and isinstance(c[0], str)
              else ["document", c] for c in given]
    try:
        content = digest("compare_versions", version_digest(old), version_digest(new), options,
                         tagged, repo)
        rules = rule_implementations()
        key = (content, rules)
        on_disk = digest(content, [_code_identity(r) for r in rules])
    except Exception:  # e.g. a malformed rules.json: let the engine report it as it always has
        return _compare_versions(old, new, repo, **kw)
    return MEMO.get(key, lambda: _from_disk(on_disk) or _to_disk(on_disk, _compare_versions(old, new, repo, **kw)))


def _code_identity(rule: tuple[Any, ...]) -> list[Any]:
    """A process-independent identity of a registered rule: its code, document type, and the
    module, name and bytecode of its function (a substituted rule is another key)."""
    code, doc_type, fn = rule
    co = getattr(fn, "__code__", None)
    return [code, doc_type, getattr(fn, "__module__", None), getattr(fn, "__qualname__", repr(fn)),
            co.co_code.hex() if co is not None else None]


def _from_disk(key: str) -> Classification | None:
    """The classification cached on disk under ``key`` (:mod:`.diskcache`), or ``None``."""
    data = diskcache.load(key)
    if data is None:
        return None
    try:
        findings = [diskcache.finding_from_json(f) for f in data["findings"]]
        return Classification(ChangeClass[data["change_class"]], ChangeClass[data["forward_class"]],
                              findings, data["old"], data["new"], dict(data.get("stats") or {}),
                              dict(data.get("ignored") or {}), list(data.get("proof") or []))
    except (KeyError, TypeError, ValueError):
        return None


def _to_disk(key: str, result: Classification) -> Classification:
    diskcache.store(key, result.to_json())
    return result


def rule_implementations() -> tuple[Any, ...]:
    """``((code, document type, function), ...)`` of this process's registered rules, sorted by
    code (the objects themselves, so a memo key holding it keeps them alive and a substituted
    rule misses the memo: this one, and the gate's runs of the rules in process)."""
    from ..validation import RULES
    return tuple((code, getattr(r, "document_type", None), getattr(r, "function", r))
                 for code, r in sorted(RULES.items()))


def _compare_versions(old: SpecVersion, new: SpecVersion, repo: list[tuple[str, Any]],
                      **kw: Any) -> Classification:
    """:func:`compare_versions` without the memo; ``repo`` is :func:`repo_candidates`."""
    cands = kw.pop("candidates", ()) or ()
    cands = cands if callable(cands) else [*cands, *repo]
    result = compare(old.schemas, new.schemas, candidates=cands, **kw)
    result.old_label, result.new_label = old.name, new.name
    try:  # a MAJOR witness must hold under the old version's FULL validator, rules included
        full_witnesses(result.findings, old, new, repo)
    except InputError:  # e.g. a malformed rules.json: its own stage reports it
        pass
    from ..rulechanges import rule_changes

    corpus: dict[str, list] = {}
    for fname, doc in repo:
        corpus.setdefault(fname.removesuffix(".json"), []).append(doc)
    try:
        extra = rule_changes(old, new, corpus)
    except Exception as exc:  # fail closed: an engine that cannot run is a finding
        extra = [Finding("undecided", f"rule changes could not be classified: {exc}",
                         ChangeClass.MAJOR, undecided=True, direction="backward")]
    for f in extra:
        if f.change_class == ChangeClass.MAJOR and f.direction != "backward":
            f.direction = "backward"
        elif f.change_class == ChangeClass.MINOR and f.direction == "backward":
            f.direction = "forward"
    result.findings = order_findings([*result.findings, *extra])
    result.stats["rule_findings"] = len(extra)
    result.change_class, result.forward_class = classes_of(result.findings)
    return result
