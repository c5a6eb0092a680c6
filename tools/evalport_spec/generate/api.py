"""The public generation API: minimal, varied and candidate instances of a JSON Schema."""

from __future__ import annotations

import random
from typing import Any

import referencing
import referencing.exceptions
import referencing.jsonschema

from ..errors import InputError
from .engine import NOTHING, Engine, canonical
from .local import LocalValidity
from .walk import Exhausted, Node, dialect_level, specification, validator_class

MAX_STEPS = 40000
"""Default step budget of one call (a step is one schema node visited or one candidate tried)."""


def _no_retrieve(uri: str) -> referencing.Resource:
    raise referencing.exceptions.NoSuchResource(ref=uri)


class Target:
    """A schema prepared for generation: its root :class:`Node` and the real validator.

    Args:
        schema: the schema (object or boolean).
        registry: a ``referencing.Registry`` holding the other schemas of the set (e.g.
            :attr:`SchemaSet.registry <evalport_spec.schemaset.SchemaSet.registry>`), or ``None``
            for a single anonymous schema. Nothing is ever retrieved over the network.
        base_uri: the schema's URI in ``registry`` (its ``$id``); ``""`` uses the schema's own
            ``$id`` if any.
        format_assertion: ``format`` is an assertion (``True``, as EvalPort requires) or an
            annotation.

    Raises:
        InputError: the schema is neither an object nor a boolean, or cannot be indexed.
    """

    def __init__(self, schema: Any, registry: referencing.Registry | None = None, base_uri: str = "",
                 format_assertion: bool = True) -> None:
        if not isinstance(schema, (dict, bool)):
            raise InputError(f"cannot generate: a JSON Schema must be an object or a boolean, "
                             f"not {type(schema).__name__}")
        self.schema = schema
        level = dialect_level(schema.get("$schema")) if isinstance(schema, dict) else 2020
        self.level = level
        cls = validator_class(level)
        resource = specification(level).create_resource(schema)
        reg = registry if registry is not None else referencing.Registry(retrieve=_no_retrieve)
        try:
            if base_uri:
                if base_uri not in reg:
                    reg = reg.with_resource(base_uri, resource)
                reg = reg.crawl()
                resolver = reg.resolver(base_uri)
            else:
                resolver = reg.resolver_with_root(resource)
                reg = resolver._registry.crawl()
                resolver = reg.resolver(getattr(resolver, "_base_uri", ""))
        except Exception as exc:  # malformed $id / $anchor
            raise InputError(f"cannot generate: cannot index the schema: {exc}") from None
        self.format_checker = cls.FORMAT_CHECKER if format_assertion else None
        self.local = LocalValidity(reg, self.format_checker)
        self.root = Node(schema, resolver, level)
        self.validator = cls(schema, format_checker=self.format_checker, _resolver=resolver)

    def is_valid(self, instance: Any) -> bool:
        """The real validator's verdict (an endless ``$ref`` loop or broken reference: ``False``)."""
        try:
            return self.validator.is_valid(instance)
        except (referencing.exceptions.Unresolvable, RecursionError):
            return False

    def engine(self, mode: str, seed: Any = 0, rotate: int | None = None, steps: int = MAX_STEPS) -> Engine:
        """A fresh :class:`Engine` over this schema."""
        return Engine(self.format_checker, mode, random.Random(seed), rotate, steps, self.local)


def schema_kwargs(schema_set: Any, name: str) -> dict[str, Any]:
    """Arguments for the functions of this module for file ``name`` of a
    :class:`~evalport_spec.schemaset.SchemaSet`: ``{"schema", "registry", "base_uri"}``.

    Raises:
        KeyError: no such file in the set.
    """
    f = schema_set.files[name]
    return {"schema": f.schema, "registry": schema_set.registry, "base_uri": f.uri}


def minimal_valid(schema: Any, *, registry: referencing.Registry | None = None, base_uri: str = "",
                  format_assertion: bool = True, max_depth: int = 12, max_steps: int = MAX_STEPS) -> Any:
    """A small instance valid under ``schema``, or :data:`NOTHING` when none is found.

    Small means: required members only (plus what ``minProperties``/``dependentRequired`` force),
    ``minItems`` items, the shortest strings meeting length/pattern/format, numbers nearest zero
    within bounds and ``multipleOf``, the first workable branch of ``anyOf``/``oneOf``/``if``;
    nesting is searched with increasing depth (1, 2, 3, 5, 8, ... ``max_depth``) so recursive
    schemas give their shallowest instance. The result has passed the real validator
    (``jsonschema``, the dialect picked by ``$schema``, format assertion per
    ``format_assertion``). Deterministic. Bounded by ``max_steps``.

    Raises:
        InputError: ``schema`` is not a schema, or a ``$ref`` does not resolve offline.
    """
    target = Target(schema, registry, base_uri, format_assertion)
    return _minimal(target, max_depth, max_steps)


