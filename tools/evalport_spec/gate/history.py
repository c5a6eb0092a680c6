"""What the gate reads from git history: when a file was first added, the first-parent steps of
a release line, whether the clone is shallow, and a commit's tree on disk.

Everything goes through :func:`evalport_spec.git.run` (offline, bounded, fixed argument
shapes). Commits are full object names; paths are relative to the repository root with ``/``.

A shallow clone (``git clone --depth N``, the default of ``actions/checkout``) cuts history at
its *boundary* commits: ``git log`` then reports every file present at a boundary as added
there, which is not when it was really added. The gate never guesses: a question whose answer
lies beyond a boundary raises :class:`~evalport_spec.errors.InputError` with :data:`UNSHALLOW`.
"""

from __future__ import annotations

import functools
import hashlib
from dataclasses import dataclass
from pathlib import Path

from .. import git, gitsource
from ..errors import InputError

UNSHALLOW = ("run `git fetch --unshallow` (in GitHub Actions: actions/checkout with "
             "`fetch-depth: 0`)")
"""How to bring the missing history in, appended to every shallow-clone message."""


@dataclass(frozen=True)
class Added:
    """The commit that first added a file.

    Attributes:
        commit: its full object name; date: its committer date (``YYYY-MM-DD``).
        blob: the object name of the file's content in that commit.
    """

    commit: str
    date: str
    blob: str

    @property
    def short(self) -> str:
        """The first 12 hex digits of :attr:`commit`."""
        return self.commit[:12]


def is_git(root: Path) -> bool:
    """Whether ``root`` is inside a git work tree that has at least one commit."""
    inside = git.run(root, "rev-parse", "--is-inside-work-tree", check=False)
    if inside.returncode != 0 or inside.stdout.strip() != b"true":
        return False
    return git.run(root, "rev-parse", "--verify", "--quiet", "HEAD^{commit}", check=False).returncode == 0


def head(root: Path) -> str:
    """The full object name of ``HEAD``. Raises :class:`InputError` without one."""
    return git.resolve(root, "HEAD")


def shallow_boundaries(root: Path) -> set[str]:
    """The boundary commits of a shallow clone (empty for a full clone)."""
    path = git.run(root, "rev-parse", "--git-path", "shallow").stdout.decode().strip()
    p = Path(path) if Path(path).is_absolute() else root / path
    if not p.is_file():
        return set()
    return {ln.strip() for ln in p.read_text("ascii", "replace").splitlines() if ln.strip()}


@functools.lru_cache(maxsize=16)
def _object_format(root: Path) -> str:
    return git.run(root, "rev-parse", "--show-object-format", check=False).stdout.decode().strip()


def blob_name(root: Path, data: bytes) -> str:
    """The git object name ``data`` would have as a blob (SHA-1, or SHA-256 in a SHA-256
    repository), without writing it."""
    algo = hashlib.sha256 if _object_format(root) == "sha256" else hashlib.sha1
    return algo(b"blob %d\0" % len(data) + data).hexdigest()


def first_added(root: Path, folder: str) -> dict[str, Added]:
    """``{path: Added}`` for every file ever added under ``folder``: the oldest commit in
    ``HEAD``'s history whose diff adds it (``git log --diff-filter=A``; renames count as adds).

    Raises:
        InputError: git fails; a file's oldest adding commit is a shallow boundary (the real one
            is not in this clone: the message names the file and says how to fetch it).
    """
    out = git.run(root, "log", "--reverse", "--diff-filter=A", "--no-renames", "--raw",
                        "--no-abbrev", "--format=commit %H %cs", "HEAD", "--", folder).stdout
    found: dict[str, Added] = {}
    commit = date = ""
    for line in out.decode("utf-8", "surrogateescape").splitlines():
        if line.startswith("commit "):
            _, commit, date = line.split(" ", 2)
        elif line.startswith(":"):
            meta, _, path = line.partition("\t")
            parts = meta.split()
            if len(parts) >= 5 and parts[4] == "A" and path not in found:
                found[path] = Added(commit, date, parts[3])
    cut = shallow_boundaries(root)
    for path, added in sorted(found.items()):
        if added.commit in cut:
            raise InputError(f"this clone is shallow: the commit that added {path} is not in it "
                             f"(history stops at {added.short}); {UNSHALLOW}")
    return found


