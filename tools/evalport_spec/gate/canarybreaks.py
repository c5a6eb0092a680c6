"""The canary's known breaks: each plants one break in a checkout's working tree.

Each :class:`Canary` names the gate stage that catches its break today and the finding kinds
that must be among that stage's errors (tests/test_canary.py checks that this toolchain fails
every one so). Where a break needs a place in the spec's data (an ``enum`` of two values, a
bound, an RFC in comment), the canary makes that place itself in a setup commit
(:attr:`Canary.setup`) and the gate compares the break with that commit, so whether it can be
planted does not depend on the branch under test. The others take what the spec holds (the first
released ``.json`` file, the first generated field table...); a spec with no place for one
raises :class:`NothingToBreak`. Run by :mod:`evalport_spec.gate.canary`
(docs/how-to/gate-in-ci.md, promise 9).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import re
import shutil
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .. import changelog, gitsource
from ..compat import compare_versions
from ..errors import InputError
from ..findings import Finding
from ..names import DRAFT
from ..policy import breaking
from ..rfc import frontmatter
from ..rfc.accept import bind_after, write_accepts
from ..rfc.new import new_rfc
from ..semver import parse_semver
from ..spec import SpecRepo
from ..specsync.sync import sync_draft


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
        expects: the finding kinds that catch it: the break is caught only when ``stage`` fails
            with one of them among its errors (a stage failing on a side effect of the planting,
            say an RFC added already accepted, tests another check than the one named).
        against_base: whether the gate runs with ``--base`` (the commit the break is planted
            on); false for a break the stage catches in the branch's own gate only.
        setup: ``None``, or what is written and committed first (its root given; returns what
            it did): the place the break needs (an ``enum`` of two values...), made by the canary
            itself so that whether it can be planted does not depend on the branch's data. The
            gate then runs with ``--base`` at the setup commit.
    """

    name: str
    stage: str
    plant: Callable[[Path], str]
    expects: tuple[str, ...]
    against_base: bool = True
    setup: Callable[[Path], str] | None = None


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


def _first(root: Path, test: Callable[[dict[str, Any]], bool], looked_for: str, *,
           folder: str = "spec", what: str = "draft schema") -> tuple[Path, Any, str, dict[str, Any]]:
    for path in sorted((root / folder / "schemas").glob("*.json")):
        doc = _read_json(path)
        for pointer, sub in _plain_subschemas(doc):
            if test(sub):
                return path, doc, pointer, sub
    raise NothingToBreak(f"no {what} has {looked_for}")


def _has_enum(sub: dict[str, Any]) -> bool:
    return isinstance(sub.get("enum"), list) and len(sub["enum"]) >= 2


def _rel(root: Path, path: Path) -> str:
    return path.relative_to(root).as_posix()


CANARY_ENUM = "x_canary"
"""The optional member the setup of the enum canaries adds, with ``enum: ["a", "b"]``."""

CANARY_TEXT = "x_canary_text"
"""The optional member the setup of the bound canary adds: a string of at least one character."""


CANARY_SCHEMA = "x-canary.json"
"""The draft schema file the setup of the data canaries adds."""


def add_canary_members(root: Path) -> str:
    """Setup: add the draft schema :data:`CANARY_SCHEMA` (``$id`` next to the first draft
    schema's), an object with the optional members :data:`CANARY_ENUM` (``{"enum": ["a", "b"]}``)
    and :data:`CANARY_TEXT` (``{"type": "string", "minLength": 1}``) and nothing else. The breaks
    are then planted on these members, whatever enums and bounds the branch's own schemas hold
    (red team: a branch that wrapped the draft's only enum in ``allOf`` left the enum canaries
    nothing to plant on, and they were skipped), and no condition of the branch's schemas
    touches them."""
    for path in _draft_schemas(root):
        doc = _read_json(path)
        sid = doc.get("$id") if isinstance(doc, dict) else None
        if isinstance(sid, str) and sid.endswith("/" + path.name):
            new = path.with_name(CANARY_SCHEMA)
            _write_json(new, {"$schema": doc.get("$schema", "https://json-schema.org/draft/2020-12/schema"),
                              "$id": sid[:-len(path.name)] + CANARY_SCHEMA, "title": "Canary", "type": "object",
                              "properties": {CANARY_ENUM: {"enum": ["a", "b"]},
                                             CANARY_TEXT: {"type": "string", "minLength": 1}}})
            return f"added {_rel(root, new)}, with optional members {CANARY_ENUM} and {CANARY_TEXT}"
    raise NothingToBreak("no draft schema has an $id ending in its file name")


