"""The canary of the canary: the branch's own ``canary`` command is judged before it judges.

The canary (:mod:`.canary`) runs the judge's known breaks against the branch's toolchain. Once
the branch lands, its ``canary`` command is the one that judges the next branch. Red team,
session 36 (attempt 3): PR1 made ``cli/canary.py`` pass a filtered list to ``run_canaries``
(only a ``toolchain-changed`` warning: the judge's canary never runs the branch's canary code);
PR2, judged by PR1's filtered canary, made ``policy.breaking()`` ignore ``enum-value-removed``;
PR3 removed an enum value with no RFC and passed.

So when the branch changes the toolchain (``canary --base REF`` with the checkout's own
``tools/``, as ``.ci/run`` calls it), the judge also runs the **branch's** ``canary`` command,
exactly as the next ``.ci/run`` would (``python -P -m evalport_spec -C CLONE canary --base REF
--format json``, from a scratch folder, with the branch's committed ``tools/`` on
``PYTHONPATH``), on a scratch clone of the branch whose ``tools/evalport_spec`` is replaced by a
**weakened copy of the judge's own package** (:func:`weakened_package`):

* its gate hides, in every stage, every finding of a kind some judge canary expects
  (:attr:`~.canarybreaks.Canary.expects`), the kinds taking three ways in turn (:data:`MODES`):
  dropped with an error :data:`STAND_IN` in its place (a stage still fails, with none of the
  expected kinds: a canary that counts any failure as a catch is caught), dropped with nothing
  in its place, or kept as a warning (a canary that counts an expected kind named at any
  severity as a catch is caught: red team, session 37);
* its ``diff`` turns every MAJOR finding into no finding or a MINOR one (by a CRC-32 of its
  kind), so a canary that counts any finding on a pair's file as a catch is caught too.

Every judge canary its own run on the branch caught, and every classifier pair it caught, must
then be in the branch canary's report as ``passed`` (the weakened toolchain lets it through,
and nothing else goes wrong), and the command must exit 1. A name missing or reported otherwise
(``caught``, ``skipped``, ``error``: a run that proves nothing proves nothing here either) is an
error ``toolchain-canary-blind``; so is a run that crashes, exits otherwise or writes no
report. Control runs stay clean on the weakened copy
(a benign change has no finding to drop), so a correct canary reports each break ``passed``.

What it cannot catch: a canary command that recognises this run (the weakened copy's text or
digest, the ``--format json`` it is asked for where CI asks for text, its scratch folders) and
behaves only for it, as a toolchain can recognise the canaries. That is left to the
review of ``toolchain-changed``.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ..findings import Finding, Location

KIND = "toolchain-canary-blind"
"""The error for a branch canary command that does not fail a known break the weakened judge lets through."""

STAND_IN = "canary-stand-in"
"""The kind the weakened gate reports in place of the findings it dropped."""

GATE_ANCHOR = "        findings, summary, cls = STAGE_FUNCS[name](ctx)\n"
"""The line of ``gate/__init__.py`` after which the weakened gate drops findings."""

DIFF_ANCHOR = "                          search_budget=options[\"search_budget\"])\n"
"""The last line of the ``classify`` call in ``cli/diff.py``, after which the weakened diff drops MAJOR findings."""

_GATE_PATCH = '''

_CANARY_MODES = {modes}


def _canary_weakened(findings):
    import dataclasses

    from ..findings import Severity

    kept, replaced = [], False
    for f in findings:
        mode = _CANARY_MODES.get(f.kind)
        if mode is None:
            kept.append(f)
        elif mode == "stand-in":
            replaced = True
        elif mode == "warning":
            kept.append(dataclasses.replace(f, severity=Severity.WARNING))
    if replaced:
        kept.append(Finding("{stand_in}", "the weakened toolchain's stand-in for the findings it dropped"))
    return kept
'''

_DIFF_PATCH = '''

def _canary_weakened(result):
    import zlib

    from ..findings import ChangeClass

    kept = []
    for f in result.findings:
        if f.change_class != ChangeClass.MAJOR:
            kept.append(f)
        elif zlib.crc32(str(f.kind).encode()) % 2:
            f.change_class = ChangeClass.MINOR
            kept.append(f)
    result.findings = kept
    if result.change_class == ChangeClass.MAJOR:
        result.change_class = ChangeClass.MINOR
    return result
'''

MODES = ("stand-in", "clean", "warning")
"""How the weakened gate hides a finding of an expected kind, the kinds (sorted) taking the
modes in turn: dropped with a :data:`STAND_IN` error in its place (a stage still fails); dropped
with nothing in its place (the stage may pass clean); kept as a warning (the stage names it
without failing). Red team, session 37: with the stand-in alone, a branch canary that counted
an expected kind named at any severity as a catch was never tested and passed."""


def _patch(path: Path, anchor: str, inserted: str, appended: str) -> None:
    """Insert ``inserted`` after the one line ``anchor`` of ``path`` and append ``appended``.

    Raises:
        ValueError: ``anchor`` is not once in the file (the judge's own code changed shape:
            :func:`weakened_package`'s test keeps the two in step).
    """
    text = path.read_text(encoding="utf-8")
    if text.count(anchor) != 1:
        raise ValueError(f"{path.name}: the weakening's anchor is not there once")
    path.write_text(text.replace(anchor, anchor + inserted) + appended, encoding="utf-8")


def weakened_package(dest: Path, dropped: Iterable[str], source: Path | None = None) -> Path:
    """Copy the judge's ``evalport_spec`` package (``source``, default the running one) to
    ``dest/evalport_spec``, weakened as the module docstring says (``dropped``: the kinds its
    gate drops); returns ``dest`` (a folder to put on ``PYTHONPATH``).

    Raises:
        OSError: the copy failed; ValueError: an anchor is missing (:func:`_patch`).
    """
    src = source or Path(__file__).resolve().parents[1]
    pkg = dest / "evalport_spec"
    shutil.copytree(src, pkg, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    modes = {k: MODES[i % len(MODES)] for i, k in enumerate(sorted(set(dropped)))}
    _patch(pkg / "gate" / "__init__.py", GATE_ANCHOR, "        findings = _canary_weakened(findings)\n",
           _GATE_PATCH.format(modes=repr(modes), stand_in=STAND_IN))
    _patch(pkg / "cli" / "diff.py", DIFF_ANCHOR, "        result = _canary_weakened(result)\n", _DIFF_PATCH)
    return dest


def blind_findings(proc: subprocess.CompletedProcess[bytes] | None, detail: str,
                   canaries: Iterable[str], pairs: Iterable[str]) -> list[Finding]:
    """The ``toolchain-canary-blind`` errors of the branch canary's run on the weakened clone
    (``proc``; ``None`` with ``detail`` when it did not finish): every name of ``canaries`` (the
    judge canaries its own run caught) and of ``pairs`` (``classifier-NAME``) must be reported
    ``passed``, and the run must exit 1."""
    where = Location("tools")

    def blind(message: str, **extra: Any) -> Finding:
        return Finding(KIND, message, new=where, extra=extra)

    if proc is None:
        return [blind(f"the changed toolchain's own canary could not judge the judge's weakened toolchain: {detail}")]
    try:
        report = json.loads(proc.stdout)
        said = {c["name"]: c["status"] for c in [*report["canaries"], *report.get("classifier", [])]}
    except (ValueError, KeyError, TypeError):
        return [blind(f"the changed toolchain's own canary (exit {proc.returncode}) wrote no canary report "
                      "when it judged the judge's weakened toolchain")]
    out = []
    for name in [*canaries, *pairs]:
        status = said.get(name)
        if status != "passed":
            shown = "does not run it" if status is None else f"reports it {status}"
            out.append(blind(f"the changed toolchain's own canary {shown} ({name}), though the judge's toolchain "
                             "weakened to let it through does: once landed, that canary would let a change "
                             "weakening this check pass", canary=name))
    if not out and proc.returncode != 1:
        out.append(blind(f"the changed toolchain's own canary exits {proc.returncode} on the judge's toolchain "
                         "weakened to let every known break through (it must fail)"))
    return out


__all__ = ["DIFF_ANCHOR", "GATE_ANCHOR", "KIND", "STAND_IN", "blind_findings", "weakened_package"]
