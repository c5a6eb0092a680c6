"""How one finding reads in every format: its label, its place (the one ``where``), its
message without a repeated kind, its item, and the severity the formats act on."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..canonjson import canonical
from ..changeclass import ChangeClass, Severity

if TYPE_CHECKING:
    from ..findings import Finding, Location


def label(f: Finding) -> str:
    """``UNDECIDED`` for an undecided finding, the class (``MAJOR``, ``MINOR``, ``PATCH``) for a
    compatibility finding, else the severity (``error``, ``warning``, ``info``)."""
    if f.undecided:
        return "UNDECIDED"
    if f.change_class != ChangeClass.NONE:
        return str(f.change_class)
    return str(f.severity)


def place(loc: Location | None) -> str:
    """``file:line``; ``file#pointer`` when the line is unknown (RFC 6901 fragment form);
    ``file``; the pointer alone (``/`` for the root) when there is no file; ``""`` for none."""
    if loc is None:
        return ""
    if loc.file:
        if loc.line:
            return f"{loc.file}:{loc.line}"
        return f"{loc.file}#{loc.pointer}" if loc.pointer else loc.file
    if loc.pointer is not None:
        return loc.pointer or "/"
    return ""


def where(f: Finding) -> str:
    """:func:`place` of the finding's primary location (``new``, else ``old``), with
    ``:column`` after the line when the engine gave one (``extra["column"]``, validation)."""
    text = place(f.where())
    col = column(f)
    loc = f.where()
    return f"{text}:{col}" if col and loc is not None and loc.file and loc.line else text


def column(f: Finding) -> int | None:
    """The 1-based column the engine put in ``extra["column"]``, if it is a positive integer."""
    col = f.extra.get("column")
    return col if isinstance(col, int) and not isinstance(col, bool) and col > 0 else None


def workspace_file(f: Finding) -> tuple[str, int | None] | None:
    """``(path, line)`` of the primary location when it is a file of the working tree (not a
    ``REV:path`` read from git history), else ``None``: what annotations can point at."""
    loc = f.where()
    if loc is None or not loc.file or ":" in loc.file.replace("\\", "/").split("/", 1)[0]:
        return None
    return loc.file, loc.line


def body(f: Finding) -> str:
    """The message, without a leading ``"KIND: "`` or ``"CODE: "`` the engine put there (the
    formats show both beside it already: :func:`what`)."""
    for head in (f"{f.kind}: ", f"{f.code}: " if f.code else None):
        if head and f.message.startswith(head):
            return f.message[len(head):]
    return f.message


def item_text(f: Finding) -> str | None:
    """The finding's item as canonical JSON (``"runner_error"``, ``3``), ``None`` when the
    finding names no item."""
    return canonical(f.item) if f.has_item else None


def what(f: Finding, beside: str = "") -> str:
    """The kind, then the code and the item when the finding has them:
    ``document-invalid REQUIRED``, ``enum-value-removed "x"``. The item is left out when
    ``beside``, the text shown right after (the changelog sentence), already gives it, so a
    dropped ``oneOf`` branch is not printed twice on one line."""
    item = item_text(f)
    if item is not None and item in beside:
        item = None
    return " ".join(x for x in (f.kind, f.code, item) if x is not None)


def is_breaking(f: Finding) -> bool:
    """A backward (or identity) finding that is MAJOR or undecided: what the MAJOR rule governs."""
    return f.direction != "forward" and (f.undecided or f.change_class == ChangeClass.MAJOR)


def is_change(f: Finding) -> bool:
    """A compatibility finding: it carries a class or is undecided."""
    return f.undecided or f.change_class != ChangeClass.NONE


def acted_severity(f: Finding) -> Severity:
    """The severity the formats act on (annotation level, JUnit failure, SARIF level). A MINOR
    or PATCH change is information: it never fails anything by itself, whatever severity the
    engine left on it; everything else keeps its severity (a MAJOR change a policy accepted was
    re-graded to INFO by that policy)."""
    if is_change(f) and not f.undecided and f.change_class < ChangeClass.MAJOR:
        return Severity.INFO
    return f.severity
