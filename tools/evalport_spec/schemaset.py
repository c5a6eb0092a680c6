"""A set of JSON Schemas that reference each other by ``$id``, resolved offline.

Every schema of a spec version is registered under its ``$id`` in a
:class:`referencing.Registry`; a ``$ref`` to another file of the set resolves through that
registry, and anything else (a remote URL, a missing file, a ``file:`` URL) is an error, never a
download (toolchain.md, "Resolve $ref ... never fetch anything over the network").
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from functools import cache
from typing import TYPE_CHECKING, Any
from urllib.parse import urldefrag, urljoin, urlsplit

from .ecmaregex import NotEcmaRegex, compile_ecma
from .errors import InputError
from .jsonload import Loaded
from .jsontypes import json_type
from .pointer import escape, join
from .record import Record

if TYPE_CHECKING:
    import jsonschema.protocols
    import referencing

DIALECT_2020_12 = "https://json-schema.org/draft/2020-12/schema"

_REF = "\x00ref\x00"
"""Placeholder for the ``$ref`` as written in a message shared by the references to one target."""


def _no_retrieve(uri: str) -> referencing.Resource:
    import referencing.exceptions

    raise referencing.exceptions.NoSuchResource(ref=uri)


@cache
def meta_schemas() -> referencing.Registry:
    """The meta-schemas of every dialect as python-jsonschema ships them (``jsonschema-specifications``),
    so a ``$ref`` to ``http://json-schema.org/draft-07/schema#`` resolves offline. Built on first
    use: ``referencing`` and the meta-schemas load only where a registry is needed (a diff of
    two copies of one plain file never needs one, :mod:`evalport_spec.selfdiff`)."""
    import referencing
    from jsonschema_specifications import REGISTRY

    return REGISTRY.combine(referencing.Registry(retrieve=_no_retrieve))


def id_keyword(schema: Any) -> str:
    """The identifier keyword of ``schema``'s dialect: ``id`` in draft-04 (and draft-03), ``$id``
    from draft-06 on (JSON Schema draft-06 renamed it)."""
    d = schema.get("$schema") if isinstance(schema, dict) else None
    return "id" if isinstance(d, str) and ("draft-04" in d or "draft-03" in d) else "$id"


def identifier(node: dict[str, Any], id_kw: str, legacy: bool) -> str | None:
    """The identifier ``node`` declares in ``id_kw``, or ``None``. In draft-07 and older
    (``legacy``) every sibling of ``$ref`` is ignored (draft-07 Core 8.3), so an ``$id``/``id``
    beside ``$ref`` sets no base URI; one that is only a fragment (``"#name"``) still names the
    location, as python-jsonschema's ``referencing`` reads it."""
    nid = node.get(id_kw)
    if not isinstance(nid, str) or (legacy and "$ref" in node and not nid.startswith("#")):
        return None
    return nid


def legacy_dialect(schema: Any) -> bool:
    """Whether ``schema`` (a file's root) names draft-07 or an older dialect in ``$schema``."""
    d = schema.get("$schema") if isinstance(schema, dict) else None
    return isinstance(d, str) and any(f"draft-0{n}/" in d for n in range(3, 8))


def _refuse_non_string_dialect(doc: Loaded) -> None:
    """Refuse a root ``$schema`` that is not a string: the keyword's value is a URI naming the
    dialect (2020-12 Core 8.1.1; draft-07 Core 7), and ``referencing`` calls ``str`` methods on
    it (a number gave a traceback, fresh user session 34). Only the root's member is read here:
    a ``$schema`` below it is checked by the meta-schema at schema positions only, so a property
    *named* ``$schema`` (``"properties": {"$schema": ...}``) is data and stays accepted.

    Raises:
        InputError: ``'$schema' must be a string ..., not TYPE``, at ``/$schema``.
    """
    value = doc.value
    if isinstance(value, dict) and "$schema" in value and not isinstance(value["$schema"], str):
        raise InputError(f"'$schema' must be a string, the URI of a dialect, not {json_type(value['$schema'])}",
                         doc.source, doc.line("/$schema"), None, "/$schema")


