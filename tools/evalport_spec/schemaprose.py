"""Schemas in words: compact JSON of a value or subschema, and a condition (an ``if``
subschema) as prose. Used by the site's schema reference (:mod:`evalport_spec.site.walk`) and by
SPEC.md's generated field tables (:mod:`evalport_spec.specsync.fields`).
"""

from __future__ import annotations

import json
from typing import Any


def code(value: Any) -> str:
    """``value`` as compact JSON inside a Markdown code span."""
    text = json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
    return f"`` {text} ``" if "`" in text else f"`{text}`"


def names(items: list[str], prefix: str = "") -> str:
    """``items`` as a comma-separated list of code spans, each prefixed with ``prefix``."""
    return ", ".join(f"`{prefix}{n}`" for n in items)


ANNOTATIONS = ("description", "$comment", "title", "examples")


def plain(schema: Any) -> Any:
    """``schema`` without annotation keywords, recursively (for compact JSON in prose)."""
    if isinstance(schema, dict):
        return {k: plain(v) for k, v in schema.items() if k not in ANNOTATIONS}
    if isinstance(schema, list):
        return [plain(v) for v in schema]
    return schema


def describe_condition(schema: Any, prefix: str = "") -> str:
    """Prose for an ``if`` subschema: ``"`type` is `"regex"`"``, ``"`a` is present"``.

    Falls back to the compact JSON of the subschema for constructs it does not phrase.
    """
    if not isinstance(schema, dict):
        return "always" if schema is True else "never"
    parts: list[str] = []
    rest = {k: v for k, v in schema.items()
            if k not in ("properties", "required", "not", "$comment", "description")}
    props = schema.get("properties") if isinstance(schema.get("properties"), dict) else {}
    req = [r for r in schema.get("required", []) if r not in props] \
        if isinstance(schema.get("required"), list) else []
    if req:
        parts.append(f"{names(req, prefix)} {'is' if len(req) == 1 else 'are'} present")
    if props:
        for name, sub in props.items():
            where = f"{prefix}{name}"
            sub = plain(sub)
            if isinstance(sub, dict) and set(sub) == {"type"} and isinstance(sub["type"], str):
                parts.append(f"`{where}` is {'null' if sub['type'] == 'null' else 'a ' + sub['type']}")
            elif isinstance(sub, dict) and set(sub) <= {"const"} and "const" in sub:
                parts.append(f"`{where}` is {code(sub['const'])}")
            elif isinstance(sub, dict) and set(sub) <= {"enum"} and "enum" in sub:
                parts.append(f"`{where}` is one of " + ", ".join(code(v) for v in sub["enum"]))
            elif isinstance(sub, dict) and "not" in sub and set(sub) == {"not"} \
                    and isinstance(sub["not"], dict) and set(sub["not"]) <= {"enum", "const"}:
                vals = sub["not"].get("enum", [sub["not"].get("const")])
                parts.append(f"`{where}` is not " + ", ".join(code(v) for v in vals))
            elif isinstance(sub, dict) and set(plain(sub)) <= {"properties", "required"}:
                parts.append(describe_condition(plain(sub), f"{where}."))
            elif isinstance(sub, dict) and set(plain(sub)) <= {"type", "minItems", "items"} \
                    and sub.get("type") == "array":
                bits = [f"`{where}` is an array"]
                if "minItems" in sub:
                    bits.append(f"with at least {sub['minItems']} item{'s' if sub['minItems'] != 1 else ''}")
                if isinstance(sub.get("items"), dict):
                    bits.append(f"whose items all satisfy: {describe_condition(sub['items'])}")
                parts.append(" ".join(bits))
            else:
                parts.append(f"`{where}` matches {code(plain(sub))}")
    if "not" in schema:
        parts.append(f"not ({describe_condition(schema['not'], prefix)})")
    if set(rest) == {"type"} and rest["type"] == "object" and (props or req):
        pass  # implied by the member conditions
    elif set(rest) == {"type"} and isinstance(rest["type"], str) and not prefix:
        parts.append(f"the value is a {rest['type']}")
    elif rest:
        parts.append(f"the value matches {code(plain(rest))}")
    return " and ".join(parts) if parts else "always"
