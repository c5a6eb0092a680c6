"""The spec model: one object per spec version that every engine takes.

A repository (:class:`SpecRepo`) holds the working draft in ``spec/`` and frozen releases in
``spec/releases/<version>/``. Each version folder has the same layout::

    SPEC.md          normative text
    rules.json       rule catalogue (see :mod:`evalport_spec.catalogue`)
    schemas/*.json   JSON Schemas (2020-12), cross-referenced by $id
    conformance/     fixture.schema.json and fixtures/*.json (a release: the fixtures frozen
                     for it; the draft: every fixture, each with its since/until)

A :class:`SpecVersion` can be read from such a folder or from a git revision
(:mod:`evalport_spec.gitsource`), so engines never touch files themselves.
"""

from __future__ import annotations

import codecs
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from .catalogue import Catalogue, parse_catalogue
from .errors import InputError
from .fixtures import META_SCHEMA_NAME, Fixture, parse_fixtures
from .fsutil import read_optional
from .jsonload import MAX_BYTES, Loaded, load, loads
from .names import DOC_TYPES, DRAFT  # noqa: F401 - re-exported for the engines
from .repoloc import find_repo_root
from .semver import SEMVER, parse_semver  # noqa: F401 - SEMVER re-exported for callers of spec

if TYPE_CHECKING:  # imported lazily: jsonschema costs ~130 ms and `--help` needs none of it
    from .schemaset import SchemaSet


SCHEMA_FILE = {t: f"{t}.json" for t in DOC_TYPES}

FIXTURES_DIR = "conformance"
"""Folder of a version holding the fixture meta-schema and ``fixtures/*.json``."""


def detect_type(value: object) -> str | None:
    """The EvalPort document type of a parsed document from its members, or ``None``.

    Checked in this order, each by the required members of the type (SPEC.md, "Documents"):
    ``test_cases`` -> ``suite``; ``results`` -> ``resultset``; ``input`` and ``graders`` ->
    ``testcase``; ``id`` and ``type`` -> ``grader``.
    """
    if not isinstance(value, dict):
        return None
    if "test_cases" in value:
        return "suite"
    if "results" in value:
        return "resultset"
    if "input" in value and "graders" in value:
        return "testcase"
    if "id" in value and "type" in value:
        return "grader"
    return None


def display_path(path: Path | str) -> str:
    """``path`` relative to the working directory when it lies inside it, else absolute: the
    form ruff and check-jsonschema print, so ``file:line`` is clickable where the tool ran."""
    p = Path(path).absolute()
    try:
        return str(p.relative_to(Path.cwd())) or "."
    except ValueError:
        return str(p)


# A reader maps a path relative to the version folder to its bytes (None when absent).
Reader = Callable[[str], "bytes | None"]
Lister = Callable[[str], "list[str]"]


