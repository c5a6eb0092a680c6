"""The toolchain canary (``evalport-spec canary``, :mod:`evalport_spec.gate.canary`): the judge's
known breaks, planted in a scratch clone, must each fail the tested toolchain's gate.

Fast tests check each planting by hand on small files and the verdict of a finished run; the
slow ones run the canaries against this toolchain (every one caught), against one with the red
team's weakened ``breaking()`` (the enum canary passes), and ``.ci/run --base`` on a branch
carrying that weakening (CI fails).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from evalport_spec.cli import main
from evalport_spec.findings import Severity
from evalport_spec.gate import canary as C
from evalport_spec.gate import canarybreaks as B
from evalport_spec.gate.canaryclassifier import load_pairs
from evalport_spec.gate.canarypool import run_pooled
from gate_repo import ENV, commit_all, git, make_repo

CAUGHT_BY = {"enum-value-removed": "enum-value-removed", "major-declared-without-rfc": "policy-major-needs-rfc",
             "required-member-added": "required-added",
             "bound-tightened": "min-length-increased", "released-file-edited": "released-file-changed",
             "released-file-and-sums-edited": "released-file-changed",
             "fixture-contradicts-validator": "conformance-disagreement", "field-table-edited": "spec-region-stale",
             "dangling-ref": "schema-ref-unresolved", "rule-dropped-from-catalogue": "rule-not-catalogued",
             "example-invalid": "example-invalid", "release-removed": "released-file-removed",
             "release-version-understated": "release-version-mismatch", "rfc-decided-early": "rfc-decided-early",
             "released-rule-tightened": "release-rule-tightened",
             "major-accepted-in-the-same-change": "policy-acceptance-same-change",
             "major-accepted-in-the-same-change-draft": "policy-acceptance-same-change",
             "rfc-added-accepted": "rfc-status-transition",
             "rfc-accepted-without-observed-period": "rfc-period-unobserved",
             "rfc-accepts-after-decision": "rfc-accepts-after-decision"}
"""The finding kind each canary's break is caught by today (worked out from what each break is):
a canary caught by some other finding would test another check than the one it names."""

NAMES = ["enum-value-removed", "major-declared-without-rfc", "required-member-added", "bound-tightened", "released-file-edited",
         "released-file-and-sums-edited", "fixture-contradicts-validator", "field-table-edited",
         "dangling-ref", "rule-dropped-from-catalogue", "example-invalid", "release-removed",
         "release-version-understated", "rfc-decided-early", "released-rule-tightened",
         "major-accepted-in-the-same-change", "major-accepted-in-the-same-change-draft", "rfc-added-accepted",
         "rfc-accepted-without-observed-period", "rfc-accepts-after-decision"]
"""The canaries, in order (written out by hand)."""

SPEC_ONLY = [n for n in NAMES if n != "released-rule-tightened"]
"""The canaries planted in a spec repository without a toolchain of its own (no rule code to
tighten: released-rule-tightened is skipped)."""

WEAKENING = ('and (f.change_class == ChangeClass.MAJOR or f.undecided)]',
             'and (f.change_class == ChangeClass.MAJOR or f.undecided) and f.kind != "enum-value-removed"]')
"""The red team's edit of ``breaking()`` in policy.py: a removed enum value is never breaking."""

NO_RFC_NEEDED = ("    for f in br:\n        ignore = _ignored(f, list(ignores))\n",
                 "    for f in br:\n        if version_ok and need is not None:\n"
                 "            out.append(dataclasses.replace(f, severity=Severity.WARNING))\n"
                 "            continue\n        ignore = _ignored(f, list(ignores))\n")
"""An edit of ``apply_major_rule()``: the next major version declared is enough, no RFC needed."""


def weaken(root: Path, edit: tuple[str, str] = WEAKENING, module: str = "policy.py") -> None:
    path = root / "tools/evalport_spec" / module
    text = path.read_text()
    assert text.count(edit[0]) == 1  # the premise: the code the edit changes
    path.write_text(text.replace(*edit))


STAGE_WEAKENINGS = {
    # a release folder removed with its manifest lines: history no longer looks for files gone
    "release-removed": ("gate/frozen.py", ('        if "/" in rel and rel not in now:\n',
                                           '        if "/" in rel and rel not in now and False:\n')),
    # a release's version number checked as a successor only, whatever its change class
    "release-version-understated": ("gate/stages.py", (
        "problem = version_problem(old, new, computed)",
        "problem = version_problem(old, new, ChangeClass.PATCH)")),
    # a decision on the day the comment period closes counted as after it
    "rfc-decided-early": ("rfc/lint.py", ("if status in DECIDED and closes and decided <= closes:",
                                          "if status in DECIDED and closes and decided < closes:")),
    # a release's rules tightened made a warning
    "released-rule-tightened": ("gate/frozen.py", ("ChangeClass.MAJOR, Severity.ERROR, f.old, f.new, witness=f.witness",
                                                   "ChangeClass.MAJOR, Severity.WARNING, f.old, f.new, witness=f.witness")),
    # acceptances read from the tree under review, not from the base
    "major-accepted-in-the-same-change": ("gate/basecheck.py", (
        "BaseLedger(now, states_at(ctx.root, commit), ctx.base,", "BaseLedger(now, now, ctx.base,")),
    # an acceptance dated by history counted from the step that introduced the change itself
    "major-accepted-in-the-same-change-draft": ("gate/acceptance.py", (
        "return since is not None and since < self.introduced(f.fingerprint)",
        "return since is not None and since <= self.introduced(f.fingerprint)")),
    # an RFC may enter the repository with any status
    "rfc-added-accepted": ("gate/rfclifecycle.py", ("            if status not in ENTRY_STATUSES:\n",
                                                    "            if status not in ENTRY_STATUSES and False:\n")),
    # an acceptance counted from its announced period, not from what the base's history shows
    "rfc-accepted-without-observed-period": ("gate/rfclifecycle.py", (
        "            if since is None or (today - since).days < MIN_PERIOD_DAYS:\n",
        "            if False:\n")),
    # an accepted RFC may gain accepts entries
    "rfc-accepts-after-decision": ("gate/rfclifecycle.py", ('            if status == "accepted" and added:\n',
                                                            '            if status == "accepted" and added and False:\n')),
}
"""For each canary added in session 34, an edit of this toolchain that weakens exactly the check
the canary is named after (module under tools/evalport_spec, old, new)."""


def write(path: Path, doc) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(doc, bytes):
        path.write_bytes(doc)
    else:
        path.write_text(doc if isinstance(doc, str) else json.dumps(doc))
    return path


# --- the plantings, by hand ----------------------------------------------------------------------

def test_enum_removal_takes_an_unconditional_enum_and_leaves_conditions_alone(tmp_path):
    schema = {"allOf": [{"if": {"properties": {"k": {"enum": [1, 2]}}}}],
              "properties": {"a": {"type": "string"}, "b": {"enum": ["x", "y", "z"]}}}
    path = write(tmp_path / "spec/schemas/a.json", schema)
    said = B.remove_enum_value(tmp_path)
    assert said == 'removed "z" from spec/schemas/a.json#/properties/b/enum'
    assert json.loads(path.read_text()) == {
        "allOf": [{"if": {"properties": {"k": {"enum": [1, 2]}}}}],
        "properties": {"a": {"type": "string"}, "b": {"enum": ["x", "y"]}}}


ONLY_OPEN_OBJECTS = {"type": "object", "properties": {"kind": {"type": "string", "allOf": [{"enum": ["p", "q"]}]}}}
"""A schema with no titled closed object and its only enum under ``allOf`` (a data-only pull
request can make a draft so): before session 35 the two draft-stage canaries planted on the
draft's first titled closed object and its first unconditional enum, and found nothing here."""


def released_spec(tmp_path: Path) -> tuple[Path, Path]:
    """A draft schema (:data:`ONLY_OPEN_OBJECTS`) released as 1.0.0 (with SHA256SUMS), VERSION 1.1.0."""
    draft = write(tmp_path / "spec/schemas/s.json", {**ONLY_OPEN_OBJECTS, "$id": "https://x.test/spec/draft/schemas/s.json"})
    released = write(tmp_path / "spec/releases/1.0.0/schemas/s.json",
                     {**ONLY_OPEN_OBJECTS, "$id": "https://x.test/spec/1.0.0/schemas/s.json"})
    digest = hashlib.sha256(released.read_bytes()).hexdigest()
    write(tmp_path / "spec/releases/SHA256SUMS", f"{digest}  1.0.0/schemas/s.json\n")
    write(tmp_path / "spec/VERSION", "1.1.0\n")
    return draft, released


