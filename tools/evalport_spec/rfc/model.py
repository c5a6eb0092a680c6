"""RFC files on disk: discovery, loading, and the :class:`Rfc` record every RFC command uses.

Layout (docs/architecture.md): ``rfcs/NNNN-slug.md`` is the RFC; ``rfcs/NNNN-slug/`` is its
optional proposal folder; ``rfcs/README.md`` is the generated index.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .. import markdown
from ..errors import InputError
from ..fsutil import check_within, read_limited, refuse_trailing_slash
from ..names import RFC_STATUSES
from ..spec import SpecRepo
from .frontmatter import MAX_RFC_BYTES, FrontMatter, parse

RFC_FILE = re.compile(r"^(\d{4})-([a-z0-9]+(?:-[a-z0-9]+)*)\.md$")
"""File name of an RFC: four-digit number, a slug of lowercase ASCII words joined by hyphens."""

STATUSES = RFC_STATUSES
"""RFC lifecycle statuses (:data:`evalport_spec.names.RFC_STATUSES`)."""

DECISION_SECTION = "Decision"
"""The H2 section that records the outcome, once an RFC is decided."""

NEEDS_DECISION = ("accepted", "rejected", "deferred", "implemented")
"""Statuses whose RFC has a ``## Decision`` section (an implemented RFC was accepted first)."""

REQUIRED_SECTIONS = ("Summary", "The gap", ("Proposal", "Options"), "Validation rules", "Compatibility",
                     "Non-goals", "Comment period", "Questions")
"""H2 sections every RFC has; a tuple means any one of its names will do."""


def repo_root(repo: SpecRepo | str | Path) -> Path:
    """The repository root for a :class:`SpecRepo` or a path."""
    return Path(repo.root if isinstance(repo, SpecRepo) else repo)


def rfcs_dir(repo: SpecRepo | str | Path) -> Path:
    """``<root>/rfcs``."""
    return repo_root(repo) / "rfcs"


@dataclass
class Rfc:
    """One RFC file, parsed.

    Attributes:
        path: absolute path of the ``.md`` file.
        rel: path relative to the repository root, as used in messages (``rfcs/0003-repetitions.md``).
        number: the number in the file name.
        slug: the slug in the file name.
        fm: the parsed front matter.
        text: the whole file text.
    """

    path: Path
    rel: str
    number: int
    slug: str
    fm: FrontMatter
    text: str

    @property
    def meta(self) -> dict[str, Any]:
        """The front matter mapping."""
        return self.fm.data

    @property
    def proposal_dir(self) -> Path:
        """``rfcs/NNNN-slug/`` (may not exist)."""
        return self.path.with_suffix("")

    def status_word(self) -> str:
        """The front matter's ``status``, one of :data:`STATUSES`.

        Raises:
            InputError: it is anything else (``ACCEPTED``, ``[accepted]``, a number, absent),
                at the ``status`` line, asking for the front matter to be fixed first.
        """
        status = self.meta.get("status")
        if not isinstance(status, str) or status not in STATUSES:
            raise InputError(f"RFC {self.number:04d} has status {status!r}, which is no status word (one of "
                             f"{', '.join(STATUSES)}): fix its front matter (see `rfc lint`) first",
                             self.rel, self.fm.line("status") or 1)
        return status

    def has_proposal(self) -> bool:
        """True when the proposal folder exists."""
        return self.proposal_dir.is_dir()

    def headings(self) -> list[tuple[int, int, str]]:
        """``(level, file line, plain text)`` for every heading of the body
        (:mod:`evalport_spec.markdown`; none inside a code fence)."""
        return [(h.level, h.line + self.fm.body_offset, h.text) for h in markdown.parse(self.fm.body).headings]


def read_text(path: Path, label: str) -> str:
    """Read an RFC file as UTF-8. Raises :class:`InputError` (missing, too large, not UTF-8)."""
    data = read_limited(path, max_bytes=MAX_RFC_BYTES, label=label)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"invalid UTF-8 at byte {exc.start}", label) from None


def _label(root: Path, path: Path) -> str:
    try:
        return str(path.resolve().relative_to(root.resolve()))
    except ValueError:
        return str(path)


def load_rfc(repo: SpecRepo | str | Path, path: str | Path) -> Rfc:
    """Load one RFC file.

    Raises:
        InputError: bad file name (not ``NNNN-slug.md``), unreadable file, a path with a
            trailing ``/`` (``rfcs/0005-x.md/``), or unsafe/invalid front matter (see
            :mod:`evalport_spec.rfc.frontmatter`).
    """
    root = repo_root(repo)
    refuse_trailing_slash(path)  # Path() would drop the slash and read the file
    p = Path(path)
    if not p.is_absolute():
        p = (Path.cwd() / p) if p.exists() else (root / p)
    if p.parent.absolute() == rfcs_dir(root).absolute():  # a repository RFC must stay inside it
        check_within(p, root, f"rfcs/{p.name}")
    label = _label(root, p)
    m = RFC_FILE.match(p.name)
    if not m:
        raise InputError("RFC file name must be NNNN-slug.md (four digits, lowercase ASCII words and hyphens)",
                         label)
    text = read_text(p, label)
    fm = parse(text, label)
    return Rfc(p, label, int(m.group(1)), m.group(2), fm, text)


def rfc_paths(repo: SpecRepo | str | Path) -> list[Path]:
    """Every ``rfcs/NNNN-*.md`` file, sorted by name (the index README is not one)."""
    d = rfcs_dir(repo)
    if not d.is_dir():
        return []
    return sorted(p for p in d.iterdir() if not p.is_dir() and re.match(r"^\d{4}-.*\.md$", p.name))


def load_rfcs(repo: SpecRepo | str | Path) -> list[Rfc]:
    """All RFCs of the repository, by number. Raises :class:`InputError` on the first bad file."""
    return [load_rfc(repo, p) for p in rfc_paths(repo)]


def find_rfc(repo: SpecRepo | str | Path, number: int) -> Rfc:
    """The RFC with ``number``.

    Raises:
        InputError: no RFC, or more than one file, with that number.
    """
    hits = [p for p in rfc_paths(repo) if p.name.startswith(f"{number:04d}-")]
    if not hits:
        raise InputError(f"no RFC number {number} in rfcs/", str(rfcs_dir(repo)))
    if len(hits) > 1:
        raise InputError(f"more than one file for RFC {number}: " + ", ".join(h.name for h in hits),
                         str(rfcs_dir(repo)))
    return load_rfc(repo, hits[0])
