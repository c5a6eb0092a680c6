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

A draft whose fixtures cannot be read is the ``conformance`` stage's finding, not one here.
"""

from __future__ import annotations

import json
from pathlib import Path

from .. import gitsource
from ..errors import InputError
from ..findings import Finding, Location, Severity
from ..fixtures import Fixture
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


def example_findings(root: Path, commit: str, label: str, now: set[str]) -> list[Finding]:
    """An ``example-removed`` WARNING per ``spec/examples/*.json`` file of ``commit`` (REF,
    named ``label``) whose name is not in ``now`` (the working tree's example file names).

    Raises:
        InputError: as :func:`~evalport_spec.gitsource.list_dir`.
    """
    before = [n for n in gitsource.list_dir(root, commit, EXAMPLES) if n.endswith(".json")]
    return [Finding("example-removed", f"example {name} of {label}'s draft is gone: it is no longer "
                    "validated against the draft, nor a seed of the rule-behaviour corpus",
                    severity=Severity.WARNING, old=Location(f"{label}:{EXAMPLES}/{name}"),
                    new=Location(f"{EXAMPLES}/{name}"))
            for name in before if name not in now]
