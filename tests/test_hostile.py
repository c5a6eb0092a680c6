"""Hostile input over every command: one clear line, exit 2, no traceback, no hang, no network,
nothing written (issue 8).

Each row runs ``evalport-spec`` as a subprocess against files in ``tmp_path`` and, where a
repository is needed, a throwaway copy of this repository's ``spec/`` and ``rfcs/`` (``git init``,
one commit). ``http_proxy``/``https_proxy`` point at a closed port so any network attempt fails
fast and shows in the output. The tree (files, symlinks, sizes, digests) is hashed before and
after: a refused command writes nothing.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

MAIN = Path(__file__).resolve().parents[1]
EXE = shutil.which("evalport-spec") or "evalport-spec"
ERROR_LINE = re.compile(r"^evalport-spec(?: [a-z]+)*: error: .+$")
NO_NET = {"http_proxy": "http://127.0.0.1:9", "https_proxy": "http://127.0.0.1:9",
          "HTTP_PROXY": "http://127.0.0.1:9", "HTTPS_PROXY": "http://127.0.0.1:9",
          "NO_COLOR": "1", "GIT_TERMINAL_PROMPT": "0"}
GOOD_SCHEMA = {"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
               "properties": {"a": {"type": "string"}}}


# --- fixtures and helpers -------------------------------------------------------------------


@pytest.fixture(scope="session")
def pristine_repo(tmp_path_factory) -> Path:
    """spec/ and rfcs/ of this repository, committed in a fresh git repository (built once)."""
    root = tmp_path_factory.mktemp("pristine") / "repo"
    root.mkdir()
    shutil.copytree(MAIN / "spec", root / "spec", symlinks=True)
    shutil.copytree(MAIN / "rfcs", root / "rfcs", symlinks=True)
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.invalid", "-c", "commit.gpgsign=false"]
    subprocess.run([*git, "init", "-q"], cwd=root, check=True)
    subprocess.run([*git, "add", "-A"], cwd=root, check=True)
    subprocess.run([*git, "commit", "-qm", "init"], cwd=root, check=True)
    return root


@pytest.fixture
def repo(pristine_repo, tmp_path) -> Path:
    """A private copy of the committed repository (``.git`` included) for one test."""
    dest = tmp_path / "repo"
    shutil.copytree(pristine_repo, dest, symlinks=True)
    return dest


def tree_digest(root: Path) -> str:
    """Digest of every path under ``root``: name, kind, symlink target, size and content hash.

    ``.git/evalport-spec.lock`` (the advisory lock file a writing command may create) is left
    out; everything else counts. Sparse giant files are hashed by size only.
    """
    h = hashlib.sha256()
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        dirnames.sort()
        for name in sorted(dirnames + filenames):
            p = Path(dirpath) / name
            rel = str(p.relative_to(root))
            if rel.endswith(".git/evalport-spec.lock"):
                continue
            if p.is_symlink():
                h.update(f"L {rel} -> {os.readlink(p)}\n".encode())
            elif p.is_file():
                size = p.stat().st_size
                digest = hashlib.sha256(p.read_bytes()).hexdigest() if size < 50_000_000 else "big"
                h.update(f"F {rel} {size} {digest}\n".encode())
            elif p.is_dir():
                h.update(f"D {rel}\n".encode())
    return h.hexdigest()


def run(args: list[str], cwd: Path, timeout: float = 120, stdin: bytes = b"") -> subprocess.CompletedProcess:
    """Run ``evalport-spec ARGS`` in ``cwd`` with the network blocked; fail the test on a hang."""
    env = {**os.environ, **NO_NET}
    try:
        return subprocess.run([EXE, *args], cwd=cwd, env=env, input=stdin, capture_output=True,
                              timeout=timeout)
    except subprocess.TimeoutExpired:  # pragma: no cover - the failure we are guarding against
        pytest.fail(f"evalport-spec {' '.join(args)} hung for more than {timeout}s")


def assert_refused(proc: subprocess.CompletedProcess, where: str | None, message: str) -> str:
    """Exit 2, no traceback, stderr exactly one ``evalport-spec: error: ...`` line containing
    ``where`` (the file, and position if given) and ``message``. Returns that line."""
    err = proc.stderr.decode("utf-8", "replace")
    assert "Traceback" not in err, err
    assert proc.returncode == 2, (proc.returncode, err, proc.stdout[-2000:])
    lines = err.splitlines()
    assert len(lines) == 1, err
    line = lines[0]
    assert ERROR_LINE.match(line), line
    if where is not None:
        assert f"error: {where}" in line, line
    assert message in line, line
    assert "127.0.0.1:9" not in err and "Connection refused" not in err, err
    return line


def write(path: Path, data: bytes | str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data.encode() if isinstance(data, str) else data)
    return path


# --- 1. malformed documents given to validate and diff ----------------------------------------

DEEP_ARRAYS = b"[" * 100_000 + b"]" * 100_000
DEEP_OBJECTS = b'{"a":' * 100_000 + b"1" + b"}" * 100_000

BAD_JSON = [
    # id, bytes, expected "file:line:col" suffix, message fragment
    ("malformed-json", b'{"a": 1,\n "b": [1, 2,, 3]}', ":2:13", "malformed JSON: Expecting value"),
    ("truncated", b'{"a": [1, 2', ":1:12", "malformed JSON"),
    ("duplicate-key", b'{"a": 1,\n  "a": 2}', ":2:3", "duplicate object key 'a'"),
    ("nan", b'{"a": NaN}', ":1:7", "NaN/Infinity is not JSON: NaN"),
    ("infinity", b'{"a": -Infinity}', ":1:7", "NaN/Infinity is not JSON: -Infinity"),
    ("float-overflow", b'{"a": 1e400}', ":1:7", "number out of range for an IEEE 754 double: 1e400"),
    ("huge-integer", b'{"a": ' + b"9" * 5000 + b"}", ":1:7", "number out of range"),
    ("bom", b'\xef\xbb\xbf{"a": 1}', ":1:1", "byte-order mark"),
    ("invalid-utf8", b'{"a": "\xff\xfe"}', ":1:8", "invalid UTF-8 at byte 7"),
    ("lone-surrogate-bytes", b'{"a": "\xed\xa0\x80"}', ":1:8", "invalid UTF-8 at byte 7"),
    ("deep-arrays-100k", DEEP_ARRAYS, "", "nesting deeper than 256 levels"),
    ("deep-objects-100k", DEEP_OBJECTS, "", "nesting deeper than 256 levels"),
    ("empty-file", b"", ":1:1", "malformed JSON"),
]


@pytest.mark.parametrize(("data", "pos", "message"), [r[1:] for r in BAD_JSON],
                         ids=[r[0] for r in BAD_JSON])
def test_validate_refuses_bad_json(pristine_repo, tmp_path, data, pos, message):
    repo = pristine_repo
    doc = write(tmp_path / "doc.json", data)
    before = tree_digest(tmp_path)
    proc = run(["-C", str(repo), "validate", str(doc)], cwd=tmp_path)
    assert_refused(proc, f"{doc}{pos}", message)
    assert tree_digest(tmp_path) == before


@pytest.mark.parametrize(("data", "pos", "message"), [r[1:] for r in BAD_JSON],
                         ids=[r[0] for r in BAD_JSON])
def test_diff_refuses_bad_json_schema(pristine_repo, tmp_path, data, pos, message):
    repo = pristine_repo
    old = write(tmp_path / "old.json", data)
    new = write(tmp_path / "new.json", json.dumps(GOOD_SCHEMA))
    before = tree_digest(tmp_path)
    proc = run(["-C", str(repo), "diff", str(old), str(new)], cwd=tmp_path)
    assert_refused(proc, f"{old}{pos}", message)
    assert tree_digest(tmp_path) == before


def test_validate_stdin_bad_json(pristine_repo, tmp_path):
    repo = pristine_repo
    before = tree_digest(tmp_path)
    proc = run(["-C", str(repo), "validate", "-"], cwd=tmp_path, stdin=b'{"a": 1, "a": 2}')
    assert_refused(proc, "<stdin>:1:10", "duplicate object key 'a'")
    assert tree_digest(tmp_path) == before


# --- 2. size: refused before reading; a large generated file handled within memory ----------


@pytest.mark.parametrize("command", ["validate", "diff"], ids=["validate-600MB-sparse", "diff-600MB-sparse"])
def test_sparse_600mb_refused_before_reading(pristine_repo, tmp_path, command):
    repo = pristine_repo
    big = tmp_path / "big.json"
    with open(big, "wb") as fh:
        fh.truncate(600 * 1024 * 1024)  # sparse: no disk used, never read
    args = ["validate", str(big)] if command == "validate" else ["diff", str(big), str(big)]
    proc = run(["-C", str(repo), *args], cwd=tmp_path, timeout=30)
    assert_refused(proc, str(big), "file is 629145600 bytes, larger than the 536870912-byte limit")


def test_sparse_600mb_schema_in_repo_refused(repo):
    """A giant file inside the spec (a draft schema) is refused by size too, not read."""
    with open(repo / "spec" / "schemas" / "zz-huge.json", "wb") as fh:
        fh.truncate(600 * 1024 * 1024)
    example = repo / "spec" / "examples" / "rag-suite.json"
    proc = run(["-C", str(repo), "validate", "--spec-version", "draft", str(example)], cwd=repo,
               timeout=30)
    assert_refused(proc, "spec/schemas/zz-huge.json", "larger than the 536870912-byte limit")


@pytest.mark.slow
def test_300mb_document_clear_result_bounded_memory(pristine_repo, tmp_path):
    repo = pristine_repo
    """A ~300 MB generated document (one huge string member, not an EvalPort document) gets its
    one-line verdict, and the process's peak memory stays within a small multiple of the file."""
    doc = tmp_path / "big.json"
    with open(doc, "wb") as fh:
        fh.write(b'{"padding": "')
        chunk = b"x" * (1 << 20)
        for _ in range(300):
            fh.write(chunk)
        fh.write(b'"}')
    size = doc.stat().st_size
    assert size > 300 * 1024 * 1024
    env = {**os.environ, **NO_NET}
    proc = subprocess.Popen([EXE, "-C", str(repo), "validate", str(doc)], cwd=tmp_path, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        out, err = proc.communicate(timeout=300)
    except subprocess.TimeoutExpired:  # pragma: no cover
        proc.kill()
        pytest.fail("validate of a 300 MB file hung")
    # peak RSS of the child (ru_maxrss of RUSAGE_CHILDREN is the largest reaped child)
    import resource
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024
    assert_refused(subprocess.CompletedProcess(proc.args, proc.returncode, out, err),
                   f"{doc}:1:1", "not an EvalPort document")
    assert peak < 4 * size, (peak, size)


# --- 3. $ref: remote, escaping, circular ---------------------------------------------------------

REFS = [
    ("ref-escaping-path", "../../etc/passwd", "$ref '../../etc/passwd'"),
    ("ref-file-url", "file:///etc/passwd", "$ref 'file:///etc/passwd'"),
    ("ref-remote-https", "https://example.com/x.json", "$ref 'https://example.com/x.json'"),
    ("ref-circular", "#/$defs/loopa", "comes back to itself"),
]


def _schema_with_ref(ref: str) -> dict:
    s = {"$schema": "https://json-schema.org/draft/2020-12/schema",
         "$id": "https://example.invalid/s.json", "type": "object",
         "properties": {"a": {"$ref": ref}}}
    if ref.startswith("#"):
        s["$defs"] = {"loopa": {"$ref": "#/$defs/loopb"}, "loopb": {"$ref": "#/$defs/loopa"}}
    return s


@pytest.mark.parametrize("side", ["old", "new"])
@pytest.mark.parametrize(("ref", "message"), [r[1:] for r in REFS], ids=[r[0] for r in REFS])
def test_diff_refuses_bad_ref(pristine_repo, tmp_path, ref, message, side, request):
    repo = pristine_repo
    bad = write(tmp_path / "bad.json", json.dumps(_schema_with_ref(ref), indent=1))
    good = write(tmp_path / "good.json", json.dumps(GOOD_SCHEMA))
    before = tree_digest(tmp_path)
    args = [str(bad), str(good)] if side == "old" else [str(good), str(bad)]
    proc = run(["-C", str(repo), "diff", *args], cwd=tmp_path, timeout=60)
    assert tree_digest(tmp_path) == before
    assert_refused(proc, str(bad), message)


def _put_ref_in_draft(repo: Path, ref: str) -> None:
    p = repo / "spec" / "schemas" / "grader.json"
    s = json.loads(p.read_text())
    if ref.startswith("#"):
        s.setdefault("$defs", {}).update({"loopa": {"$ref": "#/$defs/loopb"},
                                          "loopb": {"$ref": "#/$defs/loopa"}})
    s["properties"]["id"] = {"$ref": ref}
    p.write_text(json.dumps(s, indent=2))


@pytest.mark.parametrize(("ref", "message"), [r[1:] for r in REFS], ids=[r[0] for r in REFS])
def test_validate_refuses_bad_ref_in_spec(repo, ref, message):
    _put_ref_in_draft(repo, ref)
    before = tree_digest(repo)
    proc = run(["-C", str(repo), "validate", str(repo / "spec/examples/llm-judge-grader.json")], cwd=repo)
    assert_refused(proc, "spec/schemas/grader.json:", message)  # relative to the cwd
    assert tree_digest(repo) == before


@pytest.mark.parametrize(("ref", "message"), [r[1:] for r in REFS], ids=[r[0] for r in REFS])
def test_check_reports_bad_ref_in_scratch_spec(repo, ref, message):
    """The gate reports a broken draft schema as a failing stage (its documented contract:
    repository content problems are findings, exit 1), naming file, line and pointer; no stage
    crashes, nothing is fetched or written. Stages that classify (draft, releases, rfcs) are
    the diff engine's and are covered by the xfail row below."""
    _put_ref_in_draft(repo, ref)
    before = tree_digest(repo)
    proc = run(["-C", str(repo), "check", "--format", "json", "--stage", "schemas", "--stage",
                "conformance", "--stage", "rules", "--stage", "examples"], cwd=repo)
    err = proc.stderr.decode()
    assert "Traceback" not in err and proc.returncode == 1, (proc.returncode, err)
    report = json.loads(proc.stdout)
    by_name = {s["name"]: s for s in report["stages"]}
    assert by_name["schemas"]["status"] == "fail"
    text = json.dumps(report)
    assert "spec/schemas/grader.json" in text and message.replace("'", "") in text.replace("'", "")
    assert "crashed" not in text
    assert tree_digest(repo) == before


def test_check_draft_stage_survives_circular_ref(repo):
    _put_ref_in_draft(repo, "#/$defs/loopa")
    proc = run(["-C", str(repo), "check", "--stage", "draft"], cwd=repo, timeout=120)
    assert proc.returncode in (1, 2) and "Traceback" not in proc.stderr.decode()


# --- 4. symlinks that leave the repository -----------------------------------------------------

SYMLINKS = [
    # id, link path in repo, command
    ("example-to-etc-passwd-check", "spec/examples/evil.json", ["check", "--stage", "examples"]),
    ("schema-to-etc-passwd-validate", "spec/schemas/evil.json",
     ["validate", "--spec-version", "draft", "spec/examples/rag-suite.json"]),
    ("schema-to-etc-passwd-rules", "spec/schemas/evil.json", ["rules", "check"]),
    ("schema-to-etc-passwd-conformance", "spec/schemas/evil.json", ["conformance"]),
    ("release-schema-to-etc-passwd-diff", "spec/releases/1.3.0/schemas/evil.json", ["diff", "1.3.0", "draft"]),
    ("release-schema-to-etc-passwd-release", "spec/schemas/evil.json", ["release", "1.4.0", "--dry-run"]),
    ("rfc-to-etc-passwd-lint", "rfcs/0009-evil.md", ["rfc", "lint"]),
    ("rfc-to-etc-passwd-index", "rfcs/0009-evil.md", ["rfc", "index"]),
    ("rfc-to-etc-passwd-check", "rfcs/0009-evil.md", ["check", "--stage", "rfcs"]),
    ("rfc-outside-repo-check", "rfcs/0009-evil.md", ["check", "--stage", "rfcs"]),
]


@pytest.mark.parametrize(("link", "args"), [r[1:] for r in SYMLINKS], ids=[r[0] for r in SYMLINKS])
def test_symlink_leaving_repo_refused(repo, tmp_path, link, args, request):
    target = Path("/etc/passwd")
    if "outside-repo" in request.node.name:
        target = write(tmp_path / "outside" / "0009-evil.md", "---\nnumber: 9\ntitle: x\n---\n")
    (repo / link).symlink_to(target)
    before = tree_digest(repo)
    proc = run(["-C", str(repo), *args], cwd=repo)
    line = assert_refused(proc, None, "refusing a symlink that leaves the repository")
    assert link in line and str(target) in line
    assert tree_digest(repo) == before


def test_docs_build_refuses_symlink(repo, tmp_path):
    (repo / "spec/examples/evil.json").symlink_to("/etc/passwd")
    proc = run(["-C", str(repo), "docs", "build", "--version", "draft", "--out", str(tmp_path / "site")],
               cwd=repo, timeout=300)
    assert_refused(proc, None, "refusing a symlink that leaves the repository")
    assert not (tmp_path / "site").exists()


# --- 5. RFC front matter: YAML bombs and tags ---------------------------------------------------

BILLION_LAUGHS = "\n".join(
    ["a: &a [x, x, x, x, x, x, x, x, x]"]
    + [f"{chr(98 + i)}: &{chr(98 + i)} [" + ", ".join([f"*{chr(97 + i)}"] * 9) + "]" for i in range(8)])

FRONT_MATTER = [
    ("yaml-anchor-bomb", BILLION_LAUGHS + "\nnumber: 9\ntitle: x\n", ":3:8", "aliases and anchors are not allowed"),
    ("yaml-python-object", "number: 9\ntitle: !!python/object/apply:os.system ['touch PWNED']\n",
     ":3:8", "!!python/object/apply:os.system"),
    ("yaml-python-name", "number: 9\ntitle: !!python/name:os.system\n", ":3:8", "!!python/name:os.system"),
    ("yaml-malformed", "number: 9\ntitle: [unclosed\n", ":4:1", "front matter"),
    ("yaml-not-a-mapping", "- 1\n- 2\n", ":2", "front matter must be a YAML mapping"),
]


@pytest.mark.parametrize("command", [["rfc", "lint"], ["rfc", "index"], ["rfc", "check", "9"]],
                         ids=["lint", "index", "check"])
@pytest.mark.parametrize(("front", "pos", "message"), [r[1:] for r in FRONT_MATTER],
                         ids=[r[0] for r in FRONT_MATTER])
def test_rfc_front_matter_hostile(repo, front, pos, message, command):
    write(repo / "rfcs" / "0009-hostile.md", f"---\n{front}---\n\n# RFC 0009: x\n")
    before = tree_digest(repo)
    proc = run(["-C", str(repo), *command], cwd=repo, timeout=60)
    line = assert_refused(proc, f"rfcs/0009-hostile.md{pos}", "")
    assert message in line or "YAML" in line, line
    assert not (repo / "PWNED").exists()
    assert tree_digest(repo) == before


# --- 6. options that look like git options, unknown versions and types, non-documents --------

ARGS = [
    ("base-upload-pack", ["check", "--base=--upload-pack=touch PWNED"], None, "refusing git revision"),
    ("base-dash-x", ["check", "--base=-x"], None, "refusing git revision '-x'"),
    ("diff-ref-upload-pack", ["diff", "--", "--upload-pack=x:spec/schemas/suite.json", "draft"], None,
     "--upload-pack=x:spec/schemas/suite.json"),
    ("diff-ref-dash-x", ["diff", "--", "-x:spec", "draft"], None, "'-x:spec'"),
    ("diff-ref-missing", ["diff", "no-such-branch:spec", "draft"], None, "no-such-branch"),
    ("validate-unknown-spec-version", ["validate", "--spec-version", "9.9.9", "spec/examples/rag-suite.json"],
     None, "unknown spec version '9.9.9'"),
    ("validate-spec-version-path", ["validate", "--spec-version", "../../etc", "spec/examples/rag-suite.json"],
     None, "unknown spec version '../../etc'"),
    ("conformance-unknown-spec-version", ["conformance", "--spec-version", "2.0.0"], None,
     "unknown spec version '2.0.0'"),
    ("diff-unknown-version", ["diff", "9.9.9", "draft"], None, "unknown spec version '9.9.9'"),
    ("docs-unknown-version", ["docs", "build", "--version", "9.9.9"], None, "unknown spec version '9.9.9'"),
    ("validate-unknown-type", ["validate", "--type", "nope", "spec/examples/rag-suite.json"], None,
     "invalid choice: 'nope'"),
    ("check-unknown-stage", ["check", "--stage", "nope"], None, "invalid choice: 'nope'"),
    ("release-not-semver", ["release", "1.4"], None, "'1.4' is not MAJOR.MINOR.PATCH"),
    ("release-bad-date", ["release", "1.4.0", "--date", "2026-13-45", "--dry-run"], None, "2026-13-45"),
    ("rfc-check-missing", ["rfc", "check", "99"], None, "no RFC number 99"),
    ("rfc-status-unknown", ["rfc", "status", "1", "bogus"], None, "unknown status 'bogus'"),
    ("conformance-fixtures-missing", ["conformance", "--fixtures", "/nonexistent-dir"], "/nonexistent-dir",
     "fixtures folder does not exist"),
    ("validate-directory", ["validate", "/etc"], "/etc", "is a directory"),
    ("validate-missing-file", ["validate", "nope.json"], "nope.json", "no such file"),
    ("validate-array-not-document", ["validate", "@ARRAY"], "@ARRAY:1:1", "not an EvalPort document"),
    ("validate-object-not-document", ["validate", "@OBJECT"], "@OBJECT:1:1", "not an EvalPort document"),
    ("diff-not-a-schema", ["diff", "@ARRAY", "@OBJECT"], "@ARRAY:1:1", "must be an object or a boolean"),
    ("conformance-not-a-fixture", ["conformance", "--fixtures", "@FIXDIR"], "@FIXDIR/x.json", ""),
]


@pytest.mark.parametrize(("args", "where", "message"), [r[1:] for r in ARGS], ids=[r[0] for r in ARGS])
def test_bad_arguments(pristine_repo, tmp_path, args, where, message):
    repo = pristine_repo
    files = {"@ARRAY": write(tmp_path / "array.json", "[1, 2, 3]\n"),
             "@OBJECT": write(tmp_path / "object.json", '{"hello": "world"}\n')}
    fixdir = tmp_path / "fixtures"
    write(fixdir / "x.json", '{"hello": "world"}\n')
    shutil.copy(repo / "spec/conformance/fixture.schema.json", tmp_path / "fixture.schema.json")
    files["@FIXDIR"] = fixdir

    def sub(a: str) -> str:
        for k, v in files.items():
            a = a.replace(k, str(v))
        return a

    args = [sub(a) for a in args]
    before = tree_digest(repo), tree_digest(tmp_path)
    proc = run(["-C", str(repo), *args], cwd=repo, timeout=60)
    assert_refused(proc, sub(where) if where else None, message)
    assert (tree_digest(repo), tree_digest(tmp_path)) == before
    assert not (repo / "PWNED").exists()


# --- 7. concurrent writers ---------------------------------------------------------------------


def test_concurrent_rfc_new_do_not_corrupt(repo):
    """Four ``rfc new`` started together: each either gets the one-line lock message (exit 2)
    or succeeds; those that succeed get distinct numbers, every RFC file is whole (parses, its
    number matches its file name), the index lists exactly the RFCs on disk, and no temporary
    file is left behind."""
    from evalport_spec.rfc import index_findings, load_rfcs

    existing = {p.name for p in (repo / "rfcs").glob("[0-9][0-9][0-9][0-9]-*.md")}
    env = {**os.environ, **NO_NET}
    procs = [subprocess.Popen([EXE, "-C", str(repo), "rfc", "new", f"Concurrent proposal {i}",
                               "--author", "t", "--today", "2026-11-01"], cwd=repo, env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE) for i in range(4)]
    results = [(p.wait(timeout=120), p.stdout.read().decode(), p.stderr.read().decode()) for p in procs]
    made = []
    for code, out, err in results:
        assert "Traceback" not in err, err
        if code == 0:
            made.append(out.strip())
        else:
            assert code == 2, (code, err)
            line = err.strip()
            assert len(err.splitlines()) == 1 and line.startswith("evalport-spec: error: "), err
            assert "another rfc" in line and "is writing this repository" in line, line
    assert made, results
    new_files = {p.name for p in (repo / "rfcs").glob("[0-9][0-9][0-9][0-9]-*.md")} - existing
    assert len(new_files) == len(made) == len({m.split("/")[-1][:4] for m in made})
    assert sorted(Path(m).name for m in made) == sorted(new_files)
    rfcs = load_rfcs(repo)
    for rfc in rfcs:
        assert rfc.meta["number"] == rfc.number
    assert index_findings(repo) == []
    leftovers = [p for p in (repo / "rfcs").rglob(".*") if p.name.endswith(".tmp")]
    assert leftovers == []
