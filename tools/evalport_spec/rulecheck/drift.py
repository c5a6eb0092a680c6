"""SPEC.md/schema drift, both directions (issue 4; toolchain.md, "Cross-field rules and their
documented gaps").

* Schema -> SPEC.md: every object schema with a ``title`` has ``### <title>`` under
  ``## Documents``, and each of its ``properties`` appears in backticks in the Field column of
  that section's table ``| Field | Type | Required | Description |``. An object schema that
  declares properties without a ``title`` (outside conditionals) gets a warning: it cannot be
  matched to a section.
* SPEC.md -> schema: every ``### X`` under ``## Documents`` is the title of an object schema;
  every backtick token of a Field cell is a property of an object titled ``X`` (a dotted token
  ``a.b`` needs each segment to be a property somewhere in the set); every other backtick token
  of those tables that looks like a name (identifier, or a quoted JSON string) is a known name:
  a property, an ``enum``/``const`` string or a ``pattern`` (``spec sync`` writes a field's
  pattern as a quoted string), a title, a JSON type, a ``format``, or a code.
  Every error code SPEC.md names in ``## Documents``, ``## Validation`` and
  ``## Cross-field rules`` (UPPER_SNAKE in backticks, a bare UPPER_SNAKE word with an
  underscore, or a cell of a ``Code`` column in ``## Validation``) is a catalogued rule code or
  a schema-pass error code (the keyword in UPPER_SNAKE,
  :func:`evalport_spec.validation.keyword_code`); every ``### X`` under ``## Cross-field rules``
  is a catalogued code.

* SPEC.md prose -> schema: in the sections that speak of documents (:data:`PROSE_SECTIONS`:
  ``## Terminology``, ``## Documents`` outside its field tables, ``## Grader types``,
  ``## Validation``, ``## Cross-field rules``, ``## Versioning and compatibility``,
  ``## Extension mechanism``), every backtick token that looks like a name is a known name as
  above, a catalogued rule's parameter (``tolerance``), a JSON Schema keyword, or the name of a
  schema file of the version (``spec-name-unknown``, ``spec-value-unknown``). Before session 37 only the tables were read, and a mutation sweep of
  SPEC.md left prose naming ``run_idx``, ``versionx`` or a grader's ``substringx`` unreported:
  a reader following the prose writes a member no schema has.

Only those places are read, to keep false positives out (the Changelog and Conformance
sections name fixture members and history). Tokens named by an allow-list comment
``<!-- rulecheck: allow `token` ... -->`` in SPEC.md, or in :data:`ALLOWED`, are never reported.
"""

from __future__ import annotations

import re

from .. import specmd
from ..findings import Finding, Severity
from ..schemawalk import subschemas, titled_objects, untitled_objects
from .context import RuleContext

ALLOWED: frozenset[str] = frozenset({"true", "false", "null"})
"""Tokens never reported (JSON literals). Extend per document with a ``rulecheck: allow`` comment."""

JSON_TYPES = frozenset({"string", "number", "integer", "boolean", "object", "array", "null"})

PROSE_SECTIONS = ("Terminology", "Documents", "Grader types", "Validation", "Cross-field rules",
                  "Versioning and compatibility", "Extension mechanism")
"""The H2 sections of SPEC.md whose prose names members, values and keywords of the schemas."""

SCHEMA_KEYWORDS = frozenset({"then", "else", "title", "description", "default", "examples", "deprecated",
                             "readOnly", "writeOnly", "contentMediaType", "contentEncoding", "contentSchema"})
"""JSON Schema 2020-12 keywords that assert nothing on their own (annotations, and the branches
of ``if``), which python-jsonschema's validator table leaves out; with that table's keys, the
keywords prose may name."""

_UPPER_SNAKE = re.compile(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|[A-Z]{2,}[0-9]*")
_BARE_CODE = re.compile(r"(?<![\w$.-])[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+(?![\w-])")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_$][A-Za-z0-9_]*)*")
_QUOTED = re.compile(r'"([^"\\]*)"')


def _keyword_codes() -> set[str]:
    import jsonschema

    from ..validation import VALIDATOR_CODES, keyword_code

    keywords = set(jsonschema.Draft202012Validator.VALIDATORS) | {"false"}
    return {keyword_code(k) for k in keywords} | {"FALSE_SCHEMA"} | VALIDATOR_CODES


