"""River dots and roads: their edges and problems, one feature at a time."""

from __future__ import annotations

from typing import Any

import numpy as np
import shapely

from ..problems import Problem
from .adjacency import Edge, Pair, _pair
from .spaces import _Spaces

WATER = ("ocean", "lake")


def _dot_contacts(sp: _Spaces, geoms: list[Any], tol: float) -> list[tuple[list[int], list[int]]]:
    """Per river dot: the spaces within ``tol`` of it (board order), and those of them
    that hold it farther than ``tol`` from their outline.

    One STRtree query for all the dots and one vectorized ``contains`` and
    ``distance`` over the (dot, space) pairs it finds — the same GEOS predicates a
    query per dot makes. O(D log S) for D dots.
    """
    out: list[tuple[list[int], list[int]]] = [([], []) for _ in geoms]
    if not geoms:
        return out
    pts = np.array(geoms, dtype=object)
    di, si = sp.tree.query(pts, predicate="dwithin", distance=tol)
    by = np.lexsort((si, di))  # by dot, then space in board order
    di, si = di[by], si[by]
    polys = sp.polys
    hold = shapely.contains(polys[si], pts[di])
    held = np.nonzero(hold)[0]
    far = shapely.distance(shapely.get_exterior_ring(polys[si[held]]), pts[di[held]]) > tol
    inside = np.zeros(len(di), dtype=bool)
    inside[held[far]] = True
    for d, s, ins in zip(di.tolist(), si.tolist(), inside.tolist()):
        near, within = out[d]
        near.append(s)
        if ins:
            within.append(s)
    return out


def _dot(
    did: str,
    g: Any,
    dprops: dict[str, Any],
    sp: _Spaces,
    on_river: bool,
    tol: float,
    contacts: tuple[list[int], list[int]] | None = None,
) -> tuple[list[Edge], list[Problem], str | None]:
    """One river dot: its ``dot`` edges, its problems and the city it belongs to.

    ``contacts`` is the dot's :func:`_dot_contacts` when the caller has them (a full
    compile finds them for every dot at once); else one query finds them.
    """
    edges: list[Edge] = []
    probs: list[Problem] = []
    near, inside = contacts if contacts is not None else _dot_contacts(sp, [g], tol)[0]
    props, ids = sp.props, sp.ids
    city = dprops.get("city")
    if city is not None and city not in sp.index:
        probs.append(
            Problem.make(
                "unknown_reference", f"river dot names unknown city space {city!r}", did, (g.x, g.y)
            )
        )
        city = None
    if city is not None and sp.index[city] not in near:
        probs.append(
            Problem.make(
                "dot_not_in_city",
                f"river dot names city {city!r} but does not lie in it",
                did,
                (g.x, g.y),
            )
        )
        city = None
    if inside and city is None and props[inside[0]].get("city"):
        city = ids[inside[0]]
    if city is not None:
        edges.append((did, city, f"dot:{did}|{city}", "dot", {"relation": "dot", "city_dot": True}))
    else:
        land = [i for i in near if props[i].get("terrain") not in WATER]
        if len(near) < 3 or len(land) < 2:
            probs.append(
                Problem.make(
                    "dot_not_triple",
                    f"river dot touches {len(near)} space(s), not three",
                    did,
                    (g.x, g.y),
                )
            )
        for i in near:
            edges.append((did, ids[i], f"dot:{did}|{ids[i]}", "dot", {"relation": "dot"}))
    if not on_river:
        probs.append(Problem.make("dot_off_river", "river dot is not on a river", did, (g.x, g.y)))
    return edges, probs, city


def _dot_river(rid: str, rg: Any, dots: list[tuple[str, Any]]) -> list[Edge]:
    """The ``dot_river`` chain of one river through the dots on it, in river order."""
    on = sorted((rg.project(g), did) for did, g in dots)
    return [
        (
            on[k][1],
            on[k + 1][1],
            f"dot_river:{rid}:{k}",
            "dot_river",
            {"relation": "dot_river", "river": rid},
        )
        for k in range(len(on) - 1)
    ]