@dataclass
class SpecVersion:
    """One version of the spec: the draft, a release, or a git revision of either.

    Attributes:
        name: ``"draft"``, a release version such as ``"1.2.0"``, or ``"REF:spec"`` for git.
        label: prefix used in messages for files of this version (a folder path or ``REF:path``).
        root: the folder on disk, or ``None`` when read from git.
        sources: what messages call a file, by path relative to the version, where that is not
            ``label/path`` (a version built in memory, :func:`versions_from_mapping`).
    """

    name: str
    label: str
    root: Path | None
    _read: Reader = field(repr=False)
    _list: Lister = field(repr=False)
    sources: Mapping[str, str] = field(default_factory=dict, repr=False)

    @classmethod
    def from_dir(cls, name: str, root: Path, *, within: Path | None = None,
                 label: str | None = None) -> SpecVersion:
        """A version read from a folder on disk.

        ``label`` prefixes file names in messages (default: :func:`display_path` of ``root``).

        Files are read with the loader's size limit (:data:`~evalport_spec.jsonload.MAX_BYTES`)
        and must resolve inside ``within`` (default: ``root``): a symlink leaving it is refused.

        Raises:
            InputError: no ``schemas/`` inside; later, on reading, a file too large or a
                symlink that leaves ``within``.
        """
        root = Path(root)
        if not (root / "schemas").is_dir():
            raise InputError("not a spec version folder (no schemas/ inside)", str(root))
        fence = Path(within) if within is not None else root
        label = label if label is not None else display_path(root)

        def read(rel: str) -> bytes | None:
            return read_optional(root / rel, max_bytes=MAX_BYTES, label=f"{label}/{rel}", within=fence)

        def lst(rel: str) -> list[str]:  # every entry but folders: a FIFO is listed, then refused
            p = root / rel
            return sorted(x.name for x in p.iterdir() if not x.is_dir()) if p.is_dir() else []

        return cls(name, label, root, read, lst)

    def _load(self, rel: str) -> Loaded | None:
        data = self._read(rel)
        if data is None:
            return None
        return loads(data, self.path_label(rel))

    def read(self, rel: str) -> bytes | None:
        """The bytes of ``rel`` inside this version (``None`` when absent), read with the
        version's limits (size, symlink fence)."""
        return self._read(rel)

    def path_label(self, rel: str) -> str:
        """The label used in messages for ``rel`` inside this version."""
        return self.sources.get(rel, f"{self.label}/{rel}")

    @cached_property
    def schema_bytes(self) -> dict[str, bytes]:
        """``{file name: bytes}`` of every ``schemas/*.json``, read once: what :attr:`schemas`
        parses and :func:`~evalport_spec.cache.version_digest` hashes, so the two never see two
        states of a file. Raises :class:`InputError` on a file that cannot be read."""
        out = {}
        for name in self._list("schemas"):
            if name.endswith(".json"):
                data = self._read(f"schemas/{name}")
                assert data is not None
                out[name] = data
        return out

    @cached_property
    def catalogue_bytes(self) -> bytes | None:
        """The bytes of ``rules.json`` (``None`` when absent), read once: what :attr:`catalogue`
        parses and :func:`~evalport_spec.cache.version_digest` hashes. Raises
        :class:`InputError` on a file that cannot be read."""
        return self._read("rules.json")

    @cached_property
    def schemas(self) -> SchemaSet:
        """All ``schemas/*.json`` of this version. Raises :class:`InputError` on bad files."""
        loaded = {name: loads(data, self.path_label(f"schemas/{name}")) for name, data in self.schema_bytes.items()}
        if not loaded:
            raise InputError("no schemas in version", self.path_label("schemas"))
        from .schemaset import SchemaSet
        return SchemaSet.from_loaded(loaded, self.path_label("schemas"))

    @cached_property
    def catalogue(self) -> Catalogue:
        """The rule catalogue (an empty one if ``rules.json`` is absent)."""
        data = self.catalogue_bytes
        if data is None:
            return Catalogue([], self.path_label("rules.json"))
        return parse_catalogue(loads(data, self.path_label("rules.json")))

    @cached_property
    def spec_md(self) -> str:
        """SPEC.md text ('' if absent)."""
        data = self._read("SPEC.md")
        return data.decode("utf-8", "replace") if data is not None else ""

    @cached_property
    def semver(self) -> str | None:
        """The version's semver: a release's name, else the ``VERSION`` file in the version
        folder (the draft declares the version it will be released as), else ``None``."""
        try:
            parse_semver(self.name)
            return self.name
        except ValueError:
            pass
        data = self._read("VERSION")
        text = data.decode("utf-8", "replace").strip() if data is not None else ""
        try:
            parse_semver(text)
        except ValueError:
            return None
        return text

    @cached_property
    def stored_fixtures(self) -> list[Fixture]:
        """Every conformance fixture stored in ``conformance/fixtures/*.json`` (by file name),
        validated against ``conformance/fixture.schema.json`` (:mod:`evalport_spec.fixtures`).
        A release holds the fixtures frozen for it; the draft holds every fixture, retired ones
        (``until`` reached) included. Empty when the folder is absent.

        Raises:
            InputError: a malformed fixture, or fixtures without the meta-schema.
        """
        names = [n for n in self._list(f"{FIXTURES_DIR}/fixtures") if n.endswith(".json")]
        if not names:
            return []
        meta = self._load(f"{FIXTURES_DIR}/{META_SCHEMA_NAME}")
        if meta is None:
            raise InputError(f"fixtures without their meta-schema {FIXTURES_DIR}/{META_SCHEMA_NAME}",
                             self.path_label(FIXTURES_DIR))
        files = []
        for n in names:
            doc = self._load(f"{FIXTURES_DIR}/fixtures/{n}")
            assert doc is not None
            files.append((n[:-len(".json")], doc))
        return parse_fixtures(files, meta.value, meta.source)

    @property
    def fixtures(self) -> list[Fixture]:
        """The fixtures of this version: the stored ones that apply to :attr:`semver`
        (``since <= semver < until``; all when the version has no semver). For a release this is
        its frozen set, which its validator must agree with (SPEC.md, "Conformance").

        Raises:
            InputError: as :attr:`stored_fixtures`.
        """
        return [fx for fx in self.stored_fixtures if fx.applies_to(self.semver)]

    def schema_name(self, doc_type: str) -> str:
        """Schema file name for a document type. Raises :class:`InputError` for unknown types."""
        if doc_type not in SCHEMA_FILE:
            raise InputError(f"unknown document type {doc_type!r} (expected one of {', '.join(DOC_TYPES)})")
        name = SCHEMA_FILE[doc_type]
        if name not in self.schemas.files:
            raise InputError(f"version {self.name} has no schema for {doc_type!r}",
                             self.path_label(f"schemas/{name}"))
        return name


