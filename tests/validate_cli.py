"""Helpers for the ``validate`` command tests."""

from __future__ import annotations

from pathlib import Path

from evalport_spec.cli import main

ROOT = Path(__file__).resolve().parents[1]


def write(tmp_path: Path, name: str, text: str) -> str:
    """Write ``text`` to ``tmp_path/name``; return the path as a string."""
    p = tmp_path / name
    p.write_text(text)
    return str(p)


def cli(*args: str) -> int:
    """``evalport-spec -C <this repository> validate ARGS``; returns the exit code."""
    return main(["-C", str(ROOT), "validate", *args])
