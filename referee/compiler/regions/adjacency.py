"""Adjacency of spaces: shared-edge hashing, then the borders and overlaps it misses.

Every ring segment is keyed by its two endpoints (rounded to a micrometre); a key held
by two spaces is a shared border (one sort, O(S log S)). :func:`_borders` then checks
only around unmatched and crowded segments for T-junction borders and overlaps.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any

import numpy as np
import shapely

from ..problems import Problem

_Q = 1000.0  # key resolution: 1 µm


def _ring_segments(polys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """All ring segments as (n, 4) float array and the index of their polygon.

    Only the rings of ``Polygon`` geometries count (``shapely.get_rings``). When every
    geometry is a polygon without holes, each has one ring whose coordinates are the
    polygon's own, so they are read in one ``get_coordinates`` call without making a
    ring geometry per space (a third of this step on a 10,000-space map); otherwise
    the rings are made. O(V) for V vertices either way.
    """
    if (
        len(polys)
        and bool((shapely.get_type_id(polys) == 3).all())
        and not bool(shapely.get_num_interior_rings(polys).any())
    ):
        coords, ring_idx = shapely.get_coordinates(polys, return_index=True)
        ring_owner = None
    else:
        rings, ring_owner = shapely.get_rings(polys, return_index=True)
        coords, ring_idx = shapely.get_coordinates(rings, return_index=True)
    at = np.flatnonzero(ring_idx[1:] == ring_idx[:-1])  # a segment starts at each
    segs = np.empty((len(at), 4))
    segs[:, :2] = coords[at]
    segs[:, 2:] = coords[at + 1]
    start = ring_idx[at]
    owner = start if ring_owner is None else ring_owner[start]
    return segs, owner


def _seg_keys(segs: np.ndarray) -> np.ndarray:
    """Integer endpoint keys (µm) of segments, endpoints in a canonical order."""
    q = np.round(segs * _Q).astype(np.int64)
    swap = (q[:, 0] > q[:, 2]) | ((q[:, 0] == q[:, 2]) & (q[:, 1] > q[:, 3]))
    q[swap] = q[swap][:, [2, 3, 0, 1]]
    return q


def _mix(q: np.ndarray) -> np.ndarray:
    """A 64-bit hash of each key row (collisions are re-checked by the callers)."""
    h = np.zeros(len(q), dtype=np.uint64)
    with np.errstate(over="ignore"):
        for col in range(q.shape[1]):
            h = (h ^ q[:, col].astype(np.uint64)) * np.uint64(0x100000001B3)
            h ^= h >> np.uint64(29)
    return h


def _stable_order(h: np.ndarray) -> np.ndarray:
    """``np.argsort(h, kind="stable")``, faster for hashes that repeat at most twice.

    NumPy's stable sort of 64-bit keys is a merge sort (timsort), about five times its
    quicksort. Quicksort leaves equal keys in any order; when no key occurs more than
    twice (every segment of a clean coverage is shared by at most two spaces), putting
    each equal pair in index order gives the stable order exactly. With a key three
    or more times (duplicated or crowded segments) the stable sort itself runs.
    O(S log S).
    """
    order = np.argsort(h)
    hs = h[order]
    eq = hs[1:] == hs[:-1]
    if len(eq) > 1 and bool((eq[1:] & eq[:-1]).any()):
        return np.argsort(h, kind="stable")
    i = np.nonzero(eq)[0]
    flip = i[order[i] > order[i + 1]]
    order[flip], order[flip + 1] = order[flip + 1], order[flip]
    return order


def shared_edges(
    polys: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The adjacency step: ring segments that two polygons share exactly.

    Returns
    -------
    segs : (S, 4) array of every ring segment; seg_len : (S,) their lengths;
    lo, hi : polygon indices (lo < hi) of each shared segment;
    border_seg : index into ``segs`` of each shared segment.

    Notes
    -----
    One sort of 64-bit segment hashes (collisions re-checked on the integer keys):
    O(S log S), no pairwise geometry tests.
    """
    segs, seg_len, lo, hi, border_seg, _, _ = _segment_groups(polys)
    return segs, seg_len, lo, hi, border_seg


