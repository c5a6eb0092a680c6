"""Ignore files for ``diff --ignore``: silence known, accepted findings, with expiry.

Format (YAML or JSON): a list of entries (or ``{"ignore": [...]}``), each
``{kind, pointer?, fingerprint?, to?, commit?, reason, expires?}``. An entry matches a finding of that ``kind``
whose old or new JSON Pointer equals ``pointer`` (any pointer when absent) and, when it has a
``fingerprint``, whose fingerprint is exactly that one (docs/fingerprints.md: one lost enum value
is one finding). ``to`` (16 hex digits) is the value an entry accepts for a breaking finding
without an item in ``check`` (:func:`evalport_spec.rfc.accept.after_digest`: such a fingerprint
names a place, not the value written there). ``commit`` (a full commit id) names the commit
whose code an entry of the repository's ``gate-ignore.yml`` excuses
(:mod:`evalport_spec.gate.ignorecommit`). An entry whose ``expires`` (ISO date) is before today no longer applies and is
reported as *expired*; an entry that matched nothing is *stale* (the oasdiff ``--err-ignore``
idea, with bookkeeping).
"""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path
from typing import Any

from ..errors import InputError
from ..findings import Finding
from ..fsutil import read_limited
from ..ignorefile import MAX_IGNORE_BYTES
from ..yamldepth import load
from ..yamlerror import describe

COMMIT_ID = re.compile(r"[0-9a-f]{40}|[0-9a-f]{64}")
"""A full git object name (SHA-1 or SHA-256), lowercase: an abbreviation could come to name
another commit once the repository holds more objects."""


def load_ignore(path: str | Path) -> list[dict[str, Any]]:
    """Parse an ignore file.

    Raises:
        InputError: unreadable, not YAML/JSON, or an entry without a string ``kind``/``reason``
            or with a malformed ``expires`` (a day the calendar lacks, ``2026-02-30``, included:
            dates are read as text, :func:`evalport_spec.yamldepth.load`).
    """
    import yaml

    p = Path(path)
    try:
        text = read_limited(p, max_bytes=MAX_IGNORE_BYTES, label=str(p)).decode("utf-8")
        data = load(text)
    except UnicodeDecodeError as exc:
        raise InputError(f"cannot read ignore file: {exc}", str(p)) from None
    except yaml.YAMLError as exc:
        problem, line, col = describe(exc, text)
        raise InputError(f"not YAML/JSON: {problem}", str(p), line, col) from None
    except ValueError as exc:  # an explicit tag whose constructor refuses the value
        raise InputError(f"not YAML/JSON: a tagged value cannot be read: {exc}", str(p)) from None
    if isinstance(data, dict):  # {"ignore": [...]}; any other object is no ignore file
        if "ignore" not in data:
            raise InputError("an ignore file is a list of {kind, pointer, fingerprint, reason, expires} "
                             "entries, or an object whose 'ignore' member is that list", str(p))
        data = data["ignore"]
    if data is None:
        return []
    if not isinstance(data, list):
        raise InputError("an ignore file is a list of {kind, pointer, fingerprint, reason, expires} entries", str(p))
    for i, e in enumerate(data):
        if not isinstance(e, dict) or not isinstance(e.get("kind"), str):
            raise InputError(f"entry {i}: needs a string 'kind'", str(p), None, None, f"/{i}")
        if not isinstance(e.get("reason"), str) or not e["reason"].strip():
            raise InputError(f"entry {i}: needs a non-empty 'reason'", str(p), None, None, f"/{i}")
        if "pointer" in e and not isinstance(e["pointer"], str):
            raise InputError(f"entry {i}: 'pointer' must be a string", str(p), None, None, f"/{i}")
        if "fingerprint" in e and not re.fullmatch(r"[0-9a-f]{16}", str(e["fingerprint"])):
            raise InputError(f"entry {i}: 'fingerprint' must be 16 lowercase hex digits", str(p), None,
                             None, f"/{i}/fingerprint")
        if "to" in e and not re.fullmatch(r"[0-9a-f]{16}", str(e["to"])):
            raise InputError(f"entry {i}: 'to' must be 16 lowercase hex digits", str(p), None,
                             None, f"/{i}/to")
        if "commit" in e and not (isinstance(e["commit"], str) and COMMIT_ID.fullmatch(e["commit"])):
            raise InputError(f"entry {i}: 'commit' must be a full commit id (40 or 64 lowercase hex digits)",
                             str(p), None, None, f"/{i}/commit")
        if "expires" in e:
            exp = e["expires"]
            try:
                e["expires"] = (exp if isinstance(exp, dt.date) else dt.date.fromisoformat(str(exp))).isoformat()
            except ValueError:
                raise InputError(f"entry {i}: 'expires' is not an ISO date: {exp!r}", str(p), None,
                                 None, f"/{i}/expires") from None
    return data


def apply_ignore(findings: list[Finding], entries: list[dict[str, Any]],
                 today: dt.date | None = None) -> tuple[list[Finding], dict[str, Any]]:
    """Remove findings matched by live entries.

    Returns:
        ``(kept findings, {"used": [...], "stale": [...], "expired": [...], "silenced": n})``.
    """
    today = today or dt.date.today()
    live, expired = [], []
    for e in entries:
        if "expires" in e and dt.date.fromisoformat(e["expires"]) < today:
            expired.append(e)
        else:
            live.append(e)
    used: list[int] = []
    kept = []
    for f in findings:
        hit = None
        for i, e in enumerate(live):
            if e["kind"] != f.kind or e.get("fingerprint", f.fingerprint) != f.fingerprint:
                continue
            ptrs = {loc.pointer for loc in (f.old, f.new) if loc is not None}
            if "pointer" not in e or e["pointer"] in ptrs:
                hit = i
                break
        if hit is None:
            kept.append(f)
        elif hit not in used:
            used.append(hit)
    info = {"used": [live[i] for i in sorted(used)],
            "stale": [e for i, e in enumerate(live) if i not in used],
            "expired": expired, "silenced": len(findings) - len(kept)}
    return kept, info