def _canary_schema(root: Path) -> tuple[Path, dict[str, Any]]:
    """The draft's :data:`CANARY_SCHEMA` and its document (an object with ``properties``).
    Raises :class:`NothingToBreak` when there is none (no setup ran)."""
    path = root / "spec" / "schemas" / CANARY_SCHEMA
    doc = _read_json(path) if path.is_file() else None
    if not isinstance(doc, dict) or not isinstance(doc.get("properties"), dict):
        raise NothingToBreak(f"no spec/schemas/{CANARY_SCHEMA} with properties (add_canary_members)")
    return path, doc


def add_released_canary_members(root: Path) -> str:
    """Setup of the canaries the ``draft`` stage catches (it compares the draft with the latest
    release, so a break needs its place in both): :func:`add_canary_members`, and the same schema
    in the latest release folder (its ``$id`` in that release's segment, its ``SHA256SUMS`` line
    added). A release edited so is judged by the ``manifest`` and ``history`` stages, never by
    ``draft``: what is judged is the break planted on the draft afterwards."""
    what = add_canary_members(root)
    releases = _releases(root)
    if not releases:
        raise NothingToBreak("no release for the draft to be compared with")
    latest = releases[-1]
    path, doc = _canary_schema(root)
    sid = doc["$id"]
    marker = "/spec/draft/schemas/"
    if marker not in sid:
        raise NothingToBreak(f"the $id of spec/schemas/{CANARY_SCHEMA} has no {marker} segment")
    released = root / "spec" / "releases" / latest / "schemas" / CANARY_SCHEMA
    if not released.parent.is_dir():
        raise NothingToBreak(f"release {latest} has no schemas folder")
    _write_json(released, {**doc, "$id": sid.replace(marker, f"/spec/{latest}/schemas/")})
    line = f"{hashlib.sha256(released.read_bytes()).hexdigest()}  {latest}/schemas/{CANARY_SCHEMA}"
    _write_sums(root, sorted([*_sums_lines(root), line], key=lambda ln: ln.partition("  ")[2]))
    return f"{what}, and the same schema in release {latest}"


def add_released_canary_members_declaring_major(root: Path) -> str:
    """Setup: :func:`add_released_canary_members`, with ``spec/VERSION`` declaring the next major
    version after the latest release (:func:`add_canary_members_declaring_major` for the draft
    stage)."""
    return _declare_next_major(root, add_released_canary_members(root))


CONTROL_MEMBER = "x_canary_note"
"""The optional member the control's benign change adds to :data:`CANARY_SCHEMA`."""


def add_documented_canary_schema(root: Path) -> str:
    """Setup of the control runs (:class:`~.canary.Control`): :func:`add_canary_members`, the
    object closed (``additionalProperties: false``, as SPEC.md says every object is) and
    described, and its section and field table written into the draft's SPEC.md (``spec sync``):
    a tree on which a correct toolchain passes every stage, as it passes ``HEAD``.

    Raises:
        NothingToBreak: no draft schema to put it next to; InputError: SPEC.md could not be synced.
    """
    what = add_canary_members(root)
    path, doc = _canary_schema(root)
    doc.update(description="A document the toolchain canary adds to test the gate.", additionalProperties=False)
    _write_json(path, doc)
    sync_draft(SpecRepo(root))
    return f"{what}, closed, with its SPEC.md section"


