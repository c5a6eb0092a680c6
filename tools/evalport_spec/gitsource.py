"""Reading spec files at a git revision, safely and offline.

Used by ``check --base REF`` (the draft as it is on the base branch) and by ``diff REF:PATH``.
Everything goes through git plumbing (``rev-parse``, ``ls-tree``, ``cat-file --batch``) with a
fixed argument shape, so a revision or path coming from a command line or a CI variable can never
become a git option or reach outside the repository:

* revisions are checked by :func:`check_ref` (no leading ``-``, no control characters or
  whitespace, no ``..`` range or ``:`` path syntax, no reflog ``@{`` tricks beyond ``@{u}``-free
  names) and then resolved with ``git rev-parse --verify --end-of-options REF^{commit}``
  (``--end-of-options`` is git >= 2.24; see git-rev-parse(1));
* paths are checked by :func:`check_path` (relative, no ``..`` component, no control characters).

A revision that does not exist locally (a shallow CI clone fetches only the PR head) raises an
:class:`~evalport_spec.errors.InputError` whose message says exactly which ``git fetch`` brings
it in, derived from the revision (:func:`fetch_hint`).
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path, PurePosixPath

from .errors import InputError
from .fsutil import run_bounded
from .jsonload import MAX_BYTES
from .spec import SpecVersion, versions_from_mapping

GIT_TIMEOUT = 60
"""Seconds any one git process may run before it is killed (no hangs)."""

MAX_GIT_OUTPUT = MAX_BYTES
"""Most bytes one git process may write (a whole spec tree read at a revision included)."""

MAX_REF_LENGTH = 256

_CONTROL = re.compile(r"[\x00-\x20\x7f]")
_HEX_SHA = re.compile(r"^[0-9a-fA-F]{7,64}$")


def check_ref(ref: str) -> str:
    """Return ``ref`` unchanged if it is safe to hand to git, else raise.

    Accepted: branch, tag and remote-tracking names (``main``, ``origin/main``,
    ``refs/remotes/origin/main``, ``v1.2.0``), commit ids, and ``~N`` / ``^N`` suffixes
    (``HEAD~1``). Refused, following git-check-ref-format(1) and git-rev-parse(1) "SPECIFYING
    REVISIONS": a leading ``-`` (would be read as an option, e.g. ``--upload-pack=x``), control
    characters and whitespace, ``..`` (ranges, path tricks), ``:`` (``REV:PATH`` and ``:/text``
    search), ``@{`` (reflog and upstream selectors), ``\\``, ``*``, ``?``, ``[``, a trailing
    ``.lock`` or ``/``, and names longer than 256 characters.

    Raises:
        InputError: naming the revision and what is wrong with it.
    """
    if not isinstance(ref, str) or ref == "":
        raise InputError("empty git revision")
    shown = ref.encode("unicode_escape").decode("ascii")[:80]
    why = None
    if ref.startswith("-"):
        why = "starts with '-' (it would be read as a git option)"
    elif _CONTROL.search(ref):
        why = "contains whitespace or a control character"
    elif len(ref) > MAX_REF_LENGTH:
        why = f"is longer than {MAX_REF_LENGTH} characters"
    elif ".." in ref:
        why = "contains '..' (ranges and path tricks are not revisions)"
    elif ":" in ref:
        why = "contains ':' (give the revision alone; paths are given separately)"
    elif "@{" in ref:
        why = "contains '@{' (reflog selectors are not accepted)"
    elif any(c in ref for c in "\\*?[") or ref.endswith((".lock", "/", ".")) or "//" in ref:
        why = "is not a valid git revision name (git-check-ref-format)"
    if why:
        raise InputError(f"refusing git revision {shown!r}: it {why}")
    return ref


def check_path(path: str) -> str:
    """Return ``path`` normalised (no leading ``./``, no trailing ``/``) if it is a safe
    repository-relative POSIX path, else raise.

    Raises:
        InputError: absolute path, a ``..`` component, a leading ``-``, or control characters.
    """
    if not isinstance(path, str) or _CONTROL.search(path.replace(" ", "")) or path.startswith("-"):
        raise InputError(f"refusing path {path!r} inside a git revision")
    p = PurePosixPath(path)
    if p.is_absolute() or ".." in p.parts or "\\" in path:
        raise InputError(f"refusing path {path!r}: it must be relative to the repository root, "
                         "without '..'")
    text = str(p)
    return "" if text == "." else text


def fetch_hint(ref: str, remotes: list[str] | None = None) -> str:
    """The ``git fetch`` command that makes ``ref`` available in a shallow clone.

    ``origin/main`` -> ``git fetch --depth=1 origin main:refs/remotes/origin/main``;
    ``refs/remotes/up/x`` likewise; a tag ``refs/tags/v1`` -> ``git fetch --depth=1 origin
    refs/tags/v1:refs/tags/v1``; a commit id -> ``git fetch --depth=1 origin <sha>``; a plain name
    ``main`` -> ``git fetch --depth=1 origin main:refs/remotes/origin/main`` (then use
    ``origin/main``). ``~N``/``^N`` suffixes need history: ``--depth`` is dropped for those.
    """
    remotes = remotes or ["origin"]
    base = re.split(r"[~^]", ref, maxsplit=1)[0]
    depth = "--depth=1 " if base == ref else ""  # HEAD~N style needs the history: no --depth
    name = base
    if name == "HEAD":
        return "git fetch --unshallow"
    if name.startswith("refs/remotes/"):
        name = name[len("refs/remotes/"):]
    elif name.startswith("refs/tags/"):
        return f"git fetch {depth}origin {name}:{name}"
    elif name.startswith("refs/heads/"):
        branch = name[len("refs/heads/"):]
        return f"git fetch {depth}origin {branch}:refs/remotes/origin/{branch}"
    head, _, rest = name.partition("/")
    if rest and head in remotes:
        return f"git fetch {depth}{head} {rest}:refs/remotes/{head}/{rest}"
    if _HEX_SHA.match(name):
        return f"git fetch {depth}origin {name}"
    return f"git fetch {depth}origin {name}:refs/remotes/origin/{name}"


def _git(root: Path, *args: str, input: bytes | None = None, check: bool = True
         ) -> subprocess.CompletedProcess[bytes]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(GIT_TERMINAL_PROMPT="0", GIT_OPTIONAL_LOCKS="0", LC_ALL="C")
    try:
        proc = run_bounded(["git", "-C", str(root), "-c", "core.quotepath=off", *args],
                           input=input, env=env, timeout=GIT_TIMEOUT, max_bytes=MAX_GIT_OUTPUT,
                           label=f"git {args[0]}")
    except FileNotFoundError:
        raise InputError("git is not installed (needed to read a revision)") from None
    except subprocess.TimeoutExpired:
        raise InputError(f"git {args[0]} took longer than {GIT_TIMEOUT}s", str(root)) from None
    if check and proc.returncode != 0:
        msg = proc.stderr.decode("utf-8", "replace").strip().splitlines()
        raise InputError(f"git {args[0]} failed: {msg[-1] if msg else proc.returncode}", str(root))
    return proc


def git(root: str | os.PathLike[str], *args: str, input: bytes | None = None, check: bool = True
        ) -> subprocess.CompletedProcess[bytes]:
    """Run ``git -C root ARGS`` offline and bounded: no ``GIT_*`` variables of the caller, no
    terminal prompt, no optional locks, ``LC_ALL=C``, :data:`GIT_TIMEOUT` seconds at most. The
    caller passes only arguments it built itself (revisions through :func:`check_ref`).

    Raises:
        InputError: git missing, too slow, or (with ``check``) failed: the message is git's last
            line of standard error.
    """
    return _git(Path(root), *args, input=input, check=check)


def _remotes(root: Path) -> list[str]:
    proc = _git(root, "remote", check=False)
    names = proc.stdout.decode("utf-8", "replace").split()
    return names or ["origin"]


def resolve(root: str | os.PathLike[str], ref: str) -> str:
    """The full commit id ``ref`` names in the repository at ``root``.

    Runs ``git rev-parse --verify --quiet --end-of-options REF^{commit}`` after :func:`check_ref`.

    Raises:
        InputError: unsafe revision; not a git repository; revision unknown here (the message
            carries the :func:`fetch_hint`, e.g. "not found in this clone (a shallow CI clone
            fetches only the pull request): run `git fetch --depth=1 origin main:refs/remotes/
            origin/main`").
    """
    root = Path(root)
    check_ref(ref)
    inside = _git(root, "rev-parse", "--is-inside-work-tree", check=False)
    if inside.returncode != 0:
        raise InputError("not a git repository (needed to read revision "
                         f"{ref!r})", str(root))
    proc = _git(root, "rev-parse", "--verify", "--quiet", "--end-of-options", f"{ref}^{{commit}}",
                check=False)
    sha = proc.stdout.decode("ascii", "replace").strip()
    if proc.returncode != 0 or not re.fullmatch(r"[0-9a-f]{40,64}", sha):
        hint = fetch_hint(ref, _remotes(root))
        raise InputError(f"git revision {ref!r} not found in this clone (a shallow CI clone "
                         f"fetches only the pull request head): run `{hint}` first")
    return sha


def _ls_tree(root: Path, sha: str, path: str) -> list[tuple[str, str, str]]:
    """``[(type, object id, path)]`` for every blob under ``path`` (recursive)."""
    args = ["ls-tree", "-r", "-z", "--full-tree", sha]
    if path:
        args += ["--", path]
    out = _git(root, *args).stdout.decode("utf-8", "surrogateescape")
    rows = []
    for rec in out.split("\0"):
        if not rec:
            continue
        meta, _, name = rec.partition("\t")
        mode, typ, oid = meta.split()
        if typ == "blob" and mode != "120000":  # skip symlinks: never follow them out of the tree
            rows.append((typ, oid, name))
    return rows


def _cat_blobs(root: Path, oids: list[str]) -> list[bytes]:
    """Contents of many blobs with one ``git cat-file --batch`` process."""
    if not oids:
        return []
    data = _git(root, "cat-file", "--batch", input=("\n".join(oids) + "\n").encode()).stdout
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
    Symbolic links are skipped (never followed).

    Raises:
        InputError: unsafe ``ref`` or ``path``, unknown revision (with the fetch hint), git errors.
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


def read_file(repo_root: str | os.PathLike[str], ref: str, path: str) -> bytes | None:
    """The bytes of file ``path`` at revision ``ref``, or ``None`` if it is absent there.

    Raises:
        InputError: unsafe ``ref`` or ``path``, unknown revision (with the fetch hint).
    """
    path = check_path(path)
    if not path:
        raise InputError("a file path is needed after 'REF:'")
    root = Path(repo_root)
    sha = resolve(root, ref)
    rows = [r for r in _ls_tree(root, sha, path) if r[2] == path]
    if not rows:
        return None
    return _cat_blobs(root, [rows[0][1]])[0]


def list_dir(repo_root: str | os.PathLike[str], ref: str, path: str) -> list[str]:
    """Names of the files directly inside folder ``path`` at ``ref`` (sorted; no sub-folders).

    Raises:
        InputError: as :func:`read_tree`.
    """
    root = Path(repo_root)
    path = check_path(path)
    sha = resolve(root, ref)
    args = ["ls-tree", "-z", "--full-tree", sha, "--", (path + "/") if path else "."]
    out = _git(root, *args).stdout.decode("utf-8", "surrogateescape")
    names = []
    for rec in out.split("\0"):
        meta, _, name = rec.partition("\t")
        if rec and meta.split()[1] == "blob":
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
