"""Building the CLI parser (``--help``, ``--version``) must not import the engines.

Each command module imports its engine inside ``run()``; the choice lists it needs at
registration come from :mod:`evalport_spec.names`, a leaf module the engines read too.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

HEAVY = ("jsonschema", "referencing", "yaml", "evalport_spec.schemaset", "evalport_spec.rfc",
         "evalport_spec.rulecheck", "evalport_spec.gate", "evalport_spec.validation",
         "evalport_spec.conformance", "evalport_spec.release")


def _modules_after(code: str) -> set[str]:
    out = subprocess.run([sys.executable, "-c", code + "\nimport json, sys\n"
                          "print(json.dumps(sorted(sys.modules)))"],
                         capture_output=True, text=True, check=True)
    return set(json.loads(out.stdout.splitlines()[-1]))


def test_build_parser_imports_no_engine():
    mods = _modules_after("from evalport_spec.cli import build_parser; build_parser()")
    assert "evalport_spec.cli.validate" in mods  # the commands were registered
    assert "evalport_spec.cli.rfc" in mods
    loaded = sorted(m for m in mods if m.split(".")[0] in HEAVY or m.startswith(HEAVY))
    assert loaded == []


def test_version_flag_imports_no_jsonschema():
    code = ("from evalport_spec.cli import main\n"
            "try:\n    main(['--version'])\nexcept SystemExit as e:\n    assert e.code == 0\n")
    mods = _modules_after(code)
    assert "jsonschema" not in mods


def test_running_a_command_still_loads_its_engine(tmp_path):
    # run() imports lazily: rfc lint on an empty folder works and pulls in the rfc engine.
    (tmp_path / "rfcs").mkdir()
    code = ("import sys\nfrom evalport_spec.cli import main\n"
            f"rc = main(['-C', {str(tmp_path)!r}, 'rfc', 'lint', '--rfcs-only'])\nassert rc == 0, rc\n")
    mods = _modules_after(code)
    assert "evalport_spec.rfc.lint" in mods


def test_validate_choices_equal_the_engine():
    from evalport_spec.cli import validate
    from evalport_spec.validation.files import AUTO
    assert validate.AUTO == AUTO


def test_the_gate_runs_the_stages_the_cli_offers_in_that_order():
    from evalport_spec.gate.stages import STAGE_FUNCS
    from evalport_spec.names import STAGES
    assert tuple(STAGE_FUNCS) == STAGES


def test_every_reporting_command_offers_every_report_format():
    """``--format`` is declared once (cli/options.py) with the reporter's formats."""
    from evalport_spec.cli import build_parser
    from evalport_spec.report import FORMATS
    parser = build_parser()
    for argv in (["check"], ["diff", "a", "b"], ["validate", "x"], ["conformance"],
                 ["rules", "check"], ["rfc", "lint"], ["rfc", "index"], ["rfc", "check", "1"]):
        for fmt in FORMATS:
            assert parser.parse_args([*argv, "--format", fmt]).format == fmt


def test_format_is_declared_only_through_add_format_option():
    """No command module declares ``--format`` itself (one declaration, cli/options.py)."""
    from pathlib import Path

    import evalport_spec.cli as cli
    folder = Path(cli.__file__).parent
    declared = [p.name for p in sorted(folder.glob("*.py"))
                if p.name != "options.py" and '"--format"' in p.read_text()]
    assert declared == []


def test_a_command_group_without_a_subcommand_is_a_usage_error(capsys):
    """``spec``, ``rules``: the group's usage line and exit 2 (usage error), nothing run."""
    from evalport_spec.cli import main

    for group in ("spec", "rules"):
        assert main([group]) == 2
        out = capsys.readouterr()
        assert out.out.startswith(f"usage: evalport-spec {group} ") and "SUBCOMMAND" in out.out
        with pytest.raises(SystemExit) as exc:
            main([group, "nonsense"])
        assert exc.value.code == 2
        capsys.readouterr()


