"""``rfc new``: create the next RFC from the template, never overwriting anything."""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from pathlib import Path

from ..errors import InputError
from ..fsutil import atomic_write, repo_lock
from ..names import MAX_RFC_NUMBER
from ..spec import SpecRepo
from .frontmatter import render
from .model import repo_root, rfc_paths, rfcs_dir
from .status import refuse

MAX_SLUG = 60
"""Longest slug kept from a title, in characters (cut at a word boundary)."""

TEMPLATE = """
## Summary

One paragraph: what changes, for whom, and why now.

## The gap

What a producer or consumer cannot express or check today, with a concrete document.

## Proposal

The fields, their types and meaning. Put complete example documents in code fences whose info
string is `json evalport-resultset` (or `json evalport-suite`, `json evalport-testcase`,
`json evalport-grader`) so `evalport-spec rfc check` validates them; fragments that are not whole
documents use a plain `json` fence.

## Validation rules

Each new cross-field rule: its code, what it reads, and whether plain JSON Schema 2020-12 can
express it.

## Compatibility

PATCH, MINOR or MAJOR, and why: which documents valid today stay valid.

## Non-goals

What this RFC deliberately does not do.

## Comment period

Dates and where to comment.

## Questions

None open.
"""


def slugify(title: str) -> str:
    """A file-name slug: ASCII, lowercase, words joined by single hyphens, at most :data:`MAX_SLUG` chars.

    Raises:
        InputError: the title looks like a path leaving ``rfcs/`` (a ``..`` segment, or a leading
            ``/``, ``\\`` or ``~``), contains a control character, or has nothing usable.
    """
    if re.search(r"(^|[/\\])\.\.([/\\]|$)", title) or title.startswith(("/", "\\", "~")):
        raise InputError(f"title {title!r} looks like a path that would leave rfcs/; refusing it")
    if any(unicodedata.category(c) == "Cc" for c in title):
        raise InputError("title contains a control character")
    ascii_text = unicodedata.normalize("NFKD", title).encode("ascii", "ignore").decode("ascii").lower()
    words = re.findall(r"[a-z0-9]+", ascii_text)
    slug = ""
    for w in words:
        nxt = f"{slug}-{w}" if slug else w
        if len(nxt) > MAX_SLUG:
            break
        slug = nxt
    if not slug:
        raise InputError(f"title {title!r} has no ASCII letters or digits to make a file name from")
    return slug


def next_number(repo: SpecRepo | str | Path) -> int:
    """One more than the highest RFC number used by a file or proposal folder in ``rfcs/``."""
    used = [int(p.name[:4]) for p in rfcs_dir(repo).iterdir() if re.match(r"^\d{4}-", p.name)] \
        if rfcs_dir(repo).is_dir() else []
    return max(used, default=0) + 1


def same_slug(repo: SpecRepo | str | Path, path: str | Path) -> list[Path]:
    """Other RFC files (``rfcs/NNNN-slug.md``) whose slug equals ``path``'s under another number,
    sorted: ``rfc new`` warns about them (allowed, nothing is overwritten, but two RFCs with
    one file-name slug are easy to confuse in links and discussions)."""
    name = Path(path).name
    slug = name[5:] if re.match(r"^\d{4}-", name) else name
    return [p for p in rfc_paths(repo) if p.name != name and p.name[5:] == slug]


def new_rfc(repo: SpecRepo | str | Path, title: str, author: str | None = None,
            today: dt.date | None = None, number: int | None = None, *,
            declared_class: str = "MINOR", documents: list[str] | None = None) -> Path:
    """Create ``rfcs/NNNN-slug.md`` with status ``draft`` and the required sections.

    Args:
        title: the RFC title (one line).
        author: added to ``authors`` (default ``"TODO"``, which the author replaces).
        number: a specific number instead of the next free one.
        declared_class: ``PATCH``, ``MINOR`` or ``MAJOR`` (``declared_class``).
        documents: the affected document types (``affected_documents``; default none yet,
            which ``rfc lint`` warns about).

    Returns:
        The path written.

    Raises:
        InputError: a bad title (see :func:`slugify`), a number already taken, the file
            already exists (nothing is overwritten; written atomically, exclusively, under the
            repository lock), or an RFC that ``rfc lint`` would reject (a title over 200
            characters, an unknown class or document type: one rule set for both).
    """
    title = title.strip()
    if not title or "\n" in title:
        raise InputError("title must be one non-empty line")
    slug = slugify(title)
    root = repo_root(repo)
    with repo_lock(root, "rfc new"):
        n = number if number is not None else next_number(root)
        if not 1 <= n <= MAX_RFC_NUMBER:
            raise InputError(f"RFC number {n} is out of range 1..{MAX_RFC_NUMBER}")
        taken = [p.name for p in rfc_paths(root) if p.name.startswith(f"{n:04d}-")]
        if taken:
            raise InputError(f"RFC number {n} is already taken by rfcs/{taken[0]}")
        path = rfcs_dir(root) / f"{n:04d}-{slug}.md"
        if path.resolve().parent != rfcs_dir(root).resolve():
            raise InputError(f"refusing to write outside rfcs/: {path}")
        today = today or dt.date.today()
        meta = {
            "number": n, "title": title, "status": "draft", "authors": [author or "TODO"],
            "created": today.isoformat(), "discussion": "https://github.com/evalport/spec/discussions",
            "affected_documents": list(dict.fromkeys(documents or [])), "declared_class": declared_class,
            "implemented_in": None,
        }
        text = render(meta, f"\n# RFC {n:04d}: {title}\n{TEMPLATE}")
        refuse(root, path, text, today, "rfc new")
        atomic_write(path, text, exclusive=True)
    return path
