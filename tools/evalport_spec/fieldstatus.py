"""Whether documents valid under a schema can hold a value at an instance location.

:func:`field_status` walks a schema set along a pointer pattern (``*`` for any array index):
``$ref`` (in-set only, offline, by ``$id``) and ``allOf`` always apply, ``anyOf``/``oneOf``
branches and ``then``/``else`` may; ``properties``, ``patternProperties`` (Python ``re``
search), ``additionalProperties`` and ``unevaluatedProperties`` decide each name. It shows that
a cross-field rule reads only fields new in a version (:mod:`evalport_spec.rulechanges`).
"""

from __future__ import annotations

from typing import Any

from .ecmaregex import search
from .pointer import split, unescape
from .schemaset import SchemaSet
from .schemawalk import resolve_ref


def _expand(schemas: SchemaSet, base: str, node: Any, conjunct: bool = True,
            depth: int = 0) -> list[tuple[str, Any, bool]]:
    """The subschemas that apply at one instance location: ``(base URI, subschema, conjunct)``.

    ``node`` and its ``$ref``/``allOf`` targets always apply (``conjunct`` is ``True``);
    ``anyOf``/``oneOf`` branches and ``then``/``else`` may apply (``conjunct`` is ``False``).
    """
    if depth > 32 or not isinstance(node, dict):
        return [(base, node, conjunct)]
    out = [(base, node, conjunct)]
    ref = node.get("$ref")
    if isinstance(ref, str):
        hit = resolve_ref(schemas, base, ref)
        if hit is not None:
            out.extend(_expand(schemas, hit[0], hit[1], conjunct, depth + 1))
    for key in ("allOf", "anyOf", "oneOf"):
        subs = node.get(key)
        for sub in subs if isinstance(subs, list) else []:
            out.extend(_expand(schemas, base, sub, conjunct and key == "allOf", depth + 1))
    for key in ("then", "else"):
        if isinstance(node.get(key), dict):
            out.extend(_expand(schemas, base, node[key], False, depth + 1))
    return out


def field_status(schemas: SchemaSet, file: str, pattern: str) -> str:
    """Whether documents valid under schema ``file`` can have a value at ``pattern``.

    ``pattern`` is a JSON Pointer in which ``*`` stands for any array index. Returns
    ``"absent"`` when an object on the way is closed to that name (a subschema that always
    applies there has ``additionalProperties: false`` without a ``properties`` or
    ``patternProperties`` entry admitting it, or ``unevaluatedProperties: false`` and no applying
    subschema declares it): no valid document has the field. Returns ``"present"`` when the
    schema declares every step, and ``"open"`` when a step is only admitted by an open object
    (old documents may carry the name with any value).
    """
    f = schemas.files[file]
    level = _expand(schemas, f.uri, f.schema)
    status = "present"
    for token in split(pattern):
        nxt: list[tuple[str, Any, bool]] = []
        if token == "*" or token.isdigit():
            for base, node, conj in level:
                if not isinstance(node, dict):
                    continue
                if isinstance(node.get("items"), dict):
                    nxt.extend(_expand(schemas, base, node["items"], conj))
                for sub in node.get("prefixItems", []) or []:
                    nxt.extend(_expand(schemas, base, sub, False))
        else:
            name = unescape(token)
            declared_anywhere = False
            forbidden = False
            unevaluated_closed = False
            for base, node, conj in level:
                if not isinstance(node, dict):
                    continue
                declared = False
                props = node.get("properties")
                if isinstance(props, dict) and name in props:
                    declared = True
                    nxt.extend(_expand(schemas, base, props[name], conj))
                pats = node.get("patternProperties")
                if isinstance(pats, dict):
                    for pat, sub in pats.items():
                        if search(pat, name):
                            declared = True
                            nxt.extend(_expand(schemas, base, sub, conj))
                declared_anywhere = declared_anywhere or declared
                addl = node.get("additionalProperties")
                if not declared:
                    if addl is False and conj:
                        forbidden = True
                    elif isinstance(addl, dict):
                        nxt.extend(_expand(schemas, base, addl, conj))
                if node.get("unevaluatedProperties") is False and conj:
                    unevaluated_closed = True
            if forbidden or (unevaluated_closed and not declared_anywhere):
                return "absent"
            if not declared_anywhere:
                status = "open"
        level = nxt
    return status