def _refuse_malformed_uris(f: SchemaFile, id_kw: str) -> None:
    """Refuse an identifier or reference of ``f`` that no URI parser reads (``"$id":
    "http://[::1"``: an unclosed IPv6 host, RFC 3986 section 3.2.2): resolving it against a base
    raised ValueError from :func:`urllib.parse.urljoin`, a traceback (session 35). The keywords
    are URI references (2020-12 Core 8.2.1 and 8.2.3); the meta-schema's ``format`` says so but
    is not asserted.

    Raises:
        InputError: ``'$ref' is not a URI reference (...)``, at its pointer.
    """
    for ptr, node, _ in f.walk():
        for key in (id_kw, "$ref", "$dynamicRef", "$recursiveRef"):
            value = node.get(key)
            if isinstance(value, str):
                try:
                    urlsplit(value)
                except ValueError as exc:
                    at = join(ptr, key)
                    raise InputError(f"{key!r} is not a URI reference ({exc}): {value!r}", f.loaded.source,
                                     f.loaded.line(at), None, at) from None


def _first_meta_error(files: Iterable[SchemaFile]) -> InputError | None:
    """The first meta-schema or pattern problem of ``files`` (:func:`_meta_errors`), or ``None``.

    Asked when ``referencing`` cannot index a set: it reads every subschema it meets as a
    schema (a nested ``"$schema": 7`` raised AttributeError), and the meta-schema says the same
    thing at the same schema positions with a file, a line and a pointer (2020-12 meta-schema,
    core vocabulary: ``$schema`` is a URI string), never at a property named ``$schema``.
    """
    for f in files:
        problems = _meta_errors(f, None)
        if problems:
            return problems[0]
    return None


class SchemaFile(Record):
    """One schema file of a set.

    Attributes:
        name: path relative to the set's folder, e.g. ``"resultset.json"``.
        uri: the schema's ``$id`` (or a synthetic ``urn:evalport:file:NAME`` when it has none).
        loaded: the parsed file with its text, for line numbers.
    """

    _FIELDS = ("name", "uri", "loaded", "_walk")
    _REPR_HIDDEN = _EQ_HIDDEN = frozenset({"_walk"})

    def __init__(self, name: str, uri: str, loaded: Loaded,
                 _walk: list[tuple[str, dict[str, Any], str]] | None = None) -> None:
        # a plain class, not a dataclass (:mod:`evalport_spec.record`): the self-diff walks a
        # SchemaFile without importing dataclasses and inspect (issue 16)
        self.name, self.uri, self.loaded, self._walk = name, uri, loaded, _walk

    def walk(self) -> list[tuple[str, dict[str, Any], str]]:
        """``(pointer, schema object, base URI)`` of every schema object of the file
        (:func:`_walk_with_base`), walked once: the references, patterns and identifiers of a
        large schema are each read from this one list."""
        if self._walk is None:
            self._walk = list(_walk_with_base(self.schema, self.uri, id_keyword(self.schema),
                                              legacy_dialect(self.schema)))
        return self._walk

    @property
    def schema(self) -> Any:
        """The schema value (a dict or a boolean)."""
        return self.loaded.value

    @property
    def dialect(self) -> str:
        """The ``$schema`` URI, defaulting to 2020-12."""
        s = self.schema
        return s.get("$schema", DIALECT_2020_12) if isinstance(s, dict) else DIALECT_2020_12


