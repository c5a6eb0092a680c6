"""Example documents on the site, every one validated while the site is built.

Two sources (issue: "an Examples section per document type"):

* the repository's example documents, ``spec/examples/*.json``. The draft shows all of them,
  validated with the draft's full validator (schema pass and cross-field rules), as the gate's
  ``examples`` stage does; a release shows the ones that name it (their ``version`` picks it,
  :func:`evalport_spec.validation.versions.choose_version`), validated with that release;
* the schemas' own ``examples`` annotations (JSON Schema 2020-12, section 9.5 of the validation
  vocabulary): each value is validated against the subschema that carries it (format asserted).

An invalid example stops the build (:class:`~evalport_spec.errors.InputError` naming the file
and the first violation): the site never shows a document its own version rejects.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jsonschema

from ..errors import InputError
from ..jsonload import load
from ..pointer import escape
from ..spec import DRAFT, SpecRepo, SpecVersion
from ..validation import Validator
from ..validation.versions import choose_version


@dataclass(frozen=True)
class Example:
    """One example document of a version.

    Attributes:
        name: file name (``multi-attempt-resultset.json``); doc_type: its document type.
        document: the parsed document; source: the file (repository path).
    """

    name: str
    doc_type: str
    document: Any
    source: Path

    @property
    def title(self) -> str:
        """A short human title: the document's ``name`` member, else its ``id`` or ``run_id``,
        else the file name."""
        doc = self.document if isinstance(self.document, dict) else {}
        for key in ("name", "id", "run_id"):
            if isinstance(doc.get(key), str) and doc[key].strip():
                return doc[key]
        return self.name

    def text(self) -> str:
        """The document as indented JSON."""
        return json.dumps(self.document, indent=2, ensure_ascii=False)


def _fail(label: str, version: str, violations: list[Any]) -> InputError:
    v = violations[0]
    more = f" (and {len(violations) - 1} more)" if len(violations) > 1 else ""
    return InputError(f"example is not valid under {version}: {v.code} at '{v.instance_path}': "
                      f"{v.message}{more}", label)


def version_examples(repo: SpecRepo, version: SpecVersion) -> list[Example]:
    """The repository examples shown in ``version`` (see the module docstring), by file name,
    each validated with the version's full validator.

    Raises:
        InputError: an example that is not strict JSON, of no known document type, or invalid
            under the version (first violation named).
    """
    folder = repo.spec_dir / "examples"
    if not folder.is_dir():
        return []
    releases, draft_version = repo.releases(), repo.declared_draft_version()
    validator: Validator | None = None
    out = []
    for path in sorted(folder.glob("*.json")):
        label = path.relative_to(repo.root).as_posix()
        doc = load(path, label=label, within=repo.root).value
        doc_type = Validator.detect_type(doc)
        if version.name != DRAFT and choose_version(doc, doc_type, releases, draft_version).name != version.name:
            continue
        validator = validator or Validator(version)
        violations = validator.validate(doc, doc_type)
        if violations:
            raise _fail(label, version.name, violations)
        out.append(Example(path.name, doc_type, doc, path))
    return out


_MAPS = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")
_DATA = ("const", "enum", "default", "examples")


def _annotated(node: Any, pointer: str, in_map: bool = False) -> Iterator[tuple[str, list[Any]]]:
    if isinstance(node, dict):
        for key, value in node.items():
            if not in_map and key == "examples" and isinstance(value, list):
                yield pointer, value
            if not in_map and key in _DATA:
                continue
            yield from _annotated(value, f"{pointer}/{escape(key)}", not in_map and key in _MAPS)
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _annotated(value, f"{pointer}/{i}")


def check_schema_examples(version: SpecVersion) -> int:
    """Validate every value of every ``examples`` annotation in the version's schemas against
    the subschema carrying it (format asserted, references resolved offline). Returns how many
    values were checked.

    Raises:
        InputError: a value its own subschema rejects (file, schema pointer and message).
    """
    schemas = version.schemas
    count = 0
    for sf in schemas:
        for pointer, values in _annotated(sf.schema, ""):
            ref = {"$ref": f"{sf.uri}#{pointer}"}
            check = jsonschema.Draft202012Validator(ref, registry=schemas.registry,
                                                    format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER)
            for i, value in enumerate(values):
                error = jsonschema.exceptions.best_match(check.iter_errors(value))
                if error is not None:
                    raise InputError(f"examples[{i}] at {pointer or '/'} is not valid against its own "
                                     f"subschema: {error.message}", version.path_label(f"schemas/{sf.name}"))
                count += 1
    return count