def _segment_groups(polys: np.ndarray) -> tuple[np.ndarray, ...]:
    """:func:`shared_edges` plus, per ring segment, its owner and how many ring
    segments of the map have the same two endpoints (1: unmatched, 2: shared, 3+:
    crowded)."""
    segs, owner = _ring_segments(polys)
    q = _seg_keys(segs)
    h = _mix(q)
    order = _stable_order(h)
    hs, qs = h[order], q[order]
    same = (hs[1:] == hs[:-1]) & (qs[1:] == qs[:-1]).all(axis=1)
    dup = np.nonzero(same)[0]
    a_own, b_own = owner[order[dup]], owner[order[dup + 1]]
    distinct = a_own != b_own
    lo = np.minimum(a_own, b_own)[distinct]
    hi = np.maximum(a_own, b_own)[distinct]
    border_seg = order[dup][distinct]
    seg_len = np.hypot(segs[:, 2] - segs[:, 0], segs[:, 3] - segs[:, 1])
    run = np.concatenate([[0], np.cumsum(~same)])  # run id of each sorted segment
    counts = np.bincount(run)[run]
    multiplicity = np.empty(len(segs), dtype=np.int64)
    multiplicity[order] = counts
    return segs, seg_len, lo, hi, border_seg, owner, multiplicity


Pair = tuple[str, str]  # two space ids, in string order
Edge = tuple[str, str, str, str, dict[str, Any]]


def _pair(a: str, b: str) -> Pair:
    return (a, b) if a < b else (b, a)


