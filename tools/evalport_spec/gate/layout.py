"""One spec root per repository, one file per name: what a checkout elsewhere would read differently.

Every command finds the repository it works on as the nearest of the working directory and its
parents that holds a ``spec/schemas`` folder (:func:`evalport_spec.repoloc.find_repo_root`). A
tree that commits a second one below its root (``spec/spec/schemas/``, ``docs/spec/schemas/``,
or a link ``spec/spec`` to a copy elsewhere) gives ``evalport-spec validate``, ``conformance``
and ``check`` run from inside that folder another spec: red team (session 29): a branch adding
``spec/spec/`` (a copy of the draft with Grader ``weight`` ``minimum`` raised to 1) passed the
gate of record with no finding at all, and ``cd spec && evalport-spec validate g.json`` then
rejected a Grader of weight 0 that the draft accepts, reporting it as "spec draft (1.4.0)".

:func:`nested_spec_roots` lists them from git's view of the checkout (files tracked, or new and
not ignored, so a virtual environment or a nox session holding a bundled copy of the spec is not
one), following links as the commands do. The same reading refuses paths that name one file on
a case-insensitive file system (:data:`COLLISION`).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from pathlib import Path

from .. import git
from ..findings import Finding, Location

KIND = "spec-root-nested"
"""The finding kind of a second spec root."""

COLLISION = "path-case-collision"
"""The finding kind of paths that name one file where case (or Unicode normalisation) does not
count: git checks both out to that file there, the content of the one written last (of
``spec/VERSION`` and an added ``spec/version``, the latter: index order puts capitals first),
so a checkout on macOS or Windows would read a draft version, schema or rule module other than
the one the gate judged on a case-sensitive file system."""


def folders_of(paths: Iterable[str]) -> set[str]:
    """Every folder (``/``-separated, relative to the root, the root itself left out) that holds
    one of ``paths``, directly or below."""
    out: set[str] = set()
    for path in paths:
        parts = path.split("/")[:-1]
        out.update("/".join(parts[:i]) for i in range(1, len(parts) + 1))
    return out


def nested_spec_roots(root: Path, paths: Iterable[str]) -> list[str]:
    """The folders of ``paths`` (:func:`folders_of`) below ``root`` that hold a ``spec/schemas``
    folder (links followed), sorted: each would be taken for the spec repository by a command
    run inside it."""
    return sorted(d for d in folders_of(paths) if (root / d / "spec" / "schemas").is_dir())


def checkout_paths(root: Path) -> list[str]:
    """The files of the checkout at ``root`` as git sees them: tracked, or new and not ignored.

    Raises:
        InputError: git failed.
    """
    out = git.run(root, "ls-files", "-z", "--cached", "--others", "--exclude-standard").stdout
    return [p for p in out.decode("utf-8", "surrogateescape").split("\0") if p]


HFS_IGNORABLE = dict.fromkeys([0x200C, 0x200D, 0x200E, 0x200F, *range(0x202A, 0x202F),
                               *range(0x206A, 0x2070), 0xFEFF])
"""Code points HFS+ leaves out of a file name when it compares names (the list git's
``core.protectHFS`` skips when it guards ``.git``, ``utf8.c`` ``next_hfs_char``), as a
:meth:`str.translate` table that deletes them."""


def folded(path: str) -> str:
    """``path`` as a case-insensitive, normalisation-insensitive file system names it (macOS
    APFS and HFS+, Windows NTFS by default): the HFS+ ignorable code points removed
    (:data:`HFS_IGNORABLE`), NFC, then case-folded."""
    return unicodedata.normalize("NFC", path.translate(HFS_IGNORABLE)).casefold()


def colliding_paths(paths: Iterable[str]) -> list[list[str]]:
    """Groups (each sorted, the groups sorted) of ``paths`` that differ but name one file, or a
    file inside one folder, on such a file system: two paths collide when their :func:`folded`
    forms are equal, or one's folded folder is the other's folded name."""
    by_name: dict[str, set[str]] = {}
    for path in paths:
        parts = path.split("/")
        for i in range(1, len(parts) + 1):
            prefix = "/".join(parts[:i])
            by_name.setdefault(folded(prefix), set()).add(prefix)
    return sorted(sorted(names) for names in by_name.values() if len(names) > 1)


def layout_findings(root: Path) -> list[Finding]:
    """One :data:`KIND` error per nested spec root of the checkout at ``root`` (a git work tree),
    and one :data:`COLLISION` error per group of :func:`colliding_paths`."""
    paths = checkout_paths(root)
    out = [Finding(KIND, f"{d}/spec/schemas: a command run inside {d}/ (validate, conformance, check) "
                   f"would take {d}/ for the spec repository, since the nearest folder holding "
                   "spec/schemas is the repository; a repository has one spec/ folder, at its root",
                   new=Location(f"{d}/spec/schemas"))
           for d in nested_spec_roots(root, paths)]
    out += [Finding(COLLISION, f"{', '.join(group)} name one file on a case-insensitive file system "
                    "(macOS, Windows): a checkout there keeps one name with the content git writes last, "
                    "not the files judged here; rename all but one",
                    new=Location(group[0]), extra={"paths": group})
            for group in colliding_paths(paths)]
    return out
