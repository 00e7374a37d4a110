"""The compiled board: a networkx graph, compact integer views and a spatial index."""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

import networkx as nx
import numpy as np
import shapely

from ..errors import UnknownNodeError, UsageError
from ..geometry import turn_matrix
from ..model import Board, Feature, Placement
from .bulk import add_edges, add_nodes, add_pair_edges, collector_paused, round_all
from .paths import Chain, PathNetwork
from .points import PointGraph, point_graph
from .problems import Problem
from .regions.spaces import RegionInput
from .regions.state import RegionState, compile_regions
from .tiles import tile_overlaps

T = TypeVar("T")

RELATIONS = ("path", "touch", "road", "dot", "dot_river", "next", "arrival")
_GRAPH_NODE_KINDS = ("point", "junction", "door", "space", "river_dot", "counter_space")
_REGION_KINDS = ("space", "river", "river_dot", "bridge", "road")
_PATH_KINDS = ("point", "junction", "door", "port", "path", "counter_space", "track")
_INDEXED_KINDS = ("point", "junction", "door", "space", "river_dot", "counter_space", "port")
_GRAPH_NODE_SET = frozenset(_GRAPH_NODE_KINDS)
_INDEXED_SET = frozenset(_INDEXED_KINDS)  # a superset of the graph's node kinds


@dataclass
class PathView:
    """Integer adjacency of the ``path`` relation for hot loops.

    ``inc[i]`` lists ``(edge, other_end, bearing_leaving_i, bearing_arriving_at_other)``
    for node index ``i``, in the order of the edges' keys; ``water[e]``, ``guard[e]``
    and ``keys[e]`` describe edge ``e``. Built once per compile; a tile turn rebuilds
    only the rows of the nodes whose chains it changed (O(k log k)) and may add edge
    numbers (``keys`` then lists edges of other turns too).
    """

    inc: list[list[tuple[int, int, float, float]]]
    water: list[bool]
    guard: list[str | None]
    keys: list[str]


def board_hash(board: Board, turns: dict[str, int] | None = None) -> str:
    """SHA-256 of the board's content (not its recorded games, not piece positions), 16 hex.

    Geometries are hashed as WKB in one vectorized call; everything else as
    canonical JSON. The tile turns the board was laid out with are part of the
    content (``turns`` overrides them by placement id); turns made during a game
    belong to the game state.
    """
    h = hashlib.sha256()
    placements = board.placements
    if turns is not None:
        placements = [dataclasses.replace(p, turns=turns.get(p.id, p.turns)) for p in placements]
    data = Board(
        meta=board.meta,
        tiles=board.tiles,
        placements=placements,
        piece_types=board.piece_types,
        decks=board.decks,
    ).to_json()
    h.update(
        json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    )
    feats = board.features
    h.update(
        json.dumps(
            [[f.id, f.kind, f.props] for f in feats],
            sort_keys=True,
            separators=(",", ":"),
            ensure_ascii=False,
        ).encode("utf-8")
    )
    if feats:
        for wkb in shapely.to_wkb(
            np.array([f.geometry for f in feats], dtype=object), byte_order=1, output_dimension=2
        ):
            h.update(wkb)
    return h.hexdigest()[:16]


