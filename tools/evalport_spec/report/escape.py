"""One escaper per output format: text from files (messages quote values, file names and keys
a user wrote) never changes the shape of the output it is written into.

* terminal text: :func:`text` (control characters shown as ``\\xNN``: a key holding ESC cannot
  recolour or move the cursor);
* Markdown (GitHub-flavoured, GFM spec 0.29): :func:`md_cell` for table cells and prose,
  :func:`md_code` for code spans, :func:`html` inside raw HTML (``<summary>``);
* GitHub workflow commands: :func:`gh_data` for the message, :func:`gh_property` for
  ``file=``/``title=`` values (the escaping of ``@actions/core``'s ``command.ts``);
* XML 1.0 (JUnit): :func:`xml_text` drops what XML cannot carry at all (ElementTree escapes
  ``&``, ``<`` and quotes itself).
"""

from __future__ import annotations

import re
from typing import Any

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
_XML_ILLEGAL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
_CODE_SPAN = re.compile(r"(`+)(.+?)(?<!`)\1(?!`)", re.S)
_BACKTICKS = re.compile(r"`+")
_TAG_START = re.compile(r"<(?=[A-Za-z/!?])")  # what can open raw HTML or an autolink (GFM 6.6, 6.5)


def _hex(m: re.Match[str]) -> str:
    return f"\\x{ord(m.group()):02x}"


def text(value: Any) -> str:
    """``value`` as terminal-safe text: C0 controls other than tab and newline, DEL and C1
    controls (ECMA-48: ESC starts colour and cursor sequences) become ``\\xNN``."""
    return _CONTROL.sub(_hex, str(value))


def _prose(s: str) -> str:
    return _TAG_START.sub("&lt;", s)


def md_cell(value: Any) -> str:
    """``value`` for a GFM table cell (or a line of prose): ``|`` escaped as ``\\|`` (GFM
    escapes it inside code spans too), line breaks as ``<br>``, a ``<`` that could open raw
    HTML or an autolink (followed by a letter, ``/``, ``!`` or ``?``) outside code spans as
    ``&lt;`` (no markup from a message), control characters as in :func:`text`."""
    s = text(value).replace("\r\n", "\n").replace("\r", "\n")
    parts, last = [], 0
    for m in _CODE_SPAN.finditer(s):
        parts.append(_prose(s[last:m.start()]))
        parts.append(m.group(0).replace("\n", " "))
        last = m.end()
    parts.append(_prose(s[last:]))
    return "".join(parts).replace("|", "\\|").replace("\n", "<br>")


def md_code(value: Any) -> str:
    """``value`` as one GFM code span: fenced with one backtick more than its longest run of
    backticks, padded with a space when it starts or ends with one; line breaks become spaces."""
    s = text(value).replace("\r", " ").replace("\n", " ")
    if not s:
        return "` `"
    fence = "`" * (max((len(m) for m in _BACKTICKS.findall(s)), default=0) + 1)
    pad = " " if s[0] == "`" or s[-1] == "`" or (s[0] == " " and s[-1] == " " and s.strip()) else ""
    return f"{fence}{pad}{s}{pad}{fence}"


def html(value: Any) -> str:
    """``value`` inside raw HTML (``<summary>``, ``<code>``): ``& < > " '`` as entities."""
    from html import escape  # (html.entities is a large table: loaded for this format only)

    return escape(text(value), quote=True)


def gh_data(value: Any) -> str:
    """The message of a GitHub workflow command: ``%``, CR and LF percent-encoded."""
    return str(value).replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def gh_property(value: Any) -> str:
    """A property value of a workflow command (``file=``, ``title=``): as :func:`gh_data`,
    plus ``:`` and ``,``, which would end the value."""
    return gh_data(value).replace(":", "%3A").replace(",", "%2C")


def xml_text(value: Any) -> str:
    """``value`` with the characters XML 1.0 cannot represent (C0 controls but tab, LF, CR;
    U+FFFE, U+FFFF) shown as ``\\xNN``."""
    return _XML_ILLEGAL.sub(_hex, str(value))