def add_optional_canary_member(root: Path) -> str:
    """The control's benign change (setup: :func:`add_documented_canary_schema`): a new optional
    string member :data:`CONTROL_MEMBER` in :data:`CANARY_SCHEMA`, with its row in SPEC.md's field
    table (``spec sync``). Every document valid before stays valid (a MINOR change: SPEC.md,
    "Versioning"), so a correct toolchain passes every stage on it; a toolchain that fails every
    change it is shown fails it, and its canaries prove nothing.

    Raises:
        NothingToBreak: no :data:`CANARY_SCHEMA`; InputError: SPEC.md could not be synced.
    """
    path, doc = _canary_schema(root)
    doc["properties"][CONTROL_MEMBER] = {"type": "string"}
    _write_json(path, doc)
    sync_draft(SpecRepo(root))
    return f"added the optional member {CONTROL_MEMBER} to {_rel(root, path)}, with its SPEC.md row"


def _canary_member(root: Path, name: str) -> tuple[Path, Any, dict[str, Any]]:
    """The draft schema holding the setup's member ``name``, its document and the member's
    subschema. Raises :class:`NothingToBreak` when no draft schema has it (no setup ran)."""
    for path in _draft_schemas(root):
        doc = _read_json(path)
        sub = doc.get("properties", {}).get(name) if isinstance(doc, dict) and isinstance(doc.get("properties"),
                                                                                          dict) else None
        if isinstance(sub, dict):
            return path, doc, sub
    raise NothingToBreak(f"no draft schema has the member {name} (add_canary_members)")


def remove_canary_enum_value(root: Path) -> str:
    """Remove ``"b"`` from the ``enum`` of :data:`CANARY_ENUM` (setup: :func:`add_canary_members`):
    a MAJOR ``enum-value-removed`` against the setup commit."""
    path, doc, sub = _canary_member(root, CANARY_ENUM)
    sub["enum"].remove("b")
    _write_json(path, doc)
    return f'removed "b" from {_rel(root, path)}#/properties/{CANARY_ENUM}/enum'


def tighten_canary_bound(root: Path) -> str:
    """Raise the ``minLength`` of :data:`CANARY_TEXT` from 1 to 2 (setup: :func:`add_canary_members`):
    a MAJOR ``min-length-increased`` against the setup commit."""
    path, doc, sub = _canary_member(root, CANARY_TEXT)
    sub["minLength"] = 2
    _write_json(path, doc)
    return f"raised {_rel(root, path)}#/properties/{CANARY_TEXT}/minLength from 1 to 2"


def remove_enum_value(root: Path) -> str:
    """Remove the last value of the first ``enum`` of two or more values (a MAJOR
    ``enum-value-removed``: a document holding it was valid and is not)."""
    path, doc, pointer, sub = _first(root, _has_enum, "an enum of two values")
    value = sub["enum"].pop()
    _write_json(path, doc)
    return f"removed {json.dumps(value)} from {_rel(root, path)}#{pointer}/enum"


def _declare_next_major(root: Path, what: str) -> str:
    """Set ``spec/VERSION`` to the next major version after the latest release; returns ``what``
    with that said."""
    releases = [v for v in (p.name for p in (root / "spec" / "releases").glob("*")) if _is_version(v)]
    if not releases:
        raise NothingToBreak("no release to declare the next major version after")
    major = str(max(map(parse_semver, releases)).bump_major())
    (root / "spec" / "VERSION").write_text(major + "\n", encoding="utf-8")
    return f"{what}, and spec/VERSION set to {major}"


def add_canary_members_declaring_major(root: Path) -> str:
    """Setup: :func:`add_canary_members`, with ``spec/VERSION`` declaring the next major version
    after the latest release (in the setup, so that the break itself changes nothing but the
    enum: a version bump is a change of its own the gate judges)."""
    return _declare_next_major(root, add_canary_members(root))