class SchemaSet(Record):
    """Schemas keyed by file name and by ``$id``, with an offline registry.

    Build with :meth:`from_loaded`. ``files`` keeps insertion order (sorted by name).
    """

    _FIELDS = ("files", "registry", "label", "_checked", "_patterns", "_refs", "_plain_differs")
    _REPR_HIDDEN = frozenset({"registry", "_checked", "_patterns", "_refs", "_plain_differs"})
    _EQ_HIDDEN = frozenset({"_checked", "_patterns", "_refs", "_plain_differs"})

    def __init__(self, files: dict[str, SchemaFile], registry: referencing.Registry, label: str = "",
                 _checked: bool = False, _patterns: list[tuple[SchemaFile, str, str]] | None = None,
                 _refs: list[tuple[SchemaFile, str, str, str]] | None = None,
                 _plain_differs: bool | None = None) -> None:
        # a plain class, not a dataclass (:mod:`evalport_spec.record`, issue 16)
        self.files, self.registry, self.label = files, registry, label
        self._checked, self._patterns, self._refs, self._plain_differs = _checked, _patterns, _refs, _plain_differs

    @classmethod
    def from_loaded(cls, loaded: Mapping[str, Loaded], label: str = "") -> SchemaSet:
        """Build a set from parsed files ``{relative name: Loaded}``.

        Raises:
            InputError: a schema that is not an object or boolean; a URI defined twice in the set
                (:func:`_refuse_redefinitions`: two ``$id`` resolving alike, in one file or two,
                embedded or top-level, or one anchor twice in one resource).
        """
        import referencing.jsonschema

        files: dict[str, SchemaFile] = {}
        resources: list[tuple[str, referencing.Resource]] = []
        seen: dict[str, tuple[SchemaFile, str, str]] = {}
        for name in sorted(loaded):
            doc = loaded[name]
            value = doc.value
            if not isinstance(value, (dict, bool)):
                raise InputError("a JSON Schema must be an object or a boolean", doc.source, 1, 1)
            _refuse_non_string_dialect(doc)
            id_kw = id_keyword(value)
            uri = value.get(id_kw) if isinstance(value, dict) else None
            if isinstance(uri, str) and identifier(value, id_kw, legacy_dialect(value)) is None:
                uri = None  # beside a draft-07 $ref: ignored
            if uri is not None and not isinstance(uri, str):
                raise InputError(f"'{id_kw}' must be a string", doc.source, doc.line("/" + id_kw), None,
                                 "/" + id_kw)
            uri = urldefrag(uri)[0] if uri else f"urn:evalport:file:{name}"
            files[name] = SchemaFile(name, uri, doc)
            _refuse_malformed_uris(files[name], id_kw)
            _refuse_redefinitions(files[name], seen)
            dialect = value.get("$schema", DIALECT_2020_12) if isinstance(value, dict) else DIALECT_2020_12
            try:
                spec = referencing.jsonschema.specification_with(dialect)
            except referencing.jsonschema.UnknownDialect:
                raise InputError(f"unknown '$schema' dialect {dialect!r}", doc.source,
                                 doc.line("/$schema"), None, "/$schema") from None
            resources.append((uri, spec.create_resource(value)))
        # the dialects' meta-schemas, as the validators ship them, resolve offline too
        registry = meta_schemas().with_resources(resources)
        try:
            registry = registry.crawl()
        except Exception as exc:  # malformed $id/$anchor, or a subschema that is no schema
            raise _first_meta_error(files.values()) or InputError(
                f"cannot index schema set: {exc}", label or None) from None
        return cls(files, registry, label)

    def __iter__(self) -> Iterator[SchemaFile]:
        return iter(self.files.values())

    def by_uri(self, uri: str) -> SchemaFile | None:
        """The file whose ``$id`` is ``uri`` (fragment ignored), or ``None``."""
        base = urldefrag(uri)[0]
        for f in self.files.values():
            if f.uri == base:
                return f
        return None

    def validator(self, name: str, *, format_assertion: bool = True,
                  plain: bool = False, verdicts: bool = False) -> jsonschema.protocols.Validator:
        """A validator for the file ``name`` using this set's registry, once every schema of the
        set has passed :meth:`require_valid` (a schema the validator cannot use is refused with
        one clear error instead of a crash or a wrong verdict halfway through a document).

        ``format_assertion=True`` turns ``format`` into an assertion (EvalPort asserts
        ``date-time``, SPEC.md "Validation"); otherwise ``format`` is an annotation.
        ``multipleOf`` is decided on exact decimals and ``pattern`` read as ECMA-262
        (:func:`evalport_spec.pyvalidator.exact_validator`); ``plain=True`` gives python-jsonschema's
        own verdicts instead (binary doubles, Python ``re``: ``$`` also matches before a final
        newline; :func:`~evalport_spec.pyvalidator.library_validator`), to tell which verdicts
        depend on that reading. ``verdicts=True``: for ``is_valid`` alone, each ``anyOf``/``oneOf``
        branch read up to its first error (the same verdicts, no error ``context``; see
        :func:`~evalport_spec.pyvalidator.exact_validator`).

        Raises:
            KeyError: no such file in the set. InputError: a schema of the set is invalid
                against its meta-schema (:meth:`require_valid`).
        """
        from .pyvalidator import (  # python-jsonschema: only here
            exact_validator,
            library_validator,
            validator_class,
        )

        self.require_valid()
        f = self.files[name]
        cls = validator_class(f.schema)
        cls = library_validator(cls, verdicts) if plain else exact_validator(cls, verdicts)
        kwargs: dict[str, Any] = {"registry": self.registry}
        if format_assertion:
            kwargs["format_checker"] = cls.FORMAT_CHECKER
        return cls(f.schema, **kwargs)

    def check_meta(self, meta_validator: Callable[[Any], Any] | None = None) -> list[InputError]:
        """Check each schema against its dialect's meta-schema, and each ``pattern`` and
        ``patternProperties`` name as a regular expression (:func:`pattern_problems`). Returns
        one error per problem.

        ``meta_validator(cls)`` may supply the validator of ``cls.META_SCHEMA`` (default
        ``cls(cls.META_SCHEMA)``), e.g. a memoising one that yields the same errors.
        """
        problems: list[InputError] = []
        for f in self:
            problems += _meta_errors(f, meta_validator)
        return problems

    def require_valid(self) -> None:
        """Refuse the set unless every schema is valid against its dialect's meta-schema and
        every ``pattern`` compiles: the check every tool runs before using a schema (``diff``,
        ``validate``, ``conformance``, ``rfc check``), so a schema with ``"type": "nonsense"``
        or ``"pattern": "(["`` is refused, never classified or half-applied.

        The common case (valid) is decided by jsonschema-rs's meta-schema validation (about a
        millisecond per schema); an invalid schema is then described by python-jsonschema,
        whose messages the gate's ``schemas`` stage reports too. Done once per set.

        Raises:
            InputError: the first problem, ``FILE:LINE: not a valid schema: ... (at POINTER)``.
        """
        if self._checked:
            return
        for f in self:
            if not meta_valid_fast(f.schema) or next(pattern_problems(f.walk()), None):
                problems = _meta_errors(f, None)
                if problems:
                    raise problems[0]
        self._checked = True

    def patterns(self) -> list[tuple[SchemaFile, str, str]]:
        """``(file, pointer, source)`` of every ``pattern`` and ``patternProperties`` name of the
        set (:func:`_patterns_in`), computed once."""
        if self._patterns is None:
            self._patterns = [(f, ptr, src) for f in self for ptr, src in _patterns_in(f.walk())]
        return self._patterns

    def plain_reading_differs(self) -> bool:
        """Whether python-jsonschema as shipped (``validator(plain=True)``) could judge an
        instance otherwise than the toolchain's reading (:mod:`evalport_spec.pyvalidator`): only
        through a ``pattern`` or ``patternProperties`` (Python ``re`` against ECMA-262), a
        ``multipleOf`` (binary doubles against exact decimals), ``format: regex`` or an
        ``unevaluatedProperties`` (python-jsonschema's own annotation collection); ``enum`` is
        the same equality either way. Computed once."""
        if self._plain_differs is None:
            self._plain_differs = bool(self.patterns()) or any(
                "multipleOf" in node or node.get("format") == "regex" or "unevaluatedProperties" in node
                for f in self for _, node, _ in f.walk())
        return self._plain_differs

    def iter_refs(self) -> Iterator[tuple[SchemaFile, str, str, str]]:
        """Yield ``(file, pointer of the $ref, the $ref value, its absolute URI)`` for each ``$ref``.

        ``$dynamicRef`` and ``$recursiveRef`` are yielded as well. The base URI accounts for
        nested ``$id``.
        """
        joined: dict[tuple[str, str], str] = {}  # (base, reference) -> absolute URI, joined once
        for f in self:
            for ptr, node, base in f.walk():
                for key in ("$ref", "$dynamicRef", "$recursiveRef"):
                    ref = node.get(key)
                    if isinstance(ref, str):
                        absolute = joined.get((base, ref))
                        if absolute is None:
                            absolute = joined[(base, ref)] = urljoin(base, ref)
                        yield f, join(ptr, key), ref, absolute

    def references(self) -> list[tuple[SchemaFile, str, str, str]]:
        """:meth:`iter_refs` as a list, computed once (the files of a set are not edited)."""
        if self._refs is None:
            self._refs = list(self.iter_refs())
        return self._refs

    def check_refs(self) -> list[InputError]:
        """Resolve every ``$ref`` offline. Returns an :class:`InputError` per broken reference.

        Each absolute target is looked up once (a large schema repeats a few targets thousands
        of times); the error of every reference to a broken target names that reference."""
        problems: list[InputError] = []
        outcome: dict[tuple[str, str], str | None] = {}  # (file URI, absolute) -> problem or None
        loops: dict[int, bool] = {}  # id of a subschema -> whether its $ref chain loops (_ref_loops)
        for f, ptr, ref, absolute in self.references():
            key = (f.uri, absolute)
            if key not in outcome:
                outcome[key] = self._ref_problem(f.uri, absolute, loops)
            what = outcome[key]
            if what is not None:
                problems.append(InputError(what.replace(_REF, repr(ref)), f.loaded.source, f.loaded.line(ptr),
                                           None, ptr))
        return problems

    def _ref_problem(self, file_uri: str, absolute: str, loops: dict[int, bool]) -> str | None:
        """What is wrong with a ``$ref`` to ``absolute`` written in the file whose URI is
        ``file_uri`` (a message with :data:`_REF` where the reference as written goes), or
        ``None``. ``loops``: the verdicts :func:`_ref_loops` has reached so far."""
        import referencing.exceptions

        target = urldefrag(absolute)[0]
        if target and self.by_uri(target) is None and not self._is_embedded(target):
            scheme = target.split(":", 1)[0]
            what = "remote" if scheme in ("http", "https") else "unresolvable"
            return (f"{what} $ref {_REF}: no schema with $id {target!r} in this set "
                    "(references resolve offline, by $id, never over the network)")
        try:
            resolved = self.registry.resolver(base_uri=file_uri).lookup(absolute)
        except referencing.exceptions.Unresolvable as exc:
            return f"unresolvable $ref {_REF}: {type(exc).__name__}"
        if _ref_loops(resolved, loops):
            return f"$ref {_REF} starts a chain of $refs that comes back to itself (validation would never end)"
        return None

    def _is_embedded(self, uri: str) -> bool:
        import referencing.exceptions

        try:
            self.registry.contents(uri)
            return True
        except (referencing.exceptions.NoSuchResource, LookupError):
            return False


