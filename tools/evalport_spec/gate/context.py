"""What the stages share: the repository, loaded versions, classifications and RFCs, git
history, trees of other commits on disk, rule programs and their runs, each computed once per
gate run."""

from __future__ import annotations

import dataclasses
import re
import shutil
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from .. import gitsource
from ..cache import ContentMemo
from ..compat import Classification, compare_versions
from ..compat.versions import rule_implementations
from ..errors import InputError
from ..findings import Finding, input_finding
from ..fsutil import read_optional
from ..rfc import Rfc, load_rfcs
from ..spec import DRAFT, SpecRepo, SpecVersion
from . import history
from .packaging import packaging_digests
from .rootmodules import root_module_digests
from .rulecode import MAX_MODULE_BYTES, RuleCode, rule_code_of
from .rulecorpus import Corpus, build_corpus
from .ruleprogram import (
    INSTALLED,
    WORKING_TREE,
    Program,
    ProgramRun,
    installed_program,
    program_for_tree,
    run_here,
    run_program,
    runs_here,
)
from .runcache import store_run, stored_run

RUNS = ContentMemo(maxsize=8, copies=False)
"""Rule program runs of this process, keyed by program digest and corpus key (and, for the
program this process is, :func:`~evalport_spec.compat.versions.rule_implementations`)."""


def refuse_linked(root: Path, rel: str) -> None:
    """Raise :class:`InputError` when repository path ``rel`` (POSIX) of the working tree at
    ``root``, or a folder on the way to it, is a symbolic link."""
    here = root
    for part in rel.split("/"):
        here = here / part
        if here.is_symlink():
            raise InputError(f"{here.relative_to(root).as_posix()} is a symbolic link: the packaging and the "
                             "Python modules at the root are read as rule code, and git holds a link's text "
                             "where a checkout holds its target; replace it with the file itself", rel)


class StageSkipped(Exception):
    """The stage has nothing to check; the message says why."""


SCHEMA_FILE = re.compile(r"spec/(?:releases/[^/]+/)?schemas/[^/]+")
"""A schema file of the draft or of a release, as the gate labels it (from the repository root)."""


def stage_input_finding(exc: InputError) -> Finding:
    """An :class:`InputError` that stopped a check: ``schema-unreadable`` when it lies in a
    schema file of the draft or a release (the kind the schemas stage gives that same error, so
    the report shows the one cause once, under every stage it stopped), else ``input-error``."""
    in_schema = exc.source is not None and SCHEMA_FILE.fullmatch(str(exc.source)) is not None
    return input_finding(exc, "schema-unreadable" if in_schema else "input-error")


