"""The published, versioned spec site: generated mkdocs pages and mike publishing.

Public API:

* :func:`generate_version` ``(repo, vs, name, dest, rfcs=None) -> VersionPages``: the Markdown
  pages of one version (SPEC.md, schema reference, rules, fixtures, changelog, RFCs, toolchain
  docs, CLI reference) written into ``dest``.
* :func:`build_site` ``(repo, out, version=None, progress=None) -> list[BuildResult]``: strict
  mkdocs builds laid out as mike would publish them (``out/<version>/``, ``versions.json``,
  ``latest/``).
* :func:`start_server` ``(root, port=0, quiet=True, prefix="/") -> ThreadingHTTPServer``: serve a
  built tree on 127.0.0.1 under the site's path (:func:`site_path` of :func:`site_url`), with
  the version's or the site's 404 page for a missing path.
* :func:`publish` ``(repo, branch="gh-pages", push=False, allow_dirty=False, progress=None)
  -> list[PublishStep]``: deploy every release and the draft with mike.
* :func:`cli_reference` ``(parser) -> str`` (the command line passes its parser in) and :class:`SchemaWalker` (schema -> rows).
* :func:`order_versions` ``(entries) -> list[dict]``: versions.json entries in selector order
  (releases newest first, draft last); :func:`fence` ``(repo)``: refuse symlinks leaving the
  repository under spec/, rfcs/, docs/. :mod:`.ghpages` re-orders the published versions.json.
"""

from .build import BuildResult, as_of_date, build_site, fence, order_versions
from .cliref import cli_reference
from .history import VersionSet, changes, history_svg, property_since
from .pages import VersionPages, generate_version, prop_anchor, rule_anchor
from .publish import PublishStep, check_clean, publish
from .serve import bind_server, site_path, site_url, start_server
from .walk import Prop, SchemaWalker

__all__ = ["BuildResult", "Prop", "PublishStep", "SchemaWalker", "VersionPages", "VersionSet",
           "as_of_date", "bind_server", "build_site", "site_path", "site_url", "changes", "fence", "order_versions", "check_clean", "cli_reference", "generate_version", "history_svg",
           "prop_anchor", "property_since", "publish", "rule_anchor", "start_server"]