def _road(
    rid: str, line: Any, sp: _Spaces, touch: dict[Pair, dict[str, Any]], tol: float
) -> tuple[list[str], list[Edge], list[Problem]]:
    """One road: the spaces it passes in order, its ``road`` edges and its problems.

    Notes
    -----
    One STRtree query of the road's R segments against the spaces and one vectorized
    ``intersection`` of the (segment, space) pairs it finds; the line pieces of those
    intersections are read back in one pass (``get_parts``, ``get_coordinates``, a
    stacked ``matmul`` for their positions along the road) and sorted: O(P log P) for
    P pieces, plus O(R log S) for the query.
    """
    edges: list[Edge] = []
    probs: list[Problem] = []
    polys, ids = sp.polys, sp.ids
    # piece by piece along each straight segment of the road, so a road that passes
    # the same border twice (into a city and back out) keeps its order
    cs = shapely.get_coordinates(line)
    seg_a, seg_b = cs[:-1], cs[1:]
    seg_len = np.hypot(*(seg_b - seg_a).T)
    cum = np.concatenate([[0.0], np.cumsum(seg_len)])
    seg_geoms = shapely.linestrings(np.stack([seg_a, seg_b], axis=1))
    si, pi = sp.tree.query(seg_geoms, predicate="intersects")
    inters = shapely.intersection(seg_geoms[si], polys[pi])
    # every line piece of every (segment, space) intersection, its two ends, in one go
    parts, owner = shapely.get_parts(inters, return_index=True)
    lengths = shapely.length(parts)
    keep = np.nonzero(
        (shapely.get_type_id(parts) == 1) & (lengths > tol / 10) & (seg_len[si[owner]] > 0)
    )[0]
    coords = shapely.get_coordinates(parts[keep])
    counts = shapely.get_num_coordinates(parts[keep])
    last = np.cumsum(counts) - 1
    first = last - counts + 1  # (empty when no piece is kept: a road wholly off the map)
    # how far along the road each piece's two ends lie: per piece, its ends minus the
    # segment's start, times the segment's unit direction — one stacked ``matmul``,
    # the kernel (and so the rounding) of a ``@`` per piece
    ks = si[owner[keep]]
    direction = (seg_b[ks] - seg_a[ks]) / seg_len[ks][:, None]
    ends = np.stack([coords[first], coords[last]], axis=1) - seg_a[ks][:, None, :]
    t = np.matmul(ends, direction[:, :, None])[:, :, 0]
    d0 = (cum[ks] + np.minimum(t[:, 0], t[:, 1])).tolist()
    d1 = (cum[ks] + np.maximum(t[:, 0], t[:, 1])).tolist()
    pieces = list(zip(d0, d1, pi[owner[keep]].tolist()))
    covered = 0.0
    for length in lengths[keep].tolist():  # summed in piece order, as one by one
        covered += length
    pieces.sort()
    seq: list[int] = []
    for d0, d1, i in pieces:
        if d1 - d0 <= tol and len(pieces) > 1:
            continue  # grazing a corner
        if not seq or seq[-1] != i:
            seq.append(i)
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
        probs.append(Problem.make("road_off_map", "road leaves the spaces", rid, (pt.x, pt.y)))
    for k in range(len(seq) - 1):
        a, b = seq[k], seq[k + 1]
        attrs = touch.get(_pair(ids[a], ids[b]))
        if attrs is None:
            c = polys[b].representative_point()
            probs.append(
                Problem.make(
                    "road_skips_space",
                    f"road goes from {ids[a]} to {ids[b]}, which do not share a border",
                    rid,
                    (c.x, c.y),
                )
            )
            continue
        if "river" in attrs and "bridge" not in attrs:
            cross = line.intersection(polys[a].intersection(polys[b]))
            xy = (
                cross.representative_point()
                if not cross.is_empty
                else polys[b].representative_point()
            )
            probs.append(
                Problem.make(
                    "road_crosses_river",
                    f"road crosses the river between {ids[a]} and "
                    f"{ids[b]} where there is no bridge",
                    rid,
                    (xy.x, xy.y),
                )
            )
        u, v = _pair(ids[a], ids[b])
        edges.append(
            (u, v, f"road:{rid}:{k}", "road", {"relation": "road", "road": rid, "order": k})
        )
    return [ids[i] for i in seq], edges, probs
