"""Safe reading and writing of an RFC's YAML front matter.

An RFC file starts with a line ``---``, a YAML mapping, and a closing line ``---``; the Markdown
body follows. The front matter is parsed with PyYAML's *safe* loader only, and refused outright
(:class:`~evalport_spec.errors.InputError`, one line, exit code 2 at the CLI) when it is

* larger than :data:`MAX_FRONT_MATTER` bytes (64 KiB),
* uses an alias (``*name``): front matter never needs one, and aliases are how "billion laughs"
  anchor bombs expand a few lines into gigabytes,
* carries an explicit tag other than the YAML 1.1 core ones (``!!python/object`` and friends
  construct arbitrary objects with unsafe loaders; we refuse them by name before any loader runs),
* is not YAML, or not a mapping with string keys.

Dates stay strings (the timestamp resolver is removed), so ``2026-09-27`` is validated as an
ISO 8601 calendar date by the JSON Schema rather than silently turned into a ``datetime.date``.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

import yaml

from ..errors import InputError
from ..yamldepth import bounded_events
from ..yamlerror import describe

MAX_FRONT_MATTER = 64 * 1024
"""Largest front matter accepted, in bytes (64 KiB)."""

MAX_RFC_BYTES = 4 * 1024 * 1024
"""Largest RFC file accepted, in bytes (4 MiB)."""

FENCE = "---"

_CORE_TAGS = {
    "tag:yaml.org,2002:str", "tag:yaml.org,2002:int", "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:bool", "tag:yaml.org,2002:null", "tag:yaml.org,2002:seq",
    "tag:yaml.org,2002:map",
}


class _Loader(yaml.SafeLoader):
    """SafeLoader without the timestamp resolver (dates stay strings)."""


_Loader.yaml_implicit_resolvers = {
    ch: [(tag, rx) for tag, rx in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for ch, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


@dataclass
class FrontMatter:
    """The parsed front matter of one RFC file.

    Attributes:
        data: the mapping (keys are strings; dates are ISO strings).
        lines: 1-based file line of each top-level key, and of nested keys as ``"a.b"``.
        end_line: 1-based line of the closing ``---``.
        body: the Markdown text after the closing fence.
        body_offset: number of file lines before the body (body line 1 is file line offset+1).
    """

    data: dict[str, Any]
    lines: dict[str, int] = field(default_factory=dict)
    end_line: int = 1
    body: str = ""
    body_offset: int = 0

    def line(self, key: str, default: int = 1) -> int:
        """File line of ``key`` (``"comment_period.closes"`` for nested keys), else its parent's, else ``default``."""
        while key:
            if key in self.lines:
                return self.lines[key]
            key = key.rpartition(".")[0]
        return default


def split(text: str, source: str) -> tuple[str, str, int]:
    """Split an RFC's text into ``(front matter YAML, body, body offset in lines)``.

    Raises:
        InputError: no opening ``---`` on line 1 (a byte-order mark before it is named as such),
            no closing fence, or front matter over 64 KiB.
    """
    lines = text.split("\n")
    if lines[0].startswith("\ufeff"):  # the line reads '---' in an editor that hides the BOM
        raise InputError("a byte-order mark (U+FEFF) before the front matter's '---': save the file as "
                         "UTF-8 without a BOM", source, 1, 1)
    if not lines or lines[0].rstrip("\r") != FENCE:
        raise InputError("no YAML front matter: the first line must be '---'", source, 1)
    size = 0
    for i in range(1, len(lines)):
        line = lines[i].rstrip("\r")
        if line == FENCE:
            yaml_text = "\n".join(lines[1:i]) + "\n"
            return yaml_text, "\n".join(lines[i + 1:]), i + 1
        size += len(lines[i].encode("utf-8")) + 1
        if size > MAX_FRONT_MATTER:
            raise InputError(f"front matter is larger than {MAX_FRONT_MATTER // 1024} KiB; refusing to parse it",
                             source, 1)
    raise InputError("front matter is not closed: no second '---' line", source, 1)


def _screen_events(yaml_text: str, source: str) -> None:
    """Refuse aliases, non-core tags and nesting deeper than
    :data:`evalport_spec.jsonload.MAX_DEPTH` by scanning parser events (nothing is constructed)."""
    try:
        for ev in bounded_events(yaml_text, _Loader):
            if isinstance(ev, yaml.AliasEvent):
                raise InputError(f"YAML alias '*{ev.anchor}' in front matter: aliases and anchors are "
                                 "not allowed (they can expand without bound)", source,
                                 ev.start_mark.line + 2, ev.start_mark.column + 1)
            tag = getattr(ev, "tag", None)
            if tag is not None and tag not in _CORE_TAGS:
                raise InputError(f"YAML tag {tag!r} in front matter is not allowed "
                                 "(only plain strings, numbers, booleans, null, lists and mappings)",
                                 source, ev.start_mark.line + 2, ev.start_mark.column + 1)
    except yaml.YAMLError as exc:
        raise _yaml_error(exc, yaml_text, source) from None