VALUE_KEYWORDS = frozenset({"enum", "const", "examples", "default"})
"""Keywords whose values are instance data, never schemas (2020-12 Validation 6.1.2, 6.1.3;
Meta-Data 9.2, 9.5)."""
SCHEMA_MAP_KEYWORDS = frozenset({"properties", "patternProperties", "$defs", "definitions",
                                 "dependentSchemas", "dependencies"})
"""Keywords whose value maps names (of members, patterns or definitions) to schemas (2020-12
Core 8.2.4, 10.3.2; draft-07 ``definitions`` and ``dependencies``): a member of such a map is a
schema whatever it is called, and the map itself is no schema object."""


def _walk_with_base(schema: Any, uri: str, id_kw: str,
                    legacy: bool = False) -> Iterator[tuple[str, dict[str, Any], str]]:
    """``(pointer, schema object, base URI)`` for every schema object of a file whose own URI is
    ``uri``: the base is the URI of the innermost enclosing ``id_kw`` (``$id``, or ``id`` in
    draft-04) resolved against its parent's base (RFC 3986 section 5.2; 2020-12 Core 8.2.1); an
    identifier with a fragment (draft-07's ``"$id": "#name"``) names a location, not a base.
    Values of :data:`VALUE_KEYWORDS` are data, not schemas, and are not entered. The members of
    a :data:`SCHEMA_MAP_KEYWORDS` map are schemas whatever their names (a property named
    ``default`` or ``$schema`` is a schema, not a keyword), and the map itself is not yielded.
    ``legacy``: a draft-07 or older file (:func:`identifier`)."""
    # (node, pointer, base, whether node is a map of names to schemas)
    stack: list[tuple[Any, str, str, bool]] = [(schema, "", uri, False)]
    while stack:
        node, ptr, base, is_map = stack.pop()
        if isinstance(node, dict):
            if is_map:
                stack.extend((v, f"{ptr}/{escape(k) if '~' in k or '/' in k else k}", base, False)
                             for k, v in node.items() if isinstance(v, (dict, list)))
                continue
            nid = identifier(node, id_kw, legacy)
            if ptr and isinstance(nid, str):
                try:
                    target, fragment = urldefrag(urljoin(base, nid))
                except ValueError:  # no URI ("http://[::1"): refused by _refuse_malformed_uris
                    target, fragment = base, ""
                base = base if fragment else target
            yield ptr, node, base
            for k, v in node.items():  # (a token needs RFC 6901 escaping only with "~" or "/")
                if k not in VALUE_KEYWORDS and isinstance(v, (dict, list)):
                    stack.append((v, f"{ptr}/{escape(k) if '~' in k or '/' in k else k}", base,
                                  k in SCHEMA_MAP_KEYWORDS and isinstance(v, dict)))
        elif isinstance(node, list):
            stack.extend((v, f"{ptr}/{i}", base, False) for i, v in enumerate(node) if isinstance(v, (dict, list)))


