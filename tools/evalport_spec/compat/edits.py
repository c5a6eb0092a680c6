"""No silent edit: every structural edit between the two versions of a schema file is accounted for.

:func:`structural_edits` lists the edits between two schema trees with deepdiff (a member added,
removed or changed; a list item added or removed), each as JSON Pointers into the old and the new
file. :func:`unaccounted` keeps those that nothing explains: no finding sits at, above or below
the edit, no step of the derivation discharged an obligation at or above it, and the edit does
not lie inside a ``$defs``/``definitions`` entry that validation never reaches. An edit left over
means the classifier passed over a keyword without deciding it: a bug, which the tests catch
(``Classification.stats["unaccounted_edits"]``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..pointer import join, resolve
from .nodes import Node, Side, keywords_of
from .refs import reachable

MAX_BYTES = 300_000
"""Files larger than this (as JSON text) are not diffed (deepdiff is quadratic-ish on them)."""

CONTAINERS = frozenset({"properties", "patternProperties", "$defs", "definitions", "dependentSchemas",
                        "dependentRequired", "dependencies"})
"""Keywords whose members are named by the schema author (a name there is not a keyword)."""


@dataclass(frozen=True)
class Edit:
    """One structural edit: what deepdiff saw (``kind``) at ``pointer`` (in the old file for a
    removal, the new file otherwise; both files share the path of a changed value)."""

    kind: str
    pointer: str


def structural_edits(old: Any, new: Any) -> list[Edit]:
    """The structural edits from schema ``old`` to schema ``new`` (JSON values), as deepdiff
    reports them on the whole pair (``view="tree"``, its default ``threshold_to_diff_deeper``),
    sorted by pointer.

    Equal subtrees are pruned first and objects and single values compared here
    (:func:`_differing`): deepdiff sees only two arrays that differ, each under the pointer
    where it sits, so an edit of one ``title`` in a 250 KB schema costs a walk of the tree,
    not a deepdiff of all of it (nor deepdiff's import: numpy and all, when installed).
    tests/test_compat_edits.py checks on random JSON pairs that the edits are the ones
    deepdiff finds on the unpruned pair.
    """
    edits, pairs = _differing(old, new)
    out = set(edits)
    if pairs:
        from deepdiff import DeepDiff  # imported here: numpy and all, when installed
        for where, o, n in pairs:
            for kind, items in DeepDiff(o, n, verbose_level=2, view="tree").items():
                out.update(Edit(kind, join("", *where, *item.path(output_format="list"))) for item in items)
    return sorted(out, key=lambda e: (e.pointer, e.kind))


DIFF_DEEPER = 0.33
"""deepdiff's default ``threshold_to_diff_deeper``: two objects sharing fewer than this share of
their member names (of the union, when it has more than one) are one changed value, not members
added and removed."""


def _differing(old: Any, new: Any) -> tuple[list[Edit], list[tuple[tuple[str | int, ...], Any, Any]]]:
    """The differences between JSON values ``old`` and ``new`` as ``(edits, pairs)``, named as
    deepdiff names them: members added or removed below objects it would enter (as
    :data:`DIFF_DEEPER` decides), a changed value (``values_changed``, or ``type_changes``
    between JSON types), and ``(path of reference tokens, old array, new array)`` for two
    differing arrays, whose items deepdiff pairs. Members equal on both sides
    (:func:`same_json`) are skipped; members that are objects on both sides are entered.
    Iterative (schemas may nest deeper than Python's recursion limit)."""
    edits: list[Edit] = []
    pairs: list[tuple[tuple[str | int, ...], Any, Any]] = []
    stack: list[tuple[tuple[str | int, ...], Any, Any]] = [((), old, new)]
    while stack:
        where, o, n = stack.pop()
        if same_json(o, n):
            continue
        if type(o) is list and type(n) is list:
            pairs.append((where, o, n))  # items added, removed or changed: deepdiff pairs them
            continue
        if type(o) is not dict or type(n) is not dict:
            edits.append(Edit("values_changed" if type(o) is type(n) else "type_changes", join("", *where)))
            continue
        union = len(o.keys() | n.keys())
        if union > 1 and len(o.keys() & n.keys()) / union < DIFF_DEEPER:
            edits.append(Edit("values_changed", join("", *where)))  # deepdiff: one changed value
            continue
        edits.extend(Edit("dictionary_item_removed", join("", *where, k)) for k in o if k not in n)
        edits.extend(Edit("dictionary_item_added", join("", *where, k)) for k in n if k not in o)
        stack.extend(((*where, k), o[k], n[k]) for k in o if k in n)
    return edits, pairs


def same_json(a: Any, b: Any) -> bool:
    """Whether two parsed JSON values are the same JSON text up to member order: Python's ``==``
    with types kept apart (``true`` is not ``1``, ``1`` is not ``1.0``, as deepdiff reports
    them as changes). Iterative; ``a != b`` (in C) rejects most differing pairs at once."""
    if a is b:
        return True
    if a != b:
        return False
    stack = [(a, b)]
    while stack:
        x, y = stack.pop()
        if type(x) is not type(y):
            return False
        if type(x) is dict:
            stack.extend((v, y[k]) for k, v in x.items())
        elif type(x) is list:
            stack.extend(zip(x, y, strict=True))  # equal lengths: x == y
    return True


WHOLE_RULES = frozenset({"old-accepts-nothing", "new-accepts-anything", "same-subschema", "same-as-proved",
                         "finite-enumeration"})
"""Derivation rules that settle a whole subschema at once (``finite-enumeration``: every document
of the old side, each validated against the whole new side)."""

LINKED = ({"contains", "minContains", "maxContains"}, {"minimum", "exclusiveMinimum"},
          {"maximum", "exclusiveMaximum"}, {"items", "prefixItems", "additionalItems"},
          {"if", "then", "else"}, {"properties", "patternProperties", "additionalProperties"})
"""Keywords that act together: an obligation discharged at one accounts for its partners."""


def _covers(q: str | None, e: str, whole: bool = False) -> bool:
    """Whether an obligation (or, with ``whole``, a finding) at pointer ``q`` accounts for an edit
    at ``e``: the same place, a partner keyword of the same schema (:data:`LINKED`), an edit
    inside a keyword ``q`` names (not inside a named member; a finding covers everything below
    it), or ``q`` inside the edited container."""
    if q is None:
        return False
    if q == e or q.startswith(e + "/"):
        return True
    qp, _, qk = q.rpartition("/")
    ep, _, ek = e.rpartition("/")
    if qp == ep and any(qk in group and ek in group for group in LINKED):
        return True
    if not e.startswith(q + "/"):
        return False
    if whole:
        return True
    tokens = q.split("/")
    return bool(q) and tokens[-1] not in CONTAINERS and (len(tokens) < 2 or tokens[-2] not in CONTAINERS)


FAMILY = {**dict.fromkeys(("properties", "patternProperties", "additionalProperties", "required",
                           "minProperties", "maxProperties", "propertyNames", "dependentRequired",
                           "dependentSchemas", "dependencies", "unevaluatedProperties"), "object"),
          **dict.fromkeys(("items", "prefixItems", "additionalItems", "contains", "minContains",
                           "maxContains", "minItems", "maxItems", "uniqueItems", "unevaluatedItems"), "array"),
          **dict.fromkeys(("minLength", "maxLength", "pattern", "format"), "string"),
          **dict.fromkeys(("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"), "number")}
"""Keyword -> the JSON type it constrains (it says nothing about instances of other types)."""


def _keyword_of(side: Side, fname: str, e: str) -> tuple[str, Any] | None:
    """``(keyword, the schema object holding it)`` for the edit ``e`` at or below a keyword."""
    tokens = e.split("/")[1:]
    for i in range(len(tokens), 0, -1):
        parent = "/" + "/".join(tokens[: i - 1]) if i > 1 else ""
        try:
            holder = resolve(side.schema_of(fname), parent)
        except (KeyError, IndexError, ValueError, TypeError):
            continue
        if isinstance(holder, dict) and tokens[i - 1] in FAMILY and (i < 2 or tokens[i - 2] not in CONTAINERS):
            return tokens[i - 1], holder
    return None


def _inert(side: Side, fname: str, e: str, lost_types: set[str]) -> bool:
    """Whether edit ``e`` is inside a keyword constraining a JSON type that the schema holding it
    excludes by its own ``type``, or that a type finding already reports as lost or gained."""
    found = _keyword_of(side, fname, e)
    if found is None:
        return False
    keyword, holder = found
    family = FAMILY[keyword]
    if family in lost_types or (family == "number" and "integer" in lost_types):
        return True
    t = holder.get("type")
    types = {t} if isinstance(t, str) else set(t) if isinstance(t, list) else None
    if types is None:
        return False
    return family not in types and not (family == "number" and "integer" in types)


def _no_keyword(side: Side, e: str) -> bool:
    """Whether edit ``e`` is a member that is no keyword of the schema's dialect (draft-2019
    ``prefixItems``, an ``x-`` extension): validators ignore it, so it changes nothing."""
    parent, _, key = e.rpartition("/")
    if parent.rsplit("/", 1)[-1] in CONTAINERS:
        return False  # a named member of properties/$defs/...

    return key not in keywords_of(side.dialects.get(next(iter(side.set.files)), 2020))


NEUTRAL = {"minLength": 0, "minItems": 0, "minProperties": 0, "uniqueItems": False, "required": [],
           "properties": {}, "patternProperties": {}, "dependentRequired": {}, "dependentSchemas": {}}
"""Keyword values that assert nothing (JSON Schema 2020-12 Validation 6.3-6.5 and Core 10.3.2:
each is the keyword's behaviour when absent), so adding or removing one changes no verdict."""

NEUTRAL_SCHEMA = frozenset({"items", "additionalItems", "additionalProperties", "propertyNames",
                            "unevaluatedItems", "unevaluatedProperties", "then", "else"})
"""Keywords whose subschema ``true`` (or ``{}``) accepts every value it is applied to, which is
what the keyword does when absent (Core 10.2.2 and 10.3; ``then``/``else`` without effect either
way): adding or removing one changes no verdict."""


def _neutral(side: Side, fname: str, e: str) -> bool:
    """Whether edit ``e`` is a keyword of :data:`NEUTRAL` (or :data:`NEUTRAL_SCHEMA`) holding its
    neutral value in ``side``."""
    parent, _, key = e.rpartition("/")
    if (key not in NEUTRAL and key not in NEUTRAL_SCHEMA) or parent.rsplit("/", 1)[-1] in CONTAINERS:
        return False
    try:
        value = resolve(side.schema_of(fname), e)
    except (KeyError, IndexError, ValueError, TypeError):
        return False
    if key in NEUTRAL_SCHEMA:
        return value is True or same_json(value, {})
    return same_json(value, NEUTRAL[key])


def _unreached(side: Side, fname: str, e: str, reached: set[str]) -> bool:
    """Whether ``e`` lies inside a ``$defs``/``definitions`` entry that no reached subschema is."""
    tokens = e.split("/")[1:]
    for i, tok in enumerate(tokens[:-1]):
        if tok in ("$defs", "definitions"):
            entry = "/" + "/".join(tokens[: i + 2])
            if entry not in reached:
                return True
    return False


def _defs_entry(e: str) -> str | None:
    """The pointer of the outermost ``$defs``/``definitions`` entry holding ``e``, if any."""
    tokens = e.split("/")[1:]
    for i, tok in enumerate(tokens[:-1]):
        if tok in ("$defs", "definitions"):
            return "/" + "/".join(tokens[: i + 2])
    return None


def _referrers(side: Side, fname: str, nodes: list[Node]) -> dict[str, list[str]]:
    """``{definition entry pointer: [pointers of the $refs that lead to it]}`` among ``nodes``."""
    out: dict[str, list[str]] = {}
    for n in nodes:
        v = side.value(n)
        ref = v.get("$ref") if isinstance(v, dict) else None
        if n.file != fname or not isinstance(ref, str):
            continue
        try:
            t = side.resolve_ref(n, ref)
        except Exception:  # noqa: BLE001 - an unresolvable reference leads nowhere
            continue
        entry = _defs_entry(t.ptr) if t.file == fname else None
        if entry:
            out.setdefault(entry, []).append(join(n.ptr, "$ref"))
    return out


def unaccounted(fname: str, so: Side, sn: Side, findings: list[Any], proof: list[dict[str, Any]]) -> list[Edit] | None:
    """The edits of file ``fname`` between ``so`` and ``sn`` that no finding, derivation step or
    unreachable ``$defs`` entry accounts for; ``None`` when the file is too large to diff."""
    fo, fn = so.set.files[fname], sn.set.files[fname]
    text = getattr(fo.loaded, "text", None) or ""
    if len(text) > MAX_BYTES:
        return None
    edits = structural_edits(fo.schema, fn.schema)
    if not edits:
        return []
    nodes = {side.name: reachable(side, [Node(side.name, fname, "")]) for side in (so, sn)}
    reached = {name: {n.ptr for n in ns if n.file == fname} for name, ns in nodes.items()}
    referrers = {side.name: _referrers(side, fname, nodes[side.name]) for side in (so, sn)}
    wholes: list[str | None] = []
    lost = {f.item for f in findings if f.kind in ("type-narrowed", "type-widened") and isinstance(f.item, str)}
    for f in findings:
        for loc in (f.old, f.new):
            if loc is not None and (loc.file or "").rsplit("/", 1)[-1] == fname.rsplit("/", 1)[-1]:
                wholes.append(loc.pointer)
    points: list[str | None] = []
    for p in proof:
        if p["file"] != fname:
            continue
        for loc in (p.get("old"), p.get("new")):
            if loc and loc.partition("#")[0] == fname:
                # a subschema settled whole (it accepts nothing / anything / is the same on both
                # sides) accounts for every edit inside it
                (wholes if p["rule"] in WHOLE_RULES else points).append(loc.partition("#")[2])
    def covered(e: str) -> bool:
        return any(_covers(q, e) for q in points) or any(_covers(q, e, True) for q in wholes)

    out = []
    for e in edits:
        if covered(e.pointer):
            continue
        sides = (so,) if e.kind.endswith("removed") else (sn,) if e.kind.endswith("added") else (so, sn)
        if all(_unreached(side, fname, e.pointer, reached[side.name]) for side in sides):
            continue
        if all(_no_keyword(side, e.pointer) or _neutral(side, fname, e.pointer) for side in sides):
            continue
        if all(_inert(side, fname, e.pointer, lost) for side in sides):
            continue
        parent, _, key = e.pointer.rpartition("/")
        if key in ("$ref", "$dynamicRef", "$recursiveRef") and all(parent in reached[side.name] for side in sides):
            continue  # followed wherever its schema was compared (canon resolves references)
        entry = _defs_entry(e.pointer)
        if entry and all(referrers[side.name].get(entry) and all(covered(r) for r in referrers[side.name][entry])
                         for side in sides):
            continue  # a definition used only where a finding or a proof step already accounts
        out.append(e)
    return out
