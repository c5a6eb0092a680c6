"""Pointers, schema sets (offline $ref), the spec model and atomic writes."""

from __future__ import annotations

import json
import threading

import pytest

from evalport_spec.errors import InputError
from evalport_spec.fsutil import atomic_write, repo_lock
from evalport_spec.jsonload import loads
from evalport_spec.pointer import escape, join, resolve, split
from evalport_spec.schemaset import SchemaSet
from evalport_spec.spec import SpecRepo, parse_semver


def test_pointer_escaping_round_trip() -> None:
    assert escape("a/b~c") == "a~1b~0c"
    assert join("/x", "a/b", 0) == "/x/a~1b/0"
    assert split("/x/a~1b/0") == ["x", "a/b", "0"]
    assert split("/~01") == ["~1"]  # RFC 6901 section 4: ~01 is '~1', not '/'
    doc = {"a/b": [10, {"~": 3}]}
    assert resolve(doc, "/a~1b/1/~0") == 3
    assert resolve(doc, "/a~1b/01", None) is None  # leading zeros are not indexes
    with pytest.raises(KeyError):
        resolve(doc, "/nope")


def _set(**files: object) -> SchemaSet:
    return SchemaSet.from_loaded({k.replace("_", "."): loads(json.dumps(v), k.replace("_", "."))
                                  for k, v in files.items()})


def test_cross_file_ref_resolves_by_id() -> None:
    base = "https://example.org/s/"
    s = _set(a_json={"$id": base + "a.json", "$ref": "b.json#/$defs/n"},
             b_json={"$id": base + "b.json", "$defs": {"n": {"type": "integer"}}})
    assert s.check_refs() == []
    v = s.validator("a.json")
    assert v.is_valid(3) and not v.is_valid("x")


def test_remote_and_missing_refs_are_errors_not_downloads() -> None:
    s = _set(a_json={"$id": "https://example.org/a.json", "properties": {
        "r": {"$ref": "https://json-schema.org/draft/2020-12/schema-nope"},
        "m": {"$ref": "missing.json"}, "l": {"$ref": "#/$defs/absent"}}})
    problems = sorted(str(p) for p in s.check_refs())
    assert len(problems) == 3
    assert any("remote $ref 'https://json-schema.org/draft/2020-12/schema-nope'" in p for p in problems)
    assert any("remote $ref 'missing.json'" in p for p in problems)
    assert any("unresolvable $ref '#/$defs/absent'" in p and "(at '/properties/l/$ref')" in p
               for p in problems)


def test_duplicate_id_and_unknown_dialect_refused() -> None:
    with pytest.raises(InputError, match="'urn:x' is defined twice: by \\$id at a.json#/\\$id and by "
                                         "\\$id at b.json#/\\$id"):
        _set(a_json={"$id": "urn:x"}, b_json={"$id": "urn:x"})
    with pytest.raises(InputError, match="unknown '\\$schema' dialect"):
        _set(a_json={"$schema": "https://example.org/my-dialect"})


def test_meta_schema_problems_reported() -> None:
    s = _set(a_json={"type": "strnig"})
    problems = s.check_meta()
    assert len(problems) == 1 and "not a valid schema" in str(problems[0])


def test_semver_parse() -> None:
    v = parse_semver("1.12.0")
    assert (v.major, v.minor, v.patch) == (1, 12, 0)
    # precedence is numeric per part, not by text: 1.9.0 < 1.10.0 < 2.0.0
    assert parse_semver("1.9.0") < v < parse_semver("2.0.0")
    assert str(v.bump_minor()) == "1.13.0"
    for bad in ("1.2", "01.2.3", "1.2.3-rc.1", "1.2.3+build.5", "v1.2.3", "1.2.3\n", " 1.2.3", 123):
        with pytest.raises(ValueError):
            parse_semver(bad)


def test_repo_versions_and_unknown_version(tmp_path) -> None:
    for rel in ("spec/schemas", "spec/releases/1.0.0/schemas", "spec/releases/1.10.0/schemas",
                "spec/releases/1.2.0/schemas", "spec/releases/notaversion/schemas"):
        (tmp_path / rel).mkdir(parents=True)
    repo = SpecRepo.discover(tmp_path / "spec" / "schemas")
    assert repo.root == tmp_path
    assert repo.releases() == ["1.0.0", "1.2.0", "1.10.0"]
    assert repo.latest_release() == "1.10.0"
    with pytest.raises(InputError, match="unknown spec version '9.9.9' \\(known: 1.0.0, 1.2.0, 1.10.0, draft\\)"):
        repo.version("9.9.9")
    with pytest.raises(InputError, match="not inside an EvalPort spec repository"):
        SpecRepo.discover(tmp_path / "spec" / "releases" / ".." / ".." / "..")


