"""Brute force over configurations: the baseline and the cross-check of the exact DP.

:func:`evaluate_many` decides many configurations at once with numpy bitsets:
each configuration's reached set of vertices is a row of 64-bit words, and each
tile's chosen hyperedges are gathered per configuration; a hyperedge that touches
the reached set adds all its vertices. Passes over the tiles repeat until no row
changes. :func:`brute_force` runs it over every configuration in chunks.

Notes
-----
Cost O(C · P · H · W) for C configurations, P propagation passes (at most the
number of tiles + 1, usually 3–6), H hyperedges per configuration and W words
per bitset. Memory O(chunk · (n_tiles + W)).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .structure import Problem


@dataclass
class _Tables:
    words: int
    #: per tile: masks[opt, h, word] and points[opt, h]
    masks: list[np.ndarray]
    points: list[np.ndarray]
    weight_bits: list[tuple[int, int, int]]  # (word, bit, points) of weighted vertices
    src: tuple[int, int]
    targets: list[tuple[int, int]]


def _tables(problem: Problem) -> _Tables:
    words = max(1, (problem.n_vertices + 63) // 64)
    masks, points = [], []
    for tv in problem.tiles:
        h = max(1, max(len(c.hyperedges) for c in tv.classes))
        m = np.zeros((len(tv.classes), h, words), dtype=np.uint64)
        p = np.zeros((len(tv.classes), h), dtype=np.int64)
        for o, c in enumerate(tv.classes):
            for k, (vs, pts) in enumerate(c.hyperedges):
                for v in vs:
                    m[o, k, v // 64] |= np.uint64(1 << (v % 64))
                p[o, k] = pts
        masks.append(m)
        points.append(p)
    wb = [(v // 64, v % 64, w) for v, w in enumerate(problem.weight) if w]
    return _Tables(
        words,
        masks,
        points,
        wb,
        (problem.src // 64, problem.src % 64),
        [(t // 64, t % 64) for t in problem.targets],
    )


def evaluate_many(
    problem: Problem, choices: np.ndarray, with_points: bool = True, tables: _Tables | None = None
) -> tuple[np.ndarray, np.ndarray | None]:
    """(success, reachable points) for each row of ``choices`` (class index per tile)."""
    tb = tables or _tables(problem)
    n = choices.shape[0]
    reach = np.zeros((n, tb.words), dtype=np.uint64)
    sw, sb = tb.src
    reach[:, sw] = np.uint64(1 << sb)
    gathered = [tb.masks[i][choices[:, i]] for i in range(len(problem.tiles))]  # (n, h, W)
    zero = np.uint64(0)
    while True:
        before = reach.copy()
        for g in gathered:
            for k in range(g.shape[1]):
                m = g[:, k, :]
                hit = ((reach & m) != zero).any(axis=1)
                reach[hit] |= m[hit]
        if np.array_equal(before, reach):
            break
    ok = np.ones(n, dtype=bool)
    for w, b in tb.targets:
        ok &= (reach[:, w] >> np.uint64(b)) & np.uint64(1) == np.uint64(1)
    if not with_points:
        return ok, None
    pts = np.zeros(n, dtype=np.int64)
    for w, b, p in tb.weight_bits:
        pts += p * ((reach[:, w] >> np.uint64(b)) & np.uint64(1)).astype(np.int64)
    for i, g in enumerate(gathered):
        pp = tb.points[i][choices[:, i]]
        for k in range(g.shape[1]):
            hit = ((reach & g[:, k, :]) != zero).any(axis=1)
            pts += np.where(hit, pp[:, k], 0)
    return ok, pts


def all_choices(ks: list[int], start: int, stop: int) -> np.ndarray:
    """Configurations ``start``..``stop``-1 in mixed radix (last tile fastest)."""
    idx = np.arange(start, stop, dtype=np.int64)
    out = np.zeros((stop - start, len(ks)), dtype=np.int64)
    for i in range(len(ks) - 1, -1, -1):
        out[:, i] = idx % ks[i]
        idx //= ks[i]
    return out


@dataclass
class BruteResult:
    success: int
    total: int
    fewest_points: int
    outcomes: np.ndarray | None  # bool array shaped by the class counts (if kept)


def brute_force(
    problem: Problem,
    chunk: int = 1 << 15,
    keep: bool = False,
    with_points: bool = True,
    tick: Callable[[int, int], None] | None = None,
) -> BruteResult:
    """Decide every configuration with :func:`evaluate_many` (vectorized bitsets)."""
    ks = [len(t.classes) for t in problem.tiles]
    total = problem.total
    tb = _tables(problem)
    succ = 0
    fewest = None
    kept = np.zeros(total, dtype=bool) if keep else None
    for s in range(0, total, chunk):
        e = min(total, s + chunk)
        ok, pts = evaluate_many(problem, all_choices(ks, s, e), with_points, tb)
        succ += int(ok.sum())
        if pts is not None:
            m = int(pts.min())
            fewest = m if fewest is None else min(fewest, m)
        if kept is not None:
            kept[s:e] = ok
        if tick:
            tick(e, total)
    return BruteResult(
        succ,
        total,
        -1 if fewest is None else fewest,
        kept.reshape(ks) if kept is not None else None,
    )


def brute_force_uf(problem: Problem) -> tuple[int, int]:
    """(successes, fewest points) by a plain union-find per configuration (slow reference)."""
    import itertools

    ks = [len(t.classes) for t in problem.tiles]
    succ = 0
    fewest = None
    for ch in itertools.product(*[range(k) for k in ks]):
        ok, pts = problem.evaluate(ch)
        succ += ok
        fewest = pts if fewest is None else min(fewest, pts)
    return succ, -1 if fewest is None else fewest
