"""Witnesses of failures at their own level, and their embedding up the instance path.

A failure deep inside (a member of a member) keeps only its local witnesses; the document at the
top is built on demand along that one path (:meth:`WitnessRules.witnesses`), so witnesses of deep
``$ref`` graphs cost the length of the path, not the size of the schema.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from .canon import Canon
from .fail import PROBE_TRIES, Fail, probe_active
from .sample import prop_nodes


class WitnessRules:
    """Mixin of :class:`~.subset.Checker`: local witnesses and their embedding."""

    def local_witnesses(self, A: Canon, B: Canon, hint: dict | None = None, limit: int = 2,
                        tries: int = 120, must: Callable[[Any], bool] | None = None) -> list[Any]:
        """Values valid under ``A`` and invalid under ``B`` from the sampler's candidates; with
        ``must``, only values showing this very failure (``must(value)``: e.g. the object lacks
        the newly required name), so a witness never stands for another change. Inside
        :func:`.fail.probing`, at most :data:`.fail.PROBE_TRIES` candidates."""
        out: list[Any] = []
        seen: set[str] = set()
        if probe_active():
            tries = min(tries, PROBE_TRIES)
        for n, x in enumerate(self.sampler.candidates(A, 0, hint)):
            if n >= tries:
                break
            k = repr(x)
            if k in seen:
                continue
            seen.add(k)
            if (must is None or must(x)) and self.sampler.valid(A, x) and not self.sampler.valid(B, x):
                out.append(x)
                if len(out) >= limit:
                    break
        return out

    def _wrap(self, f: Fail, A: Canon, B: Canon, key: Any, how: str) -> Fail:
        g = f.one_level_up(key)
        if not f.undecided:
            g.via = (f, A, B, key, how)
        return g

    def verified_witnesses(self, f: Fail, A: Canon, B: Canon) -> list[Any]:
        """:meth:`witnesses` of ``f`` (fast, then careful) that are valid under ``A`` and invalid
        under ``B`` (real validator)."""
        for careful in (False, True):
            ok = [w for w in self.witnesses(f, careful) if self.sampler.valid(A, w) and not self.sampler.valid(B, w)]
            if ok or f.via is None:
                return ok
        return []

    def first_verified(self, fails: Iterable[Fail], A: Canon, B: Canon, limit: int) -> list[Any]:
        """The first ``limit`` of the :meth:`verified_witnesses` of ``fails`` taken in order (the
        same list as all of them concatenated and cut), asking no failure after the one that
        completes it: a group branch's failures, or a member's, can number thousands, and most
        witness searches then never run."""
        out: list[Any] = []
        for f in fails:
            if len(out) >= limit:
                break
            out.extend(self.verified_witnesses(f, A, B))
        return out[:limit]

    def witnesses(self, f: Fail, careful: bool = False, limit: int = 2) -> list[Any]:
        """Witness candidates for ``f`` at its own level: its local witnesses, or those of the
        failure it wraps embedded one level up per step of its instance path (only that path is
        built, however large the schema). ``careful=False`` embeds each into the first candidate
        container without validating (one validation of the result, by the caller, is enough
        when it holds); ``careful=True`` validates at every level and tries more containers
        (quadratic in the path length: the fallback)."""
        chain: list[Fail] = []
        g = f
        while g.via is not None and (g.cache is None or careful not in g.cache):
            chain.append(g)
            g = g.via[0]
        ws = g.cache[careful] if g.via is not None else g.witness
        for h in reversed(chain):
            _, A, B, key, how = h.via
            out: list[Any] = []
            for w in ws:
                for cand in (self._objects_with(A, key, w) if how == "prop" else self._arrays_with(A, key, w)):
                    if not careful or (self.sampler.valid(A, cand) and not self.sampler.valid(B, cand)):
                        out.append(cand)
                        break
                if len(out) >= limit:
                    break
            if out or not probe_active():  # an empty answer of a short search is provisional
                if h.cache is None:
                    h.cache = {}
                h.cache[careful] = out
            ws = out
        return ws

    def _objects_with(self, A: Canon, name: str, w: Any):
        base = {}
        for r in sorted(A.required):
            if r == name:
                continue
            x = self.sampler.one(self.canon.nodes(*prop_nodes(A, r)))
            if not self.sampler.found(x):
                return
            base[r] = x
        yield {**base, name: w}
        for cand in self.sampler.candidates(A, 0, {"type": "object"}):
            if isinstance(cand, dict):
                yield {**cand, name: w}

    def _arrays_with(self, A: Canon, i: int, w: Any):
        lo = A.min_items.value if A.min_items else 0
        fill = [self.sampler.one(self.sampler.item_canon(A, k)) for k in range(max(i, lo))]
        if not all(self.sampler.found(x) for x in fill):
            return
        arr = fill[:i] + [w] + fill[i + 1:]
        yield arr
        yield fill[:i] + [w]
        others = self.sampler.many(self.sampler.item_canon(A, 0), limit=4)
        for o in others:
            yield [o] * i + [w] + [o] * max(0, lo - i - 1)
