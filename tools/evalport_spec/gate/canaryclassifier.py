"""The classifier canary's known-breaking schema pairs, and how a ``diff`` report judges them.

The gate's verdicts rest on the classifier (:mod:`evalport_spec.compat`): a toolchain change that
narrows it (red team: ``asserted_formats`` cut to a "library-free" set, so that adding
``format: uri`` became PATCH) passes every planted break that does not use what was cut. The
classifier canary (docs/how-to/gate-in-ci.md, promise 9) gives the toolchain under test pairs of
schemas kept in this package (``data/classifier-canary.json``), one per kind of tightening that
loses documents (an enum value, a type member, a required name, each bound on both sides, a
pattern, each asserted format of JSON Schema 2020-12 section 7.3, closed or narrowed additional
members, ``const``, items and prefix items, ``dependentRequired``, a ``oneOf`` branch, a ``$ref``
target...), each with a witness document python-jsonschema (Draft 2020-12, formats asserted)
accepts under the old schema and rejects under the new one (tests/test_canary.py checks every
witness). Its own ``evalport-spec diff --format json OLD NEW``, run once on two folders holding
every pair, must call each pair MAJOR.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

PAIRS_FILE = Path(__file__).resolve().parents[1] / "data" / "classifier-canary.json"
"""The package's known-breaking pairs."""


@dataclass(frozen=True)
class Pair:
    """One known-breaking schema pair.

    Attributes:
        name: kebab-case (``format-added-uri``), also the pair's file name (``NAME.json``) in
            the folders given to ``diff``; old, new: the schemas; witness: a document ``old``
            accepts and ``new`` rejects.
    """

    name: str
    old: dict[str, Any]
    new: dict[str, Any]
    witness: Any


def load_pairs(path: Path = PAIRS_FILE) -> tuple[Pair, ...]:
    """The pairs of ``path`` (``{"pairs": [{"name", "old", "new", "witness"}, ...]}``), in order.

    Raises:
        OSError, ValueError, KeyError: the package's data file is missing or malformed (a broken
            installation, not user input).
    """
    doc = json.loads(path.read_text(encoding="utf-8"))
    return tuple(Pair(p["name"], p["old"], p["new"], p["witness"]) for p in doc["pairs"])


def write_pairs(folder: Path, pairs: tuple[Pair, ...]) -> tuple[Path, Path]:
    """Write each pair's schemas as ``folder/old/NAME.json`` and ``folder/new/NAME.json``;
    returns the two folders (``diff OLD NEW`` compares files of the same name)."""
    old, new = folder / "old", folder / "new"
    for side in (old, new):
        side.mkdir(parents=True, exist_ok=True)
    for pair in pairs:
        (old / f"{pair.name}.json").write_text(json.dumps(pair.old), encoding="utf-8")
        (new / f"{pair.name}.json").write_text(json.dumps(pair.new), encoding="utf-8")
    return old, new


def major_kinds(report: Any, pairs: tuple[Pair, ...]) -> dict[str, list[str]]:
    """``{pair name: kinds of the MAJOR findings on its file, sorted}`` of a ``diff --format
    json`` report (a finding's file is its ``extra.file``, else the name of its new or old
    location's file). An empty list: the pair was not called MAJOR.

    Raises:
        KeyError, TypeError, AttributeError: ``report`` is not a diff report.
    """
    names = {f"{p.name}.json": p.name for p in pairs}
    out: dict[str, set[str]] = {p.name: set() for p in pairs}
    for f in report["findings"]:
        where = (f.get("extra") or {}).get("file") or (f.get("new") or f.get("old") or {}).get("file") or ""
        name = names.get(str(where).replace("\\", "/").rsplit("/", 1)[-1])
        if name is not None and f.get("change_class") == "MAJOR":
            out[name].add(str(f.get("kind")))
    return {k: sorted(v) for k, v in out.items()}


__all__ = ["PAIRS_FILE", "Pair", "load_pairs", "major_kinds", "write_pairs"]
