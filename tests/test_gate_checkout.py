"""A checkout that differs from its commit is refused wherever the gate reads the branch from
disk and other commits from git: spec/ and rfcs/, and (session 34) tools/, .ci/, the packaging
and ignore files and the Python modules at the root (``gate/history.py``,
``refuse_checkout_conversions``). Before, a ``filter``, ``ident``, ``working-tree-encoding`` or
``eol=crlf`` attribute on ``tools/`` made the rule code the gate read from the checkout differ
from the blob that lands, and nothing refused it.
"""

from __future__ import annotations

import re

import pytest

from evalport_spec.errors import InputError
from evalport_spec.gate import run_gate
from gate_repo import commit_all, git, reset_fixtures

scratch, repo = reset_fixtures("checkout")


def checked_out_again(root, rel):
    (root / rel).unlink()
    git(root, "checkout", "--", rel)


@pytest.mark.parametrize(("path", "attribute", "named"), [
    ("tools/evalport_spec/validation/rules/suite.py", "ident", "`ident` (set)"),
    ("tools/orjson.py", "filter=lfs", "`filter` (lfs)"),
    (".ci/run", "ident", "`ident` (set)"),
    ("pyproject.toml", "working-tree-encoding=UTF-16LE", "`working-tree-encoding` (UTF-16LE)"),
    ("gate-ignore.yml", "ident", "`ident` (set)"),
    ("orjson.py", "ident", "`ident` (set)"),
    ("yaml/__init__.py", "ident", "`ident` (set)"),
])
def test_an_attribute_rewriting_a_toolchain_file_on_checkout_is_refused(repo, path, attribute, named):
    (repo / path).parent.mkdir(parents=True, exist_ok=True)
    text = "# $Id$\nVALUE = 1\n"
    (repo / path).write_bytes(text.encode("utf-16-le" if "UTF-16LE" in attribute else "utf-8"))
    (repo / ".gitattributes").write_text(f"{path} {attribute}\n")
    commit_all(repo, f"{attribute} on {path}")
    with pytest.raises(InputError, match=re.escape(f"the git attribute {named} rewrites this file on checkout")) as caught:
        run_gate(repo, stages=["manifest"], cache=False)
    assert caught.value.source == path


def test_crlf_written_into_tools_on_checkout_is_refused(repo):
    rel = "tools/evalport_spec/validation/rules/suite.py"
    (repo / rel).parent.mkdir(parents=True)
    (repo / rel).write_text("VALUE = 1\n")
    (repo / "tools/.gitattributes").write_text("*.py text eol=crlf\n")
    commit_all(repo, "CRLF on checkout of tools/")
    checked_out_again(repo, rel)
    assert (repo / rel).read_bytes() == b"VALUE = 1\r\n"  # git did convert it
    with pytest.raises(InputError, match="the eol=crlf attribute turned this file's LF line endings") as caught:
        run_gate(repo, stages=["manifest"], cache=False)
    assert caught.value.source == rel


def test_a_blob_with_mixed_line_endings_converted_to_crlf_is_refused(repo, tmp_path):
    """``text eol=crlf`` adds a CR to each lone LF of a blob that has CRLF already: ``git
    ls-files --eol`` says ``i/mixed w/crlf``, and the checkout is not the blob. (``git add``
    would normalise the file, so the mixed blob is stored with plumbing, as a push can.)"""
    rel = "spec/VERSION"
    (repo / "spec/.gitattributes").write_text("VERSION text eol=crlf\n")
    commit_all(repo, "CRLF on checkout")
    (tmp_path / "VERSION").write_bytes(b"1.4.0\r\n\n")
    blob = git(repo, "hash-object", "-w", "--no-filters", str(tmp_path / "VERSION")).strip()
    git(repo, "update-index", "--cacheinfo", f"100644,{blob},{rel}")
    git(repo, "commit", "-q", "-m", "a VERSION with mixed line endings")
    checked_out_again(repo, rel)
    assert (repo / rel).read_bytes() == b"1.4.0\r\n\r\n"
    with pytest.raises(InputError, match="the eol=crlf attribute turned this file's LF line endings") as caught:
        run_gate(repo, stages=["manifest"], cache=False)
    assert caught.value.source == rel


def test_attributes_on_files_the_gate_does_not_read_are_no_reason_to_refuse(repo):
    (repo / "docs").mkdir()
    (repo / "docs/notes.md").write_text("$Id$\n")
    (repo / "README.md").write_text("$Id$\n")
    (repo / "tests").mkdir()
    (repo / "tests/test_x.py").write_text("# $Id$\n")
    (repo / ".gitattributes").write_text("docs/* ident\n/README.md ident\ntests/*.py ident\n* text=auto\n")
    commit_all(repo, "ident outside the guarded paths")
    for rel in ("docs/notes.md", "README.md", "tests/test_x.py"):
        checked_out_again(repo, rel)
    assert "$Id: " in (repo / "README.md").read_text()
    assert run_gate(repo, stages=["manifest"], cache=False).stage("manifest").status == "ok"
