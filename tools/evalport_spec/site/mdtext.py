"""Markdown text transforms the generated pages share (pure functions on strings).

* :func:`protect_pointers`: a JSON Pointer with the ``*`` wildcard written in prose
  (``/results/*/isolation``) would lose its stars to emphasis; it is put in a code span.
* :func:`number_headings`: SPEC.md's sections numbered (``3.1 Suite``) while keeping the
  anchors the unnumbered headings had, so links into the page stay valid.
* :func:`pointer_html`: a pointer as HTML code with a break opportunity after each ``/``, for
  table cells that wrap at token boundaries instead of inside a word.
* :func:`outside_code`: apply a transform to the prose lines of a page only.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterator

from markdown.extensions.toc import slugify

_FENCE = re.compile(r"^\s*(`{3,}|~{3,})")
_CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1")
_TOKEN = r"(?:[A-Za-z0-9_~-]+|\*)"
_POINTER = re.compile(rf"(?<![\w/:.*\\`])/{_TOKEN}(?:/{_TOKEN})*(?![\w/])")
_HEADING = re.compile(r"^(#{2,3})\s+(.+?)\s*$")
_ATTR = re.compile(r"\s*\{[^}]*#([A-Za-z0-9_:.-]+)[^}]*\}\s*$")


def _lines(text: str) -> Iterator[tuple[str, bool]]:
    """Each line of ``text`` with whether it is part of a fenced code block (fence lines
    included)."""
    fence: str | None = None
    for line in text.split("\n"):
        m = _FENCE.match(line)
        if m:
            token = m.group(1)
            if fence is None:
                fence = token[0] * len(token)
            elif line.strip().startswith(fence) and not line.strip().strip(fence[0]):
                fence = None
            yield line, True
            continue
        yield line, fence is not None


def outside_code(text: str, transform: Callable[[str], str]) -> str:
    """``text`` with ``transform`` applied to every line outside fenced code blocks, and within
    such a line only to the pieces outside code spans."""
    out: list[str] = []
    for line, code in _lines(text):
        if code:
            out.append(line)
            continue
        pieces, last = [], 0
        for span in _CODE_SPAN.finditer(line):
            pieces += [transform(line[last:span.start()]), span.group(0)]
            last = span.end()
        pieces.append(transform(line[last:]))
        out.append("".join(pieces))
    return "\n".join(out)


def protect_pointers(text: str) -> str:
    """Put every JSON Pointer containing the ``*`` wildcard that stands in prose into a code
    span (``/results/*/isolation`` -> ``` `/results/*/isolation` ```), so Markdown does not read
    its stars as emphasis. Code spans and fenced code are left alone."""
    def wrap(piece: str) -> str:
        return _POINTER.sub(lambda m: f"`{m.group(0)}`" if "*" in m.group(0) else m.group(0), piece)
    return outside_code(text, wrap)


def number_headings(text: str) -> str:
    """Number the ``##`` and ``###`` headings of a page (``## 3. Documents``, ``### 3.1 Suite``),
    each keeping the id its unnumbered text had (the slug Python-Markdown's ``toc`` makes, or
    an explicit ``{#id}``), so existing links to ``page.md#suite`` still land."""
    h2 = h3 = 0
    seen: dict[str, int] = {}

    def renumber(line: str) -> str:
        nonlocal h2, h3
        m = _HEADING.match(line)
        if not m:
            return line
        level, title = m.groups()
        attr = _ATTR.search(title)
        if attr:
            anchor, title = attr.group(1), title[:attr.start()]
        else:
            anchor = slugify(html.unescape(title.replace("`", "")), "-")
            n = seen.get(anchor, 0)
            seen[anchor] = n + 1
            anchor = anchor if n == 0 else f"{anchor}_{n}"
        if level == "##":
            h2, h3 = h2 + 1, 0
            number = f"{h2}."
        else:
            h3 += 1
            number = f"{h2}.{h3}"
        return f"{level} {number} {title} {{#{anchor}}}"

    out = [line if code else renumber(line) for line, code in _lines(text)]
    return "\n".join(out)


def pointer_html(path: str) -> str:
    """``path`` as ``<code>`` HTML with a ``<wbr>`` after each ``/`` but the first, so a narrow
    table cell breaks a long pointer between its tokens, never inside a member name."""
    text = html.escape(path)
    head, sep, rest = text.partition("/") if text.startswith("/") else ("", "", text)
    return f"<code>{head}{sep}{rest.replace('/', '/<wbr>')}</code>"