# ---------------------------------------------------------------------- stages
@dataclass
class _Borders:
    """Shared borders among a list of spaces (a whole map, or a neighbourhood)."""

    ids: list[str]
    pair_len: dict[tuple[int, int], float]  # (lo, hi) list positions -> border length
    overlaps: dict[tuple[int, int], Problem]
    arr: np.ndarray  # (B, 4): hashed segments, then T-junction pieces
    n_hashed: int
    pair_codes: np.ndarray
    border_pair: np.ndarray
    extra_pairs: list[tuple[int, int]]

    def pair_of(self, i: int) -> tuple[int, int]:
        """The (lo, hi) spaces of border segment ``i``."""
        if i < self.n_hashed:
            n = len(self.ids)
            c = int(self.pair_codes[self.border_pair[i]])
            return (c // n, c % n)
        return self.extra_pairs[i - self.n_hashed]


def _borders(
    ids: list[str], polys: np.ndarray, tol: float, tree: shapely.STRtree | None = None
) -> _Borders:
    """Shared-edge hashing plus coverage validation (overlaps, T-junction borders).

    Notes
    -----
    The result for a pair of spaces depends only on the spaces that intersect one of
    the two (they hold the same segments, they make a space ``coverage``-invalid), and
    on their relative order in ``ids``: run on a neighbourhood that contains both and
    everything intersecting them, in board order, it equals the full map's.
    O(S log S) for S ring segments.
    """
    n = len(ids)
    segs, seg_len, lo, hi, border_seg, owner, mult = _segment_groups(polys)
    pair_codes, border_pair = np.unique(lo * n + hi, return_inverse=True)
    border_pair = border_pair.reshape(-1)
    pair_lens = np.bincount(border_pair, weights=seg_len[border_seg], minlength=len(pair_codes))
    pair_lo, pair_hi = pair_codes // n, pair_codes % n
    pair_len: dict[tuple[int, int], float] = dict(
        zip(zip(pair_lo.tolist(), pair_hi.tolist()), pair_lens.tolist())
    )
    border_lines: list[Any] = [segs[border_seg]]  # blocks of (k, 4) segment rows
    extra_pairs: list[tuple[int, int]] = []
    overlaps: dict[tuple[int, int], Problem] = {}

    # Candidates for an overlap or a border whose vertices do not match. In a clean
    # coverage every ring segment is shared by exactly two spaces, except on the
    # map's outline; so look only around unmatched segments (their interior, shrunk
    # by tol at each end so that a corner contact does not count), at crowded ones
    # (three or more spaces: duplicates), and at pairs that share a whole ring (a
    # duplicate on its own). Each test involves only the two spaces, so the answer
    # for a pair does not depend on the rest of the map.
    cand: set[tuple[int, int]] = set()
    loose = np.nonzero(mult == 1)[0]
    if len(loose):
        if tree is None:
            tree = shapely.STRtree(polys)
        a, b = segs[loose, :2], segs[loose, 2:]
        d = b - a
        ln = np.maximum(seg_len[loose], 1e-12)[:, None]
        cut = np.minimum(tol * 1.01, seg_len[loose] / 2.0 * 0.99)[:, None]
        inner = shapely.linestrings(np.stack([a + d / ln * cut, b - d / ln * cut], axis=1))
        si, pi = tree.query(inner, predicate="dwithin", distance=tol)
        own = owner[loose][si]
        for x, y in zip(own.tolist(), pi.tolist()):
            if x != y:
                cand.add((x, y) if x < y else (y, x))
    crowded = np.nonzero(mult >= 3)[0]
    if len(crowded):
        keyed: dict[tuple[int, ...], list[int]] = defaultdict(list)
        for i in crowded.tolist():
            keyed[tuple(_seg_keys(segs[i : i + 1])[0].tolist())].append(int(owner[i]))
        for owners in keyed.values():
            us = sorted(set(owners))
            cand.update((us[x], us[y]) for x in range(len(us)) for y in range(x + 1, len(us)))
    if pair_len:
        # perimeters from the ring segments already at hand (no boundary geometries),
        # every pair compared at once
        perim = np.bincount(owner, weights=seg_len, minlength=n)
        whole = np.nonzero(pair_lens >= 0.999 * np.minimum(perim[pair_lo], perim[pair_hi]))[0]
        cand.update(zip(pair_lo[whole].tolist(), pair_hi[whole].tolist()))
    if cand:
        pairs = sorted(cand)
        pa = np.array([p[0] for p in pairs], dtype=np.int64)
        pb = np.array([p[1] for p in pairs], dtype=np.int64)
        overl = shapely.relate_pattern(polys[pa], polys[pb], "2********")
        for x, y in zip(pa[overl].tolist(), pb[overl].tolist()):
            inter = polys[x].intersection(polys[y])
            c = inter.representative_point()
            overlaps[(x, y)] = Problem.make(
                "overlapping_spaces",
                f"spaces {ids[x]} and {ids[y]} overlap ({inter.area:.1f} mm²)",
                ids[x],
                (c.x, c.y),
            )
        rest = [
            (x, y)
            for x, y, o in zip(pa.tolist(), pb.tolist(), overl.tolist())
            if not o and (x, y) not in pair_len
        ]
        if rest:
            ra = np.array([r[0] for r in rest], dtype=np.int64)
            rb = np.array([r[1] for r in rest], dtype=np.int64)
            inters = shapely.intersection(shapely.boundary(polys[ra]), shapely.boundary(polys[rb]))
            lengths = shapely.length(inters)
            for x, y, inter, length in zip(ra.tolist(), rb.tolist(), inters, lengths.tolist()):
                if length > tol:
                    pair_len[(x, y)] = length
                    for part in getattr(inter, "geoms", [inter]):
                        if part.geom_type == "LineString":
                            cs = np.asarray(part.coords)
                            extra_pairs.extend([(x, y)] * (len(cs) - 1))
                            border_lines.append(np.hstack([cs[:-1], cs[1:]]))
    arr = np.vstack(border_lines).reshape(-1, 4)
    return _Borders(
        ids, pair_len, overlaps, arr, len(border_seg), pair_codes, border_pair, extra_pairs
    )
