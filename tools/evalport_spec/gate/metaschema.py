"""Meta-schema validation for the ``schemas`` stage, with the 2020-12 meta-schema memoised.

Checking a schema against the JSON Schema 2020-12 meta-schema with plain ``jsonschema`` costs
about 0.1 s per small schema: every subschema is re-entered through ``"$dynamicRef": "#meta"``
and walks the seven vocabulary meta-schemas again, and the gate checks five versions whose
files share most of their subschemas. Here every ``"$dynamicRef": "#meta"`` evaluation is
memoised by the subschema's exact JSON text, so a subschema met again (in the same file, a
sibling file or the same file of another release) costs one dictionary lookup.

Why the answer is the same (JSON Schema 2020-12 Core, section 8.2.3.2, "Dynamic References"):
``$dynamicRef`` resolves to the *outermost* schema resource in the dynamic scope that declares
the matching ``$dynamicAnchor``. When the meta-schema is the root of validation, the outermost
resource is always the 2020-12 dialect meta-schema itself, which declares ``"meta"``, so
``#meta`` has one target whatever the path; the errors below a ``$dynamicRef`` are then a
function of the instance (the subschema) alone. Memoised errors are handed out as deep copies
(the validator prefixes paths on the copies it receives), so messages, instance paths and
schema paths are exactly those of ``jsonschema``'s own validator. The vocabulary meta-schemas
are registered without their ``$schema`` member, which only names the dialect (already fixed
by the validator class) and would otherwise make ``jsonschema`` switch back to its stock class.

Other dialects (draft 7, 2019-09, ...) use ``jsonschema``'s stock meta-schema validator.

Public API::

    meta_validator(cls) -> validator for cls.META_SCHEMA   (pass to SchemaSet.check_meta)
"""

from __future__ import annotations

import copy
import functools
import json
from collections.abc import Iterator
from typing import Any

import jsonschema
import referencing
import referencing.jsonschema
from jsonschema import validators

_DIALECT = "https://json-schema.org/draft/2020-12/schema"
_ANCHOR_REF = "#meta"
_MAX_ENTRIES = 100_000
_MEMO: dict[str, list[jsonschema.ValidationError]] = {}
_STOCK_DYNAMIC_REF = jsonschema.Draft202012Validator.VALIDATORS["$dynamicRef"]


def _memo_dynamic_ref(validator: Any, dynamic_ref: str, instance: Any,
                      schema: Any) -> Iterator[jsonschema.ValidationError]:
    """``$dynamicRef`` as ``jsonschema`` evaluates it, memoised for ``#meta`` (module docstring)."""
    key = None
    if dynamic_ref == _ANCHOR_REF:
        try:
            key = json.dumps(instance, ensure_ascii=False, allow_nan=False)
        except (TypeError, ValueError):
            key = None
    if key is None:
        yield from _STOCK_DYNAMIC_REF(validator, dynamic_ref, instance, schema)
        return
    cached = _MEMO.get(key)
    if cached is None:
        pristine: list[jsonschema.ValidationError] = []
        for err in _STOCK_DYNAMIC_REF(validator, dynamic_ref, instance, schema):
            pristine.append(copy.deepcopy(err))
            yield err
        if len(_MEMO) >= _MAX_ENTRIES:
            _MEMO.clear()
        _MEMO[key] = pristine
        return
    for err in cached:
        yield copy.deepcopy(err)


@functools.cache
def _memo_2020_12() -> tuple[Any, referencing.Registry]:
    """The memoising validator class and a registry of the 2020-12 meta-schemas (without
    ``$schema``), built once."""
    from jsonschema_specifications import REGISTRY as SPECS

    resources = []
    for uri in SPECS:
        if uri.startswith("https://json-schema.org/draft/2020-12/"):
            contents = {k: v for k, v in SPECS.contents(uri).items() if k != "$schema"}
            resources.append((uri, referencing.jsonschema.DRAFT202012.create_resource(contents)))
    registry = referencing.Registry().with_resources(resources).crawl()
    cls = validators.extend(jsonschema.Draft202012Validator, {"$dynamicRef": _memo_dynamic_ref})
    return cls, registry


def meta_validator(cls: Any) -> Any:
    """A validator of ``cls.META_SCHEMA`` (``cls`` a ``jsonschema`` validator class): the
    memoised one for 2020-12, ``cls(cls.META_SCHEMA)`` for any other dialect. Its
    ``iter_errors(schema)`` yields the errors ``cls(cls.META_SCHEMA).iter_errors(schema)``
    yields, in the same order."""
    if cls is not jsonschema.Draft202012Validator:
        return cls(cls.META_SCHEMA)
    memo_cls, registry = _memo_2020_12()
    return memo_cls(registry.contents(_DIALECT), registry=registry)
