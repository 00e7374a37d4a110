"""Region-map relations: ``touch`` (flagged ``river``/``bridge``), ``road``, ``dot``, ``dot_river``.

Adjacency of spaces comes from **shared-edge hashing**: every ring segment of every
space polygon is keyed by its two endpoints (rounded to a micrometre, in sorted
order); a key owned by two spaces is a shared border. One ``np.unique`` over all
segments does it, O(S log S) for S segments — no all-pairs ``touches``. A single
vectorized ``STRtree.query(polys, predicate="intersects")`` then catches borders
whose vertices do not match (T-junctions), corner-only contacts, and overlaps.
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
    edges: list[tuple[str, str, str, dict[str, Any]]] = field(default_factory=list)
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
    segs, owner = _ring_segments(polys)
    q = np.round(segs * _Q).astype(np.int64)
    swap = (q[:, 0] > q[:, 2]) | ((q[:, 0] == q[:, 2]) & (q[:, 1] > q[:, 3]))
    q[swap] = q[swap][:, [2, 3, 0, 1]]
    keys = q.view([("a", np.int64), ("b", np.int64), ("c", np.int64), ("d", np.int64)]).ravel()
    order = np.argsort(keys, kind="stable")
    ks = keys[order]
    dup = np.nonzero(ks[1:] == ks[:-1])[0]
    i1, i2 = owner[order[dup]], owner[order[dup + 1]]
    seg_len = np.hypot(segs[:, 2] - segs[:, 0], segs[:, 3] - segs[:, 1])
    border_idx = order[dup]  # one representative segment per shared segment
    pair_len: dict[tuple[int, int], float] = defaultdict(float)
    border_pairs: list[tuple[int, int]] = []
    border_lines: list[Any] = []
    for s_i, a, b in zip(border_idx.tolist(), i1.tolist(), i2.tolist()):
        if a == b:
            continue
        key = (a, b) if a < b else (b, a)
        pair_len[key] += float(seg_len[s_i])
        border_pairs.append(key)
        border_lines.append(segs[s_i])

    # ---- bulk STRtree query: overlaps, unmatched borders
    tree = shapely.STRtree(polys)
    qa, qb = tree.query(polys, predicate="intersects")
    keep = qa < qb
    qa, qb = qa[keep], qb[keep]
    if len(qa):
        overl = shapely.relate_pattern(polys[qa], polys[qb], "2********")
        for a, b in zip(qa[overl].tolist(), qb[overl].tolist()):
            inter = polys[a].intersection(polys[b])
            c = inter.representative_point()
            res.problems.append(Problem.make("overlapping_spaces",
                                             f"spaces {ids[a]} and {ids[b]} overlap "
                                             f"({inter.area:.1f} mm²)", ids[a], (c.x, c.y)))
        rest = [(a, b) for a, b, o in zip(qa.tolist(), qb.tolist(), overl.tolist())
                if not o and (a, b) not in pair_len]
        for a, b in rest:
            inter = shapely.intersection(polys[a].boundary, polys[b].boundary)
            length = inter.length
            if length > tol:
                pair_len[(a, b)] += length
                for part in getattr(inter, "geoms", [inter]):
                    if part.geom_type == "LineString":
                        cs = np.asarray(part.coords)
                        for k in range(len(cs) - 1):
                            border_pairs.append((a, b))
                            border_lines.append(np.concatenate([cs[k], cs[k + 1]]))

    # ---- rivers along borders
    river_len: dict[tuple[int, int], float] = defaultdict(float)
    river_of: dict[tuple[int, int], str] = {}
    border_arr = np.array(border_lines, dtype=float).reshape(-1, 4)
    border_geoms = shapely.linestrings(border_arr.reshape(-1, 2, 2)) if len(border_arr) else \
        np.array([], dtype=object)
    btree = shapely.STRtree(border_geoms) if len(border_geoms) else None
    covered_by_river = np.zeros(len(border_geoms), dtype=bool)
    river_geoms = {rid: g for rid, g, _ in inp.rivers}
    if btree is not None:
        for rid, g, _ in inp.rivers:
            hits = btree.query(g.buffer(tol, cap_style="flat"), predicate="contains")
            for h in hits.tolist():
                covered_by_river[h] = True
                pair = border_pairs[h]
                river_len[pair] += float(np.hypot(border_arr[h, 2] - border_arr[h, 0],
                                                  border_arr[h, 3] - border_arr[h, 1]))
                river_of[pair] = rid

    bridged: dict[tuple[int, int], str] = {}
    for bid, g, _ in inp.bridges:
        hit = None
        if btree is not None:
            for h in btree.query(g, predicate="dwithin", distance=tol).tolist():
                if covered_by_river[h]:
                    hit = border_pairs[h]
                    break
        if hit is None:
            res.problems.append(Problem.make("bridge_off_river",
                                             "bridge is not on a river between two spaces",
                                             bid, (g.x, g.y)))
        else:
            bridged[hit] = bid

    touching = set()
    for (a, b), length in sorted(pair_len.items()):
        touching.add((a, b))
        rl = river_len.get((a, b), 0.0)
        attrs: dict[str, Any] = {"border": round(length, 6)}
        if rl > 0.5 * length:
            attrs["river"] = river_of[(a, b)]
            if (a, b) in bridged:
                attrs["bridge"] = bridged[(a, b)]
        u, v = sorted((ids[a], ids[b]))
        res.edges.append((u, v, "touch", attrs))

    # ---- river dots
    index = {sid: i for i, sid in enumerate(ids)}
    for did, g, dprops in inp.dots:
        near = tree.query(g, predicate="dwithin", distance=tol).tolist()
        inside = [i for i in near if polys[i].contains(g) and polys[i].exterior.distance(g) > tol]
        on_river = any(rg.distance(g) <= tol for rg in river_geoms.values())
        city = dprops.get("city")
        if city is not None and city not in index:
            res.problems.append(Problem.make("unknown_reference",
                                             f"river dot names unknown city space {city!r}",
                                             did, (g.x, g.y)))
            city = None
        if inside and city is None and props[inside[0]].get("city"):
            city = ids[inside[0]]
        if city is not None:
            res.city_dots[did] = city
            res.edges.append((did, city, "dot", {"city_dot": True}))
        else:
            land = [i for i in near if props[i].get("terrain") not in WATER]
            if len(near) < 3 or len(land) < 2:
                res.problems.append(Problem.make(
                    "dot_not_triple", f"river dot touches {len(near)} space(s), not three",
                    did, (g.x, g.y)))
            for i in near:
                res.edges.append((did, ids[i], "dot", {}))
        if not on_river:
            res.problems.append(Problem.make("dot_off_river", "river dot is not on a river",
                                             did, (g.x, g.y)))
    for rid, rg, _ in inp.rivers:
        on = sorted(((rg.project(g), did) for did, g, _ in inp.dots if rg.distance(g) <= tol))
        for k in range(len(on) - 1):
            res.edges.append((on[k][1], on[k + 1][1], "dot_river", {"river": rid}))

    # ---- roads
    for rid, line, _ in inp.roads:
        cand = tree.query(line, predicate="intersects").tolist()
        pieces: list[tuple[float, float, int]] = []
        covered = 0.0
        for i in cand:
            inter = line.intersection(polys[i])
            for part in getattr(inter, "geoms", [inter]):
                if part.geom_type == "LineString" and part.length > tol / 10:
                    d0 = line.project(shapely.Point(part.coords[0]))
                    d1 = line.project(shapely.Point(part.coords[-1]))
                    pieces.append((min(d0, d1), max(d0, d1), i))
                    covered += part.length
        pieces.sort()
        seq: list[int] = []
        for d0, d1, i in pieces:
            if d1 - d0 <= tol and seq:
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
            u, v = sorted((ids[a], ids[b]))
            res.edges.append((u, v, "road", {"road": rid, "order": k}))
    return res
