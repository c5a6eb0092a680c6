"""The SPEC.md text an applied proposal adds: field rows, rule stubs and a changelog line.

One function, :func:`spec_md_with_proposal`, so that a generator of SPEC.md's field tables and
rule sections can replace it whole. What it adds (SPEC.md layout: ``## Documents`` holds one
``### Title`` per titled object with a ``| Field | Type | Required | Description |`` table;
``## Cross-field rules`` one ``### CODE`` per rule; ``## Changelog`` the release entries):

* a row per property a patch operation adds at ``.../properties/NAME`` of a titled object, at
  the end of that object's table; a new ``### Title`` section (description and table) for a
  titled object a patch operation adds, at the end of ``## Documents``;
* a ``### CODE`` section per catalogue entry the proposal adds, at the end of
  ``## Cross-field rules``: statement, document type, where it is reported, since, and the
  catalogue's ``gap`` under ``**Carried by the schema:**`` or ``**Why JSON Schema does not carry
  it:**`` (the marks :mod:`evalport_spec.rulecheck` reads);
* one line for the RFC in the *unreleased* block at the top of ``## Changelog``
  (:data:`PENDING_MARK`), which ``release`` moves into the next release's entry.
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any

from ..spec import SpecVersion

if TYPE_CHECKING:
    from .proposal import Proposal

PENDING_MARK = "Unreleased changes of the working draft (the next release's entry takes these lines):"
"""First line of the unreleased block under ``## Changelog``; bullets follow it."""


def _anchor(title: str) -> str:
    return re.sub(r"[^a-z0-9-]", "", title.lower())


def _resolve(root: dict[str, Any], ref: str) -> dict[str, Any] | None:
    if not ref.startswith("#/"):
        return None
    node: Any = root
    for part in ref[2:].split("/"):
        node = node.get(part.replace("~1", "/").replace("~0", "~")) if isinstance(node, dict) else None
    return node if isinstance(node, dict) else None


def type_text(prop: Any, root: dict[str, Any]) -> str:
    """The Type cell for a property schema, in SPEC.md's words (``integer ≥ 1``, ``non-empty
    string``, ``array of [Title](#title)``, ``number in [0, 1]``, ``open object``)."""
    if not isinstance(prop, dict):
        return "any value"
    if isinstance(prop.get("$ref"), str):
        target = _resolve(root, prop["$ref"])
        title = target.get("title") if target else None
        return f"[{title}](#{_anchor(title)})" if isinstance(title, str) else "see the schema"
    if isinstance(prop.get("enum"), list):
        return "one of " + ", ".join(f"`{json.dumps(v)}`" for v in prop["enum"])
    types = prop.get("type")
    names = types if isinstance(types, list) else [types]
    words = [_one_type(t, prop, root) for t in names if isinstance(t, str)]
    return " or ".join(words) if words else "see the schema"


def _one_type(t: str, prop: dict[str, Any], root: dict[str, Any]) -> str:
    if t == "array":
        text = f"array of {type_text(prop['items'], root)}" if "items" in prop else "array"
        return f"non-empty {text}" if prop.get("minItems") == 1 else text
    if t in ("integer", "number"):
        lo, hi = prop.get("minimum"), prop.get("maximum")
        if lo is not None and hi is not None:
            return f"{t} in [{lo}, {hi}]"
        if lo is not None:
            return f"{t} ≥ {lo}"
        return f"{t} ≤ {hi}" if hi is not None else t
    if t == "string":
        if isinstance(prop.get("format"), str):
            return f"{prop['format']} string"
        return "non-empty string" if prop.get("minLength") == 1 else "string"
    if t == "object":
        return "object" if prop.get("additionalProperties") is False else "open object"
    return t


def _row(name: str, prop: Any, obj: dict[str, Any], root: dict[str, Any]) -> str:
    required = "yes" if name in (obj.get("required") or []) else "no"
    description = " ".join(str(prop.get("description", "")).split()) if isinstance(prop, dict) else ""
    return f"| `{name}` | {type_text(prop, root)} | {required} | {description} |"


def _section(lines: list[str], title: str, level: int, start: int = 0, end: int | None = None) -> int | None:
    """Index of the heading ``#... title`` at ``level`` within ``lines[start:end]``."""
    mark = "#" * level + " " + title
    for i in range(start, len(lines) if end is None else end):
        if lines[i].strip() == mark:
            return i
    return None


def _section_end(lines: list[str], start: int, level: int) -> int:
    """Index of the first heading at ``level`` or above after ``start`` (or the end)."""
    for i in range(start + 1, len(lines)):
        m = re.match(r"^(#{1,6}) ", lines[i])
        if m and len(m.group(1)) <= level:
            return i
    return len(lines)


def _insert_block(lines: list[str], at: int, block: list[str]) -> None:
    """Insert ``block`` at ``at`` separated from its neighbours by one blank line each."""
    while at > 0 and not lines[at - 1].strip():
        at -= 1
        del lines[at]
    lines[at:at] = [""] + block + [""]


