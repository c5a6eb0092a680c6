"""git, run offline and bounded: the one runner of git processes, and the checks that keep a
revision or path from a command line or CI variable from becoming a git option.

* :func:`run` starts ``git -C ROOT ARGS`` through :func:`evalport_spec.fsutil.run_bounded` (output
  counted, a timeout, never a terminal prompt) with the caller's ``GIT_*`` variables removed, so a
  ``GIT_DIR`` or ``GIT_WORK_TREE`` of the environment never redirects it;
* revisions are checked by :func:`check_ref` (no leading ``-``, no control characters or
  whitespace, no ``..`` range or ``:`` path syntax, no reflog ``@{`` selectors) and resolved by
  :func:`resolve` with ``git rev-parse --verify --end-of-options REF^{commit}``
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
from collections.abc import Mapping
from pathlib import Path, PurePosixPath

from . import inputlog
from .errors import InputError
from .fsutil import run_bounded
from .jsonload import MAX_BYTES

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


def run(root: str | os.PathLike[str], *args: str, input: bytes | None = None, check: bool = True,
        env: Mapping[str, str] | None = None, timeout: float = GIT_TIMEOUT,
        max_bytes: int = MAX_GIT_OUTPUT) -> subprocess.CompletedProcess[bytes]:
    """Run ``git -C root -c core.quotepath=off ARGS`` offline and bounded: the caller's
    environment without its ``GIT_*`` variables, plus ``GIT_TERMINAL_PROMPT=0``,
    ``GIT_OPTIONAL_LOCKS=0``, ``LC_ALL=C`` and ``env`` (an identity for a commit, say);
    ``timeout`` seconds (default :data:`GIT_TIMEOUT`) and ``max_bytes`` of output at most. The
    caller passes only arguments it built itself (revisions through :func:`check_ref`).

    Returns:
        the finished process (``stdout``, ``stderr`` as bytes; ``returncode``).

    Raises:
        InputError: git missing, too slow, too much output, or (with ``check``) failed: the
            message is git's last line of standard error.
    """
    full = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    full.update(GIT_TERMINAL_PROMPT="0", GIT_OPTIONAL_LOCKS="0", LC_ALL="C")
    full.update(env or {})
    try:
        # a read is logged for replay (inputlog); a call with its own environment (a commit's
        # identity) writes, so it has no door and a recording around it is never replayed
        with inputlog.command(["git", str(root), *args] if env is None else None, input) as done:
            proc = run_bounded(["git", "-C", str(root), "-c", "core.quotepath=off", *args],
                               input=input, env=full, timeout=timeout, max_bytes=max_bytes,
                               label=f"git {args[0]}")
            done(proc.returncode, proc.stdout, proc.stderr)
    except FileNotFoundError:
        raise InputError("git is not installed (needed to read a revision)") from None
    except subprocess.TimeoutExpired:
        raise InputError(f"git {args[0]} took longer than {timeout}s", str(root)) from None
    if check and proc.returncode != 0:
        msg = proc.stderr.decode("utf-8", "replace").strip().splitlines()
        raise InputError(f"git {args[0]} failed: {msg[-1] if msg else proc.returncode}", str(root))
    return proc


def _remotes(root: Path) -> list[str]:
    proc = run(root, "remote", check=False)
    names = proc.stdout.decode("utf-8", "replace").split()
    return names or ["origin"]


def resolve(root: str | os.PathLike[str], ref: str, *, option: str | None = None) -> str:
    """The full commit id ``ref`` names in the repository at ``root``.

    Runs ``git rev-parse --verify --quiet --end-of-options REF^{commit}`` after :func:`check_ref`.
    ``option``: how the user gave ``ref`` (``--base``), for the message of a name that is only
    a remote-tracking branch here.

    Raises:
        InputError: unsafe revision; not a git repository; revision unknown here: when a remote's
            tracking branch has that name (``cold`` with only ``origin/cold`` here), the message
            says to use that one ("use `--base origin/cold`": git does not look under a remote's
            name, and fetching would not change that); else it carries the :func:`fetch_hint`,
            e.g. "not found in this clone (a shallow CI clone fetches only the pull request):
            run `git fetch --depth=1 origin main:refs/remotes/origin/main`" in a shallow clone;
            in a full one, an ancestor beyond the history "does not exist" and a name gets the
            fetch without ``--depth`` (:func:`_absent_from_full_clone`).
    """
    root = Path(root)
    check_ref(ref)
    inside = run(root, "rev-parse", "--is-inside-work-tree", check=False)
    if inside.returncode != 0:
        raise InputError("not a git repository (needed to read revision "
                         f"{ref!r})", str(root))
    proc = run(root, "rev-parse", "--verify", "--quiet", "--end-of-options", f"{ref}^{{commit}}",
                check=False)
    sha = proc.stdout.decode("ascii", "replace").strip()
    if proc.returncode != 0 or not re.fullmatch(r"[0-9a-f]{40,64}", sha):
        remotes = _remotes(root)
        name = re.split(r"[~^]", ref, maxsplit=1)[0]  # a branch name, not HEAD or a full ref name
        tracking = [f"{r}/{ref}" for r in remotes if name != "HEAD" and not name.startswith("refs/")
                    and run(root, "rev-parse", "--verify", "--quiet", "--end-of-options",
                            f"refs/remotes/{r}/{ref}^{{commit}}", check=False).returncode == 0]
        if tracking:
            use = " or ".join(f"`{option + ' ' if option else ''}{t}`" for t in tracking)
            raise InputError(f"git revision {ref!r} not found in this clone, but the remote-tracking "
                             f"branch {tracking[0]} is: use {use}")
        if not _is_shallow(root):
            raise InputError(_absent_from_full_clone(root, ref, name, remotes))
        raise InputError(f"git revision {ref!r} not found in this clone (a shallow CI clone "
                         f"fetches only the pull request head): run `{fetch_hint(ref, remotes)}` first")
    return sha


def _is_shallow(root: Path) -> bool:
    """Whether the repository at ``root`` is a shallow clone (``git rev-parse
    --is-shallow-repository``, git 2.15): only there can a revision be missing for want of history."""
    return run(root, "rev-parse", "--is-shallow-repository", check=False).stdout.strip() == b"true"


def _absent_from_full_clone(root: Path, ref: str, name: str, remotes: list[str]) -> str:
    """The message for ``ref`` (its name before any ``~``/``^`` being ``name``) unknown in a
    clone with the whole history: fetching more history cannot bring it (fresh user, session 34:
    ``--base HEAD~999`` was told to run ``git fetch --unshallow``)."""
    if name != ref and run(root, "rev-parse", "--verify", "--quiet", "--end-of-options",
                           f"{name}^{{commit}}", check=False).returncode == 0:
        return (f"git revision {ref!r} does not exist: {name!r} has no such ancestor "
                "(this clone has the whole history)")
    if name == "HEAD":
        return f"git revision {ref!r} does not exist: the repository has no commit yet"
    hint = fetch_hint(name, remotes).replace("--depth=1 ", "")  # a full clone stays full
    return (f"git revision {ref!r} not found in this repository (it has the whole history of what it "
            f"fetched): if a remote has it, run `{hint}` first")