@pytest.mark.parametrize("name", ["required-member-added", "major-accepted-in-the-same-change-draft"])
def test_the_draft_stage_canaries_plant_on_a_released_schema_of_their_own(tmp_path, name):
    """The setup adds x-canary.json to the draft and to the latest release (its $id in the
    release's segment, a SHA256SUMS line); the branch's own schemas, which offer neither a
    titled closed object nor an unconditional enum, are left as they were."""
    draft, released = released_spec(tmp_path)
    canary_ = by_name(name)
    assert canary_.setup is not None  # before: no setup, planted on the branch's data
    canary_.setup(tmp_path)
    ours = json.loads((tmp_path / "spec/schemas/x-canary.json").read_text())
    theirs = json.loads((tmp_path / "spec/releases/1.0.0/schemas/x-canary.json").read_text())
    assert theirs == {**ours, "$id": "https://x.test/spec/1.0.0/schemas/x-canary.json"}
    assert ours["$id"] == "https://x.test/spec/draft/schemas/x-canary.json"
    sums = (tmp_path / "spec/releases/SHA256SUMS").read_text().splitlines()
    digest = hashlib.sha256((tmp_path / "spec/releases/1.0.0/schemas/x-canary.json").read_bytes()).hexdigest()
    assert sums[0].endswith("  1.0.0/schemas/s.json") and sums[1] == f"{digest}  1.0.0/schemas/x-canary.json"
    if name == "required-member-added":
        assert canary_.plant(tmp_path) == "made canary_member a new required member of spec/schemas/x-canary.json"
        after = json.loads((tmp_path / "spec/schemas/x-canary.json").read_text())
        assert after["required"] == ["canary_member"]
        assert after["properties"] == {**ours["properties"], "canary_member": {"type": "string"}}
    else:
        assert (tmp_path / "spec/VERSION").read_text() == "2.0.0\n"
        assert B.remove_enum_value_declaring_major(tmp_path).startswith(
            'removed "b" from spec/schemas/x-canary.json#/properties/x_canary/enum')
    assert json.loads(draft.read_text())["properties"] == ONLY_OPEN_OBJECTS["properties"]
    assert json.loads(released.read_text())["properties"] == ONLY_OPEN_OBJECTS["properties"]


def by_name(name: str) -> B.Canary:
    (found,) = [c for c in B.CANARIES if c.name == name]
    return found


ONLY_ENUM_IN_ALLOF = {"type": "object", "additionalProperties": False,
                      "properties": {"type": {"type": "string", "allOf": [{"enum": ["p", "q"]}]},
                                     "n": {"type": "string"}}}
"""A schema whose only enum sits under ``allOf`` and which has no bound at all (red team, break3:
the enum canaries found nothing to plant on such a draft and were skipped)."""


@pytest.mark.parametrize(("name", "member", "planted"), [
    ("enum-value-removed", "x_canary", {"enum": ["a"]}),
    ("bound-tightened", "x_canary_text", {"type": "string", "minLength": 2}),
])
def test_the_enum_and_bound_canaries_plant_on_a_schema_of_their_own(tmp_path, name, member, planted):
    """The setup adds spec/schemas/x-canary.json ($id next to the branch's first schema's) with
    x_canary (enum a, b) and x_canary_text (minLength 1), leaving the branch's own schema (its
    only enum under allOf, no bound) as it was; the break is planted on the canary's members."""
    path = write(tmp_path / "spec/schemas/s.json", {**ONLY_ENUM_IN_ALLOF, "$id": "https://x.test/spec/draft/schemas/s.json"})
    canary_ = by_name(name)
    assert canary_.setup is not None
    canary_.setup(tmp_path)
    ours = tmp_path / "spec/schemas/x-canary.json"
    after_setup = json.loads(ours.read_text())
    assert after_setup == {"$schema": "https://json-schema.org/draft/2020-12/schema",
                           "$id": "https://x.test/spec/draft/schemas/x-canary.json", "title": "Canary",
                           "type": "object", "properties": {"x_canary": {"enum": ["a", "b"]},
                                                            "x_canary_text": {"type": "string", "minLength": 1}}}
    canary_.plant(tmp_path)
    assert json.loads(ours.read_text())["properties"] == {**after_setup["properties"], member: planted}
    assert json.loads(path.read_text())["properties"] == ONLY_ENUM_IN_ALLOF["properties"]


def test_nothing_to_break_is_said(tmp_path):
    write(tmp_path / "spec/schemas/s.json", {"properties": {"a": {"type": "string"}}})
    with pytest.raises(B.NothingToBreak, match="no draft schema has an enum of two values"):
        B.remove_enum_value(tmp_path)


def test_a_released_file_edit_with_its_sums_line_rewritten(tmp_path):
    release = tmp_path / "spec/releases"
    write(release / "1.0.0/SPEC.md", "# spec\n")
    write(release / "1.0.0/schemas/a.json", b'{"a": 1}\n')
    sums = ("0" * 64 + "  1.0.0/SPEC.md\n") + ("1" * 64 + "  1.0.0/schemas/a.json\n")
    write(release / "SHA256SUMS", sums)
    assert B.edit_released_file(tmp_path) == "appended a space to spec/releases/1.0.0/schemas/a.json"
    assert (release / "1.0.0/schemas/a.json").read_bytes() == b'{"a": 1}\n '
    assert (release / "SHA256SUMS").read_text() == sums  # the manifest left as it was
    B.edit_released_file_and_sums(tmp_path)  # a second space, and the line rewritten
    digest = hashlib.sha256(b'{"a": 1}\n  ').hexdigest()
    assert (release / "SHA256SUMS").read_text() == "0" * 64 + "  1.0.0/SPEC.md\n" + digest + "  1.0.0/schemas/a.json\n"


def test_the_field_table_cell_is_flipped_inside_the_region_only(tmp_path):
    text = ("| `x` | string | yes | — |\n"
            "<!-- evalport:generated fields suite.Suite -->\n\n| Field | Type | Required |\n| --- | --- | --- |\n"
            "| `id` | string | yes | at least 1 character |\n<!-- /evalport:generated -->\n")
    path = write(tmp_path / "spec/SPEC.md", text)
    assert B.edit_field_table(tmp_path) == ("changed a Required cell of SPEC.md's generated suite.Suite "
                                            "table from yes to no")
    assert path.read_text() == text.replace("| `id` | string | yes |", "| `id` | string | no |")


def test_a_fixture_expected_invalid_is_marked_valid(tmp_path):
    folder = tmp_path / "spec/conformance/fixtures"
    write(folder / "a.json", {"expect": {"schema": {"valid": True}, "full": {"valid": False, "errors": []}}})
    write(folder / "b.json", {"id": "b", "expect": {"schema": {"valid": False},
                                                    "full": {"valid": False, "errors": [{"code": "X"}]}}})
    assert B.flip_fixture(tmp_path) == "marked spec/conformance/fixtures/b.json (an invalid document) as valid"
    assert json.loads((folder / "b.json").read_text()) == {"id": "b", "expect": {"schema": {"valid": True},
                                                                                 "full": {"valid": True}}}


def releases_of(root: Path, names: list[str]) -> Path:
    """Releases ``names`` under ``root/spec/releases``, each a SPEC.md and a schema with an enum,
    and their SHA256SUMS (worked out here)."""
    base = root / "spec/releases"
    for name in names:
        write(base / name / "SPEC.md", f"# EvalPort\n\n## Changelog\n\n### {name} — 2026-01-01 — INITIAL\n\n- First.\n")
        write(base / name / "schemas/a.json", json.dumps(
            {"$id": f"https://x.test/spec/{name}/schemas/a.json", "properties": {"k": {"enum": ["p", "q", "r"]}}},
            indent=2) + "\n")
    lines = sorted(f"{hashlib.sha256(p.read_bytes()).hexdigest()}  {p.relative_to(base).as_posix()}"
                   for p in base.rglob("*") if p.is_file())
    write(base / "SHA256SUMS", "".join(f"{ln}\n" for ln in sorted(lines, key=lambda ln: ln.split("  ")[1])))
    return base


