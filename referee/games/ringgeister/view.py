"""Integer arrays over a compiled board, for the referee's hot loops.

Built once per :class:`~referee.compiler.CompiledBoard` from its graph and its
:meth:`~referee.compiler.CompiledBoard.path_view`. :meth:`BoardView.show` makes the
arrays describe a turn configuration: it swaps in the arrays of a recently seen one
(an LRU of :data:`CONFIGS_KEPT`), so games and copies with different tile turns share
one view cheaply, or re-links what the turns change with a linker of the view's own
(:class:`~referee.compiler.linker.TurnLinker`, on integers, with turns of its own) and
re-reads the turned tiles' nodes from their per-turn variants — the compiled board itself (its
networkx graph, tracks, arrivals) is left alone until a game reads it. Node indices are
the compiled board's stable ``index``, so they survive tile turns.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping
from typing import Any

from ...compiler import CompiledBoard
from ...compiler.linker import NetworkLinker, TurnLinker, linker_for
from ...geometry import bearing_degrees

NONE, POINT, JUNCTION, DOOR, DEAD_END, OTHER = range(6)
#: turn configurations whose arrays a view keeps (about 30 kB each on the default board)
CONFIGS_KEPT = 256
#: (node, path row) pairs whose derived rows a view keeps (forgotten all at once)
ROWS_KEPT = 50_000
_KIND = {"point": POINT, "junction": JUNCTION, "door": DOOR, "dead_end": DEAD_END}


_Placed = tuple[int, float, float, float | None, float | None]
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
    list[tuple[tuple[int, int], ...]],
    list[tuple[tuple[int, int], ...]],
    list[tuple[int, ...]],
    list[tuple[int, ...]],
    list[int],
    list[int],
    dict[tuple[int, int, int, float], tuple[int, int, float, float]],
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
        #: True / False at every node (where every / no free point ends a light move)
        self.all_nodes = [True] * n
        self.no_nodes = [False] * n
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
        self.is_port = [False] * n
        for i in self.ports:
            self.is_port[i] = True
        board = compiled.board
        self.turnable: list[str] = []
        for pl in board.placements:
            tile = board.tile_of(pl)
            n_black = sum(self.black[i] for i in self.tile_points.get(pl.id, []))
            if tile.turnable and n_black >= 2:
                self.turnable.append(pl.id)
        self.turnable.sort()
        #: quarter turns a full turn takes, per placement id
        self.turn_count: dict[str, int] = {
            pl.id: board.tile_of(pl).turn_count for pl in board.placements
        }
        self.corridor = float(board.settings.get("wind_corridor_mm", 15.0))
        #: the step moves of each figure id (made on first use), by node index (None
        #: where no point): shared, immutable values
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
        #: the same rows as (edge, arrival number) pairs, for the search's hot loop
        self.open_next: list[tuple[tuple[int, int], ...]] = []
        self.safe_next: list[tuple[tuple[int, int], ...]] = []
        #: by arrival number: the arrivals a light figure may go on to from there (every
        #: path of its node but the one it came by; all of them after a gallery), over
        #: every path or those the spider does not guard (entries of arrivals no path
        #: leads to at these turns are stale and never read)
        self.open_after: list[tuple[int, ...]] = []
        self.safe_after: list[tuple[int, ...]] = []
        #: the same where it is one arrival (a point on two paths), else −1: the
        #: search's most common step, read without unpacking a tuple
        self.open_one: list[int] = []
        self.safe_one: list[int] = []
        #: a black figure's next step at these turns, by (edge arrived by, node, node
        #: come from, bearing arriving): filled as black figures walk (:mod:`.black`)
        self.black_next: dict[tuple[int, int, int, float], tuple[int, int, float, float]] = {}
        #: arrivals numbered: ``(node, edge arrived by)`` (edge −1: through a gallery
        #: door) and back; the same in every turn configuration
        self.arrival: dict[tuple[int, int], int] = {}
        self.arrival_node: list[int] = []
        self.arrival_edge: list[int] = []
        #: the arrival at each door through the gallery
        self.door_arrival: dict[int, int] = {
            d: self._arrival((d, -1)) for ds in self.doors.values() for d in ds
        }
        #: placement ids in board order: a turn configuration is a tuple in this order
        self.placement_ids: list[str] = [pl.id for pl in board.placements]
        #: the turn configuration the arrays describe
        self.key: tuple[int, ...] = ()
        #: the mapping :meth:`show` was last given (equal mappings need no key)
        self._shown: dict[str, int] = {}
        #: arrays of recently shown configurations (least recently used first)
        self.configs: OrderedDict[tuple[int, ...], _Arrays] = OrderedDict()
        #: what :meth:`_rows` and :meth:`_after` made of each (node, path row) seen
        self._row_memo: dict[tuple[int, tuple[tuple[int, int, float, float], ...]], Any] = {}
        #: the view's own linker (made on the first re-link; turns of its own)
        self._linker: TurnLinker | NetworkLinker | None = None
        #: per (placement, turns): (index, x, y, wind, heading) of the tile's nodes
        self._placed: dict[tuple[str, int], list[_Placed]] = {}
        self._xy: dict[tuple[str, int], dict[str, tuple[float, float]]] = {}
        self._frame_ports: dict[str, tuple[float, float]] | None = None
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
        between copies with different tile turns pays a dictionary lookup. Otherwise
        the view's own linker is turned to ``turns`` and what the turns change is
        re-read (:meth:`_relink`); the compiled board is not turned.

        Notes
        -----
        One dictionary comparison when ``turns`` equal those shown last (copies of one
        game); O(P) for P placements on a hit; O(w + n_tile + N) on a miss, for the w
        segment ends the linker walks through the turned tiles' sockets and N nodes
        (the arrays are copied, never changed in place).
        """
        if turns == self._shown:
            return False
        key = self.key_of(turns)
        self._shown = dict(turns)
        if key == self.key:
            return False
        hit = self.configs.get(key)
        if hit is not None:
            self.configs.move_to_end(key)
            self._install(hit)
            self.key = key
            return True
        self._relink(key)
        self.key = key
        self._remember()
        return True

    def _linking(self) -> TurnLinker | NetworkLinker:
        """The view's linker, linked at the configuration the arrays describe."""
        if self._linker is None:
            self._linker = linker_for(self.compiled, dict(zip(self.placement_ids, self.key)))
        return self._linker

    def xy_at(self, nid: str, turns: Mapping[str, int]) -> tuple[float, float]:
        """Where node ``nid`` stands with the tiles at ``turns`` (board mm), without
        turning the compiled board.

        Notes
        -----
        O(1) once the node's tile was seen at that turn (O(n_tile) the first time).
        """
        i = self.index[nid]
        pid = self.owner[i]
        if pid is None:  # a free-standing feature: tiles turning do not move it
            return self.compiled.xy(nid)
        t = turns.get(pid, self.base_turns[pid])
        at = self._xy.get((pid, t))
        if at is None:
            at = self._xy[(pid, t)] = {
                n: (d["x"], d["y"]) for n, d in self.compiled.placed_nodes(pid, t)
            }
        return at[nid]

    def _placed_nodes(self, pid: str, turns: int) -> list[_Placed]:
        """Index, position, wind and heading of the nodes of tile ``pid`` at ``turns``."""
        hit = self._placed.get((pid, turns))
        if hit is None:
            index = self.index
            hit = self._placed[(pid, turns)] = [
                (
                    index[nid],
                    d["x"],
                    d["y"],
                    bearing_degrees(d["wind"]) if d.get("wind") is not None else None,
                    bearing_degrees(d["heading"]) if d.get("heading") is not None else None,
                )
                for nid, d in self.compiled.placed_nodes(pid, turns)
            ]
        return hit

    def _relink(self, key: tuple[int, ...]) -> None:
        """Re-read what going from :attr:`key` to ``key`` changes, as new arrays.

        The linker first catches up with :attr:`key` (it stays where the last re-link
        left it while cached configurations are shown), then turns to ``key``, giving
        the nodes whose path rows change and the ports that may become or stop being
        dead ends and junctions. Rows and arrays not concerned are shared with the
        configuration shown before (never changed in place).
        """
        linker = self._linking()
        linker.turn(dict(enumerate(self.key)))
        rows, ports = linker.turn(dict(enumerate(key)))
        kind, x, y = self.kind[:], self.x[:], self.y[:]
        wind, heading = self.wind[:], self.heading[:]
        ids = self.ids
        ports_of: dict[str | None, dict[str, tuple[float, float]]] = {}
        for pid, a, b in zip(self.placement_ids, self.key, key):
            if a == b:
                continue
            xy = ports_of[pid] = {}
            for i, px, py, w, h in self._placed_nodes(pid, b):
                if self.is_port[i]:
                    xy[ids[i]] = (px, py)  # read below: its ports are among ``ports``
                else:
                    x[i], y[i], wind[i], heading[i] = px, py, w, h
        for i, k in ports.items():
            if k is None:  # a port that is no node at these turns
                kind[i] = self.static_kind[i]
                x[i] = y[i] = 0.0
                continue
            kind[i] = _KIND.get(k, NONE)
            o = self.owner[i]
            if o not in ports_of:
                ports_of[o] = self._port_xy(o, key)
            x[i], y[i] = ports_of[o][ids[i]]
        inc = self.inc[:]
        land_inc, open_inc, safe_inc = self.land_inc[:], self.open_inc[:], self.safe_inc[:]
        open_next, safe_next = self.open_next[:], self.safe_next[:]
        open_after, safe_after = self.open_after[:], self.safe_after[:]
        open_one, safe_one = self.open_one[:], self.safe_one[:]
        pv = self.compiled.path_view()
        water, guard = pv.water, pv.guard
        memo = self._row_memo
        if len(memo) > ROWS_KEPT:
            memo.clear()
        for i, row in rows.items():
            inc[i] = row
            # a node's row comes back whenever its neighbourhood is turned back
            seen = (i, tuple(row))
            hit = memo.get(seen)
            if hit is None:
                parts = self._rows(row, water, guard)
                hit = memo[seen] = (parts, self._after(i, row, parts[3], parts[4]))
            land_inc[i], open_inc[i], safe_inc[i], open_next[i], safe_next[i] = hit[0]
            self._set_after(hit[1], open_after, safe_after, open_one, safe_one)
        self.kind, self.x, self.y, self.wind, self.heading = kind, x, y, wind, heading
        self.inc, self.guard, self.water = inc, guard, water
        self.land_inc, self.open_inc, self.safe_inc = land_inc, open_inc, safe_inc
        self.open_next, self.safe_next = open_next, safe_next
        self.open_after, self.safe_after = open_after, safe_after
        self.open_one, self.safe_one = open_one, safe_one
        self.black_next = {}

    def _port_xy(self, owner: str | None, key: tuple[int, ...]) -> dict[str, tuple[float, float]]:
        """World positions of the ports of ``owner`` (a placement, or None) at ``key``."""
        if owner is None:  # free-standing ports never move
            if self._frame_ports is None:
                self._frame_ports = {
                    nid: (round(f.geometry.x, 6), round(f.geometry.y, 6))
                    for nid, (o, f) in self.compiled.features.items()
                    if o is None and f.kind == "port"
                }
            return self._frame_ports
        turns = key[self.placement_ids.index(owner)]
        return {self.ids[i]: (px, py) for i, px, py, _, _ in self._placed_nodes(owner, turns)}

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
            self.open_next,
            self.safe_next,
            self.open_after,
            self.safe_after,
            self.open_one,
            self.safe_one,
            self.black_next,
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
            self.open_next,
            self.safe_next,
            self.open_after,
            self.safe_after,
            self.open_one,
            self.safe_one,
            self.black_next,
        ) = arrays

    def refresh(self) -> None:
        """Read the arrays from the compiled board at the turns it carries.

        Notes
        -----
        O(N + E).
        """
        nodes = self.compiled.graph.nodes
        n = self.n
        ids, kind = self.ids, list(self.static_kind)
        x, y = [0.0] * n, [0.0] * n
        wind: list[float | None] = [None] * n
        heading: list[float | None] = [None] * n
        for i in range(n):
            nid = ids[i]
            if nid not in nodes:  # a port that is no node at these turns
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
        #: light figures over every path or only those the spider does not guard
        land_inc: list[list[tuple[int, int, float, float]]] = []
        open_inc: list[tuple[tuple[int, tuple[int, int]], ...]] = []
        safe_inc: list[tuple[tuple[int, tuple[int, int]], ...]] = []
        open_next: list[tuple[tuple[int, int], ...]] = []
        safe_next: list[tuple[tuple[int, int], ...]] = []
        open_after: list[tuple[int, ...]] = []
        safe_after: list[tuple[int, ...]] = []
        open_one: list[int] = []
        safe_one: list[int] = []
        for i, row in enumerate(pv.inc):
            land, open_, safe, onext, snext = self._rows(row, water, guard)
            land_inc.append(land)
            open_inc.append(open_)
            safe_inc.append(safe)
            open_next.append(onext)
            safe_next.append(snext)
            self._set_after(
                self._after(i, row, onext, snext), open_after, safe_after, open_one, safe_one
            )
        self.kind, self.x, self.y, self.wind, self.heading = kind, x, y, wind, heading
        self.inc = pv.inc
        self.guard = guard
        self.water = water
        self.land_inc, self.open_inc, self.safe_inc = land_inc, open_inc, safe_inc
        self.open_next, self.safe_next = open_next, safe_next
        self.open_after, self.safe_after = open_after, safe_after
        self.open_one, self.safe_one = open_one, safe_one
        self.black_next = {}

    def _arrival(self, key: tuple[int, int]) -> int:
        """The number of arrival ``key`` = ``(node, edge)`` (numbered on first sight)."""
        a = self.arrival.get(key)
        if a is None:
            a = self.arrival[key] = len(self.arrival_node)
            self.arrival_node.append(key[0])
            self.arrival_edge.append(key[1])
        return a

    def _after(
        self,
        i: int,
        row: list[tuple[int, int, float, float]],
        open_next: tuple[tuple[int, int], ...],
        safe_next: tuple[tuple[int, int], ...],
    ) -> list[tuple[int, tuple[int, ...], tuple[int, ...]]]:
        """The arrivals that may follow each arrival at node ``i`` (``row``): one
        ``(arrival, over every path, over the paths the spider does not guard)`` each."""
        came = [(self._arrival((i, t[0])), t[0]) for t in row]
        door = self.door_arrival.get(i)
        if door is not None:
            came.append((door, -1))
        return [
            (
                a,
                tuple([k for e, k in open_next if e != e_in]),
                tuple([k for e, k in safe_next if e != e_in]),
            )
            for a, e_in in came
        ]

    @staticmethod
    def _set_after(
        entries: list[tuple[int, tuple[int, ...], tuple[int, ...]]],
        open_after: list[tuple[int, ...]],
        safe_after: list[tuple[int, ...]],
        open_one: list[int],
        safe_one: list[int],
    ) -> None:
        for a, o, s in entries:
            if a >= len(open_after):
                grow = a + 1 - len(open_after)
                open_after.extend([()] * grow)
                safe_after.extend([()] * grow)
                open_one.extend([-1] * grow)
                safe_one.extend([-1] * grow)
            open_after[a] = o
            safe_after[a] = s
            open_one[a] = o[0] if len(o) == 1 else -1
            safe_one[a] = s[0] if len(s) == 1 else -1

    def _rows(
        self,
        row: list[tuple[int, int, float, float]],
        water: list[bool],
        guard: list[str | None],
    ) -> tuple[
        list[tuple[int, int, float, float]],
        tuple[tuple[int, tuple[int, int]], ...],
        tuple[tuple[int, tuple[int, int]], ...],
        tuple[tuple[int, int], ...],
        tuple[tuple[int, int], ...],
    ]:
        """A path row's land paths (black figures), and ``(edge, (other end, edge))``
        pairs over every path and over those the spider does not guard (light figures),
        the last two also as ``(edge, arrival number)``."""
        if not row:
            return row, (), (), (), ()
        # (edge, (other end, edge)): the second is the arrival the search queues
        pairs = tuple([(t[0], (t[1], t[0])) for t in row])
        safe = tuple([q for q in pairs if guard[q[0]] is None])
        arrival = self._arrival
        return (
            [t for t in row if not water[t[0]]],
            pairs,
            safe,
            tuple([(e, arrival(k)) for e, k in pairs]),
            tuple([(e, arrival(k)) for e, k in safe]),
        )


def view_of(compiled: CompiledBoard) -> BoardView:
    """The (cached) :class:`BoardView` of ``compiled``."""
    return compiled.derived("ringgeister.view", lambda: BoardView(compiled))
