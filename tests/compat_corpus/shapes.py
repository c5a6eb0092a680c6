"""Schema shapes that stress the classifier (issues 11, 16 and 20), generated in code.

Each function returns plain schema values; the class each pair should get is stated in its
docstring (worked out by hand).
"""

from __future__ import annotations

import copy
from typing import Any

from .mutate import subschemas


def nested_oneof(depth: int, leaf_max: int = 10) -> dict:
    """``oneOf`` nested ``depth`` deep, each level two closed object branches (``a<d>`` or
    ``b<d>`` required, nothing else allowed: disjoint), both holding the next level; the leaf
    is a string of at most ``leaf_max`` characters. Raising ``leaf_max`` is MINOR."""
    s: dict = {"type": "string", "maxLength": leaf_max}
    for d in range(depth):
        s = {"oneOf": [{"type": "object", "required": [k], "properties": {k: s}, "additionalProperties": False}
                       for k in (f"a{d}", f"b{d}")]}
    return s


def anyof_groups(groups: int = 8, bound: int = 10) -> dict:
    """An object with ``groups`` ``anyOf`` groups of four ``required`` branches and an integer
    ``n <= bound``. The groups are the same conjuncts whatever ``bound``: raising it is MINOR."""
    return {"type": "object", "properties": {"n": {"type": "integer", "maximum": bound}},
            "allOf": [{"anyOf": [{"required": [f"g{i}b{j}"]} for j in range(4)]} for i in range(groups)]}


def anyof_groups_document(groups: int = 8, n: int = 15) -> dict:
    """A document meeting every group of :func:`anyof_groups` with the given ``n``."""
    return {"n": n, **{f"g{i}b0": 1 for i in range(groups)}}


def big_enum(size: int, removed: int = 0) -> tuple[dict, dict]:
    """(old, new): a string ``enum`` of ``size`` values and the same without its last
    ``removed`` values (MAJOR with ``removed`` lost values; PATCH when ``removed`` is 0)."""
    values = [f"v{i:06d}" for i in range(size)]
    return {"type": "string", "enum": values}, {"type": "string", "enum": values[:size - removed]}


def keys_reversed(schema: Any) -> Any:
    """``schema`` with every object's members in reverse order (same meaning, other bytes)."""
    if isinstance(schema, dict):
        return {k: keys_reversed(schema[k]) for k in reversed(list(schema))}
    if isinstance(schema, list):
        return [keys_reversed(x) for x in schema]
    return schema


def first(schema: Any, test) -> str | None:
    """The pointer of the first subschema (sorted by pointer) for which ``test(node)`` holds."""
    for ptr, node in sorted(subschemas(schema), key=lambda pn: pn[0]):
        if test(node):
            return ptr
    return None


def edited(schema: Any, ptr: str, edit) -> Any:
    """A deep copy of ``schema`` with ``edit(node)`` applied in place to the subschema at ``ptr``."""
    out = copy.deepcopy(schema)
    node = out
    for part in ptr.split("/")[1:]:
        part = part.replace("~1", "/").replace("~0", "~")
        node = node[int(part)] if isinstance(node, list) else node[part]
    edit(node)
    return out


def enum_value_removed(schema: Any) -> tuple[Any, str]:
    """(copy of ``schema`` with the last value of its first ``enum`` of two or more values
    removed, that enum's pointer): MAJOR, the removed value is lost where the enum is reached.
    An ``enum`` beside a ``$ref`` is passed over: up to draft-07 a ``$ref``'s sibling keywords are
    ignored, so removing a value there changes nothing (azure-pipelines.json's first enum is one:
    PATCH is right there)."""
    ptr = first(schema, lambda s: isinstance(s.get("enum"), list) and len(s["enum"]) > 1 and "$ref" not in s)
    if ptr is None:
        raise ValueError("no enum with two or more values")
    return edited(schema, ptr, lambda s: s["enum"].pop()), ptr


def description_changed(schema: Any) -> tuple[Any, str]:
    """(copy of ``schema`` with its first ``description`` changed, its pointer): PATCH."""
    ptr = first(schema, lambda s: isinstance(s.get("description"), str))
    if ptr is None:
        raise ValueError("no description")
    return edited(schema, ptr, lambda s: s.update(description=s["description"] + " (changed)")), ptr


def property_added(schema: Any) -> tuple[Any, str]:
    """(copy of ``schema`` with an optional string property ``x-bench-added`` declared on its
    first subschema that has ``properties``, that pointer): MINOR on a closed object, MAJOR on
    an open one (a document with a non-string ``x-bench-added`` is lost)."""
    ptr = first(schema, lambda s: isinstance(s.get("properties"), dict))
    if ptr is None:
        raise ValueError("no properties")
    return edited(schema, ptr, lambda s: s["properties"].update({"x-bench-added": {"type": "string"}})), ptr


def split_if_then(grader: dict) -> dict:
    """``grader`` with every ``if``/``then`` entry of its ``allOf`` rewritten as an ``anyOf`` of
    its two cases (``if`` and ``then``; not ``if``): the same meaning, so PATCH."""
    out = copy.deepcopy(grader)
    out["allOf"] = [{"anyOf": [{"allOf": [e["if"], e.get("then", True)]}, {"not": e["if"]}]}
                    if isinstance(e, dict) and "if" in e and "else" not in e else e for e in out["allOf"]]
    return out