def test_the_latest_release_is_removed_with_its_manifest_lines(tmp_path):
    base = releases_of(tmp_path, ["1.0.0", "1.1.0"])
    sums = (base / "SHA256SUMS").read_text()
    assert B.remove_release(tmp_path) == "removed spec/releases/1.1.0/ and its SHA256SUMS lines"
    assert not (base / "1.1.0").exists() and (base / "1.0.0/SPEC.md").is_file()
    assert (base / "SHA256SUMS").read_text() == "".join(ln + "\n" for ln in sums.splitlines() if "  1.0.0/" in ln)


def test_the_only_release_is_not_removed(tmp_path):
    releases_of(tmp_path, ["1.0.0"])
    with pytest.raises(B.NothingToBreak, match="fewer than two releases"):
        B.remove_release(tmp_path)


def test_a_breaking_release_is_numbered_as_a_patch(tmp_path):
    base = releases_of(tmp_path, ["1.0.0", "1.2.0"])
    said = B.understate_release(tmp_path)
    assert said == ('released 1.2.1 after 1.2.0 with "r" removed from spec/releases/1.2.1/schemas/a.json'
                    '#/properties/k/enum (a MAJOR change as a PATCH version)')
    assert json.loads((base / "1.2.1/schemas/a.json").read_text()) == {
        "$id": "https://x.test/spec/1.2.1/schemas/a.json", "properties": {"k": {"enum": ["p", "q"]}}}
    spec = (base / "1.2.1/SPEC.md").read_text()
    assert re.search(r"## Changelog\n\n### 1\.2\.1 — \d{4}-\d\d-\d\d — MAJOR\n\n- Removed \"r\" \(canary\)\.\n\n"
                     r"### 1\.2\.0 — 2026-01-01 — INITIAL\n", spec), spec
    listed = {ln.split("  ")[1]: ln.split("  ")[0] for ln in (base / "SHA256SUMS").read_text().splitlines()}
    assert sorted(listed) == ["1.0.0/SPEC.md", "1.0.0/schemas/a.json", "1.2.0/SPEC.md", "1.2.0/schemas/a.json",
                              "1.2.1/SPEC.md", "1.2.1/schemas/a.json"]
    for name in ("1.2.1/SPEC.md", "1.2.1/schemas/a.json"):
        assert listed[name] == hashlib.sha256((base / name).read_bytes()).hexdigest()
    assert (base / "1.2.0/schemas/a.json").read_text().count('"r"') == 1  # the release it copies is left alone


RFC = """---
number: {n}
title: T
status: {status}
comment_period:
  opens: 2026-01-01
  closes: 2026-01-15
decision_date: 2026-01-20
---

# RFC
"""


def test_a_decision_is_dated_the_day_the_comment_period_closes(tmp_path):
    write(tmp_path / "rfcs/0001-a.md", RFC.format(n=1, status="comment"))  # not decided: left alone
    path = write(tmp_path / "rfcs/0002-b.md", RFC.format(n=2, status="implemented"))
    assert B.decide_rfc_early(tmp_path) == ("dated the decision of rfcs/0002-b.md 2026-01-15 (was 2026-01-20), "
                                            "the day its comment period closes")
    assert path.read_text() == RFC.format(n=2, status="implemented").replace("decision_date: 2026-01-20",
                                                                              "decision_date: 2026-01-15")
    assert (tmp_path / "rfcs/0001-a.md").read_text() == RFC.format(n=1, status="comment")


def _next_rfc(repo) -> str:
    """The number a new RFC of ``repo`` gets, read off its rfcs/ folder: one more than the highest
    ``NNNN-*.md`` there, four digits."""
    numbers = [int(p.name[:4]) for p in (repo / "rfcs").glob("[0-9][0-9][0-9][0-9]-*.md")]
    return f"{max(numbers) + 1:04d}"


def test_an_acceptance_is_written_in_the_change_it_accepts(spec_repo):
    """After the setup (spec/schemas/x-canary.json, committed): "b" removed from x_canary, spec/VERSION the next major, and a new
    RFC, accepted after a closed comment period, whose accepts lists that removal; the gate's
    caught_by (slow test) shows the fingerprint is the gate's own."""
    by_name("major-accepted-in-the-same-change").setup(spec_repo)
    commit_all(spec_repo, "canary setup")
    assert (spec_repo / "spec/VERSION").read_text() == "2.0.0\n"  # declared by the setup
    n = _next_rfc(spec_repo)
    said = B.accept_in_the_same_change(spec_repo)
    assert said == ('removed "b" from spec/schemas/x-canary.json#/properties/x_canary/enum, '
                    f"spec/VERSION declaring 2.0.0, and rfcs/{n}-canary-an-acceptance-in-the-change-it-accepts.md "
                    "accepting it added, accepted, in the same commit")
    assert (spec_repo / "spec/VERSION").read_text() == "2.0.0\n"
    from evalport_spec.rfc.frontmatter import parse
    meta = parse((spec_repo / f"rfcs/{n}-canary-an-acceptance-in-the-change-it-accepts.md").read_text(), "rfc").data
    assert (meta["status"], meta["declared_class"]) == ("accepted", "MAJOR")
    assert meta["comment_period"]["opens"] < meta["comment_period"]["closes"] < meta["decision_date"]
    (entry,) = meta["accepts"]
    assert {k: v for k, v in entry.items() if k != "fingerprint"} == {
        "kind": "enum-value-removed", "location": "x-canary.json#/properties/x_canary/enum", "item": "b"}
    assert re.fullmatch(r"[0-9a-f]{16}", entry["fingerprint"])


def test_the_lifecycle_canaries_decide_the_rfc_of_their_setup(spec_repo):
    """rfc-accepted-without-observed-period: the setup's RFC in comment becomes accepted;
    rfc-accepts-after-decision: the setup's accepted RFC gains the entry of the removal of "b"."""
    from evalport_spec.rfc.frontmatter import parse
    rfc = spec_repo / f"rfcs/{_next_rfc(spec_repo)}-canary-an-rfc-decided-by-the-canary.md"
    period = by_name("rfc-accepted-without-observed-period")
    period.setup(spec_repo)
    assert parse(rfc.read_text(), "rfc").data["status"] == "comment"
    period.plant(spec_repo)
    meta = parse(rfc.read_text(), "rfc").data
    assert meta["status"] == "accepted" and meta["comment_period"]["closes"] < meta["decision_date"]
    git(spec_repo, "checkout", "-q", "--", ".")
    git(spec_repo, "clean", "-qfd")
    after = by_name("rfc-accepts-after-decision")
    after.setup(spec_repo)
    assert parse(rfc.read_text(), "rfc").data.get("accepts", []) == []
    commit_all(spec_repo, "canary setup")
    after.plant(spec_repo)
    meta = parse(rfc.read_text(), "rfc").data
    assert meta["status"] == "accepted"
    assert [(e["kind"], e["item"]) for e in meta["accepts"]] == [("enum-value-removed", "b")]


def test_an_rfc_is_added_already_accepted(spec_repo):
    """A new RFC (the next free number), accepted, with a closed comment period and a decision
    after it: only its entering accepted is wrong (rfc-status-transition)."""
    n = _next_rfc(spec_repo)
    assert B.add_accepted_rfc(spec_repo) == (f"added rfcs/{n}-canary-an-rfc-that-enters-accepted.md "
                                             "with status accepted")
    from evalport_spec.rfc.frontmatter import parse
    meta = parse((spec_repo / f"rfcs/{n}-canary-an-rfc-that-enters-accepted.md").read_text(), "rfc").data
    assert (meta["status"], meta["declared_class"]) == ("accepted", "MAJOR")
    assert meta["comment_period"]["opens"] < meta["comment_period"]["closes"] < meta["decision_date"]
    assert "accepts" not in meta or meta["accepts"] == []


def test_a_rule_registry_of_another_shape_is_left_alone(tmp_path):
    """A registry refactored past what the appended code knows (here violation() renamed) would
    make every run of the tightened tree crash (a canary error that blocks the refactor): the
    canary is skipped instead, and nothing is written."""
    rules = tmp_path / "tools/evalport_spec/validation/rules"
    registry = (Path(C.__file__).parents[1] / "validation/rules/registry.py").read_text()
    write(rules / "registry.py", registry.replace("def violation(", "def rule_violation("))
    write(rules / "__init__.py", "from .registry import RULES\n")
    write(rules / "suite.py", '@register("DUPLICATE_ID", "suite")\ndef duplicate_id(document): ...\n')
    write(tmp_path / "spec/releases/1.0.0/rules.json",
          {"rules": [{"code": "DUPLICATE_ID", "encoded": False, "guard": ["/test_cases/*/id"]}]})
    with pytest.raises(B.NothingToBreak, match="registry.py is not in the shape this canary edits"):
        B.tighten_released_rule(tmp_path)
    assert (rules / "__init__.py").read_text() == "from .registry import RULES\n"


