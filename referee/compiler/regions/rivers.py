"""Rivers along the borders of spaces, and the bridges that sit on them."""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

import numpy as np
import shapely

from .adjacency import Pair, _Borders, _mix, _pair, _seg_keys, _stable_order


@dataclass
class _Cover:
    """Which border segments the rivers cover."""

    lens: dict[tuple[int, int], list[float]]  # pair -> covered segment lengths
    river_of: dict[tuple[int, int], str]  # pair -> last river covering part of it
    covered: np.ndarray  # per border segment
    fallback: dict[str, bool]  # river -> matched by geometry too
    pairs_of: dict[str, set[tuple[int, int]]]  # river -> pairs it covers part of
    btree: shapely.STRtree | None


def _cover(
    bd: _Borders, rivers: list[tuple[str, Any]], tol: float, known: dict[str, bool]
) -> _Cover:
    """Rivers along borders: exact key matches first, geometry for the rest.

    A river some of whose segments match no border segment (``fallback``) also covers
    every border segment inside its ``tol`` buffer. ``known`` gives that flag for rivers
    whose borders the caller did not pass in full (it depends on the whole river).
    """
    border_arr = bd.arr
    border_q = _seg_keys(border_arr)
    border_h = _mix(border_q)
    border_sorted = _stable_order(border_h)  # np.argsort(border_h, kind="stable")
    cov = _Cover(
        defaultdict(list), {}, np.zeros(len(border_arr), dtype=bool), {}, defaultdict(set), None
    )
    for rid, g in rivers:
        cs = shapely.get_coordinates(g)
        rsegs = np.hstack([cs[:-1], cs[1:]])
        rq = _seg_keys(rsegs)
        rh = _mix(rq)
        if len(border_h):
            pos = np.minimum(np.searchsorted(border_h, rh, sorter=border_sorted), len(border_h) - 1)
            hit = border_sorted[pos]
            found = (border_h[hit] == rh) & (border_q[hit] == rq).all(axis=1)
        else:
            hit = np.zeros(len(rh), dtype=np.int64)
            found = np.zeros(len(rh), dtype=bool)
        fb = known.get(rid)
        if fb is None:
            fb = not bool(found.all())
        cov.fallback[rid] = fb
        hits = set(hit[found].tolist())
        if fb and len(border_arr):
            # river vertices that do not match border vertices: fall back to geometry
            if cov.btree is None:
                cov.btree = shapely.STRtree(shapely.linestrings(border_arr.reshape(-1, 2, 2)))
            hits.update(
                cov.btree.query(g.buffer(tol, cap_style="flat"), predicate="contains").tolist()
            )
        for i in hits:
            cov.covered[i] = True
            pair = bd.pair_of(i)
            cov.lens[pair].append(
                float(
                    np.hypot(
                        border_arr[i, 2] - border_arr[i, 0], border_arr[i, 3] - border_arr[i, 1]
                    )
                )
            )
            cov.river_of[pair] = rid
            cov.pairs_of[rid].add(pair)
    return cov


def _place_bridges(
    bd: _Borders, cov: _Cover, bridges: list[tuple[str, Any]], tol: float
) -> dict[str, Pair | None]:
    """The border each bridge sits on: the nearest river-covered border segment within
    ``tol`` (ties: the smaller pair of space ids); None if there is none."""
    out: dict[str, Pair | None] = {}
    if bridges and cov.btree is None and len(bd.arr):
        cov.btree = shapely.STRtree(shapely.linestrings(bd.arr.reshape(-1, 2, 2)))
    for bid, g in bridges:
        best: Pair | None = None
        if cov.btree is not None:
            cand = [
                h
                for h in cov.btree.query(g, predicate="dwithin", distance=tol).tolist()
                if cov.covered[h]
            ]
            if cand:
                dist = shapely.distance(cov.btree.geometries[cand], g)
                best = min(
                    (round(float(d), 9), _pair(bd.ids[a], bd.ids[b]))
                    for d, (a, b) in zip(dist.tolist(), map(bd.pair_of, cand))
                )[1]
        out[bid] = best
    return out


def _touch_attrs(
    length: float, lens: list[float] | None, river: str | None, bridge: str | None
) -> dict[str, Any]:
    attrs: dict[str, Any] = {"relation": "touch", "border": round(length, 6)}
    if lens and math.fsum(lens) > 0.5 * length:
        attrs["river"] = river
        if bridge is not None:
            attrs["bridge"] = bridge
    return attrs