def _added_properties(proposal: Proposal, proposed: SpecVersion) -> tuple[dict[str, list[str]], list[list[str]]]:
    """``({object title: [rows]}, [new object sections])`` from the patch operations."""
    rows: dict[str, list[str]] = {}
    sections: list[list[str]] = []
    for name, ops in proposal.patch.items():
        root = proposed.schemas.files[name].schema
        for op in ops:
            if op["op"] != "add":
                continue
            value, path = op.get("value"), op["path"]
            head, _, prop_name = path.rpartition("/")
            if head.endswith("/properties") or head == "/properties":
                obj = _resolve(root, "#" + head[: -len("/properties")]) if head != "/properties" else root
                if obj and isinstance(obj.get("title"), str):
                    rows.setdefault(obj["title"], []).append(_row(prop_name, value, obj, root))
            elif isinstance(value, dict) and isinstance(value.get("title"), str) \
                    and isinstance(value.get("properties"), dict):
                table = ["| Field | Type | Required | Description |", "| --- | --- | --- | --- |"]
                table += [_row(k, v, value, root) for k, v in value["properties"].items()]
                text = " ".join(str(value.get("description", "")).split())
                sections.append([f"### {value['title']}", ""] + ([text, ""] if text else []) + table)
    return rows, sections


def _rule_stub(entry: Any, rfc_number: int) -> list[str]:
    at = []
    for pattern in entry.reported_at:
        parts = pattern.split("*")
        named = parts[0] + "".join(f"{'NMKLJ'[k % 5]}{rest}" for k, rest in enumerate(parts[1:]))
        at.append(f"`{named}`")
    mark = "**Carried by the schema:**" if entry.encoded else "**Why JSON Schema does not carry it:**"
    lines = [f"### {entry.code}", "", entry.statement, "", f"- Document type: {entry.document}."]
    if at:
        lines.append(f"- Reported at: {', '.join(at)}.")
    lines += [f"- Since: {entry.since} (RFC {rfc_number:04d}).", "", f"{mark} {entry.gap}".rstrip()]
    return lines


def changelog_line(proposal: Proposal, properties: dict[str, list[str]], sections: list[list[str]]) -> str:
    """The unreleased changelog bullet for an applied proposal (names ``RFC 000N`` so the
    release that ships it is tied to the RFC)."""
    parts = []
    for title, rows in properties.items():
        names = [re.match(r"^\| `([^`]+)`", r).group(1) for r in rows]  # type: ignore[union-attr]
        parts.append(f"{title} gains {', '.join(f'`{n}`' for n in names)}")
    parts += [f"new object {s[0][4:]}" for s in sections]
    codes = [r.code for r in proposal.rules]
    if codes:
        listed = codes[0] if len(codes) == 1 else ", ".join(codes[:-1]) + " and " + codes[-1]
        parts.append(f"cross-field rule{'s' if len(codes) > 1 else ''} {listed}")
    what = "; ".join(parts) or "schema change"
    declared = proposal.rfc.meta.get("declared_class", "?")
    return f"- RFC {proposal.rfc.number:04d} ({declared}): {what}."


def spec_md_with_proposal(text: str, proposal: Proposal, proposed: SpecVersion) -> str:
    """``text`` (the draft's SPEC.md) with what ``proposal`` adds (module docstring), given the
    ``proposed`` version (the draft's schemas with the patch applied). Sections that are absent
    are left alone; the result always ends as ``text`` did."""
    lines = text.split("\n")
    properties, sections = _added_properties(proposal, proposed)
    docs = _section(lines, "Documents", 2)
    if docs is not None:
        for title, rows in properties.items():
            head = _section(lines, title, 3, docs, _section_end(lines, docs, 2))
            if head is None:
                continue
            end = _section_end(lines, head, 3)
            last = max((i for i in range(head, end) if lines[i].startswith("|")), default=None)
            if last is not None:
                lines[last + 1:last + 1] = rows
        for block in sections:
            _insert_block(lines, _section_end(lines, docs, 2), block)
    rules_at = _section(lines, "Cross-field rules", 2)
    if rules_at is not None:
        for entry in proposal.rules:
            _insert_block(lines, _section_end(lines, rules_at, 2), _rule_stub(entry, proposal.rfc.number))
    log = _section(lines, "Changelog", 2)
    if log is not None:
        line = changelog_line(proposal, properties, sections)
        if PENDING_MARK in lines:
            i = _bullets(lines, lines.index(PENDING_MARK))[1]
            lines.insert(i, line)
        else:
            lines[log + 1:log + 1] = ["", PENDING_MARK, "", line]
    return "\n".join(lines)


def _bullets(lines: list[str], mark: int) -> tuple[list[str], int]:
    """The bullet lines after the unreleased mark at ``mark`` (a blank line between), and the
    index just after the last one."""
    j = mark + 1
    while j < len(lines) and not lines[j].strip():
        j += 1
    start = j
    while j < len(lines) and lines[j].startswith("- "):
        j += 1
    return lines[start:j], j


def take_pending(text: str) -> tuple[str, list[str]]:
    """Split the unreleased block off a SPEC.md text: ``(text without it, its bullet lines)``
    (``release`` puts the bullets into the new release's entry)."""
    lines = text.split("\n")
    if PENDING_MARK not in lines:
        return text, []
    i = lines.index(PENDING_MARK)
    bullets, j = _bullets(lines, i)
    del lines[i:j]
    if 0 < i < len(lines) and not lines[i].strip() and not lines[i - 1].strip():
        del lines[i]
    return "\n".join(lines), bullets