def first_parent_steps(root: Path, rev: str, since_path: str | None = None) -> list[str]:
    """The first-parent history of ``rev``, oldest first: the commits a release line moved
    through, one per merge (a merged pull request is one step, whatever its own commits).

    With ``since_path``, the steps start at the first of them whose tree contains that path.

    Raises:
        InputError: git fails; the history reaches a shallow boundary before ``since_path``
            appears (the steps would start in the middle).
    """
    shas = git.run(root, "rev-list", "--first-parent", "--reverse", rev).stdout.decode().split()
    if since_path is not None:
        touching = git.run(root, "rev-list", "--first-parent", "--reverse", rev, "--",
                                 since_path).stdout.decode().split()
        if touching:
            shas = shas[shas.index(touching[0]):]
    cut = shallow_boundaries(root)
    if shas and shas[0] in cut:
        raise InputError(f"this clone is shallow: the history of {rev} stops at {shas[0][:12]} "
                         f"before {since_path or 'its first commit'}; {UNSHALLOW}")
    return shas


def is_ancestor(root: Path, commit: str, rev: str) -> bool:
    """Whether ``commit`` exists here and is an ancestor of (or equal to) ``rev``."""
    return git.run(root, "merge-base", "--is-ancestor", commit, rev, check=False).returncode == 0


def commit_subject(root: Path, commit: str) -> str | None:
    """The subject line of ``commit`` (a commit id or name), or ``None`` when this clone has
    no such commit.

    Raises:
        InputError: git cannot run (not installed, too slow).
    """
    proc = git.run(root, "log", "-1", "--format=%s", f"{commit}^{{commit}}", "--", check=False)
    return proc.stdout.decode("utf-8", "replace").strip() if proc.returncode == 0 else None


def changed_paths(root: Path, base: str, paths: tuple[str, ...]) -> list[str]:
    """Paths among ``paths`` (files or folders) that differ between commit ``base`` and the
    working tree: tracked changes (``git diff --name-only``) and new untracked files, sorted."""
    diff = git.run(root, "diff", "--name-only", "--no-renames", base, "--", *paths).stdout
    new = git.run(root, "ls-files", "--others", "--exclude-standard", "--", *paths).stdout
    names = {n for n in (diff + new).decode("utf-8", "surrogateescape").splitlines() if n}
    return sorted(names)


def tree_files(root: Path) -> list[str]:
    """The working tree's files as a commit of it would hold them: tracked, or new and not
    ignored (``git ls-files --cached --others --exclude-standard``), sorted; a tracked file
    deleted from disk is still listed. Files in folders whose name starts with ``.`` are left
    out, except ``.ci/`` (a ``.venv`` the quick start makes in the checkout is no part of the
    change, and a package installed there must not make the question's answer, which a replayed
    run compares, :mod:`.runmemo`, differ); root files starting with ``.`` stay listed."""
    listed = b""
    for spec in (":(exclude,glob).*/**", ".ci"):
        listed += git.run(root, "ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", spec).stdout
    return sorted({n for n in listed.decode("utf-8", "surrogateescape").split("\0") if n})


CONVERSIONS = ("ident", "filter", "working-tree-encoding")
"""Git attributes that make a checked-out file differ from its committed blob in content
(gitattributes(5), "Checking-out and checking-in"): ``ident`` expands ``$Id$`` to the blob's
name, ``filter`` runs a smudge command, ``working-tree-encoding`` re-encodes the text."""


def checkout_guarded(path: str) -> bool:
    """Whether repository path ``path`` is one the gate reads from the checkout for the branch
    and from git for every other commit, so that a checkout differing from its blob would make
    the two readings judge different files: ``spec/`` and ``rfcs/``, and every
    :func:`~evalport_spec.gitsource.must_be_plain` path (``tools/``, ``.ci/``, the packaging and
    ignore files and the Python modules at the root)."""
    return path.split("/", 1)[0].casefold() in ("spec", "rfcs") or gitsource.must_be_plain(path)


GUARDED = "spec/, rfcs/, tools/, .ci/, the packaging and ignore files and the Python modules at the root"
"""What :func:`checkout_guarded` covers, in words, for messages."""


