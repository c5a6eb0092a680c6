"""Run every benchmark script in this folder (``bench_*.py``) and print their tables.

``nox -s bench`` calls this. Each script prints its own markdown table and exits non-zero when a
target is missed; this runner reports which ones missed and exits 1 if any did.
"""

from __future__ import annotations

import platform
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main() -> int:
    """Run each ``bench_*.py`` (optionally only those named on the command line)."""
    wanted = set(sys.argv[1:])
    print(f"machine: {platform.platform()}, python {platform.python_version()}, "
          f"{__import__('os').cpu_count()} cores")
    missed = []
    for script in sorted(HERE.glob("bench_*.py")):
        if wanted and script.stem not in wanted and script.stem.removeprefix("bench_") not in wanted:
            continue
        print(f"\n## {script.stem}\n", flush=True)
        if subprocess.call([sys.executable, str(script)]) != 0:
            missed.append(script.stem)
    if missed:
        print(f"\ntargets missed: {', '.join(missed)}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
