"""Evidence the branch takes away from the draft, shown to the reviewer (``check --base REF``).

The draft's conformance fixtures pin what its validator says about each document, and its
examples (``spec/examples/*.json``) are documents every version of the draft must keep valid
(the ``examples`` stage) and seeds of the rule-behaviour corpus (:mod:`.rulecorpus`). A branch
that deletes a fixture, makes one stop applying to the draft (an ``until`` at or below the
draft's version, a ``since`` above it), or deletes an example makes no stage fail: the
``conformance`` and ``examples`` stages check what is there, and the released fixtures are
frozen in their release folders, so nothing compares the draft's set with the base's. Yet it
weakens every later gate run: the check that would catch a regression of that case is gone.
(Red team, session 34: a draft fixture given ``until`` equal to the draft's version, so it no
longer ran, and a deleted example, each passed with no word in the report.)

So the base stage lists each as a WARNING (a deliberate retirement is legitimate, and a
reviewer should see it):

* ``conformance-fixture-removed``: a fixture that applied to REF's draft is gone.
* ``conformance-fixture-retired``: a fixture that applied to REF's draft is still stored but
  does not apply to the branch's draft (``since <= version < until`` fails for the branch's
  ``spec/VERSION``).
* ``conformance-fixture-changed``: a fixture that applied to REF's draft still applies to the
  branch's but pins another case: its ``document_type``, ``document`` or expected outcome
  (``expect``) differs (compared as canonical JSON, so ``1`` and ``true`` differ). Red team of
  the two above: without it, a fixture's document swapped for a trivially valid one, or its
  expected errors dropped, retired the case under the same name in silence.
* ``example-removed``: an example of REF's draft is gone (a rename is a removal and an addition).
* ``example-changed``: an example of REF's draft is still there under its name but holds another
  document (compared as JSON values, so layout and key order do not count; a file that is not
  JSON on either side is compared by its bytes). The ``examples`` stage checks the new document
  is valid, never that the one REF showed still is: an example edited into a simpler document
  (a member with a tight constraint dropped) stops pinning what it pinned, in silence before
  session 35. (A fixture that pins another case is ``conformance-fixture-changed``.)
* ``rule-encoding-changed``: a subschema marked ``x-evalport-rule`` (a rule the schema encodes)
  differs from REF's draft's, whether or not the rule's catalogue statement changed with it. The classifier
  judges the schema change as any other, and a loosening is a compatible MINOR, but the
  statement, SPEC.md's rule section and the rule's fixtures still say the rule holds. Red team,
  session 35: NULL_SCORE_PASSED's ``if`` gained ``"grader_id": {"minLength": 2}``, so a null
  score passed for a grader named ``j``; the rule's fixture (grader ``judge``) was still
  rejected, and the gate said only ``MINOR if-then-loosened``, naming no rule. Red team, session
  36: the same edit with the statement given a second space between two words (no word
  changed) passed with no finding at all, since a differing statement silenced the warning and
  a statement without a key word is no unit of the normative record; so a changed statement
  changes the message (confirm it says what the subschema now rejects), not whether it is said.

A draft whose fixtures cannot be read is the ``conformance`` stage's finding, not one here.
"""

from __future__ import annotations

import json
from pathlib import Path

from .. import gitsource
from ..errors import InputError
from ..findings import Finding, Location, Severity
from ..fixtures import Fixture
from ..fsutil import read_optional
from ..jsonload import MAX_BYTES
from ..rulecheck.schemawalk import MARKER
from ..schemawalk import subschemas
from ..spec import SpecVersion

FIXTURES = "spec/conformance/fixtures"
EXAMPLES = "spec/examples"


def fixture_findings(base: SpecVersion, branch: SpecVersion, label: str) -> list[Finding]:
    """WARNING findings for each fixture of ``base`` (REF's draft, named ``label``) that
    applies to it and is gone from ``branch`` (the working draft) or no longer applies to it
    (module docstring); none when either side's fixtures cannot be read."""
    try:
        applied = base.fixtures
        stored = {fx.id: fx for fx in branch.stored_fixtures}
        applies = {fx.id for fx in branch.fixtures}
    except InputError:
        return []  # the conformance stage reports an unreadable fixture
    out = []
    for fx in sorted(applied, key=lambda f: f.id):
        rel = f"{FIXTURES}/{fx.id}.json"
        now = stored.get(fx.id)
        if now is None:
            out.append(Finding("conformance-fixture-removed",
                               f"fixture {fx.id} applied to {label}'s draft and is gone: the case it "
                               "pinned is checked no more (give it an `until` in a MAJOR change only "
                               "if the draft's validator should now disagree with it)",
                               severity=Severity.WARNING, old=Location(f"{label}:{rel}"), new=Location(rel)))
        elif fx.id in applies and _case(fx) != _case(now):
            out.append(Finding("conformance-fixture-changed",
                               f"fixture {fx.id} pins another case than in {label}'s draft (its document "
                               "or expected outcome changed): the case it pinned there is checked no more",
                               severity=Severity.WARNING, old=Location(f"{label}:{rel}"), new=Location(rel)))
        elif fx.id not in applies:
            bounds = f"since {now.since}" + (f", until {now.until}" if now.until else "")
            out.append(Finding("conformance-fixture-retired",
                               f"fixture {fx.id} applied to {label}'s draft but not to this draft's "
                               f"version {branch.semver} ({bounds}): the case it pinned is checked no more",
                               severity=Severity.WARNING, old=Location(f"{label}:{rel}"),
                               new=Location(rel, "/until" if now.until else "/since")))
    return out


