"""The rule catalogue: ``rules.json`` beside a version's ``schemas/`` folder.

Format (validated by ``data/rules-catalogue.schema.json``)::

    {"rules": [{"code": "DUPLICATE_ATTEMPT", "document": "resultset",
                "statement": "...", "reads": ["/results/*/attempt", ...],
                "guard": ["/results/*/attempt"], "reported_at": "/results/*/attempt",
                "since": "1.2.0", "expressible": false, "encoded": false,
                "gap": "why plain JSON Schema 2020-12 cannot carry it", "rfc": 3,
                "parameters": {"tolerance": {"value": 1e-6, "description": "..."}}}]}

``reads``/``guard``/``reported_at`` are instance-location patterns: JSON Pointers (RFC 6901) in
which the token ``*`` stands for any array index. ``guard`` lists locations at least one of which
must be present in a document for the rule to be able to fire (used to show a rule is additive).
``reported_at`` is one pattern or a list of them: every instance location the rule may report at.
``parameters`` (optional) names the values the rule's implementation takes, such as a tolerance
or a limit: the validator reads them from here (:meth:`RuleEntry.parameter_values`) and SPEC.md
shows them in the rule's generated facts, so the number is written once.
Source of the fields: toolchain.md, "Cross-field rules and their documented gaps".
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .errors import InputError
from .jsonload import Loaded


@dataclass(frozen=True)
class RuleParameter:
    """One named value of a rule (``"tolerance"``): a JSON number, string or boolean, and what it
    means."""

    name: str
    value: int | float | str | bool
    description: str = ""


@dataclass(frozen=True)
class RuleEntry:
    """One catalogued cross-field rule (see module docstring for the meaning of each field)."""

    code: str
    document: str
    statement: str
    reads: tuple[str, ...]
    since: str
    expressible: bool
    encoded: bool
    gap: str = ""
    guard: tuple[str, ...] = ()
    reported_at: tuple[str, ...] = ()
    rfc: int | None = None
    parameters: tuple[RuleParameter, ...] = ()
    line: int | None = field(default=None, compare=False)

    def parameter_values(self) -> dict[str, int | float | str | bool]:
        """``{name: value}`` of :attr:`parameters` (what the implementation is called with)."""
        return {p.name: p.value for p in self.parameters}


@dataclass
class Catalogue:
    """All rules of one spec version, in file order."""

    rules: list[RuleEntry]
    source: str = ""

    def codes(self) -> list[str]:
        """Rule codes in catalogue order."""
        return [r.code for r in self.rules]

    def get(self, code: str) -> RuleEntry | None:
        """The entry with ``code``, or ``None``."""
        return next((r for r in self.rules if r.code == code), None)

    def for_document(self, document: str) -> list[RuleEntry]:
        """Entries whose ``document`` is ``document`` (``suite``, ``resultset``, ...)."""
        return [r for r in self.rules if r.document == document]


def parse_catalogue(loaded: Loaded) -> Catalogue:
    """Build a :class:`Catalogue` from a parsed ``rules.json``.

    Raises:
        InputError: the file does not have the catalogue's shape (names the entry's pointer).
    """
    value = loaded.value
    if not isinstance(value, dict) or not isinstance(value.get("rules"), list):
        raise InputError("rule catalogue must be an object with a 'rules' array", loaded.source, 1, 1)
    rules: list[RuleEntry] = []
    for i, raw in enumerate(value["rules"]):
        ptr = f"/rules/{i}"
        if not isinstance(raw, dict):
            raise InputError("catalogue entry must be an object", loaded.source, loaded.line(ptr), None, ptr)
        try:
            rules.append(RuleEntry(
                code=_str(raw, "code"), document=_str(raw, "document"),
                statement=_str(raw, "statement"), reads=tuple(_strs(raw, "reads")),
                since=_str(raw, "since"), expressible=_bool(raw, "expressible"),
                encoded=_bool(raw, "encoded"), gap=raw.get("gap", ""),
                guard=tuple(raw.get("guard", ())), reported_at=_patterns(raw, "reported_at"),
                rfc=raw.get("rfc"), parameters=_parameters(raw), line=loaded.line(ptr)))
        except (KeyError, TypeError) as exc:
            raise InputError(f"catalogue entry {exc.args[0]}", loaded.source, loaded.line(ptr), None, ptr) from None
    return Catalogue(rules, loaded.source)


def _str(raw: dict[str, Any], key: str) -> str:
    v = raw.get(key)
    if not isinstance(v, str):
        raise KeyError(f"needs string {key!r}")
    return v


def _bool(raw: dict[str, Any], key: str) -> bool:
    v = raw.get(key)
    if not isinstance(v, bool):
        raise KeyError(f"needs boolean {key!r}")
    return v


def _strs(raw: dict[str, Any], key: str) -> list[str]:
    v = raw.get(key)
    if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
        raise KeyError(f"needs array of strings {key!r}")
    return v


def _patterns(raw: dict[str, Any], key: str) -> tuple[str, ...]:
    v = raw.get(key, [])
    if isinstance(v, str):
        return (v,) if v else ()
    if isinstance(v, list) and all(isinstance(x, str) for x in v):
        return tuple(v)
    raise KeyError(f"needs a string or an array of strings {key!r}")


def _parameters(raw: dict[str, Any]) -> tuple[RuleParameter, ...]:
    v = raw.get("parameters", {})
    if not isinstance(v, dict):
        raise KeyError("needs an object 'parameters' ({name: {value, description}})")
    out = []
    for name, p in v.items():
        value = p.get("value") if isinstance(p, dict) else None
        if not isinstance(value, (int, float, str)) or not isinstance(p.get("description", ""), str):
            raise KeyError(f"parameter {name!r} needs a number, string or boolean 'value' and an "
                           "optional string 'description'")
        out.append(RuleParameter(name, value, p.get("description", "")))
    return tuple(out)