def test_atomic_write_exclusive_never_overwrites(tmp_path) -> None:
    p = tmp_path / "d" / "f.txt"
    atomic_write(p, "one")
    atomic_write(p, "two")
    assert p.read_text() == "two"
    with pytest.raises(InputError, match="already exists; not overwriting"):
        atomic_write(p, "three", exclusive=True)
    assert p.read_text() == "two"
    assert sorted(x.name for x in p.parent.iterdir()) == ["f.txt"]  # no temp file left behind


def test_repo_lock_refuses_a_second_writer(tmp_path) -> None:
    entered = threading.Event()
    release = threading.Event()

    def hold() -> None:
        with repo_lock(tmp_path):
            entered.set()
            release.wait(5)

    t = threading.Thread(target=hold)
    t.start()
    entered.wait(5)
    try:
        with pytest.raises(InputError, match="another evalport-spec command is writing"):
            with repo_lock(tmp_path):
                pass
    finally:
        release.set()
        t.join()
    with repo_lock(tmp_path):
        pass


def test_repo_lock_in_a_linked_worktree_is_kept_in_its_git_folder(tmp_path) -> None:
    """In a checkout made by ``git worktree add`` (``.git`` is a file: ``gitdir: PATH``) the lock
    file was created among the checkout's files, where ``git status`` shows it and ``git add
    -A`` commits it; it belongs in the worktree's own git folder, as in a plain clone."""
    import subprocess

    main = tmp_path / "main"
    main.mkdir()
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.org", "-c", "init.defaultBranch=main"]
    subprocess.run([*git, "init", "-q", str(main)], check=True)
    (main / "f.txt").write_text("x\n")
    subprocess.run([*git, "-C", str(main), "add", "f.txt"], check=True)
    subprocess.run([*git, "-C", str(main), "commit", "-q", "-m", "f"], check=True)
    linked = tmp_path / "linked"
    subprocess.run([*git, "-C", str(main), "worktree", "add", "-q", str(linked), "-b", "other"], check=True)
    assert (linked / ".git").is_file()  # the premise: a linked worktree
    with repo_lock(linked):
        status = subprocess.run(["git", "-C", str(linked), "status", "--porcelain", "--ignored"],
                                capture_output=True, text=True, check=True).stdout
    assert status == ""
    assert (main / ".git" / "worktrees" / "linked" / "evalport-spec.lock").is_file()
    with repo_lock(main):  # another checkout of the repository: another lock
        with repo_lock(linked):
            pass
    (linked / ".git").write_text("gitdir: /nonexistent/folder\n")  # names no folder: the checkout itself
    with repo_lock(linked):
        assert (linked / "evalport-spec.lock").is_file()


@pytest.mark.parametrize(("value", "expected"), [
    (None, "null"), (True, "boolean"), (0, "integer"), (1.0, "integer"), (-2.5, "number"),
    (float("inf"), "number"), ("1", "string"), ([], "array"), ({}, "object"),
])
def test_json_type_names_follow_json_schema(value, expected) -> None:
    from evalport_spec.jsontypes import json_type

    assert json_type(value) == expected


@pytest.mark.parametrize("exclusive", [False, True])
def test_atomic_write_on_a_full_disk_names_the_file_and_keeps_it(tmp_path, monkeypatch, exclusive) -> None:
    """Session 36: ``rfc new`` / ``rfc status`` on a full disk printed ``evalport-spec: error: No
    space left on device`` (the CLI's catch-all for OSError, no file named). The write failing
    (here at fsync, as ENOSPC can) is one InputError naming the destination; the file is as it
    was and no temporary file is left beside it."""
    import errno

    p = tmp_path / "x.md"
    if not exclusive:
        p.write_text("before")

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr("os.fsync", full)
    with pytest.raises(InputError) as info:
        atomic_write(p, "after", exclusive=exclusive)
    assert info.value == InputError("cannot write: No space left on device", str(p))
    assert sorted(f.name for f in tmp_path.iterdir()) == ([] if exclusive else ["x.md"])
    if not exclusive:
        assert p.read_text() == "before"
