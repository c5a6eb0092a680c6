"""``sigterm_raises`` (``evalport_spec.sigterm``): SIGTERM raises ``Terminated`` in the main
thread within the block; elsewhere, or when SIGTERM is ignored, nothing changes."""

from __future__ import annotations

import os
import signal
import threading

import pytest

from evalport_spec.sigterm import Terminated, sigterm_raises


def test_in_the_main_thread_sigterm_raises_and_the_handler_is_put_back():
    before = signal.getsignal(signal.SIGTERM)
    with pytest.raises(Terminated), sigterm_raises():
        os.kill(os.getpid(), signal.SIGTERM)
    assert signal.getsignal(signal.SIGTERM) is before


def test_outside_the_main_thread_the_block_runs_and_nothing_changes():
    before, seen = signal.getsignal(signal.SIGTERM), []

    def body():
        try:
            with sigterm_raises():
                seen.append(signal.getsignal(signal.SIGTERM))
        except BaseException as exc:  # what the block must not raise
            seen.append(exc)

    t = threading.Thread(target=body)
    t.start()
    t.join()
    assert seen == [before] and signal.getsignal(signal.SIGTERM) is before


def test_an_ignored_sigterm_stays_ignored():
    previous = signal.signal(signal.SIGTERM, signal.SIG_IGN)
    try:
        with sigterm_raises():
            assert signal.getsignal(signal.SIGTERM) is signal.SIG_IGN
    finally:
        signal.signal(signal.SIGTERM, previous)