def remove_enum_value_declaring_major(root: Path) -> str:
    """The break of :func:`remove_canary_enum_value` where ``spec/VERSION`` already declares the
    next major version (setup: :func:`add_canary_members_declaring_major`): a MAJOR change still
    needs an accepted RFC listing the finding (the second condition of the MAJOR rule,
    :mod:`evalport_spec.policy`)."""
    version = (root / "spec" / "VERSION").read_text(encoding="utf-8").strip()
    return f"{remove_canary_enum_value(root)}, spec/VERSION declaring {version}"


def _is_version(text: str) -> bool:
    try:
        parse_semver(text)
    except ValueError:
        return False
    return True


def add_required_member(root: Path) -> str:
    """Make ``canary_member`` (a string) a new required member of the canary's own schema
    :data:`CANARY_SCHEMA` (setup: :func:`add_released_canary_members`, which releases it too): a
    MAJOR ``required-added`` against the latest release, since every document of that schema
    lacks it. Planted on the canary's schema, not on the branch's data, so no change to the
    spec's own objects takes the break's place away (before session 35 it took the draft's first
    titled closed object)."""
    path, doc = _canary_schema(root)
    doc["properties"]["canary_member"] = {"type": "string"}
    doc["required"] = [*doc.get("required", []), "canary_member"]
    _write_json(path, doc)
    return f"made canary_member a new required member of {_rel(root, path)}"


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


def _releases(root: Path) -> list[str]:
    """The release folders of ``spec/releases``, oldest first."""
    folder = root / "spec" / "releases"
    names = [p.name for p in folder.iterdir() if p.is_dir() and _is_version(p.name)] if folder.is_dir() else []
    return sorted(names, key=parse_semver)


def _sums_lines(root: Path) -> list[str]:
    sums = root / "spec" / "releases" / "SHA256SUMS"
    return sums.read_text(encoding="utf-8").splitlines() if sums.is_file() else []


def _write_sums(root: Path, lines: list[str]) -> None:
    (root / "spec" / "releases" / "SHA256SUMS").write_text("".join(f"{ln}\n" for ln in lines), encoding="utf-8")


def remove_release(root: Path) -> str:
    """Remove the latest release folder and its ``SHA256SUMS`` lines (the manifest agrees with
    the tree; only history shows that files once released are gone). Needs two releases: with
    none left, no released file is checked at all."""
    releases = _releases(root)
    if len(releases) < 2:
        raise NothingToBreak("fewer than two releases (removing the only one leaves nothing to check)")
    latest = releases[-1]
    shutil.rmtree(root / "spec" / "releases" / latest)
    _write_sums(root, [ln for ln in _sums_lines(root) if not ln.partition("  ")[2].startswith(f"{latest}/")])
    return f"removed spec/releases/{latest}/ and its SHA256SUMS lines"


