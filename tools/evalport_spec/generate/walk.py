"""Walking a schema for generation: dialects, ``$ref`` resolution and the conjunction view.

A location in a schema set is a :class:`Node`: the (sub)schema, the ``referencing.Resolver`` in
effect there (base URI and dynamic scope) and the dialect. An instance must satisfy every node of
a list (a *conjunction*). :meth:`Walker.alternatives` flattens such a list into *facets*: plain
schema objects with ``$ref``/``$dynamicRef``/``$recursiveRef`` and ``allOf`` expanded, and each
branching keyword (``anyOf``, ``oneOf``, ``if``/``then``/``else``) replaced by one chosen branch,
one alternative at a time (JSON Schema 2020-12 Core, sections 8.2.3 and 10.2).

Dialect differences honoured (chosen by ``$schema``): draft-04 ``id`` and boolean
``exclusiveMinimum``/``exclusiveMaximum``; drafts 04-07 ignoring ``$ref`` siblings, tuple
``items`` with ``additionalItems`` and ``dependencies``; 2019-09 ``$recursiveRef``; 2020-12
``prefixItems`` and ``$dynamicRef``.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import urldefrag

import jsonschema
import referencing
import referencing.exceptions
import referencing.jsonschema

from ..errors import InputError
from ..pyvalidator import exact_validator

if TYPE_CHECKING:
    from .local import LocalValidity

# dialect level -> (validator class, referencing specification)
_LEVELS: dict[int, tuple[Any, Any]] = {
    4: (jsonschema.Draft4Validator, referencing.jsonschema.DRAFT4),
    6: (jsonschema.Draft6Validator, referencing.jsonschema.DRAFT6),
    7: (jsonschema.Draft7Validator, referencing.jsonschema.DRAFT7),
    2019: (jsonschema.Draft201909Validator, referencing.jsonschema.DRAFT201909),
    2020: (jsonschema.Draft202012Validator, referencing.jsonschema.DRAFT202012),
}
_MARKERS = (("draft-04", 4), ("draft-06", 6), ("draft-07", 7), ("2019-09", 2019), ("2020-12", 2020))


def dialect_level(uri: Any, default: int = 2020) -> int:
    """Map a ``$schema`` URI to a dialect level: 4, 6, 7, 2019 or 2020 (``default`` if unknown)."""
    if isinstance(uri, str):
        for marker, level in _MARKERS:
            if marker in uri:
                return level
    return default


def validator_class(level: int) -> Any:
    """The ``jsonschema`` validator class of a dialect level (``multipleOf`` exact:
    :mod:`evalport_spec.jsonnum`)."""
    return exact_validator(_LEVELS[level][0])


def specification(level: int) -> Any:
    """The ``referencing`` specification of a dialect level."""
    return _LEVELS[level][1]


@dataclass(frozen=True, eq=False)
class Node:
    """One (sub)schema in context.

    Attributes:
        schema: a schema object (dict) or boolean schema.
        resolver: the ``referencing.Resolver`` in effect (base URI, dynamic scope).
        level: the dialect level (4, 6, 7, 2019, 2020).
    """

    schema: Any
    resolver: referencing.Resolver
    level: int

    def child(self, schema: Any) -> Node:
        """A subschema of this node, in the same resource context."""
        return Node(schema, self.resolver, self.level)


class Exhausted(Exception):
    """The step budget of a generation run is spent."""


_BRANCH_LIMIT = {"min": 400, "rand": 12}


class Walker:
    """Flattens conjunctions of schema nodes; also the step budget and the choice policy.

    Args:
        format_checker: a ``jsonschema.FormatChecker`` when ``format`` asserts, else ``None``.
        mode: ``"min"`` (first, smallest choices, deterministic) or ``"rand"`` (varied choices).
        rng: random source for ``"rand"``.
        rotate: when not ``None``, ordered choices are rotated by this amount instead of shuffled,
            so that consecutive instances cover each enum value / branch / type in turn.
        steps: the step budget; :class:`Exhausted` is raised when it runs out.
        local: a :class:`~.local.LocalValidity` of the registry, asked before the reference
            validator in :meth:`valid` (``None``: the reference answers every call).
    """

    def __init__(self, format_checker: Any, mode: str = "min", rng: random.Random | None = None,
                 rotate: int | None = None, steps: int = 20000, local: LocalValidity | None = None) -> None:
        self.format_checker = format_checker
        self.local = local
        self.mode = mode
        self.rng = rng or random.Random(0)
        self.rotate = rotate
        self.steps = steps

    # -- policy ------------------------------------------------------------------------------
    def tick(self, n: int = 1) -> None:
        """Spend ``n`` steps of the budget. Raises :class:`Exhausted` when none are left."""
        self.steps -= n
        if self.steps < 0:
            raise Exhausted

    def order(self, options: list[Any]) -> list[Any]:
        """Options in the order to try them: as given (``min``), rotated, or shuffled."""
        if self.mode == "min" or len(options) < 2:
            return list(options)
        if self.rotate is not None:
            k = self.rotate % len(options)
            return options[k:] + options[:k]
        out = list(options)
        self.rng.shuffle(out)
        return out

    # -- local validity ------------------------------------------------------------------------
    def valid(self, value: Any, node: Node) -> bool:
        """``True`` if ``value`` is valid under ``node`` (the real validator, in the node's context).

        A schema the validator cannot evaluate (unresolvable reference, endless ``$ref`` loop)
        counts as not valid. Asked of :attr:`local` first where it can answer (it reads the
        schemas alike: :mod:`.local`).
        """
        if node.schema is True:
            return True
        if node.schema is False:
            return False
        if self.local is not None:
            fast = self.local.is_valid(value, node.schema)
            if fast is not None:
                return fast
        return self.reference_valid(value, node)

    def reference_valid(self, value: Any, node: Node) -> bool:
        """:meth:`valid` as the reference validator (python-jsonschema, the node's dialect and
        resolver) answers it; the same on boolean schemas."""
        if isinstance(node.schema, bool):
            return node.schema
        cls = validator_class(node.level)
        try:
            v = cls(node.schema, format_checker=self.format_checker, _resolver=node.resolver)
            return v.is_valid(value)
        except (referencing.exceptions.Unresolvable, RecursionError, jsonschema.exceptions.SchemaError):
            return False

    def valid_all(self, value: Any, nodes: list[Node]) -> bool:
        """``True`` if ``value`` is valid under every node."""
        return all(self.valid(value, n) for n in nodes)

    # -- references ----------------------------------------------------------------------------
    def enter(self, node: Node) -> Node:
        """Apply the node's own ``$schema`` and ``$id`` (or draft-04 ``id``) to its context."""
        s = node.schema
        if not isinstance(s, dict):
            return node
        level = dialect_level(s["$schema"], node.level) if "$schema" in s else node.level
        spec = _LEVELS[level][1]
        resolver = node.resolver
        try:
            if spec.id_of(s) is not None:
                resolver = resolver.in_subresource(spec.create_resource(s))
        except Exception:  # a malformed $id: leave the base URI as it is
            pass
        if level == node.level and resolver is node.resolver:
            return node
        return Node(s, resolver, level)

    def follow(self, node: Node) -> list[Node]:
        """The targets of the node's ``$ref`` / ``$dynamicRef`` / ``$recursiveRef``.

        Raises:
            InputError: a reference that does not resolve offline.
        """
        s = node.schema
        out: list[Node] = []
        for key in ("$ref", "$dynamicRef", "$recursiveRef"):
            ref = s.get(key)
            if not isinstance(ref, str):
                continue
            if key == "$dynamicRef" and node.level < 2020:
                continue
            if key == "$recursiveRef" and node.level != 2019:
                continue
            try:
                if key == "$recursiveRef":
                    resolved = referencing.jsonschema.lookup_recursive_ref(node.resolver)
                else:
                    resolved = node.resolver.lookup(ref)
            except referencing.exceptions.Unresolvable as exc:
                raise InputError(f"cannot generate: unresolvable {key} {ref!r} ({type(exc).__name__})") from None
            out.append(Node(resolved.contents, resolved.resolver, self._level_of(resolved, node.level)))
        return out

    @staticmethod
    def _level_of(resolved: Any, default: int) -> int:
        contents = resolved.contents
        if isinstance(contents, dict) and "$schema" in contents:
            return dialect_level(contents["$schema"], default)
        base = urldefrag(getattr(resolved.resolver, "_base_uri", ""))[0]
        try:
            root = resolved.resolver._registry.contents(base)
        except Exception:
            return default
        if isinstance(root, dict) and "$schema" in root:
            return dialect_level(root["$schema"], default)
        return default

    # -- conjunctions --------------------------------------------------------------------------
    def alternatives(self, nodes: list[Node]) -> Iterator[list[Node]]:
        """Yield facet lists, one per combination of chosen branches, each a list of schema
        objects (dict nodes) whose conjunction is one way to satisfy all of ``nodes``.

        A ``false`` schema in the conjunction (or a chosen branch) makes that alternative empty,
        so nothing is yielded for it. ``$ref`` cycles that do not pass through an instance level
        are cut (they add no constraint the first visit did not). The number of alternatives is
        capped per call (400 in ``min`` mode, 12 in ``rand`` mode).
        """
        budget = [_BRANCH_LIMIT[self.mode]]
        yield from self._alts(list(nodes), [], [], frozenset(), budget)

    def _alts(self, pending: list[Node], facets: list[Node], branches: list[tuple[str, Node]],
              seen: frozenset[tuple[int, str]], budget: list[int]) -> Iterator[list[Node]]:
        facets = list(facets)
        branches = list(branches)
        seen_set = set(seen)
        queue = list(pending)
        while queue:
            self.tick()
            node = queue.pop(0)
            s = node.schema
            if s is True or not isinstance(s, (dict, bool)):
                continue
            if s is False:
                return
            node = self.enter(node)
            key = (id(s), getattr(node.resolver, "_base_uri", ""))
            if key in seen_set:
                continue
            seen_set.add(key)
            queue.extend(self.follow(node))
            if node.level <= 7 and "$ref" in s:
                continue  # drafts 04-07: $ref siblings are ignored
            all_of = s.get("allOf")
            if isinstance(all_of, list):
                queue.extend(node.child(sub) for sub in all_of)
            facets.append(node)
            for kw in ("anyOf", "oneOf", "if"):
                if kw in s and (kw != "if" or node.level >= 7):
                    branches.append((kw, node))
        if not branches:
            budget[0] -= 1
            if budget[0] >= 0:
                yield facets
            return
        (kw, node), rest = branches[0], branches[1:]
        frozen = frozenset(seen_set)
        for option in self.order(self._options(kw, node)):
            if budget[0] <= 0:
                return
            yield from self._alts(option, facets, rest, frozen, budget)

    @staticmethod
    def _options(kw: str, node: Node) -> list[list[Node]]:
        s = node.schema
        if kw == "if":
            cond = s["if"]
            return [[node.child({"not": cond}), node.child(s.get("else", True))],
                    [node.child(cond), node.child(s.get("then", True))]]
        subs = s[kw] if isinstance(s[kw], list) else []
        if kw == "anyOf":
            return [[node.child(sub)] for sub in subs]
        return [[node.child(sub)] + [node.child({"not": o}) for j, o in enumerate(subs) if j != i]
                for i, sub in enumerate(subs)]
