"""benchmarks/_measure.py: a command's peak memory, CPU and exit code are its own."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

from _measure import run_process  # noqa: E402


def test_a_small_command_is_not_charged_the_benchmarks_memory():
    ballast = bytearray(300 * 1024 * 1024)  # the benchmark process holds 300 MiB, touched
    ballast[::4096] = b"x" * len(ballast[::4096])
    run = run_process(["sh", "-c", "exit 0"], repeat=1)
    assert run.peak_mib < 60, run  # (Linux keeps ru_maxrss across exec: a direct fork said > 300)
    assert run.exit_codes == [0]
    del ballast


def test_a_command_that_allocates_is_measured_at_its_own_peak():
    run = run_process([sys.executable, "-c", "x = bytearray(200 * 1024 * 1024); x[::4096] = b'x' * len(x[::4096])"],
                      repeat=1)
    assert 200 <= run.peak_mib < 280, run
    assert run.cpu > 0


def test_exit_codes_and_signals():
    assert run_process(["sh", "-c", "exit 3"], repeat=2).exit_codes == [3, 3]
    assert run_process(["sh", "-c", "kill -TERM $$"], repeat=1).exit_codes == [128 + 15]
