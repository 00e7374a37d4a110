"""Integer arrays over a compiled board, for the referee's hot loops.

Built once per :class:`~referee.compiler.CompiledBoard` from its graph and its
:meth:`~referee.compiler.CompiledBoard.path_view`; :meth:`BoardView.refresh`
re-reads what a tile turn changes (positions, turned wind arrows and headings,
which ports are dead ends or junctions, the path incidence lists), and
:meth:`BoardView.show` swaps in the arrays of a recently seen turn configuration
(an LRU of :data:`CONFIGS_KEPT`), so games and copies with different tile turns share
one view cheaply. Node indices are the compiled board's stable ``index``, so they
survive tile turns.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping
from typing import Any

from ...compiler import CompiledBoard
from ...geometry import bearing_degrees

NONE, POINT, JUNCTION, DOOR, DEAD_END, OTHER = range(6)
#: turn configurations whose arrays a view keeps (about 30 kB each on the default board)
CONFIGS_KEPT = 256
_KIND = {"point": POINT, "junction": JUNCTION, "door": DOOR, "dead_end": DEAD_END}


_Arrays = tuple[
    list[int],
    list[float],
    list[float],
    list[float | None],
    list[float | None],
    list[list[tuple[int, int, float, float]]],
    list[str | None],
    list[bool],
    list[list[tuple[int, int, float, float]]],
    list[tuple[tuple[int, tuple[int, int]], ...]],
    list[tuple[tuple[int, tuple[int, int]], ...]],
]


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
        #: the step moves made so far, per figure id a list by point index: shared,
        #: immutable values
        self.step_moves: dict[str, list[Any]] = {}
        #: node indices in id order, and each node's place in that order (a figure's
        #: destinations sort as ints, not strings)
        self.by_id: list[int] = sorted(range(n), key=self.ids.__getitem__)
        self.rank: list[int] = [0] * n
        for r, i in enumerate(self.by_id):
            self.rank[i] = r
        #: weak reference to the game whose tile turns the arrays describe now
        self.synced_to: Any = None
        # what a turn configuration changes (set by refresh, swapped in by show)
        self.kind: list[int] = []
        self.x: list[float] = []
        self.y: list[float] = []
        self.wind: list[float | None] = []
        self.heading: list[float | None] = []
        self.inc: list[list[tuple[int, int, float, float]]] = []
        self.guard: list[str | None] = []
        self.water: list[bool] = []
        self.land_inc: list[list[tuple[int, int, float, float]]] = []
        self.open_inc: list[tuple[tuple[int, tuple[int, int]], ...]] = []
        self.safe_inc: list[tuple[tuple[int, tuple[int, int]], ...]] = []
        #: placement ids in board order: a turn configuration is a tuple in this order
        self.placement_ids: list[str] = [pl.id for pl in board.placements]
        #: the turn configuration the arrays describe
        self.key: tuple[int, ...] = ()
        #: arrays of recently shown configurations (least recently used first)
        self.configs: OrderedDict[tuple[int, ...], _Arrays] = OrderedDict()
        self.refresh()
        self.key = self.board_key()
        self._remember()

    # ------------------------------------------------------------ configurations
    def board_key(self) -> tuple[int, ...]:
        """The turn configuration the compiled board carries now."""
        return tuple(p.turns for p in self.compiled.board.placements)

    def key_of(self, turns: Mapping[str, int]) -> tuple[int, ...]:
        """The configuration tuple of a ``{placement id: turns}`` mapping."""
        base = self.base_turns
        return tuple(turns.get(pid, base[pid]) for pid in self.placement_ids)

    def sync_board(self, turns: Mapping[str, int]) -> list[str]:
        """Turn the compiled board's tiles to ``turns``; returns the tiles turned.

        Notes
        -----
        One comparison per placement; O(k) re-linking per tile that differs.
        """
        changed: list[str] = []
        compiled = self.compiled
        for p in compiled.board.placements:
            t = turns.get(p.id, p.turns)
            if p.turns != t:
                compiled.turn(p.id, t)
                changed.append(p.id)
        return changed

    def show(self, turns: Mapping[str, int]) -> bool:
        """Make the arrays describe the configuration ``turns``; True if they changed.

        A configuration shown recently comes back from a small LRU cache (the
        arrays are never changed in place once stored), so tree search switching
        between copies with different tile turns pays a dictionary lookup, not a
        re-link. Otherwise the compiled board is turned to ``turns`` and the tiles
        that differ from the configuration shown last are re-read.

        Notes
        -----
        O(P) for P placements on a hit; O(k + n_tile + P + E) on a miss.
        """
        key = self.key_of(turns)
        if key == self.key:
            return False
        hit = self.configs.get(key)
        if hit is not None:
            self.configs.move_to_end(key)
            self._install(hit)
            self.key = key
            return True
        self.sync_board(turns)
        before = self.key
        self.refresh([pid for pid, a, b in zip(self.placement_ids, before, key) if a != b])
        self.key = key
        self._remember()
        return True

    def _remember(self) -> None:
        self.configs[self.key] = (
            self.kind,
            self.x,
            self.y,
            self.wind,
            self.heading,
            self.inc,
            self.guard,
            self.water,
            self.land_inc,
            self.open_inc,
            self.safe_inc,
        )
        while len(self.configs) > CONFIGS_KEPT:
            self.configs.popitem(last=False)

    def _install(self, arrays: _Arrays) -> None:
        (
            self.kind,
            self.x,
            self.y,
            self.wind,
            self.heading,
            self.inc,
            self.guard,
            self.water,
            self.land_inc,
            self.open_inc,
            self.safe_inc,
        ) = arrays

    def refresh(self, tiles: list[str] | None = None) -> None:
        """Re-read what tile turns change: positions, directions, port nodes, paths.

        With ``tiles``, only those tiles' nodes (and every port) are re-read.

        Notes
        -----
        O(N + E) for a full refresh; O(n_tile + P + N) after a turn plus the rows the
        compiled board rebuilt (it relinks only the rows of the chains the turn
        changed; the other rows, and what is derived from them, are reused).
        """
        nodes = self.compiled.graph.nodes
        if tiles is None:
            n = self.n
            self.kind = list(self.static_kind)
            self.x = [0.0] * n
            self.y = [0.0] * n
            self.wind = [None] * n
            self.heading = [None] * n
            todo: list[int] = list(range(n))
        else:
            # new lists: the cached configurations keep theirs unchanged
            self.kind = self.kind[:]
            self.x = self.x[:]
            self.y = self.y[:]
            self.wind = self.wind[:]
            self.heading = self.heading[:]
            todo = [i for t in tiles for i in self.tile_nodes.get(t, [])] + self.ports
        ids, kind = self.ids, self.kind
        x, y, wind, heading = self.x, self.y, self.wind, self.heading
        for i in todo:
            nid = ids[i]
            if nid not in nodes:  # a port that is no node at these turns
                kind[i] = self.static_kind[i]
                x[i] = y[i] = 0.0
                continue
            d = nodes[nid]
            x[i] = d["x"]
            y[i] = d["y"]
            if d.get("port"):
                kind[i] = _KIND.get(d["kind"], NONE)
                continue
            w = d.get("wind")
            wind[i] = bearing_degrees(w) if w is not None else None
            h = d.get("heading")
            heading[i] = bearing_degrees(h) if h is not None else None
        pv = self.compiled.path_view()
        water, guard = pv.water, pv.guard
        #: per node: the land paths (black figures), and (edge, (other end, edge)) for
        #: light figures over every path or only those the spider does not guard;
        #: rows the compiled board did not rebuild are reused as they are
        prev, prev_land, prev_open, prev_safe = (
            self.inc,
            self.land_inc,
            self.open_inc,
            self.safe_inc,
        )
        reuse = len(prev) == len(pv.inc)
        empty: tuple[tuple[int, tuple[int, int]], ...] = ()
        land_inc: list[list[tuple[int, int, float, float]]] = []
        open_inc: list[tuple[tuple[int, tuple[int, int]], ...]] = []
        safe_inc: list[tuple[tuple[int, tuple[int, int]], ...]] = []
        for i, row in enumerate(pv.inc):
            if reuse and row is prev[i]:
                land_inc.append(prev_land[i])
                open_inc.append(prev_open[i])
                safe_inc.append(prev_safe[i])
                continue
            if not row:
                land_inc.append(row)
                open_inc.append(empty)
                safe_inc.append(empty)
                continue
            land_inc.append([t for t in row if not water[t[0]]])
            # (edge, (other end, edge)): the second is the search's key of the arrival
            pairs = tuple([(t[0], (t[1], t[0])) for t in row])
            open_inc.append(pairs)
            safe_inc.append(tuple([q for q in pairs if guard[q[0]] is None]))
        self.inc = pv.inc
        self.guard = guard
        self.water = water
        self.land_inc, self.open_inc, self.safe_inc = land_inc, open_inc, safe_inc

    def turns(self) -> dict[str, int]:
        return {p.id: p.turns for p in self.compiled.board.placements}


def view_of(compiled: CompiledBoard) -> BoardView:
    """The (cached) :class:`BoardView` of ``compiled``."""
    return compiled.derived("ringgeister.view", lambda: BoardView(compiled))