class CompiledBoard:
    """A board compiled into relations.

    Attributes
    ----------
    board : Board
        The board (its placements' ``turns`` follow :meth:`turn`).
    graph : networkx.MultiGraph
        Nodes are stable ids with ``kind``, ``x``, ``y``, ``tile``, ``feature`` and the
        feature's properties; edges carry ``relation`` and its attributes.
    ids, index : list, dict
        Integer numbering of every node that can exist (ports included, so indices
        do not move when a tile turns).
    problems : list of Problem
    """

    def __init__(self, board: Board, tol: float | None = None) -> None:
        self.board = board
        self.tol = float(tol if tol is not None else board.settings.get("snap_tolerance_mm", 1.0))
        self.graph: nx.MultiGraph = nx.MultiGraph()
        self._hash: str | None = None
        #: the tile turns as laid out (compiled or edited): what :attr:`hash` covers
        self._laid_turns: dict[str, int] = {p.id: p.turns for p in board.placements}
        self._derived: dict[str, Any] = {}
        self.features: dict[str, tuple[str | None, Feature]] = {}
        self._chain_ends: dict[str, tuple[str, str]] = {}
        self._build_nodes()
        self.paths = PathNetwork(board, self.tol)
        for ch in self.paths.chains.values():
            self._add_chain(ch)
        self._sync_port_nodes(set(self.paths.port_xy))
        self._region_problems: list[Problem] = []
        self._overlap_cache: tuple[tuple[object, ...], list[Problem]] | None = None
        self._regions: RegionState | None = None
        self._compile_regions()
        #: track/arrival problems and ``next``/``arrival`` edges, by owning placement
        self._link_problems: dict[str | None, list[Problem]] = {}
        self._link_edges: dict[str | None, list[tuple[str, str, str]]] = {}
        self._compile_tracks_and_arrivals()
        self._path_view: PathView | None = None
        self._tree: shapely.STRtree | None = None

    @property
    def hash(self) -> str:
        """Content hash of the board as laid out (see :func:`board_hash`).

        Covers the tile turns the board was compiled (or last edited) with, not the
        turns games make with :meth:`turn`: the same board gives the same hash
        whenever it is read. Computed on first read (the result does not depend on
        when that is).
        """
        if self._hash is None:
            self._hash = board_hash(self.board, self._laid_turns)
        return self._hash

    @property
    def laid_turns(self) -> dict[str, int]:
        """The tile turns as laid out (what :attr:`hash` covers; new games start from them)."""
        return dict(self._laid_turns)

    # ------------------------------------------------------------------ nodes
    def _build_nodes(self) -> None:
        """Number the nodes and add the graph's nodes with their attributes.

        One pass over the board's features (set membership for the kinds), one
        vectorized ``point_on_surface`` for every node's place, and the attribute
        dicts built inline (what :meth:`_attrs_at` builds, without a call per node).
        O(F) for F features.
        """
        ids: list[str] = []
        features = self.features
        nodes: list[tuple[str, str | None, Feature]] = []
        indexed, in_graph = _INDEXED_SET, _GRAPH_NODE_SET
        for nid, owner, f in self.board.world_features():
            features[nid] = (owner, f)
            kind = f.kind
            if kind in indexed:
                ids.append(nid)
                if kind in in_graph:
                    nodes.append((nid, owner, f))
        self.ids = ids
        # a repeated id maps to its last position, as when numbered one by one
        self.index = {nid: i for i, nid in enumerate(ids)}
        # one vectorized call places every node (a point inside each polygon)
        where = shapely.get_coordinates(
            shapely.point_on_surface(np.array([f.geometry for _, _, f in nodes], dtype=object))
        ).reshape(-1, 2)
        xs, ys = round_all(where[:, 0], 6), round_all(where[:, 1], 6)
        made: list[tuple[str, dict[str, Any]]] = []
        for (nid, owner, f), x, y in zip(nodes, xs, ys):
            attrs = {"kind": f.kind, "x": x, "y": y, "tile": owner, "feature": f.id}
            for k, v in f.props.items():
                if v is not None:
                    attrs[k] = v
            made.append((nid, attrs))
        add_nodes(self.graph, made)

    def _node_attrs(
        self, nid: str, owner: str | None, f: Feature, xy: tuple[float, float] | None = None
    ) -> dict[str, Any]:
        if xy is None:
            g = f.geometry
            c = g if g.geom_type == "Point" else g.point_on_surface()
            xy = (c.x, c.y)
        return self._attrs_at(owner, f, round(xy[0], 6), round(xy[1], 6))

    @staticmethod
    def _attrs_at(owner: str | None, f: Feature, x: float, y: float) -> dict[str, Any]:
        """A node's attributes, placed at (``x``, ``y``) (already rounded to 1 nm)."""
        attrs: dict[str, Any] = {
            "kind": f.kind,
            "x": x,
            "y": y,
            "tile": owner,
            "feature": f.id,
        }
        for k, v in f.props.items():
            if v is not None:
                attrs[k] = v
        return attrs

    def _sync_port_nodes(self, ports: set[str]) -> None:
        for p in ports:
            kind = self.paths.port_nodes.get(p)
            if kind is None:
                if p in self.graph:
                    self.graph.remove_node(p)
            else:
                owner, f = self.features[p]
                attrs = self._node_attrs(p, owner, f)
                attrs["kind"] = kind
                attrs["port"] = True
                if p in self.graph:
                    self.graph.nodes[p].update(attrs)
                else:
                    self.graph.add_node(p, **attrs)

    def _add_chain(self, ch: Chain) -> None:
        attrs: dict[str, Any] = {
            "relation": "path",
            "medium": ch.medium,
            "bearings": {ch.u: ch.bear_u, ch.v: ch.bear_v} if ch.u != ch.v else {ch.u: ch.bear_u},
            "bearing_u": ch.bear_u,
            "bearing_v": ch.bear_v,
            "u": ch.u,
            "v": ch.v,
            "length": ch.length,
            "tiles": [o for o in ch.owners if o],
        }
        if ch.guard:
            attrs["guard"] = ch.guard
        self.graph.add_edge(ch.u, ch.v, key=ch.key, **attrs)
        self._chain_ends[ch.key] = (ch.u, ch.v)

    # ------------------------------------------------------------------ regions, tracks
    def _region_input(self) -> RegionInput:
        inp = RegionInput()
        lists = {
            "space": inp.spaces,
            "river": inp.rivers,
            "river_dot": inp.dots,
            "bridge": inp.bridges,
            "road": inp.roads,
        }
        for nid, (_, f) in self.features.items():
            dest = lists.get(f.kind)
            if dest is not None:
                dest.append((nid, f.geometry, f.props))
        return inp

    def _compile_regions(self) -> None:
        """(Re)compile every region relation and put it in the graph.

        The previous region edges are removed (O(E) in them); :func:`compile_regions`
        runs; its ``touch`` edges go in with :func:`add_pair_edges` and the others
        with :func:`add_edges` (O(1) an edge); the ``road`` and ``city_space`` node
        flags are written on networkx's node dicts directly (O(1) a node).
        """
        g = self.graph
        if self._regions is not None:
            for u, v, k, _, _ in self._regions.edges():
                if g.has_edge(u, v, k):
                    g.remove_edge(u, v, k)
        inp = self._region_input()
        res = compile_regions(inp, self.tol)
        self._regions = res.state
        self._region_problems = res.problems
        add_pair_edges(g, res.touch, "touch")
        add_edges(g, res.feature_edges)
        nodes = g._node  # networkx's node attribute dicts, without a view per lookup
        road_spaces, city_dots = res.road_spaces, res.city_dots
        for sid, _, _ in inp.spaces:
            nodes[sid]["road"] = sid in road_spaces
        for did, _, _ in inp.dots:
            if did in city_dots:
                nodes[did]["city_space"] = city_dots[did]
            else:
                nodes[did].pop("city_space", None)

    def _compile_tracks_and_arrivals(self, owners: set[str | None] | None = None) -> None:
        """(Re)build the ``next`` and ``arrival`` edges and their problems.

        With ``owners``, only the tracks and counter spaces of those placements (None:
        free-standing) are rebuilt; their previous edges are removed first. O(T) in
        the tracks and counter spaces concerned (plus, for a track without a point
        list, the features of its owner).
        """
        g = self.graph
        if owners is None:
            for edges in self._link_edges.values():
                for u, v, k in edges:
                    if g.has_edge(u, v, k):
                        g.remove_edge(u, v, k)
            self._link_edges = {}
            self._link_problems = {}
        else:
            for o in owners:
                for u, v, k in self._link_edges.pop(o, []):
                    if g.has_edge(u, v, k):
                        g.remove_edge(u, v, k)
                self._link_problems.pop(o, None)
        if owners is None:
            self._link_nids: dict[str | None, list[str]] = {}
            for nid, (owner, f) in self.features.items():
                if f.kind in ("track", "counter_space"):
                    self._link_nids.setdefault(owner, []).append(nid)
        features = self.features
        for o, nids in self._link_nids.items():
            if owners is not None and o not in owners:
                continue
            for nid in nids:
                self._link_one(nid, *features[nid])

    def _link_one(self, nid: str, owner: str | None, f: Feature) -> None:
        """The ``next`` edges of one track, or the ``arrival`` edges of one counter space."""
        probs = self._link_problems.setdefault(owner, [])
        made = self._link_edges.setdefault(owner, [])
        if f.kind == "track":
            names = f.props.get("points")
            prefix = f"{owner}/" if owner else ""
            if names:
                seq = []
                for pid in names:
                    full = prefix + pid
                    if full not in self.graph:
                        probs.append(
                            Problem.make(
                                "unknown_reference", f"track names unknown point {pid!r}", nid
                            )
                        )
                        continue
                    node = self.graph.nodes[full]
                    if f.geometry.distance(shapely.Point(node["x"], node["y"])) > self.tol:
                        probs.append(
                            Problem.make(
                                "track_point_off_track",
                                f"point {full} is not on track {nid}",
                                full,
                                (node["x"], node["y"]),
                            )
                        )
                    seq.append(full)
            else:
                on = []
                for other, (o2, g) in self.features.items():
                    if (
                        g.kind == "point"
                        and o2 == owner
                        and f.geometry.distance(g.geometry) <= self.tol
                    ):
                        on.append((f.geometry.project(g.geometry), other))
                seq = [o for _, o in sorted(on)]
            for k in range(len(seq) - 1):
                made.append((seq[k], seq[k + 1], f"next:{nid}:{k}"))
                self.graph.add_edge(
                    seq[k],
                    seq[k + 1],
                    key=f"next:{nid}:{k}",
                    relation="next",
                    track=nid,
                    tail=seq[k],
                    head=seq[k + 1],
                    order=k,
                )
        elif f.kind == "counter_space":
            prefix = f"{owner}/" if owner else ""
            for pid in f.props.get("arrival", []):
                full = prefix + pid
                if full not in self.graph:
                    probs.append(
                        Problem.make(
                            "unknown_reference",
                            f"counter space names unknown arrival point {pid!r}",
                            nid,
                        )
                    )
                    continue
                made.append((nid, full, f"arrival:{nid}|{full}"))
                self.graph.add_edge(nid, full, key=f"arrival:{nid}|{full}", relation="arrival")

    # ------------------------------------------------------------------ turning
    def turn(self, placement_id: str, turns: int, *, edit: bool = False) -> dict[str, Any]:
        """Set the turn of one placed tile and re-link incrementally.

        A game's turn (the default) leaves :attr:`hash` alone; ``edit=True`` (an
        editor turning a tile of the design) makes the turn part of the board's
        content, and of its hash.

        Returns a summary ``{"tile", "turns", "removed", "added"}`` of path edge keys.

        Notes
        -----
        Only chains through the tile's sockets are rebuilt (from the cached per-turn
        variant of the tile and its world-frame features, cached per placement and
        turn); cost O(k) in the chains touched, and the path view's rows of their end
        nodes are rebuilt (O(k log k)). Region relations are recompiled only if the
        tile carries region features; tracks and arrivals only those of the tile and
        of tiles whose ports changed.
        """
        p = self.board.placement(placement_id)
        tile = self.board.tile_of(p)
        p.turns = turns % tile.turn_count
        if edit:
            self._laid_turns[p.id] = p.turns
            self._hash = None
        nodes = self.graph.nodes
        for nid, f, attrs in self._placed(p):
            self.features[nid] = (p.id, f)
            if nid in nodes:
                if f.kind == "port":
                    attrs = {**attrs, "kind": nodes[nid]["kind"], "port": True}
                nodes[nid].update(attrs)
        removed, added, ports = self.paths.turn(p.id)
        touched = {n for k in removed for n in self._chain_ends[k]}
        self._remove_edges(removed)
        self._sync_port_nodes(ports)
        for k in sorted(added):
            self._add_chain(self.paths.chains[k])
        if any(f.kind in _REGION_KINDS for f in tile.features):
            self._compile_regions()
            self._derived.clear()
        # the turned tile's tracks and arrivals, and those of tiles whose ports changed
        relink = {
            o
            for o in {p.id} | {self.features[q][0] for q in ports if q in self.features}
            if o in self._link_nids
        }
        if relink:
            self._compile_tracks_and_arrivals(relink)
        if self._path_view is not None:
            for k in added:
                ch = self.paths.chains[k]
                touched.update((ch.u, ch.v))
            self._path_view = self._relink_path_view(self._path_view, touched)
        self._tree = None
        return {
            "tile": p.id,
            "turns": p.turns,
            "removed": sorted(removed - added),
            "added": sorted(added - removed),
        }

    def _placed(self, p: Placement) -> list[tuple[str, Feature, dict[str, Any]]]:
        """The world-frame features of placement ``p`` at its turn, with node attributes.

        Cached on the tile asset per (placement, turns, position): a tile turned back
        and forth transforms its geometry once per quarter turn. The tile's cache is
        cleared when its features are edited (:meth:`TileAsset.invalidate`). The
        attribute dicts are shared: callers copy before changing them.
        """
        tile = self.board.tile_of(p)
        key = ("placed", p.id, p.turns, p.x, p.y)
        hit: list[tuple[str, Feature, dict[str, Any]]] | None = tile.cache.get(key)
        if hit is None:
            # Board.placed_features, with one vectorized transform for the whole tile
            local = tile.variant(p.turns)
            a, b, c, d = turn_matrix(0, tile.turn_count)
            dx, dy = p.x, p.y

            def move(xy: np.ndarray) -> np.ndarray:
                x, y = xy[:, 0], xy[:, 1]
                return np.column_stack((a * x + b * y + dx, c * x + d * y + dy))

            geoms = shapely.transform(np.array([f.geometry for f in local], dtype=object), move)
            where = shapely.get_coordinates(shapely.point_on_surface(geoms)) if len(geoms) else []
            hit = []
            for f, geom, xy in zip(local, geoms, where):
                placed = Feature(f.id, f.kind, geom, f.props)
                nid = f"{p.id}/{f.id}"
                attrs = self._node_attrs(nid, p.id, placed, (float(xy[0]), float(xy[1])))
                hit.append((nid, placed, attrs))
            tile.cache[key] = hit
        return hit

    def placed_nodes(self, placement_id: str, turns: int) -> list[tuple[str, dict[str, Any]]]:
        """The nodes of a placed tile at ``turns`` with their attributes, as :meth:`turn`
        would set them (ports included, without the port's node kind).

        Does not turn the board: for rules modules that follow turns of their own.
        The attribute dicts are shared (do not change them).
        """
        p = self.board.placement(placement_id)
        turned = dataclasses.replace(p, turns=turns % self.board.tile_of(p).turn_count)
        index = self.index
        return [(nid, attrs) for nid, _, attrs in self._placed(turned) if nid in index]

    # ------------------------------------------------------------------ feature edits
    def update_features(self, changed: set[str]) -> dict[str, Any]:
        """Bring the compiled board up to date after free-standing features changed.

        Call it after mutating ``board.features``: the features with ids ``changed``
        were added, removed, reshaped, moved or had their properties changed. The
        graph, the problems and the node attributes then equal those of a fresh
        :func:`compile_board` of the board.

        Parameters
        ----------
        changed : set of str
            Ids of free-standing features (present before the edit, after it, or both).

        Returns
        -------
        dict
            ``{"changed", "removed", "added", "regions", "paths"}``: counts of region
            edges removed and added, what the region update looked at (or ``"full"``
            when it had to compile every region relation), and whether the path
            network was rebuilt.

        Notes
        -----
        Node attributes of the changed features are rebuilt (position, properties,
        ``road``, ``city_space``). Region features (spaces, rivers, river dots,
        bridges, roads) go through :meth:`RegionState.update
        <referee.compiler.regions.state.RegionState.update>`, which re-derives only the
        relations around the edit: for a space its ``touch`` edges with its old and
        new neighbours, the overlap problems involving it, the river and bridge flags
        of those borders, the dots touching it and the roads through it; for a river,
        dot, bridge or road its own relations and the borders it touches. Cost: O(F)
        to re-read the F features and rebuild the spaces' STRtree (milliseconds for
        10,000 spaces) plus O(k log k) in the k spaces near the edit — against
        O(S log S) and a complete graph rebuild for :func:`compile_board`.
        Path-network features (points, junctions, doors, ports, paths, counter
        spaces, tracks) rebuild the path network, O(P log P) in the path features.
        After an update ``ids``/``index`` keep the numbers of deleted nodes (new
        nodes are appended), so indices of other nodes never move.
        """
        changed = set(changed)
        old_features = self.features
        self.features = {nid: (owner, f) for nid, owner, f in self.board.world_features()}
        kinds: set[str] = set()
        for fid in changed:
            for entry in (old_features.get(fid), self.features.get(fid)):
                if entry is not None:
                    if entry[0] is not None:
                        raise UsageError(
                            f"update_features: {fid!r} belongs to tile "
                            f"{entry[0]}; use turn() or compile_board()",
                            location=fid,
                        )
                    kinds.add(entry[1].kind)
        g = self.graph
        # ---- the changed features' own nodes
        for fid in sorted(changed):
            new = self.features.get(fid)
            kind = new[1].kind if new is not None else None
            if fid in g and kind not in _GRAPH_NODE_KINDS:
                g.remove_node(fid)
            if new is not None and kind in _GRAPH_NODE_KINDS:
                attrs = self._node_attrs(fid, None, new[1])
                if fid in g:
                    node = g.nodes[fid]
                    node.clear()
                    node.update(attrs)
                else:
                    g.add_node(fid, **attrs)
            if new is not None and kind in _INDEXED_KINDS and fid not in self.index:
                self.index[fid] = len(self.ids)
                self.ids.append(fid)
        summary: dict[str, Any] = {
            "changed": len(changed),
            "removed": 0,
            "added": 0,
            "regions": None,
            "paths": False,
        }
        # ---- region relations
        region_ids = {
            fid
            for fid in changed
            if any(
                e is not None and e[1].kind in _REGION_KINDS
                for e in (old_features.get(fid), self.features.get(fid))
            )
        }
        if region_ids:
            delta = (
                self._regions.update(self._region_input(), region_ids)
                if self._regions is not None
                else None
            )
            if delta is None:
                self._compile_regions()
                summary["regions"] = "full"
            else:
                for u, v, k in delta.removed:
                    if g.has_edge(u, v, k):
                        g.remove_edge(u, v, k)
                add_edges(g, delta.added)
                st = self._regions
                assert st is not None
                roads = st.road_spaces()
                for sid in delta.road_spaces:
                    if sid in g and g.nodes[sid]["kind"] == "space":
                        g.nodes[sid]["road"] = sid in roads
                cities = st.city_dots()
                for did in delta.dots:
                    if did in g:
                        if did in cities:
                            g.nodes[did]["city_space"] = cities[did]
                        else:
                            g.nodes[did].pop("city_space", None)
                self._region_problems = st.problems()
                summary.update(
                    removed=len(delta.removed), added=len(delta.added), regions=delta.stats
                )
        # ---- path network, tracks and arrivals
        if kinds & set(_PATH_KINDS):
            self._rebuild_paths()
            summary["paths"] = True
        self._path_view = None
        self._tree = None
        self._hash = None
        self._laid_turns = {p.id: p.turns for p in self.board.placements}
        self._derived.clear()
        return summary

    def _rebuild_paths(self) -> None:
        """Rebuild the path network, tracks and arrivals from the board (regions stay)."""
        g = self.graph
        for key, (u, v) in self._chain_ends.items():
            if g.has_edge(u, v, key):
                g.remove_edge(u, v, key)
        self._chain_ends = {}
        old_ports = set(self.paths.port_xy)
        self.paths = PathNetwork(self.board, self.tol)
        for p in old_ports - set(self.paths.port_xy):
            if p in g:
                g.remove_node(p)
        for ch in self.paths.chains.values():
            self._add_chain(ch)
        self._sync_port_nodes(set(self.paths.port_xy))
        self._compile_tracks_and_arrivals()

    def _remove_edges(self, keys: set[str]) -> None:
        for k in keys:
            u, v = self._chain_ends.pop(k)
            self.graph.remove_edge(u, v, k)

    # ------------------------------------------------------------------ derived data
    def derived(self, key: str, build: Callable[[], T]) -> T:
        """Data a rules module derives from this board, built once by ``build()``.

        Rules modules keep per-board tables here (Riddle's movement referee and
        ``within 6`` sets, Ringgeister's figure view) under a key prefixed with their
        name. Everything is dropped when the board's relations are edited
        (:meth:`update_features`, or a turn of a tile carrying region features); a
        turn that only re-links paths keeps it — users of :meth:`path_view` refresh
        what a turn changes themselves.
        """
        if key not in self._derived:
            self._derived[key] = build()
        return self._derived[key]  # type: ignore[no-any-return]

    def forget(self, key: str) -> None:
        """Drop one :meth:`derived` entry (e.g. to measure a cold cache)."""
        self._derived.pop(key, None)

    # ------------------------------------------------------------------ views
    @property
    def problems(self) -> list[Problem]:
        probs = self.paths.problems() + self._region_problems + self._tile_overlaps()
        for link_probs in self._link_problems.values():
            probs.extend(link_probs)
        nodes = self.graph.nodes
        for nid, nbrs in self.graph._adj.items():  # the adjacency dict: no view per node
            if not nbrs and nodes[nid]["kind"] != "counter_space":
                d = nodes[nid]
                probs.append(
                    Problem.make(
                        "isolated_node",
                        f"no relation reaches this {d['kind']}",
                        nid,
                        (d["x"], d["y"]),
                    )
                )
        return sorted(
            probs,
            key=lambda p: (
                p.severity != "error",
                p.code,
                p.node or "",
                p.message,
                p.x or 0.0,
                p.y or 0.0,
            ),
        )

    def _tile_overlaps(self) -> list[Problem]:
        """The ``tile_overlap`` problems, kept until a placement moves, turns or changes."""
        sig = tuple((p.id, p.tile, p.x, p.y, p.turns) for p in self.board.placements)
        hit = self._overlap_cache
        if hit is None or hit[0] != sig:
            hit = self._overlap_cache = (sig, tile_overlaps(self.board, self.tol))
        return list(hit[1])

    def errors(self) -> list[Problem]:
        return [p for p in self.problems if p.severity == "error"]

    def path_view(self) -> PathView:
        """The integer view of the ``path`` relation (kept up to date by :meth:`turn`).

        Edge numbers are stable while the board is only turned: a chain keeps its
        number when it comes back with a later turn, so rows a turn does not touch
        stay the same objects. Each row lists its edges in the order of their keys.
        """
        if self._path_view is None:
            n = len(self.ids)
            self._edge_ids: dict[str, int] = {}
            view = self._path_view = PathView([[] for _ in range(n)], [], [], [])
            for key in sorted(self.paths.chains):
                ch = self.paths.chains[key]
                e = self.path_edge(ch)
                iu, iv = self.index[ch.u], self.index[ch.v]
                # a loop (iu == iv) is listed twice: it can be left by either end
                view.inc[iu].append((e, iv, ch.bear_u, (ch.bear_v + 180.0) % 360.0))
                view.inc[iv].append((e, iu, ch.bear_v, (ch.bear_u + 180.0) % 360.0))
        return self._path_view

    def path_edge(self, ch: Chain) -> int:
        """The number of chain ``ch`` in :meth:`path_view` (numbered on first sight).

        ``ch`` may come from another :class:`PathNetwork` of this board (one with
        turns of its own): a chain's number depends only on its key.
        """
        return self.edge_number(ch.key, ch.medium == "water", ch.guard)

    def edge_number(self, key: str, water: bool, guard: str | None) -> int:
        """The number in :meth:`path_view` of the chain with key ``key`` (numbered, with
        its medium and guard, on first sight)."""
        view = self.path_view()
        e = self._edge_ids.get(key)
        if e is None:
            e = self._edge_ids[key] = len(view.keys)
            view.keys.append(key)
            view.water.append(water)
            view.guard.append(guard)
        return e

    def path_row(self, network: PathNetwork, nid: str) -> list[tuple[int, int, float, float]]:
        """Row ``nid`` of the path view as ``network`` links the board (see :class:`PathView`).

        Notes
        -----
        O(k log k) for the k chains ending at ``nid``.
        """
        chains, index = network.chains, self.index
        row: list[tuple[int, int, float, float]] = []
        for key in sorted(network.ends_at(nid)):
            ch = chains[key]
            e = self.path_edge(ch)
            if ch.u == nid:
                row.append((e, index[ch.v], ch.bear_u, (ch.bear_v + 180.0) % 360.0))
            if ch.v == nid:
                row.append((e, index[ch.u], ch.bear_v, (ch.bear_u + 180.0) % 360.0))
        return row

    def _relink_path_view(self, view: PathView, touched: set[str]) -> PathView:
        """A new view whose rows of ``touched`` nodes are rebuilt; O(P + k log k).

        The other rows are shared with ``view`` (rows are never changed in place, so
        views of earlier turns stay valid).
        """
        inc = view.inc[:]
        for nid in touched:
            inc[self.index[nid]] = self.path_row(self.paths, nid)
        return PathView(inc, view.water, view.guard, view.keys)

    def point_graph(self, kind: str = "point") -> PointGraph:
        """The points of this board and the steps between them along its paths,
        junctions, doors and ports resolved (:class:`~referee.compiler.points.PointGraph`).

        For points-and-paths games (a race, a tag game on a ring of points). Kept
        until a tile turns or the board is edited (then built again).

        Notes
        -----
        Built in O(P·R) (see :func:`~referee.compiler.points.point_graph`); a read
        with the tiles as they were is a comparison of the tile turns.
        """
        turns = (kind, tuple(p.turns for p in self.board.placements))
        kept = self._derived.get("compiler:point_graph")
        if kept is None or kept[0] != turns:
            nodes = [self.index[nid] for nid, d in self.graph.nodes(data=True) if d["kind"] == kind]
            built = point_graph(self.ids, nodes, self.path_view().inc)
            kept = self._derived["compiler:point_graph"] = (turns, built)
        graph: PointGraph = kept[1]
        return graph

    def adjacency(self, relation: str) -> list[list[int]]:
        """Neighbour indices per node index for one relation (``next`` is directed)."""
        out: list[list[int]] = [[] for _ in self.ids]
        for u, v, d in self.graph.edges(data=True):
            if d["relation"] != relation:
                continue
            if relation == "next":
                out[self.index[d["tail"]]].append(self.index[d["head"]])
            else:
                out[self.index[u]].append(self.index[v])
                if u != v:
                    out[self.index[v]].append(self.index[u])
        return out

    def node(self, nid: str) -> dict[str, Any]:
        try:
            attrs: dict[str, Any] = self.graph.nodes[nid]
        except KeyError:
            raise UnknownNodeError(f"board has no node {nid!r}", location=nid) from None
        return attrs

    def xy(self, nid: str) -> tuple[float, float]:
        d = self.node(nid)
        return d["x"], d["y"]

    def nodes_of_kind(self, kind: str) -> list[str]:
        return [n for n, d in self.graph.nodes(data=True) if d["kind"] == kind]

    @property
    def tree(self) -> shapely.STRtree:
        """Spatial index over the node geometries (points, and polygons for spaces)."""
        if self._tree is None:
            self._tree_ids = list(self.graph.nodes)
            geoms = [
                self.features[n][1].geometry
                if n in self.features and self.features[n][1].kind in ("space", "counter_space")
                else shapely.Point(self.graph.nodes[n]["x"], self.graph.nodes[n]["y"])
                for n in self._tree_ids
            ]
            self._tree = shapely.STRtree(np.array(geoms, dtype=object))
        return self._tree

    def hit(self, x: float, y: float, radius: float = 3.0) -> list[str]:
        """Node ids whose geometry lies within ``radius`` of (x, y), nearest first."""
        tree = self.tree
        p = shapely.Point(x, y)
        idx = tree.query(p, predicate="dwithin", distance=radius)
        hits = [(tree.geometries[i].distance(p), self._tree_ids[i]) for i in idx.tolist()]
        return [n for _, n in sorted(hits)]

    # ------------------------------------------------------------------ summaries
    def counts(self) -> dict[str, dict[str, int]]:
        nodes: dict[str, int] = {}
        for _, d in self.graph.nodes(data=True):
            nodes[d["kind"]] = nodes.get(d["kind"], 0) + 1
        edges: dict[str, int] = defaultdict(int)
        seen: set[str] = set()
        for u, nbrs in self.graph._adj.items():  # each edge once, without edge views
            for v, keyed in nbrs.items():
                if v not in seen:
                    for d in keyed.values():
                        edges[d["relation"]] += 1
            seen.add(u)
        return {"nodes": dict(sorted(nodes.items())), "edges": dict(sorted(edges.items()))}

    def edge_set(self) -> set[tuple[str, str, str, str]]:
        """Canonical (relation, u, v, attrs-json) set, for comparing two compiles."""
        out = set()
        for u, v, d in self.graph.edges(data=True):
            a, b = sorted((u, v))
            out.add((d["relation"], a, b, json.dumps(d, sort_keys=True, default=str)))
        return out


def compile_board(board: Board, tol: float | None = None) -> CompiledBoard:
    """Compile ``board`` into a :class:`CompiledBoard`.

    Notes
    -----
    Paths: O(F log F) per tile variant (cached) plus O(C) chain walking.
    Regions: O(S log S) shared-edge hashing over ring segments plus one STRtree
    bulk query — never all pairs. Runs with the cyclic garbage collector paused
    (:mod:`.bulk`).
    """
    with collector_paused():
        return CompiledBoard(board, tol)
