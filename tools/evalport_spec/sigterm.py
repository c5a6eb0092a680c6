"""SIGTERM handled the way Python handles Ctrl-C (SIGINT): as an exception, so that every
``finally`` and ``except KeyboardInterrupt`` clean-up runs (a ``conformance --command`` run's
process group is killed, a lock file removed, a journalled write completed or discarded) before
the process exits. Without a handler, SIGTERM's default action ends the process at once and
leaves the processes it started running.

The exit status follows the shell convention of 128 + the signal number (POSIX.1-2017, Shell
Command Language 2.8.2 "Exit Status for Commands"): 130 after Ctrl-C, :data:`EXIT_STATUS` (143)
after SIGTERM.
"""

from __future__ import annotations

import contextlib
import signal
from collections.abc import Iterator
from types import FrameType

EXIT_STATUS = 128 + signal.SIGTERM
"""Exit status of a command ended by SIGTERM (143 on Linux and macOS)."""


class Terminated(KeyboardInterrupt):
    """SIGTERM arrived. A :class:`KeyboardInterrupt`, so that the clean-up written for Ctrl-C
    runs for it too and ``except Exception`` does not swallow it."""


def _raise(signum: int, frame: FrameType | None) -> None:
    raise Terminated


@contextlib.contextmanager
def sigterm_raises() -> Iterator[None]:
    """Within the block, SIGTERM raises :class:`Terminated` in the main thread; the previous
    handler is restored after it. Nothing changes when SIGTERM is ignored (``SIG_IGN``, as the
    parent asked: Python does the same for SIGINT) or outside the main thread (only it may set
    handlers)."""
    if signal.getsignal(signal.SIGTERM) is signal.SIG_IGN:
        yield
        return
    try:
        previous = signal.signal(signal.SIGTERM, _raise)
    except ValueError:  # not the main thread (signal.signal's own test; no threading import, issue 16)
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
