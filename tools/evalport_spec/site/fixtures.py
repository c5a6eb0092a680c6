"""A version's conformance fixtures on the site: the page, the files and two bundles.

What a version's implementers must pass is its own fixture set (toolchain.md, "Versions and
releases": fixtures are versioned like the schemas; SPEC.md "Conformance"). The page lists each
fixture with the versions it applies to (``since``, and ``until`` when a later change ends it),
the outcome of both validation paths and the exact ``(code, instance path)`` pairs a rejection
must report; the version's fixture meta-schema is linked and every fixture is downloadable one by
one and as a bundle:

``conformance/fixture.schema.json``                 the meta-schema of the fixture format
``conformance/fixtures/<id>.json``                  each fixture file, byte for byte
``conformance/evalport-<version>-fixtures.zip``     meta-schema + fixtures, the release layout
``conformance/evalport-<version>-fixtures.json``    ``{"spec_version", "meta_schema", "fixtures"}``

Both bundles are byte-identical from one build to the next (fixed zip timestamps, sorted
entries), so republishing an unchanged version changes nothing.
"""

from __future__ import annotations

import io
import json
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..fixtures import META_SCHEMA_NAME, Fixture
from ..spec import FIXTURES_DIR
from .history import VersionSet
from .mdtext import pointer_html

ZIP_TIME = (1980, 1, 1, 0, 0, 0)
"""Timestamp of every zip entry (the earliest a zip can hold): bundles do not depend on the day."""


@dataclass
class VersionFixtures:
    """The conformance fixtures of one version.

    Attributes:
        folder: the folder holding ``fixture.schema.json`` and ``fixtures/<id>.json``.
        fixtures: the fixtures that apply to the version, by id.
    """

    folder: Path
    fixtures: list[Fixture]

    @property
    def meta_schema(self) -> Path:
        """The fixture meta-schema file."""
        return self.folder / META_SCHEMA_NAME

    def file(self, fx: Fixture) -> Path:
        """The file fixture ``fx`` was read from (file stem == id)."""
        return self.folder / "fixtures" / f"{fx.id}.json"


def version_fixtures(vs: VersionSet, name: str) -> VersionFixtures:
    """The fixtures of version ``name`` (:attr:`evalport_spec.spec.SpecVersion.fixtures`): a
    release's frozen set, or the draft's fixtures that apply to its declared version, in
    file-name order, with the folder they are stored in.

    Raises:
        InputError: a fixture file that is not strict JSON or breaks the meta-schema.
    """
    version = vs.version(name)
    folder = (Path(version.root) if version.root else vs.repo.spec_dir) / FIXTURES_DIR
    return VersionFixtures(folder, version.fixtures)


def bundle_name(version: str, suffix: str) -> str:
    """``evalport-<version>-fixtures.<suffix>``."""
    return f"evalport-{version}-fixtures.{suffix}"


