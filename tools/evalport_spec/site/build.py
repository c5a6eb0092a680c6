"""Build the site with mkdocs (strictly), one version at a time, and preview it on loopback.

Each version's pages are generated into a temporary folder together with a small mkdocs config
that ``INHERIT``s the repository's ``mkdocs.yml`` and sets ``docs_dir``, ``nav`` and
``strict: true`` (so a broken link or anchor fails the build, also under mike). Nothing is
written into the repository except the output folder the caller names.

:func:`build_site` lays the versions out the way mike publishes them (``<out>/<version>/``,
``<out>/versions.json``, ``<out>/latest/`` a copy of the newest release, ``<out>/index.html``
redirecting to it), so :func:`serve` shows a working version selector without git.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import re
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from ..errors import InputError
from ..fsutil import check_within, refuse_escaping_symlinks, resolve, run_bounded
from ..spec import DRAFT, SpecRepo, parse_semver
from .configscreen import screen_config
from .history import VersionSet
from .pages import generate_version, load_rfcs_or_empty
from .serve import site_url

THEME = Path(__file__).resolve().parent / "theme"
"""Material overrides (``theme.custom_dir``): outdated banner, repository link, 404 page."""

LATEST = "latest"
MAX_CHILD_OUTPUT = 64 * 1024 * 1024
"""Most output (bytes) one git, mkdocs or mike process may write (:func:`~evalport_spec.fsutil.run_bounded`)."""
TOP_404 = "404.html"
"""The site's top-level not-found page: a copy of the newest release's (its links are
absolute, so it works at any path)."""
FENCED = ("spec", "rfcs", "docs")
"""Repository folders the generator reads or copies from: no symlink in them may leave the
repository (:func:`fence`)."""


def fence(repo: SpecRepo) -> None:
    """Refuse, before anything is generated or written, a repository whose site sources leave it:
    a symlink under ``spec/``, ``rfcs/`` or ``docs/`` (examples, releases, RFCs, toolchain pages)
    or a ``mkdocs.yml`` resolving outside the repository root.

    Raises:
        InputError: ``FILE: refusing a symlink that leaves the repository (it points to ...)``
            (:func:`evalport_spec.fsutil.refuse_escaping_symlinks`).
    """
    refuse_escaping_symlinks(repo.root, FENCED)
    cfg = repo.root / "mkdocs.yml"
    if cfg.is_symlink():
        check_within(cfg, repo.root, "mkdocs.yml")


def child_env(repo: SpecRepo) -> dict[str, str]:
    """Environment for mkdocs/mike children: ``NO_MKDOCS_2_WARNING=1`` (silences Material's
    notice, docs-stack-notes) and ``SOURCE_DATE_EPOCH`` = the last commit's time when ``repo`` is
    a git work tree, so sitemap dates (and thus mike commits) do not depend on the day."""
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1", DISABLE_MKDOCS_2_WARNING="true")
    # mike runs `mkdocs` from PATH: make it this interpreter's
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    stamp = _git(repo.root, "log", "-1", "--format=%ct")
    if stamp:
        env["SOURCE_DATE_EPOCH"] = stamp
    return env


def as_of_date(repo: SpecRepo) -> dt.date:
    """The date the site counts RFC comment periods from when none is given: the day (UTC) of
    the last commit when ``repo`` is a git work tree (the ``SOURCE_DATE_EPOCH`` of
    :func:`child_env`, so republishing one commit rebuilds identical pages), else today (UTC)."""
    stamp = _git(repo.root, "log", "-1", "--format=%ct")
    moment = dt.datetime.fromtimestamp(int(stamp), dt.UTC) if stamp else dt.datetime.now(dt.UTC)
    return moment.date()


def _git(root: Path, *args: str) -> str | None:
    try:
        r = run_bounded(["git", "-C", str(root), *args], max_bytes=MAX_CHILD_OUTPUT)
    except (OSError, InputError):
        return None
    return r.stdout.decode("utf-8", "replace").strip() if r.returncode == 0 else None


@dataclass
class BuildResult:
    """Outcome of building one version.

    Attributes:
        version: the version name.
        ok: mkdocs exited 0 (strict: no warning at all).
        problems: mkdocs' WARNING/ERROR lines when not ok.
        notes: what degraded while generating pages (optional engines not importable).
    """

    version: str
    ok: bool
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def base_config(repo: SpecRepo) -> Path:
    """The repository's ``mkdocs.yml``, screened for the Python tags mkdocs' loader would build
    (:func:`~.configscreen.screen_config`, with its ``INHERIT`` chain).

    Raises:
        InputError: it is missing, a link leaving the repository, or refused by the screen.
    """
    p = repo.root / "mkdocs.yml"
    if not p.is_file():
        raise InputError("no mkdocs.yml in the repository root (the site's theme and settings)", str(p))
    check_within(p, repo.root, "mkdocs.yml")
    screen_config(p, repo.root)
    return p


@contextmanager
def prepared_version(repo: SpecRepo, vs: VersionSet, name: str, rfcs: list[Any],
                     as_of: dt.date | None = None, *, mike: bool = False,
                     cli_page: str | None = None) -> Iterator[tuple[Path, list[str]]]:
    """Generate version ``name`` into a temporary folder and yield ``(config file, notes)``;
    ``as_of`` is the date the RFC pages count comment periods from (:func:`as_of_date`),
    ``cli_page`` the CLI reference page's Markdown (:func:`generate_version`).

    The config ``INHERIT``s the repository's mkdocs.yml (mkdocs merges mappings key by key) and
    adds the theme overrides (:data:`THEME`), ``extra.spec_version`` and, unless ``mike`` (whose
    plugin appends the version to ``site_url`` itself when it deploys), the version's
    ``site_url`` ``<site_url><name>/``: the 404 page, whose links mkdocs makes absolute, and the
    canonical links then point into the version. ``site_dir`` is inside the temporary folder
    too. Everything is removed on exit.
    """
    base = base_config(repo)
    with tempfile.TemporaryDirectory(prefix=f"evalport-site-{name}-") as tmp:
        t = Path(tmp)
        pages = generate_version(repo, vs, name, t / "docs", rfcs, as_of=as_of, cli_page=cli_page)
        cfg = {"INHERIT": str(base), "docs_dir": str(t / "docs"), "site_dir": str(t / "site"),
               "strict": True, "theme": {"name": "material", "custom_dir": str(THEME)},
               "extra": {"spec_version": name}, "nav": pages.nav}
        if not mike:
            cfg["site_url"] = f"{site_url(base)}{name}/"
        cfg_path = t / "mkdocs.yml"
        cfg_path.write_text(yaml.safe_dump(cfg, sort_keys=False, allow_unicode=True), encoding="utf-8")
        yield cfg_path, pages.notes


PAGE_FAILURES = ("in strict mode!", "Aborted with a BuildError!")
"""How mkdocs (1.6) ends a build that failed on its pages: warnings in strict mode (a broken
link or anchor: ``Aborted with 2 warnings in strict mode!``) or a page it could not build. Those
are the command's findings (exit 1). Any other failure (``Aborted with a configuration error!``,
configuration warnings in ``'strict' mode``, mkdocs.yml that does not parse, a crash) is the
configuration's: an input error of ``mkdocs.yml`` (exit 2, docs/architecture.md "Conventions")."""


