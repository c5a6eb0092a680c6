"""What ``diff OLD NEW`` arguments name: a schema file, a folder, a release, ``draft``, or ``REF:PATH``.

Each argument becomes either a :class:`~evalport_spec.spec.SpecVersion` (a version folder, a
release, the draft, or a version folder at a git revision) or a
:class:`~evalport_spec.schemaset.SchemaSet` (a single schema file or a folder of schemas).
Git revisions are checked by :func:`evalport_spec.gitsource.check_ref` (no leading ``-``,
git-check-ref-format rules) and read with git plumbing behind ``--end-of-options``.
"""

from __future__ import annotations

import os
from pathlib import Path, PurePosixPath

from ..errors import InputError
from ..jsonload import load, loads
from ..schemaset import SchemaSet
from ..spec import DRAFT, SEMVER, SpecRepo, SpecVersion


def resolve_input(arg: str, repo_root: str | None = None) -> SpecVersion | SchemaSet:
    """The version or schema set ``arg`` names.

    Raises:
        InputError: nothing by that name, an unsafe revision, unreadable or invalid JSON.
    """
    if arg.startswith("-"):
        raise InputError(f"not a schema, folder, version or REF:PATH: {arg!r}")
    p = Path(arg)
    if p.is_file():
        return SchemaSet.from_loaded({p.name: load(p)}, str(p))
    if p.is_dir():
        if (p / "schemas").is_dir():
            return SpecVersion.from_dir(p.name, p)
        files = sorted(x for x in p.iterdir() if x.is_file() and x.suffix == ".json")
        if not files:
            raise InputError("no *.json schemas in folder", str(p))
        return SchemaSet.from_loaded({f.name: load(f) for f in files}, str(p))
    if arg == DRAFT or SEMVER.match(arg):
        repo = SpecRepo(Path(repo_root)) if repo_root else SpecRepo.discover()
        return repo.version(arg)
    if ":" in arg:
        return _from_git(arg, repo_root)
    raise InputError(f"no such file, folder or version: {arg!r} (use a path, a release version, "
                     "'draft', or REF:PATH)")


def _from_git(arg: str, repo_root: str | None) -> SpecVersion | SchemaSet:
    from .. import gitsource

    split = gitsource.split_rev_path(arg)
    assert split is not None
    ref, path = split
    root = Path(repo_root) if repo_root else _git_root()
    data = gitsource.read_file(root, ref, path) if path.endswith(".json") else None
    if data is not None:
        name = PurePosixPath(path).name
        return SchemaSet.from_loaded({name: loads(data, f"{ref}:{path}")}, f"{ref}:{path}")
    files = gitsource.read_tree(root, ref, path)
    if any(k.startswith("schemas/") for k in files):
        return gitsource.spec_version_at(root, ref, path, name=arg)
    loaded = {k: loads(v, f"{ref}:{path}/{k}") for k, v in files.items() if k.endswith(".json") and "/" not in k}
    if not loaded:
        raise InputError(f"no schemas at {ref}:{path}")
    return SchemaSet.from_loaded(loaded, f"{ref}:{path}")


def _git_root() -> Path:
    here = Path(os.getcwd()).resolve()
    for p in (here, *here.parents):
        if (p / ".git").exists():
            return p
    raise InputError("REF:PATH needs a git repository (none found here or above)", str(here))
