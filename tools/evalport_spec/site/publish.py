"""Publish every release and the draft to the ``gh-pages`` branch with mike.

For each version, oldest release first and the draft last: generate its pages (temporary folder),
then ``mike deploy --alias-type=copy`` it (the newest release also gets the alias ``latest``,
moved with ``--update-aliases``), then ``mike set-default latest``. Properties:

* ordered: after the deploys, ``versions.json`` is committed again in selector order (releases
  newest first, then ``draft``; mike alone puts the draft first), see :mod:`.ghpages`;
* idempotent: ``SOURCE_DATE_EPOCH`` is the last commit's time, so a second publish of the same
  commit builds byte-identical files; the only difference mike makes is its own versions.json
  order, which the re-ordering undoes, so the branch is moved back to where it was (no commit);
* fenced: a symlink under ``spec/``, ``rfcs/`` or ``docs/`` leaving the repository is refused
  before anything is deployed (:func:`.build.fence`);
* additive: mike deploy only replaces the folder of the version it deploys (and the aliases it
  moves); versions already on the branch and not in the repository stay;
* local: works without a remote; ``push=True`` pushes the branch afterwards;
* whole: the deploys go to a staging branch and one checked ``update-ref`` publishes them
  (:mod:`evalport_spec.journal`), so an interrupted publish leaves the branch as it was;
* guarded: never the checked-out branch nor one that shares history with ``HEAD``
  (:func:`branch_problem`);
* honest about its input: mike deploys the working tree as it is, so a dirty tree is refused
  unless ``allow_dirty`` (the commit message would otherwise name a commit that is not what was
  published).
``alias-type=copy`` makes ``latest/`` a real copy (same git tree, no extra space) so the schema
JSON is served under ``latest/`` on static hosts too (a symlink or redirect alias is not).
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass

from ..errors import InputError
from ..fsutil import run_bounded
from ..journal import transaction
from ..spec import SpecRepo
from .build import LATEST, MAX_CHILD_OUTPUT, _git, base_config, child_env, fence, prepared_version
from .ghpages import drop_noop_commits, order_branch_versions, same_publication
from .history import VersionSet
from .pages import load_rfcs_or_empty


@dataclass
class PublishStep:
    """One deployed version: ``changed`` is False when mike found nothing to commit."""

    version: str
    changed: bool
    commit: str | None


def check_clean(repo: SpecRepo) -> None:
    """Raise :class:`InputError` unless ``repo`` is a git work tree without uncommitted changes
    (untracked files count: mike would publish them)."""
    if _git(repo.root, "rev-parse", "--is-inside-work-tree") != "true":
        raise InputError("not a git repository: mike publishes to a git branch", str(repo.root))
    r = _run(repo, ["git", "-C", str(repo.root), "status", "--porcelain"])
    status = [ln for ln in r.stdout.decode("utf-8", "replace").splitlines() if ln.strip()]
    if status:
        first = status[0][3:]
        raise InputError(f"working tree has uncommitted changes (e.g. {first}); mike deploys the working "
                         "tree as it is, so commit first or pass --allow-dirty", str(repo.root))


def branch_problem(repo: SpecRepo, branch: str) -> str | None:
    """Why the site may not be published to ``branch``, or ``None``.

    The site branch holds generated pages only. Refused: a name that is not a plain branch name
    (``HEAD``, ``-x``, anything ``git check-ref-format --branch`` rejects, or the journal's
    staging names), the branch checked out now (publishing would commit the site onto the
    source), and an existing branch that shares history with ``HEAD`` (it holds source
    commits: ``main``, a feature branch). mike creates the site branch without a parent, so a
    real site branch never shares history with the source.
    """
    if (branch in ("HEAD", "@") or branch.startswith(("-", "refs/", "evalport-staging/"))
            or _git(repo.root, "check-ref-format", "--branch", branch) != branch):
        return f"--branch {branch!r} is not a plain branch name"
    if _git(repo.root, "symbolic-ref", "-q", "--short", "HEAD") == branch:
        return (f"--branch {branch} is the branch checked out now; the site goes to its own branch "
                "(default gh-pages), never onto the source")
    tip = _git(repo.root, "rev-parse", "--verify", "-q", f"refs/heads/{branch}^{{commit}}")
    if tip:
        shared = _git(repo.root, "merge-base", tip, "HEAD")
        if shared:
            return (f"--branch {branch} shares history with HEAD (commit {shared[:12]}): it holds source "
                    "commits, not only the site; publish to a separate branch such as gh-pages")
    return None


def _run(repo: SpecRepo, argv: list[str], env: dict[str, str] | None = None
         ) -> subprocess.CompletedProcess[bytes]:
    return run_bounded(argv, cwd=repo.root, env=env, max_bytes=MAX_CHILD_OUTPUT)


def _run_mike(repo: SpecRepo, args: list[str], env: dict[str, str]) -> None:
    r = _run(repo, [sys.executable, "-c", "import sys; from mike.driver import main; sys.exit(main())", *args],
             env)
    if r.returncode != 0:
        lines = [ln for ln in (r.stderr + r.stdout).decode("utf-8", "replace").splitlines() if ln.strip()]
        detail = "; ".join(lines[-3:]) if lines else f"exit code {r.returncode}"
        raise InputError(f"mike {args[-1] if args else ''} failed: {detail}", str(repo.root))


def publish(repo: SpecRepo, *, branch: str = "gh-pages", push: bool = False, remote: str = "origin",
            allow_dirty: bool = False, progress: Callable[[str], None] | None = None) -> list[PublishStep]:
    """Deploy every release and the draft to ``branch`` (see the module docstring).

    The deploys go to a staging branch beside ``branch`` inside a journalled transaction
    (:mod:`evalport_spec.journal`); one ``git update-ref`` (checked against the old tip) then
    moves ``branch`` to the result, so an interruption leaves ``branch`` as it was or fully
    published, and the staging branch is removed either way.

    Returns one :class:`PublishStep` per version, in deploy order.

    Raises:
        InputError: a symlink leaving the repository, not a git repository, dirty tree (without
            ``allow_dirty``), a branch that may not receive the site (:func:`branch_problem`),
            no releases and no draft, a version whose strict build fails (mkdocs' first
            warning in the message), or a failing mike/git command.
    """
    if allow_dirty:
        if _git(repo.root, "rev-parse", "--is-inside-work-tree") != "true":
            raise InputError("not a git repository: mike publishes to a git branch", str(repo.root))
    else:
        check_clean(repo)
    problem = branch_problem(repo, branch)
    if problem:
        raise InputError(problem, str(repo.root))
    fence(repo)
    env = child_env(repo)
    names = repo.all_versions()
    latest = repo.latest_release()
    vs = VersionSet(repo)
    rfcs = load_rfcs_or_empty(repo)
    steps: list[PublishStep] = []
    with transaction(repo.root, "docs publish") as txn:
        start = _git(repo.root, "rev-parse", "--verify", "-q", f"refs/heads/{branch}")
        staging = txn.staging_ref(branch)
        work = staging.removeprefix("refs/heads/")
        if start:  # deploy on top of what is published
            _git(repo.root, "update-ref", staging, start)
        else:  # mike starts the branch
            _git(repo.root, "update-ref", "-d", staging)
        for i, name in enumerate(names, 1):
            before = _git(repo.root, "rev-parse", "--verify", "-q", staging)
            with prepared_version(repo, vs, name, rfcs) as (cfg, _notes):
                args = ["-q", "deploy", "-F", str(cfg), "--branch", work, "--alias-type=copy",
                        "--ignore-remote-status"]
                if name == latest:
                    args += ["--update-aliases", name, LATEST]
                else:
                    args += [name]
                try:
                    _run_mike(repo, args, env)
                except InputError as exc:
                    raise InputError(f"version {name}: {exc.message}", exc.source) from None
            after = _git(repo.root, "rev-parse", "--verify", "-q", staging)
            changed = not same_publication(repo.root, before, after)
            steps.append(PublishStep(name, changed, after))
            if progress:
                state = f"deployed ({after[:12]})" if changed and after else "unchanged"
                progress(f"[{i}/{len(names)}] {name}{' (latest)' if name == latest else ''}: {state}")
        if latest:
            _run_mike(repo, ["-q", "set-default", "-F", str(base_config(repo)), "--branch", work,
                             "--ignore-remote-status", LATEST], env)
        order_branch_versions(repo.root, work)
        drop_noop_commits(repo.root, work, start)
        end = _git(repo.root, "rev-parse", "--verify", "-q", staging)
        if end and end != start:
            txn.move_ref(f"refs/heads/{branch}", end, start)
    if push:
        r = _run(repo, ["git", "-C", str(repo.root), "push", remote, branch])
        if r.returncode != 0:
            err = r.stderr.decode("utf-8", "replace").strip().splitlines() or ["?"]
            raise InputError(f"git push {remote} {branch} failed: {err[-1]}", str(repo.root))
        if progress:
            progress(f"pushed {branch} to {remote}")
    return steps
