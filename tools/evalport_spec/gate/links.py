"""``spec-symlink``: spec/, rfcs/, tools/ and .ci/ hold plain files and folders only, and so do
the packaging and ignore files at the root and the Python modules there.

A symbolic link, a gitlink (a submodule entry, mode ``160000``) or a nested git repository (a
``.git`` file or folder below the root) under :data:`~evalport_spec.gitsource.LINK_FREE_FOLDERS`,
or a link or gitlink at the root in place of a :func:`~evalport_spec.gitsource.must_be_plain`
file (``pyproject.toml``, ``gate-ignore.yml``, a root ``orjson.py``), lets two readings of one
tree disagree. The working tree follows a link, git's object view does
not (it holds the link's target text), so a released path turned into a link to an edited copy,
or a new version folder's file linked to a released file, is one file to the gate reading the
checkout and another to the gate reading the commit later (the base of the next change, the
commit that created a release). A submodule or nested repository brings in files from another
history that no diff of this one shows. Red team (session 33): a branch replacing
``spec/schemas/grader.json`` with a link to a copy elsewhere passed ``check --base`` with exit 0,
and every later ``check --base`` of a branch off it read the base's draft without grader.json.

:func:`link_findings` lists each such entry of the working tree (one error each, naming the path
and what it is); :mod:`evalport_spec.gitsource` refuses them in every read of a commit.
"""

from __future__ import annotations

import os
from pathlib import Path

from .. import git
from ..findings import Finding, Location
from ..gitsource import LINK_FREE_FOLDERS, must_be_plain
from . import history

KIND = "spec-symlink"
"""The finding kind of a link, gitlink or nested repository under a link-free folder."""


def odd_entries(root: Path, is_git: bool) -> list[tuple[str, str]]:
    """``[(path relative to root, what it is)]``, sorted, for every symbolic link, nested git
    repository (a folder holding ``.git``) and, in a git work tree (``is_git``), gitlink of the
    index under :data:`LINK_FREE_FOLDERS` of ``root`` (the folder itself included), and every
    link or gitlink at the root whose name :func:`~evalport_spec.gitsource.must_be_plain`
    covers. Links are never followed, so a loop cannot hang the walk.

    Raises:
        InputError: git fails.
    """
    found: dict[str, str] = {name: "a symbolic link" for name in _root_names(root, is_git)
                             if (root / name).is_symlink() and must_be_plain(name)}
    for folder in LINK_FREE_FOLDERS:
        top = root / folder
        if top.is_symlink():
            found[folder] = "a symbolic link"
            continue
        for dirpath, dirnames, filenames in os.walk(top, followlinks=False):
            here = Path(dirpath)
            if ".git" in dirnames or ".git" in filenames:
                found[here.relative_to(root).as_posix()] = "a nested git repository (it holds .git)"
                dirnames[:] = []
                continue
            dirnames.sort()
            for name in (*dirnames, *filenames):
                if (here / name).is_symlink():
                    found[(here / name).relative_to(root).as_posix()] = "a symbolic link"
    if is_git:
        staged = git.run(root, "ls-files", "-z", "--stage").stdout
        for rec in staged.decode("utf-8", "surrogateescape").split("\0"):
            meta, _, name = rec.partition("\t")
            if not rec or not must_be_plain(name):
                continue
            if meta.split()[0] == "160000":
                found[name] = "a gitlink (a submodule entry)"
            elif meta.split()[0] == "120000":
                found.setdefault(name, "a symbolic link (in the index)")
    return sorted(found.items())


def _root_names(root: Path, is_git: bool) -> list[str]:
    """The names at ``root`` a commit of the working tree could hold: in a git work tree, those
    git lists as tracked or new and not ignored (a developer's ignored ``venv`` link is no
    part of the change); elsewhere every entry."""
    if not is_git:
        return sorted(p.name for p in root.iterdir())
    return sorted({p.split("/", 1)[0] for p in history.tree_files(root)})


def link_findings(root: Path, is_git: bool) -> list[Finding]:
    """One :data:`KIND` error per entry of :func:`odd_entries`."""
    return [Finding(KIND, f"{rel} is {what}: spec/, rfcs/, tools/, .ci/, the packaging and ignore files "
                    "and the Python modules at the root hold plain files and folders only "
                    "(a link or another repository makes the checkout and the commit hold different "
                    "files, so the gate would judge one and git keep the other); replace it with the "
                    "file or folder itself", new=Location(rel), extra={"what": what})
            for rel, what in odd_entries(root, is_git)]
