"""Reading spec files at a git revision, safely and offline.

Used by ``check --base REF`` (the draft as it is on the base branch) and by ``diff REF:PATH``.
Everything goes through git plumbing (``ls-tree``, ``cat-file --batch``) run by
:func:`evalport_spec.git.run`, with revisions and paths checked and resolved there
(:func:`~evalport_spec.git.check_ref`, :func:`~evalport_spec.git.check_path`,
:func:`~evalport_spec.git.resolve`), so a revision or path from a command line or a CI variable
can never become a git option or reach outside the repository.

Under :data:`LINK_FREE_FOLDERS` (``spec/``, ``rfcs/``, ``tools/``, ``.ci/``), for
:data:`LINK_FREE_FILES` at the root and for every file Python could import from the root
(:func:`importable_from_root`, and a root name that could be a package folder), a tree entry that is not a plain file, a symbolic link
(mode ``120000``) or a gitlink (mode ``160000``, a submodule's commit), is refused with an
:class:`~evalport_spec.errors.InputError` naming it, never skipped and never followed: skipped,
the gate would read a commit's spec, rule code or packaging without a file a checkout of it holds
(a checkout follows the link, or fills the submodule from elsewhere), so the view from git and
the view from the working tree would judge two different trees. (Red team, session 34: a base
whose ``pyproject.toml`` or ``gate-ignore.yml`` was a link read as having none.)
"""

from __future__ import annotations

import os
from pathlib import Path, PurePosixPath

from .errors import InputError
from .git import check_path, check_ref, resolve, run
from .spec import SpecVersion, versions_from_mapping

LINK_FREE_FOLDERS = ("spec", "rfcs", "tools", ".ci")
"""Top-level folders that hold only plain files and folders: the spec, the RFCs (whose
acceptance the gate reads), the toolchain (whose rule code the gate reads as text) and the CI
scripts (``.ci/run``, which CI takes from the base with ``git show``)."""

LINK_FREE_FILES = ("pyproject.toml", "setup.py", "setup.cfg", "MANIFEST.in", "gate-ignore.yml",
                   "noxfile.py", "bootstrap.py")
"""Files at the root that are plain files only: the packaging the gate digests as rule code
(:mod:`evalport_spec.gate.packaging`), the repository's ignore file (read at the base from git,
:mod:`evalport_spec.gate.ignores`) and the scripts that install or test the toolchain."""

IMPORTABLE_SUFFIXES = (".py", ".pyw", ".pyc", ".pyo", ".pyd", ".so", ".pth")
"""Endings of a file that Python imports (or, for ``.pth``, that ``site`` reads) from a folder
on ``sys.path``, on any platform (``.so`` covers ``.cpython-312-x86_64-linux-gnu.so`` and
``.abi3.so``; ``.pyw`` and ``.pyd`` are Windows's)."""

_ODD_MODES = {"120000": "a symbolic link", "160000": "a gitlink (a submodule entry)"}
"""git tree entry modes that are not plain files or folders, with what each is."""


def in_link_free_folder(path: str) -> bool:
    """Whether repository path ``path`` (POSIX, relative) lies under :data:`LINK_FREE_FOLDERS`
    (or is one of them), in any letter case (``Tools/`` is ``tools/`` on a case-insensitive
    file system)."""
    return path.split("/", 1)[0].casefold() in LINK_FREE_FOLDERS


NOT_IMPORTED_FOLDERS = ("spec", "rfcs", "tests", "benchmarks", "docs", "tools")
"""Folders at the root whose Python files no import from the root reaches by name: the spec,
the RFCs, the test suite and the benchmarks run only when called, ``docs/`` holds the
``mkdocs.yml`` hooks and ``tools/`` the package, whose modules and neighbours
:mod:`evalport_spec.gate.rulecode` reads as rule code on its own."""