def _minimal(target: Target, max_depth: int, max_steps: int) -> Any:
    if target.schema is False:
        return NOTHING
    steps = max_steps
    for depth in _depths(max_depth):
        eng = target.engine("min", steps=max(steps, 1))
        try:
            for v in eng.values([target.root], depth):
                if target.is_valid(v):
                    return v
        except Exhausted:
            return NOTHING
        steps = eng.steps
        if steps <= 0:
            break
    return NOTHING


def _depths(max_depth: int) -> list[int]:
    out = [d for d in (1, 2, 3, 5, 8) if d < max_depth]
    return out + [max_depth]


def generate_valid(schema: Any, *, registry: referencing.Registry | None = None, base_uri: str = "",
                   n: int = 50, seed: int = 0, max_depth: int = 8, format_assertion: bool = True,
                   max_steps: int = MAX_STEPS * 5) -> list[Any]:
    """Up to ``n`` distinct instances valid under ``schema``, varied, deterministic per ``seed``.

    The first is :func:`minimal_valid`'s. The others vary optional members (present/absent),
    boundary values (``minLength``/``maxLength``, numeric bounds), each ``enum`` value, each
    ``anyOf``/``oneOf`` branch and each type of a ``type`` array (rotated over consecutive
    instances, then random), additional members of several types on open objects, duplicated
    array items where ``uniqueItems`` allows them, and strings from a small pool so that equal
    values across siblings occur. Every returned instance has passed the real validator.
    Nesting stops at ``max_depth``; work stops at ``max_steps`` (fewer instances, never a hang).

    Raises:
        InputError: ``schema`` is not a schema, or a ``$ref`` does not resolve offline.
    """
    target = Target(schema, registry, base_uri, format_assertion)
    out: list[Any] = []
    seen: set[str] = set()
    steps = max_steps

    def add(v: Any) -> None:
        key = canonical(v)
        if key not in seen and target.is_valid(v):
            seen.add(key)
            out.append(v)

    first = _minimal(target, max_depth, min(MAX_STEPS, steps))
    if first is NOTHING:
        return out
    add(first)
    for attempt in range(max(0, n * 6)):
        if len(out) >= n or steps <= 0:
            break
        eng = target.engine("rand", seed=f"{seed}:{attempt}",
                            rotate=attempt // 2 if attempt % 2 == 0 else None,
                            steps=min(steps, MAX_STEPS))
        try:
            v = eng.first([target.root], max_depth)
        except Exhausted:
            v = NOTHING
        steps -= min(steps, MAX_STEPS) - max(eng.steps, 0)
        if v is not NOTHING:
            add(v)
    return out[:n]


def generate_candidates(schema: Any, *, registry: referencing.Registry | None = None, base_uri: str = "",
                        n: int = 50, seed: int = 0, max_depth: int = 8,
                        format_assertion: bool = True) -> list[Any]:
    """Up to ``n`` distinct instances that are NOT necessarily valid: counter-example candidates.

    Made from a few valid instances by targeted mutations at every instance location the
    schema describes: a required member removed, an unknown member added, a value of another
    JSON type, strings one shorter/longer than ``minLength``/``maxLength``, numbers just outside
    the bounds or off ``multipleOf``, values outside an ``enum`` and each enum value, arrays one
    item short of ``minItems`` or with an item duplicated. Valid instances are included too.
    Deterministic per ``seed``.

    Raises:
        InputError: ``schema`` is not a schema, or a ``$ref`` does not resolve offline.
    """
    from .mutate import mutations

    target = Target(schema, registry, base_uri, format_assertion)
    valid = generate_valid(schema, registry=registry, base_uri=base_uri, n=max(3, n // 10), seed=seed,
                           max_depth=max_depth, format_assertion=format_assertion)
    out: list[Any] = []
    seen: set[str] = set()
    rng = random.Random(f"candidates:{seed}")
    pools: list[list[Any]] = []
    for doc in valid:
        eng = target.engine("min", steps=MAX_STEPS)
        pool: list[Any] = []
        try:
            for m in mutations(eng, doc, [target.root], max_depth):
                pool.append(m)
                if len(pool) >= 4 * n:
                    break
        except Exhausted:
            pass
        pools.append(pool)
    # interleave: a few from each valid instance, in a seeded order, valid ones among them
    merged: list[Any] = []
    for pool in pools:
        rng.shuffle(pool)
    i = 0
    while any(i < len(p) for p in pools):
        merged += [p[i] for p in pools if i < len(p)]
        i += 1
    for v in merged + valid:
        key = canonical(v)
        if key not in seen:
            seen.add(key)
            out.append(v)
        if len(out) >= n:
            break
    return out


def is_nothing(value: Any) -> bool:
    """``True`` for the :data:`NOTHING` sentinel."""
    return value is NOTHING

