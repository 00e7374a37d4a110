"""Integer arrays over a compiled board, for the referee's hot loops.

Built once per :class:`~referee.compiler.CompiledBoard` from its graph and its
:meth:`~referee.compiler.CompiledBoard.path_view`; :meth:`BoardView.refresh`
re-reads what a tile turn changes (positions, turned wind arrows and headings,
which ports are dead ends or junctions, the path incidence lists). Node indices
are the compiled board's stable ``index``, so they survive tile turns.
"""

from __future__ import annotations

from typing import Any

from ...compiler import CompiledBoard
from ...geometry import bearing_degrees

NONE, POINT, JUNCTION, DOOR, DEAD_END, OTHER = range(6)
_KIND = {"point": POINT, "junction": JUNCTION, "door": DOOR, "dead_end": DEAD_END}


class BoardView:
    """Per-node arrays (by compiled index) and per-tile facts of a Ringgeister board.

    Notes
    -----
    Construction and :meth:`refresh` are O(N + E); every query used during play
    is O(1) list indexing.
    """

    def __init__(self, compiled: CompiledBoard) -> None:
        self.compiled = compiled
        #: the tile turns the board was laid out with (new games start from them)
        self.base_turns: dict[str, int] = compiled.laid_turns
        self.ids: list[str] = compiled.ids
        self.index: dict[str, int] = compiled.index
        n = self.n = len(self.ids)
        g = compiled.graph
        self.black = [False] * n
        self.magic = [False] * n
        self.goal = [False] * n
        self.start: list[str | None] = [None] * n
        self.symbol: list[str | None] = [None] * n
        self.forced_right = [False] * n
        self.owner: list[str | None] = [None] * n
        self.static_kind = [NONE] * n
        self.doors: dict[str, list[int]] = {}
        self.white_starts: list[int] = []
        self.black_starts: list[int] = []
        self.points: list[int] = []
        for i, nid in enumerate(self.ids):
            owner, f = compiled.features[nid]
            self.owner[i] = owner
            p = f.props
            if f.kind == "point":
                self.static_kind[i] = POINT
                self.points.append(i)
                self.black[i] = p.get("colour") == "black"
                self.magic[i] = bool(p.get("magic"))
                self.goal[i] = bool(p.get("goal"))
                self.start[i] = p.get("start")
                if p.get("start") == "white":
                    self.white_starts.append(i)
                elif p.get("start") == "black":
                    self.black_starts.append(i)
            elif f.kind == "junction":
                self.static_kind[i] = JUNCTION
                self.forced_right[i] = bool(p.get("forced_right"))
            elif f.kind == "door":
                self.static_kind[i] = DOOR
                sym = p.get("symbol")
                self.symbol[i] = sym
                if sym:
                    self.doors.setdefault(sym, []).append(i)
            elif f.kind != "port" and nid in g:
                self.static_kind[i] = OTHER
        # counter spaces and their arrival points
        self.counter_spaces: dict[str, list[int]] = {}
        for nid, (owner, f) in sorted(compiled.features.items()):
            if f.kind == "counter_space":
                prefix = f"{owner}/" if owner else ""
                self.counter_spaces[nid] = [
                    self.index[prefix + a]
                    for a in f.props.get("arrival", [])
                    if prefix + a in self.index
                ]
        # tiles: which points each carries; which may turn (ruling 11, docs/rulings.md)
        self.tile_points: dict[str, list[int]] = {}
        for i in self.points:
            o = self.owner[i]
            if o is not None:
                self.tile_points.setdefault(o, []).append(i)
        #: every node index of each tile (what a turn of that tile moves)
        self.tile_nodes: dict[str, list[int]] = {}
        for i, o in enumerate(self.owner):
            if o is not None:
                self.tile_nodes.setdefault(o, []).append(i)
        #: port indices: a turn may make any of them a dead end or a junction, or neither
        self.ports = [
            i for i, nid in enumerate(self.ids) if compiled.features[nid][1].kind == "port"
        ]
        board = compiled.board
        self.turnable: list[str] = []
        for pl in board.placements:
            tile = board.tile_of(pl)
            n_black = sum(self.black[i] for i in self.tile_points.get(pl.id, []))
            if tile.turnable and n_black >= 2:
                self.turnable.append(pl.id)
        self.turnable.sort()
        self.corridor = float(board.settings.get("wind_corridor_mm", 15.0))
        #: the step moves made so far, by (figure id, point index): shared, immutable
        self.step_moves: dict[tuple[str, int], Any] = {}
        #: weak reference to the game whose tile turns the compiled board carries now
        self.synced_to: Any = None
        self.refresh()

    def refresh(self, tiles: list[str] | None = None) -> None:
        """Re-read what tile turns change: positions, directions, port nodes, paths.

        With ``tiles``, only those tiles' nodes (and every port) are re-read.

        Notes
        -----
        O(N + E) for a full refresh; O(n_tile + P + E) after a turn (the path view
        itself is rebuilt by the compiled board in O(E)).
        """
        nodes = self.compiled.graph.nodes
        if tiles is None:
            n = self.n
            self.kind = list(self.static_kind)
            self.x = [0.0] * n
            self.y = [0.0] * n
            self.wind: list[float | None] = [None] * n
            self.heading: list[float | None] = [None] * n
            todo: list[int] = list(range(n))
        else:
            todo = [i for t in tiles for i in self.tile_nodes.get(t, [])] + self.ports
        ids, kind = self.ids, self.kind
        for i in todo:
            nid = ids[i]
            if nid not in nodes:
                kind[i] = self.static_kind[i]
                continue
            d = nodes[nid]
            self.x[i] = d["x"]
            self.y[i] = d["y"]
            if d.get("port"):
                kind[i] = _KIND.get(d["kind"], NONE)
                continue
            w = d.get("wind")
            self.wind[i] = bearing_degrees(w) if w is not None else None
            h = d.get("heading")
            self.heading[i] = bearing_degrees(h) if h is not None else None
        pv = self.compiled.path_view()
        self.inc = pv.inc
        self.guard = pv.guard
        self.water = pv.water
        water, guard = pv.water, pv.guard
        #: per node: the land paths (black figures), and (edge, other end) pairs for
        #: light figures over every path or only those the spider does not guard
        empty: tuple[tuple[int, int], ...] = ()
        land_inc: list[list[tuple[int, int, float, float]]] = []
        open_inc: list[tuple[tuple[int, int], ...]] = []
        safe_inc: list[tuple[tuple[int, int], ...]] = []
        for row in pv.inc:
            if not row:
                land_inc.append(row)
                open_inc.append(empty)
                safe_inc.append(empty)
                continue
            land_inc.append([t for t in row if not water[t[0]]])
            pairs = tuple([(t[0], t[1]) for t in row])
            open_inc.append(pairs)
            safe_inc.append(tuple([q for q in pairs if guard[q[0]] is None]))
        self.land_inc, self.open_inc, self.safe_inc = land_inc, open_inc, safe_inc

    def turns(self) -> dict[str, int]:
        return {p.id: p.turns for p in self.compiled.board.placements}


def view_of(compiled: CompiledBoard) -> BoardView:
    """The (cached) :class:`BoardView` of ``compiled``."""
    return compiled.derived("ringgeister.view", lambda: BoardView(compiled))
