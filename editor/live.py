"""Live, incremental recompilation of the board being edited.

:class:`LiveCompiler` keeps one :class:`~referee.compiler.CompiledBoard` of the
document's board up to date after each edit, choosing the cheapest strategy the
edit allows:

``turn``
    a tile turned: :meth:`CompiledBoard.turn` re-links that tile's ports only.
``props``
    properties that no relation depends on (a point's colour, a space's name …):
    the node attributes are updated in place, O(1) per node.
``regions``
    free-standing spaces were added, removed, moved or reshaped on a board with no
    rivers, river dots, bridges or roads: the ``touch`` relation and the overlap
    problems are recompiled for the changed spaces and the spaces around them
    only (one STRtree query finds them), with the compiler's own
    :func:`~referee.compiler.regions.compile_regions` on that neighbourhood.
``full``
    anything else: a complete :func:`~referee.compiler.compile_board`.

Notes
-----
The region strategy is correct because, on a map without overlapping spaces,
``touch`` between two spaces depends on those two polygons only: every pair that involves a changed space has
both members in the neighbourhood (they intersect), and pairs between unchanged
spaces keep their edges. Where spaces overlap (an error the compiler reports),
shared-edge hashing pairs up segments held by three spaces, so a pair's border can
depend on a third space: such boards are compiled in full. Boards with rivers, dots, bridges or roads fall back to
a full compile, since those relations reach across the map. After an incremental
update ``compiled.hash`` is stale; playtests compile a fresh copy of the board.
Cost of a region update: O(k log k) for the k spaces near the edit, plus the
STRtree query, against O(S log S) for a full compile.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import shapely

from referee.compiler import CompiledBoard, compile_board
from referee.compiler.regions import RegionInput, compile_regions
from referee.model import Board, Feature

#: properties the compiled relations depend on, per kind (others only change node attrs)
RELATION_PROPS = {
    "path": {"medium", "guard"},
    "space": {"terrain", "city"},
    "river_dot": {"city"},
    "counter_space": {"arrival"},
    "track": {"points"},
}
_REGION_ONLY_KINDS = ("river", "river_dot", "bridge", "road")
_OVERLAP = re.compile(r"^spaces (.+?) and (.+?) overlap")


@dataclass
class Change:
    """What one edit changed, as a hint for the live compiler."""

    turns: set[str] = field(default_factory=set)          # placement ids turned
    props: set[str] = field(default_factory=set)          # feature ids whose props changed
    prop_keys: set[str] = field(default_factory=set)
    spaces: set[str] = field(default_factory=set)         # free-standing spaces added/moved/removed
    full: bool = False

    def merge(self, other: Change) -> None:
        self.turns |= other.turns
        self.props |= other.props
        self.prop_keys |= other.prop_keys
        self.spaces |= other.spaces
        self.full |= other.full

    @property
    def empty(self) -> bool:
        return not (self.turns or self.props or self.spaces or self.full)


class LiveCompiler:
    """A compiled board kept in step with a board under edit."""

    def __init__(self, board: Board) -> None:
        self.board = board
        self.compiled: CompiledBoard = compile_board(board)
        self.last_strategy = "full"
        self._geoms: dict[str, Any] = {}
        self._snapshot_spaces()

    def _snapshot_spaces(self) -> None:
        self._geoms = {f.id: f.geometry for f in self.board.features if f.kind == "space"}

    # ------------------------------------------------------------------ update
    def update(self, change: Change) -> str:
        """Bring the compiled board up to date after ``change``; return the strategy used."""
        strategy = self._choose(change)
        if strategy == "full":
            self.compiled = compile_board(self.board)
            self._snapshot_spaces()
        else:
            if change.turns:
                for pid in sorted(change.turns):
                    p = self.board.placement(pid)
                    self.compiled.turn(pid, p.turns)
            if change.spaces and not self._update_regions(change.spaces):
                # overlapping spaces make touch depend on third spaces: compile it all
                self.compiled = compile_board(self.board)
                self._snapshot_spaces()
                self.last_strategy = "full"
                return "full"
            if change.props:
                self._update_props(change.props - change.spaces)
        self.last_strategy = strategy
        return strategy

    def _choose(self, change: Change) -> str:
        if change.full:
            return "full"
        feats = {f.id: f for f in self.board.features}
        for fid in change.props:
            f = feats.get(fid)
            if f is None or fid not in self.compiled.features:
                return "full"
            if change.prop_keys & RELATION_PROPS.get(f.kind, set()):
                if not (f.kind == "space" and not self._has_region_lines()):
                    return "full"
        if change.spaces and self._has_region_lines():
            return "full"
        if change.turns and not all(self._turn_ok(pid) for pid in change.turns):
            return "full"
        if change.spaces:
            return "regions"
        if change.turns:
            return "turn"
        return "props"

    def _turn_ok(self, pid: str) -> bool:
        """A turn can be applied incrementally if the compiled board knows the tile."""
        return any(o == pid for o, _ in self.compiled.features.values())

    def _has_region_lines(self) -> bool:
        return any(f.kind in _REGION_ONLY_KINDS for _, f in self.compiled.features.values())

    def _update_props(self, fids: set[str]) -> None:
        g = self.compiled.graph
        feats = {f.id: f for f in self.board.features}
        for fid in fids:
            f = feats.get(fid)
            if f is None:
                continue
            self.compiled.features[fid] = (None, f)
            if fid in g:
                node = g.nodes[fid]
                for k in [k for k in node if k not in ("kind", "x", "y", "tile", "feature",
                                                        "road", "port", "city_space")]:
                    del node[k]
                for k, v in f.props.items():
                    if v is not None:
                        node[k] = v

    def _update_regions(self, fids: set[str]) -> bool:
        """Recompile the region relations around the spaces ``fids``; False if the board
        has overlapping spaces (then only a full compile is exact)."""
        c = self.compiled
        if any(p.code == "overlapping_spaces" for p in c._region_problems):
            return False
        g = c.graph
        feats = {f.id: f for f in self.board.features if f.kind == "space"}
        old = {fid: self._geoms.get(fid) for fid in fids}
        # 1. nodes: remove deleted, add new, update moved
        for fid in fids:
            f = feats.get(fid)
            if f is None:
                if fid in g:
                    g.remove_node(fid)
                c.features.pop(fid, None)
                self._geoms.pop(fid, None)
                continue
            c.features[fid] = (None, f)
            attrs = c._node_attrs(fid, None, f)
            if fid in g:
                # drop the old relations of this space: they are recomputed below
                for u, v, k in list(g.edges(fid, keys=True)):
                    g.remove_edge(u, v, k)
                g.nodes[fid].update(attrs)
            else:
                g.add_node(fid, **attrs)
                if fid not in c.index:
                    c.index[fid] = len(c.ids)
                    c.ids.append(fid)
            self._geoms[fid] = f.geometry
        # 2. the neighbourhood: every space meeting a changed space, old or new shape
        probe = [geom for geom in list(old.values()) + [feats[f].geometry for f in fids if f in feats]
                 if geom is not None]
        all_ids = list(feats)
        if probe and all_ids:
            polys = np.array([feats[i].geometry for i in all_ids], dtype=object)
            tree = shapely.STRtree(polys)
            hits = tree.query(np.array(probe, dtype=object), predicate="intersects")[1]
            near = {all_ids[i] for i in np.unique(hits).tolist()} | (fids & feats.keys())
        else:
            near = fids & feats.keys()
        inp = RegionInput(spaces=[(i, feats[i].geometry, feats[i].props) for i in sorted(near)])
        res = compile_regions(inp, c.tol)
        if any(p.code == "overlapping_spaces" for p in res.problems):
            return False
        # 3. edges: those that involve a changed space
        kept = []
        for u, v, k in c._region_edges:
            if u in fids or v in fids:
                continue
            kept.append((u, v, k))
        for u, v, key, rel, attrs in res.edges:
            if u not in fids and v not in fids:
                continue
            g.add_edge(u, v, key=key, **dict(attrs, relation=rel))
            kept.append((u, v, key))
        c._region_edges = kept
        # 4. problems that involve a changed space
        probs = [p for p in c._region_problems if not self._involves(p, fids)]
        probs += [p for p in res.problems if self._involves(p, fids)]
        c._region_problems = probs
        for sid in near:
            if sid in g:
                g.nodes[sid]["road"] = False
        c._tree = None
        c._path_view = None
        return True

    @staticmethod
    def _involves(p: Any, fids: set[str]) -> bool:
        if p.node in fids:
            return True
        m = _OVERLAP.match(p.message)
        return bool(m and (m.group(1) in fids or m.group(2) in fids))


def world_feature_geometry(board: Board, fid: str) -> Feature | None:
    for f in board.features:
        if f.id == fid:
            return f
    return None
