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

A mutated module run as a script (the rule program is ``ruleprogram.py`` itself) is named
``__main__`` there, while mutmut names its functions and mutants after the module
(``evalport_spec.gate.ruleprogram.x__serve__mutmut_8``): the trampolines would record
``__main__.x__serve`` and never switch to a mutant of it. In such a child this module renames
both ways: hits are recorded under the module's name, and a mutant of that module is set as
``__main__``'s (``MUTANT_UNDER_TEST``, which the trampolines read at every call).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

HITS = "EVALPORT_MUTMUT_CHILD_HITS"
"""Environment variable: the file children append their hits to (tests/conftest.py)."""


def _script_module() -> str | None:
    """The dotted name of the file this process runs as a script when it sits in a package
    (``.../evalport_spec/gate/ruleprogram.py`` -> ``evalport_spec.gate.ruleprogram``), else None."""
    script = Path(sys.argv[0]) if sys.argv and sys.argv[0].endswith(".py") else None
    if script is None:
        return None
    parts, folder = [script.stem], script.absolute().parent
    while (folder / "__init__.py").is_file():
        parts.insert(0, folder.name)
        folder = folder.parent
    return ".".join(parts) if len(parts) > 1 else None


def _install() -> None:
    mutant, path = os.environ.get("MUTANT_UNDER_TEST", ""), os.environ.get(HITS)
    script = _script_module() if mutant else None
    if script and mutant.startswith(f"{script}."):
        os.environ["MUTANT_UNDER_TEST"] = f"__main__.{mutant.removeprefix(f'{script}.')}"
    if mutant != "stats" or not path:
        return
    import atexit

    from mutmut.mutation import trampoline

    hits: set[str] = set()

    def record(name: str, caller: str | None = None) -> None:
        if script and name.startswith("__main__."):
            name = f"{script}.{name.removeprefix('__main__.')}"
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
