"""The repository's own EvalPort documents, by document type.

Two sources (architecture.md, "Repository layout"):

* ``spec/examples/*.json``: realistic documents; the type is detected from the members
  (:func:`detect_type`);
* ``spec/conformance/fixtures/*.json``: the ``document`` member of each fixture, typed by the
  fixture's ``document_type``.

The compatibility classifier adds every one of them to its counter-example search
(toolchain.md, "Prove it"). Missing folders give empty lists; a file that is not strict JSON
is an :class:`~evalport_spec.errors.InputError`.
"""

from __future__ import annotations

from pathlib import Path

from .jsonload import Loaded, load
from .spec import DOC_TYPES, SpecRepo, detect_type


class EmbeddedLoaded(Loaded):
    """A document embedded in a larger JSON file (a fixture's ``document`` member).

    ``value`` is the embedded document; ``source`` and ``text`` are the enclosing file's, and
    :meth:`position` maps a JSON Pointer into the document to its line and column in that file
    by prefixing ``prefix`` (e.g. ``"/document"``).
    """

    __slots__ = ("prefix",)

    def __init__(self, value: object, source: str, text: str | None = None, *,
                 prefix: str = "") -> None:
        super().__init__(value, source, text)
        self.prefix = prefix

    def position(self, pointer: str) -> tuple[int, int] | None:
        """``(line, column)`` in the enclosing file of the value at ``pointer`` in the document."""
        return super().position(self.prefix + pointer)


def _json_files(folder: Path) -> list[Path]:
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir() if p.is_file() and p.suffix == ".json")


def example_documents(spec_dir: Path) -> dict[str, list[Loaded]]:
    """``spec/examples/*.json`` by detected type (files of no detectable type are left out).

    Raises:
        InputError: a file that is not strict JSON.
    """
    out: dict[str, list[Loaded]] = {t: [] for t in DOC_TYPES}
    for path in _json_files(Path(spec_dir) / "examples"):
        doc = load(path)
        kind = detect_type(doc.value)
        if kind is not None:
            out[kind].append(doc)
    return out


def fixture_documents(spec_dir: Path) -> dict[str, list[Loaded]]:
    """The ``document`` of each ``spec/conformance/fixtures/*.json``, keyed by its
    ``document_type``. Fixtures without a ``document`` or with an unknown type are left out
    (checking the fixture format is the conformance runner's job).

    Raises:
        InputError: a file that is not strict JSON.
    """
    out: dict[str, list[Loaded]] = {t: [] for t in DOC_TYPES}
    for path in _json_files(Path(spec_dir) / "conformance" / "fixtures"):
        fx = load(path)
        value = fx.value
        if not isinstance(value, dict) or "document" not in value:
            continue
        kind = value.get("document_type")
        if kind not in out:
            continue
        out[kind].append(EmbeddedLoaded(value["document"], fx.source, fx.text, prefix="/document"))
    return out


def repo_documents(repo: SpecRepo) -> dict[str, list[Loaded]]:
    """Every example and fixture document of the repository's draft, by document type.

    Returns ``{"suite": [...], "testcase": [...], "grader": [...], "resultset": [...]}`` (every
    type present, examples first, then fixtures, each in file-name order).

    Raises:
        InputError: a file that is not strict JSON.
    """
    out = example_documents(repo.spec_dir)
    for kind, docs in fixture_documents(repo.spec_dir).items():
        out[kind].extend(docs)
    return out
