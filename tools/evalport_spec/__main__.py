"""``python -m evalport_spec``: the command line, loaded and run with the garbage collector at
the toolchain's pace (:mod:`evalport_spec.gcpace`: loading the commands is a run of allocations
too)."""

import sys

from .gcpace import paced_gc

with paced_gc():
    from .cli import main

    code = main()
sys.exit(code)
