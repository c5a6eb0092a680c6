"""EvalPort spec toolchain.

Library API (the CLI in :mod:`evalport_spec.cli` is a thin layer over these):

* :mod:`evalport_spec.jsonload` -- safe JSON loading with positions.
* :mod:`evalport_spec.schemaset` -- a set of JSON Schemas keyed by ``$id``, resolved offline.
* :mod:`evalport_spec.spec` -- one spec version (draft, release, or git revision) as an object.
* :mod:`evalport_spec.validation` -- schema pass plus cross-field rules.
* :mod:`evalport_spec.compat` -- the PATCH / MINOR / MAJOR classifier.
"""

__version__ = "0.1.0"