def zip_bundle(version: str, meta: bytes, files: list[tuple[str, bytes]]) -> bytes:
    """A zip of the release layout ``evalport-<version>-conformance/fixture.schema.json`` and
    ``.../fixtures/<name>`` for each ``(name, bytes)`` of ``files`` (sorted by name), with
    :data:`ZIP_TIME` on every entry, so equal input gives equal bytes."""
    top = f"evalport-{version}-conformance"
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in [(META_SCHEMA_NAME, meta)] + [(f"fixtures/{n}", d) for n, d in sorted(files)]:
            info = zipfile.ZipInfo(f"{top}/{name}", date_time=ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            z.writestr(info, data)
    return buf.getvalue()


def json_bundle(version: str, meta_url: str, fixtures: list[Any]) -> str:
    """``{"spec_version": version, "meta_schema": meta_url, "fixtures": [...]}`` (each fixture
    as its file holds it), indented, with a final newline."""
    return json.dumps({"spec_version": version, "meta_schema": meta_url, "fixtures": fixtures},
                      indent=2, ensure_ascii=False) + "\n"


def _valid(outcome: Any) -> str:
    return "valid" if outcome.valid else "invalid"


def _errors_html(fx: Fixture) -> str:
    pairs = sorted(fx.full.errors or ())
    return "<br>".join(f"<code>{c}</code> at {pointer_html(p) if p else '(root)'}" for c, p in pairs) or "none"


def fixtures_page(version: str, label: str, vf: VersionFixtures, doc_pages: set[str],
                  rule_anchors: set[str], meta_url: str) -> str:
    """The Markdown of ``fixtures.md`` (see the module docstring).

    Args:
        version: the version name; label: how the page names it (``release 1.3.0``).
        vf: the version's fixtures; doc_pages: document types with a schema page.
        rule_anchors: ids on ``rules.md`` (a code links to its rule when present).
        meta_url: the meta-schema's ``$id`` (or its URL on the site).
    """
    lines = [f"# Conformance fixtures of {label}", ""]
    if not vf.fixtures:
        return "\n".join(lines + [f"No conformance fixture applies to {label}.", ""])
    types: dict[str, int] = {}
    for fx in vf.fixtures:
        types[fx.document_type] = types.get(fx.document_type, 0) + 1
    n = len(vf.fixtures)
    ends = any(fx.until for fx in vf.fixtures)  # the until column only when some fixture ends
    lines += [f"{n} {'fixture applies' if n == 1 else 'fixtures apply'} to {label} ("
              + ", ".join(f"{n} {t}" for t, n in sorted(types.items())) + "). A validator that claims "
              "conformance to this version must agree with every one of them.", "",
              "Each fixture gives a document and the outcome both validation paths must produce: the raw "
              "JSON Schema alone (*schema*) and the schema plus every cross-field rule (*full*), with the "
              "exact codes and instance paths of a rejection (*expected errors*: each code at its "
              "instance path). *Since* is the first version a fixture "
              "applies to; *until*, when present, the first version it no longer applies to.", "",
              "## Downloads {#downloads}", "",
              f"- Every fixture of {label}: [`{bundle_name(version, 'zip')}`](conformance/{bundle_name(version, 'zip')}) "
              "(the meta-schema and one file per fixture) or "
              f"[`{bundle_name(version, 'json')}`](conformance/{bundle_name(version, 'json')}) "
              "(one JSON document: `spec_version`, `meta_schema`, `fixtures`)",
              f"- The fixture format: [`fixture.schema.json`](conformance/{META_SCHEMA_NAME}) "
              f"(JSON Schema 2020-12, `$id` `{meta_url}`)", "",
              "## All fixtures {#all-fixtures}", "",
              "| id | document | since | " + ("until | " if ends else "")
              + "schema / full | expected errors |",
              "| --- | --- | --- | " + ("--- | " if ends else "") + "--- | --- |"]
    for fx in vf.fixtures:
        lines.append(f"| [`{fx.id}`](#{fx.id}) | {fx.document_type} | {fx.since or 'any'} | "
                     + (f"{fx.until or ''} | " if ends else "")
                     + f"{_valid(fx.schema)} / {_valid(fx.full)} | {_errors_html(fx)} |")
    lines.append("")
    for fx in vf.fixtures:
        dt = fx.document_type
        until = fx.until
        lines += [f"## `{fx.id}` {{#{fx.id}}}", "", fx.description, "",
                  f"- Document type: [{dt}](schemas/{dt}.md)" if dt in doc_pages else f"- Document type: {dt}",
                  f"- Applies from {fx.since or 'every version'}" + (f" until {until} (not included)" if until
                                                                     else " on"),
                  f"- Schema only: {_valid(fx.schema)}",
                  f"- Full validator: {_valid(fx.full)}"]
        for c, p in sorted(fx.full.errors or ()):
            code = f"[`{c}`](rules.md#{c.lower()})" if c.lower() in rule_anchors else f"`{c}`"
            lines.append(f"    - {code} at `{p or '/'}`" + (" (the document root)" if not p else ""))
        if fx.rules:
            lines.append("- Rules exercised: " + ", ".join(
                f"[`{r}`](rules.md#{r.lower()})" if r.lower() in rule_anchors else f"`{r}`" for r in fx.rules))
        lines += [f"- File: [`{fx.id}.json`](conformance/fixtures/{fx.id}.json)", "",
                  '??? example "Document"', "", "    ```json"]
        lines += ["    " + ln for ln in json.dumps(fx.document, indent=2, ensure_ascii=False).split("\n")]
        lines += ["    ```", ""]
    return "\n".join(lines)
