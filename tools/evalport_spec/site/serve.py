"""Serve a built or published site on 127.0.0.1 the way its host will: under the site's path.

The published site lives at ``site_url`` (``https://evalport.github.io/spec/``), so its pages,
404 pages and schema ``$id`` URLs all start with ``/spec/``. :func:`start_server` serves a tree
laid out as mike publishes it (``<version>/``, ``latest/``, ``versions.json``, ``404.html``)
under that same path, so ``http://127.0.0.1:PORT/spec/1.2.0/schemas/resultset.json`` is the
local twin of the schema's ``$id`` and every absolute link of a 404 page resolves.

Like a static host (GitHub Pages), a path that names no file answers ``404`` with a not-found
page: the one of the version folder the path is in (``<version>/404.html``), else the site's
top-level ``404.html``. ``/`` redirects to the site's path.
"""

from __future__ import annotations

import functools
import os
import threading
from http import HTTPStatus
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import yaml

from ..errors import InputError
from ..yamldepth import load

SITE_URL = "https://evalport.github.io/spec/"
"""The published site's address when mkdocs.yml names none."""


def site_url(config: Path | None) -> str:
    """``site_url`` of the mkdocs config file ``config`` (with a final ``/``), else
    :data:`SITE_URL`. An unreadable config gives :data:`SITE_URL` (the strict build reports it),
    as does one that nests past :data:`evalport_spec.jsonload.MAX_DEPTH` or has a tagged value
    PyYAML cannot build (it raised ``ValueError`` or ``RecursionError`` from here before)."""
    try:
        data = load(Path(config).read_text(encoding="utf-8")) if config else None
    except (OSError, yaml.YAMLError, UnicodeDecodeError, ValueError):
        data = None
    url = data.get("site_url") if isinstance(data, dict) else None
    if not isinstance(url, str) or not url.strip():
        return SITE_URL
    return url if url.endswith("/") else url + "/"


def site_path(url: str) -> str:
    """The path of a site URL, with leading and trailing ``/``: ``".../spec/"`` -> ``"/spec/"``."""
    path = urlsplit(url).path or "/"
    path = path if path.startswith("/") else "/" + path
    return path if path.endswith("/") else path + "/"


class SiteHandler(SimpleHTTPRequestHandler):
    """Static files of ``directory`` under URL path ``prefix`` (see the module docstring)."""

    prefix = "/"
    quiet = True

    def __init__(self, *args: Any, prefix: str = "/", quiet: bool = True, **kwargs: Any) -> None:
        self.prefix, self.quiet = prefix, quiet
        super().__init__(*args, **kwargs)

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        if not self.quiet:
            super().log_message(format, *args)

    def _relative(self) -> str | None:
        """The request path below :attr:`prefix` (``""`` for the prefix itself), or ``None``."""
        path = unquote(urlsplit(self.path).path)
        if path + "/" == self.prefix:
            return ""
        return path[len(self.prefix):] if path.startswith(self.prefix) else None

    def translate_path(self, path: str) -> str:
        rel = self._relative()
        return super().translate_path("/" + (rel or ""))

    def send_head(self) -> Any:
        rel = self._relative()
        if rel is None:
            if urlsplit(self.path).path == "/" and self.prefix != "/":
                self.send_response(HTTPStatus.FOUND)
                self.send_header("Location", self.prefix)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return None
            return self._not_found("")
        target = Path(self.translate_path(self.path))
        if target.is_dir() and not urlsplit(self.path).path.endswith("/"):
            return super().send_head()  # 301 to the folder with a final slash
        if target.is_dir():
            target = target / "index.html"
        if not target.is_file():
            return self._not_found(rel)
        return super().send_head()

    def _not_found(self, rel: str) -> Any:
        """Answer 404 with the version's ``404.html`` or the site's, else a one-line page."""
        root = Path(self.directory)
        first = rel.split("/", 1)[0]
        body = b"404 Not Found\n"
        ctype = "text/plain; charset=utf-8"
        for page in ([root / first / "404.html"] if first else []) + [root / "404.html"]:
            if page.is_file():
                body, ctype = page.read_bytes(), "text/html; charset=utf-8"
                break
        self.send_response(HTTPStatus.NOT_FOUND)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)
        return None


def bind_server(root: Path, port: int = 0, quiet: bool = True, prefix: str = "/") -> ThreadingHTTPServer:
    """A server for ``root`` under URL path ``prefix`` (e.g. ``"/spec/"``) bound to
    127.0.0.1:``port`` (0: any free port), not serving yet: ``docs serve`` binds before its
    build so a busy port fails at once.

    Raises:
        InputError: ``port`` outside 0-65535, or the address cannot be bound (in use, not
            permitted).
    """
    if not 0 <= port <= 65535:
        raise InputError(f"--port {port} is not a TCP port (0-65535; 0 picks a free one)")
    handler = functools.partial(SiteHandler, directory=os.fspath(root), prefix=site_path(prefix), quiet=quiet)
    try:
        return ThreadingHTTPServer(("127.0.0.1", port), handler)
    except OSError as exc:
        raise InputError(f"cannot serve on 127.0.0.1:{port}: {exc.strerror or exc}") from None


def start_server(root: Path, port: int = 0, quiet: bool = True, prefix: str = "/",
                 server: ThreadingHTTPServer | None = None) -> ThreadingHTTPServer:
    """Serve ``root`` under URL path ``prefix`` on 127.0.0.1 (``port`` 0: any free port) from a
    daemon thread, or start ``server`` (from :func:`bind_server`) when given.

    Returns the server; the site is at ``f"http://127.0.0.1:{server.server_address[1]}{prefix}"``.
    Stop it with ``server.shutdown(); server.server_close()``.

    Raises:
        InputError: as :func:`bind_server`.
    """
    server = server or bind_server(root, port, quiet, prefix)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server
