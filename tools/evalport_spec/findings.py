"""The one finding type every engine reports, and the compatibility classes (defined in
:mod:`evalport_spec.changeclass`, re-exported here).

Classes follow semver as toolchain.md, "Compatibility classes", defines them for schema sets:
PATCH (same documents accepted), MINOR (old accepted set is a subset of the new), MAJOR (some
document the old version accepts, the new one rejects). ``NONE`` is for informational findings.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

from .canonjson import canonical
from .changeclass import ChangeClass, Severity

if TYPE_CHECKING:
    from .errors import InputError


class _NoItem:
    """Type of :data:`NO_ITEM` (a finding about a keyword as a whole)."""

    def __repr__(self) -> str:
        return "NO_ITEM"

    def __copy__(self) -> _NoItem:
        return self

    def __deepcopy__(self, memo: dict) -> _NoItem:
        return self

    def __reduce__(self) -> str:
        return "NO_ITEM"


NO_ITEM: Any = _NoItem()
"""Sentinel for :attr:`Finding.item` when the finding names no single item (``None`` is a JSON
value an ``enum`` can lose, so it cannot mean "absent")."""


@dataclass
class Location:
    """Where a finding points: a file, a JSON Pointer into it, and the line if known."""

    file: str | None = None
    pointer: str | None = None
    line: int | None = None

    def render(self) -> str:
        """``file:line`` (or ``file``, or ``file#pointer``) for one-line messages."""
        if not self.file:
            return self.pointer or ""
        if self.line:
            return f"{self.file}:{self.line}"
        return self.file


@dataclass
class Finding:
    """One reported fact.

    Attributes:
        kind: stable rule name, kebab-case (``enum-value-removed``, ``rfc-period-too-short``).
        message: one line.
        change_class: compatibility class it implies (diff findings) or ``NONE``.
        severity: for check/lint findings.
        old, new: locations in the old and new file (diff); ``new`` alone for lint findings.
        witness: a document proving the finding (valid under old, invalid under new), if any.
        code: an error code (validator rule code) where relevant.
        undecided: the engine could not decide; the gate treats it as MAJOR.
        item: the one value the finding is about, when the keyword holds a set or list of
            alternatives (the removed ``enum`` value, the ``type`` member narrowed away, the
            ``required`` name added); :data:`NO_ITEM` when the finding is about a keyword as a
            whole. Part of the fingerprint.
        extra: any further machine-readable details.
    """

    kind: str
    message: str
    change_class: ChangeClass = ChangeClass.NONE
    severity: Severity = Severity.ERROR
    old: Location | None = None
    new: Location | None = None
    witness: Any = None
    code: str | None = None
    undecided: bool = False
    direction: str = "backward"
    item: Any = NO_ITEM
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def has_item(self) -> bool:
        """Whether the finding names one item (:attr:`item` is set)."""
        return self.item is not NO_ITEM

    @property
    def fingerprint(self) -> str:
        """Stable 16-hex-digit id of the finding (docs/fingerprints.md gives the definition).

        The first 16 hex digits of SHA-256 over the UTF-8 of the JSON array ``[kind, code,
        direction, old pointer, new pointer, old file name, new file name]`` (``null`` where
        absent; file names without their folder), with the canonical JSON text of :attr:`item`
        (:func:`evalport_spec.canonjson.canonical`) appended as an eighth element when the finding
        names an item. Lines, messages and witnesses are not part of it, so it survives
        reformatting, reordering of an ``enum`` and unrelated edits; two removed values of one
        ``enum`` have two fingerprints.
        """
        key = [self.kind, self.code, self.direction,
               self.old.pointer if self.old else None,
               self.new.pointer if self.new else None,
               self.old.file.rsplit("/", 1)[-1] if self.old and self.old.file else None,
               self.new.file.rsplit("/", 1)[-1] if self.new and self.new.file else None]
        if self.has_item:
            key.append(canonical(self.item))
        return hashlib.sha256(json.dumps(key).encode()).hexdigest()[:16]

    def where(self) -> Location | None:
        """The primary location: ``new`` if set, else ``old``."""
        return self.new or self.old

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict (stable key names; ``None`` values dropped, except ``item``, which is
        present exactly when the finding names an item, whatever its value)."""
        d = asdict(self)
        d.pop("item", None)
        d["change_class"] = str(self.change_class)
        d["severity"] = str(self.severity)
        d["fingerprint"] = self.fingerprint
        out = {k: v for k, v in d.items() if v not in (None, {}, False) or k in ("witness",) and v is not None}
        if self.has_item:
            out["item"] = self.item
        return out


def input_finding(exc: InputError, kind: str = "input-error") -> Finding:
    """An :class:`~evalport_spec.errors.InputError` met while checking, as an error finding of
    ``kind``: the message (with ``(at 'POINTER')`` when the error has a pointer), located at the
    error's file, pointer and line, the column in ``extra["column"]`` (the reporters' place for
    it) when known."""
    return Finding(kind, exc.message if exc.pointer is None else f"{exc.message} (at '{exc.pointer}')",
                   new=Location(str(exc.source) if exc.source else None, exc.pointer, exc.line),
                   extra={"column": exc.column} if exc.column else {})
