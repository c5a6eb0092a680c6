"""The version history a site shows: when each property arrived, and what changed between versions.

* :func:`property_since` answers "in which release did ``/results/*/attempt`` arrive?" by checking
  the property's presence in each earlier release, oldest first (its instance-location pattern,
  see :mod:`evalport_spec.site.walk`).
* :func:`changes` lists each step of the history (release to release, then the latest release to
  the draft) with the compatibility class computed by the diff engine
  (``evalport_spec.compat.compare_versions(old, new).change_class``, toolchain.md "Compatibility
  classes") when that engine is importable, the class the version numbers declare (semver), the
  properties and rules added or removed, and the RFCs implemented in the new version.
* :func:`history_svg` draws the versions joined by arrows labelled with their classes.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .. import changelog
from ..findings import Finding
from ..spec import DRAFT, SpecRepo, SpecVersion, parse_semver
from .walk import SchemaWalker

DOC_TYPES = ("suite", "testcase", "grader", "resultset")


def _compare_engine() -> Callable[[SpecVersion, SpecVersion], Any] | None:
    """``evalport_spec.compat.compare_versions`` if importable, else ``None``."""
    try:
        from ..compat import compare_versions  # type: ignore[attr-defined]
    except ImportError:
        return None
    return compare_versions


class VersionSet:
    """Loaded versions of one repository, with one :class:`SchemaWalker` each (cached).

    Args:
        repo: the spec repository.
        versions: version names oldest first (releases, then ``"draft"``); default all.
    """

    def __init__(self, repo: SpecRepo, versions: Sequence[str] | None = None) -> None:
        self.repo = repo
        self.names = list(versions) if versions is not None else repo.all_versions()
        self._loaded: dict[str, SpecVersion] = {}
        self._walkers: dict[str, SchemaWalker] = {}
        self._paths: dict[tuple[str, str], set[str]] = {}

    def version(self, name: str) -> SpecVersion:
        """The loaded :class:`SpecVersion` ``name``. Raises ``InputError`` for unknown names."""
        if name not in self._loaded:
            self._loaded[name] = self.repo.version(name)
        return self._loaded[name]

    def walker(self, name: str) -> SchemaWalker:
        """The schema walker of version ``name``."""
        if name not in self._walkers:
            v = self.version(name)
            self._walkers[name] = SchemaWalker(v.schemas, {f"{t}.json": t for t in DOC_TYPES})
        return self._walkers[name]

    def paths(self, name: str, doc_type: str) -> set[str]:
        """Instance-location patterns of ``doc_type`` in version ``name`` (empty if it has no such schema)."""
        key = (name, doc_type)
        if key not in self._paths:
            w = self.walker(name)
            fname = f"{doc_type}.json"
            self._paths[key] = w.paths(fname) if fname in w.schemas.files else set()
        return self._paths[key]

    def releases_upto(self, name: str) -> list[str]:
        """Releases up to and including ``name`` (every release for the draft), oldest first."""
        rel = [v for v in self.names if v != DRAFT]
        if name == DRAFT:
            return rel
        return [v for v in rel if parse_semver(v) <= parse_semver(name)]


def property_since(vs: VersionSet, name: str, doc_type: str) -> dict[str, str]:
    """``{path: version it arrived in}`` for every property of ``doc_type`` in version ``name``.

    The arrival version is the oldest release, up to ``name``, in which the path is present
    (presence is checked in each earlier release, oldest first); a path present in no release
    arrived in the draft (``"draft"``).
    """
    out: dict[str, str] = {}
    wanted = vs.paths(name, doc_type)
    for rel in vs.releases_upto(name):
        for p in vs.paths(rel, doc_type) & wanted:
            out.setdefault(p, rel)
    for p in wanted:
        out.setdefault(p, name)
    return out


def declared_class(old: str, new: str) -> str:
    """The class a version bump declares under semver: ``"MAJOR"``, ``"MINOR"`` or ``"PATCH"``
    (``"unreleased"`` when ``new`` is the draft)."""
    if new == DRAFT:
        return "unreleased"
    a, b = parse_semver(old), parse_semver(new)
    if b.major != a.major:
        return "MAJOR"
    if b.minor != a.minor:
        return "MINOR"
    return "PATCH"


@dataclass
class Change:
    """One step of the history, ``old`` -> ``new``.

    Attributes:
        computed: the class the diff engine computed (``"MAJOR"``...), or ``None`` if the engine
            is not importable (``engine_error`` then says why) or failed.
        findings: the engine's findings (:class:`~evalport_spec.findings.Finding`), in its order.
        added, removed: ``(document type, path)`` of properties present only in ``new`` / ``old``.
        rules_added, rules_removed: rule codes.
        rfcs: ``(number, title)`` of RFCs whose ``implemented_in`` is ``new``.
    """

    old: str
    new: str
    declared: str
    computed: str | None = None
    engine_error: str = ""
    findings: list[Finding] = field(default_factory=list)
    added: list[tuple[str, str]] = field(default_factory=list)
    removed: list[tuple[str, str]] = field(default_factory=list)
    rules_added: list[str] = field(default_factory=list)
    rules_removed: list[str] = field(default_factory=list)
    rfcs: list[tuple[int, str]] = field(default_factory=list)

    @property
    def label(self) -> str:
        """The class to show on an arrow: computed if known, else the declared one with ``?``."""
        return self.computed or (f"{self.declared}?" if self.declared != "unreleased" else "?")


def changes(vs: VersionSet, upto: str, rfcs: Sequence[Any] = ()) -> list[Change]:
    """The history steps up to version ``upto``, oldest first (see module docstring).

    Args:
        vs: the loaded versions.
        upto: a release (steps between releases up to it) or ``"draft"`` (all steps, then the
            latest release -> draft).
        rfcs: loaded RFCs (:class:`evalport_spec.rfc.Rfc`) for the "implemented in" links.
    """
    chain = vs.releases_upto(upto) + ([DRAFT] if upto == DRAFT else [])
    engine = _compare_engine()
    out: list[Change] = []
    for old, new in zip(chain, chain[1:], strict=False):
        ch = Change(old, new, declared_class(old, new))
        if engine is None:
            ch.engine_error = "the compatibility engine (evalport_spec.compat) is not available in this build"
        else:
            try:
                result = engine(vs.version(old), vs.version(new))
                cls = getattr(result, "change_class", None)
                ch.computed = getattr(cls, "name", None) or (str(cls) if cls is not None else None)
                ch.findings = list(getattr(result, "findings", []) or [])
            except Exception as exc:  # an engine failure must not take the whole site down
                ch.engine_error = f"the compatibility engine failed: {exc}".splitlines()[0]
        for t in DOC_TYPES:
            a, b = vs.paths(old, t), vs.paths(new, t)
            ch.added += [(t, p) for p in sorted(b - a)]
            ch.removed += [(t, p) for p in sorted(a - b)]
        ca, cb = vs.version(old).catalogue.codes(), vs.version(new).catalogue.codes()
        ch.rules_added = [c for c in cb if c not in ca]
        ch.rules_removed = [c for c in ca if c not in cb]
        for r in rfcs:
            if str(r.meta.get("implemented_in", "")) == new:
                ch.rfcs.append((r.number, str(r.meta.get("title", r.slug))))
        out.append(ch)
    return out


def spec_changelog(spec_md: str) -> dict[str, tuple[str, str, str]]:
    """The released entries of SPEC.md's ``## Changelog`` section: ``{version: (date, class, body)}``
    (:func:`evalport_spec.changelog.entries`; the format :mod:`evalport_spec.release` writes)."""
    return {e.version: (e.date or "", e.change_class or "", e.body) for e in changelog.entries(spec_md)}


_COLOURS = {"PATCH": "#2e7d32", "MINOR": "#1565c0", "MAJOR": "#c62828"}


def history_svg(versions: Sequence[str], steps: Sequence[Change], current: str | None = None,
                href: Callable[[Change], str] | None = None) -> str:
    """An inline SVG: one box per version (oldest left), arrows labelled with each step's class.

    ``steps[i]`` must join ``versions[i]`` and ``versions[i+1]``. The current version's box is
    drawn bold. With ``href``, each arrow's label links to ``href(step)`` (the step's "what
    changed" page). Returns one line of SVG markup (no blank lines, so Markdown keeps it raw).
    """
    box_w, gap, h = 84, 64, 86
    width = len(versions) * box_w + max(len(versions) - 1, 0) * gap + 20
    # a picture with links in it is a group (role="img" may not contain interactive content)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" class="ep-history" '
             f'role="{"group" if href is not None else "img"}" '
             f'viewBox="0 0 {width} {h}" width="100%" style="max-width: {width}px" '
             f'aria-label="Version history: {html.escape(", ".join(versions))}">',
             '<defs><marker id="ep-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" '
             'markerHeight="7" orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" '
             'fill="currentColor"/></marker></defs>']
    for i, v in enumerate(versions):
        x = 10 + i * (box_w + gap)
        bold = ' stroke-width="3"' if v == current else ' stroke-width="1.2"'
        weight = ' font-weight="bold"' if v == current else ""
        parts.append(f'<rect x="{x}" y="36" width="{box_w}" height="34" rx="6" fill="none" '
                     f'stroke="currentColor"{bold}/>')
        parts.append(f'<text x="{x + box_w / 2}" y="58" text-anchor="middle" font-size="14" '
                     f'fill="currentColor"{weight}>'
                     f'{html.escape(v)}</text>')
        if i < len(steps):
            x1, x2 = x + box_w + 4, x + box_w + gap - 4
            label = steps[i].label
            colour = _COLOURS.get(label.rstrip("?"), "currentColor")
            parts.append(f'<line x1="{x1}" y1="53" x2="{x2}" y2="53" stroke="{colour}" stroke-width="2" '
                         f'marker-end="url(#ep-arrow)"/>')
            text = (f'<text x="{(x1 + x2) / 2}" y="28" text-anchor="middle" font-size="12" '
                    f'fill="{colour}">{html.escape(label)}</text>')
            if href is not None:
                title = f"What changed from {steps[i].old} to {steps[i].new}: {label}"
                text = (f'<a href="{html.escape(href(steps[i]))}" aria-label="{html.escape(title)}">'
                        f'<title>{html.escape(title)}</title>{text}</a>')
            parts.append(text)
    parts.append("</svg>")
    return "".join(parts)