def _case(fx: Fixture) -> str:
    """What fixture ``fx`` pins, as canonical JSON: its document type, document and expected
    outcomes (not its description, rules or version bounds)."""
    return json.dumps([fx.document_type, fx.document, fx.schema.to_json(), fx.full.to_json()],
                      sort_keys=True, ensure_ascii=False)


def example_findings(root: Path, commit: str, label: str, folder: Path) -> list[Finding]:
    """An ``example-removed`` WARNING per ``spec/examples/*.json`` file of ``commit`` (REF,
    named ``label``) that is not in ``folder`` (the working tree's ``spec/examples``), and an
    ``example-changed`` WARNING per one whose content differs there (module docstring).

    Raises:
        InputError: as :func:`~evalport_spec.gitsource.list_dir` and
            :func:`~evalport_spec.gitsource.read_file`; a working-tree example larger than
            :data:`~evalport_spec.jsonload.MAX_BYTES`.
    """
    before = [n for n in gitsource.list_dir(root, commit, EXAMPLES) if n.endswith(".json")]
    now = {p.name for p in folder.iterdir()} if folder.is_dir() else set()
    out = []
    for name in before:
        rel = f"{EXAMPLES}/{name}"
        if name not in now:
            out.append(Finding("example-removed", f"example {name} of {label}'s draft is gone: it is no longer "
                               "validated against the draft, nor a seed of the rule-behaviour corpus",
                               severity=Severity.WARNING, old=Location(f"{label}:{rel}"), new=Location(rel)))
            continue
        then = gitsource.read_file(root, commit, rel)
        data = read_optional(folder / name, max_bytes=MAX_BYTES, label=rel)
        if then is not None and data is not None and _content(then) != _content(data):
            out.append(Finding("example-changed", f"example {name} holds another document than in {label}'s "
                               "draft: the document it showed there is validated against the draft no more "
                               "(add the new one as another example if both should hold)",
                               severity=Severity.WARNING, old=Location(f"{label}:{rel}"), new=Location(rel)))
    return out


def _content(data: bytes) -> object:
    """What an example holds: its JSON value as canonical JSON (object members in any order,
    any layout), or its bytes when it is not JSON (the ``examples`` stage reports that)."""
    try:
        return json.dumps(json.loads(data.decode("utf-8")), sort_keys=True, ensure_ascii=False)
    except (UnicodeDecodeError, ValueError, RecursionError):
        return data


def encoding_findings(base: SpecVersion, branch: SpecVersion, label: str) -> list[Finding]:
    """A ``rule-encoding-changed`` WARNING (module docstring) for each rule code whose marked
    subschemas (:data:`~evalport_spec.rulecheck.schemawalk.MARKER`, compared as canonical JSON
    with their file and pointer) differ between ``base`` (REF's draft, named ``label``) and
    ``branch``, its message saying whether the code's catalogue ``statement`` changed too;
    located at the branch's first marked subschema of the code."""
    before, after = _encodings(base), _encodings(branch)
    said_before = {r.code: r.statement for r in base.catalogue.rules}
    said_after = {r.code: r.statement for r in branch.catalogue.rules}
    out = []
    for code in sorted(set(before) & set(after)):
        if before[code][0] == after[code][0]:
            continue
        source, ptr, line = after[code][1]
        if said_before.get(code) == said_after.get(code):
            what = ("but its catalogue statement does not: what the schema rejects changed, while the statement, "
                    "SPEC.md's rule section and its fixtures still say the rule holds as before; confirm the "
                    "subschema still rejects every document the statement forbids, or change the statement "
                    "(and its record) with it")
        else:
            what = ("and so does its catalogue statement: confirm the new statement says exactly what the "
                    "subschema now rejects (a statement with no key word is on no record, so its rewording "
                    "is no finding of its own)")
        out.append(Finding("rule-encoding-changed",
                           f"the schema's encoding of {code} differs from {label}'s draft {what}",
                           severity=Severity.WARNING, new=Location(source, ptr, line), code=code))
    return out


def _encodings(v: SpecVersion) -> dict[str, tuple[str, tuple[str, str, int | None]]]:
    """``{code: (canonical JSON of its marked subschemas with file and pointer, where the first is)}``."""
    found: dict[str, list[tuple[str, str, object, tuple[str, str, int | None]]]] = {}
    for f in v.schemas:
        for ptr, node in subschemas(f.schema):
            code = node.get(MARKER)
            if isinstance(code, str):
                found.setdefault(code, []).append((f.name, ptr, node, (f.loaded.source, ptr, f.loaded.line(ptr))))
    return {code: (json.dumps([[name, ptr, node] for name, ptr, node, _ in hits], sort_keys=True,
                              ensure_ascii=False), hits[0][3])
            for code, hits in found.items()}
