"""Set up development with nothing but Python 3.11+: ``python3 bootstrap.py``.

Makes the virtual environment ``.venv/`` beside this file and installs this repository into it,
editable, with its ``dev`` extra (the toolchain, pytest, nox, ruff). A virtual environment,
because Debian's and Ubuntu's ``python3`` refuse ``pip install`` outside one (PEP 668,
"externally managed"). Then::

    .venv/bin/evalport-spec check     # the spec gate on this repository
    .venv/bin/nox -s tests            # the test suite

Works where the interpreter has no ``ensurepip`` (Debian ships it separately, in
``python3-venv``): the environment is made without pip and pip's own wheel is fetched from the
package index pip would use (``PIP_INDEX_URL``, else ``index-url`` of a pip configuration file,
else PyPI), its SHA-256 checked against the index's, and run from the wheel to install itself.
``--without-ensurepip`` takes that path on purpose. Running it again reuses ``.venv/``.

Exit status: 0 ready, 1 an install step failed (its output is shown), 2 an unsupported Python.
"""

from __future__ import annotations

import argparse
import configparser
import hashlib
import html.parser
import importlib.util
import os
import re
import subprocess
import sys
import tempfile
import urllib.parse
import urllib.request
import venv
from pathlib import Path

HERE = Path(__file__).resolve().parent
MIN_PYTHON = (3, 11)
DEFAULT_INDEX = "https://pypi.org/simple"
_WHEEL = re.compile(r"^pip-(\d+(?:\.\d+)*)-py3-none-any\.whl$")


class _Links(html.parser.HTMLParser):
    """The ``href`` of every anchor of a PEP 503 "simple" project page."""

    def __init__(self) -> None:
        super().__init__()
        self.hrefs: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "a":
            self.hrefs += [v for k, v in attrs if k == "href" and v]


def configured_indexes() -> list[str]:
    """Package indexes in the order pip would consult them: ``PIP_INDEX_URL`` or the
    ``index-url`` of pip's configuration files (else PyPI), then the extra indexes."""
    cfg = configparser.ConfigParser()
    files = ["/etc/pip.conf", "/etc/xdg/pip/pip.conf", os.path.expanduser("~/.pip/pip.conf"),
             os.path.expanduser("~/.config/pip/pip.conf"), os.environ.get("PIP_CONFIG_FILE", "")]
    cfg.read([f for f in files if f and os.path.isfile(f)])
    main = os.environ.get("PIP_INDEX_URL") or cfg.get("global", "index-url", fallback=DEFAULT_INDEX)
    extra = os.environ.get("PIP_EXTRA_INDEX_URL") or cfg.get("global", "extra-index-url", fallback="")
    return [main, *extra.split()]


def fetch_pip_wheel(dest: Path) -> Path:
    """Download the newest ``pip-*-py3-none-any.whl`` listed by the first configured index that
    has one (PEP 503 page ``INDEX/pip/``) into ``dest``, checking its ``#sha256=`` digest.

    Raises:
        RuntimeError: no index lists a pip wheel with a digest, or the digest differs.
    """
    for index in configured_indexes():
        page = index.rstrip("/") + "/pip/"
        if page.startswith("file:"):  # a local index is a folder tree: the page is its index.html
            page += "index.html"
        try:
            with urllib.request.urlopen(page, timeout=60) as resp:
                parser = _Links()
                parser.feed(resp.read().decode("utf-8", "replace"))
        except (OSError, ValueError):
            continue
        found = []
        for href in parser.hrefs:
            url, _, fragment = urllib.parse.urljoin(page, href).partition("#")
            name = urllib.parse.unquote(url.rsplit("/", 1)[-1])
            m = _WHEEL.match(name)
            if m and fragment.startswith("sha256="):
                found.append((tuple(int(x) for x in m.group(1).split(".")), name, url, fragment[7:]))
        if not found:
            continue
        _, name, url, digest = max(found)
        with urllib.request.urlopen(url, timeout=300) as resp:
            data = resp.read()
        if hashlib.sha256(data).hexdigest() != digest:
            raise RuntimeError(f"{name} from {index}: SHA-256 does not match the index")
        wheel = dest / name
        wheel.write_bytes(data)
        return wheel
    raise RuntimeError("no package index reachable here lists a pip wheel; install python3-venv "
                       "(Debian/Ubuntu) or set PIP_INDEX_URL")


def make_env(env_dir: Path, use_ensurepip: bool) -> Path:
    """Create (or reuse) the virtual environment at ``env_dir`` with pip in it; return its
    interpreter."""
    python = env_dir / "bin" / "python"
    has_pip = python.exists() and subprocess.run([python, "-m", "pip", "--version"],
                                                 capture_output=True).returncode == 0
    if has_pip:
        return python
    if use_ensurepip and importlib.util.find_spec("ensurepip") is not None:
        try:
            venv.EnvBuilder(with_pip=True, clear=True).create(env_dir)
            return python
        except subprocess.CalledProcessError:
            pass  # a Debian without python3-venv: ensurepip is there but has no wheels
    print(f"bootstrap: {sys.executable} has no usable ensurepip; installing pip from the package index",
          file=sys.stderr)
    venv.EnvBuilder(with_pip=False, clear=True).create(env_dir)
    with tempfile.TemporaryDirectory() as tmp:
        wheel = fetch_pip_wheel(Path(tmp))
        subprocess.run([python, f"{wheel}/pip", "install", "--quiet", "--no-index", str(wheel)], check=True)
    return python


def main(argv: list[str] | None = None) -> int:
    """Make ``.venv`` and install ``.[dev]`` into it. Returns the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--without-ensurepip", action="store_true",
                        help="make the environment without ensurepip and fetch pip from the index")
    parser.add_argument("--env", default=str(HERE / ".venv"), help="where to make it (default: .venv)")
    args = parser.parse_args(argv)
    if sys.version_info < MIN_PYTHON:
        print(f"bootstrap: error: Python {'.'.join(map(str, MIN_PYTHON))} or newer is needed; "
              f"{sys.executable} is {sys.version.split()[0]}", file=sys.stderr)
        return 2
    try:
        python = make_env(Path(args.env), not args.without_ensurepip)
        subprocess.run([python, "-m", "pip", "install", "--quiet", "-e", f"{HERE}[dev]"], check=True)
    except (subprocess.CalledProcessError, RuntimeError, OSError) as exc:
        print(f"bootstrap: error: {exc}", file=sys.stderr)
        return 1
    print(f"bootstrap: ready: {args.env} (try {args.env}/bin/evalport-spec check)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
