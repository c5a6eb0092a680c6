"""The plain classes of the self-diff's path (:mod:`evalport_spec.record`) compare and print as
the dataclasses they replaced (session 37, issue 16): each is checked against a dataclass made
here with the same fields, defaults and ``repr``/``compare`` flags."""

from __future__ import annotations

import dataclasses

from evalport_spec.changeclass import ChangeClass
from evalport_spec.compat.inputs import FileSet
from evalport_spec.diffresult import Classification
from evalport_spec.findings import ChangeClass as ReExported
from evalport_spec.findings import Finding
from evalport_spec.jsonload import loads
from evalport_spec.report.arrange import Entry
from evalport_spec.report.model import Check, Report
from evalport_spec.schemaset import SchemaFile, SchemaSet

HIDDEN = dataclasses.field(default=None, repr=False, compare=False)


def twin(cls, spec):
    """A dataclass named as ``cls`` with the fields ``spec`` (name, default or field())."""
    return dataclasses.make_dataclass(cls.__name__, [(n, object, d) if d is not ... else (n, object)
                                                     for n, d in spec])


def both(cls, spec, *args, **kwargs):
    return cls(*args, **kwargs), twin(cls, spec)(*args, **kwargs)


def test_repr_and_equality_are_the_dataclasses():
    f = Finding(kind="enum-value-removed", message="m")
    cases = [
        (Classification, [("change_class", ...), ("forward_class", ...), ("findings", ...),
                          ("old_label", ""), ("new_label", ""),
                          ("stats", dataclasses.field(default_factory=dict)),
                          ("ignored", dataclasses.field(default_factory=dict)),
                          ("proof", dataclasses.field(default_factory=list))],
         (ChangeClass.PATCH, ChangeClass.MINOR, [f], "a", "b"), {"stats": {"files": 1}}),
        (Entry, [("finding", ...), ("stages", dataclasses.field(default_factory=list)), ("section", "other"),
                 ("change", None), ("decisions", dataclasses.field(default_factory=list))], (f,), {"change": "x"}),
        (Check, [("name", ...), ("status", ...), ("seconds", None), ("summary", "")], ("rules", "ok"), {"seconds": 1.5}),
        (Report, [("command", ""), ("title", ""), ("summary", dataclasses.field(default_factory=dict)),
                  ("entries", dataclasses.field(default_factory=list)), ("checks", dataclasses.field(default_factory=list)),
                  ("check_noun", "stage"), ("data", None), ("notes", dataclasses.field(default_factory=list)),
                  ("verdict", "")], ("diff",), {"notes": ["n"], "checks": [Check("a", "ok")]}),
    ]
    for cls, spec, args, kwargs in cases:
        ours, theirs = both(cls, spec, *args, **kwargs)
        assert repr(ours) == repr(theirs)
        assert ours == cls(*args, **kwargs) and ours != theirs and ours.__hash__ is None
        assert cls(*args) == cls(*args) and repr(cls(*args)) == repr(twin(cls, spec)(*args))
        other = cls(*args, **kwargs)
        setattr(other, spec[-1][0], "changed")
        assert ours != other


def test_schema_files_and_sets_hide_and_ignore_their_caches():
    loaded = loads(b'{"type": "object"}', "s.json")
    a, b = SchemaFile("s.json", "urn:x", loaded), SchemaFile("s.json", "urn:x", loaded)
    b.walk()  # fills the cache, which equality ignores and repr leaves out
    assert a == b and repr(a) == repr(b) == f"SchemaFile(name='s.json', uri='urn:x', loaded={loaded!r})"
    s, t = SchemaSet({"s.json": a}, "reg", "L"), SchemaSet({"s.json": b}, "reg", "L", _checked=True)
    assert s == t and repr(s) == f"SchemaSet(files={{'s.json': {a!r}}}, label='L')"
    assert s != SchemaSet({"s.json": a}, "other registry", "L")
    fs = FileSet({"s.json": a}, "reg", "L", focus="s.json")
    assert repr(fs) == f"FileSet(files={{'s.json': {a!r}}}, label='L', focus='s.json')"
    assert fs != FileSet({"s.json": a}, "reg", "L") and fs != s


def test_findings_re_exports_the_classes():
    assert ReExported is ChangeClass and str(ChangeClass.MAJOR) == "MAJOR"