@dataclass
class SpecRepo:
    """A spec repository: the draft in ``spec/``, releases in ``spec/releases/<version>/``.

    Attributes:
        root: repository root (the folder holding ``spec/``), made absolute (against the
            working directory at construction) so a later change of directory cannot move it.
    """

    root: Path

    def __post_init__(self) -> None:
        self.root = Path(self.root).absolute()

    @classmethod
    def discover(cls, start: Path | None = None) -> SpecRepo:
        """Find the repository containing ``start`` (default: the working directory).

        Raises:
            InputError: no ``spec/schemas`` folder in ``start`` or any parent.
        """
        here = Path(start or Path.cwd()).resolve()
        root = find_repo_root(here)
        if root is not None:
            return cls(root)
        raise InputError("not inside an EvalPort spec repository (no spec/schemas/ here or above)", str(here))

    @property
    def spec_dir(self) -> Path:
        """``<root>/spec``."""
        return self.root / "spec"

    @property
    def releases_dir(self) -> Path:
        """``<root>/spec/releases``."""
        return self.spec_dir / "releases"

    @property
    def manifest_path(self) -> Path:
        """The digest manifest of released files, ``spec/releases/SHA256SUMS`` (sha256sum format)."""
        return self.releases_dir / "SHA256SUMS"

    def releases(self) -> list[str]:
        """Released versions, oldest first (semver order)."""
        if not self.releases_dir.is_dir():
            return []
        out = []
        for p in self.releases_dir.iterdir():
            if p.is_dir():
                try:
                    parse_semver(p.name)
                except ValueError:
                    continue
                out.append(p.name)
        return sorted(out, key=parse_semver)

    def latest_release(self) -> str | None:
        """The newest release, or ``None`` if there is none."""
        rel = self.releases()
        return rel[-1] if rel else None

    def declared_draft_version(self) -> str | None:
        """The version the draft declares it will be released as (``spec/VERSION``, stripped),
        or ``None`` when there is no such file. Whether it is a valid version is each caller's
        question (the draft stage and ``release`` say so in their own words).

        Raises:
            InputError: the file is unreadable or too large, or starts with a UTF-8 byte order
                mark (``spec/VERSION:1:1``): an invisible U+FEFF otherwise ends up inside every
                message that quotes the version (``Release \ufeff1.4.0 instead``) and in the
                ``since`` an RFC proposal writes into its fixtures.
        """
        data = read_optional(self.spec_dir / "VERSION", max_bytes=1024, label="spec/VERSION",
                             within=self.root)
        if data is None:
            return None
        if data.startswith(codecs.BOM_UTF8):
            raise InputError("starts with a UTF-8 byte order mark (U+FEFF, invisible in most editors): save "
                             "the file as UTF-8 without a BOM, the version alone (e.g. 1.4.0)", "spec/VERSION", 1, 1)
        return data.decode("utf-8", "replace").strip()

    def version(self, name: str, *, label: str | None = None) -> SpecVersion:
        """Load ``"draft"`` or a released version; ``label`` names its folder in messages
        (default: the folder as the working directory sees it, :func:`display_path`).

        Raises:
            InputError: an unknown version (the message lists the known ones).
        """
        if name == DRAFT:
            return SpecVersion.from_dir(DRAFT, self.spec_dir, within=self.root, label=label)
        if name in self.releases():
            return SpecVersion.from_dir(name, self.releases_dir / name, within=self.root, label=label)
        known = ", ".join(self.releases() + [DRAFT])
        raise InputError(f"unknown spec version {name!r} (known: {known})")

    def all_versions(self) -> list[str]:
        """Every release, oldest first, then ``"draft"``."""
        return self.releases() + [DRAFT]


def load_json_file(path: Path | str) -> Loaded:
    """Convenience re-export of :func:`evalport_spec.jsonload.load`."""
    return load(path)


def versions_from_mapping(name: str, files: Mapping[str, bytes], label: str,
                          sources: Mapping[str, str] | None = None) -> SpecVersion:
    """A version from an in-memory mapping ``{relative path: bytes}`` (used for RFC proposals
    and git revisions). Messages name a file ``label/path``, or ``sources[path]`` when given
    (the real file a proposal's unchanged schema comes from)."""

    def read(rel: str) -> bytes | None:
        return files.get(rel)

    def lst(rel: str) -> list[str]:
        prefix = rel.rstrip("/") + "/"
        return sorted(k[len(prefix):] for k in files if k.startswith(prefix) and "/" not in k[len(prefix):])

    return SpecVersion(name, label, None, read, lst, dict(sources or {}))