def test_the_repository_option_is_taken_before_or_after_the_command(tmp_path):
    """``-C DIR`` names the spec repository before the command (as git's) or after it, at any
    depth of subcommand; given after, it wins; not given, the default (None: found from the
    working directory) stands."""
    from evalport_spec.cli import build_parser

    parse = build_parser().parse_args
    assert parse(["check"]).repo is None
    assert parse(["-C", "a", "check"]).repo == "a"
    assert parse(["check", "-C", "b"]).repo == "b"
    assert parse(["-C", "a", "check", "--repo", "b"]).repo == "b"
    assert parse(["rfc", "lint", "-C", "c"]).repo == "c"
    assert parse(["-C", "a", "rules", "list"]).repo == "a"


def _modules_after_diff(tmp_path, old: dict, new: dict) -> set[str]:
    """The modules loaded by ``diff --no-cache OLD NEW`` (exit 0) on two schema files."""
    for side, schema in (("old", old), ("new", new)):
        (tmp_path / side).mkdir()
        (tmp_path / side / "s.json").write_text(json.dumps(schema))
    return _modules_after("from evalport_spec.cli import main\n"
                          f"rc = main(['diff', '--no-cache', {str(tmp_path / 'old' / 's.json')!r}, "
                          f"{str(tmp_path / 'new' / 's.json')!r}])\nassert rc == 0, rc\n")


def test_diff_of_identical_schemas_loads_no_python_jsonschema(tmp_path):
    # identical sets are PATCH by construction once both are checked (meta-schema by
    # jsonschema-rs, references by referencing): python-jsonschema (and every format library
    # its import loads) is for validators, and none is built. (An $anchor makes the file one
    # the engine-free answer leaves to the engine, evalport_spec.selfdiff: tests/test_selfdiff.py.)
    schema = {"$schema": "https://json-schema.org/draft/2020-12/schema",
              "$defs": {"n": {"$anchor": "n", "type": "integer"}},
              "type": "object", "properties": {"a": {"$ref": "#n"}, "b": {"pattern": "^x"}}}
    mods = _modules_after_diff(tmp_path, schema, schema)
    assert "evalport_spec.compat.engine" in mods  # it did compare
    assert not {"jsonschema", "deepdiff", "evalport_spec.pyvalidator"} & mods


def test_diff_of_an_edited_annotation_loads_no_deepdiff(tmp_path):
    # an edit outside any array is found without deepdiff (compat/edits.py compares objects and
    # values itself); deepdiff pairs array items only
    old = {"type": "object", "title": "before", "properties": {"a": {"enum": [1, 2]}}}
    mods = _modules_after_diff(tmp_path, old, {**old, "title": "after"})
    assert "evalport_spec.compat.edits" in mods and "deepdiff" not in mods


def test_a_command_builds_only_its_own_parser(tmp_path, monkeypatch, capsys):
    """``main`` registers only the command the command line starts with (the other commands'
    parsers are most of a short command's start-up): a command whose registration fails does
    not stop another; an option first, or no known command, still builds the whole parser."""
    import evalport_spec.cli as cli
    from evalport_spec.cli import rfc

    def broken(_subparsers):
        raise AssertionError("rfc registered")

    monkeypatch.setattr(rfc, "register", broken)
    for side in ("old", "new"):
        (tmp_path / side).mkdir()
        (tmp_path / side / "s.json").write_text('{"type": "string"}', encoding="utf-8")
    assert cli.main(["diff", "--no-cache", str(tmp_path / "old" / "s.json"), str(tmp_path / "new" / "s.json")]) == 0
    assert "class: PATCH" in capsys.readouterr().out
    for argv in (["--version"], ["-C", str(tmp_path), "diff", "a", "b"], ["nonsense"]):
        with pytest.raises(AssertionError, match="rfc registered"):
            cli.main(argv)


def _parsers(parser, path=("evalport-spec",)):
    """``(command path, parser)`` of ``parser`` and of every subcommand under it."""
    import argparse
    yield path, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _parsers(sub, (*path, name))


def test_every_argument_and_subcommand_has_help():
    """Session 36: ``rfc new --help`` listed ``title`` and ``rfc status/check/apply/accept-findings
    --help`` listed ``number`` under "positional arguments" with nothing beside them. Every
    argument the help shows carries a sentence (hidden ones are ``argparse.SUPPRESS``)."""
    import argparse

    from evalport_spec.cli import build_parser

    bare = []
    for path, parser in _parsers(build_parser()):
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                bare += [f"{' '.join(path)} {c.dest}" for c in action._choices_actions if not c.help]
            elif not action.help:
                bare.append(f"{' '.join(path)} {action.dest}")
    assert bare == []