def refuse_checkout_conversions(root: Path) -> None:
    """Raise :class:`InputError` naming the first :func:`checkout_guarded` file (tracked, or new
    and not ignored) that the attributes in effect (``.gitattributes`` files,
    ``.git/info/attributes``) give one of :data:`CONVERSIONS`, or that a line-ending conversion
    wrote with CRLF (:func:`_refuse_crlf_checkout`).

    Why: the gate reads the branch's spec, rule code and packaging from the checkout and every
    other commit's (the base, the release line) from git objects. A conversion makes the two
    readings of one file differ, so the gate would judge a checkout that is not what lands (red
    team: ``ident`` turned a committed pattern ``^[$Id$]*$``, which loses ``":"``, into
    ``^[$Id: <hex> $]*$`` on disk, a superset, and the change passed as MINOR; session 34: a
    ``filter`` or ``working-tree-encoding`` on ``tools/`` or a root module made the rule code
    the gate read from the checkout differ from the blob that lands, and nothing refused it).
    """
    names = [n for n in tree_files(root) if checkout_guarded(n)]
    if not names:
        return
    stdin = "".join(n + "\0" for n in names).encode("utf-8", "surrogateescape")
    out = git.run(root, "check-attr", "-z", "--stdin", *CONVERSIONS, input=stdin).stdout
    fields = out.decode("utf-8", "surrogateescape").split("\0")
    for path, attr, value in zip(fields[0::3], fields[1::3], fields[2::3], strict=False):
        if value not in ("unspecified", "unset"):
            raise InputError(f"refusing to judge a checkout that differs from its commit: the git "
                             f"attribute `{attr}` ({value}) rewrites this file on checkout; remove it "
                             f"from .gitattributes for {GUARDED}", path)
    _refuse_crlf_checkout(root)


def _refuse_crlf_checkout(root: Path) -> None:
    """Raise :class:`InputError` naming the first :func:`checkout_guarded` file that git
    committed with LF line endings (or LF and CRLF mixed) and checked out with CRLF only (``git
    ls-files --eol``: ``i/lf`` or ``i/mixed``, ``w/crlf``) while a setting converts it so
    (``core.autocrlf=true``, ``core.eol=crlf`` or the ``eol=crlf`` attribute; gitattributes(5),
    "End-of-line conversion"): what lands is the blob, not the bytes on disk, and every
    released file would read as changed. A file the author saved with CRLF and no conversion
    configured is what lands, and is judged as it is."""
    out = git.run(root, "ls-files", "-z", "--eol").stdout.decode("utf-8", "surrogateescape")
    converted = []
    for entry in out.split("\0"):
        info, _, path = entry.partition("\t")
        if path and checkout_guarded(path) and info.split()[:2] in (["i/lf", "w/crlf"], ["i/mixed", "w/crlf"]):
            converted.append(path)
    if not converted:
        return
    why = []
    # a boolean git spells true, yes, on, 1 or with no value at all (git-config(1)): --type=bool
    # says "true" for each ("input", the other value core.autocrlf takes, is no boolean: it fails)
    autocrlf = git.run(root, "config", "--type=bool", "--get", "core.autocrlf", check=False).stdout
    if autocrlf.decode().strip() == "true":
        why.append("core.autocrlf=true")
    if git.run(root, "config", "--get", "core.eol", check=False).stdout.decode().strip().lower() == "crlf":
        why.append("core.eol=crlf")
    attrs = git.run(root, "check-attr", "-z", "eol", "--", converted[0]).stdout.decode().split("\0")
    if attrs[2:3] == ["crlf"]:
        why.append("the eol=crlf attribute")
    if why:
        raise InputError(f"refusing to judge a checkout that differs from its commit: {' and '.join(why)} "
                         f"turned this file's LF line endings into CRLF on checkout; check {GUARDED} out "
                         "unconverted (`git config core.autocrlf false`, then check them out again)", converted[0])


def materialize(root: Path, commit: str, dest: Path, folders: tuple[str, ...] = ("",)) -> Path:
    """Write the files of ``commit`` under ``folders`` (default: the whole tree) into the empty
    folder ``dest``, read with git plumbing (no ``.gitattributes`` filters, symbolic links
    skipped). Returns ``dest``.

    Raises:
        InputError: git fails, or a path would leave ``dest``.
    """
    base = dest.resolve()
    for folder in folders:
        for rel, data in gitsource.read_tree(root, commit, folder).items():
            target = (base / folder / rel).resolve()
            if not target.is_relative_to(base):
                raise InputError(f"refusing to write {folder}/{rel} of {commit[:12]} outside {dest}")
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
    return dest