def understate_release(root: Path) -> str:
    """Add a release folder one PATCH above the latest release: a copy of it (``$id`` moved to
    the new version) with the last value of its first ``enum`` of two values removed, its own
    changelog entry saying MAJOR, and its ``SHA256SUMS`` lines. The change is MAJOR and the
    changelog says so; only the version number understates it (``release-version-mismatch``:
    a consumer of ``1.3.x`` takes the release for a patch that keeps every document valid)."""
    releases = _releases(root)
    if not releases:
        raise NothingToBreak("no release to follow")
    latest = releases[-1]
    new = str(parse_semver(latest).bump_patch())
    base = root / "spec" / "releases"
    shutil.copytree(base / latest, base / new)
    for path in sorted((base / new / "schemas").glob("*.json")):
        path.write_text(path.read_text(encoding="utf-8").replace(f"/spec/{latest}/schemas/", f"/spec/{new}/schemas/"),
                        encoding="utf-8")
    path, doc, pointer, sub = _first(root, _has_enum, "an enum of two values", folder=f"spec/releases/{new}",
                                     what=f"schema of release {latest}")
    value = sub["enum"].pop()
    _write_json(path, doc)
    spec_md = base / new / "SPEC.md"
    entry = f"### {new} — {dt.date.today().isoformat()} — MAJOR\n\n- Removed {json.dumps(value)} (canary).\n"
    spec_md.write_text(changelog.insert(spec_md.read_text(encoding="utf-8"), entry, _rel(root, spec_md)),
                       encoding="utf-8")
    added = [f"{hashlib.sha256(p.read_bytes()).hexdigest()}  {p.relative_to(base).as_posix()}"
             for p in sorted((base / new).rglob("*")) if p.is_file()]
    _write_sums(root, sorted(_sums_lines(root) + added, key=lambda ln: ln.partition("  ")[2]))
    return (f"released {new} after {latest} with {json.dumps(value)} removed from "
            f"{_rel(root, path)}#{pointer}/enum (a MAJOR change as a PATCH version)")


def decide_rfc_early(root: Path) -> str:
    """Date the decision of the first decided RFC (accepted, rejected or implemented) on the
    day its comment period closes (``rfc-decided-early``: SPEC.md, "Governance", a decision
    comes after the whole period)."""
    for path in sorted((root / "rfcs").glob("[0-9][0-9][0-9][0-9]-*.md")):
        if not path.is_file():
            continue
        text = path.read_text(encoding="utf-8")
        try:
            fm = frontmatter.parse(text, _rel(root, path))
        except InputError:
            continue
        period = fm.data.get("comment_period")
        closes = period.get("closes") if isinstance(period, dict) else None
        if (fm.data.get("status") in ("accepted", "rejected", "implemented") and isinstance(closes, str)
                and "decision_date" in fm.lines and fm.data.get("decision_date") != closes):
            lines = text.split("\n")
            at = fm.lines["decision_date"] - 1
            if not lines[at].startswith("decision_date:"):
                continue
            was = fm.data["decision_date"]
            lines[at] = f"decision_date: {closes}"
            path.write_text("\n".join(lines), encoding="utf-8")
            return f"dated the decision of {_rel(root, path)} {closes} (was {was}), the day its comment period closes"
    raise NothingToBreak("no decided RFC with a decision_date and a comment period")


def _add_rfc(root: Path, title: str, status: str, found: list[Finding] | tuple[()] = ()) -> Path:
    """Add an RFC declaring MAJOR (as ``rfc new`` writes it), its comment period 40 to 20 days
    ago, ``found`` written to its ``accepts`` while it is still a draft (``rfc accept-findings``
    writes no accepted RFC), then given ``status`` (``comment``, or ``accepted`` with a decision
    10 days ago). Returns its path. Raises InputError when ``rfc new`` or the writing fails."""
    path = new_rfc(root, title, "evalport-canary", declared_class="MAJOR")
    if found:
        write_accepts(root, int(path.name[:4]), found)
    today = dt.date.today()
    day = [(today - dt.timedelta(days=n)).isoformat() for n in (40, 20, 10)]
    decided = f"\ndecision_date: {day[2]}" if status == "accepted" else ""
    text = path.read_text(encoding="utf-8").replace("\nstatus: draft\n", f"\nstatus: {status}\n", 1)
    text = re.sub(r"^created: .*$", f"created: {day[0]}\ncomment_period:\n  opens: {day[0]}\n  closes: {day[1]}"
                  f"{decided}", text, count=1, flags=re.M)
    path.write_text(text, encoding="utf-8")
    return path