def mkdocs_build(cfg: Path, out: Path, env: dict[str, str]) -> tuple[bool, list[str]]:
    """Run ``mkdocs build --strict`` for ``cfg`` into ``out``. Returns ``(ok, warning lines)``;
    a failure on the pages is ``(False, lines)`` (:data:`PAGE_FAILURES`).

    Raises:
        InputError: mkdocs failed otherwise (its configuration, the repository's mkdocs.yml
            that ``cfg`` inherits, or a crash): one line at ``mkdocs.yml`` with mkdocs' first
            error line.
    """
    r = run_bounded([sys.executable, "-m", "mkdocs", "build", "--strict", "--clean",
                     "-f", str(cfg), "-d", str(out)], env=env, max_bytes=MAX_CHILD_OUTPUT, label="mkdocs")
    stdout, stderr = r.stdout.decode("utf-8", "replace"), r.stderr.decode("utf-8", "replace")
    lines = [ln.strip() for ln in (stderr + stdout).splitlines()
             if ln.strip().startswith(("WARNING", "ERROR", "Error", "Aborted"))]
    if r.returncode != 0 and not any(ln.endswith(PAGE_FAILURES) for ln in lines):
        shown = [ln for ln in lines if not ln.startswith("Aborted")] or \
            [ln.strip() for ln in stderr.splitlines() if ln.strip()][-1:] or [f"exit status {r.returncode}"]
        first = re.sub(r"^(?:ERROR|WARNING)\s+-\s+", "", shown[0])  # mkdocs' log prefix
        raise InputError(f"mkdocs cannot build the site with this configuration: {first}"
                         + (f" (and {len(shown) - 1} more)" if len(shown) > 1 else ""), "mkdocs.yml")
    return r.returncode == 0, lines


