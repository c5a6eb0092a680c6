"""The canary's known breaks: each plants one break in a checkout's working tree.

Each :class:`Canary` names the gate stage that catches its break today (tests/test_canary.py
checks that this toolchain fails every one with the finding the canary is named after). The
breaks are chosen from whatever the spec holds (the first ``enum`` of two values, the first
released ``.json`` file...); a spec with no place for one raises :class:`NothingToBreak`, and
the canary is skipped. Run by :mod:`evalport_spec.gate.canary` (docs/how-to/gate-in-ci.md,
promise 9).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..semver import parse_semver


class NothingToBreak(Exception):
    """A canary found no place to plant its break in this spec (the message says what it
    looked for)."""


@dataclass(frozen=True)
class Canary:
    """One known break.

    Attributes:
        name: kebab-case, as findings and progress lines name it (``enum-value-removed``).
        stage: the gate stage that catches it today (:data:`evalport_spec.names.STAGES`).
        plant: writes the break into a checkout's working tree (its root given); returns what
            it did, one phrase (``"removed "runner_error" from spec/schemas/resultset.json#..."``).
            Raises :class:`NothingToBreak` when this spec has no place for it.
        against_base: whether the gate runs with ``--base`` (the commit the break is planted
            on); false for a break the stage catches in the branch's own gate only.
    """

    name: str
    stage: str
    plant: Callable[[Path], str]
    against_base: bool = True


# --- the breaks --------------------------------------------------------------------------------

def _read_json(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def _write_json(path: Path, doc: Any) -> None:
    path.write_text(json.dumps(doc, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def _plain_subschemas(node: Any, pointer: str = "") -> Iterator[tuple[str, dict[str, Any]]]:
    """``(pointer, subschema)`` of every subschema reached only through ``properties``,
    ``$defs`` and ``items`` (document order): a constraint there applies to every document
    that has the member, never only under a condition (``if``, ``not``, ``anyOf``...), so
    tightening it is a break whatever the rest of the schema says."""
    if not isinstance(node, dict):
        return
    yield pointer, node
    for key in ("properties", "$defs"):
        for name, sub in (node.get(key) or {}).items() if isinstance(node.get(key), dict) else ():
            esc = name.replace("~", "~0").replace("/", "~1")
            yield from _plain_subschemas(sub, f"{pointer}/{key}/{esc}")
    if isinstance(node.get("items"), dict):
        yield from _plain_subschemas(node["items"], f"{pointer}/items")


def _draft_schemas(root: Path) -> list[Path]:
    return sorted((root / "spec" / "schemas").glob("*.json"))


def _first(root: Path, test: Callable[[dict[str, Any]], bool], looked_for: str
           ) -> tuple[Path, Any, str, dict[str, Any]]:
    for path in _draft_schemas(root):
        doc = _read_json(path)
        for pointer, sub in _plain_subschemas(doc):
            if test(sub):
                return path, doc, pointer, sub
    raise NothingToBreak(f"no draft schema has {looked_for}")


def _rel(root: Path, path: Path) -> str:
    return path.relative_to(root).as_posix()


def remove_enum_value(root: Path) -> str:
    """Remove the last value of the first ``enum`` of two or more values (a MAJOR
    ``enum-value-removed``: a document holding it was valid and is not)."""
    path, doc, pointer, sub = _first(
        root, lambda s: isinstance(s.get("enum"), list) and len(s["enum"]) >= 2, "an enum of two values")
    value = sub["enum"].pop()
    _write_json(path, doc)
    return f"removed {json.dumps(value)} from {_rel(root, path)}#{pointer}/enum"


def remove_enum_value_declaring_major(root: Path) -> str:
    """The break of :func:`remove_enum_value`, with ``spec/VERSION`` declaring the next major
    version after the latest release: a MAJOR change still needs an accepted RFC listing the
    finding (the second condition of the MAJOR rule, :mod:`evalport_spec.policy`)."""
    releases = [v for v in (p.name for p in (root / "spec" / "releases").glob("*")) if _is_version(v)]
    if not releases:
        raise NothingToBreak("no release to declare the next major version after")
    major = str(max(map(parse_semver, releases)).bump_major())
    what = remove_enum_value(root)
    (root / "spec" / "VERSION").write_text(major + "\n", encoding="utf-8")
    return f"{what}, and spec/VERSION set to {major}"


def _is_version(text: str) -> bool:
    try:
        parse_semver(text)
    except ValueError:
        return False
    return True


def add_required_member(root: Path) -> str:
    """Add a required string member ``canary_member`` to the first titled closed object (a
    MAJOR ``required-added``: every document of that object lacks it)."""
    path, doc, pointer, sub = _first(
        root, lambda s: "title" in s and s.get("additionalProperties") is False
        and isinstance(s.get("properties"), dict) and "canary_member" not in s["properties"],
        "a titled object with additionalProperties false")
    sub["properties"]["canary_member"] = {"type": "string"}
    sub["required"] = [*sub.get("required", []), "canary_member"]
    _write_json(path, doc)
    return f"made canary_member a new required member of {sub['title']} ({_rel(root, path)}#{pointer})"


def tighten_bound(root: Path) -> str:
    """Raise the first ``minLength``, ``minItems`` or ``minimum`` by one (a MAJOR tightening:
    a value at the old bound is rejected)."""
    keys = ("minLength", "minItems", "minimum")
    path, doc, pointer, sub = _first(
        root, lambda s: any(isinstance(s.get(k), int) and not isinstance(s.get(k), bool) for k in keys),
        "a minLength, minItems or minimum")
    key = next(k for k in keys if isinstance(sub.get(k), int) and not isinstance(sub.get(k), bool))
    sub[key] += 1
    _write_json(path, doc)
    return f"raised {_rel(root, path)}#{pointer}/{key} from {sub[key] - 1} to {sub[key]}"


def _released_json(root: Path) -> tuple[Path, list[str], int]:
    """The first released ``.json`` file listed in ``spec/releases/SHA256SUMS``, the file's
    lines and the index of its line."""
    sums = root / "spec" / "releases" / "SHA256SUMS"
    lines = sums.read_text(encoding="utf-8").splitlines() if sums.is_file() else []
    for i, line in enumerate(lines):
        name = line.partition("  ")[2]
        if name.endswith(".json") and (root / "spec" / "releases" / name).is_file():
            return root / "spec" / "releases" / name, lines, i
    raise NothingToBreak("spec/releases/SHA256SUMS lists no released .json file")


def edit_released_file(root: Path) -> str:
    """Append one space to a released file, leaving ``SHA256SUMS`` as it was (the manifest no
    longer matches)."""
    path, _, _ = _released_json(root)
    path.write_bytes(path.read_bytes() + b" ")
    return f"appended a space to {_rel(root, path)}"


def edit_released_file_and_sums(root: Path) -> str:
    """Append one space to a released file and rewrite its ``SHA256SUMS`` line to match (only
    history shows the file is not what its release shipped)."""
    path, lines, i = _released_json(root)
    data = path.read_bytes() + b" "
    path.write_bytes(data)
    lines[i] = f"{hashlib.sha256(data).hexdigest()}  {lines[i].partition('  ')[2]}"
    (root / "spec" / "releases" / "SHA256SUMS").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return f"appended a space to {_rel(root, path)} and updated its SHA256SUMS line"


def flip_fixture(root: Path) -> str:
    """Turn the first draft conformance fixture of an invalid document into one expecting it
    valid (its errors dropped): the fixture now disagrees with the validator, which rejects it.
    (The other way round would need an ``errors`` list the fixture schema checks first.)"""
    for path in sorted((root / "spec" / "conformance" / "fixtures").glob("*.json")):
        doc = _read_json(path)
        expect = doc.get("expect") if isinstance(doc, dict) else None
        if isinstance(expect, dict) and expect and all(isinstance(v, dict) and v.get("valid") is False
                                                       for v in expect.values()):
            doc["expect"] = {k: {"valid": True} for k in expect}
            _write_json(path, doc)
            return f"marked {_rel(root, path)} (an invalid document) as valid"
    raise NothingToBreak("no draft conformance fixture expects an invalid document")


FIELD_ROW = re.compile(r"^(\|[^|\n]*\|[^|\n]*\| )(yes|no)( \|.*)$", re.M)
"""A row of a generated field table: field, type, then the ``Required`` cell."""


def edit_field_table(root: Path) -> str:
    """Flip the ``Required`` cell of the first row of the first generated field table of the
    draft SPEC.md (the region no longer says what its schema says)."""
    path = root / "spec" / "SPEC.md"
    text = path.read_text(encoding="utf-8") if path.is_file() else ""
    start = text.find("<!-- evalport:generated fields ")
    end = text.find("<!-- /evalport:generated -->", start)
    match = FIELD_ROW.search(text, start, end) if start >= 0 and end >= 0 else None
    if match is None:
        raise NothingToBreak("spec/SPEC.md has no generated field table")
    flipped = "no" if match[2] == "yes" else "yes"
    path.write_text(text[:match.start(2)] + flipped + text[match.end(2):], encoding="utf-8")
    region = text[start:text.find("-->", start)].removeprefix("<!-- evalport:generated fields ").strip()
    return f"changed a Required cell of SPEC.md's generated {region} table from {match[2]} to {flipped}"


def dangle_ref(root: Path) -> str:
    """Add an optional member whose schema is a ``$ref`` to a ``$defs`` entry that does not
    exist, to the first draft schema with ``properties`` at its root (a reference that does not
    resolve: every validator of the schema fails on it)."""
    for path in _draft_schemas(root):
        doc = _read_json(path)
        if isinstance(doc, dict) and isinstance(doc.get("properties"), dict):
            doc["properties"]["canary_member"] = {"$ref": "#/$defs/canary_missing"}
            _write_json(path, doc)
            return f"added a member whose $ref (#/$defs/canary_missing) resolves nowhere to {_rel(root, path)}"
    raise NothingToBreak("no draft schema has properties at its root")


def drop_catalogued_rule(root: Path) -> str:
    """Remove the first rule of ``spec/rules.json`` (its implementation still registers it:
    the catalogue and the code disagree, and documents lose a rule SPEC.md states)."""
    path = root / "spec" / "rules.json"
    doc = _read_json(path) if path.is_file() else None
    rules = doc.get("rules") if isinstance(doc, dict) else None
    if not isinstance(rules, list) or not rules or not isinstance(rules[0], dict):
        raise NothingToBreak("spec/rules.json catalogues no rule")
    code = rules.pop(0).get("code")
    _write_json(path, doc)
    return f"removed rule {code} from spec/rules.json"


def break_example(root: Path) -> str:
    """Add a member ``canary_member`` to the first example that is a JSON object (every
    document type's root object is closed, so the example is no longer valid)."""
    for path in sorted((root / "spec" / "examples").glob("*.json")):
        doc = _read_json(path)
        if isinstance(doc, dict) and "canary_member" not in doc:
            doc["canary_member"] = True
            _write_json(path, doc)
            return f"added an unknown member canary_member to {_rel(root, path)}"
    raise NothingToBreak("spec/examples holds no JSON object")


CANARIES: tuple[Canary, ...] = (
    Canary("enum-value-removed", "base", remove_enum_value),
    Canary("major-declared-without-rfc", "base", remove_enum_value_declaring_major),
    Canary("required-member-added", "draft", add_required_member),
    Canary("bound-tightened", "base", tighten_bound),
    Canary("released-file-edited", "manifest", edit_released_file),
    Canary("released-file-and-sums-edited", "history", edit_released_file_and_sums),
    Canary("fixture-contradicts-validator", "conformance", flip_fixture),
    Canary("field-table-edited", "spec-text", edit_field_table),
    Canary("dangling-ref", "schemas", dangle_ref),
    Canary("rule-dropped-from-catalogue", "rules", drop_catalogued_rule),
    Canary("example-invalid", "examples", break_example),
)
"""The known breaks, each with the stage that catches it (every one is caught by this
toolchain: tests/test_canary.py)."""