def _breaking_now(root: Path) -> list[Finding]:
    """The breaking findings of the working tree's draft against the committed ``HEAD``'s, bound
    to the values they accept (fingerprints worked out by this toolchain's classifier, as ``rfc
    accept-findings`` does)."""
    old = gitsource.spec_version_at(root, "HEAD", "spec", name="HEAD:spec")
    new = SpecRepo(root).version(DRAFT)
    return bind_after(new, breaking(compare_versions(old, new).findings))


def _accepted_alongside(root: Path, what: str) -> str:
    """Add a new RFC, accepted and declaring MAJOR, whose ``accepts`` lists the breaking
    findings of the working tree (``what``: the break already written); returns what was done."""
    found = _breaking_now(root)
    if not found:
        raise NothingToBreak(f"{what}: no breaking change here")
    path = _add_rfc(root, "Canary: an acceptance in the change it accepts", "accepted", found)
    return f"{what}, and {_rel(root, path)} accepting it added, accepted, in the same commit"


def accept_in_the_same_change(root: Path) -> str:
    """The break of :func:`remove_enum_value_declaring_major` with a new RFC, accepted and
    declaring MAJOR, whose ``accepts`` lists the break's findings, all in the one commit. The
    acceptance does not predate the change it accepts (SPEC.md, "Governance"), so the MAJOR rule
    still fails it: in the ``base`` stage, which reads acceptances as they were at the base
    (setup: :func:`add_canary_members_declaring_major`), and in the ``draft`` stage, which dates
    them by the history of the release line, the change under review its last step (setup:
    :func:`add_released_canary_members_declaring_major`, so the enum is released too)."""
    return _accepted_alongside(root, remove_enum_value_declaring_major(root))


def add_accepted_rfc(root: Path) -> str:
    """Add a new RFC already accepted (declaring MAJOR, its comment period and decision dated in
    the past, accepting nothing): ``rfc-status-transition`` (SPEC.md, "Governance": an RFC enters
    the repository as draft or comment; only history shows it was never open for comment)."""
    path = _add_rfc(root, "Canary: an RFC that enters accepted", "accepted")
    return f"added {_rel(root, path)} with status accepted"


CANARY_RFC = "Canary: an RFC decided by the canary"
"""The title of the RFC the setup of the RFC lifecycle canaries adds."""


def _canary_rfc(root: Path) -> Path:
    """The RFC the setup added (titled :data:`CANARY_RFC`). Raises :class:`NothingToBreak`."""
    found = sorted((root / "rfcs").glob("[0-9][0-9][0-9][0-9]-canary-an-rfc-decided-by-the-canary.md"))
    if not found:
        raise NothingToBreak("no RFC of the canary's setup")
    return found[-1]


def _set_status(path: Path, old: str, new: str, extra: str = "") -> None:
    """Rewrite ``status: old`` to ``status: new`` in ``path``'s front matter (``extra`` lines after it)."""
    text = path.read_text(encoding="utf-8")
    if f"\nstatus: {old}\n" not in text:
        raise NothingToBreak(f"{path.name} has no status {old}")
    path.write_text(text.replace(f"\nstatus: {old}\n", f"\nstatus: {new}\n{extra}", 1), encoding="utf-8")


def add_rfc_in_comment(root: Path) -> str:
    """Setup: :func:`add_canary_members`, and an RFC declaring MAJOR in ``comment`` (its announced
    period already closed, 40 to 20 days ago), accepting nothing yet."""
    what = add_canary_members(root)
    path = _add_rfc(root, CANARY_RFC, "comment")
    return f"{what}, and {_rel(root, path)} in comment"


def add_rfc_accepted(root: Path) -> str:
    """Setup: :func:`add_canary_members`, and an RFC declaring MAJOR, accepted, accepting nothing."""
    what = add_canary_members(root)
    path = _add_rfc(root, CANARY_RFC, "accepted")
    return f"{what}, and {_rel(root, path)} accepted"


