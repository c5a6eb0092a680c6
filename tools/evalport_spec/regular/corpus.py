"""Patterns to test and time the regular-language code on: the repository's schemas, public
schemas shipped in packages, and hand-written ECMA-262 patterns that exercise each construct.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

HAND_WRITTEN: tuple[str, ...] = (
    "", "a", "^a$", "^$", "a|b", "^(a|b)*$", "^[ab]*c?$", "x$", "^.$", "^.+$", "^.*$", ".",
    r"^\d+$", r"^\D+$", r"^\w+$", r"^\W$", r"^\s$", r"^\S+$", r"\s", r"^[\s\S]$",
    r"^[^a-z]+$", r"^[a-zA-Z_][a-zA-Z0-9_]*$", r"^[A-Z]{2,3}-\d{1,4}$",
    r"^(?:[0-9a-f]{2}:){5}[0-9a-f]{2}$", r"^v?(\d+)\.(\d+)\.(\d+)$", r"^(?<key>[a-z]+)=\d*$",
    r"^\x41\u0042$", r"^\u{1F600}+$", r"^[\u00e0-\u00ff]+$", r"\t", r"^\cI$", r"^[\b]$",
    r"^\/[^/]+\/$", r"^\$ref$", r"^#\/\$defs\/[^/]+$", r"^[^\n]*$", "^a{2}$", "^a{2,}$",
    "^a{2,4}?$", "^(ab|a)(bc|c)$", "^[-+]?[0-9]*\\.?[0-9]+([eE][-+]?[0-9]+)?$", "^\\p{Lu}",
    "^(?:[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*)@example\\.com$",
    "^https?://", "[^\\x00-\\x7F]", "^\\S+@\\S+$", "\\.json$", "^[^.]+(\\.[^.]+)*$",
)


def schema_patterns(paths: Iterable[Path]) -> list[str]:
    """Every ``pattern`` value and ``patternProperties`` key in the JSON files ``paths``
    (folders are walked for ``*.json``), deduplicated, in first-seen order. Files that do not
    parse as JSON are skipped."""
    seen: dict[str, None] = {}

    def walk(node) -> None:
        if isinstance(node, dict):
            if isinstance(node.get("pattern"), str):
                seen.setdefault(node["pattern"])
            if isinstance(node.get("patternProperties"), dict):
                for key in node["patternProperties"]:
                    seen.setdefault(key)
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    for path in paths:
        files = sorted(path.rglob("*.json")) if path.is_dir() else [path]
        for f in files:
            try:
                walk(json.loads(f.read_text(encoding="utf-8")))
            except (OSError, ValueError):
                continue
    return list(seen)


def vendored_schema_dirs() -> list[Path]:
    """Folders of public schemas shipped inside installed packages (check-jsonschema's
    vendored schemas), empty if none is installed."""
    try:
        import check_jsonschema  # optional: a test/bench extra, not a runtime dependency
    except ImportError:
        return []
    folder = Path(check_jsonschema.__file__).parent / "builtin_schemas" / "vendor"
    return [folder] if folder.is_dir() else []