def _schema_names(ctx: RuleContext) -> tuple[set[str], set[str], set[str]]:
    """(property names, ``enum``/``const``/``examples`` string values and ``pattern`` strings,
    ``format`` names) over the whole set."""
    props: set[str] = set()
    values: set[str] = set()
    formats: set[str] = set()
    for f in ctx.spec.schemas:
        for _, node in subschemas(f.schema):
            p = node.get("properties")
            if isinstance(p, dict):
                props.update(p)
            for key in ("enum", "examples"):
                for v in node.get(key, []) if isinstance(node.get(key), list) else []:
                    if isinstance(v, str):
                        values.add(v)
            if isinstance(node.get("const"), str):
                values.add(node["const"])
            if isinstance(node.get("pattern"), str):  # `spec sync` writes a field's pattern quoted
                values.add(node["pattern"])
            if isinstance(node.get("format"), str):
                formats.add(node["format"])
    return props, values, formats


def check_drift(ctx: RuleContext) -> list[Finding]:
    """Both directions of SPEC.md/schema drift for the context's version (see module docstring).

    Returns:
        Error findings, schema side first (by file and position), then SPEC.md (by line).
    """
    md = ctx.markdown
    md_file = ctx.spec_md_file
    allowed = set(ALLOWED) | md.allowed
    objects = titled_objects(ctx.spec.schemas)
    by_title: dict[str, set[str]] = {}
    for o in objects:
        by_title.setdefault(o.title, set()).update(o.properties)
    sections = {h.text: h for h in md.subsections(specmd.DOCUMENTS_SECTION)}
    documented: dict[str, set[str]] = {}
    doc_tables: dict[str, list[specmd.Table]] = {}
    for title, h in sections.items():
        tabs = [t for t in md.tables(h) if t.column("Field") is not None]
        doc_tables[title] = tabs
        names: set[str] = set()
        for t in tabs:
            col = t.column("Field")
            for row in t.rows:
                if col is not None and col < len(row.cells):
                    names.update(specmd.ticks(row.cells[col]))
        documented[title] = names

    out: list[Finding] = []
    documents = md.section(specmd.DOCUMENTS_SECTION)
    # schema -> SPEC.md
    reported_objects: set[str] = set()
    for o in objects:
        if o.title not in sections:
            if o.title in reported_objects:
                continue
            reported_objects.add(o.title)
            out.append(ctx.finding(
                "spec-object-undocumented",
                f"object schema titled '{o.title}' is not described in SPEC.md (no '### {o.title}' "
                f"under '## {specmd.DOCUMENTS_SECTION}')",
                file=o.source, line=o.line, pointer=o.pointer))
            continue
        loaded = ctx.spec.schemas.files[o.file].loaded
        for name in o.properties:
            if name not in documented[o.title]:
                ptr = f"{o.pointer}/properties/{name.replace('~', '~0').replace('/', '~1')}"
                out.append(ctx.finding(
                    "spec-field-undocumented",
                    f"property `{name}` of {o.title} is not described in SPEC.md (not in the "
                    f"Field column of the table under '### {o.title}')",
                    file=o.source, line=loaded.line(ptr), pointer=ptr))
    for o in untitled_objects(ctx.spec.schemas):
        out.append(ctx.finding(
            "spec-object-untitled",
            f"object schema at {o.file}#{o.pointer or '/'} declares properties ("
            + ", ".join(f"`{p}`" for p in o.properties) + ") but has no title, so SPEC.md "
            "cannot describe it under '### <title>'; give it a title",
            file=o.source, line=o.line, pointer=o.pointer, severity=Severity.WARNING))
    if documents is None and objects:
        out.append(ctx.finding("spec-object-undocumented",
                               f"SPEC.md has no '## {specmd.DOCUMENTS_SECTION}' section",
                               file=md_file, line=None))

    # SPEC.md -> schema
    props, values, formats = _schema_names(ctx)
    codes = set(ctx.catalogue.codes())
    code_ok = codes | _keyword_codes()
    known = props | values | formats | set(by_title) | JSON_TYPES | codes
    md_findings: list[Finding] = []
    for title, h in sections.items():
        if title not in by_title:
            md_findings.append(ctx.finding(
                "spec-object-unknown",
                f"SPEC.md documents '{title}' but no object schema has that title",
                file=md_file, line=h.line))
            continue
        for t in doc_tables[title]:
            col = t.column("Field")
            for row in t.rows:
                for i, cell in enumerate(row.cells):
                    for tok in specmd.ticks(cell):
                        if tok in allowed:
                            continue
                        if i == col:
                            if not _field_known(tok, by_title[title], props):
                                md_findings.append(ctx.finding(
                                    "spec-field-unknown",
                                    f"SPEC.md names field `{tok}` of {title}, which the schemas "
                                    f"do not have",
                                    file=md_file, line=row.line))
                            continue
                        md_findings += _other_token(ctx, tok, known, row.line)
    md_findings += _codes(ctx, code_ok, allowed)
    md_findings += _prose(ctx, known, allowed)
    for h in md.subsections(specmd.RULES_SECTION):
        if h.text not in codes and h.text not in allowed:
            md_findings.append(ctx.finding(
                "spec-code-unknown",
                f"SPEC.md states a rule '### {h.text}' that the catalogue does not have",
                code=h.text, file=md_file, line=h.line))
    md_findings.sort(key=lambda f: (f.new.line or 0) if f.new else 0)
    return out + md_findings