def _definitions(f: SchemaFile) -> Iterator[tuple[str, str, str]]:
    """``(absolute URI, pointer, keyword)`` for each URI ``f`` defines: the file itself (at
    ``/$id``, or ``""`` without one),
    each embedded resource's ``$id`` and each ``$anchor``/``$dynamicAnchor`` (the plain name
    ``N`` under base ``B`` is ``B#N``, 2020-12 Core 8.2.2)."""
    id_kw = id_keyword(f.schema)
    if not isinstance(f.schema, dict):
        yield f.uri, "", id_kw
        return
    legacy = legacy_dialect(f.schema)
    yield f.uri, ("/" + id_kw if identifier(f.schema, id_kw, legacy) is not None else ""), id_kw
    for ptr, node, base in f.walk():
        nid = identifier(node, id_kw, legacy)
        if ptr and isinstance(nid, str):
            # a fragment identifier leaves the base as it was; any other is the new base itself
            yield urljoin(base, nid) if urldefrag(nid)[1] else base, join(ptr, id_kw), id_kw
        for kw in ("$anchor", "$dynamicAnchor")[:0 if legacy else 2]:  # (2019-09 on; draft-07: "$id": "#a")
            if isinstance(node.get(kw), str):
                yield f"{base}#{node[kw]}", join(ptr, kw), kw