def test_a_diff_of_two_copies_of_a_plain_file_loads_only_what_it_uses(tmp_path):
    """Start-up guard (issue 16: the cold two-copy ``diff`` against jsoncompat's process): the
    engine-free answer (:mod:`evalport_spec.selfdiff`) loads no other command's module."""
    schema = {"type": "object", "properties": {"a": {"type": "string", "pattern": "^x"}}}
    mods = _modules_after_diff(tmp_path, schema, schema)
    assert "evalport_spec.selfdiff" in mods and "evalport_spec.compat" not in mods
    others = {f"evalport_spec.cli.{name}" for name in
              ("validate", "conformance", "check", "canary", "rules", "spec", "rfc", "release", "docs")}
    assert sorted(others & mods) == []


def test_a_cold_diff_of_two_copies_loads_no_archive_or_temporary_file_module(tmp_path):
    """Start-up guard (issue 16): the cold two-copy ``diff`` (an empty cache folder: the report is
    computed and stored) loads neither ``tempfile`` nor ``shutil`` (argparse measures the terminal
    only for help, the cache makes its temporary file itself), nor the write journal when the
    repository has none to recover, and stores its report."""
    schema = {"type": "object", "properties": {"a": {"type": "string"}}}
    for side in ("old", "new"):
        (tmp_path / side).mkdir()
        (tmp_path / side / "s.json").write_text(json.dumps(schema))
    cache, repo = tmp_path / "cache", tmp_path / "repo"
    (repo / "spec" / "schemas").mkdir(parents=True)  # run in a spec repository, as the bench is
    mods = _modules_after("import os\nfrom evalport_spec.cli import main\n"
                          f"os.environ['EVALPORT_CACHE_DIR'] = {str(cache)!r}\n"
                          f"rc = main(['diff', '-C', {str(repo)!r}, {str(tmp_path / 'old' / 's.json')!r}, "
                          f"{str(tmp_path / 'new' / 's.json')!r}])\nassert rc == 0, rc\n")
    assert "evalport_spec.selfdiff" in mods and "evalport_spec.repoloc" in mods
    assert sorted({"tempfile", "shutil", "bz2", "lzma", "evalport_spec.journal"} & mods) == []
    stored = list(cache.iterdir())
    assert len(stored) == 1 and stored[0].suffix == ".json" and not stored[0].name.startswith(".tmp-")
    assert stored[0].stat().st_mode & 0o777 == 0o600


def test_a_cold_diff_of_two_copies_loads_neither_dataclasses_nor_orjson(tmp_path):
    """Start-up guard (issue 16, session 37): the cold two-copy ``diff`` of a file under
    :data:`~evalport_spec.jsonload.FAST_MIN_BYTES` imports neither ``dataclasses`` (and through it
    ``inspect``, ``ast``, ``dis``, ``tokenize``: the classification, the report's records and the
    schema file are plain classes, the compatibility classes live in ``changeclass``) nor orjson
    (and its ``uuid``, ``platform``): about 13 ms of a 75 ms process before. The verdict is PATCH
    as before, and a schema only the strict reader could read the same way is read by it."""
    schema = {"type": "object", "properties": {"a": {"type": "string", "pattern": "^x"}},
              "$defs": {"b": {"$ref": "#/properties/a"}}}
    cache = tmp_path / "cache"
    for side in ("old", "new"):
        (tmp_path / side).mkdir()
        (tmp_path / side / "s.json").write_text(json.dumps(schema))
    mods = _modules_after("import os\nfrom evalport_spec.cli import main\n"
                          f"os.environ['EVALPORT_CACHE_DIR'] = {str(cache)!r}\n"
                          f"rc = main(['diff', {str(tmp_path / 'old' / 's.json')!r}, "
                          f"{str(tmp_path / 'new' / 's.json')!r}])\nassert rc == 0, rc\n")
    assert "evalport_spec.selfdiff" in mods and "evalport_spec.findings" not in mods
    assert sorted({"dataclasses", "inspect", "ast", "dis", "tokenize", "orjson", "uuid", "platform",
                   "threading", "evalport_spec.jsonpos"} & mods) == []
