"""The region relations of a map, kept per cause so that an edit recompiles few.

:func:`compile_regions` compiles a map in full; :meth:`RegionState.update` re-derives
only what an edit can affect.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import shapely

from ..bulk import round_all
from ..problems import Problem
from .adjacency import Edge, Pair, _borders, _pair
from .features import _dot, _dot_contacts, _dot_river, _road
from .rivers import _cover, _place_bridges, _touch_attrs
from .spaces import RegionInput, _near, _Spaces


@dataclass
class RegionResult:
    #: the ``touch`` edges: (u, v) -> attrs, u < v, key ``touch:u|v``
    touch: dict[Pair, dict[str, Any]] = field(default_factory=dict)
    #: the ``dot``, ``dot_river`` and ``road`` edges as (u, v, key, relation, attrs)
    feature_edges: list[Edge] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    road_spaces: set[str] = field(default_factory=set)
    city_dots: dict[str, str] = field(default_factory=dict)  # dot id -> city space id
    #: what the compile learnt, for :meth:`RegionState.update` (None on a map without spaces)
    state: RegionState | None = None

    @property
    def edges(self) -> list[Edge]:
        """Every edge as (u, v, key, relation, attrs): the touch edges first; keys are
        unique and stable."""
        return _touch_edges(self.touch) + self.feature_edges


def _touch_edges(touch: dict[Pair, dict[str, Any]]) -> list[Edge]:
    return [(u, v, f"touch:{u}|{v}", "touch", a) for (u, v), a in touch.items()]


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
        """Compile every region relation of a map that has spaces.

        Notes
        -----
        :func:`_borders` (O(S log S) in the S ring segments), then one dictionary
        entry per touching pair (one comprehension; the pairs a river runs along are
        redone with their river attributes), one STRtree query of every dot against
        the rivers and one of every dot against the spaces (:func:`_dot_contacts`),
        and per road one query and one ``intersection`` over its segments. Nothing
        tests pairs of spaces beyond the candidates :func:`_borders` picks.
        """
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
        lens, river_of = cov.lens, cov.river_of
        # every touching pair as (lower id, higher id) with its border rounded, in one
        # comprehension (a third of the cost of a loop with the river test in it);
        # then the few pairs a river runs along get their river attributes in place,
        # which keeps the pairs in border order
        borders = round_all(bd.pair_len.values(), 6)
        touch = st.touch = {
            ((x, y) if (x := ids[a]) < (y := ids[b]) else (y, x)): {
                "relation": "touch",
                "border": border,
            }
            for (a, b), border in zip(bd.pair_len, borders)
        }
        for ab in lens:
            a, b = ab
            pr = _pair(ids[a], ids[b])
            touch[pr] = _touch_attrs(bd.pair_len[ab], lens[ab], river_of[ab], bridged.get(pr))
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
        contacts = _dot_contacts(sp, [g for _, (g, _) in dot_list], tol)
        for dn, (did, (g, dprops)) in enumerate(dot_list):
            st.dot_out[did] = _dot(did, g, dprops, sp, dn in on_river, tol, contacts[dn])
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
        """Every edge: the touch edges, then :meth:`feature_edges`."""
        return _touch_edges(self.touch) + self.feature_edges()

    def feature_edges(self) -> list[Edge]:
        """The ``dot``, ``dot_river`` and ``road`` edges, in that order (O(E) in them)."""
        out: list[Edge] = []
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
        redo = sorted(da)
        contacts = _dot_contacts(sp, [dots[d][0] for d in redo], tol)  # one query for all
        for d, contact in zip(redo, contacts):
            g, dprops = dots[d]
            old_out = self.dot_out.get(d)
            if old_out is not None:
                delta.removed.extend((u, v, key) for u, v, key, _, _ in old_out[0])
            on_river = bool(len(river_arr)) and bool(shapely.dwithin(river_arr, g, tol).any())
            out = _dot(d, g, dprops, sp, on_river, tol, contact)
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
    res.touch = st.touch
    res.feature_edges = st.feature_edges()
    res.problems = st.problems()
    res.road_spaces = st.road_spaces()
    res.city_dots = st.city_dots()
    return res
