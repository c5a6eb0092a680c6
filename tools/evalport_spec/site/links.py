"""Rewrite relative links of Markdown copied from the repository onto the site.

A page such as ``spec/SPEC.md`` or ``rfcs/0003-repetitions.md`` links to other repository files by
relative paths. On the site those files live elsewhere (``spec/schemas/x.json`` becomes
``schemas/x.json`` of the version). :func:`rewrite_links` maps every relative link whose target
is a repository file published on the site to that page's relative URL; a link to a repository
file that the site does not publish becomes its path in code (the text stays readable); a link to
a file that does not exist is left alone, so the strict build reports it as broken.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Mapping

from .mdtext import outside_code

_LINK = re.compile(r"(!?)\[((?:[^\[\]]|\[[^\]]*\])*)\]\(\s*<?([^)\s>]+)>?(\s+\"[^\"]*\")?\s*\)")
_SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")


def rewrite_links(text: str, source: str, site_page: str, site_map: Mapping[str, str],
                  exists: Callable[[str], bool]) -> str:
    """Rewrite the relative links of one Markdown page.

    Args:
        text: the Markdown.
        source: its path relative to the repository root (``"spec/SPEC.md"``).
        site_page: where the page lands, relative to the site's docs folder (``"spec.md"``).
        site_map: ``{repository path: site path}`` of everything published (site paths relative
            to the docs folder, e.g. ``{"spec/schemas/suite.json": "schemas/suite.json"}``).
        exists: whether a repository path exists (to leave truly broken links for the strict build).

    Returns the rewritten text; code spans and fenced code blocks are not touched.
    """
    return outside_code(text, lambda piece: _LINK.sub(
        lambda m: _one(m, source, site_page, site_map, exists), piece))


def _one(m: re.Match[str], source: str, site_page: str, site_map: Mapping[str, str],
         exists: Callable[[str], bool]) -> str:
    bang, label, target, title = m.group(1), m.group(2), m.group(3), m.group(4) or ""
    if _SCHEME.match(target) or target.startswith(("#", "/")):
        return m.group(0)
    path, _, frag = target.partition("#")
    if not path:
        return m.group(0)
    repo_path = posixpath.normpath(posixpath.join(posixpath.dirname(source), path))
    if repo_path.startswith("../"):
        return m.group(0)
    if repo_path in site_map:
        rel = posixpath.relpath(site_map[repo_path], posixpath.dirname(site_page) or ".")
        return f"{bang}[{label}]({rel}{'#' + frag if frag else ''}{title})"
    if exists(repo_path):
        return label if bang else f"{label} (`{repo_path}`)"
    return m.group(0)
