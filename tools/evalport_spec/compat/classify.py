"""One call from two inputs to a :class:`~.engine.Classification`, as ``evalport-spec diff``
makes it: two spec versions are compared with their rule changes (:func:`~.versions.compare_versions`);
anything else by schemas (:func:`~.engine.compare`), a single file compared with the file of the
same name on the other side (:func:`~.inputs.refocus`); then the ignore file's live entries
remove the findings they match and the classes are recomputed from what is left.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..schemaset import SchemaSet
from ..spec import SpecVersion
from .engine import Classification, classes_of, compare
from .ignore import apply_ignore, load_ignore
from .inputs import FileSet, refocus
from .versions import compare_versions


def classify(old: SpecVersion | SchemaSet, new: SpecVersion | SchemaSet, *,
             ignore: str | Path | None = None, labels: tuple[str, str] | None = None,
             **kw: Any) -> Classification:
    """Classify the change ``old`` -> ``new``.

    Args:
        old, new: spec versions (:class:`~evalport_spec.spec.SpecVersion`) or schema sets (from
            :func:`~.inputs.resolve_input`, :meth:`SchemaSet.from_loaded`); a version on one side
            only is compared by its schemas.
        ignore: an ignore file (``diff --ignore``, :mod:`.ignore`): matched findings move to
            ``result.ignored`` and ``change_class`` / ``forward_class`` count only the rest.
        labels: the names the report gives the two sides when schema sets are compared (the
            command line passes its two arguments); versions keep their own names.
        **kw: passed to :func:`~.engine.compare` (``format_assertion``, ``search_budget``, ...).

    Raises:
        InputError: an unreadable or malformed ignore file; an input :func:`~.engine.compare`
            refuses (a remote, dangling or looping ``$ref``).
    """
    entries = load_ignore(ignore) if ignore is not None else None  # a bad file fails before the work
    if isinstance(old, SpecVersion) and isinstance(new, SpecVersion):
        result = compare_versions(old, new, **kw)
    else:
        so = old.schemas if isinstance(old, SpecVersion) else old
        sn = new.schemas if isinstance(new, SpecVersion) else new
        if isinstance(so, FileSet) and isinstance(sn, FileSet):
            so = refocus(so, sn.focus)
        focus = {s.focus for s in (so, sn) if isinstance(s, FileSet)}
        result = compare(so, sn, only=focus or None, **kw)
        if labels is not None:
            result.old_label, result.new_label = labels
    if entries is not None:
        result.findings, result.ignored = apply_ignore(result.findings, entries)
        result.change_class, result.forward_class = classes_of(result.findings)
    return result
