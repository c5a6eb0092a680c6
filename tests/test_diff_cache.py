"""``evalport-spec diff`` replays a stored report on unchanged inputs (evalport_spec/diffcache.py):
the replay equals what the computing run printed, any change to an input the resolution reads or
to an option misses, a damaged entry recomputes, and a hit loads no engine."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from evalport_spec.cli import diff as diff_cli
from evalport_spec.cli import main

MAJOR_OLD = {"type": "object", "properties": {"t": {"enum": ["a", "b"]}}}
MAJOR_NEW = {"type": "object", "properties": {"t": {"enum": ["a"]}}}  # "b" lost: witness {"t": "b"}
MINOR_OLD = {"type": "object", "properties": {"a": {"type": "string", "maxLength": 5}}, "required": ["a"]}
MINOR_NEW = {"type": "object", "properties": {"a": {"type": "string", "maxLength": 8}}}
PAIRS = {"PATCH": (MINOR_OLD, MINOR_OLD), "MINOR": (MINOR_OLD, MINOR_NEW), "MAJOR": (MAJOR_OLD, MAJOR_NEW)}


@pytest.fixture
def cache(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    monkeypatch.setenv("EVALPORT_CACHE_DIR", str(folder))
    return folder


@pytest.fixture
def computes(monkeypatch):
    """The number of diffs actually computed (not replayed) so far."""
    calls = []
    real = diff_cli._compare

    def counted(*a, **kw):
        calls.append(1)
        return real(*a, **kw)

    monkeypatch.setattr(diff_cli, "_compare", counted)
    return calls


def _write(folder: Path, name: str, value) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(json.dumps(value))
    return folder / name


def _run(capsys, *argv: str) -> tuple[int, str, str]:
    rc = main(["diff", *argv])
    out = capsys.readouterr()
    return rc, out.out, out.err


@pytest.mark.parametrize("pair", ["PATCH", "MINOR", "MAJOR"])
@pytest.mark.parametrize("opts", [[], ["--format", "json"], ["--format", "sarif"], ["--explain"]],
                         ids=["text", "json", "sarif", "explain"])
def test_the_replay_is_the_computed_report(tmp_path, cache, computes, capsys, pair, opts):
    old, new = (_write(tmp_path / side, "s.json", v) for side, v in zip(("o", "n"), PAIRS[pair], strict=True))
    first = _run(capsys, str(old), str(new), *opts)
    assert len(computes) == 1
    assert first[0] == (1 if pair == "MAJOR" else 0)
    if pair == "MAJOR" and opts == ["--format", "json"]:
        assert json.loads(first[1])["findings"][0]["witness"] == {"t": "b"}  # worked out by hand
    if not opts:
        assert f"class: {pair}" in first[1]
    second = _run(capsys, str(old), str(new), *opts)
    assert len(computes) == 1  # replayed, not computed
    assert second == first


def test_each_option_that_changes_the_report_is_in_the_key(tmp_path, cache, computes, capsys):
    old, new = _write(tmp_path / "o", "s.json", MAJOR_OLD), _write(tmp_path / "n", "s.json", MAJOR_NEW)
    variants = [[], ["--format", "json"], ["--explain"], ["--fail-on", "never"], ["--fail-on", "PATCH"],
                ["--direction", "forward"], ["--no-format-assertion"], ["--search-budget", "5"]]
    results = [_run(capsys, str(old), str(new), *v) for v in variants]
    assert len(computes) == len(variants)  # no variant replayed another's report
    assert results[3][0] == 0 and results[0][0] == 1  # --fail-on never: exit 0
    assert [_run(capsys, str(old), str(new), *v) for v in variants] == results
    assert len(computes) == len(variants)


def _ref_pair(folder: Path, max_length: int) -> Path:
    _write(folder, "a.json", {"$id": "https://x.invalid/a.json", "type": "object",
                              "properties": {"b": {"$ref": "https://x.invalid/b.json"}}})
    _write(folder, "b.json", {"$id": "https://x.invalid/b.json", "type": "string", "maxLength": max_length})
    return folder / "a.json"


def test_one_byte_changed_in_a_referenced_sibling_misses(tmp_path, cache, computes, capsys):
    old, new = _ref_pair(tmp_path / "o", 9), _ref_pair(tmp_path / "n", 3)
    rc, out, _ = _run(capsys, str(old), str(new), "--format", "json")
    assert rc == 1 and json.loads(out)["findings"][0]["kind"] == "max-length-decreased"
    sibling = tmp_path / "n" / "b.json"
    sibling.write_text(sibling.read_text().replace('"maxLength": 3', '"maxLength": 9'))  # one byte
    rc, out, _ = _run(capsys, str(old), str(new), "--format", "json")
    assert len(computes) == 2
    assert rc == 0 and json.loads(out)["findings"] == []  # the sibling is the same as old's now


def test_a_changed_ignore_file_misses(tmp_path, cache, computes, capsys):
    old, new = _write(tmp_path / "o", "s.json", MAJOR_OLD), _write(tmp_path / "n", "s.json", MAJOR_NEW)
    ignore = tmp_path / "ignore.yaml"
    ignore.write_text("- kind: enum-value-removed\n  reason: accepted\n")
    assert _run(capsys, str(old), str(new), "--ignore", str(ignore))[0] == 0
    ignore.write_text("- kind: enum-value-removex\n  reason: accepted\n")
    assert _run(capsys, str(old), str(new), "--ignore", str(ignore))[0] == 1
    assert len(computes) == 2


@pytest.mark.parametrize("damage", [b"", b'{"format": 1, "kind": "diff-rep', b"[]", b'{"format": 1}',
                                    b'{"format": 1, "kind": "diff-report", "stdout": 1, "stderr": "", "exit": 0}',
                                    b'{"format": 1, "kind": "diff-report", "stdout": "", "stderr": "", "exit": 2}',
                                    b"\xff\xfe not utf-8"],
                         ids=["empty", "truncated", "array", "foreign", "bad-stdout", "incomplete-exit", "bytes"])
def test_a_damaged_entry_is_computed_again(tmp_path, cache, computes, capsys, damage):
    old, new = _write(tmp_path / "o", "s.json", MAJOR_OLD), _write(tmp_path / "n", "s.json", MAJOR_NEW)
    first = _run(capsys, str(old), str(new))
    [entry] = list(cache.glob("*.json"))
    entry.write_bytes(damage)
    assert _run(capsys, str(old), str(new)) == first
    assert len(computes) == 2
    assert json.loads(entry.read_text())["exit"] == 1  # rewritten whole
    assert _run(capsys, str(old), str(new)) == first and len(computes) == 2


def test_an_unwritable_cache_folder_still_diffs_without_a_warning(tmp_path, monkeypatch, computes, capsys):
    (tmp_path / "file").write_text("not a folder")
    monkeypatch.setenv("EVALPORT_CACHE_DIR", str(tmp_path / "file" / "cache"))  # mkdir fails
    old, new = _write(tmp_path / "o", "s.json", MAJOR_OLD), _write(tmp_path / "n", "s.json", MAJOR_NEW)
    for _ in range(2):
        rc, out, err = _run(capsys, str(old), str(new))
        assert rc == 1 and "MAJOR enum-value-removed" in out and err == ""
    assert len(computes) == 2


@pytest.mark.parametrize("off", ["flag", "env"])
def test_no_cache_neither_reads_nor_writes(tmp_path, cache, computes, capsys, monkeypatch, off):
    old, new = _write(tmp_path / "o", "s.json", MAJOR_OLD), _write(tmp_path / "n", "s.json", MAJOR_NEW)
    _run(capsys, str(old), str(new))  # stored
    argv = [str(old), str(new)]
    if off == "flag":
        argv.append("--no-cache")
    else:
        monkeypatch.setenv("EVALPORT_CACHE_DIR", "off")
    for entry in cache.glob("*.json"):
        entry.unlink()
    assert _run(capsys, *argv)[0] == 1 and _run(capsys, *argv)[0] == 1
    assert len(computes) == 3 and list(cache.glob("*.json")) == []
    if off == "flag":  # the flag holds for its own run: the next plain run in this process stores
        assert os.environ["EVALPORT_CACHE_DIR"] == str(cache)
        assert _run(capsys, str(old), str(new))[0] == 1
        assert len(computes) == 4 and len(list(cache.glob("*.json"))) == 1


def test_an_input_changed_during_the_diff_is_not_stored(tmp_path, cache, monkeypatch, capsys):
    old, new = _write(tmp_path / "o", "s.json", MAJOR_OLD), _write(tmp_path / "n", "s.json", MAJOR_NEW)
    real = diff_cli._compare

    def racing(args, options):
        code = real(args, options)
        new.write_text(json.dumps(MAJOR_OLD))  # the file changes after it was read
        return code

    monkeypatch.setattr(diff_cli, "_compare", racing)
    assert _run(capsys, str(old), str(new))[0] == 1
    assert list(cache.glob("*.json")) == []


def test_an_input_error_is_not_stored(tmp_path, cache, capsys):
    old = _write(tmp_path / "o", "s.json", MAJOR_OLD)
    bad = tmp_path / "n" / "s.json"
    bad.parent.mkdir()
    bad.write_text("[1, 2")
    assert _run(capsys, str(old), str(bad))[0] == 2
    assert not cache.exists() or list(cache.glob("*.json")) == []


ENGINE = ("jsonschema", "referencing", "deepdiff", "tqdm", "yaml", "evalport_spec.compat",
          "evalport_spec.schemaset", "evalport_spec.jsonload", "evalport_spec.spec", "evalport_spec.report")
PROBE = ("import json, os, sys\nfrom evalport_spec.cli import main\nrc = main(sys.argv[1:])\nsys.stdout.flush()\n"
         "open(os.environ['MODULES_OUT'], 'w').write(json.dumps(sorted(sys.modules)))\nsys.exit(rc)\n")


def test_a_hit_loads_no_engine_and_prints_the_same_bytes(tmp_path):
    """A second process on the same files replays: it imports none of the engine's modules (a
    top-level import of one on the way to the cache fails this) and writes the bytes the first
    process wrote."""
    old, new = _write(tmp_path / "o", "s.json", MAJOR_OLD), _write(tmp_path / "n", "s.json", MAJOR_NEW)
    env = {**os.environ, "EVALPORT_CACHE_DIR": str(tmp_path / "cache"), "MODULES_OUT": str(tmp_path / "mods.json")}

    def run() -> tuple[subprocess.CompletedProcess[bytes], list[str]]:
        proc = subprocess.run([sys.executable, "-c", PROBE, "diff", str(old), str(new), "--format", "json"],
                              capture_output=True, env=env, cwd=tmp_path, timeout=300)
        return proc, json.loads((tmp_path / "mods.json").read_text())

    computed, mods = run()
    assert computed.returncode == 1 and "evalport_spec.compat.engine" in mods  # the probe sees imports
    replayed, mods = run()
    assert (replayed.returncode, replayed.stdout, replayed.stderr) == (1, computed.stdout, computed.stderr)
    loaded = sorted(m for m in mods if m.startswith(ENGINE))
    assert loaded == []


def test_the_github_format_is_never_replayed(tmp_path, cache, computes, capsys, monkeypatch):
    """``--format github`` also appends to $GITHUB_STEP_SUMMARY: a replay would skip that."""
    summary = tmp_path / "summary.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    old, new = _write(tmp_path / "o", "s.json", MAJOR_OLD), _write(tmp_path / "n", "s.json", MAJOR_NEW)
    sizes = []
    for _ in range(2):
        assert _run(capsys, str(old), str(new), "--format", "github")[0] == 1
        sizes.append(len(summary.read_text()))
    assert len(computes) == 2 and sizes[0] > 0 and sizes[1] == 2 * sizes[0]  # written by each run


@pytest.mark.parametrize("before", [None, "", "/some/cache"])
def test_switched_off_puts_the_variable_back_as_it_was(monkeypatch, before):
    # --no-cache inside a longer-lived process: off within the block, then unset, empty or the
    # old folder again, whether the block returns or raises
    from evalport_spec.diskcache import switched_off

    if before is None:
        monkeypatch.delenv("EVALPORT_CACHE_DIR", raising=False)
    else:
        monkeypatch.setenv("EVALPORT_CACHE_DIR", before)
    with pytest.raises(KeyError):
        with switched_off():
            assert os.environ["EVALPORT_CACHE_DIR"] == "off"
            raise KeyError
    assert os.environ.get("EVALPORT_CACHE_DIR") == before
    with switched_off(False):
        assert os.environ.get("EVALPORT_CACHE_DIR") == before


def test_the_package_files_are_every_file_in_path_order(tmp_path):
    """The code digest's listing (os.walk) is the one ``sorted(Path.rglob("*"))`` gives, files
    only, ``__pycache__`` left out: names that sort otherwise as text than as paths ("a-b"
    before "a/b" as text, after it as parts), a linked file kept, a linked folder not entered."""
    from evalport_spec.diskcache import _package_files

    for rel in ("a/b", "a-b", "a/c/d", "z", "__pycache__/x.pyc", "a/__pycache__/y.pyc", ".hidden"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(rel, encoding="utf-8")
    (tmp_path / "link").symlink_to(tmp_path / "z")
    (tmp_path / "folderlink").symlink_to(tmp_path / "a")
    expected = [str(p.relative_to(tmp_path)) for p in sorted(tmp_path.rglob("*"))
                if p.is_file() and "__pycache__" not in p.parts]
    assert expected == [".hidden", "a/b", "a/c/d", "a-b", "link", "z"]  # worked out by hand
    assert [rel for rel, _ in _package_files(str(tmp_path))] == expected
