"""Branches of an ``anyOf``/``oneOf`` told apart by one member's literal pattern, for reading the
group's verdict without descending into branches that must fail.

Large real schemas list dozens to hundreds of object branches, each naming itself by a member
whose ``pattern`` is one anchored literal (azure-pipelines.json: 259 ``task`` branches, each
``"properties": {"task": {"pattern": "^PowerShell@2$"}}``). A document's ``task`` string then
rules out every branch but the one or two it names, before any branch is read.

When a branch is ruled out (:func:`ruled_out`): the branch is a schema object without ``$ref``
(before 2019-09 a ``$ref`` makes every sibling keyword ignored), its ``properties`` give the
member a schema object without ``$ref`` whose ``pattern`` is ``^`` + literal + ``$``, the
literal made only of letters, digits and ``@ _ : , -`` and space (no character that is syntax
in either reading); the instance is an object (JSON Schema 2020-12 Core 10.3.2.1, the same in
drafts 4 to 7: ``properties`` applies to each member present) whose member value is a string
(Validation 6.3.3: ``pattern`` applies to strings), equal neither to the literal nor to the literal followed by one ``"\\n"``. Such a
string does not match the pattern as ECMA-262 reads it (``^``/``$`` the ends of the input) nor as
Python's ``re`` does (there ``$`` also matches before a final newline), so the branch fails in
both readings the toolchain asks (:mod:`evalport_spec.pyvalidator`).
"""

from __future__ import annotations

import re
from typing import Any

_LITERAL = re.compile(r"\^([A-Za-z0-9@_:, -]+)\$")
"""An anchored literal pattern, the literal as group 1 (``fullmatch``)."""

MIN_BRANCHES = 8
"""Groups with fewer branches are read as they are (indexing them costs more than it saves)."""

_TAGS: dict[int, tuple[Any, tuple[str, list[str | None]] | None]] = {}


def literal_tags(branches: Any) -> tuple[str, list[str | None]] | None:
    """``(member, [literal or None per branch])`` for an ``anyOf``/``oneOf`` list of at least
    :data:`MIN_BRANCHES` branches, the member being the first one (in the first branch that has
    any) whose schema is an anchored literal pattern as the module docstring says; ``None`` for
    a branch without such a literal there (never ruled out), and ``None`` instead of the pair
    when no branch has one. Memoised per list object."""
    hit = _TAGS.get(id(branches))
    if hit is not None and hit[0] is branches:
        return hit[1]
    got = _tags(branches) if isinstance(branches, list) and len(branches) >= MIN_BRANCHES else None
    if len(_TAGS) > 4096:
        _TAGS.clear()
    _TAGS[id(branches)] = (branches, got)
    return got


def ruled_out(tags: tuple[str, list[str | None]], index: int, instance: Any) -> bool:
    """Whether branch ``index`` of the group whose :func:`literal_tags` are ``tags`` fails on
    ``instance`` for its member's literal pattern (the module docstring says why it then fails
    in both readings)."""
    literal = tags[1][index]
    if literal is None or type(instance) is not dict:
        return False
    value = instance.get(tags[0])
    return type(value) is str and value != literal and value != literal + "\n"


def _tags(branches: list) -> tuple[str, list[str | None]] | None:
    for b in branches:
        props = b.get("properties") if isinstance(b, dict) and "$ref" not in b else None
        for name in props if isinstance(props, dict) else ():
            if _literal(b, name) is not None:
                return name, [_literal(x, name) for x in branches]
    return None


def _literal(branch: Any, name: str) -> str | None:
    if not isinstance(branch, dict) or "$ref" in branch:
        return None
    props = branch.get("properties")
    sub = props.get(name) if isinstance(props, dict) else None
    if not isinstance(sub, dict) or "$ref" in sub or not isinstance(sub.get("pattern"), str):
        return None
    m = _LITERAL.fullmatch(sub["pattern"])
    return m.group(1) if m else None