def accept_without_observed_period(root: Path) -> str:
    """Accept the setup's RFC in comment (:func:`add_rfc_in_comment`), decided 10 days ago: its
    front matter claims a closed period, but the base (the setup commit, made today) shows it in
    comment for less than fourteen days (``rfc-period-unobserved``; SPEC.md, "Governance")."""
    path = _canary_rfc(root)
    decided = (dt.date.today() - dt.timedelta(days=10)).isoformat()
    _set_status(path, "comment", "accepted")
    text = path.read_text(encoding="utf-8")
    path.write_text(re.sub(r"^(  closes: .*)$", rf"\1\ndecision_date: {decided}", text, count=1, flags=re.M),
                    encoding="utf-8")
    return f"accepted {_rel(root, path)}, which the base shows in comment since today only"


def accept_after_decision(root: Path) -> str:
    """Remove ``"b"`` from :data:`CANARY_ENUM` and add the removal to the ``accepts`` of the
    setup's accepted RFC (:func:`add_rfc_accepted`): an acceptance extended after its decision
    (``rfc-accepts-after-decision``). ``rfc accept-findings`` writes no accepted RFC, so the
    entry is written with the RFC briefly back in comment."""
    path = _canary_rfc(root)
    what = remove_canary_enum_value(root)
    found = _breaking_now(root)
    if not found:
        raise NothingToBreak(f"{what}: no breaking change here")
    _set_status(path, "accepted", "comment")
    write_accepts(root, int(path.name[:4]), found)
    _set_status(path, "comment", "accepted")
    return f"{what}, and the removal added to the accepts of {_rel(root, path)}, accepted at the base"


TIGHTENED = """
# canary: rule {code} tightened. It now also fires, at the first of its guard locations the
# document has, on every document it passed.
def _canary_tightened(rule, guards):
    import dataclasses

    from .registry import violation

    def located(node, parts, path):
        if not parts:
            yield path
        elif parts[0] == "*":
            for i, item in enumerate(node if isinstance(node, list) else ()):
                yield from located(item, parts[1:], f"{{path}}/{{i}}")
        elif isinstance(node, dict) and parts[0] in node:
            yield from located(node[parts[0]], parts[1:], f"{{path}}/{{parts[0]}}")

    def tightened(document, **parameters):
        found = list(rule.function(document, **parameters))
        for guard in guards if not found else ():
            for path in located(document, guard.split("/")[1:], ""):
                return [violation(rule.code, path, "tightened by the canary")]
        return found

    return dataclasses.replace(rule, function=tightened, items=None)


RULES[{code!r}] = _canary_tightened(RULES[{code!r}], {guards!r})
"""
"""What :func:`tighten_released_rule` appends to the rules package (``code``, ``guards``)."""

REGISTRY_SHAPE = re.compile(r"^@dataclass\b.*\nclass Rule\b(?s:.*)^RULES\b(?s:.*)^def violation\(code\b.*instance_path\b.*"
                            r"message\b", re.M)
"""What :data:`TIGHTENED` needs of ``rules/registry.py``: ``Rule`` a dataclass (replaced with
another ``function``), ``RULES``, ``violation(code, instance_path, message)``."""


