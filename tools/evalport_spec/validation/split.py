"""The reference schema pass, item by item, on documents with long arrays: the error path made
proportional to the errors.

The reference pass (python-jsonschema) costs about a second per megabyte of ResultSet. When the
fast backend (:mod:`.fast`) says a document is invalid, usually one Result of thousands is
wrong; :class:`SplitPass` then asks the fast backend about each item of the long arrays
(``results``, ``test_cases``, ``graders``) and runs the reference only on

* the *shell*: the root schema with the ``items`` of those arrays removed (every other keyword
  of the root and of the arrays, ``minItems`` included, still applies), and
* each item the fast backend rejects (or cannot decide), against the ``items`` schema,

and re-bases those errors under ``/<array>/<index>`` (instance location) and
``/properties/<array>/items`` (schema location).

Why the union equals a full reference pass: JSON Schema evaluates ``properties`` member by
member and ``items`` item by item, each item against the ``items`` subschema alone (JSON Schema
2020-12 Core, section 10.3.1.2, ``items``); an item cannot see its siblings or its parent, so
the errors of a full pass are exactly the shell's plus each item's, at those locations
(jsonschema elides ``$ref`` from schema paths, so wrapping an item schema in ``{"$ref": uri}``
adds no token). Items the fast backend accepts contribute nothing, the same assumption the
whole-document fast path makes (:mod:`.fast`). The split is used only where that reasoning
holds, checked once per schema (:func:`plan`): the root has no applicator other than
``properties``/``additionalProperties`` (no ``allOf``, ``if``, ``unevaluatedProperties``,
``patternProperties``, ``dependentSchemas``, ...), the array's schema has only
``type``/``minItems``/``maxItems``/``items`` and annotations, ``items`` is one ``$ref``, and no
file of the set uses ``$dynamicRef`` (whose dynamic scope would differ). Otherwise the caller
runs the full reference pass. ``tests/test_validation_split.py`` proves equality on every
fixture and on generated invalid documents.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from urllib.parse import urljoin

from jsonschema.exceptions import ValidationError

from ..schemaset import SchemaSet
from .fast import FastCheck

ANNOTATIONS = frozenset({"$schema", "$id", "$comment", "$defs", "title", "description",
                         "examples", "default", "deprecated", "readOnly", "writeOnly",
                         "x-evalport-rule"})
"""Keywords that never produce an error."""

ROOT_KEYWORDS = ANNOTATIONS | {"type", "required", "additionalProperties", "properties",
                               "minProperties", "maxProperties"}
"""Root keywords under which the split is exact (none of them reads inside an array item;
``additionalProperties`` applies only to members not named in ``properties``)."""

ARRAY_KEYWORDS = ANNOTATIONS | {"type", "minItems", "maxItems", "items"}
"""Keywords an array member's schema may have for the split (``uniqueItems`` and ``contains``
compare or search items, so they are excluded)."""


def _uses_dynamic_ref(node: Any) -> bool:
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, dict):
            if "$dynamicRef" in n or "$recursiveRef" in n:
                return True
            stack.extend(n.values())
        elif isinstance(n, list):
            stack.extend(n)
    return False


def plan(schemas: SchemaSet, name: str) -> tuple[dict[str, Any], dict[str, str]] | None:
    """``(shell schema, {array member: absolute URI of its items schema})`` for the schema file
    ``name``, or ``None`` when the split is not exact for it (module docstring)."""
    root = schemas.files[name].schema
    if not isinstance(root, dict) or not set(root) <= ROOT_KEYWORDS:
        return None
    props = root.get("properties")
    if not isinstance(props, dict) or any(_uses_dynamic_ref(f.schema) for f in schemas):
        return None
    base = schemas.files[name].uri
    arrays: dict[str, str] = {}
    shell_props = dict(props)
    for member, sub in props.items():
        if not (isinstance(sub, dict) and "items" in sub and set(sub) <= ARRAY_KEYWORDS):
            continue
        items = sub["items"]
        if not (isinstance(items, dict) and set(items) == {"$ref"} and isinstance(items["$ref"], str)):
            continue
        arrays[member] = urljoin(base, items["$ref"])
        shell_props[member] = {k: v for k, v in sub.items() if k != "items"}
    if not arrays:
        return None
    return {**root, "properties": shell_props}, arrays


class SplitPass:
    """The split reference pass for one schema file of a set (see the module docstring).

    Args:
        validator: the reference ``jsonschema`` validator of the whole schema (format
            checker and registry included); evolved, never changed.
        schemas, name: the set and the root schema file.
        fast: whether to ask the fast backend about items (``False``: every item takes the
            reference pass, still split, which tests use to compare).

    Use :meth:`applies` first; :meth:`iter_errors` then yields errors equal (as violations) to
    ``validator.iter_errors(document)``.
    """

    def __init__(self, validator: Any, schemas: SchemaSet, name: str, *, fast: bool = True) -> None:
        found = plan(schemas, name)
        self.arrays: dict[str, str] = {}
        if found is None:
            return
        shell, self.arrays = found
        self._shell = validator.evolve(schema=shell)
        self._items = {m: validator.evolve(schema={"$ref": uri}) for m, uri in self.arrays.items()}
        checker = validator.format_checker
        self._fast = {m: FastCheck(schemas, name, checker, schema={"$ref": uri}) if fast else None
                      for m, uri in self.arrays.items()}
        self._fast_arrays = {m: FastCheck(schemas, name, checker, schema={
            "type": "array", "items": {"$ref": uri}}) if fast else None for m, uri in self.arrays.items()}

    def applies(self, document: Any) -> bool:
        """Whether the split is available for this schema and ``document`` has one of its
        arrays."""
        return bool(self.arrays) and isinstance(document, dict) and any(
            isinstance(document.get(m), list) for m in self.arrays)

    def iter_errors(self, document: Any) -> Iterator[ValidationError]:
        """The reference pass's errors on ``document``, computed per item (module docstring)."""
        yield from self._shell.iter_errors(document)
        for member in self.arrays:
            items = document.get(member)
            if not isinstance(items, list):
                continue
            yield from self.items_errors(member, 0, items)

    def items_errors(self, member: str, first: int, items: list[Any]) -> Iterator[ValidationError]:
        """The reference pass's errors on items ``first``, ``first + 1``, ... of the array
        ``member`` (located in the whole document); only the items the fast backend rejects
        (or cannot decide) take the reference pass."""
        fast, array = self._fast[member], self._fast_arrays[member]
        if array is not None and array.is_valid(items) is True:
            return  # one call for the usual case: every item valid
        for index, item in enumerate(items, first):
            if fast is not None and fast.is_valid(item) is True:
                continue
            for error in self._items[member].iter_errors(item):
                error.path.extendleft((index, member))
                error.schema_path.extendleft(("properties", member, "items")[::-1])
                yield error

    def shell_errors(self, members: dict[str, Any], counts: dict[str, int]) -> Iterator[ValidationError]:
        """The shell's errors on a document known by its other ``members`` and the number of
        items of each array (``counts``), as on the whole document: an array's schema in the
        shell reads only its type and length (:func:`plan`), so a placeholder of ``None``\\ s
        long enough to decide ``minItems``/``maxItems`` stands in for it (messages of those
        keywords do not show the instance, :mod:`.schema_pass`)."""
        document = dict(members)
        for member, n in counts.items():
            bounds = [v for k, v in self._shell.schema["properties"][member].items()
                      if k in ("minItems", "maxItems") and isinstance(v, int)]
            document[member] = [None] * min(n, max(bounds, default=0) + 1)
        return self._shell.iter_errors(document)
