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
from ..fsutil import repo_lock
from ..spec import SpecRepo
from .build import LATEST, _git, base_config, child_env, fence, prepared_version
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
    r = subprocess.run(["git", "-C", str(repo.root), "status", "--porcelain"], capture_output=True,
                       text=True, check=False)
    status = [ln for ln in r.stdout.splitlines() if ln.strip()]
    if status:
        first = status[0][3:]
        raise InputError(f"working tree has uncommitted changes (e.g. {first}); mike deploys the working "
                         "tree as it is, so commit first or pass --allow-dirty", str(repo.root))


def _run_mike(repo: SpecRepo, args: list[str], env: dict[str, str]) -> None:
    r = subprocess.run([sys.executable, "-c", "import sys; from mike.driver import main; sys.exit(main())", *args], cwd=repo.root, capture_output=True,
                       text=True, env=env, check=False)
    if r.returncode != 0:
        lines = [ln for ln in (r.stderr + r.stdout).splitlines() if ln.strip()]
        detail = "; ".join(lines[-3:]) if lines else f"exit code {r.returncode}"
        raise InputError(f"mike {args[-1] if args else ''} failed: {detail}", str(repo.root))


def publish(repo: SpecRepo, *, branch: str = "gh-pages", push: bool = False, remote: str = "origin",
            allow_dirty: bool = False, progress: Callable[[str], None] | None = None) -> list[PublishStep]:
    """Deploy every release and the draft to ``branch`` (see the module docstring).

    Returns one :class:`PublishStep` per version, in deploy order.

    Raises:
        InputError: a symlink leaving the repository, not a git repository, dirty tree (without
            ``allow_dirty``), no releases and no draft, a version whose strict build fails
            (mkdocs' first warning in the message),
            or a failing mike/git command.
    """
    if allow_dirty:
        if _git(repo.root, "rev-parse", "--is-inside-work-tree") != "true":
            raise InputError("not a git repository: mike publishes to a git branch", str(repo.root))
    else:
        check_clean(repo)
    fence(repo)
    env = child_env(repo)
    names = repo.all_versions()
    latest = repo.latest_release()
    vs = VersionSet(repo)
    rfcs = load_rfcs_or_empty(repo)
    steps: list[PublishStep] = []
    with repo_lock(repo.root, "docs publish"):
        start = _git(repo.root, "rev-parse", "--verify", "-q", f"refs/heads/{branch}")
        for i, name in enumerate(names, 1):
            before = _git(repo.root, "rev-parse", "--verify", "-q", f"refs/heads/{branch}")
            with prepared_version(repo, vs, name, rfcs) as (cfg, _notes):
                args = ["-q", "deploy", "-F", str(cfg), "--branch", branch, "--alias-type=copy",
                        "--ignore-remote-status"]
                if name == latest:
                    args += ["--update-aliases", name, LATEST]
                else:
                    args += [name]
                try:
                    _run_mike(repo, args, env)
                except InputError as exc:
                    raise InputError(f"version {name}: {exc.message}", exc.source) from None
            after = _git(repo.root, "rev-parse", "--verify", "-q", f"refs/heads/{branch}")
            changed = not same_publication(repo.root, before, after)
            steps.append(PublishStep(name, changed, after))
            if progress:
                state = f"deployed ({after[:12]})" if changed and after else "unchanged"
                progress(f"[{i}/{len(names)}] {name}{' (latest)' if name == latest else ''}: {state}")
        if latest:
            _run_mike(repo, ["-q", "set-default", "-F", str(base_config(repo)), "--branch", branch,
                             "--ignore-remote-status", LATEST], env)
        order_branch_versions(repo.root, branch)
        drop_noop_commits(repo.root, branch, start)
        if push:
            r = subprocess.run(["git", "-C", str(repo.root), "push", remote, branch],
                               capture_output=True, text=True, check=False)
            if r.returncode != 0:
                raise InputError(f"git push {remote} {branch} failed: "
                                 f"{(r.stderr.strip().splitlines() or ['?'])[-1]}", str(repo.root))
            if progress:
                progress(f"pushed {branch} to {remote}")
    return steps