def test_a_tightened_rule_fires_on_what_it_passed_at_a_guard_location(tmp_path):
    """The code the canary appends to the rules package, run: DUPLICATE_ID (the first rule 1.0.0
    catalogues) now reports a suite with distinct ids at its first test case id, and a suite
    with none of its guard locations still passes."""
    shutil.copytree(Path(C.__file__).parents[1], tmp_path / "tools/evalport_spec",
                    ignore=shutil.ignore_patterns("__pycache__"))
    write(tmp_path / "spec/releases/1.0.0/rules.json", {"rules": [
        {"code": "NULL_SCORE_PASSED", "encoded": True, "guard": ["/x"]},
        {"code": "DUPLICATE_ID", "encoded": False, "guard": ["/test_cases/*/id", "/graders/*/id"]}]})
    assert B.tighten_released_rule(tmp_path).startswith("made DUPLICATE_ID (catalogued by 1.0.0) also fire ")
    probe = ("import json, sys\nfrom evalport_spec.validation.rules import RULES\n"
             "for doc in json.load(sys.stdin):\n"
             "    print(sorted(v.instance_path for v in RULES['DUPLICATE_ID'].check(doc)))\n")
    docs = [{"test_cases": [{"id": "a"}, {"id": "b"}]}, {"graders": [{"id": "g"}]},
            {"test_cases": [{"id": "a"}, {"id": "a"}]}, {"name": "none"}]
    out = subprocess.run([sys.executable, "-I", "-c", f"import sys; sys.path.insert(0, {str(tmp_path / 'tools')!r})\n"
                          + probe], input=json.dumps(docs), capture_output=True, text=True, check=True).stdout
    assert out.splitlines() == ["['/test_cases/0/id']", "['/graders/0/id']", "['/test_cases/1/id']", "[]"]


# --- the verdict of one run ----------------------------------------------------------------------

def done(code: int, report: object | None, stderr: str = "") -> subprocess.CompletedProcess:
    out = b"" if report is None else json.dumps(report).encode()
    return subprocess.CompletedProcess([], code, out, stderr.encode())


@pytest.mark.parametrize(("proc", "expected"), [
    (done(1, {"stages": [{"name": "base", "status": "fail", "findings": [
        {"kind": "b", "severity": "error"}, {"kind": "w", "severity": "warning"}, {"kind": "a", "severity": "error"},
        {"kind": "b", "severity": "error"}]}]}), ("caught", "", ["a", "b"])),
    (done(1, {"stages": [{"name": "base", "status": "fail", "findings": [{"kind": "b", "severity": "error"},
                                                                          {"kind": "a", "severity": "warning"}]}]}),
     ("passed", "its `base` stage fails it with b only", ["b"])),
    (done(0, {"stages": [{"name": "base", "status": "ok"}]}), ("passed", "", [])),
    (done(0, {"stages": [{"name": "base", "status": "warn"}]}), ("passed", "", [])),
    (done(2, None, "evalport-spec: error: boom"), ("error", "its gate exited 2 (evalport-spec: error: boom)", [])),
    (done(1, None, "Traceback\nZeroDivisionError: x"),
     ("error", "its gate (exit 1) wrote no JSON report with a `base` stage (ZeroDivisionError: x)", [])),
    (done(1, {"stages": [{"name": "base", "status": "ok"}]}),
     ("error", "its gate exited 1 with the `base` stage 'ok'", [])),
    (done(1, {"stages": [{"name": "draft", "status": "fail"}]}),
     ("error", "its gate (exit 1) wrote no JSON report with a `base` stage", [])),
    (done(1, ["not", "a", "report"]), ("error", "its gate (exit 1) wrote no JSON report with a `base` stage", [])),
], ids=["caught", "failed-by-another-kind", "passed", "warned", "exit-2", "crash", "other-stage-failed", "stage-missing", "not-an-object"])
def test_the_verdict_of_a_run(proc, expected):
    assert C._verdict(proc, "base", ("a", "x")) == expected


# --- whole runs ----------------------------------------------------------------------------------

