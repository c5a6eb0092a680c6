"""mutmut's stats phase, extended to the Python processes the tests start (``nox -s mutants``).

mutmut learns which tests reach which function by running the tests once in its own process
with ``MUTANT_UNDER_TEST=stats``: every mutated function's trampoline then records the function
(``mutmut.stats.record_trampoline_hit``) into that process's ``mutmut.state.state()._stats``,
which mutmut's pytest plugin files under the running test at its teardown. A function reached
only in a child process (the rule program ``gate/ruleprogram.py`` runs as
``python -I -B ruleprogram.py TOOLS``; the CLI run as ``python -m evalport_spec``) records into
the child's own state, which dies with it, so mutmut finds no test for its mutants ("no tests")
and never runs them.

The ``mutants`` session copies this file into its virtualenv's ``site-packages`` as
``evalport_mutation_children.py`` with a ``.pth`` line importing it, so that every Python of
that virtualenv loads it at start-up, isolated ones (``-I``, which ignore ``PYTHONPATH``)
included. It does nothing unless ``MUTANT_UNDER_TEST`` is ``stats`` and :data:`HITS` names a
file (tests/conftest.py sets it in the stats phase only); then it keeps the names the child's
trampolines record and appends them to that file, one per line, when the child exits. The
conftest hook adds the file's names to the parent's hits of the running test before mutmut's
plugin reads them. A child that dies by a signal or ``os._exit`` records nothing.
"""

from __future__ import annotations

import os

HITS = "EVALPORT_MUTMUT_CHILD_HITS"
"""Environment variable: the file children append their hits to (tests/conftest.py)."""


def _install() -> None:
    path = os.environ.get(HITS)
    if os.environ.get("MUTANT_UNDER_TEST") != "stats" or not path:
        return
    import atexit

    from mutmut.mutation import trampoline

    hits: set[str] = set()

    def record(name: str, caller: str | None = None) -> None:
        hits.add(name)

    def flush() -> None:
        if not hits:
            return
        data = "".join(f"{name}\n" for name in sorted(hits)).encode("utf-8")
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            os.write(fd, data)
        finally:
            os.close(fd)

    # The trampolines call the name imported into this module; mutmut's own would read mutmut's
    # configuration from the child's working directory (a scratch repository) to no end.
    trampoline.record_trampoline_hit = record
    atexit.register(flush)


_install()
