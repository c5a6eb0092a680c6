"""The gate never fetches anything over the network: a ``$ref`` to a remote URL in the branch's
fixture meta-schema (``spec/conformance/fixture.schema.json``) is an error, never a download
(toolchain.md: references resolve offline). Red team (session 33): python-jsonschema's default
registry still retrieves remote references, and the conformance fixtures were checked with it,
so a branch's meta-schema made the gate of record fetch a URL of its choosing (hundreds of
requests, no timeout) and let that server decide how the fixtures were read; the gate passed."""

from __future__ import annotations

import http.server
import threading

import pytest

from evalport_spec.gate import run_gate
from gate_repo import edit_json, make_repo


@pytest.fixture
def server():
    """A local HTTP server answering every GET with ``{}``; yields ``(url, hits)``."""
    hits: list[str] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802 (the http.server name)
            hits.append(self.path)
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.end_headers()
            self.wfile.write(b"{}")

        def log_message(self, *args):
            pass

    httpd = http.server.HTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_port}/meta.json", hits
    finally:
        httpd.shutdown()
        httpd.server_close()


def test_a_remote_ref_in_the_fixture_meta_schema_is_refused_not_fetched(tmp_path, server):
    url, hits = server
    root = make_repo(tmp_path)
    edit_json(root / "spec/conformance/fixture.schema.json",
              lambda d: d.setdefault("allOf", []).append({"$ref": url}))
    report = run_gate(root, stages=["conformance"], cache=False)
    assert hits == []
    stage = report.stage("conformance")
    assert stage.status == "fail"
    messages = [f.message for f in stage.errors]
    assert any(url in m and "offline" in m for m in messages), messages