def _codes(ctx: RuleContext, code_ok: set[str], allowed: set[str]) -> list[Finding]:
    """Error codes SPEC.md names in ``## Documents``, ``## Validation`` and ``## Cross-field
    rules``: UPPER_SNAKE backtick tokens, bare UPPER_SNAKE words with an underscore, and every
    cell of a ``Code`` column of a table in ``## Validation``."""
    md = ctx.markdown
    lines: dict[int, str] = {}
    for title in (specmd.DOCUMENTS_SECTION, specmd.VALIDATION_SECTION, specmd.RULES_SECTION):
        h = md.section(title)
        if h is not None:
            lines.update(md.body(h))
    named: list[tuple[int, str]] = []
    for no in sorted(lines):
        text = lines[no]
        named += [(no, t) for t in specmd.ticks(text) if _UPPER_SNAKE.fullmatch(t)]
        bare = re.sub(r"`[^`\n]*`", " ", text)
        named += [(no, t) for t in _BARE_CODE.findall(bare)]
    validation = md.section(specmd.VALIDATION_SECTION)
    for t in md.tables(validation) if validation else []:
        col = t.column("Code")
        for row in t.rows if col is not None else []:
            if col < len(row.cells) and row.cells[col]:
                named.append((row.line, row.cells[col].strip("` ")))
    out: list[Finding] = []
    seen: set[tuple[int, str]] = set()
    for no, tok in named:
        if tok in code_ok or tok in allowed or (no, tok) in seen:
            continue
        seen.add((no, tok))
        out.append(ctx.finding(
            "spec-code-unknown",
            f"SPEC.md names error code `{tok}`, which neither the catalogue nor the schema pass has",
            code=tok, file=ctx.spec_md_file, line=no))
    return out


def _prose(ctx: RuleContext, known: set[str], allowed: set[str]) -> list[Finding]:
    """Backtick tokens of the prose of :data:`PROSE_SECTIONS` (the field tables of
    ``## Documents`` excepted: :func:`check_drift` reads those) that name nothing known."""
    import jsonschema

    md = ctx.markdown
    files = {f.name for f in ctx.spec.schemas} | {"rules.json"}
    params = {p.name for e in ctx.catalogue.rules for p in e.parameters}
    words = known | params | set(jsonschema.Draft202012Validator.VALIDATORS) | SCHEMA_KEYWORDS
    tables = {row.line for h in [md.section(specmd.DOCUMENTS_SECTION)] if h is not None
              for t in md.tables(h) if t.column("Field") is not None for row in t.rows}
    out: list[Finding] = []
    for title in PROSE_SECTIONS:
        h = md.section(title)
        for no, text in md.body(h) if h is not None else []:
            if no in tables:
                continue
            for tok in dict.fromkeys(specmd.ticks(text)):
                if tok not in allowed and tok not in files:
                    out += _other_token(ctx, tok, words, no)
    return out


def _field_known(token: str, own: set[str], props: set[str]) -> bool:
    if token in own:
        return True
    if "." in token:
        first, *rest = token.split(".")
        return first in own and all(seg in props for seg in rest)
    return False


def _other_token(ctx: RuleContext, tok: str, known: set[str], line: int) -> list[Finding]:
    """A non-Field backtick token of a Documents table: report it if it names nothing known."""
    if _UPPER_SNAKE.fullmatch(tok):
        return []  # codes are checked by _codes
    quoted = _QUOTED.fullmatch(tok)
    if quoted:
        if quoted.group(1) in known:
            return []
        return [ctx.finding("spec-value-unknown",
                            f"SPEC.md names value `{tok}`, which no enum or const of the schemas "
                            f"has", file=ctx.spec_md_file, line=line)]
    if _NAME.fullmatch(tok):
        segs = tok.split(".")
        if all(s in known for s in segs):
            return []
        return [ctx.finding("spec-name-unknown",
                            f"SPEC.md names `{tok}`, which is no field, enum value, type or code "
                            f"of the schemas and catalogue", file=ctx.spec_md_file, line=line)]
    return []

