"""Building the CLI parser (``--help``, ``--version``) must not import the engines.

Each command module imports its engine inside ``run()``; the choice lists it needs at
registration are literal tuples, checked here against the engines' own.
"""

from __future__ import annotations

import json
import subprocess
import sys

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


def test_check_choices_equal_the_gate():
    from evalport_spec.cli import check
    from evalport_spec.gate import STAGES
    assert check.STAGES == tuple(STAGES)


def test_every_reporting_command_offers_every_report_format():
    """``--format`` is declared once (cli/options.py) with the reporter's formats."""
    from evalport_spec.cli import build_parser
    from evalport_spec.report import FORMATS
    parser = build_parser()
    for argv in (["check"], ["diff", "a", "b"], ["validate", "x"], ["conformance"],
                 ["rules", "check"], ["rfc", "lint"], ["rfc", "index"], ["rfc", "check", "1"]):
        for fmt in FORMATS:
            assert parser.parse_args([*argv, "--format", fmt]).format == fmt


def test_rules_formats_equal_the_renderer():
    from evalport_spec.cli import rules
    from evalport_spec.rulecheck.render import FORMATS
    assert rules.FORMATS == tuple(FORMATS)


def test_rfc_statuses_equal_the_model():
    from evalport_spec.cli import rfc
    from evalport_spec.rfc.model import STATUSES
    assert rfc.STATUSES == tuple(STATUSES)
