"""Region-map relations: ``touch`` (flagged ``river``/``bridge``), ``road``, ``dot``, ``dot_river``.

Adjacency of spaces comes from **shared-edge hashing**: every ring segment of every
space polygon is keyed by its two endpoints (rounded to a micrometre, in sorted
order); a key owned by two spaces is a shared border. One ``np.unique`` over all
segments does it, O(S log S) for S segments — no all-pairs ``touches``. In a clean
map every ring segment is then shared by exactly two spaces except on the outline;
one vectorized ``STRtree.query(..., predicate="dwithin")`` around the *unmatched*
segments (and checks on segments shared by three or more) finds the borders whose
vertices do not match (T-junctions) and the overlaps. Each of those tests involves
only the two spaces concerned, so a pair's answer never depends on the rest of the
map — which is what lets :meth:`RegionState.update` recompile a neighbourhood.
(We first gated these checks with ``shapely.coverage_invalid_edges``; whether it
flags a space depends on all of that space's edges, so a T-junction border could
appear or vanish when an unrelated edge of the same space changed.)
"""

from __future__ import annotations

import math
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
    #: what the compile learnt, for :meth:`RegionState.update` (None on a map without spaces)
    state: RegionState | None = None


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
    order = np.argsort(h, kind="stable")
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
    pair_len: dict[tuple[int, int], float] = {
        (c // n, c % n): w for c, w in zip(pair_codes.tolist(), pair_lens.tolist())
    }
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
        perim = shapely.length(shapely.boundary(polys))
        for (x, y), w in pair_len.items():
            if w >= 0.999 * min(perim[x], perim[y]):
                cand.add((x, y))
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
    border_sorted = np.argsort(border_h, kind="stable")
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


def _dot(
    did: str, g: Any, dprops: dict[str, Any], sp: _Spaces, on_river: bool, tol: float
) -> tuple[list[Edge], list[Problem], str | None]:
    """One river dot: its ``dot`` edges, its problems and the city it belongs to."""
    edges: list[Edge] = []
    probs: list[Problem] = []
    near = sorted(sp.tree.query(g, predicate="dwithin", distance=tol).tolist())
    polys, props, ids = sp.polys, sp.props, sp.ids
    inside = [i for i in near if polys[i].contains(g) and polys[i].exterior.distance(g) > tol]
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
    """One road: the spaces it passes in order, its ``road`` edges and its problems."""
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


@dataclass
class _Spaces:
    """Every space of the map in board order, with an STRtree over them."""

    ids: list[str]
    polys: np.ndarray
    props: list[dict[str, Any]]
    index: dict[str, int]
    tree: shapely.STRtree

    @classmethod
    def of(cls, inp: RegionInput) -> _Spaces:
        ids = [s[0] for s in inp.spaces]
        polys = np.array([s[1] for s in inp.spaces], dtype=object)
        return cls(
            ids,
            polys,
            [s[2] for s in inp.spaces],
            {sid: i for i, sid in enumerate(ids)},
            shapely.STRtree(polys),
        )


def _near(
    tree: shapely.STRtree, ids: list[str], geoms: list[Any], tol: float, predicate: str = "dwithin"
) -> list[set[str]]:
    """Per geometry, the ids of the spaces within ``tol`` of it (or intersecting it)."""
    out: list[set[str]] = [set() for _ in geoms]
    if geoms:
        arr = np.array(geoms, dtype=object)
        gi, si = (
            tree.query(arr, predicate="dwithin", distance=tol)
            if predicate == "dwithin"
            else tree.query(arr, predicate=predicate)
        )
        for g, s in zip(gi.tolist(), si.tolist()):
            out[g].add(ids[s])
    return out


# ---------------------------------------------------------------------- state
@dataclass
class RegionDelta:
    """What :meth:`RegionState.update` changed, for the compiled graph."""

    removed: list[tuple[str, str, str]] = field(default_factory=list)  # (u, v, key)
    added: list[Edge] = field(default_factory=list)
    road_spaces: set[str] = field(default_factory=set)  # spaces whose ``road`` flag to refresh
    dots: set[str] = field(default_factory=set)  # dots whose ``city_space`` to refresh
    stats: dict[str, int] = field(default_factory=dict)


@dataclass
class RegionState:
    """The region relations of a map, kept per cause so that an edit replaces few.

    ``touch`` holds the edge attributes of every touching pair; ``overlaps`` the
    overlap problems per pair; rivers, bridges, dots and roads their own results.
    """

    tol: float
    sp: _Spaces
    rivers: dict[str, Any]
    dots: dict[str, tuple[Any, dict[str, Any]]]
    bridges: dict[str, Any]
    roads: dict[str, Any]
    touch: dict[Pair, dict[str, Any]] = field(default_factory=dict)
    overlaps: dict[Pair, Problem] = field(default_factory=dict)
    fallback: dict[str, bool] = field(default_factory=dict)
    river_pairs: dict[str, set[Pair]] = field(default_factory=dict)
    bridge_on: dict[str, Pair | None] = field(default_factory=dict)
    dot_out: dict[str, tuple[list[Edge], list[Problem], str | None]] = field(default_factory=dict)
    dot_river: dict[str, list[Edge]] = field(default_factory=dict)
    road_out: dict[str, tuple[list[str], list[Edge], list[Problem]]] = field(default_factory=dict)
    _nbrs: dict[str, set[str]] | None = None

    # ------------------------------------------------------------------ full
    @classmethod
    def build(cls, inp: RegionInput, tol: float) -> RegionState:
        """Compile every region relation of a map that has spaces."""
        sp = _Spaces.of(inp)
        st = cls(
            tol,
            sp,
            {r: g for r, g, _ in inp.rivers},
            {d: (g, p) for d, g, p in inp.dots},
            {b: g for b, g, _ in inp.bridges},
            {r: g for r, g, _ in inp.roads},
        )
        ids = sp.ids
        bd = _borders(ids, sp.polys, tol, sp.tree)
        st.overlaps = {_pair(ids[a], ids[b]): p for (a, b), p in bd.overlaps.items()}
        cov = _cover(bd, list(st.rivers.items()), tol, {})
        st.fallback = cov.fallback
        st.river_pairs = {
            r: {_pair(ids[a], ids[b]) for a, b in ps} for r, ps in cov.pairs_of.items()
        }
        st.bridge_on = _place_bridges(bd, cov, list(st.bridges.items()), tol)
        bridged = st._bridged()
        touch = st.touch
        lens, river_of = cov.lens, cov.river_of
        for (a, b), length in bd.pair_len.items():
            pr = (ids[a], ids[b]) if ids[a] < ids[b] else (ids[b], ids[a])
            if (a, b) in lens:
                touch[pr] = _touch_attrs(length, lens[(a, b)], river_of[(a, b)], bridged.get(pr))
            else:
                touch[pr] = {"relation": "touch", "border": round(length, 6)}
        # river dots, and the chain of dots along each river
        river_list = list(st.rivers.items())
        dots_on: dict[int, list[int]] = defaultdict(list)  # river -> dots
        dot_list = list(st.dots.items())
        if river_list and dot_list:
            rtree = shapely.STRtree(np.array([g for _, g in river_list], dtype=object))
            di, ri = rtree.query(
                np.array([g for _, (g, _) in dot_list], dtype=object),
                predicate="dwithin",
                distance=tol,
            )
            for d, r in zip(di.tolist(), ri.tolist()):
                dots_on[r].append(d)
        on_river = {d for ds in dots_on.values() for d in ds}
        for dn, (did, (g, dprops)) in enumerate(dot_list):
            st.dot_out[did] = _dot(did, g, dprops, sp, dn in on_river, tol)
        for r, (rid, rg) in enumerate(river_list):
            st.dot_river[rid] = _dot_river(
                rid, rg, [(dot_list[d][0], dot_list[d][1][0]) for d in dots_on.get(r, ())]
            )
        for rid, line in st.roads.items():
            st.road_out[rid] = _road(rid, line, sp, touch, tol)
        return st

    def _bridged(self) -> dict[Pair, str]:
        out: dict[Pair, str] = {}
        for bid, pr in self.bridge_on.items():  # in board order: the last bridge wins
            if pr is not None:
                out[pr] = bid
        return out

    # ------------------------------------------------------------------ views
    def edges(self) -> list[Edge]:
        out: list[Edge] = [(u, v, f"touch:{u}|{v}", "touch", a) for (u, v), a in self.touch.items()]
        for e, _, _ in self.dot_out.values():
            out.extend(e)
        for e in self.dot_river.values():
            out.extend(e)
        for _, e, _ in self.road_out.values():
            out.extend(e)
        return out

    def problems(self) -> list[Problem]:
        out = list(self.overlaps.values())
        for bid, pr in self.bridge_on.items():
            if pr is None:
                g = self.bridges[bid]
                out.append(
                    Problem.make(
                        "bridge_off_river",
                        "bridge is not on a river between two spaces",
                        bid,
                        (g.x, g.y),
                    )
                )
        for _, p, _ in self.dot_out.values():
            out.extend(p)
        for _, _, p in self.road_out.values():
            out.extend(p)
        return out

    def road_spaces(self) -> set[str]:
        return {s for seq, _, _ in self.road_out.values() for s in seq}

    def city_dots(self) -> dict[str, str]:
        return {d: c for d, (_, _, c) in self.dot_out.items() if c is not None}

    def _neighbours(self) -> dict[str, set[str]]:
        if self._nbrs is None:
            nb: dict[str, set[str]] = defaultdict(set)
            for u, v in self.touch:
                nb[u].add(v)
                nb[v].add(u)
            self._nbrs = nb
        return self._nbrs

    # ------------------------------------------------------------------ incremental
    def update(self, inp: RegionInput, changed: set[str]) -> RegionDelta | None:
        """Re-derive the relations that the features ``changed`` can affect.

        ``inp`` is the map after the edit (every region feature, in board order);
        ``changed`` the ids of features added, removed, reshaped or with new
        properties. Returns what changed in the relations, or None when the map now
        has no spaces (the caller then compiles the regions in full).

        Notes
        -----
        Let C be the spaces whose geometry changed. N1 = C plus every space meeting
        a changed space's old or new polygon (one STRtree query each); only pairs
        inside N1 can change their shared border. Rivers within ``tol`` of N1, or
        changed, are re-matched (their fallback flag depends on the whole river);
        bridges near the spaces along those rivers are re-placed. K = N1 plus the
        spaces along those rivers and at those bridges; the border stages run on K
        and its neighbours (so every pair inside K sees everything it depends on)
        and the ``touch`` edges inside K are replaced. Dots within ``tol`` of a
        changed space or river, and roads through K or a changed space, are
        recomputed one by one. Cost: O(k log k) for the k spaces of that
        neighbourhood, plus O(S) for rebuilding the STRtree and the id index over
        the S spaces (a few milliseconds for 10,000), plus the changed rivers',
        dots' and roads' own work — against O(S log S) and a full graph rebuild for
        a full compile.
        """
        if not inp.spaces:
            return None
        tol = self.tol
        delta = RegionDelta()
        old = self.sp
        old_rivers = self.rivers
        sp = _Spaces.of(inp)
        ids, polys = sp.ids, sp.polys
        new_spaces = sp.index

        # ---- spaces whose polygon changed, and N1 around them
        cs = {s for s in changed if s in new_spaces or s in old.index}
        moved: set[str] = set()
        for s in cs:
            o, n = old.index.get(s), new_spaces.get(s)
            if o is None or n is None:
                moved.add(s)
                continue
            og, ng = old.polys[o], polys[n]
            if og is not ng and not og.equals_exact(ng, 0.0):
                moved.add(s)
        old_geoms = [old.polys[old.index[s]] for s in sorted(moved) if s in old.index]
        new_geoms = [polys[new_spaces[s]] for s in sorted(moved) if s in new_spaces]
        n1: set[str] = set()
        for near in _near(old.tree, old.ids, old_geoms, tol, "intersects"):
            n1 |= near
        for near in _near(sp.tree, ids, new_geoms, tol, "intersects"):
            n1 |= near
        n1 = {s for s in n1 | moved if s in new_spaces}
        gone = {s for s in moved if s not in new_spaces}

        # ---- rivers to re-match
        rivers = {r: g for r, g, _ in inp.rivers}
        r_changed = {r for r in changed if r in rivers or r in self.rivers}
        r_list = list(rivers.items())
        near_r = dict(zip(rivers, _near(sp.tree, ids, [g for _, g in r_list], tol)))
        ra = {r for r in r_changed if r in rivers}
        for rid, g in r_list:
            if near_r[rid] & n1 or (
                old_geoms and bool(shapely.dwithin(np.array(old_geoms, dtype=object), g, tol).any())
            ):
                ra.add(rid)
        k = set(n1)
        for r in ra:
            k |= near_r[r]
        for r in ra | r_changed:
            k.update(s for pr in self.river_pairs.get(r, ()) for s in pr)
        k0 = k & new_spaces.keys()

        # ---- bridges to re-place
        bridges = {b: g for b, g, _ in inp.bridges}
        b_changed = {b for b in changed if b in bridges or b in self.bridges}
        near_b = dict(zip(bridges, _near(sp.tree, ids, list(bridges.values()), tol)))
        ba = {b for b in bridges if b in b_changed or b not in self.bridge_on or near_b[b] & k0}
        for b in ba:
            k |= near_b[b]
        for b in ba | b_changed:
            pr = self.bridge_on.get(b)
            if pr is not None:
                k.update(pr)
        k &= new_spaces.keys()

        # ---- borders, rivers and bridges on K and its neighbours
        new_touch: dict[Pair, dict[str, Any]] = {}
        new_overlaps: dict[Pair, Problem] = {}
        bon: dict[str, Pair | None] = {}
        new_river_pairs: dict[str, set[Pair]] = {r: set() for r in ra}
        fallback = {r: f for r, f in self.fallback.items() if r in rivers and r not in ra}
        if k:
            core = np.array(sorted(new_spaces[s] for s in k), dtype=np.int64)
            hit = sp.tree.query(polys[core], predicate="intersects")[1]
            sub = np.unique(np.concatenate([core, hit]))  # board order
            bd = _borders([ids[i] for i in sub.tolist()], polys[sub], tol)
            sids = bd.ids
            cov = _cover(bd, r_list, tol, fallback)
            fallback.update({r: cov.fallback[r] for r in ra})
            bon = _place_bridges(bd, cov, [(b, bridges[b]) for b in bridges if b in ba], tol)
            for r in ra:
                new_river_pairs[r] = {
                    _pair(sids[ia], sids[ib])
                    for ia, ib in cov.pairs_of.get(r, ())
                    if sids[ia] in k and sids[ib] in k
                }
            for (ia, ib), p in bd.overlaps.items():
                if sids[ia] in k and sids[ib] in k:
                    new_overlaps[_pair(sids[ia], sids[ib])] = p
            bridge_on = {b: (bon[b] if b in bon else self.bridge_on[b]) for b in bridges}
            bridged: dict[Pair, str] = {}
            for b, pr in bridge_on.items():
                if pr is not None:
                    bridged[pr] = b
            for (ia, ib), length in bd.pair_len.items():
                if sids[ia] in k and sids[ib] in k:
                    pr = _pair(sids[ia], sids[ib])
                    new_touch[pr] = _touch_attrs(
                        length, cov.lens.get((ia, ib)), cov.river_of.get((ia, ib)), bridged.get(pr)
                    )
        else:
            # nothing near: the rivers in ``ra`` match no border, the bridges sit on none
            fallback.update(dict.fromkeys(ra, True))
            bridge_on = {b: (None if b in ba else self.bridge_on[b]) for b in bridges}

        # ---- replace the touch edges and overlaps inside K (and of deleted spaces)
        nb = self._neighbours()
        kg = k | gone
        for s in kg:
            for t in list(nb.get(s, ())):
                if t in kg:
                    pr = _pair(s, t)
                    if pr in self.touch:
                        del self.touch[pr]
                        delta.removed.append((pr[0], pr[1], f"touch:{pr[0]}|{pr[1]}"))
                    nb[s].discard(t)
                    nb[t].discard(s)
        for s in gone:
            nb.pop(s, None)
        for pr in [pr for pr in self.overlaps if pr[0] in kg and pr[1] in kg]:
            del self.overlaps[pr]
        self.overlaps.update(new_overlaps)
        for (u, v), attrs in new_touch.items():
            self.touch[(u, v)] = attrs
            nb[u].add(v)
            nb[v].add(u)
            delta.added.append((u, v, f"touch:{u}|{v}", "touch", attrs))
        self.sp = sp
        self.rivers = rivers
        self.bridges = bridges
        self.bridge_on = bridge_on
        self.fallback = fallback
        for r in list(self.river_pairs):
            if r not in rivers:
                del self.river_pairs[r]
        self.river_pairs.update(new_river_pairs)

        # ---- river dots near a changed space or river; dot chains of the rivers they touch
        dots = {d: (g, p) for d, g, p in inp.dots}
        d_changed = {d for d in changed if d in dots or d in self.dots}
        probes = old_geoms + [polys[new_spaces[s]] for s in sorted(cs) if s in new_spaces]
        r_probes = [old_rivers[r] for r in sorted(r_changed) if r in old_rivers] + [
            rivers[r] for r in sorted(r_changed) if r in rivers
        ]
        da = {d for d in d_changed if d in dots}
        dot_ids = list(dots)
        if dot_ids and (probes or r_probes):
            dg = np.array([dots[d][0] for d in dot_ids], dtype=object)
            for p in probes + r_probes:
                da.update(dot_ids[i] for i in np.nonzero(shapely.dwithin(dg, p, tol))[0].tolist())
        da.update(d for d in dot_ids if dots[d][1].get("city") in cs)
        river_arr = np.array([g for _, g in r_list], dtype=object)
        rd = {r for r in r_changed if r in rivers}
        moved_dots = [self.dots[d][0] for d in d_changed if d in self.dots] + [
            dots[d][0] for d in d_changed if d in dots
        ]
        for p in moved_dots:
            if len(river_arr):
                rd.update(
                    r_list[i][0] for i in np.nonzero(shapely.dwithin(river_arr, p, tol))[0].tolist()
                )
        for d in d_changed - dots.keys():
            e, _, _ = self.dot_out.pop(d)
            delta.removed.extend((u, v, key) for u, v, key, _, _ in e)
        for d in sorted(da):
            g, dprops = dots[d]
            old_out = self.dot_out.get(d)
            if old_out is not None:
                delta.removed.extend((u, v, key) for u, v, key, _, _ in old_out[0])
            on_river = bool(len(river_arr)) and bool(shapely.dwithin(river_arr, g, tol).any())
            out = _dot(d, g, dprops, sp, on_river, tol)
            self.dot_out[d] = out
            delta.added.extend(out[0])
        self.dot_out = {d: self.dot_out[d] for d in dots}  # board order
        delta.dots = da | (d_changed - dots.keys())
        for r in r_changed - rivers.keys():
            delta.removed.extend((u, v, key) for u, v, key, _, _ in self.dot_river.pop(r, []))
        if dot_ids:
            dg = np.array([dots[d][0] for d in dot_ids], dtype=object)
        for r in sorted(rd):
            delta.removed.extend((u, v, key) for u, v, key, _, _ in self.dot_river.get(r, []))
            on = (
                [
                    (dot_ids[i], dots[dot_ids[i]][0])
                    for i in np.nonzero(shapely.dwithin(dg, rivers[r], tol))[0].tolist()
                ]
                if dot_ids
                else []
            )
            self.dot_river[r] = _dot_river(r, rivers[r], on)
            delta.added.extend(self.dot_river[r])
        self.dot_river = {r: self.dot_river[r] for r in rivers}
        self.dots = dots

        # ---- roads through K or through a changed space
        roads = {w: g for w, g, _ in inp.roads}
        w_changed = {w for w in changed if w in roads or w in self.roads}
        wa = {w for w in w_changed if w in roads}
        moved_arr = np.array(old_geoms + new_geoms, dtype=object)
        for w, line in roads.items():
            if w in wa:
                continue
            seq = self.road_out[w][0]
            if kg.intersection(seq) or (
                len(moved_arr) and bool(shapely.intersects(moved_arr, line).any())
            ):
                wa.add(w)
        for w in w_changed - roads.keys():
            seq, e, _ = self.road_out.pop(w)
            delta.removed.extend((u, v, key) for u, v, key, _, _ in e)
            delta.road_spaces.update(seq)
        for w in sorted(wa):
            old_road = self.road_out.get(w)
            if old_road is not None:
                delta.removed.extend((u, v, key) for u, v, key, _, _ in old_road[1])
                delta.road_spaces.update(old_road[0])
            road = _road(w, roads[w], sp, self.touch, tol)
            self.road_out[w] = road
            delta.added.extend(road[1])
            delta.road_spaces.update(road[0])
        self.road_out = {w: self.road_out[w] for w in roads}
        self.roads = roads
        delta.road_spaces |= cs
        delta.stats = {
            "spaces_changed": len(moved),
            "spaces_near": len(k),
            "rivers": len(ra),
            "bridges": len(ba),
            "dots": len(da),
            "roads": len(wa),
        }
        return delta


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
            res.problems.append(
                Problem.make("dot_not_triple", "river dot touches no space", did, (g.x, g.y))
            )
        return res
    st = RegionState.build(inp, tol)
    res.state = st
    res.edges = st.edges()
    res.problems = st.problems()
    res.road_spaces = st.road_spaces()
    res.city_dots = st.city_dots()
    return res
