"""Reports of ``evalport-spec diff`` kept on disk (:mod:`evalport_spec.diskcache`), so a diff of
unchanged inputs replays its report without loading the engine (issue 16).

An entry holds what the run that computed it wrote to standard output and to standard error,
and its exit code; a hit writes both back unchanged and exits with that code. Only complete
answers are kept (exit 0 or 1): an input error, an interruption or a crash is never stored. A
JSON report's ``stats`` (``seconds``) are those of the computing run.

The key (:func:`key`) is a digest of everything the report and the exit code are a function of:

* the code: :func:`~evalport_spec.diskcache.code_digest`, which the disk cache adds to every key
  (every file of the package, engine and bundled data; the interpreter's version; every installed
  distribution with its version: the validators, the dialect meta-schemas of
  jsonschema-specifications, referencing, the format checkers, the JSON parser, PyYAML);
* each side's input: the argument as given (the report names the sides by it) and the name and
  bytes of every file its resolution (:mod:`evalport_spec.compat.inputs`) can read: a schema
  file and each sibling that may be read as its context (read here whether or not that run needs
  it), or every schema of a folder. The candidates are chosen from the tree as it is now by the
  functions the resolution itself calls (:mod:`evalport_spec.diffinputs`), so a file appearing,
  vanishing, growing past the sibling limit or turning into a link changes the key;
* every option that changes the report or the exit code: ``--format``, ``--fail-on``,
  ``--direction``, ``--explain``, ``--no-format-assertion``, ``--search-budget``, ``-C``; with
  ``--ignore``, the file's name, its bytes and today's date (its entries expire by date);
* what the report reads of its surroundings: whether standard output and standard error are
  terminals (colour, the progress bar), ``NO_COLOR`` and ``EVALPORT_PROGRESS``.

Nothing else reaches the answer: the resolution reads no network (a remote ``$ref`` is
refused), and the engine reads no clock (but the ignore file's dates, above), no other
environment variable, and draws only from fixed seeds. An input changing while the diff runs is
caught: the key is taken again afterwards and the answer kept only if it is the same.

Computed every time, never cached: a side that is a release version, ``draft``, a spec version
folder or ``REF:PATH`` (its resolution reads a repository's catalogue, rules and manifest, or
git objects: keying on all of those would be the gate's input log, not a list of files);
``--format github`` (it also appends to ``$GITHUB_STEP_SUMMARY``); a path that is not a regular
file or folder; inputs over :data:`MAX_KEY_BYTES` in all (read twice, for a diff that long anyway).
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, TextIO

from . import diskcache
from .diffinputs import folder_files, local_kind, sibling_files

KIND = "diff-report"
"""The entry's kind, first in the key (no other cache user writes it)."""

MAX_KEY_BYTES = 64 << 20
"""Most bytes (64 MiB, both sides and the ignore file together) read to make a key; beyond it
the diff is computed without the cache."""


class _Budget:
    """Bytes still allowed to be read for one key."""

    def __init__(self) -> None:
        self.left = MAX_KEY_BYTES

    def read(self, path: Path) -> bytes | None:
        """``path``'s bytes, or ``None`` (not a regular file, unreadable, or over budget). Opened
        non-blocking: opening a FIFO (``diff --ignore FIFO``) waits for a writer otherwise, and
        the key was computed before the reader that refuses it (a hang, session 35)."""
        try:
            fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
        except OSError:
            return None
        try:
            with open(fd, "rb") as fh:
                if not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):
                    return None
                data = fh.read(self.left + 1)
        except OSError:
            return None
        self.left -= len(data)
        return data if self.left >= 0 else None


def _side(arg: str, budget: _Budget) -> list[Any] | None:
    """``[kind, arg, [name, sha-256]...]`` for a side resolved from local files, else ``None``."""
    if arg.startswith("-"):
        return None
    kind, p = local_kind(arg), Path(arg)
    try:
        if kind == "file":
            if not stat.S_ISREG(os.stat(p).st_mode):  # never open a FIFO or a device
                return None
            files = [("named", p), *(("sibling", x) for x in sibling_files(p))]
        elif kind == "folder":
            files = [("schema", x) for x in folder_files(p)]
        else:
            return None
    except OSError:
        return None
    out: list[Any] = [kind, arg]
    for role, f in files:
        data = budget.read(f)
        if data is None:
            return None
        out.append([role, f.name, hashlib.sha256(data).hexdigest()])
    return out


def _terminal(stream: TextIO) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False


def key(old: str, new: str, *, options: Mapping[str, Any], ignore: str | None = None) -> str | None:
    """The cache key of ``diff OLD NEW`` (the module docstring says what it covers), or ``None``
    when that diff is not cached or caching is off.

    Args:
        old, new: the two arguments as given on the command line.
        options: every other option that changes the report or the exit code, by name (JSON
            values); ``format: "github"`` is never cached.
        ignore: the ``--ignore`` file's path, if any.
    """
    if diskcache.cache_dir() is None or options.get("format") == "github":
        return None
    budget = _Budget()
    sides = [_side(old, budget), _side(new, budget)]
    if None in sides:
        return None
    ignored = None
    if ignore is not None:
        data = budget.read(Path(ignore))
        if data is None:
            return None
        import datetime as dt  # only an ignore file reads the date

        ignored = [ignore, hashlib.sha256(data).hexdigest(), dt.date.today().isoformat()]
    env = {"stdout_tty": _terminal(sys.stdout), "stderr_tty": _terminal(sys.stderr),
           "no_color": bool(os.environ.get("NO_COLOR")), "progress": os.environ.get("EVALPORT_PROGRESS")}
    text = json.dumps([KIND, sides, dict(sorted(options.items())), ignored, env])
    return hashlib.sha256(text.encode()).hexdigest()


def replay(k: str) -> int | None:
    """Write the report stored under key ``k`` to standard output and standard error as the
    computing run wrote them; return its exit code, or ``None`` on a miss (no entry, or one that
    is corrupt, truncated or not a diff report: nothing is written then)."""
    data = diskcache.load(k)
    if data is None or data.get("kind") != KIND:
        return None
    out, err, code = data.get("stdout"), data.get("stderr"), data.get("exit")
    if not (isinstance(out, str) and isinstance(err, str) and code in (0, 1) and type(code) is int):
        return None
    sys.stdout.write(out)
    sys.stdout.flush()
    sys.stderr.write(err)
    return code


class _Tee:
    """A text stream that passes everything on to ``stream`` and keeps a copy."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream
        self.parts: list[str] = []

    def write(self, s: str) -> int:
        self.parts.append(s)
        return self._stream.write(s)

    def __getattr__(self, name: str) -> Any:  # isatty, flush, encoding, fileno...
        return getattr(self._stream, name)


def computed(k: str | None, run: Callable[[], int], again: Callable[[], str | None]) -> int:
    """Run ``run()`` (the diff: it prints its report, returns the exit code) and, when ``k`` is
    a key, keep what it wrote to standard output and standard error under ``k`` if it exits 0
    or 1 and ``again()`` (the key taken anew) is still ``k``. Returns the exit code; what
    ``run`` raises passes through, nothing stored."""
    if k is None:
        return run()
    saved = sys.stdout, sys.stderr
    out, err = _Tee(sys.stdout), _Tee(sys.stderr)
    sys.stdout, sys.stderr = out, err  # type: ignore[assignment]
    try:
        code = run()
    finally:
        sys.stdout, sys.stderr = saved
    if code in (0, 1) and again() == k:
        diskcache.store(k, {"kind": KIND, "stdout": "".join(out.parts), "stderr": "".join(err.parts),
                            "exit": code})
    return code