def _yaml_error(exc: yaml.YAMLError, yaml_text: str, source: str) -> InputError:
    """The error for ``exc``, raised reading the front matter ``yaml_text`` (which starts on the
    file's line 2, after the opening ``---``)."""
    problem, line, col = describe(exc, yaml_text)
    return InputError(f"front matter is not valid YAML: {problem}", source, line + 1 if line else 2, col)


def _key_lines(node: yaml.Node, prefix: str, out: dict[str, int]) -> None:
    if isinstance(node, yaml.MappingNode):
        for k, v in node.value:
            if isinstance(k, yaml.ScalarNode):
                name = f"{prefix}{k.value}"
                out.setdefault(name, k.start_mark.line + 2)
                if isinstance(v, yaml.MappingNode):
                    _key_lines(v, name + ".", out)


def parse(text: str, source: str) -> FrontMatter:
    """Parse an RFC file's text into a :class:`FrontMatter`.

    Raises:
        InputError: see the module docstring; the message names ``source`` and the line.
    """
    if len(text.encode("utf-8")) > MAX_RFC_BYTES:
        raise InputError(f"file is larger than {MAX_RFC_BYTES // (1024 * 1024)} MiB", source)
    yaml_text, body, offset = split(text, source)
    _screen_events(yaml_text, source)
    try:
        node = yaml.compose(yaml_text, Loader=_Loader)
        data = yaml.load(yaml_text, Loader=_Loader)  # noqa: S506 - _Loader is a SafeLoader subclass
    except yaml.YAMLError as exc:
        raise _yaml_error(exc, yaml_text, source) from None
    if not isinstance(data, dict):
        raise InputError("front matter must be a YAML mapping (key: value lines)", source, 2)
    bad = [k for k in data if not isinstance(k, str)]
    if bad:
        raise InputError(f"front matter key {bad[0]!r} is not a string", source, 2)
    lines: dict[str, int] = {}
    if node is not None:
        _key_lines(node, "", lines)
    return FrontMatter(data, lines, offset, body, offset)


# --- writing -----------------------------------------------------------------------------------

KEY_ORDER = ("number", "title", "status", "authors", "created", "comment_period", "period_history",
             "waiting_on", "discussion", "references", "affected_documents", "declared_class",
             "implemented_in", "decision_date", "resolution", "chosen_option", "approvers",
             "superseded_by", "accepts")
"""Canonical order of front matter keys when the tools write them."""

_PLAIN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9 _./()+,'-]*$")
_RESERVED = {"null", "true", "false", "yes", "no", "on", "off", "~", "y", "n"}


def _scalar(v: Any) -> str:
    """One YAML scalar: plain when it reads back as the same string, else JSON-quoted."""
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    s = str(v)
    if re.fullmatch(r"\d{4}-\d{2}-\d{2}|\d+\.\d+\.\d+|https://[^\s#]+", s):
        return s
    if _PLAIN.match(s) and s.lower() not in _RESERVED and not re.fullmatch(r"[-+0-9._eE]+", s) \
            and not s.endswith(" "):
        return s
    return json.dumps(s, ensure_ascii=False)


def _item(v: Any) -> str:
    """One list item: a scalar, or a mapping or list as a JSON flow value (JSON is YAML)."""
    return json.dumps(v, ensure_ascii=False) if isinstance(v, (dict, list)) else _scalar(v)


def dump(data: dict[str, Any]) -> str:
    """Render front matter (without the ``---`` fences) in :data:`KEY_ORDER`, block style.

    Supports the shapes RFC front matter uses: scalars, lists of scalars, of flat mappings
    (``approvers``, ``period_history``: block style) or of nested mappings (one JSON flow mapping
    per item, as ``accepts`` is written), and one level of nested mapping (``comment_period``).
    Round-trips through :func:`parse`.
    """
    keys = [k for k in KEY_ORDER if k in data] + [k for k in data if k not in KEY_ORDER]
    out: list[str] = []
    for k in keys:
        v = data[k]
        if isinstance(v, dict):
            out.append(f"{k}:")
            out.extend(f"  {kk}: {_scalar(vv)}" for kk, vv in v.items())
        elif isinstance(v, list):
            if not v:
                out.append(f"{k}: []")
            else:
                out.append(f"{k}:")
                for x in v:
                    if isinstance(x, dict) and not any(isinstance(vv, (dict, list)) for vv in x.values()):
                        out.extend(f"  {'- ' if i == 0 else '  '}{kk}: {_scalar(vv)}"
                                   for i, (kk, vv) in enumerate(x.items()))
                    else:
                        out.append(f"  - {_item(x)}")
        else:
            out.append(f"{k}: {_scalar(v)}")
    return "\n".join(out) + "\n"


def render(data: dict[str, Any], body: str) -> str:
    """A whole RFC file: fenced front matter followed by ``body``."""
    return f"{FENCE}\n{dump(data)}{FENCE}\n{body}"
