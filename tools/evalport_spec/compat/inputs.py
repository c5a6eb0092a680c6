"""What ``diff OLD NEW`` arguments name: a schema file, a folder, a release, ``draft``, or ``REF:PATH``.

Each argument becomes either a :class:`~evalport_spec.spec.SpecVersion` (a version folder, a
release, the draft, or a version folder at a git revision), a
:class:`~evalport_spec.schemaset.SchemaSet` (a folder of schemas) or a :class:`FileSet` (a
single schema file, with the sibling schemas references, directly or not, as context).
Git revisions are checked by :func:`evalport_spec.git.check_ref` (no leading ``-``,
git-check-ref-format rules) and read with git plumbing behind ``--end-of-options``.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import urldefrag

from ..diffinputs import folder_files, local_kind, same_local_file, sibling_files
from ..errors import InputError
from ..jsonload import Loaded, load, loads
from ..schemaset import SchemaSet
from ..spec import DRAFT, SEMVER, SpecRepo, SpecVersion


class FileSet(SchemaSet):
    """A schema set built for one named file: ``focus`` is the file to compare; the other files
    are the siblings of its folder that it references (by ``$id``, transitively), loaded only so
    that its references resolve as they do in the folder. Built by :meth:`SchemaSet.from_loaded`
    (``focus`` then empty) and given its ``focus`` after."""

    _FIELDS = (*SchemaSet._FIELDS, "focus")

    def __init__(self, *args: Any, focus: str = "", **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.focus = focus


def file_set(name: str, main: Loaded, siblings: Mapping[str, Callable[[], Loaded]], label: str) -> FileSet:
    """A :class:`FileSet` for file ``name`` (parsed as ``main``) with the ``siblings`` (``{file
    name: loader}``) that its references reach. A sibling that does not load, has no string
    ``$id``, or repeats an ``$id`` already taken is left out (its references then stay
    unresolved, which :func:`~evalport_spec.compat.refs.check_set` reports). Siblings are
    loaded only once a reference leaves the files chosen so far: a schema whose references
    all stay inside it never reads the other files of its folder (which may be documents of any
    size, not schemas).

    Raises:
        InputError: ``main`` is not a schema (see :meth:`SchemaSet.from_loaded`).
    """
    main_id = main.value.get("$id") if isinstance(main.value, dict) else None
    by_id: dict[str, tuple[str, Loaded]] = {}
    if isinstance(main_id, str):  # a sibling repeating the file's own $id is never context
        by_id[urldefrag(main_id)[0]] = (name, main)
    indexed = False

    def index() -> None:
        nonlocal indexed
        indexed = True
        for other in sorted(siblings):
            if other == name:
                continue
            try:
                loaded = siblings[other]()
            except InputError:
                continue
            sid = loaded.value.get("$id") if isinstance(loaded.value, dict) else None
            if isinstance(sid, str):
                by_id.setdefault(urldefrag(sid)[0], (other, loaded))

    chosen: dict[str, Loaded] = {name: main}
    alone = None  # the file's own set: the answer when its references stay inside it
    todo = [name]
    while todo:
        current = todo.pop()
        try:
            own = FileSet.from_loaded({current: chosen[current]}, label)
            alone = own if current == name else alone
            targets = {urldefrag(absolute)[0] for _, _, _, absolute in own.references()}
        except InputError:
            if current == name:
                raise
            continue
        for t in sorted(targets):
            if t not in by_id and not indexed:
                index()
            hit = by_id.get(t)
            if hit and hit[0] not in chosen:
                chosen[hit[0]] = hit[1]
                todo.append(hit[0])
    out = alone if len(chosen) == 1 and alone is not None else FileSet.from_loaded(chosen, label)
    out.focus = name
    return out


def refocus(s: FileSet, name: str) -> FileSet:
    """``s`` with its focus file renamed to ``name`` (two single files are compared to each
    other whatever their names); a context file already called ``name`` is dropped."""
    if s.focus == name:
        return s
    loaded = {k: f.loaded for k, f in s.files.items() if k not in (s.focus, name)}
    loaded[name] = s.files[s.focus].loaded
    out = FileSet.from_loaded(loaded, s.label)
    out.focus = name
    return out


def resolve_input(arg: str, repo_root: str | None = None) -> SpecVersion | SchemaSet:
    """The version or schema set ``arg`` names, every schema of it checked against its
    meta-schema (:meth:`~evalport_spec.schemaset.SchemaSet.require_valid`): an invalid schema
    is refused, never classified.

    Raises:
        InputError: nothing by that name, an unsafe revision, unreadable or invalid JSON, a
            schema invalid against its meta-schema.
    """
    found = _resolve(arg, repo_root)
    (found.schemas if isinstance(found, SpecVersion) else found).require_valid()
    return found


def resolve_pair(old: str, new: str, repo_root: str | None = None) -> tuple[SpecVersion | SchemaSet,
                                                                          SpecVersion | SchemaSet]:
    """:func:`resolve_input` of both arguments of ``diff OLD NEW``, ``old`` first. When both
    name local schema files with one name, the same bytes and the same siblings (names and
    bytes: every file :func:`~evalport_spec.diffinputs.sibling_files` may read as context),
    the two sides are one input: ``new`` is then ``old``'s resolution itself, not read, parsed
    and checked again (a self-diff of a large schema, issue 16). What ``old``'s resolution
    refuses is refused all the same, with its message, and the comparison's own checks of
    ``old`` (:func:`~.refs.check_set`) still run before identical sets are called PATCH.

    Raises:
        InputError: as :func:`resolve_input`, for ``old`` and then ``new``.
    """
    first = resolve_input(old, repo_root)
    if isinstance(first, FileSet) and same_local_file(old, new):
        return first, first
    return first, resolve_input(new, repo_root)


def _resolve(arg: str, repo_root: str | None) -> SpecVersion | SchemaSet:
    if arg.startswith("-"):
        raise InputError(f"not a schema, folder, version or REF:PATH: {arg!r}")
    p, kind = Path(arg), local_kind(arg)
    if kind == "file":  # a FIFO or device: load refuses it
        siblings = {x.name: (lambda x=x: load(x)) for x in sibling_files(p)}
        return file_set(p.name, load(p), siblings, str(p))
    if kind == "version":
        return SpecVersion.from_dir(p.name, p)
    if kind == "folder":
        files = folder_files(p)
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
    if arg.endswith("/") and path and gitsource.read_file(root, ref, path) is not None:
        # git refuses REF:FILE/ ("does not exist"), as open(2) does FILE/; check_path drops the slash
        raise InputError("not a directory: the path ends in '/', which names a folder", arg)
    data = gitsource.read_file(root, ref, path) if path.endswith(".json") else None
    if data is not None:
        pp = PurePosixPath(path)
        folder = str(pp.parent) if str(pp.parent) != "." else ""
        prefix = f"{ref}:{folder}/" if folder else f"{ref}:"
        tree = gitsource.read_tree(root, ref, folder)
        siblings = {k: (lambda k=k, v=v: loads(v, prefix + k)) for k, v in tree.items()
                    if k.endswith(".json") and "/" not in k}
        return file_set(pp.name, loads(data, f"{ref}:{path}"), siblings, f"{ref}:{path}")
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
