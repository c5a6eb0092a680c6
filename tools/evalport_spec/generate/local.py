"""Local validity for the generator, asked of jsonschema-rs where it reads the schemas alike.

While it builds an instance the generator asks, thousands of times per document, whether a
candidate value is valid under one subschema in its context (:meth:`.walk.Walker.valid`). The
reference validator (python-jsonschema) answers in tens of microseconds per call on EvalPort's
schemas, most of a generation run. :class:`LocalValidity` answers the same question with
compiled jsonschema-rs validators: one ``validator_map_for`` per schema resource of the registry
(every subschema compiled once, keyed by its URI-fragment JSON Pointer), found for a subschema
by object identity.

It only guides the search: every instance the generator returns has passed the reference
validator (:meth:`.api.Target.is_valid`), so a disagreement can change which instances are
found, never whether a returned instance is valid. It answers ``None`` (ask the reference)
wherever the two could read a schema differently:

* a resource that is not JSON Schema 2020-12 (``$schema``), or one using ``$dynamicRef``,
  ``$dynamicAnchor`` or ``$recursiveRef`` (the dynamic scope of a subschema validated on its
  own is not the reference's, which carries the walk's resolver);
* a set with a pattern jsonschema-rs does not read as ECMA-262 does
  (:func:`~evalport_spec.ecmaregex.jsonschema_rs_reads_alike`);
* a registry whose resources hold more than :data:`MAX_OBJECTS` JSON objects: compiling every
  subschema costs jsonschema-rs more than linear time and memory (measured: 1,165 objects
  0.03 s and 19 MiB, 6,786 objects 2.4 s and 930 MiB, 20,972 objects 13 s and 3.3 GiB);
* a subschema that is not a location of a resource (a schema the walk built, such as the
  ``{"not": ...}`` of a ``oneOf`` branch not taken), or an exception from the backend.

``format`` is asserted through the reference's own checks (the callbacks of
:func:`evalport_spec.rsvalidator.rs_formats`), so both read every format alike.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import unquote

import referencing
from jsonschema_specifications import REGISTRY as META_SCHEMAS

from ..ecmaregex import jsonschema_rs_reads_alike
from ..rsvalidator import jsonschema_rs, no_retrieve, rs_formats

_ANONYMOUS = "urn:evalport-spec:generate:root"
"""The base URI a resource without one is compiled under (its own ``#...`` references resolve
in it; any other relative reference fails to compile, and the set is left to the reference)."""

MAX_OBJECTS = 2000
"""At most this many JSON objects in the registry's own resources for the fast path (this
repository's schemas hold a few hundred; see the module docstring for the cost beyond)."""

_DYNAMIC = frozenset({"$dynamicRef", "$dynamicAnchor", "$recursiveRef", "$recursiveAnchor"})


def _scan(value: Any, patterns: list[str], budget: list[int]) -> bool:
    """Collect every ``pattern`` string and ``patternProperties`` name under ``value`` (any JSON
    position, so a ``const`` holding such a member adds a pattern too: only ever more
    cautious), counting its objects against ``budget[0]``; ``False`` when a dynamic reference
    keyword occurs or the budget runs out."""
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, dict):
            budget[0] -= 1
            if budget[0] < 0 or _DYNAMIC.intersection(v):
                return False
            if isinstance(v.get("pattern"), str):
                patterns.append(v["pattern"])
            if isinstance(v.get("patternProperties"), dict):
                patterns.extend(v["patternProperties"])
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)
    return True


def _at(root: Any, key: str) -> Any:
    """The value at the URI-fragment JSON Pointer ``key`` (``"#/a/b"``) in ``root`` (RFC 6901
    section 6: percent-decoding, then ``~1``/``~0``); raises ``LookupError`` when absent."""
    node = root
    fragment = unquote(key[1:])
    if not fragment:
        return node
    for token in fragment[1:].split("/"):
        token = token.replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict):
            node = node[token]
        elif isinstance(node, list) and token.isdigit():
            node = node[int(token)]
        else:
            raise LookupError(key)
    return node


class LocalValidity:
    """jsonschema-rs verdicts for the subschemas of a registry's own resources.

    Args:
        registry: the ``referencing.Registry`` of the generation (crawled); the dialect
            meta-schemas it holds (``jsonschema-specifications``) are not indexed.
        format_checker: the reference's ``jsonschema.FormatChecker`` when ``format`` asserts,
            else ``None``.

    With jsonschema-rs missing, or a registry it cannot read alike (module docstring), every
    answer is ``None``.
    """

    def __init__(self, registry: referencing.Registry, format_checker: Any) -> None:
        self._by_id: dict[int, tuple[Any, Any]] = {}  # id(subschema) -> (subschema, validator)
        if jsonschema_rs is None:
            return
        roots: dict[int, tuple[str, Any]] = {}  # a resource by identity, once (with and without "#")
        for uri in registry:
            if uri not in META_SCHEMAS:
                contents = registry.contents(uri)
                if isinstance(contents, dict):
                    roots.setdefault(id(contents), (uri.rstrip("#") or _ANONYMOUS, contents))
        patterns: list[str] = []
        budget = [MAX_OBJECTS]
        for _, contents in roots.values():
            if "2020-12" not in str(contents.get("$schema", "2020-12")) or not _scan(contents, patterns, budget):
                return
        if not all(jsonschema_rs_reads_alike(p) for p in patterns):
            return
        try:
            rs_registry = jsonschema_rs.Registry([(uri, c) for uri, c in roots.values()],
                                                 retriever=no_retrieve)
            options = {"validate_formats": format_checker is not None,
                       "formats": rs_formats(format_checker) if format_checker is not None else None}
            for uri, contents in roots.values():
                compiled = jsonschema_rs.validator_map_for(contents, registry=rs_registry, base_uri=uri,
                                                           retriever=no_retrieve, **options)
                for key in compiled.keys():
                    try:
                        sub = _at(contents, key)
                    except (LookupError, ValueError):
                        continue
                    self._by_id.setdefault(id(sub), (sub, compiled[key]))
        except Exception:  # noqa: BLE001 - a set the backend cannot compile: ask the reference
            self._by_id.clear()

    def is_valid(self, value: Any, schema: Any) -> bool | None:
        """Whether ``value`` is valid under ``schema`` (a subschema object of an indexed resource,
        by identity), or ``None`` when only the reference can tell."""
        entry = self._by_id.get(id(schema))
        if entry is None or entry[0] is not schema:
            return None
        try:
            return bool(entry[1].is_valid(value))
        except Exception:  # noqa: BLE001 - e.g. a value the backend cannot convert
            return None