GUARDED = ("spec", "rfcs", ".git")
"""Repository folders a site build must never write into (:func:`output_dir`)."""


def output_dir(repo: SpecRepo, out: str | os.PathLike[str], names: Sequence[str]) -> Path:
    """``out`` made absolute against the working directory (symlinks followed), checked before
    anything is built: a relative ``--out`` handed to mkdocs as is would be taken relative to
    the generated config's temporary folder, leaving empty version folders behind.

    ``names`` are the version folders the build replaces (plus ``latest``, ``versions.json``,
    ``index.html``).

    Raises:
        InputError: ``out`` is the repository root, exists and is not a folder (``--out
            README.md``), or a folder the build writes would lie inside ``spec/``, ``rfcs/`` or
            ``.git`` or contain the repository (``--out spec/releases`` would replace a
            frozen release).
    """
    shown = str(out)
    target = resolve(Path(out).absolute(), shown)
    root = resolve(repo.root)
    if target == root:
        raise InputError("--out is the repository itself; build the site into its own folder "
                         "(default: site/)", shown)
    if target.exists() and not target.is_dir():
        raise InputError("--out exists and is not a folder", shown)
    for w in (target, *(target / n for n in (*names, LATEST, "versions.json", "index.html"))):
        inside = next((g for g in GUARDED if w == root / g or w.is_relative_to(root / g)), None)
        if inside:
            raise InputError(f"--out is inside {inside}/ of the repository (the build would write "
                             f"{w}); build the site into its own folder (default: site/)", shown)
        if root.is_relative_to(w):
            raise InputError(f"--out would replace {w}, which holds the repository; build the site "
                             "into its own folder (default: site/)", shown)
    return target


def versions_to_build(repo: SpecRepo, only: str | None) -> list[str]:
    """``[only]`` (checked) or every release oldest first then ``"draft"``."""
    if only is None:
        return repo.all_versions()
    repo.version(only)  # raises InputError listing the known versions
    return [only]


def _order_key(entry: dict[str, Any]) -> tuple[int, tuple[int, ...]]:
    name = str(entry.get("version"))
    try:
        v = parse_semver(name)
        return 0, (-v.major, -v.minor, -v.patch)
    except ValueError:
        return (2 if name == DRAFT else 1), (0, 0, 0)