@dataclasses.dataclass
class GateContext:
    """Shared state of one gate run.

    Attributes:
        repo: the repository.
        base: the base revision (``check --base``) or ``None``; ``base_sha`` its commit id.
        ignores: live ``check --ignore`` entries (:mod:`evalport_spec.gate.ignores`), and
            ignore_notes the warnings about the file and entries that do not apply (blank,
            expired, added by the change), reported once per run (:meth:`take_ignore_notes`).
        cache: memoised values (versions, classifications, RFCs) keyed by a tuple.

    Trees of other commits are written under one temporary folder removed by :meth:`close`.
    """

    repo: SpecRepo
    base: str | None = None
    base_sha: str | None = None
    ignores: list[dict[str, Any]] = dataclasses.field(default_factory=list)
    ignore_notes: list[Finding] = dataclasses.field(default_factory=list)
    ignore_committed: bool = False
    """Whether the ignore file lies inside the repository (``gate-ignore.yml``): its entries
    must name the commit whose code they excuse (:mod:`evalport_spec.gate.ignorecommit`)."""
    cache: dict[Any, Any] = dataclasses.field(default_factory=dict)
    applying: tuple[str, ...] = ()
    """The stages of this run that apply the ignore file (``draft``, ``base``), in run order;
    empty when not known (each such stage then reports its own stale entries)."""
    _tmp: Path | None = None
    _ignore_notes_taken: bool = False

    def take_ignore_notes(self) -> list[Finding]:
        """:attr:`ignore_notes` the first time a stage applying the ignore file asks (``draft``,
        else ``base`` when ``draft`` is not run or skipped), nothing after: each note is in the
        report once, whichever stages run (before session 35 only ``draft`` had them, so
        ``check --base REF --stage base`` and a spec with no release showed none)."""
        if self._ignore_notes_taken:
            return []
        self._ignore_notes_taken = True
        return list(self.ignore_notes)

    def close(self) -> None:
        """Remove the trees written for this run."""
        if self._tmp is not None:
            shutil.rmtree(self._tmp, ignore_errors=True)
            self._tmp = None

    def _memo(self, key: Any, compute: Any) -> Any:
        if key not in self.cache:
            self.cache[key] = compute()
        return self.cache[key]

    def is_git(self) -> bool:
        """Whether the repository is a git work tree with a commit."""
        return self._memo("is-git", lambda: history.is_git(self.root))

    def first_added(self) -> dict[str, history.Added]:
        """:func:`history.first_added` of ``spec/releases`` (raises on a shallow cut)."""
        return self._memo("first-added", lambda: history.first_added(self.root, "spec/releases"))

    def release_commit(self, name: str) -> str | None:
        """The commit that first added release ``name`` (its ``rules.json`` or ``SPEC.md``), or
        ``None`` when it is not committed."""
        added = self.first_added()
        hits = [added[p] for p in (f"spec/releases/{name}/rules.json", f"spec/releases/{name}/SPEC.md")
                if p in added]
        return min(hits, key=lambda a: a.date).commit if hits else None

    def tree(self, commit: str, folders: tuple[str, ...] = ("",)) -> Path:
        """The files of ``commit`` under ``folders`` written to a folder of their own."""
        def write() -> Path:
            if self._tmp is None:
                self._tmp = Path(tempfile.mkdtemp(prefix="evalport-gate-"))
            dest = self._tmp / f"{commit[:16]}-{len(self.cache)}"
            dest.mkdir()
            return history.materialize(self.root, commit, dest, folders)
        return self._memo(("tree", commit, folders), write)

    def program(self, commit: str | None, label: str) -> Program:
        """The rule program of ``commit``'s tree (``None``: the working tree); a tree without
        ``tools/evalport_spec`` uses the installed toolchain's rules."""
        def make() -> Program:
            if commit is None:
                return program_for_tree(self.root, "the working tree")
            if not gitsource.read_tree(self.root, commit, "tools/evalport_spec/validation/rules"):
                return installed_program()
            return program_for_tree(self.tree(commit, ("tools",)), label, commit)
        return self._memo(("program", commit), make)

    def executed(self, program: Program) -> Program:
        """The program the gate runs in place of ``program``: ``program`` itself, except in the
        gate of record (``--base``) for a tree the base has not reviewed (the working tree, a
        commit the base's history lacks), whose rule code is never executed: the base's own
        program stands in. A rule program is code under review: run by the judge, it could
        rewrite the judge's files, cache and checkout (red team), and it is static reading
        (:mod:`.rulecode`) that judges it. The stand-in changes no verdict: where the two
        trees' rule code reads the same the two programs behave the same; where it differs,
        every changed active rule is a ``rule-implementation-changed`` error of the base stage,
        passed only by an entry landed at the base for its fingerprint, which pins both code
        digests (reviewers agreeing the edit keeps every verdict: the base's behaviour). A tree
        whose package is the one running this gate (the branch's own ``check --base``) runs."""
        if self.base_sha is None or program.origin == INSTALLED or program.tools == installed_program().tools:
            return program  # no gate of record, or code this process already is
        if program.origin != WORKING_TREE and self._memo(
                ("reviewed", program.origin), lambda: history.is_ancestor(self.root, program.origin, self.base_sha)):
            return program
        return self.program(self.base_sha, self.base or self.base_sha)

    def rule_code(self, program: Program) -> RuleCode:
        """The static :class:`~evalport_spec.gate.rulecode.RuleCode` of ``program``'s tree,
        read once per program.

        Raises:
            InputError: a module of it cannot be read.
        """
        return self._memo(("rule-code", program.digest), lambda: rule_code_of(program.tools, program.label))

    def packaging(self, program: Program) -> dict[str, str]:
        """The digests of the packaging of ``program``'s tree (:mod:`.packaging`) and of the
        Python modules at its root (:mod:`.rootmodules`): the working tree's files (the root
        modules among those git lists as tracked or new and not ignored), a commit's from git;
        none for the installed toolchain (a tree without ``tools/evalport_spec``), whose
        packaging is not in the repository.

        Raises:
            InputError: a packaging file or root module of the working tree is not a readable
                regular file inside the checkout, or is (or lies below) a symbolic link; a link
                in place of one at a commit. (A link is what git and the checkout read
                differently: git holds its text, the checkout its target.)
        """
        if program.origin == INSTALLED:
            return {}
        if program.origin == WORKING_TREE:
            def read(name: str) -> bytes | None:
                refuse_linked(self.root, name)
                return read_optional(self.root / name, max_bytes=MAX_MODULE_BYTES, label=name, within=self.root)

            def paths() -> list[str]:
                return history.tree_files(self.root)
        else:
            def read(name: str) -> bytes | None:
                return gitsource.read_file(self.root, program.origin, name, plain=True)

            def paths() -> list[str]:
                return gitsource.list_files(self.root, program.origin)
        return self._memo(("packaging", program.origin),
                          lambda: {**packaging_digests(read), **root_module_digests(paths(), read)})

    def base_version(self) -> SpecVersion:
        """The draft as it is at the base revision (read from git, never checked out)."""
        assert self.base is not None
        return self._memo("base-version", lambda: gitsource.spec_version_at(
            self.root, self.base_sha or self.base, "spec", name=f"{self.base}:spec", label=f"{self.base}:spec"))

    def corpus(self) -> Corpus:
        """The documents rule programs are compared on (:mod:`.rulecorpus`): seeded from every
        version folder of the working tree and of the base's tree, generated from the latest
        release (else the draft)."""
        def build() -> Corpus:
            versions = [self.version(n) for n in self.repo.all_versions()]
            folders = [(self.repo.spec_dir, "spec")] + [
                (self.repo.releases_dir / n, f"spec/releases/{n}") for n in self.repo.releases()]
            source = self.version(self.repo.latest_release() or DRAFT)
            if self.base is not None:
                versions.append(self.base_version())
                base_tree = self.tree(self.base_sha or self.base, ("spec", "rfcs"))
                folders.append((base_tree / "spec", f"{self.base}:spec"))
            return build_corpus(versions, folders, source)
        return self._memo("corpus", build)

    def run(self, program: Program) -> ProgramRun:
        """``program`` run over :meth:`corpus`, once per program and corpus in this process, and
        read back from the disk cache when a run of the same program over the same corpus was
        stored today (:func:`~.runcache.stored_run`). The package this process runs
        (:func:`~.ruleprogram.runs_here`) is run here, neither in a process of its own nor
        through the disk cache: its rules are the code already loaded, which the disk cache,
        keyed by the files' digest, does not pin."""
        corpus = self.corpus()
        program = self.executed(program)
        if runs_here(program):
            return RUNS.get((program.digest, corpus.key, rule_implementations()),
                            lambda: run_here(program, corpus.documents, corpus.parameters))
        return RUNS.get((program.digest, corpus.key), lambda: stored_run(program, corpus.key) or store_run(
            program, corpus.key, run_program(program, corpus.documents, corpus.parameters)))

    def run_all(self, programs: list[Program]) -> None:
        """Run the programs neither run yet nor stored on disk over :meth:`corpus` at the same
        time (one process each), so that later :meth:`run` calls find them done; the package
        this process runs is left to :meth:`run`."""
        corpus = self.corpus()
        todo = {}
        for p in map(self.executed, programs):
            if (p.digest, corpus.key) in RUNS or runs_here(p):
                continue
            stored = stored_run(p, corpus.key)
            if stored is not None:
                RUNS.get((p.digest, corpus.key), lambda r=stored: r)
            else:
                todo[p.digest] = p
        if len(todo) < 2:
            return
        with ThreadPoolExecutor(max_workers=len(todo)) as pool:
            done = dict(zip(todo, pool.map(lambda p: run_program(p, corpus.documents, corpus.parameters),
                                           todo.values()),
                            strict=True))
        for digest_, result in done.items():
            RUNS.get((digest_, corpus.key), lambda r=result, p=todo[digest_]: store_run(p, corpus.key, r))

    @property
    def root(self) -> Path:
        """The repository root."""
        return self.repo.root

    def label(self, name: str) -> str:
        """Repository-relative folder of a version: ``spec`` or ``spec/releases/X.Y.Z``."""
        return "spec" if name == DRAFT else f"spec/releases/{name}"

    def version(self, name: str) -> SpecVersion:
        """The draft or a release, loaded once, labelled with its repository-relative folder."""
        key = ("version", name)
        if key not in self.cache:
            self.cache[key] = self.repo.version(name, label=self.label(name))
        return self.cache[key]

    def classify(self, old: SpecVersion, new: SpecVersion) -> Classification:
        """``compat.compare_versions(old, new)``, memoised by the two versions' names and labels.

        Raises:
            InputError: unreadable schemas in either version.
        """
        return self._memo(("classify", old.name, old.label, new.name, new.label),
                          lambda: compare_versions(old, new))

    def rfcs(self) -> list[Rfc]:
        """Every RFC of ``rfcs/`` (:class:`evalport_spec.rfc.Rfc`), loaded once.

        Raises:
            InputError: a malformed RFC file.
        """
        return self._memo("rfcs", lambda: load_rfcs(self.repo))

    def declared(self) -> str | None:
        """The draft's declared next version from ``spec/VERSION``."""
        return self.repo.declared_draft_version()
