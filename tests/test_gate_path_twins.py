"""Paths that name one file on macOS's HFS+ (``path-case-collision``): besides case and Unicode
normalisation, HFS+ ignores a set of invisible code points in names (zero-width joiners,
direction marks, U+FEFF; git's own ``core.protectHFS`` skips the same ones when it guards
``.git``), so ``spec/VERS\\u200cION`` is ``spec/VERSION`` there (red team, session 33)."""

from __future__ import annotations

import pytest

from evalport_spec.gate.layout import colliding_paths


@pytest.mark.parametrize("mark", ["\u200c", "\u200d", "\u200e", "\u200f", "\u202a", "\u202e",
                                  "\u206a", "\u206f", "\ufeff"])
def test_an_hfs_ignorable_code_point_makes_a_twin(mark):
    twin = f"spec/VERS{mark}ION"
    assert colliding_paths(["spec/VERSION", twin, "spec/rules.json"]) == [sorted(["spec/VERSION", twin])]


def test_other_invisible_looking_names_stay_distinct():
    # U+00A0 (no-break space) and U+2060 (word joiner) are not ignored by HFS+
    assert colliding_paths(["spec/VERSION", "spec/VERS\u00a0ION", "spec/VERS\u2060ION"]) == []
