"""``compare``: classify two schema sets as PATCH / MINOR / MAJOR with proven findings.

Semantics (toolchain.md, "Compatibility classes"): over all JSON documents, old ⊆ new is
*backward compatible*; equal sets are PATCH, a proper superset MINOR, anything else MAJOR. The
backward check decides ``change_class``; the forward check (new ⊆ old) is reported too.
Every backward failure must carry a witness document that the real validator
(:meth:`SchemaSet.validator`) accepts under old and rejects under new; a failure without one is
reported as *undecided* (still MAJOR: fail closed). Every MINOR/PATCH verdict then survives a
bounded counter-example search over generated and supplied documents.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Collection, Iterable
from typing import Any

from ..diffresult import Classification, classes_of, deep_recursion
from ..findings import ChangeClass, Finding, Location
from ..gcpace import paced_gc
from ..pointer import from_path, join
from ..report.progress import track
from ..schemaset import SchemaSet
from .canon import ANNOTATIONS, Canonizer
from .edits import unaccounted
from .fail import Budget, Fail
from .kinds import kind_name
from .nodes import D2020, LISTS, MAPS, SINGLE, Node, Side, TooDeep, Unresolvable, line_of
from .portable import keyword_warnings, pattern_warnings
from .refs import check_set
from .sample import Sampler
from .subset import Checker

REPORT_SCHEMA = "diff-report.schema.json"

Candidates = Iterable[Any] | Callable[[str], Iterable[Any]]
"""Extra documents for the counter-example search: documents (tried against every file),
``(file name, document)`` pairs, or a callable ``file name -> documents``."""


def compare(old: SchemaSet, new: SchemaSet, *, format_assertion: bool = True,
            candidates: Candidates = (), search_budget: int = 60, generator: Callable | str | None = None,
            default_dialect: int = D2020, max_cases: int = 20000,
            only: Collection[str] | None = None) -> Classification:
    """Compare two schema sets file by file (files matched by name).

    Both sets' references are checked first (:func:`~.refs.check_set`): a remote, ``file:``,
    escaping, dangling or looping ``$ref`` is bad input, never a finding.

    Args:
        old, new: the two versions.
        format_assertion: ``format`` is an assertion (EvalPort: on, for ``date-time``).
        candidates: documents for the counter-example search (see :data:`Candidates`).
        search_budget: how many generated old-valid documents per file to try.
        generator: extra generated documents: ``(schemaset, file name, n, seed) -> documents``,
            or ``"generate"`` for the package's ``generate.generate_valid`` (thorough, slower);
            this engine's own boundary sampler always contributes ``search_budget`` documents.
        default_dialect: dialect for files without ``$schema`` (2020 = 2020-12).
        max_cases: case-split budget of each file in each direction (the count starts anew for
            every inclusion check, so one large file never eats another's); beyond it that
            direction of the file is undecided.
        only: names of the files to compare (default: every file of either set); the other
            files of the sets only resolve references (a single schema file with its siblings).

    Returns:
        A :class:`Classification`.

    Raises:
        InputError: a bad ``$ref`` in ``old`` or ``new`` (``file:line: message (at pointer)``).
    """
    t0 = time.perf_counter()
    so = Side("old", old, format_assertion=format_assertion, default_dialect=default_dialect)
    check_set(old, only, so)
    if same_sets(old, new, only):  # identical sets (which pass the same checks): PATCH by construction
        stats = {"files": len(old.files) if only is None else len(only), "witnesses_verified": 0,
                 "documents_searched": 0, "cases": 0, "identical": True, "seconds": round(time.perf_counter() - t0, 3)}
        return Classification(ChangeClass.PATCH, ChangeClass.PATCH, [], old.label, new.label, stats)
    sn = Side("new", new, format_assertion=format_assertion, default_dialect=default_dialect)
    check_set(new, only, sn)
    with deep_recursion(), paced_gc():  # deep $ref graphs; still bounded (RecursionError -> undecided)
        return _compare(so, sn, format_assertion, candidates, search_budget, generator, max_cases, t0, only)


def _compare(so: Side, sn: Side, format_assertion, candidates, search_budget, generator, max_cases, t0,
             only=None) -> Classification:
    old, new = so.set, sn.set
    canon = Canonizer({"old": so, "new": sn})
    sampler = Sampler(canon, format_assertion=format_assertion)
    checker = Checker(canon, sampler, format_assertion=format_assertion, max_cases=max_cases)
    findings: list[Finding] = []
    proof: list[dict[str, Any]] = []
    stats = {"files": 0, "witnesses_verified": 0, "documents_searched": 0, "cases": 0}
    for name in track(sorted(set(old.files) | set(new.files)), "comparing schemas", unit="file"):
        if only is not None and name not in only:
            continue
        if name not in new.files:
            f = old.files[name]
            findings.append(Finding("schema-file-removed", f"schema file {name} was removed",
                                    ChangeClass.MAJOR, old=Location(f.loaded.source, "", 1),
                                    witness=_first(sampler.many(canon.nodes(so.root(name)), 1))))
            continue
        findings.extend(pattern_warnings(name, old, new) + keyword_warnings(name, old, new))
        if name not in old.files:
            f = new.files[name]
            findings.append(Finding("schema-file-added", f"schema file {name} was added",
                                    ChangeClass.MINOR, new=Location(f.loaded.source, "", 1),
                                    direction="forward"))
            continue
        stats["files"] += 1
        findings.extend(_compare_file(name, so, sn, canon, sampler, checker, candidates,
                                      search_budget, generator, stats, proof))
    findings = order_findings(findings)
    bc, fc = classes_of(findings)
    stats["seconds"] = round(time.perf_counter() - t0, 3)
    kept = {"backward"} if bc <= ChangeClass.MINOR else set()
    kept |= {"forward"} if fc <= ChangeClass.MINOR else set()
    return Classification(bc, fc, findings, old.label, new.label, stats,
                          proof=[p for p in proof if p["direction"] in kept])


def same_sets(old: SchemaSet, new: SchemaSet, only: Collection[str] | None = None) -> bool:
    """Whether two schema sets are identical: the same file names, ``$id`` URIs and schema
    values (``$schema`` included, so the same dialects) compared as JSON text (so ``1`` and ``1.0`` and ``true`` differ, as JSON Schema
    equality would not let a validator confuse them). Identical sets accept the same documents,
    whatever the ``$ref`` graph: the comparison can stop there (a 1 MB self-diff in milliseconds).
    ``only`` (compared file names) does not narrow the check: context files count too."""
    if set(old.files) != set(new.files):
        return False
    for name, fo in old.files.items():
        fn = new.files[name]
        if fo.uri != fn.uri:
            return False
        if fo.schema is fn.schema:
            continue
        if _dump(fo.schema) != _dump(fn.schema):
            return False
    return True


def _dump(value: Any) -> bytes:
    try:
        import orjson
        return orjson.dumps(value)
    except Exception:  # orjson missing, or integers beyond 64 bits
        return json.dumps(value, ensure_ascii=False).encode()


def _first(xs: list) -> Any:
    return xs[0] if xs else None


def _compare_file(name: str, so: Side, sn: Side, canon: Canonizer, sampler: Sampler, checker: Checker,
                  candidates: Candidates, budget: int, generator: Callable | None,
                  stats: dict, proof: list[dict[str, Any]]) -> list[Finding]:
    out: list[Finding] = []
    discharged: list[dict[str, Any]] = []
    out.extend(identity_findings(name, so, sn))
    ro, rn = canon.nodes(so.root(name)), canon.nodes(sn.root(name))
    for direction, A, B in (("backward", ro, rn), ("forward", rn, ro)):
        checker.cases = 0  # each file and direction has the whole budget (compare's max_cases)
        try:
            fails = checker.check(A, B)
        except (Budget, RecursionError, TooDeep) as exc:
            why = ("case-split budget exceeded" if isinstance(exc, Budget) else "schema nested too deeply")
            fails = [Fail("undecided", f"{why}; the comparison could not be completed",
                          (so.root(name), ""), (sn.root(name), ""), undecided=why)]
        stats["cases"] += checker.cases
        checker.cases = 0  # the witnesses asked for below start with the whole budget too
        for f in fails:
            out.append(_to_finding(f, direction, name, so, sn, stats, checker))
        old_is_a = direction == "backward"  # steps of a failed direction still account for edits
        steps = [{"file": name, "direction": direction, "depth": depth, "rule": step.rule,
                  "detail": step.detail, "old": step.a if old_is_a else step.b,
                  "new": step.b if old_is_a else step.a}
                 for depth, step in checker.derivation(A, B)]
        discharged.extend(steps)
        if not fails:
            proof.extend(steps)
    left = unaccounted(name, so, sn, out, discharged)  # no silent edit (compat/edits.py)
    if left:
        stats.setdefault("unaccounted_edits", []).extend(
            {"file": name, "kind": e.kind, "pointer": e.pointer} for e in left)
    # witnesses for unproven backward failures, then the counter-example search
    pool = _Pool(name, so, sn)
    for side in (so, sn):
        for d in _documents(name, side, canon, sampler, candidates, budget, generator):
            pool.add(d)
    stats["documents_searched"] += len(pool.docs)
    for f in out:
        if f.direction == "backward" and f.change_class == ChangeClass.MAJOR and not has_witness(f):
            hit = pool.search("backward", f.extra.get("instance_path"))
            if hit:
                _set_witness(f, hit[0])
                f.undecided = False
                f.extra.pop("reason", None)
                stats["witnesses_verified"] += 1
    for direction, sa, cls in (("backward", so, ChangeClass.MAJOR), ("forward", sn, ChangeClass.MINOR)):
        if any(f.direction == direction and f.change_class >= ChangeClass.MINOR and not f.undecided
               for f in out if f.kind not in ("schema-id-changed", "ref-target-changed")):
            continue
        hit = pool.search(direction, None)
        if hit:
            loc = Location(sa.set.files[name].loaded.source, "", 1)
            verdict = "the old schema accepts and the new one rejects" if direction == "backward" else \
                "the new schema accepts and the old one rejects"
            found = Finding(kind_name("counter-example", direction),
                            f"a document that {verdict} was found by search (the engine's "
                            "inclusion proof missed it)", cls,
                            old=loc if direction == "backward" else None,
                            new=loc if direction == "forward" else None, direction=direction)
            _set_witness(found, hit[0])
            out.append(found)
    return out


class _Pool:
    """The counter-example search's documents for one file, without duplicates, each validated
    at most once per side (real file validators, lazily)."""

    def __init__(self, name: str, so: Side, sn: Side) -> None:
        self.name, self.so, self.sn = name, so, sn
        self.docs: list[list[Any]] = []  # [document, valid old | None, valid new | None]
        self._seen: set[bytes] = set()

    def add(self, doc: Any) -> None:
        try:
            key = _dump(doc)
        except Exception:  # not JSON-serialisable: not a document
            return
        if key not in self._seen:
            self._seen.add(key)
            self.docs.append([doc, None, None])

    def _valid(self, entry: list[Any], i: int) -> bool:
        if entry[i] is None:
            side = self.so if i == 1 else self.sn
            try:
                entry[i] = side.file_valid(self.name, entry[0])
            except (RecursionError, TooDeep):
                entry[i] = i == 2  # too deep to decide: never a counter-example
        return entry[i]

    def search(self, direction: str, path: list | None) -> tuple[Any] | None:
        """``(document,)`` for the first document valid under the ``direction``'s source side and
        invalid under its target, whose target error lies at or below instance ``path`` when
        given; ``None`` when there is none (a tuple, because ``null`` is a document too).

        The screen (:meth:`_valid`) trusts jsonschema-rs where it says valid; a document it
        passes is returned only when both validators agree on both sides (:func:`_confirmed`),
        as every other witness is (docs/classifier.md, "Witnesses and proofs")."""
        a, b = (1, 2) if direction == "backward" else (2, 1)
        source, target = (self.so, self.sn) if b == 2 else (self.sn, self.so)
        for entry in self.docs:
            if not self._valid(entry, a) or self._valid(entry, b):
                continue
            if not _confirmed(source, target, self.name, entry[0]):
                continue
            if path is None:
                return (entry[0],)
            validator = target.set.validator(self.name, format_assertion=target.format_assertion)
            try:
                if any(list(err.absolute_path)[:len(path)] == list(path) for err in validator.iter_errors(entry[0])):
                    return (entry[0],)
            except Exception:  # an unresolvable reference, too deep: no error location to match
                continue
        return None


def _documents(name: str, side: Side, canon: Canonizer, sampler: Sampler, candidates: Candidates,
               budget: int, generator: Callable | None):
    if callable(candidates):
        yield from candidates(name)
    else:
        for c in candidates:
            if isinstance(c, tuple) and len(c) == 2 and isinstance(c[0], str):
                if c[0] == name:
                    yield c[1]
            else:
                yield c
    gen = generator
    if gen == "generate":  # the generate module's generator: thorough but slow
        try:
            from ..generate import generate_valid, schema_kwargs

            def gen(s, n, count, seed):
                return generate_valid(**schema_kwargs(s, n), n=count, seed=seed,
                                      format_assertion=side.format_assertion)
        except Exception:
            gen = None
    if callable(gen) and budget > 0:
        try:
            yield from gen(side.set, name, budget, 0)
        except Exception:
            pass
    yield from sampler.many(canon.nodes(side.root(name)), limit=budget)


def _location(side: Side, node_ptr: tuple[Node, str] | None) -> Location | None:
    if node_ptr is None:
        return None
    node, ptr = node_ptr
    if node.syn is not None or node.file not in side.set.files:
        return None
    loaded = side.set.files[node.file].loaded
    return Location(loaded.source, ptr, _line(loaded, ptr))


def _line(loaded: Any, ptr: str) -> int | None:
    """Line of ``ptr`` in a loaded file: its pointer map when already built, else a walk of the
    path alone (:func:`~.nodes.line_of`), which stays fast on megabyte schemas."""
    if getattr(loaded, "_positions", None) is not None:
        return loaded.line(ptr)
    return line_of(loaded.text, ptr)


def _to_finding(f: Fail, direction: str, name: str, so: Side, sn: Side, stats: dict,
                checker: Checker) -> Finding:
    sa, sb = (so, sn) if direction == "backward" else (sn, so)
    loc_a, loc_b = _location(sa, checker.source(f.a)), _location(sb, checker.source(f.b))
    old, new = (loc_a, loc_b) if direction == "backward" else (loc_b, loc_a)
    if old is None and new is None:
        old = Location(so.set.files[name].loaded.source, "", 1)
    ipath = from_path(f.path)
    an, bn = ("old", "new") if direction == "backward" else ("new", "old")
    msg = f.message.replace("{A}", an).replace("{B}", bn) + (f" (instance location {ipath!r})" if f.path else "")
    hit: tuple[Any] | None = None
    ecma_only: tuple[Any] | None = None  # confirmed, but plain python-jsonschema judges it otherwise
    for careful in (False, True):  # the fast path-only embedding first, then the careful one
        for w in checker.witnesses(f, careful):
            if not ((hit is None or w is not None) and _confirmed(sa, sb, name, w)):
                continue
            if not _plain_agrees(sa, sb, name, w):
                ecma_only = ecma_only or (w,)
                w = next((v for v in _newline_variants(w) if _confirmed(sa, sb, name, v)
                          and _plain_agrees(sa, sb, name, v)), _NONE)
                if w is _NONE:
                    continue
            hit = (w,)
            if w is not None:  # a null witness is kept only when nothing else verifies
                break
        if hit or f.via is None:
            break
    if hit is None and ecma_only is not None:
        hit = ecma_only
    extra: dict[str, Any] = {"instance_path": list(f.path), "file": name}
    undecided = f.undecided is not None
    if direction == "backward":
        cls = ChangeClass.MAJOR
        if undecided:
            extra["reason"] = f.undecided
        elif not hit:
            undecided = True
            extra["reason"] = ("no witness: no document was found that the old schema accepts and the "
                               "new one rejects here, so this change is not proven (fail closed)")
    else:
        cls = ChangeClass.MINOR
        if undecided:  # fail closed: an undecided finding counts MAJOR in any direction
            extra["reason"] = f.undecided
            cls = ChangeClass.MAJOR
            extra["undecided_forward"] = True
        elif not hit:
            extra["proof"] = "unverified"
    if hit is not None and hit is ecma_only:
        extra["witness_reading"] = "ecma-262"  # docs/classifier.md "Witnesses and proofs"
    out = Finding(kind_name(f.code, direction) if not f.undecided else "undecided", msg, cls,
                  old=old, new=new, undecided=undecided, direction=direction, item=f.item, extra=extra)
    if hit:
        stats["witnesses_verified"] += 1
        _set_witness(out, hit[0])
    return out


_NONE = object()


def _confirmed(sa: Side, sb: Side, name: str, w: Any) -> bool:
    """Whether both validators (python-jsonschema as the toolchain reads it, and jsonschema-rs)
    accept ``w`` under ``sa``'s file ``name`` and reject it under ``sb``'s."""
    try:
        return sa.file_confirms(name, w) is True and sb.file_confirms(name, w) is False
    except RecursionError:  # TooDeep included: too deep to verify, not a witness
        return False


def _plain_agrees(sa: Side, sb: Side, name: str, w: Any) -> bool:
    """Whether plain python-jsonschema (:meth:`~.nodes.Side.plain_file_valid`: Python ``re``,
    binary doubles) also accepts ``w`` under ``sa`` and rejects it under ``sb``, for a ``w``
    :func:`_confirmed` already: so without asking when neither side holds a keyword the two
    readings can differ on (:meth:`~evalport_spec.schemaset.SchemaSet.plain_reading_differs`;
    2,500 findings of a 5,000-value enum would each validate the enum linearly)."""
    if not sa.set.plain_reading_differs() and not sb.set.plain_reading_differs():
        return True
    return sa.plain_file_valid(name, w) is True and sb.plain_file_valid(name, w) is False


def _newline_variants(w: Any) -> list[Any]:
    """``w`` with every string that ends in a newline given one more character (``"\\n"`` ->
    ``"\\na"``): Python's ``$`` also matches just before a final newline (Python ``re``
    documentation, ``$``), ECMA-262's only at the end, so such a witness often depends on the
    reading; the variant, when the validators confirm it too, does not."""
    if isinstance(w, str):
        return [w + "a"] if w.endswith("\n") else []
    if isinstance(w, list):
        subs = [_newline_variants(x) for x in w]
        return [[v[0] if v else x for x, v in zip(w, subs, strict=True)]] if any(subs) else []
    if isinstance(w, dict):
        subs = {k: _newline_variants(x) for k, x in w.items()}
        return [{k: (subs[k][0] if subs[k] else x) for k, x in w.items()}] if any(subs.values()) else []
    return []


def has_witness(f: Finding) -> bool:
    """Whether ``f`` carries a witness (``null`` included: see :func:`_set_witness`)."""
    return f.witness is not None or bool(f.extra.get("witness_is_null"))


def _set_witness(f: Finding, w: Any) -> None:
    # Finding.witness None means "no witness", so a JSON null witness is flagged in extra
    f.witness = w
    if w is None:
        f.extra["witness_is_null"] = True


# ---------------------------------------------------------------------------- identity
def identity_findings(name: str, so: Side, sn: Side) -> list[Finding]:
    """``schema-id-changed``, ``ref-target-changed``, ``dialect-changed`` and
    ``annotation-changed`` findings between the two versions of file ``name`` (class PATCH:
    no document changes validity because of them; meaning changes are separate findings)."""
    fo, fn = so.set.files[name], sn.set.files[name]
    out: list[Finding] = []

    def loc(f, ptr):
        return Location(f.loaded.source, ptr, _line(f.loaded, ptr))

    if fo.uri != fn.uri:
        moved = version_moved(fo.uri, fn.uri)
        why = (": identity moved with the version (expected for versioned $ids)" if moved
               else " (consumers keyed on the old URL break)")
        out.append(Finding("schema-id-changed", f"$id changed from {fo.uri} to {fn.uri}{why}", ChangeClass.PATCH,
                           old=loc(fo, "/$id"), new=loc(fn, "/$id"), direction="identity",
                           extra={"old_id": fo.uri, "new_id": fn.uri, "version_moved": moved}))
    if so.dialects.get(name) != sn.dialects.get(name):
        out.append(Finding("dialect-changed", f"$schema changed ({_dialect_name(so.dialects[name])} -> "
                           f"{_dialect_name(sn.dialects[name])}); keyword meanings are compared under "
                           "each file's own dialect", ChangeClass.PATCH, old=loc(fo, "/$schema"),
                           new=loc(fn, "/$schema"), direction="identity"))
    stack: list[tuple[Any, Any, str, str]] = [(fo.schema, fn.schema, "", "schema")]
    while stack:
        a, b, ptr, what = stack.pop()
        if what == "map":
            if isinstance(a, dict) and isinstance(b, dict):
                stack.extend((a[k], b[k], join(ptr, k), "schema") for k in a if k in b)
            continue
        if what == "list":
            if isinstance(a, list) and isinstance(b, list):
                stack.extend((x, y, join(ptr, i), "schema") for i, (x, y) in enumerate(zip(a, b, strict=False)))
            continue
        if not (isinstance(a, dict) and isinstance(b, dict)):
            continue
        ra, rb = a.get("$ref"), b.get("$ref")
        if isinstance(ra, str) and isinstance(rb, str) and ra != rb:
            same = _same_target(so, sn, Node("old", name, ptr), ra, Node("new", name, ptr), rb)
            out.append(Finding("ref-target-changed", f"$ref changed from {ra!r} to {rb!r}"
                               + (" (resolves to an equal schema)" if same else ""),
                               ChangeClass.PATCH, old=loc(fo, join(ptr, "$ref")),
                               new=loc(fn, join(ptr, "$ref")), direction="identity"))
        for k in sorted(set(a) | set(b)):
            if k in ANNOTATIONS and k not in ("$id", "id", "$schema", "$defs", "definitions"):
                if json.dumps(a.get(k), sort_keys=True) != json.dumps(b.get(k), sort_keys=True):
                    p = join(ptr, k)
                    out.append(Finding("annotation-changed", f"annotation {k!r} changed at {p}",
                                       ChangeClass.PATCH, old=loc(fo, p) if k in a else None,
                                       new=loc(fn, p) if k in b else None, direction="identity"))
            elif k in a and k in b:
                if k in MAPS or k == "dependencies":
                    stack.append((a[k], b[k], join(ptr, k), "map"))
                elif k in LISTS or (k == "items" and isinstance(a[k], list)):
                    stack.append((a[k], b[k], join(ptr, k), "list"))
                elif k in SINGLE or k == "items":
                    stack.append((a[k], b[k], join(ptr, k), "schema"))
    return out


_VERSION_SEGMENT = re.compile(r"(?:v?\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.+-]*)?|draft)")


def version_moved(old_uri: str, new_uri: str) -> bool:
    """Whether two ``$id`` URIs differ only in one version path segment (a semver such as
    ``1.2.0``, or ``draft``), e.g. ``.../1.2.0/schemas/x.json`` -> ``.../1.3.0/schemas/x.json``."""
    a, b = old_uri.split("/"), new_uri.split("/")
    diff = [(x, y) for x, y in zip(a, b, strict=False) if x != y]
    return (len(a) == len(b) and len(diff) == 1
            and all(_VERSION_SEGMENT.fullmatch(s) for s in diff[0]))


def order_findings(findings: list[Finding]) -> list[Finding]:
    """``findings`` with the class-deciding ones (backward, forward) first and the identity and
    annotation ones (direction ``identity``) last, otherwise in their order (stable sort)."""
    return sorted(findings, key=lambda f: f.direction == "identity")


def _same_target(so: Side, sn: Side, a: Node, ra: str, b: Node, rb: str) -> bool:
    try:
        ta, tb = so.resolve_ref(a, ra), sn.resolve_ref(b, rb)
    except Unresolvable:
        return False
    from .canon import Canonizer as _C
    chk = Checker(_C({"old": so, "new": sn}), None)  # type: ignore[arg-type]
    return chk.equal(ta, tb)


def _dialect_name(d: int) -> str:
    return {4: "draft-04", 6: "draft-06", 7: "draft-07", 2019: "2019-09", 2020: "2020-12"}.get(d, str(d))
