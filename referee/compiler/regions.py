"""Region-map relations: ``touch`` (flagged ``river``/``bridge``), ``road``, ``dot``, ``dot_river``.

Adjacency of spaces comes from **shared-edge hashing**: every ring segment of every
space polygon is keyed by its two endpoints (rounded to a micrometre, in sorted
order); a key owned by two spaces is a shared border. One ``np.unique`` over all
segments does it, O(S log S) for S segments — no all-pairs ``touches``. A single
vectorized ``STRtree.query(..., predicate="intersects")`` then catches borders
whose vertices do not match (T-junctions) and overlaps — run only on the spaces that
``shapely.coverage_invalid_edges`` flags, so a clean map pays nothing for it.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import shapely

from .problems import Problem

WATER = ("ocean", "lake")
_Q = 1000.0  # key resolution: 1 µm


@dataclass
class RegionInput:
    spaces: list[tuple[str, Any, dict[str, Any]]] = field(default_factory=list)
    rivers: list[tuple[str, Any, dict[str, Any]]] = field(default_factory=list)
    dots: list[tuple[str, Any, dict[str, Any]]] = field(default_factory=list)
    bridges: list[tuple[str, Any, dict[str, Any]]] = field(default_factory=list)
    roads: list[tuple[str, Any, dict[str, Any]]] = field(default_factory=list)


@dataclass
class RegionResult:
    #: (u, v, key, relation, attrs); keys are unique and stable
    edges: list[tuple[str, str, str, str, dict[str, Any]]] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    road_spaces: set[str] = field(default_factory=set)
    city_dots: dict[str, str] = field(default_factory=dict)  # dot id -> city space id


def _ring_segments(polys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """All ring segments as (n, 4) float array and the index of their polygon."""
    rings, ring_owner = shapely.get_rings(polys, return_index=True)
    coords, ring_idx = shapely.get_coordinates(rings, return_index=True)
    same = ring_idx[1:] == ring_idx[:-1]
    a, b = coords[:-1][same], coords[1:][same]
    owner = ring_owner[ring_idx[:-1][same]]
    return np.hstack([a, b]), owner


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


def shared_edges(polys: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                                             np.ndarray]:
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
    segs, owner = _ring_segments(polys)
    q = _seg_keys(segs)
    h = _mix(q)
    order = np.argsort(h, kind="stable")
    hs, qs = h[order], q[order]
    dup = np.nonzero((hs[1:] == hs[:-1]) & (qs[1:] == qs[:-1]).all(axis=1))[0]
    a_own, b_own = owner[order[dup]], owner[order[dup + 1]]
    distinct = a_own != b_own
    lo = np.minimum(a_own, b_own)[distinct]
    hi = np.maximum(a_own, b_own)[distinct]
    border_seg = order[dup][distinct]
    seg_len = np.hypot(segs[:, 2] - segs[:, 0], segs[:, 3] - segs[:, 1])
    return segs, seg_len, lo, hi, border_seg


def compile_regions(inp: RegionInput, tol: float = 1.0) -> RegionResult:
    """Compile the region relations of one board.

    Notes
    -----
    Cost: O(S log S) for the S ring segments (hashing), plus one STRtree bulk query
    over the spaces, plus work linear in the river, dot and road vertices.
    """
    res = RegionResult()
    if not inp.spaces:
        for did, g, _ in inp.dots:
            res.problems.append(Problem.make("dot_not_triple", "river dot touches no space",
                                             did, (g.x, g.y)))
        return res
    ids = [s[0] for s in inp.spaces]
    polys = np.array([s[1] for s in inp.spaces], dtype=object)
    props = [s[2] for s in inp.spaces]
    n = len(ids)

    # ---- shared-edge hashing
    segs, seg_len, lo, hi, border_seg = shared_edges(polys)
    pair_codes, border_pair = np.unique(lo * n + hi, return_inverse=True)
    pair_lens = np.bincount(border_pair, weights=seg_len[border_seg], minlength=len(pair_codes))
    pair_len: dict[tuple[int, int], float] = {
        (c // n, c % n): w for c, w in zip(pair_codes.tolist(), pair_lens.tolist())}
    border_lines: list[Any] = [segs[border_seg]]   # blocks of (k, 4) segment rows
    extra_pairs: list[tuple[int, int]] = []

    # ---- coverage validation: overlaps and borders whose vertices do not match
    tree = shapely.STRtree(polys)
    invalid = shapely.coverage_invalid_edges(polys)
    suspect = np.nonzero(~shapely.is_empty(invalid))[0]
    if len(suspect):
        qs, qb = tree.query(polys[suspect], predicate="intersects")
        qa = suspect[qs]
        pairs = {(min(a, b), max(a, b)) for a, b in zip(qa.tolist(), qb.tolist()) if a != b}
        pa = np.array([p[0] for p in sorted(pairs)], dtype=np.int64)
        pb = np.array([p[1] for p in sorted(pairs)], dtype=np.int64)
        overl = shapely.relate_pattern(polys[pa], polys[pb], "2********") if len(pa) else \
            np.zeros(0, dtype=bool)
        for a, b in zip(pa[overl].tolist(), pb[overl].tolist()):
            inter = polys[a].intersection(polys[b])
            c = inter.representative_point()
            res.problems.append(Problem.make("overlapping_spaces",
                                             f"spaces {ids[a]} and {ids[b]} overlap "
                                             f"({inter.area:.1f} mm²)", ids[a], (c.x, c.y)))
        rest = [(a, b) for a, b, o in zip(pa.tolist(), pb.tolist(), overl.tolist())
                if not o and (a, b) not in pair_len]
        for a, b in rest:
            inter = shapely.intersection(polys[a].boundary, polys[b].boundary)
            length = inter.length
            if length > tol:
                pair_len[(a, b)] = pair_len.get((a, b), 0.0) + length
                for part in getattr(inter, "geoms", [inter]):
                    if part.geom_type == "LineString":
                        cs = np.asarray(part.coords)
                        extra_pairs.extend([(a, b)] * (len(cs) - 1))
                        border_lines.append(np.hstack([cs[:-1], cs[1:]]))

    # ---- rivers along borders: exact key matches first, geometry for the rest
    river_len: dict[tuple[int, int], float] = defaultdict(float)
    river_of: dict[tuple[int, int], str] = {}
    border_arr = np.vstack(border_lines).reshape(-1, 4)
    n_hashed = len(border_seg)
    border_q = _seg_keys(border_arr)
    border_h = _mix(border_q)
    border_sorted = np.argsort(border_h, kind="stable")
    covered_by_river = np.zeros(len(border_arr), dtype=bool)
    river_geoms = {rid: g for rid, g, _ in inp.rivers}
    btree = None

    def pair_of(i: int) -> tuple[int, int]:
        if i < n_hashed:
            c = int(pair_codes[border_pair[i]])
            return (c // n, c % n)
        return extra_pairs[i - n_hashed]

    for rid, g, _ in inp.rivers:
        cs = shapely.get_coordinates(g)
        rsegs = np.hstack([cs[:-1], cs[1:]])
        rq = _seg_keys(rsegs)
        rh = _mix(rq)
        pos = np.searchsorted(border_h, rh, sorter=border_sorted)
        pos = np.minimum(pos, len(border_h) - 1)
        hit = border_sorted[pos] if len(border_h) else np.zeros(0, dtype=np.int64)
        found = ((border_h[hit] == rh) & (border_q[hit] == rq).all(axis=1)) if len(border_h) \
            else np.zeros(len(rh), dtype=bool)
        hits = set(hit[found].tolist())
        if not found.all() and len(border_arr):
            # river vertices that do not match border vertices: fall back to geometry
            if btree is None:
                btree = shapely.STRtree(shapely.linestrings(border_arr.reshape(-1, 2, 2)))
            hits.update(btree.query(g.buffer(tol, cap_style="flat"), predicate="contains").tolist())
        for i in hits:
            covered_by_river[i] = True
            pair = pair_of(i)
            river_len[pair] += float(np.hypot(border_arr[i, 2] - border_arr[i, 0],
                                              border_arr[i, 3] - border_arr[i, 1]))
            river_of[pair] = rid
    if inp.bridges and btree is None and len(border_arr):
        btree = shapely.STRtree(shapely.linestrings(border_arr.reshape(-1, 2, 2)))

    bridged: dict[tuple[int, int], str] = {}
    for bid, g, _ in inp.bridges:
        hit = None
        if btree is not None:
            for h in btree.query(g, predicate="dwithin", distance=tol).tolist():
                if covered_by_river[h]:
                    hit = pair_of(h)
                    break
        if hit is None:
            res.problems.append(Problem.make("bridge_off_river",
                                             "bridge is not on a river between two spaces",
                                             bid, (g.x, g.y)))
        else:
            bridged[hit] = bid

    touching = pair_len.keys()
    unbridged: set[tuple[int, int]] = set()   # river borders without a bridge
    rank = {sid: r for r, sid in enumerate(sorted(ids))}
    for (a, b), length in pair_len.items():
        attrs: dict[str, Any] = {"border": round(length, 6)}
        if (a, b) in river_len and river_len[(a, b)] > 0.5 * length:
            if (a, b) not in bridged:
                unbridged.add((a, b))
            attrs["river"] = river_of[(a, b)]
            if (a, b) in bridged:
                attrs["bridge"] = bridged[(a, b)]
        u, v = (ids[a], ids[b]) if rank[ids[a]] < rank[ids[b]] else (ids[b], ids[a])
        res.edges.append((u, v, f"touch:{u}|{v}", "touch", attrs))

    # ---- river dots
    index = {sid: i for i, sid in enumerate(ids)}
    river_list = list(river_geoms.values())
    rtree = shapely.STRtree(np.array(river_list, dtype=object)) if river_list else None
    dots_on: dict[int, list[int]] = defaultdict(list)   # river index -> dot indices
    if rtree is not None and inp.dots:
        di, ri = rtree.query(np.array([g for _, g, _ in inp.dots], dtype=object),
                             predicate="dwithin", distance=tol)
        for d, r in zip(di.tolist(), ri.tolist()):
            dots_on[r].append(d)
    dot_on_river = {d for ds in dots_on.values() for d in ds}
    for dn, (did, g, dprops) in enumerate(inp.dots):
        near = tree.query(g, predicate="dwithin", distance=tol).tolist()
        inside = [i for i in near if polys[i].contains(g) and polys[i].exterior.distance(g) > tol]
        on_river = dn in dot_on_river
        city = dprops.get("city")
        if city is not None and city not in index:
            res.problems.append(Problem.make("unknown_reference",
                                             f"river dot names unknown city space {city!r}",
                                             did, (g.x, g.y)))
            city = None
        if city is not None and index[city] not in near:
            res.problems.append(Problem.make("dot_not_in_city",
                                             f"river dot names city {city!r} but does not lie "
                                             "in it", did, (g.x, g.y)))
            city = None
        if inside and city is None and props[inside[0]].get("city"):
            city = ids[inside[0]]
        if city is not None:
            res.city_dots[did] = city
            res.edges.append((did, city, f"dot:{did}|{city}", "dot", {"city_dot": True}))
        else:
            land = [i for i in near if props[i].get("terrain") not in WATER]
            if len(near) < 3 or len(land) < 2:
                res.problems.append(Problem.make(
                    "dot_not_triple", f"river dot touches {len(near)} space(s), not three",
                    did, (g.x, g.y)))
            for i in near:
                res.edges.append((did, ids[i], f"dot:{did}|{ids[i]}", "dot", {}))
        if not on_river:
            res.problems.append(Problem.make("dot_off_river", "river dot is not on a river",
                                             did, (g.x, g.y)))
    for r, (rid, rg, _) in enumerate(inp.rivers):
        on = sorted((rg.project(inp.dots[d][1]), inp.dots[d][0]) for d in dots_on.get(r, ()))
        for k in range(len(on) - 1):
            res.edges.append((on[k][1], on[k + 1][1], f"dot_river:{rid}:{k}", "dot_river",
                              {"river": rid}))

    # ---- roads
    for rid, line, _ in inp.roads:
        # piece by piece along each straight segment of the road, so a road that passes
        # the same border twice (into a city and back out) keeps its order
        cs = shapely.get_coordinates(line)
        seg_a, seg_b = cs[:-1], cs[1:]
        seg_len = np.hypot(*(seg_b - seg_a).T)
        cum = np.concatenate([[0.0], np.cumsum(seg_len)])
        seg_geoms = shapely.linestrings(np.stack([seg_a, seg_b], axis=1))
        si, pi = tree.query(seg_geoms, predicate="intersects")
        inters = shapely.intersection(seg_geoms[si], polys[pi])
        pieces: list[tuple[float, float, int]] = []
        covered = 0.0
        for k, i, inter in zip(si.tolist(), pi.tolist(), list(inters)):
            if seg_len[k] <= 0:
                continue
            direction = (seg_b[k] - seg_a[k]) / seg_len[k]
            for part in getattr(inter, "geoms", [inter]):
                if part.geom_type == "LineString" and part.length > tol / 10:
                    ends = np.asarray(part.coords)[[0, -1]]
                    t = (ends - seg_a[k]) @ direction
                    pieces.append((float(cum[k] + t.min()), float(cum[k] + t.max()), i))
                    covered += part.length
        pieces.sort()
        seq: list[int] = []
        for d0, d1, i in pieces:
            if d1 - d0 <= tol and len(pieces) > 1:
                continue  # grazing a corner
            if not seq or seq[-1] != i:
                seq.append(i)
        for i in seq:
            res.road_spaces.add(ids[i])
        if covered < line.length - tol:
            # find the first stretch outside every space
            pos, gap_at = 0.0, None
            for d0, d1, _ in pieces:
                if d0 > pos + tol:
                    gap_at = pos
                    break
                pos = max(pos, d1)
            if gap_at is None:
                gap_at = pos
            pt = line.interpolate(min(gap_at + tol, line.length))
            res.problems.append(Problem.make("road_off_map", "road leaves the spaces",
                                             rid, (pt.x, pt.y)))
        for k in range(len(seq) - 1):
            a, b = seq[k], seq[k + 1]
            key = (a, b) if a < b else (b, a)
            if key not in touching:
                c = polys[b].representative_point()
                res.problems.append(Problem.make(
                    "road_skips_space", f"road goes from {ids[a]} to {ids[b]}, which do not "
                    "share a border", rid, (c.x, c.y)))
                continue
            if key in unbridged:
                cross = line.intersection(polys[a].intersection(polys[b]))
                xy = cross.representative_point() if not cross.is_empty else \
                    polys[b].representative_point()
                res.problems.append(Problem.make(
                    "road_crosses_river", f"road crosses the river between {ids[a]} and "
                    f"{ids[b]} where there is no bridge", rid, (xy.x, xy.y)))
            u, v = sorted((ids[a], ids[b]))
            res.edges.append((u, v, f"road:{rid}:{k}", "road", {"road": rid, "order": k}))
    return res
