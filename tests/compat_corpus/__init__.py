"""The yardstick of the schema-compatibility classifier (issue 11): a seeded mutation corpus and a
differential oracle built on two independent validators.

Modules:

* :mod:`.oracle` -- python-jsonschema and jsonschema-rs for a raw schema set (:class:`Validators`),
  the classifier run on raw schemas (:func:`classify`);
* :mod:`.sources` -- the repository's schema sets, Confluent's cases (read from the shared
  peer-suite folder at run time), check-jsonschema's vendored schemas;
* :mod:`.mutate` -- the mutation operators (:data:`OPERATORS`) and the draft-04 conversion;
* :mod:`.corpus` -- :func:`build`: ``n`` pairs, deterministic per seed;
* :mod:`.search` -- the counter-example search (boundary values, the repository's generator,
  hypothesis-jsonschema);
* :mod:`.run` -- each pair judged in a forked process with time limits; figures and examples;
* :mod:`.shapes` -- generated stress shapes (nested ``oneOf``, ``anyOf`` groups, big enums, ...).

Used by ``tests/test_compat_shapes.py``, ``tests/test_compat_corpus.py``,
``benchmarks/bench_corpus.py`` (``python benchmarks/bench_corpus.py --pairs 2000 --json out.json``)
and ``benchmarks/bench_diff_shapes.py``.
"""