def importable_from_root(path: str) -> bool:
    """Whether repository path ``path`` (POSIX, relative) is a file that Python started at the
    repository root could import: ``python -m`` puts the current folder first on ``sys.path``,
    before the standard library and the installed packages, so ``orjson.py``, ``json.py`` or a
    folder ``yaml/`` at the root runs in place of the library of that name. True for a name
    ending in :data:`IMPORTABLE_SUFFIXES` at the root, or below a root folder other than
    :data:`NOT_IMPORTED_FOLDERS` and folders whose name starts with ``.`` (no ``import``
    statement names those). The suffix is compared in any letter case, the folder names as
    written (``Tests/`` is not exempt): either way more files count, never fewer."""
    if not path.casefold().endswith(IMPORTABLE_SUFFIXES):
        return False
    first, sep, _ = path.partition("/")
    return not sep or not (first.startswith(".") or first in NOT_IMPORTED_FOLDERS)


def must_be_plain(path: str) -> bool:
    """Whether repository path ``path`` (POSIX, relative) must be a plain file or folder (module
    docstring): under :data:`LINK_FREE_FOLDERS`, one of :data:`LINK_FREE_FILES`, a file
    :func:`importable_from_root`, or a name at the root without a ``.`` (a link there to a
    folder is a package Python imports from the root); names in any letter case."""
    if in_link_free_folder(path) or importable_from_root(path):
        return True
    return "/" not in path and (path.casefold() in {f.casefold() for f in LINK_FREE_FILES} or "." not in path)


def _refuse_odd(mode: str, name: str, sha: str, plain: bool = False) -> bool:
    """``True`` for a plain file entry; ``False`` for a link or gitlink elsewhere than
    :func:`must_be_plain` paths (skipped, never followed), unless ``plain``.

    Raises:
        InputError: a link or gitlink at a :func:`must_be_plain` path (or anywhere with
            ``plain``), naming it and the commit.
    """
    what = _ODD_MODES.get(mode)
    if what is None:
        return True
    if plain or must_be_plain(name):
        raise InputError(f"{name} is {what} at commit {sha[:12]}; spec/, rfcs/, tools/, .ci/, the "
                         "packaging and ignore files and the Python modules at the root are plain files "
                         "only (a link or submodule makes git and a checkout disagree on what the file "
                         "holds)", name)
    return False


def _ls_tree(root: Path, sha: str, path: str, plain: bool = False) -> list[tuple[str, str, str]]:
    """``[(type, object id, path)]`` for every plain file under ``path`` (recursive); links
    and gitlinks elsewhere than :func:`must_be_plain` paths are skipped.

    Raises:
        InputError: git fails, or a link or gitlink at a :func:`must_be_plain` path (or, with
            ``plain``, at ``path`` itself).
    """
    args = ["ls-tree", "-r", "-z", "--full-tree", sha]
    if path:
        args += ["--", path]
    out = run(root, *args).stdout.decode("utf-8", "surrogateescape")
    rows = []
    for rec in out.split("\0"):
        if not rec:
            continue
        meta, _, name = rec.partition("\t")
        mode, typ, oid = meta.split()
        if _refuse_odd(mode, name, sha, plain and name == path) and typ == "blob":
            rows.append((typ, oid, name))
    return rows


def _cat_blobs(root: Path, oids: list[str]) -> list[bytes]:
    """Contents of many blobs with one ``git cat-file --batch`` process."""
    if not oids:
        return []
    data = run(root, "cat-file", "--batch", input=("\n".join(oids) + "\n").encode()).stdout
    out: list[bytes] = []
    pos = 0
    for oid in oids:
        nl = data.index(b"\n", pos)
        header = data[pos:nl].decode("ascii", "replace").split()
        if len(header) != 3:
            raise InputError(f"git cat-file: object {oid} is missing")
        size = int(header[2])
        out.append(data[nl + 1: nl + 1 + size])
        pos = nl + 1 + size + 1
    return out


def read_tree(repo_root: str | os.PathLike[str], ref: str, path: str) -> dict[str, bytes]:
    """Every file under folder ``path`` at revision ``ref``: ``{path relative to path: bytes}``.

    ``path`` is repository-relative (``"spec"``, ``"spec/schemas"``); ``""`` means the whole tree.
    A ``path`` naming a file gives ``{its file name: bytes}``. An absent path gives ``{}``.
    Symbolic links and gitlinks are skipped (never followed), except at :func:`must_be_plain`
    paths, where they are refused.

    Raises:
        InputError: unsafe ``ref`` or ``path``, unknown revision (with the fetch hint), git errors,
            a link or gitlink at a :func:`must_be_plain` path.
    """
    root = Path(repo_root)
    path = check_path(path)
    sha = resolve(root, ref)
    rows = _ls_tree(root, sha, path)
    blobs = _cat_blobs(root, [oid for _, oid, _ in rows])
    out: dict[str, bytes] = {}
    prefix = path + "/" if path else ""
    for (_, _, name), data in zip(rows, blobs, strict=True):
        if name == path:
            out[PurePosixPath(name).name] = data
        elif name.startswith(prefix):
            out[name[len(prefix):]] = data
    return out