def order_versions(entries: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """mike ``versions.json`` entries in the order the version selector shows them: releases
    (``MAJOR.MINOR.PATCH``, semver 2.0.0 precedence) newest first, then any other name in its
    given order, then ``draft`` last. mike itself sorts non-numeric names above every number
    (``mike.versions.Versions.__iter__``), which would put the draft first. Entries are not
    changed (the ``latest`` alias stays where it is). Sorting is stable."""
    return sorted(entries, key=_order_key)


def dump_versions(entries: Sequence[dict[str, Any]]) -> str:
    """``entries`` serialised byte-for-byte the way mike writes versions.json
    (``json.dumps(..., indent=2)`` and a final newline), in :func:`order_versions` order."""
    return json.dumps(order_versions(entries), indent=2) + "\n"


def versions_json(repo: SpecRepo, names: Sequence[str]) -> str:
    """mike's ``versions.json`` for ``names``: releases newest first, then the draft
    (:func:`order_versions`); ``latest`` is an alias of the newest release."""
    latest = repo.latest_release()
    data = [{"version": v, "title": v, "aliases": [LATEST] if v == latest else []}
            for v in names if v == DRAFT or v in repo.releases()]
    return dump_versions(data)


_REDIRECT = """<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>Redirecting</title>
<noscript><meta http-equiv="refresh" content="1; url={to}/"></noscript>
<script>window.location.replace("{to}/" + window.location.hash);</script>
</head><body>Redirecting to <a href="{to}/">{to}/</a>...</body></html>
"""


def build_site(repo: SpecRepo, out: Path, version: str | None = None,
               progress: Callable[[str], None] | None = None,
               as_of: dt.date | None = None, *, cli_page: str | None = None) -> list[BuildResult]:
    """Build every version (or only ``version``) strictly into ``out/<version>/``.

    ``as_of`` is the date RFC comment periods are counted from (default :func:`as_of_date`);
    ``cli_page`` the Markdown of the CLI reference page (``None``: no such page), see
    :func:`generate_version`.
    With all versions, also writes ``out/versions.json``, ``out/latest/`` (a copy of the newest
    release), ``out/index.html`` (redirect to ``latest/``) and ``out/404.html`` (the newest
    release's not-found page, :data:`TOP_404`). Each version folder is replaced
    atomically (built aside, then renamed into place), so a failed build leaves the previous
    output untouched.

    Nothing is written (``out`` not even created) when the input is refused: a symlink leaving
    the repository (:func:`fence`), an unknown version, no mkdocs.yml, an output folder that
    would overwrite the repository (:func:`output_dir`), or an unreadable file of the first
    version.

    Raises:
        InputError: a symlink leaving the repository, unknown version, no mkdocs.yml, a
            refused or unwritable output folder, unreadable spec files, or mkdocs failing on
            its configuration rather than on the pages (:func:`mkdocs_build`; no version
            folder is replaced).
    """
    fence(repo)
    names = versions_to_build(repo, version)
    base_config(repo)
    out = output_dir(repo, out, names)
    env = child_env(repo)
    vs = VersionSet(repo)
    rfcs = load_rfcs_or_empty(repo)
    as_of = as_of or as_of_date(repo)
    results = []
    for i, name in enumerate(names, 1):
        with prepared_version(repo, vs, name, rfcs, as_of, cli_page=cli_page) as (cfg, notes):
            try:
                out.mkdir(parents=True, exist_ok=True)
                staging = Path(tempfile.mkdtemp(prefix=f".{name}.", dir=out))
            except OSError as exc:
                raise InputError(f"cannot write the site here: {exc.strerror or exc}", str(out)) from None
            try:
                ok, problems = mkdocs_build(cfg, staging, env)
            except InputError:
                shutil.rmtree(staging, ignore_errors=True)
                raise
            if ok:
                _replace_dir(staging, out / name)
            else:
                shutil.rmtree(staging, ignore_errors=True)
        results.append(BuildResult(name, ok, problems, notes))
        if progress:
            progress(f"[{i}/{len(names)}] {name}: {'built' if ok else 'FAILED'}")
    if version is None and all(r.ok for r in results):
        _write(out / "versions.json", versions_json(repo, names))
        latest = repo.latest_release()
        if latest:
            staging = Path(tempfile.mkdtemp(prefix=".latest.", dir=out))
            shutil.rmtree(staging)
            shutil.copytree(out / latest, staging)
            _replace_dir(staging, out / LATEST)
            _write(out / "index.html", _REDIRECT.format(to=LATEST))
            _write(out / TOP_404, (out / latest / TOP_404).read_text(encoding="utf-8"))
    return results


def _write(path: Path, text: str) -> None:
    from ..fsutil import atomic_write

    atomic_write(path, text)


def _replace_dir(new: Path, target: Path) -> None:
    """Put ``new`` at ``target`` with renames only (the old folder is removed afterwards)."""
    old = None
    if target.exists():
        old = target.with_name(f".{target.name}.old-{os.getpid()}")
        os.replace(target, old)
    os.replace(new, target)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)