def _refuse_redefinitions(f: SchemaFile, seen: dict[str, tuple[SchemaFile, str, str]]) -> None:
    """Record the URIs ``f`` defines in ``seen`` (``{uri: (file, pointer, keyword)}``), refusing
    one already defined elsewhere: a registry holding both would resolve a reference to either
    (python-jsonschema's crawl keeps whichever it meets last, which depends on hash order), while
    the classifier resolves by file. One subschema carrying ``$anchor`` and ``$dynamicAnchor``
    with one name defines one location, not two.

    Raises:
        InputError: ``URI ... is defined twice: FILE#POINTER ($id) and FILE#POINTER ($id)``,
            at the second definition.
    """
    for uri, ptr, kw in _definitions(f):
        first = seen.get(uri)
        if first is None:
            seen[uri] = (f, ptr, kw)
            continue
        other, other_ptr, other_kw = first
        if other is f and other_ptr.rsplit("/", 1)[0] == ptr.rsplit("/", 1)[0]:
            continue  # $anchor and $dynamicAnchor of one subschema
        raise InputError(
            f"URI {uri!r} is defined twice: by {other_kw} at {other.name}#{other_ptr} and by {kw} "
            f"at {f.name}#{ptr} (a $ref to it could resolve to either)",
            f.loaded.source, f.loaded.line(ptr), None, ptr)


