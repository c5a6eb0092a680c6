"""The Python tags of ``mkdocs.yml``, screened before mkdocs reads the file.

mkdocs (1.6) loads its configuration, and every file it ``INHERIT``s, with PyYAML's unsafe
``yaml.Loader``: a tag such as ``!!python/object/apply:os.system [...]`` runs code while the
file is read, so a pull request editing ``mkdocs.yml`` would run it in any job that builds the
site. Before any build (``docs build``, ``serve``, ``publish``) the file and its ``INHERIT``
chain are parsed (events only, nothing is constructed) and every tag in PyYAML's Python
namespace (``tag:yaml.org,2002:python/``, however it is written: ``!!python/...``, a ``%TAG``
handle, a verbatim ``!<...>`` tag, percent-escapes) is refused with one line at its place,
except ``!!python/name:MODULE.ATTR`` naming an attribute of a module of :data:`ALLOWED_MODULES`
or of a package of :data:`ALLOWED_PACKAGES`: mkdocs-material's documented emoji and superfences
settings use those (a reference to a function, nothing is called while loading).

This screens the YAML only: mkdocs ``hooks:`` and plugins are Python too and run during the
build whatever the tags (docs/how-to/gate-in-ci.md).
"""

from __future__ import annotations

import os
from pathlib import Path

import yaml

from ..errors import InputError
from ..fsutil import check_within, read_optional

PYTHON_TAG = "tag:yaml.org,2002:python/"
"""PyYAML's namespace of tags that build Python objects (``!!python/...``)."""

NAME_TAG = PYTHON_TAG + "name:"
"""The one Python tag allowed, for the attributes below: it only looks a name up."""

ALLOWED_MODULES = ("material.extensions.emoji",)
"""Modules whose attributes ``!!python/name:`` may name (mkdocs-material's emoji index and
generator, ``material.extensions.emoji.twemoji`` and ``.to_svg``)."""

ALLOWED_PACKAGES = ("pymdownx",)
"""Packages whose modules' attributes ``!!python/name:`` may name (PyMdown Extensions, e.g.
``pymdownx.superfences.fence_code_format``)."""

MAX_CONFIG_BYTES = 1024 * 1024
"""Largest configuration file read."""

MAX_INHERIT = 16
"""Longest ``INHERIT`` chain followed."""


def _allowed(tag: str) -> bool:
    """Whether ``tag`` (resolved) is outside the Python namespace, or an allowed name."""
    if not tag.startswith(PYTHON_TAG):
        return True
    if not tag.startswith(NAME_TAG):
        return False
    module, _, attr = tag[len(NAME_TAG):].rpartition(".")
    return attr.isidentifier() and (module in ALLOWED_MODULES or any(
        module == p or module.startswith(p + ".") for p in ALLOWED_PACKAGES))


def _shown(tag: str) -> str:
    return "!!" + tag[len("tag:yaml.org,2002:"):] if tag.startswith("tag:yaml.org,2002:") else tag


def _screen_text(text: str, label: str) -> str | None:
    """Raise on the first refused tag of the YAML ``text`` (named ``label``); return the plain
    value of its top-level ``INHERIT`` key, or ``None``."""
    inherit: str | None = None
    depth, root_mapping, key_next, at_inherit = 0, False, True, False
    try:
        for ev in yaml.parse(text, Loader=yaml.SafeLoader):
            tag = getattr(ev, "tag", None)
            if tag and not _allowed(tag):
                mark = ev.start_mark
                raise InputError(f"YAML tag {_shown(tag)} builds a Python object while mkdocs loads the file (its "
                                 "loader is PyYAML's unsafe one), which can run code: refused; only "
                                 "!!python/name: of material.extensions.emoji or pymdownx attributes is allowed",
                                 label, mark.line + 1, mark.column + 1)
            node = isinstance(ev, (yaml.ScalarEvent, yaml.AliasEvent, yaml.MappingStartEvent,
                                   yaml.SequenceStartEvent))
            if node and depth == 0:
                root_mapping = isinstance(ev, yaml.MappingStartEvent)
            elif node and depth == 1 and root_mapping:
                if key_next:
                    at_inherit = isinstance(ev, yaml.ScalarEvent) and ev.value == "INHERIT"
                elif at_inherit:
                    if not isinstance(ev, yaml.ScalarEvent) or ev.tag not in (None, "!"):
                        raise InputError("INHERIT is not a plain file path: the file it names could not be "
                                         "screened for Python tags", label, ev.start_mark.line + 1,
                                         ev.start_mark.column + 1)
                    inherit = ev.value
                key_next = not key_next
            if isinstance(ev, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                depth += 1
            elif isinstance(ev, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                depth -= 1
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise InputError(f"not valid YAML: {problem}", label, mark.line + 1 if mark else None,
                         mark.column + 1 if mark else None) from None
    return inherit


def screen_config(path: Path, root: Path) -> None:
    """Refuse ``path`` (a mkdocs configuration inside the repository ``root``) when it, or a
    file its ``INHERIT`` chain names, holds a Python tag mkdocs' loader would build
    (module docstring). ``INHERIT`` is resolved as mkdocs does: against the folder of the file
    that names it.

    Raises:
        InputError: one line at the file, line and column of the first refused tag; a file
            that is not valid YAML (mkdocs would refuse it too, in several lines); an
            ``INHERIT`` that is not a plain path, names a file outside ``root`` (as written or
            through a link) or a missing one, or a chain that loops or is longer than
            :data:`MAX_INHERIT` files.
    """
    root = Path(os.path.abspath(root))
    current, named_by = Path(os.path.abspath(path)), None
    seen: set[Path] = set()
    while True:
        label = current.relative_to(root).as_posix() if current.is_relative_to(root) else str(current)
        if named_by is not None and not current.is_relative_to(root):
            raise InputError(f"INHERIT names {current}, outside the repository: it could not be screened for "
                             "Python tags", named_by)
        if current in seen or len(seen) >= MAX_INHERIT:
            raise InputError(f"the INHERIT chain loops or is longer than {MAX_INHERIT} files", named_by or label)
        seen.add(current)
        check_within(current, root, label)
        data = read_optional(current, max_bytes=MAX_CONFIG_BYTES, label=label, within=root)
        if data is None:
            raise InputError(f"INHERIT names {label}, which does not exist", named_by or label)
        inherit = _screen_text(data.decode("utf-8", "replace"), label)
        if inherit is None:
            return
        current, named_by = Path(os.path.normpath(os.path.join(current.parent, inherit))), label