def tighten_released_rule(root: Path) -> str:
    """Tighten the implementation of the first hand-rolled rule the latest release catalogues
    (with a ``guard``): it also fires on every document it passed, at the first of its guard
    locations there. A document valid under the release as shipped is no longer valid
    (``release-rule-tightened``: a release keeps the rule behaviour it shipped with). The
    branch's own gate runs the tree's rules (the gate of record judges their code instead),
    so this canary runs without ``--base``."""
    rules = root / "tools" / "evalport_spec" / "validation" / "rules"
    releases = _releases(root)
    if not (rules / "__init__.py").is_file() or not (rules / "registry.py").is_file():
        raise NothingToBreak("no rule implementations under tools/evalport_spec/validation/rules/")
    if not REGISTRY_SHAPE.search(rules.joinpath("registry.py").read_text(encoding="utf-8")):
        # a registry refactored past what TIGHTENED knows: the code it appends would crash
        raise NothingToBreak("tools/evalport_spec/validation/rules/registry.py is not in the shape this "
                             "canary edits (a dataclass Rule, RULES, violation(code, instance_path, message))")
    if not releases:
        raise NothingToBreak("no release whose rules could be tightened")
    catalogue = _read_json(root / "spec" / "releases" / releases[-1] / "rules.json")
    sources = "".join(p.read_text(encoding="utf-8") for p in sorted(rules.glob("*.py")))
    for entry in catalogue.get("rules", []) if isinstance(catalogue, dict) else ():
        code, guard = entry.get("code"), entry.get("guard")
        guards = [guard] if isinstance(guard, str) else guard
        if (entry.get("encoded") is False and isinstance(code, str) and f'"{code}"' in sources
                and isinstance(guards, list) and guards and all(isinstance(g, str) for g in guards)):
            with (rules / "__init__.py").open("a", encoding="utf-8") as out:
                out.write(TIGHTENED.format(code=code, guards=guards))
            return (f"made {code} (catalogued by {releases[-1]}) also fire on every document it passed "
                    f"that has {' or '.join(guards)}")
    raise NothingToBreak(f"release {releases[-1]} catalogues no hand-rolled rule with a guard")


CANARIES: tuple[Canary, ...] = (
    Canary("enum-value-removed", "base", remove_canary_enum_value, ("enum-value-removed",),
           setup=add_canary_members),
    Canary("major-declared-without-rfc", "base", remove_enum_value_declaring_major, ("policy-major-needs-rfc",),
           setup=add_canary_members_declaring_major),
    Canary("required-member-added", "draft", add_required_member, ("required-added",),
           setup=add_released_canary_members),
    Canary("bound-tightened", "base", tighten_canary_bound, ("min-length-increased",), setup=add_canary_members),
    Canary("released-file-edited", "manifest", edit_released_file, ("released-file-changed",)),
    Canary("released-file-and-sums-edited", "history", edit_released_file_and_sums, ("released-file-changed",)),
    Canary("fixture-contradicts-validator", "conformance", flip_fixture, ("conformance-disagreement",)),
    Canary("field-table-edited", "spec-text", edit_field_table, ("spec-region-stale",)),
    Canary("dangling-ref", "schemas", dangle_ref, ("schema-ref-unresolved",)),
    Canary("rule-dropped-from-catalogue", "rules", drop_catalogued_rule, ("rule-not-catalogued",)),
    Canary("example-invalid", "examples", break_example, ("example-invalid",)),
    Canary("release-removed", "history", remove_release, ("released-file-removed",)),
    Canary("release-version-understated", "releases", understate_release, ("release-version-mismatch",)),
    Canary("rfc-decided-early", "rfcs", decide_rfc_early, ("rfc-decided-early",)),
    Canary("released-rule-tightened", "behaviour", tighten_released_rule, ("release-rule-tightened",),
           against_base=False),
    Canary("major-accepted-in-the-same-change", "base", accept_in_the_same_change,
           ("policy-acceptance-same-change",), setup=add_canary_members_declaring_major),
    Canary("major-accepted-in-the-same-change-draft", "draft", accept_in_the_same_change,
           ("policy-acceptance-same-change",), setup=add_released_canary_members_declaring_major),
    Canary("rfc-added-accepted", "base", add_accepted_rfc, ("rfc-status-transition",)),
    Canary("rfc-accepted-without-observed-period", "base", accept_without_observed_period,
           ("rfc-period-unobserved",), setup=add_rfc_in_comment),
    Canary("rfc-accepts-after-decision", "base", accept_after_decision, ("rfc-accepts-after-decision",),
           setup=add_rfc_accepted),
)
"""The known breaks, each with the stage that catches it (every one is caught by this
toolchain: tests/test_canary.py)."""
