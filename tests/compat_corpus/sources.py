"""Where the corpus's schemas come from, read at run time (nothing is copied into the repository).

* the repository's schema sets: the draft (``spec/schemas``) and every release
  (``spec/releases/X/schemas``), each a set of four files with cross-file ``$ref``s;
* Confluent Schema Registry's JSON Schema diff cases, from the shared peer-suite folder
  (``../shared/peer-suites/confluent`` or ``$EVALPORT_PEER_SUITES/confluent``; its README gives
  the format and the dialects);
* the public schemas check-jsonschema vendors (the installed package's ``builtin_schemas/vendor``).
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
"""The repository (this file is ``tests/compat_corpus/sources.py``)."""

CONFLUENT_FILES = {"diff-schema-examples.json": 7, "diff-schema-examples-2020-12.json": 2020,
                   "diff-combined-schema-examples.json": 7,
                   "diff-combined-schema-examples-2020-12.json": 2020}
"""Confluent's case files and the dialect of their schemas (the README: draft-07 style or 2020-12)."""

DIALECT_URI = {4: "http://json-schema.org/draft-04/schema#", 6: "http://json-schema.org/draft-06/schema#",
               7: "http://json-schema.org/draft-07/schema#",
               2019: "https://json-schema.org/draft/2019-09/schema",
               2020: "https://json-schema.org/draft/2020-12/schema"}


def repo_sets(root: Path = ROOT) -> dict[str, dict[str, Any]]:
    """``{label: {file name: schema}}`` for the draft (label ``draft``) and each release."""
    out: dict[str, dict[str, Any]] = {}
    folders = [("draft", root / "spec" / "schemas")]
    rel = root / "spec" / "releases"
    if rel.is_dir():
        folders += [(p.name, p / "schemas") for p in sorted(rel.iterdir()) if (p / "schemas").is_dir()]
    for label, folder in folders:
        files = {p.name: json.loads(p.read_text(encoding="utf-8")) for p in sorted(folder.glob("*.json"))}
        if files:
            out[label] = files
    return out


def confluent_folder() -> Path | None:
    """The Confluent peer-suite folder, or ``None`` when it is absent."""
    env = os.environ.get("EVALPORT_PEER_SUITES")
    for base in ([Path(env)] if env else []) + [ROOT.parent / "shared" / "peer-suites",
                                                Path("/work/shared/peer-suites")]:
        if (base / "confluent").is_dir():
            return base / "confluent"
    return None


def load_confluent(path: Path) -> list[dict]:
    """One Confluent case file (a JSON array of cases), with the trailing commas its README says
    to strip (Confluent reads it with a lenient parser)."""
    text = path.read_text(encoding="utf-8")
    return json.loads(re.sub(r",(\s*[}\]])", r"\1", text))


def with_dialect(schema: Any, dialect: int) -> Any:
    """``schema`` with ``$schema`` set to ``dialect`` when it names none (objects only)."""
    if isinstance(schema, dict) and "$schema" not in schema:
        return {"$schema": DIALECT_URI[dialect], **schema}
    return schema


def confluent_pairs() -> list[tuple[str, Any, Any]]:
    """``(id, original, update)`` for every Confluent case, the dialect made explicit; ``[]``
    when the folder is absent."""
    folder = confluent_folder()
    if folder is None:
        return []
    out = []
    for fname, dialect in CONFLUENT_FILES.items():
        for i, case in enumerate(load_confluent(folder / fname)):
            out.append((f"{fname.removesuffix('.json')}#{i}", with_dialect(case["original_schema"], dialect),
                        with_dialect(case["update_schema"], dialect)))
    return out


def vendored_folder() -> Path | None:
    """check-jsonschema's folder of vendored schemas, or ``None`` when it is not installed."""
    try:
        import check_jsonschema.builtin_schemas.vendor as vendor
    except ImportError:
        return None
    return Path(vendor.__file__).resolve().parent


def vendored(name: str) -> Any:
    """One vendored schema by file name (``"mergify.json"``).

    Raises:
        FileNotFoundError: check-jsonschema is not installed, or has no such schema.
    """
    folder = vendored_folder()
    if folder is None:
        raise FileNotFoundError(f"{name}: check-jsonschema is not installed (pip install -e '.[test]')")
    return json.loads((folder / name).read_text(encoding="utf-8"))


def vendored_schemas(max_bytes: int = 300_000) -> dict[str, Any]:
    """``{file name: schema}`` of the vendored schemas up to ``max_bytes`` whose every ``$ref`` is
    local (``#...``): the others need files that are not there."""
    folder = vendored_folder()
    if folder is None:
        return {}
    out = {}
    for p in sorted(folder.glob("*.json")):
        if p.stat().st_size > max_bytes:
            continue
        text = p.read_text(encoding="utf-8")
        if any(not r.startswith("#") for r in re.findall(r'"\$ref"\s*:\s*"([^"]*)"', text)):
            continue
        out[p.name] = json.loads(text)
    return out