def read_file(repo_root: str | os.PathLike[str], ref: str, path: str, *, plain: bool = False) -> bytes | None:
    """The bytes of file ``path`` at revision ``ref``, or ``None`` if it is absent there (or,
    elsewhere than :func:`must_be_plain` paths and without ``plain``, a link or gitlink there).

    Raises:
        InputError: unsafe ``ref`` or ``path``, unknown revision (with the fetch hint), a link or
            gitlink at a :func:`must_be_plain` path, or at ``path`` itself with ``plain`` (a file
            the caller reads as code or packaging, such as one ``[tool.setuptools.dynamic]``
            names).
    """
    path = check_path(path)
    if not path:
        raise InputError("a file path is needed after 'REF:'")
    root = Path(repo_root)
    sha = resolve(root, ref)
    rows = [r for r in _ls_tree(root, sha, path, plain) if r[2] == path]
    if not rows:
        return None
    return _cat_blobs(root, [rows[0][1]])[0]


def list_files(repo_root: str | os.PathLike[str], ref: str) -> list[str]:
    """Every plain file of revision ``ref`` (repository paths, POSIX, sorted); links and gitlinks
    as in :func:`read_tree`.

    Raises:
        InputError: as :func:`read_tree`.
    """
    root = Path(repo_root)
    return sorted(name for _, _, name in _ls_tree(root, resolve(root, ref), ""))


def list_dir(repo_root: str | os.PathLike[str], ref: str, path: str) -> list[str]:
    """Names of the plain files directly inside folder ``path`` at ``ref`` (sorted; no
    sub-folders; links and gitlinks as in :func:`read_tree`).

    Raises:
        InputError: as :func:`read_tree`.
    """
    root = Path(repo_root)
    path = check_path(path)
    sha = resolve(root, ref)
    args = ["ls-tree", "-z", "--full-tree", sha, "--", (path + "/") if path else "."]
    out = run(root, *args).stdout.decode("utf-8", "surrogateescape")
    names = []
    for rec in out.split("\0"):
        meta, _, name = rec.partition("\t")
        if not rec:
            continue
        mode, typ, _ = meta.split()
        if _refuse_odd(mode, name, sha) and typ == "blob":
            names.append(PurePosixPath(name).name)
    return sorted(names)


def spec_version_at(repo_root: str | os.PathLike[str], ref: str, folder: str = "spec",
                    name: str | None = None, label: str | None = None) -> SpecVersion:
    """A :class:`~evalport_spec.spec.SpecVersion` for the version folder ``folder`` at ``ref``
    (default: the draft, ``spec``; a release is ``spec/releases/1.2.0``), read wholly into memory
    with :func:`read_tree`. Its name and label default to ``REF:folder`` so messages read
    ``origin/main:spec/schemas/suite.json:12: ...``.

    Raises:
        InputError: as :func:`read_tree`, or ``folder`` has no ``schemas/`` at ``ref``.
    """
    files = read_tree(repo_root, ref, folder)
    if not any(k.startswith("schemas/") for k in files):
        raise InputError(f"no schemas/ folder at {ref}:{folder}")
    return versions_from_mapping(name or f"{ref}:{folder}", files, label or f"{ref}:{folder}")


def split_rev_path(arg: str) -> tuple[str, str] | None:
    """``"origin/main:spec/schemas"`` -> ``("origin/main", "spec/schemas")``; ``None`` when ``arg``
    has no ``:`` (so it is a plain file path). The parts are checked by :func:`check_ref` and
    :func:`check_path`.

    Raises:
        InputError: an unsafe revision or path.
    """
    if ":" not in arg:
        return None
    ref, _, path = arg.partition(":")
    return check_ref(ref), check_path(path)