def canary(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(["canary", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def fake_toolchain(tmp_path: Path, main_py: str) -> Path:
    tools = tmp_path / "fake-tools"
    write(tools / "evalport_spec/__init__.py", "")
    write(tools / "evalport_spec/__main__.py", main_py)
    return tools


@pytest.fixture
def spec_repo(tmp_path):
    return make_repo(tmp_path)


def test_a_crashing_toolchain_is_an_error_for_every_canary(spec_repo, tmp_path, capsys):
    tools = fake_toolchain(tmp_path, "raise RuntimeError('the judge fell over')\n")
    code, out, err = canary(capsys, "-C", str(spec_repo), "--toolchain", str(tools), "--format", "json")
    assert code == 1, err
    report = json.loads(out)
    assert [(c["name"], c["status"]) for c in report["canaries"]] == [
        (n, "error" if n in SPEC_ONLY else "skipped") for n in NAMES]
    assert {f["kind"] for f in report["findings"] if f["severity"] == "error"} == {"toolchain-canary-error"}
    assert "RuntimeError: the judge fell over" in report["findings"][0]["message"]
    assert "canary: enum-value-removed: error (" in err  # progress on standard error


def test_a_toolchain_that_says_nothing_and_exits_0_does_not_pass(spec_repo, tmp_path, capsys):
    tools = fake_toolchain(tmp_path, "raise SystemExit(0)\n")
    code, out, _ = canary(capsys, "-C", str(spec_repo), "--toolchain", str(tools), "--format", "json")
    assert code == 1
    assert {f["kind"] for f in json.loads(out)["findings"] if f["severity"] == "error"} == {"toolchain-canary-error"}


FAILS_EVERY_STAGE = """import json, sys
args = sys.argv[1:]
stages = [args[i + 1] for i, a in enumerate(args) if a == "--stage"]
print(json.dumps({"stages": [{"name": s, "status": "fail", "findings": [{"kind": "x", "severity": "error"}]}
                             for s in stages]}))
raise SystemExit(1)
"""
"""A toolchain whose gate fails every stage it is asked for, whatever the tree."""


def test_a_toolchain_that_fails_everything_fails_the_control_run(spec_repo, tmp_path, capsys):
    """Each canary's stage fails, as it should on a break; but it fails on HEAD with a benign
    change and no break too (the control run), so no canary is caught: every one is unproven and
    CI fails."""
    tools = fake_toolchain(tmp_path, FAILS_EVERY_STAGE)
    code, out, err = canary(capsys, "-C", str(spec_repo), "--toolchain", str(tools), "--format", "json")
    assert code == 1, err
    report = json.loads(out)
    assert [(c["name"], c["status"]) for c in report["canaries"]] == [
        (n, "unproven" if n in SPEC_ONLY else "skipped") for n in NAMES]
    used = ["schemas", "spec-text", "manifest", "history", "conformance", "rules", "releases", "draft", "base",
            "rfcs", "examples"]
    assert [(c["name"], c["status"], c["stages"], c["failing"]) for c in report["controls"]] == [
        ("control", "failed", used, {s: ["x"] for s in used}),
        ("control-no-base", "failed", ["behaviour"], {"behaviour": ["x"]})]
    errors = [f for f in report["findings"] if f["severity"] == "error"]
    # and its diff writes no diff report: one error for the classifier pairs
    assert [f["kind"] for f in errors] == ["toolchain-canary-control-failed"] * 2 + ["toolchain-canary-error"]
    assert "could not judge the classifier's" in errors[2]["message"]
    assert "fails HEAD with a benign change, no break planted" in errors[0]["message"]
    assert "canary: control: failed (HEAD with a benign change, no break planted (check --base SETUP: schemas, " in err
    assert "canary: enum-value-removed: unproven (" in err
    code, out, _ = canary(capsys, "-C", str(spec_repo), "--toolchain", str(tools))
    assert code == 1
    assert (f"canary: FAILED ({len(SPEC_ONLY)} of {len(NAMES)} known breaks not caught; 2 of 2 control runs "
            "(no break planted) failed)") in out


def test_the_control_run_is_a_benign_change_with_the_canaries_stages(spec_repo, tmp_path):
    """The control run's gate gets what a canary's gets, with every stage of the canaries: a
    setup commit on HEAD adding x-canary.json (with its SPEC.md section), a commit adding one
    optional member to it (and its SPEC.md row), and ``--base`` at the setup commit."""
    tools = fake_toolchain(tmp_path, "import json, os, subprocess, sys\n"
                           f"open({str(tmp_path / 'argv')!r}, 'a').write(json.dumps([sys.argv[1:], "
                           "subprocess.run(['git', '-C', sys.argv[2], 'log', '-3', '--stat=200', '--format=%s%x09%H', 'HEAD'], "
                           "capture_output=True, text=True).stdout]) + '\\n')\n" + FAILS_EVERY_STAGE)
    run = C.run_canaries(spec_repo, tools, canaries=B.CANARIES[:2] + B.CANARIES[4:5])
    head = git(spec_repo, "rev-parse", "HEAD").strip()
    calls = [json.loads(line) for line in (tmp_path / "argv").read_text().splitlines()]
    (argv, shown), = [(argv, shown) for argv, shown in calls
                      if shown.startswith("canary: control (a benign change, no break planted)\t")]
    commits = [line.split("\t") for line in shown.splitlines() if "\t" in line]
    assert [subject for subject, _ in commits] == ["canary: control (a benign change, no break planted)",
                                                   "canary: control setup", "base"]
    assert commits[2][1] == head
    assert argv[2:] == ["check", "--base", commits[1][1], "--stage", "manifest", "--stage", "base", "--format",
                        "json"]
    changed = shown.split("\n\n")[1]  # the control's own commit: the schema and its SPEC.md row only
    assert re.findall(r"^ (\S+) +\|", changed, re.M) == ["spec/SPEC.md", "spec/schemas/x-canary.json"]
    assert len(calls) == 4  # the control and 3 canaries
    assert [c.status for c in run.controls] == ["failed"]
    assert [o.status for o in run.outcomes] == ["unproven"] * 3


FAILS_EVERY_CHANGE = """import json, subprocess, sys
args = sys.argv[1:]
stages = [args[i + 1] for i, a in enumerate(args) if a == "--stage"]
base = args[args.index("--base") + 1] if "--base" in args else "HEAD~1"
changed = subprocess.run(["git", "-C", args[1], "diff", "--quiet", base, "HEAD"]).returncode != 0
kinds = %r
print(json.dumps({"stages": [{"name": s, "status": "fail" if changed else "ok",
                              "findings": [{"kind": k, "severity": "error"} for k in kinds] if changed else []}
                             for s in stages]}))
raise SystemExit(1 if changed else 0)
"""
"""A toolchain whose gate fails every stage, with every kind the canaries expect, on any commit
that changes a file (and passes an empty one): it fails every change, breaking or not."""


def test_a_toolchain_that_fails_every_change_fails_the_control_run(spec_repo, tmp_path, capsys):
    """Before session 35 the control was an empty commit, which such a toolchain passes: it then
    "caught" every canary and the canary passed it (exit 0). The control is now a benign change
    (an optional member added), which it fails: every canary it fails is unproven."""
    kinds = sorted({k for c in B.CANARIES for k in c.expects})
    tools = fake_toolchain(tmp_path, FAILS_EVERY_CHANGE % (kinds,))
    code, out, err = canary(capsys, "-C", str(spec_repo), "--toolchain", str(tools), "--format", "json")
    assert code == 1, err
    report = json.loads(out)
    assert [(c["name"], c["status"]) for c in report["controls"]] == [("control", "failed"),
                                                                        ("control-no-base", "failed")]
    assert [(c["name"], c["status"]) for c in report["canaries"]] == [
        (n, "unproven" if n in SPEC_ONLY else "skipped") for n in NAMES]
    assert [f["kind"] for f in report["findings"] if f["severity"] == "error"][:2] == [
        "toolchain-canary-control-failed"] * 2


def test_pooled_jobs_never_share_a_folder_and_keep_their_order(tmp_path):
    import threading
    import time

    held: set[Path] = set()
    lock = threading.Lock()
    clash = []

    def job(n):
        def run(folder):
            with lock:
                clash.extend([folder] if folder in held else [])
                held.add(folder)
            time.sleep(0.02 * (n % 3))
            with lock:
                held.discard(folder)
            return n * 10
        return run

    ended = []
    folders = [tmp_path / "a", tmp_path / "b"]
    assert run_pooled([job(n) for n in range(7)], folders, lambda i, r: ended.append((i, r))) == [
        0, 10, 20, 30, 40, 50, 60]
    assert clash == [] and sorted(ended) == [(n, n * 10) for n in range(7)]


def test_a_pooled_job_that_raises_stops_the_jobs_not_started(tmp_path):
    started = []

    def job(n):
        def run(folder):
            started.append(n)
            if n == 1:
                raise OSError("boom")
            return n
        return run

    with pytest.raises(OSError, match="boom"):
        run_pooled([job(n) for n in range(50)], [tmp_path], None)
    assert started == [0, 1]  # one folder: one job at a time, none after the failure


def test_a_planting_that_cannot_read_the_spec_is_skipped_not_fatal(spec_repo, tmp_path):
    """A break planted with the judge's own reading of the spec (an RFC written, findings
    computed) can meet input it refuses: that canary is skipped, the others still run."""
    from evalport_spec.errors import InputError

    def refuse(root):
        raise InputError("no such thing", "rfcs/0001-x.md", 3)

    tools = fake_toolchain(tmp_path, "raise SystemExit(2)\n")
    run = C.run_canaries(spec_repo, tools, canaries=(B.Canary("refused", "rfcs", refuse, ("x",)), B.CANARIES[0]))
    assert [(o.status, o.what) for o in run.outcomes] == [
        ("skipped", "could not plant it: rfcs/0001-x.md:3: no such thing"), ("error", run.outcomes[1].what)]


def test_a_canary_the_branch_took_its_place_away_from_is_an_error(spec_repo, tmp_path):
    """The branch deletes every example: example-invalid has nothing to plant on HEAD, but had on
    the base (main), so with the base given it is toolchain-canary-unplantable (an error); without
    a base, or when the base cannot plant it either, it is only skipped (a warning)."""
    for path in (spec_repo / "spec/examples").glob("*.json"):
        path.unlink()
    commit_all(spec_repo, "no examples")
    tools = fake_toolchain(tmp_path, "raise SystemExit(0)\n")
    example = by_name("example-invalid")
    run = C.run_canaries(spec_repo, tools, canaries=(example,), base="main")
    assert [(o.status, o.what) for o in run.outcomes] == [("unplantable", "spec/examples holds no JSON object")]
    (finding,) = [f for f in run.findings() if f.kind.startswith("toolchain-canary-u")]
    assert (finding.kind, finding.severity) == ("toolchain-canary-unplantable", Severity.ERROR)
    assert [o.status for o in C.run_canaries(spec_repo, tools, canaries=(example,)).outcomes] == ["skipped"]
    assert [o.status for o in C.run_canaries(spec_repo, tools, canaries=(example,), base="HEAD").outcomes] == [
        "skipped"]


def test_an_interrupted_pool_aborts_the_running_jobs_first(tmp_path):
    """Ctrl-C reaches the calling thread only: ``abort`` must end the running jobs (here it
    releases one that would wait 60 s) before they are waited for, and no job starts after."""
    import threading
    import time

    release = threading.Event()
    started = []

    def job(n):
        def run(folder):
            started.append(n)
            if n == 1:
                release.wait(60)
            return n
        return run

    def done(i, _):
        raise KeyboardInterrupt  # as Ctrl-C would, while job 1 is still running

    start = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        run_pooled([job(n) for n in range(6)], [tmp_path / "a", tmp_path / "b"], done, abort=release.set)
    assert time.monotonic() - start < 30 and release.is_set()
    assert 1 in started and len(started) <= 3  # at most one more job started before the interruption


def test_ctrl_c_kills_the_gate_runs_going_on(spec_repo, tmp_path):
    """With runs side by side, Ctrl-C (here raised by the progress callback when the first run
    ends) kills the others' gate processes at once, rather than waiting for them to end."""
    import time

    pids = tmp_path / "pids"
    tools = fake_toolchain(tmp_path, "import os, sys, time\n"
                           "if '--base' not in sys.argv:\n    raise SystemExit(2)\n"
                           f"open({str(pids)!r}, 'a').write(f'{{os.getpid()}}\\n')\ntime.sleep(120)\n")
    canaries = (B.CANARIES[0], next(c for c in B.CANARIES if not c.against_base))

    def progress(item):
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and len(pids.read_text().split() if pids.exists() else ()) < 2:
            time.sleep(0.05)  # the two gate runs with --base have started (they wait 120 s)
        raise KeyboardInterrupt

    start = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        C.run_canaries(spec_repo, tools, canaries=canaries, jobs=4, progress=progress)
    assert time.monotonic() - start < 60
    running = [int(pid) for pid in pids.read_text().split()]
    assert len(running) == 2  # the premise: the control with --base and the canary were going on
    for pid in running:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)


def test_a_hanging_toolchain_is_stopped(spec_repo, tmp_path):
    tools = fake_toolchain(tmp_path, "import time\ntime.sleep(60)\n")
    (outcome,) = C.run_canaries(spec_repo, tools, canaries=B.CANARIES[:1], timeout=1).outcomes
    assert (outcome.status, outcome.detail) == ("error", "its gate ran longer than 1s")
    assert outcome.seconds < 30


def test_nothing_to_test_when_the_toolchain_did_not_change(spec_repo, capsys):
    code, out, err = canary(capsys, "-C", str(spec_repo), "--base", "main")
    assert code == 0
    assert "canary: not run (the toolchain does not differ from main: nothing to test)" in err


@pytest.mark.parametrize(("args", "message"), [
    (lambda r, t: ["-C", str(r), "--toolchain", str(t)], "@t: no evalport_spec package to test (--toolchain)"),
    (lambda r, t: ["-C", str(r), "--base", "nosuch"], "git revision 'nosuch' not found"),
    # a full clone: no `git fetch --unshallow` hint (session 34)
    (lambda r, t: ["-C", str(r), "--base", "HEAD~999"], "git revision 'HEAD~999' does not exist: 'HEAD' has "
     "no such ancestor (this clone has the whole history)"),
    (lambda r, t: ["-C", str(r), "--timeout", "0"], "argument --timeout: must be a number greater than 0"),
    # beyond a day the operating system's wait overflows (OverflowError), so the bound is checked first
    (lambda r, t: ["-C", str(r), "--timeout", "1e30"], "must be a number greater than 0 and at most 86400, not '1e30'"),
    (lambda r, t: ["-C", str(r), "--jobs", "0"], "argument --jobs: must be a whole number from 1 to 64, not '0'"),
], ids=["no-package", "unknown-base", "base-beyond-history", "bad-timeout", "huge-timeout", "no-jobs"])
def test_bad_input_is_one_line_and_exit_2(spec_repo, tmp_path, capsys, args, message):
    try:
        code = main(["canary", *args(spec_repo, tmp_path)])
    except SystemExit as exc:  # argparse
        code = exc.code
    err = capsys.readouterr().err
    assert code == 2
    lines = err.splitlines()
    assert len(lines) == 1 and message.replace("@t", str(tmp_path)) in lines[0], err


@pytest.fixture(scope="module")
def toolchain_repo(tmp_path_factory):
    return make_repo(tmp_path_factory.mktemp("canary"), toolchain=True)


@pytest.mark.slow
def test_this_toolchain_catches_every_canary(toolchain_repo, capsys):
    code, out, err = canary(capsys, "-C", str(toolchain_repo), "--format", "json")
    assert code == 0, err
    report = json.loads(out)
    assert [(c["name"], c["status"]) for c in report["canaries"]] == [(n, "caught") for n in NAMES]
    assert report["findings"] == []
    for c in report["canaries"]:  # each caught by the check it names, not by a side effect
        assert CAUGHT_BY[c["name"]] in c["caught_by"], c


@pytest.mark.slow
@pytest.mark.parametrize(("edit", "passed"), [
    # all four remove an enum value
    (WEAKENING, ["enum-value-removed", "major-declared-without-rfc", "major-accepted-in-the-same-change",
                 "major-accepted-in-the-same-change-draft"]),
    # all three declare the next major version; no RFC is needed, so none needs dating
    (NO_RFC_NEEDED, ["major-declared-without-rfc", "major-accepted-in-the-same-change",
                     "major-accepted-in-the-same-change-draft"]),
], ids=["enum-not-breaking", "no-rfc-needed"])
def test_a_weakened_major_rule_is_caught_by_a_canary(toolchain_repo, tmp_path, capsys, edit, passed):
    root = tmp_path / "weak"
    git(toolchain_repo, "worktree", "add", "-q", "-b", f"weak-{len(passed)}", str(root), "main")
    weaken(root, edit)
    commit_all(root, "a kinder major rule")
    code, out, err = canary(capsys, "-C", str(root))
    assert code == 1, err
    for name in passed:
        assert re.search(rf"^FAIL\s+{name} ", out, re.M), out
        assert re.search(r"error toolchain-canary-passed: the changed toolchain passes a known break "
                         rf"\({name}: removed \"[^\"]+\" from spec/schemas/", out), out
    assert out.count("toolchain-canary-") == len(passed)  # the others still fail
    assert f"canary: FAILED ({len(passed)} of {len(NAMES)} known breaks not caught)" in out


@pytest.mark.slow
@pytest.mark.parametrize("name", list(STAGE_WEAKENINGS))
def test_a_toolchain_weakened_on_a_stage_check_is_caught_by_its_canary(toolchain_repo, tmp_path, name):
    """This toolchain with exactly the check a canary is named after weakened: that canary
    passes (an error), and the control run stays clean (the weakening fails nothing else)."""
    module, edit = STAGE_WEAKENINGS[name]
    root = tmp_path / "weak"
    git(toolchain_repo, "worktree", "add", "-q", "-b", f"weak-{name}", str(root), "main")
    weaken(root, edit, module)
    commit_all(root, f"a kinder {module}")
    (canary_,) = [c for c in B.CANARIES if c.name == name]
    run = C.run_canaries(root, canaries=(canary_,))
    assert [(c.status, c.stages) for c in run.controls] == [("clean", (canary_.stage,))]
    (outcome,) = run.outcomes  # passed: the stage passes, or fails only with other kinds (a side effect)
    assert outcome.status == "passed" and not set(outcome.kinds) & set(canary_.expects), outcome
    assert [f.kind for f in run.findings()] == ["toolchain-canary-passed"]
    unweakened = C.run_canaries(toolchain_repo, canaries=(canary_,))  # the premise: caught by this toolchain
    assert [o.status for o in unweakened.outcomes] == ["caught"]


@pytest.mark.slow
def test_ci_run_fails_a_branch_that_weakens_the_breaking_rule(toolchain_repo, tmp_path):
    """The gate of record passes the branch (a toolchain edit is only a warning), then the
    base's canary runs the branch's toolchain on the base's known breaks and fails CI, before
    the branch's own gate runs. A harmless toolchain edit still passes."""
    def ci(root):
        env = {**ENV, "EVALPORT_CI_NO_INSTALL": "1", "PYTHON": sys.executable, "NO_COLOR": "1"}
        env.pop("PYTHONPATH", None)
        return subprocess.run([str(root / ".ci/run"), "--check-only", "--base", "main"], stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True, env=env, cwd=root, timeout=900)

    weak = tmp_path / "weak"
    git(toolchain_repo, "worktree", "add", "-q", "-b", "weak-ci", str(weak), "main")
    weaken(weak)
    commit_all(weak, "enum removals are fine")
    run = ci(weak)
    judged, _, after = run.stdout.partition("ci: the toolchain canary")
    assert run.returncode == 1, run.stdout
    assert "toolchain or CI configuration differs from main: tools/evalport_spec/policy.py" in judged
    assert "gate: passed" in judged  # the gate of record passed it
    assert "toolchain-canary-passed" in after and "enum-value-removed" in after, run.stdout
    assert "ci: this tree's toolchain" not in run.stdout
    assert run.stdout.strip().splitlines()[-1].startswith("ci: the toolchain canary failed")

    fine = tmp_path / "fine"
    git(toolchain_repo, "worktree", "add", "-q", "-b", "fine-ci", str(fine), "main")
    policy = fine / "tools/evalport_spec/policy.py"
    policy.write_text(policy.read_text() + "\n# a comment\n")
    commit_all(fine, "a harmless toolchain edit")
    run = ci(fine)
    assert run.returncode == 0, run.stdout
    assert f"canary: passed ({len(NAMES)} of {len(NAMES)} known breaks caught)" in run.stdout


def test_no_git_hook_runs_when_a_canary_is_committed(spec_repo, tmp_path, monkeypatch):
    """A global ``core.hooksPath`` (the CI user's) would run its ``post-commit`` (which
    ``--no-verify`` does not skip) at each planted commit; the scratch clone has no hooks."""
    hooks = tmp_path / "hooks"
    mark = tmp_path / "hook-ran"
    write(hooks / "post-commit", f"#!/bin/sh\necho ran > {mark}\n").chmod(0o755)
    write(hooks / "pre-commit", f"#!/bin/sh\necho ran > {mark}\n").chmod(0o755)
    home = tmp_path / "home"
    write(home / ".gitconfig", f"[core]\n\thooksPath = {hooks}\n")
    monkeypatch.setenv("HOME", str(home))
    tools = fake_toolchain(tmp_path, "raise SystemExit(2)\n")
    (outcome,) = C.run_canaries(spec_repo, tools, canaries=B.CANARIES[:1]).outcomes
    assert outcome.status == "error"  # the premise: the break was planted and committed, then judged
    assert not mark.exists()


def test_uncommitted_tools_are_named_as_untested(spec_repo, capsys):
    """The canary tests the toolchain as committed; a file under tools/ not committed yet is
    said on standard error (here the committed tree has no toolchain at all: exit 2)."""
    write(spec_repo / "tools/evalport_spec/__init__.py", "")
    code, _, err = canary(capsys, "-C", str(spec_repo))
    assert code == 2
    assert ("canary: note: 1 file(s) under tools/ differ from HEAD (tools/evalport_spec/__init__.py...); "
            "the committed toolchain is the one tested") in err
    assert "evalport-spec: error: the checkout's tools/: no evalport_spec package to test" in err


# --- the classifier canary -----------------------------------------------------------------------

def test_every_classifier_pair_loses_its_witness():
    """python-jsonschema (Draft 2020-12, formats asserted, as EvalPort requires) accepts each
    pair's witness under the old schema and rejects it under the new one: the pair is a
    breaking change whatever the classifier says."""
    from jsonschema import Draft202012Validator

    from evalport_spec.gate.canaryclassifier import load_pairs
    pairs = load_pairs()
    assert len({p.name for p in pairs}) == len(pairs)
    for pair in pairs:
        old = Draft202012Validator(pair.old, format_checker=Draft202012Validator.FORMAT_CHECKER)
        new = Draft202012Validator(pair.new, format_checker=Draft202012Validator.FORMAT_CHECKER)
        assert old.is_valid(pair.witness) and not new.is_valid(pair.witness), pair.name


def test_the_classifier_pairs_cover_what_a_weakening_could_hide():
    """At least one pair for each tightening named in the brief (written out by hand), and one
    per format JSON Schema 2020-12 section 7.3 defines."""
    from evalport_spec.gate.canaryclassifier import load_pairs
    names = {p.name for p in load_pairs()}
    wanted = {"enum-value-removed", "type-member-removed", "required-added", "minimum-increased", "maximum-decreased",
              "exclusive-minimum-added", "exclusive-maximum-added", "min-length-increased", "max-length-decreased",
              "min-items-increased", "max-items-decreased", "min-properties-increased", "max-properties-decreased",
              "pattern-added", "additional-properties-closed", "const-added", "items-tightened",
              "prefix-items-tightened", "dependent-required-added", "oneof-branch-removed", "ref-target-tightened",
              "multiple-of-added", "unique-items-added", "property-names-restricted", "not-added",
              # adversary 35: an `else` weakening passed the sixty pairs, none of which had one
              "else-added", "else-added-under-an-unreachable-if", "else-tightened", "max-contains-added",
              "min-contains-increased", "unevaluated-items-closed"}
    formats = {"date", "date-time", "time", "duration", "email", "idn-email", "hostname", "idn-hostname", "ipv4",
               "ipv6", "uri", "uri-reference", "iri", "iri-reference", "uuid", "uri-template", "json-pointer",
               "relative-json-pointer", "regex"}
    assert wanted | {f"format-added-{f}" for f in formats} <= names


NARROWED_FORMATS = ("    return frozenset(_validator_class(dialect).FORMAT_CHECKER.checkers)\n",
                    "    return frozenset(_validator_class(dialect).FORMAT_CHECKER.checkers) & frozenset(\n"
                    "        {'date', 'date-time', 'time', 'email', 'idn-email', 'ipv4', 'ipv6', 'regex', 'uuid'})\n")
"""Adversary 34's break2 PR1: the classifier's asserted formats cut to a "library-free" set."""


def test_a_classifier_that_stopped_asserting_some_formats_is_caught(spec_repo, tmp_path, capsys):
    """This toolchain with asserted_formats narrowed: the classifier canary reports exactly the
    format pairs it no longer calls MAJOR (the planted breaks do not touch formats); this
    toolchain itself calls every pair MAJOR."""
    from evalport_spec.gate.canaryclassifier import load_pairs
    tools = tmp_path / "tools"
    shutil.copytree(Path(C.__file__).parents[2], tools, ignore=shutil.ignore_patterns("__pycache__"))
    pairs = load_pairs()
    run = C.run_canaries(spec_repo, tools, canaries=(), pairs=pairs)
    assert [o.status for o in run.classified] == ["caught"] * len(pairs) and run.findings() == []
    weaken(tools.parent, NARROWED_FORMATS, "compat/nodes.py")
    run = C.run_canaries(spec_repo, tools, canaries=(), pairs=pairs)
    cut = {"duration", "hostname", "idn-hostname", "uri", "uri-reference", "iri", "iri-reference", "uri-template",
           "json-pointer", "relative-json-pointer"}
    assert {o.name for o in run.classified if o.status == "passed"} == {f"classifier-format-added-{f}" for f in cut}
    passed = [f for f in run.findings() if f.kind == "toolchain-canary-passed"]
    assert len(passed) == len(cut) and "no longer calls a known breaking schema pair MAJOR" in passed[0].message


ELSE_REACHED_AS_THEN = ("            if sub and self.check(A, if_c):\n",
                        "            if sub and not self.disjoint(A, if_c):\n")
"""Adversary 35's attempt 8 PR1: the ``else`` case's failures kept only where the old schema
meets the ``if`` (the ``then`` case's test), so an ``else`` under an ``if`` no valid document
meets binds every document and is called PATCH."""


def test_a_classifier_that_stopped_weighing_else_is_caught(spec_repo, tmp_path):
    """This toolchain with the ``else`` case weighed like the ``then`` case: the classifier
    canary reports the pair whose ``if`` no valid document meets (the sixty pairs of session 34
    had no ``else`` and all passed)."""
    from evalport_spec.gate.canaryclassifier import load_pairs
    tools = tmp_path / "tools"
    shutil.copytree(Path(C.__file__).parents[2], tools, ignore=shutil.ignore_patterns("__pycache__"))
    pairs = tuple(p for p in load_pairs() if "else" in p.name or p.name == "enum-value-removed")
    weaken(tools.parent, ELSE_REACHED_AS_THEN, "compat/combinators.py")
    run = C.run_canaries(spec_repo, tools, canaries=(), pairs=pairs)
    assert {o.name for o in run.classified if o.status == "passed"} == {
        "classifier-else-added-under-an-unreachable-if"}
    assert [f.kind for f in run.findings()] == ["toolchain-canary-passed"]


ENUM_CANARIES = ("enum-value-removed", "major-declared-without-rfc", "major-accepted-in-the-same-change",
                 "major-accepted-in-the-same-change-draft")
"""The canaries that plant an enum-value removal: adversary 35's PR1 deleted them."""


def test_a_toolchain_that_drops_known_breaks_is_caught(spec_repo, tmp_path):
    """Adversary 35 (three pull requests): PR1 deleted the four enum canaries from its own
    canarybreaks.py and passed the base's canary (no check changed); PR2, tested with PR1's
    shorter list, made breaking() skip enum-value-removed and passed; PR3 removed runner_error
    as a MAJOR change with no RFC. The judge now fails PR1: each canary it has and the toolchain
    under test no longer lists is toolchain-canary-removed, and so is a classifier pair."""
    import re

    from evalport_spec.gate.canaryclassifier import load_pairs
    tools = tmp_path / "tools"
    shutil.copytree(Path(C.__file__).parents[2], tools, ignore=shutil.ignore_patterns("__pycache__"))
    breaks = tools / "evalport_spec/gate/canarybreaks.py"
    text = breaks.read_text()
    for name in ENUM_CANARIES:
        text, n = re.subn(r'    Canary\("' + re.escape(name) + r'",.*?\),\n(?=    Canary|\))', "", text, flags=re.S)
        assert n == 1, name
    breaks.write_text(text)
    pairs_file = tools / "evalport_spec/data/classifier-canary.json"
    doc = json.loads(pairs_file.read_text())
    doc["pairs"] = [p for p in doc["pairs"] if p["name"] != "else-added"]
    pairs_file.write_text(json.dumps(doc))
    judge = tuple(c for c in C.CANARIES if c.name == "enum-value-removed")
    run = C.run_canaries(spec_repo, tools, canaries=judge, pairs=load_pairs())
    assert [o.status for o in run.outcomes] == ["caught"]  # the check itself is intact
    assert sorted((f.kind, f.extra.get("canary")) for f in run.findings()) == [
        ("toolchain-canary-removed", "else-added"), ("toolchain-canary-removed", "enum-value-removed")]
    # this toolchain keeps every one of its own
    from evalport_spec.gate.canarykept import removed_findings
    assert removed_findings(Path(C.__file__).parents[2], {c.name for c in C.CANARIES},
                            {p.name for p in load_pairs()}) == []


def test_a_canary_list_rebound_or_computed_cannot_be_read_and_is_an_error(tmp_path):
    """The judge reads one literal CANARIES tuple; a second binding that shortens it (or a list
    the judge cannot read) counts as dropping every canary, and a toolchain without the file
    (which could not run the canary at all) is not judged here."""
    from evalport_spec.gate.canarykept import BREAKS, removed_findings
    source = (Path(C.__file__).parent / "canarybreaks.py").read_text()
    tools = tmp_path / "tools"
    (tools / BREAKS).parent.mkdir(parents=True)
    (tools / BREAKS).write_text(source + "\nCANARIES = CANARIES[:16]\n")
    found = removed_findings(tools, {"enum-value-removed"}, set())
    assert [(f.kind, "lists no known breaks the judge can read" in f.message) for f in found] == [
        ("toolchain-canary-removed", True)]
    (tools / BREAKS).unlink()
    assert removed_findings(tools, {"enum-value-removed"}, set()) == []



def test_a_canary_kept_by_name_but_planted_otherwise_is_a_warning_naming_it(tmp_path):
    """Red team of the fix above: keeping the name and re-pointing the planting (the enum canary
    made to tighten a bound instead, so no canary removes an enum value any more) drops no name.
    The judge compares each canary's entry and the functions its planting reaches."""
    from evalport_spec.gate.canarykept import BREAKS, changed_findings
    judge = Path(C.__file__).with_name("canarybreaks.py")
    tools = tmp_path / "tools"
    (tools / BREAKS).parent.mkdir(parents=True)
    source = judge.read_text()
    said = "a MAJOR ``enum-value-removed`` against the setup commit."
    assert source.count(said) == 1
    (tools / BREAKS).write_text(source.replace(said, "a MAJOR finding, reworded.") + "\n# a comment\n")
    assert changed_findings(tools, {c.name for c in C.CANARIES}, judge) == []
    old = 'Canary("enum-value-removed", "base", remove_canary_enum_value,'
    assert source.count(old) == 1
    (tools / BREAKS).write_text(source.replace(old, 'Canary("enum-value-removed", "base", tighten_canary_bound,'))
    found = changed_findings(tools, {c.name for c in C.CANARIES}, judge)
    assert [(f.kind, f.extra["canary"], f.severity.name) for f in found] == [
        ("toolchain-canary-changed", "enum-value-removed", "WARNING")]
    # a helper the planting reaches counts too: every canary whose planting calls it is named
    helper = "def _canary_member(root: Path, name: str)"
    assert source.count(helper) == 1
    (tools / BREAKS).write_text(source.replace(helper, helper + ":\n    name = name + ''\n    return _orig(root, name)\n\n\ndef _orig(root: Path, name: str)"))
    names = {f.extra["canary"] for f in changed_findings(tools, {c.name for c in C.CANARIES}, judge)}
    assert {"enum-value-removed", "bound-tightened"} <= names and "released-file-edited" not in names


NAMED_AT_ANY_SEVERITY = (
    "        return \"error\", f\"its gate exited {proc.returncode} with the `{stage}` stage {status!r}\", kinds\n"
    "    return \"passed\", \"\", kinds\n",
    "        return \"error\", f\"its gate exited {proc.returncode} with the `{stage}` stage {status!r}\", kinds\n"
    "    named = sorted({f[\"kind\"] for s in json.loads(proc.stdout)[\"stages\"] if s[\"name\"] == stage\n"
    "                    for f in s.get(\"findings\", [])})\n"
    "    if set(named) & set(expects):  # named at a severity the draft's policy gives it\n"
    "        return \"caught\", f\"its `{stage}` stage names it without failing\", named\n"
    "    return \"passed\", \"\", kinds\n")
"""Red team 37, attempt 1 (PR1): the canary's verdict counts a break its stage names at any
severity as caught; the next branch then turned policy-major-needs-rfc into a warning."""


FILTERED = ("    result = canary.run_canaries(repo.root, args.toolchain, pairs=load_pairs(), base=args.base,\n",
            "    result = canary.run_canaries(repo.root, args.toolchain, pairs=load_pairs(), base=args.base,\n"
            "                                 canaries=tuple(c for c in canary.CANARIES if c.name != \"enum-value-removed\"),\n")
"""Red team 36, attempt 3 (PR1): the branch's canary command passes a filtered list, so once it
lands a weakening of what that canary tests passes the next branch's canary."""


@pytest.mark.slow
@pytest.mark.parametrize(("edit", "module", "blind"), [
    (FILTERED, "cli/canary.py", ["enum-value-removed"]),
    # the branch's canary counts any failure of the stage as a catch: blind to every break
    (("        if set(kinds) & set(expects):\n", "        if True:\n"), "gate/canary.py", "some"),
    # red team 37, attempt 1: a break its stage names at any severity counts as caught (the
    # canaries whose kinds the weakened gate keeps as warnings: policy-major-needs-rfc,
    # example-invalid, released-file-changed, rfc-accepts-after-decision, rfc-status-transition...)
    (NAMED_AT_ANY_SEVERITY, "gate/canary.py", "warned"),
    # a harmless edit of the canary command: nothing blind
    (("    from ..findings import Severity\n", "    from ..findings import Severity  # the severities\n"),
     "cli/canary.py", []),
], ids=["filtered", "any-failure-counts", "named-at-any-severity", "harmless"])
def test_the_branchs_own_canary_is_judged_on_the_judges_weakened_toolchain(toolchain_repo, tmp_path, edit, module,
                                                                           blind):
    """The canary of the canary (gate/canarymeta.py): the branch's canary command, run as the
    next CI would on the judge's package weakened to let every known break through, must fail
    every break the judge's own canary caught. The filtered list of adv36's PR1 leaves
    enum-value-removed out: blind; a canary that counts any failure of the stage as a catch is
    blind to the breaks whose stage the weakened gate still fails (a stand-in kind); one that
    counts an expected kind named at any severity (red team 37) is blind to those the weakened
    gate keeps as warnings. A
    harmless edit of the command: nothing blind. (Before
    session 37 both passed: the branch's canary code never ran.)"""
    root = tmp_path / "branch"
    git(toolchain_repo, "worktree", "add", "-q", "-b", f"meta-{tmp_path.name}", str(root), "main")
    weaken(root, edit, module)
    commit_all(root, "the canary command, edited")
    run = C.run_canaries(root, base="main", pairs=load_pairs())
    assert [o.status for o in run.outcomes] == ["caught"] * len(run.outcomes)  # the toolchain itself is sound
    found = [(f.kind, f.extra.get("canary")) for f in run.findings()]
    if isinstance(blind, str):  # some canaries: those the loosened verdict still calls caught
        assert found and all(kind == "toolchain-canary-blind" for kind, _ in found), found
        if blind == "warned":  # each one a canary whose expected kind the weakened gate keeps as a warning
            warned = {k for k, mode in _modes().items() if mode == "warning"}
            expects = {c.name: set(c.expects) for c in B.CANARIES}
            assert all(expects[name] & warned for _, name in found), found
        return
    assert found == [("toolchain-canary-blind", name) for name in blind], [f.message for f in run.findings()]


def _modes() -> dict[str, str]:
    """The weakened gate's mode per expected kind, as canarymeta assigns them."""
    from evalport_spec.gate.canarymeta import MODES
    kinds = sorted({k for c in B.CANARIES for k in c.expects})
    return {k: MODES[i % len(MODES)] for i, k in enumerate(kinds)}