_Walk = Iterable[tuple[str, dict[str, Any], str]]
"""A walk of one file's schema objects: ``(pointer, schema object, base URI)`` (:meth:`SchemaFile.walk`)."""


def _patterns_in(walk: _Walk) -> Iterator[tuple[str, str]]:
    """``(pointer, source)`` for every ``pattern`` value and ``patternProperties`` name met in
    ``walk`` (the pointer of a name is its member's, ``/patternProperties/NAME``)."""
    for ptr, node, _ in walk:
        if isinstance(node.get("pattern"), str):
            yield join(ptr, "pattern"), node["pattern"]
        if isinstance(node.get("patternProperties"), dict):
            for k in node["patternProperties"]:
                yield join(ptr, "patternProperties", k), k


def pattern_problems(walk: _Walk) -> Iterator[tuple[str, str]]:
    """``(pointer, message)`` for every ``pattern`` value and ``patternProperties`` name met in
    ``walk`` that is not an ECMA-262 regular expression.

    The meta-schemas declare ``"format": "regex"`` there (JSON Schema 2020-12 Validation,
    section 6.3.3: the value SHOULD be a valid ECMA-262 regular expression), but a format is
    not asserted by meta-schema validation. Every validator of the toolchain reads patterns as
    ECMA-262 (:mod:`evalport_spec.ecmaregex`), so a pattern that is not one would match nothing
    (or fail in the middle of validation): it is refused here instead.
    """
    for where, source in _patterns_in(walk):
        try:
            compile_ecma(source)
        except NotEcmaRegex as exc:
            yield where, str(exc)


def meta_valid_fast(schema: Any) -> bool:
    """jsonschema-rs's verdict on ``schema`` against its dialect's meta-schema (``False`` also
    when it cannot tell, e.g. an unknown dialect)."""
    import jsonschema_rs

    try:
        return bool(jsonschema_rs.meta.is_valid(schema))
    except Exception:  # noqa: BLE001 - any failure to decide sends the schema to the full check
        return False


def _meta_errors(f: SchemaFile, meta_validator: Callable[[Any], Any] | None) -> list[InputError]:
    from .pyvalidator import validator_class  # python-jsonschema describes what is wrong

    cls = validator_class(f.schema)
    meta = cls(cls.META_SCHEMA) if meta_validator is None else meta_validator(cls)
    problems = []
    found = [(join("", *err.absolute_path), err.message) for err in meta.iter_errors(f.schema)]
    for ptr, message in found + list(pattern_problems(f.walk())):
        problems.append(InputError(f"not a valid schema: {message}", f.loaded.source,
                                   f.loaded.line(ptr), None, ptr))
    return problems


def _ref_loops(resolved: Any, known: dict[int, bool]) -> bool:
    """Whether following ``$ref`` from ``resolved`` (a ``referencing`` ``Resolved``) comes back to
    a subschema already met: a pure ``$ref`` chain (``a -> b -> a``) applies to the same instance
    forever, so no validator can finish. A long chain that ends (``d0 -> d1 -> ... -> d200``) is
    fine: the walk ends there, or at the first subschema met twice (a set has finitely many).

    ``known`` maps the ``id`` of each subschema already walked from to its verdict (a subschema
    holds at most one ``$ref``, resolved against its own base URI, so the rest of its chain
    depends on it alone); the subschemas of this walk are added, so the references of a set
    walk each subschema once (a chain of n links was n^2/2 lookups, fresh user session 34)."""
    import referencing.exceptions

    seen = [id(resolved.contents)]
    met = set(seen)
    verdict = False
    while seen[-1] not in known:
        node = resolved.contents
        ref = node.get("$ref") if isinstance(node, dict) else None
        if not isinstance(ref, str):
            break
        try:
            resolved = resolved.resolver.lookup(ref)
        except referencing.exceptions.Unresolvable:
            break  # reported as unresolvable at that $ref itself
        here = id(resolved.contents)
        if here in met:
            verdict = True
            break
        seen.append(here)
        met.add(here)
    else:
        verdict = known[seen.pop()]
    known.update(dict.fromkeys(seen, verdict))
    return verdict
