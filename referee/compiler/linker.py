"""Re-linking the ``path`` relation under tile turns, on integers.

:class:`~referee.compiler.paths.PathNetwork` links a board from its features and
re-links a turned tile's chains incrementally; it is general (any board, any turn
count, placements moved in the editor) and it is the reference. Tree search over a
game whose tiles turn while it is played (Ringgeister) re-links thousands of times,
and there what costs is the general machinery: string node ids, a spatial hash
consulted at every socket, chains built as objects and registered by key.

:class:`TurnLinker` precomputes, once per board, everything a turn can change:

- each tile's segments at each of its turns (they are the same segments, moved:
  their ends, bearings and the world positions of their ports);
- the **sockets**: every world position any port takes at any turn, clustered
  within the snapping tolerance. A port at a turn *is* a socket number.

Linking then works on small integers: which ports sit in each socket now, which
socket is a node (a dead end or a junction, named after a port, exactly as the
reference names it), and the walks from a node along its segments through the
sockets that join exactly two segment ends. The rows it produces are those of
:meth:`CompiledBoard.path_row` on a network linked at the same turns (tested with
hypothesis against :class:`~referee.compiler.paths.PathNetwork` on boards with
through paths, frame paths, loops, junction sockets and dead ends).

Where the precomputation cannot stand in for the reference — two ports that meet
at some turns but are not within the tolerance of a third that meets one of them
(a socket that is not one cluster), or a tile whose segments differ between turns
— :class:`TurnLinker` refuses the board with :class:`LinkerUnsupported` and its
user keeps the reference network.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from ..geometry import turn_matrix
from .paths import STOP_KINDS, split_paths, tile_segments

if TYPE_CHECKING:
    from .compiled import CompiledBoard

#: walks whose chain key a linker keeps (long tree searches over many turns)
CHAINS_KEPT = 100_000
#: one row of the path view: (edge, other end, bearing leaving, bearing arriving)
Row = list[tuple[int, int, float, float]]
#: a segment end as the walk meets it: (owner, segment, reversed)
Ref = tuple[int, int, bool]


class LinkerUnsupported(Exception):
    """The board needs the general :class:`~referee.compiler.paths.PathNetwork`."""


class _Turned:
    """One owner at one turn: its segments' ends and bearings, its ports' sockets."""

    __slots__ = ("bear_a", "bear_b", "socket")

    def __init__(self, bear_a: list[float], bear_b: list[float], socket: list[int]) -> None:
        #: bearing leaving each segment's start and end
        self.bear_a = bear_a
        self.bear_b = bear_b
        #: socket of each of the owner's ports (by the owner's port number)
        self.socket = socket


class TurnLinker:
    """The path rows of a board at turns of its own, re-linked on integers.

    Parameters
    ----------
    compiled : CompiledBoard
        The board; its edge numbers (:meth:`CompiledBoard.edge_number`) are shared.
    turns : mapping of str to int
        The turn of every placement to start from (missing ones: the placement's).

    Raises
    ------
    LinkerUnsupported
        When the board needs the general network (see the module notes).

    Notes
    -----
    Construction walks every node once: O(N + S) for N nodes and S segments, plus
    O(T · P) for the ports P of every owner at each of its T turns. :meth:`turn`
    costs O(k) for the k segment ends the walks through the turned tiles' sockets
    pass, independent of the board's size.
    """

    def __init__(self, compiled: CompiledBoard, turns: Mapping[str, int]) -> None:
        self.compiled = compiled
        board = compiled.board
        tol = compiled.tol
        index = compiled.index
        #: owner names: placements in board order, then "" (the free-standing frame)
        self.owners: list[str] = [p.id for p in board.placements] + [""]
        frame = len(self.owners) - 1
        self._owner_of: dict[str, int] = {o: k for k, o in enumerate(self.owners)}
        self.turn_count: list[int] = [board.tile_of(p).turn_count for p in board.placements]
        self.turn_count.append(1)
        #: the turn each owner is linked at
        self.turns: list[int] = [
            turns.get(p.id, p.turns) % board.tile_of(p).turn_count for p in board.placements
        ]
        self.turns.append(0)
        # ---- segments, per owner (their topology is the same at every turn)
        #: segment ids as the chain keys spell them ("owner/sid", or "sid" on the frame)
        self._sid: list[list[str]] = []
        self._medium_water: list[list[bool]] = []
        self._guard: list[list[str | None]] = []
        #: far end of each segment walked forward / backward: node index (>= 0) of a
        #: stop, or -1 - port number of a port
        self._end_b: list[list[int]] = []
        self._end_a: list[list[int]] = []
        #: per owner and turn
        self._turned: list[list[_Turned]] = []
        #: ports: (owner, feature id), node index, nid; the segment ends at each
        self.port_owner: list[int] = []
        self.port_node: list[int] = []
        self.port_nid: list[str] = []
        self.port_refs: list[list[Ref]] = []
        #: ports of each owner, by the owner's port number
        self._owner_ports: list[list[int]] = []
        #: the segment ends at each stop node, and the stop nodes of each owner
        self.stop_refs: dict[int, list[Ref]] = {}
        self.owner_stops: list[list[int]] = []
        positions: list[tuple[float, float]] = []  # world xy of (port, turn) pairs
        where: list[tuple[int, int]] = []  # (port, turn) of each position
        for o, owner in enumerate(self.owners):
            self._load(o, owner, frame, tol, index, positions, where)
        # ---- sockets: every position a port takes at some turn, clustered within tol
        sock_of = self._cluster(positions, tol)
        n_sockets = max(sock_of, default=-1) + 1
        #: each port's number among its owner's ports
        self._port_j: list[int] = [0] * len(self.port_owner)
        for mine in self._owner_ports:
            for j, gp in enumerate(mine):
                self._port_j[gp] = j
        for k, (gp, t) in enumerate(where):
            self._turned[self.port_owner[gp]][t].socket[self._port_j[gp]] = sock_of[k]
        # ---- the state at self.turns
        #: ports in each socket now, sorted by nid (the reference sorts sockets so)
        self.present: list[list[int]] = [[] for _ in range(n_sockets)]
        #: the port naming each socket's node, -1 if it is none; and its kind
        self.node: list[int] = [-1] * n_sockets
        self.kind: list[str | None] = [None] * n_sockets
        self._rank = sorted(range(len(self.port_nid)), key=self.port_nid.__getitem__)
        self._rank_of = [0] * len(self._rank)
        for r, gp in enumerate(self._rank):
            self._rank_of[gp] = r
        for o in range(len(self.owners)):
            turned = self._turned[o][self.turns[o]]
            for j, gp in enumerate(self._owner_ports[o]):
                self.present[turned.socket[j]].append(gp)
        for s in range(n_sockets):
            self.present[s].sort(key=self._rank_of.__getitem__)
            self._classify(s)
        #: the socket each port node stands for, by node index (only nodes now)
        self._node_socket: dict[int, int] = {
            self.port_node[self.node[s]]: s for s in range(n_sockets) if self.node[s] >= 0
        }
        #: chain facts by the refs walked: (edge, walked in the key's direction)
        self._chains: dict[tuple[Ref, ...], tuple[int, bool]] = {}
        #: sockets each node's walks passed, and the nodes whose walks passed each socket
        self._touch: dict[int, list[int]] = {}
        self._by_socket: list[set[int]] = [set() for _ in range(n_sockets)]
        #: the current rows of the nodes that have any
        self.rows: dict[int, Row] = {}
        for i in list(self.stop_refs) + list(self._node_socket):
            self._relink_node(i)

    # ------------------------------------------------------------------ building
    def _load(
        self,
        o: int,
        owner: str,
        frame: int,
        tol: float,
        index: dict[str, int],
        positions: list[tuple[float, float]],
        where: list[tuple[int, int]],
    ) -> None:
        board = self.compiled.board
        prefix = f"{owner}/" if owner else ""
        if o == frame:
            feats = board.features
            splits = [split_paths(feats, tol)]
            offset = (0.0, 0.0)
        else:
            p = board.placements[o]
            tile = board.tile_of(p)
            feats = tile.variant(0)
            splits = [tile_segments(tile, t, tol) for t in range(tile.turn_count)]
            offset = (p.x, p.y)
        shape = [(s.sid, s.a, s.b) for s in splits[0].segments]
        for split in splits:
            if [(s.sid, s.a, s.b) for s in split.segments] != shape:
                raise LinkerUnsupported(f"the segments of {owner} differ between turns")
        stops0 = sorted(f.id for f in feats if f.kind in STOP_KINDS)
        ports0 = [f for f in feats if f.kind == "port"]
        port_no: dict[str, int] = {}
        mine: list[int] = []
        for fid in (f.id for f in ports0):
            gp = len(self.port_owner)
            nid = prefix + fid
            port_no[fid] = gp
            mine.append(gp)
            self.port_owner.append(o)
            self.port_node.append(index[nid])
            self.port_nid.append(nid)
            self.port_refs.append([])
        self._owner_ports.append(mine)
        stops = [index[prefix + fid] for fid in stops0]
        self.owner_stops.append(stops)
        for i in stops:
            self.stop_refs.setdefault(i, [])

        def end(fid: str) -> int:
            gp = port_no.get(fid)
            if gp is not None:
                return -1 - gp
            return index[prefix + fid]

        segs = splits[0].segments
        self._sid.append([prefix + s.sid for s in segs])
        self._medium_water.append([s.medium == "water" for s in segs])
        self._guard.append([s.guard for s in segs])
        self._end_b.append([end(s.b) for s in segs])
        self._end_a.append([end(s.a) for s in segs])
        for k, s in enumerate(segs):
            for fid, rev in ((s.a, False), (s.b, True)):
                e = end(fid)
                (self.port_refs[-1 - e] if e < 0 else self.stop_refs[e]).append((o, k, rev))
        turned: list[_Turned] = []
        for t, split in enumerate(splits):
            turned.append(
                _Turned(
                    [s.bear_a for s in split.segments],
                    [s.bear_b for s in split.segments],
                    [-1] * len(mine),
                )
            )
            # a port at turn t where Feature.turned puts it (the same expression as
            # turn_and_move's), then moved onto the board
            a, b, c, d = turn_matrix(t, len(splits))
            for f in ports0:
                x, y = f.geometry.x, f.geometry.y
                positions.append((a * x + b * y + 0.0 + offset[0], c * x + d * y + 0.0 + offset[1]))
                where.append((port_no[f.id], t))
        self._turned.append(turned)

    @staticmethod
    def _cluster(positions: list[tuple[float, float]], tol: float) -> list[int]:
        """Socket number of each position: positions within ``tol`` share one.

        Raises :class:`LinkerUnsupported` when a cluster is not tight (two of its
        positions farther apart than ``tol``): the reference's sockets are then not
        one set of ports. O(n) expected, with a grid of ``tol`` cells.
        """
        parent = list(range(len(positions)))

        def root(a: int) -> int:
            while parent[a] != a:
                parent[a] = parent[parent[a]]
                a = parent[a]
            return a

        cells: dict[tuple[int, int], list[int]] = {}
        tol2 = tol * tol
        for k, (x, y) in enumerate(positions):
            cx, cy = math.floor(x / tol), math.floor(y / tol)
            for i in (cx - 1, cx, cx + 1):
                for j in (cy - 1, cy, cy + 1):
                    for q in cells.get((i, j), ()):
                        qx, qy = positions[q]
                        if (qx - x) ** 2 + (qy - y) ** 2 <= tol2:
                            parent[root(k)] = root(q)
            cells.setdefault((cx, cy), []).append(k)
        number: dict[int, int] = {}
        out = [number.setdefault(root(k), len(number)) for k in range(len(positions))]
        members: dict[int, list[int]] = {}
        for k, s in enumerate(out):
            members.setdefault(s, []).append(k)
        for ks in members.values():
            for a in ks:
                ax, ay = positions[a]
                for b in ks:
                    bx, by = positions[b]
                    if (ax - bx) ** 2 + (ay - by) ** 2 > tol2:
                        raise LinkerUnsupported("ports meet in a socket wider than the tolerance")
        return out

    # ------------------------------------------------------------------ linking
    def _classify(self, s: int) -> None:
        """Name socket ``s``'s node as the reference does (dead end: the one port with a
        path; junction: the first port by id, when three or more segment ends meet)."""
        present, refs = self.present[s], self.port_refs
        ends = 0
        first_with_path = -1
        for gp in present:
            n = len(refs[gp])
            if n and first_with_path < 0:
                first_with_path = gp
            ends += n
        if ends == 1:
            self.node[s], self.kind[s] = first_with_path, "dead_end"
        elif ends >= 3:
            self.node[s], self.kind[s] = present[0], "junction"
        else:
            self.node[s], self.kind[s] = -1, None

    def _walk(self, first: Ref, refs: list[Ref], touched: list[int]) -> tuple[int, float] | None:
        """Walk a chain from its first segment end: (end node, the bearing leaving the
        end node along the chain), or None for a loop of ports closed on itself.

        Appends the segment ends walked to ``refs`` and the sockets passed to
        ``touched``.
        """
        refs.append(first)
        o, k, rev = first
        used = {(o, k)}
        while True:
            far = self._end_a[o][k] if rev else self._end_b[o][k]
            turned = self._turned[o][self.turns[o]]
            if far >= 0:
                return far, (turned.bear_a[k] if rev else turned.bear_b[k])
            gp = -1 - far
            s = turned.socket[self._port_j[gp]]
            touched.append(s)
            node = self.node[s]
            if node >= 0:
                return self.port_node[node], (turned.bear_a[k] if rev else turned.bear_b[k])
            nxt: Ref | None = None
            for q in self.present[s]:
                for r in self.port_refs[q]:
                    if (r[0], r[1]) not in used:
                        if nxt is not None:
                            return None  # two ways on: a loop of ports (see the reference)
                        nxt = r
            if nxt is None:
                return None
            o, k, rev = nxt
            used.add((o, k))
            refs.append(nxt)

    def _chain(self, refs: tuple[Ref, ...]) -> tuple[int, bool]:
        """(edge number, walked in the direction of the chain's key) of a walk."""
        hit = self._chains.get(refs)
        if hit is None:
            ids = [self._sid[o][k] for o, k, _ in refs]
            fwd, back = "|".join(ids), "|".join(reversed(ids))
            # the reference keeps a palindrome (a one-segment loop) as first walked,
            # which is from the segment's start
            forward = fwd < back or (fwd == back and not refs[0][2])
            canon = refs if forward else tuple((o, k, not r) for o, k, r in reversed(refs))
            water = any(self._medium_water[o][k] for o, k, _ in canon)
            guard = next((g for o, k, _ in canon if (g := self._guard[o][k])), None)
            e = self.compiled.edge_number("path:" + min(fwd, back), water, guard)
            if len(self._chains) >= CHAINS_KEPT:  # a cache: forget it all, numbers stay
                self._chains.clear()
            hit = self._chains[refs] = (e, forward)
        return hit

    def _leaving(self, i: int) -> Iterable[Ref]:
        s = self._node_socket.get(i)
        if s is None:
            return self.stop_refs.get(i, ())
        return [r for q in self.present[s] for r in self.port_refs[q]]

    def _relink_node(self, i: int) -> None:
        """Walk every chain leaving node ``i`` again; set its row and what it touched."""
        for s in self._touch.pop(i, ()):
            self._by_socket[s].discard(i)
        touched: list[int] = []
        s0 = self._node_socket.get(i)
        if s0 is not None:
            touched.append(s0)
        found: list[tuple[str, int, tuple[int, int, float, float]]] = []
        keys = self.compiled.path_view().keys
        for first in self._leaving(i) if (s0 is not None or i in self.stop_refs) else ():
            refs: list[Ref] = []
            walked = self._walk(first, refs, touched)
            if walked is None:
                continue
            end, bear_end = walked
            o, k, rev = first
            t = self._turned[o][self.turns[o]]
            bear = t.bear_b[k] if rev else t.bear_a[k]
            e, forward = self._chain(tuple(refs))
            found.append((keys[e], 0 if forward else 1, (e, end, bear, (bear_end + 180.0) % 360.0)))
        found.sort(key=lambda f: (f[0], f[1]))
        row = [f[2] for f in found]
        if row:
            self.rows[i] = row
        else:
            self.rows.pop(i, None)
        if touched:
            self._touch[i] = touched
            by_socket = self._by_socket
            for s in touched:
                by_socket[s].add(i)

    # ------------------------------------------------------------------ turning
    def turn(self, turns: Mapping[int, int]) -> tuple[dict[int, Row], dict[int, str | None]]:
        """Turn owners (by number) to new turns and re-link what that changes.

        Returns
        -------
        (rows, ports)
            The new row of every node whose row may have changed (an empty list: the
            node has no path now), and the kind (``"dead_end"``, ``"junction"`` or
            None) of every port whose node status may have changed, by node index.

        Notes
        -----
        O(p + w): p ports of the turned tiles, w segment ends passed by the walks of
        the nodes those tiles' sockets concern.
        """
        sockets: set[int] = set()
        affected: set[int] = set()
        turned: list[int] = []
        for o, t in turns.items():
            t %= self.turn_count[o]
            if t == self.turns[o]:
                continue
            turned.append(o)
            old, new = self._turned[o][self.turns[o]], self._turned[o][t]
            for j, gp in enumerate(self._owner_ports[o]):
                a, b = old.socket[j], new.socket[j]
                sockets.add(a)
                sockets.add(b)
                self.present[a].remove(gp)
                self.present[b].append(gp)
            self.turns[o] = t
            affected.update(self.owner_stops[o])
        ports: dict[int, str | None] = {}
        rank_of = self._rank_of.__getitem__
        for s in sockets:
            affected.update(self._by_socket[s])
            old_node = self.node[s]
            if old_node >= 0:
                i = self.port_node[old_node]
                del self._node_socket[i]
                affected.add(i)
            self.present[s].sort(key=rank_of)
            self._classify(s)
        for s in sockets:
            for gp in self.present[s]:
                ports[self.port_node[gp]] = None
            node = self.node[s]
            if node >= 0:
                i = self.port_node[node]
                self._node_socket[i] = s
                ports[i] = self.kind[s]
                affected.add(i)
        for o in turned:
            for gp in self._owner_ports[o]:
                ports.setdefault(self.port_node[gp], None)
        rows: dict[int, Row] = {}
        for i in affected:
            self._relink_node(i)
            rows[i] = self.rows.get(i, [])
        return rows, ports

    def turn_to(self, turns: Mapping[str, int]) -> tuple[dict[int, Row], dict[int, str | None]]:
        """:meth:`turn` by placement id, for every placement whose turn differs."""
        by_number = {
            o: turns[pid] % self.turn_count[o]
            for pid, o in self._owner_of.items()
            if pid in turns and turns[pid] % self.turn_count[o] != self.turns[o]
        }
        return self.turn(by_number) if by_number else ({}, {})

    def port_kinds(self) -> dict[int, str]:
        """The kind of every port that is a node now, by node index."""
        return {self.port_node[self.node[s]]: k for s, k in enumerate(self.kind) if k}


class NetworkLinker:
    """The reference behind :class:`TurnLinker`'s interface: a
    :class:`~referee.compiler.paths.PathNetwork` with turns of its own.

    For boards :class:`TurnLinker` refuses (see the module notes).

    Notes
    -----
    Construction copies the compiled board's network, O(size); :meth:`turn` costs
    what :meth:`PathNetwork.turn_many` does, plus O(k log k) per row re-read.
    """

    def __init__(self, compiled: CompiledBoard, turns: Mapping[str, int]) -> None:
        self.compiled = compiled
        placements = compiled.board.placements
        self.owners: list[str] = [p.id for p in placements]
        self.turn_count = [compiled.board.tile_of(p).turn_count for p in placements]
        now = {p.id: p.turns for p in placements}
        self._net = compiled.paths.copy(now)
        self.turns: list[int] = [now[pid] for pid in self.owners]
        self.turn(
            {
                o: turns[pid] % self.turn_count[o]
                for o, pid in enumerate(self.owners)
                if pid in turns
            }
        )

    def turn(self, turns: Mapping[int, int]) -> tuple[dict[int, Row], dict[int, str | None]]:
        """See :meth:`TurnLinker.turn`."""
        changed: dict[str, int | None] = {}
        for o, t in turns.items():
            t %= self.turn_count[o]
            if t != self.turns[o]:
                changed[self.owners[o]] = t
                self.turns[o] = t
        if not changed:
            return {}, {}
        ends: set[str] = set()
        net, compiled = self._net, self.compiled
        ports = net.turn_many(changed, ends)[2]
        index = compiled.index
        return (
            {index[nid]: compiled.path_row(net, nid) for nid in ends},
            {index[nid]: net.port_nodes.get(nid) for nid in ports},
        )

    def turn_to(self, turns: Mapping[str, int]) -> tuple[dict[int, Row], dict[int, str | None]]:
        """See :meth:`TurnLinker.turn_to`."""
        return self.turn({o: turns[pid] for o, pid in enumerate(self.owners) if pid in turns})


def linker_for(compiled: CompiledBoard, turns: Mapping[str, int]) -> TurnLinker | NetworkLinker:
    """A :class:`TurnLinker` at ``turns``, or the reference where the board needs it."""
    try:
        return TurnLinker(compiled, turns)
    except LinkerUnsupported:
        return NetworkLinker(compiled, turns)
