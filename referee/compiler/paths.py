"""The ``path`` relation: points, junctions and doors joined by paths across tiles.

Each path line is split at every point, junction, door and port lying on it
(within the snapping tolerance) into *segments*; this is done once per tile and
turn (the per-turn variants are cached on the tile asset). Ports of different
owners (tiles, or the free-standing frame) that sit at the same world position
form a *socket*. A ``path`` edge is a *chain* of segments walked from a stop node
(point, junction, door) through sockets that join exactly two segment ends, to
the next stop node. A socket that ends one segment is a dead end; one that joins
three or more is a junction; both become nodes named after a port.

Turning one tile (:meth:`PathNetwork.turn`) re-links only the chains through that
tile's sockets; the result equals a full compile (tested with hypothesis).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import numpy as np
import shapely
from shapely.ops import substring

from ..geometry import line_end_bearings, turn_matrix
from ..model import Board, Feature, TileAsset
from .problems import Problem

STOP_KINDS = ("point", "junction", "door")
SPLIT_KINDS = ("point", "junction", "door", "port")


@dataclass(frozen=True)
class Segment:
    """A piece of a path between two features of one owner, in the owner's frame."""

    sid: str  # "<path id>#<k>": stable across turns
    a: str  # feature id at the start
    b: str  # feature id at the end
    coords: tuple[tuple[float, float], ...]
    medium: str
    guard: str | None
    bear_a: float  # bearing leaving a along the segment
    bear_b: float  # bearing leaving b along the segment
    length: float


@dataclass
class _Split:
    segments: list[Segment]
    open_ends: list[tuple[str, tuple[float, float]]]  # (path id, local xy)


def split_paths(features: list[Feature], tol: float) -> _Split:
    """Split every path of one owner at the point-like features lying on it.

    Notes
    -----
    One vectorized ``STRtree.query(..., predicate="dwithin")`` finds the features
    on each path, so the cost is O((P + F) log F) for P paths and F features.
    """
    splitters = [f for f in features if f.kind in SPLIT_KINDS]
    paths = [f for f in features if f.kind == "path"]
    out = _Split([], [])
    if not paths:
        return out
    pts = np.array([s.geometry for s in splitters], dtype=object)
    tree = shapely.STRtree(pts) if len(pts) else None
    on_path: dict[int, list[int]] = defaultdict(list)
    if tree is not None:
        pi, si = tree.query(
            np.array([p.geometry for p in paths], dtype=object), predicate="dwithin", distance=tol
        )
        for a, b in zip(pi.tolist(), si.tolist()):
            on_path[a].append(b)
    for k, path in enumerate(paths):
        line = path.geometry
        length = line.length
        end = shapely.Point(line.coords[-1])
        found = []
        for i in on_path[k]:
            g = splitters[i].geometry
            found.append((line.project(g), splitters[i].id))
            # a closed or lollipop path returns to a feature it already passed: project()
            # gives the first passage only, so add the end explicitly
            if g.distance(end) <= tol and found[-1][0] < length - tol:
                found.append((length, splitters[i].id))
        stops = sorted(found, key=lambda t: (t[0], t[1]))
        # collapse features at the same spot (keep the first by id)
        dedup: list[tuple[float, str]] = []
        for d, fid in stops:
            if dedup and abs(d - dedup[-1][0]) <= tol:
                continue
            dedup.append((d, fid))
        start = shapely.Point(line.coords[0])
        if not dedup or dedup[0][0] > tol:
            out.open_ends.append((path.id, (start.x, start.y)))
        if not dedup or dedup[-1][0] < length - tol:
            out.open_ends.append((path.id, (end.x, end.y)))
        medium = str(path.props.get("medium") or "land")
        guard = path.props.get("guard")
        for j in range(len(dedup) - 1):
            (d0, fa), (d1, fb) = dedup[j], dedup[j + 1]
            piece = substring(line, d0, d1)
            coords = tuple((float(x), float(y)) for x, y in piece.coords)
            if len(coords) < 2 or piece.length <= 0:
                continue
            ba, bb = line_end_bearings(coords)
            out.segments.append(
                Segment(
                    f"{path.id}#{j}",
                    fa,
                    fb,
                    coords,
                    medium,
                    guard,
                    round(ba, 6),
                    round(bb, 6),
                    piece.length,
                )
            )
    return out


def tile_segments(tile: TileAsset, turns: int, tol: float) -> _Split:
    """Segments of one tile at one turn, cached on the tile asset."""
    t = turns % tile.turn_count
    key = ("segments", t, tol)
    cache = tile.cache
    hit: _Split | None = cache.get(key)
    if hit is None:
        if t and tile.turn_count == 4:
            hit = _quarter_turned(tile_segments(tile, 0, tol), t)
        else:
            hit = split_paths(tile.variant(turns), tol)
        cache[key] = hit
    return hit


def _quarter_turned(base: _Split, turns: int) -> _Split:
    """The split of a tile at a quarter turn, from its split at turn 0.

    The matrix of a quarter turn is exact (entries 0 and ±1) and is applied with
    the very expression :func:`~referee.geometry.turn_and_move` uses, so every
    coordinate is bit for bit what splitting the turned features gives: splitting
    only measures distances and interpolates along segments, which a swap and a
    change of sign leave exact. Bearings are recomputed from the turned coordinates
    as :func:`split_paths` does (so they round exactly as before); lengths are kept.
    """
    a, b, c, d = turn_matrix(turns, 4)

    def rot(x: float, y: float) -> tuple[float, float]:
        return (a * x + b * y + 0.0, c * x + d * y + 0.0)

    segments = []
    for sg in base.segments:
        coords = tuple(rot(x, y) for x, y in sg.coords)
        ba, bb = line_end_bearings(coords)
        segments.append(
            Segment(
                sg.sid,
                sg.a,
                sg.b,
                coords,
                sg.medium,
                sg.guard,
                round(ba, 6),
                round(bb, 6),
                sg.length,
            )
        )
    return _Split(segments, [(pid, rot(x, y)) for pid, (x, y) in base.open_ends])


@dataclass
class _Owner:
    offset: tuple[float, float]
    stops: dict[str, Feature]  # fid -> feature (local frame)
    ports: dict[str, tuple[float, float]]  # fid -> world xy
    split: _Split


@dataclass
class Chain:
    """One ``path`` edge: endpoints, bearings leaving each end, and what it runs through."""

    key: str
    u: str
    v: str
    bear_u: float
    bear_v: float
    medium: str
    guard: str | None
    length: float
    owners: tuple[str, ...]
    via: tuple[str, ...]
    seg_refs: tuple[tuple[str, int, bool], ...]  # (owner, segment index, reversed)


class PathNetwork:
    """Segments, sockets and chains of a board; incremental under tile turns.

    A network follows the placements' ``turns`` (the compiled board's), or, made with
    ``turns``, keeps turns of its own: then it links the board at other turns than the
    placements carry (a game's view of the board, see ``turn(owner, turns)``).
    """

    def __init__(
        self, board: Board, tol: float = 1.0, turns: Mapping[str, int] | None = None
    ) -> None:
        self.board = board
        self.tol = tol
        #: the network's own turns by placement id (None: the placements' turns)
        self.turns: dict[str, int] | None = dict(turns) if turns is not None else None
        self.owners: dict[str, _Owner] = {}
        self.cells: dict[tuple[int, int], set[str]] = defaultdict(set)
        self.port_xy: dict[str, tuple[float, float]] = {}
        self.seg_at: dict[str, list[tuple[str, int, bool]]] = defaultdict(list)
        self.chains: dict[str, Chain] = {}
        #: chain keys by the owners they run through and by their end nodes
        self._by_owner: dict[str, set[str]] = defaultdict(set)
        self._by_end: dict[str, set[str]] = defaultdict(set)
        self.port_nodes: dict[str, str] = {}  # port nid -> "dead_end" | "junction"
        self.socket_problems: dict[str, list[Problem]] = {}
        for p in board.placements:
            self._load_owner(p.id)
        self._load_owner("")
        self._relink(set(self.port_xy), set(self.chains_start_nodes()))

    def copy(self, turns: Mapping[str, int] | None = None) -> PathNetwork:
        """An independent copy (O(size), no re-linking); with ``turns``, the copy keeps
        turns of its own, starting from ``turns`` (which must be those it links now).
        """
        net = object.__new__(PathNetwork)
        net.board, net.tol = self.board, self.tol
        net.turns = dict(turns) if turns is not None else None
        net.owners = dict(self.owners)  # _Owner values are replaced, never changed
        net.cells = defaultdict(set, {k: set(v) for k, v in self.cells.items()})
        net.port_xy = dict(self.port_xy)
        net.seg_at = defaultdict(list, {k: list(v) for k, v in self.seg_at.items()})
        net.chains = dict(self.chains)
        net._by_owner = defaultdict(set, {k: set(v) for k, v in self._by_owner.items()})
        net._by_end = defaultdict(set, {k: set(v) for k, v in self._by_end.items()})
        net.port_nodes = dict(self.port_nodes)
        net.socket_problems = dict(self.socket_problems)
        return net

    # ------------------------------------------------------------------ owners
    @staticmethod
    def nid(owner: str, fid: str) -> str:
        return f"{owner}/{fid}" if owner else fid

    def _load_owner(self, owner: str) -> None:
        if owner:
            p = self.board.placement(owner)
            tile = self.board.tile_of(p)
            t = p.turns if self.turns is None else self.turns.get(owner, p.turns)
            feats = tile.variant(t)
            split = tile_segments(tile, t, self.tol)
            off = (p.x, p.y)
        else:
            feats = self.board.features
            split = split_paths(feats, self.tol)
            off = (0.0, 0.0)
        stops = {f.id: f for f in feats if f.kind in STOP_KINDS}
        ports = {}
        for f in feats:
            if f.kind == "port":
                ports[f.id] = (f.geometry.x + off[0], f.geometry.y + off[1])
        o = _Owner(off, stops, ports, split)
        self.owners[owner] = o
        for fid, xy in ports.items():
            nid = self.nid(owner, fid)
            self.port_xy[nid] = xy
            self.cells[self._cell(xy)].add(nid)
        for i, s in enumerate(split.segments):
            self.seg_at[self.nid(owner, s.a)].append((owner, i, False))
            self.seg_at[self.nid(owner, s.b)].append((owner, i, True))

    def _unload_owner(self, owner: str) -> None:
        o = self.owners.pop(owner)
        for fid, xy in o.ports.items():
            nid = self.nid(owner, fid)
            self.cells[self._cell(xy)].discard(nid)
            del self.port_xy[nid]
        for s in o.split.segments:
            for fid in (s.a, s.b):
                nid = self.nid(owner, fid)
                self.seg_at[nid] = [r for r in self.seg_at[nid] if r[0] != owner]

    def _cell(self, xy: tuple[float, float]) -> tuple[int, int]:
        return (math.floor(xy[0] / self.tol), math.floor(xy[1] / self.tol))

    def socket(self, port: str) -> list[str]:
        """Every port within the tolerance of ``port`` (itself included), sorted."""
        x, y = self.port_xy[port]
        cx, cy = self._cell((x, y))
        out = []
        for i in (cx - 1, cx, cx + 1):
            for j in (cy - 1, cy, cy + 1):
                for q in self.cells.get((i, j), ()):
                    qx, qy = self.port_xy[q]
                    if (qx - x) ** 2 + (qy - y) ** 2 <= self.tol**2:
                        out.append(q)
        return sorted(out)

    def chains_start_nodes(self) -> Iterable[str]:
        for owner, o in self.owners.items():
            for fid in o.stops:
                yield self.nid(owner, fid)

    def ends_at(self, nid: str) -> set[str]:
        """Keys of the chains with an end at node ``nid``."""
        return self._by_end.get(nid, set())

    def segment(self, ref: tuple[str, int, bool]) -> Segment:
        return self.owners[ref[0]].split.segments[ref[1]]

    def world_coords(self, ref: tuple[str, int, bool]) -> list[tuple[float, float]]:
        s = self.segment(ref)
        ox, oy = self.owners[ref[0]].offset
        pts = [(x + ox, y + oy) for x, y in s.coords]
        return pts[::-1] if ref[2] else pts

    # ------------------------------------------------------------------ linking
    def _classify(self, ports: set[str]) -> None:
        """Decide which ports are nodes (dead end / junction) and note their problems."""
        seen: set[str] = set()
        for p in sorted(ports):
            if p not in self.port_xy or p in seen:
                continue
            sock = self.socket(p)
            seen.update(sock)
            for q in sock:
                self.port_nodes.pop(q, None)
                self.socket_problems.pop(q, None)
            ends = sum(len(self.seg_at.get(q, ())) for q in sock)
            probs: list[Problem] = []
            with_path = [q for q in sock if self.seg_at.get(q)]
            if ends == 1:
                self.port_nodes[with_path[0]] = "dead_end"
            elif ends >= 3:
                self.port_nodes[sock[0]] = "junction"
            if with_path and len(sock) == 1 and ends == 1:
                probs.append(
                    Problem.make(
                        "dead_end",
                        "a path ends at a port that faces no other port",
                        with_path[0],
                        self.port_xy[with_path[0]],
                    )
                )
            for q in sock:
                if not self.seg_at.get(q) and with_path:
                    probs.append(
                        Problem.make(
                            "port_without_path",
                            f"the path at {with_path[0]} meets port {q}, which has no path",
                            q,
                            self.port_xy[q],
                        )
                    )
            if probs:
                self.socket_problems[sock[0]] = probs

    def _walk(self, start: str, first: tuple[str, int, bool]) -> Chain | None:
        refs = [first]
        via: list[str] = []
        used = {(first[0], first[1])}
        seg = self.segment(first)
        cur = self.nid(first[0], seg.a if first[2] else seg.b)
        end_node = cur
        while True:
            if cur not in self.port_xy:
                end_node = cur
                break
            sock = self.socket(cur)
            node = next((q for q in sock if q in self.port_nodes), None)
            if node is not None:
                end_node = node
                break
            conts = [r for q in sock for r in self.seg_at.get(q, ()) if (r[0], r[1]) not in used]
            via.append(cur)
            if len(conts) != 1:
                # classification makes every port with 0 or >=2 continuations a node;
                # reaching here means a loop of ports closed on itself
                return None
            nxt = conts[0]
            used.add((nxt[0], nxt[1]))
            refs.append(nxt)
            s = self.segment(nxt)
            cur = self.nid(nxt[0], s.a if nxt[2] else s.b)
        first_seg, last_seg = self.segment(refs[0]), self.segment(refs[-1])
        bear_u = first_seg.bear_b if refs[0][2] else first_seg.bear_a
        bear_v = last_seg.bear_a if refs[-1][2] else last_seg.bear_b
        ids = [
            f"{o}/{self.segment((o, i, r)).sid}" if o else self.segment((o, i, r)).sid
            for o, i, r in refs
        ]
        fwd, back = "|".join(ids), "|".join(reversed(ids))
        if back < fwd:
            # canonical direction: store the chain as walked from the other end
            refs = [(o, i, not r) for o, i, r in reversed(refs)]
            start, end_node = end_node, start
            bear_u, bear_v = bear_v, bear_u
            via.reverse()
            fwd = back
        segs = [self.segment(r) for r in refs]
        medium = "water" if any(s.medium == "water" for s in segs) else "land"
        guard = next((s.guard for s in segs if s.guard), None)
        owners = tuple(sorted({r[0] for r in refs}))
        return Chain(
            "path:" + fwd,
            start,
            end_node,
            bear_u,
            bear_v,
            medium,
            guard,
            round(sum(s.length for s in segs), 6),
            owners,
            tuple(via),
            tuple(refs),
        )

    def _relink(self, ports: set[str], starts: set[str]) -> set[str]:
        """Classify ``ports`` and walk the chains leaving ``starts``; returns keys added."""
        self._classify(ports)
        starts = set(starts) | {p for p in ports if p in self.port_nodes}
        added: set[str] = set()
        chains = self.chains
        for s in sorted(starts):
            # the first segments of the chains known to leave s: walking them again
            # would find those chains (a walk depends only on what it passes)
            known = set()
            for k in self._by_end.get(s, ()):
                c = chains[k]
                if c.u == s:
                    known.add(c.seg_refs[0])
                if c.v == s:
                    o, i, r = c.seg_refs[-1]
                    known.add((o, i, not r))
            leaving = [
                r
                for q in (self.socket(s) if s in self.port_xy else [s])
                for r in self.seg_at.get(q, ())
                if r not in known
            ]
            for ref in leaving:
                ch = self._walk(s, ref)
                if ch is not None and ch.key not in self.chains:
                    self.chains[ch.key] = ch
                    for o in ch.owners:
                        self._by_owner[o].add(ch.key)
                    self._by_end[ch.u].add(ch.key)
                    self._by_end[ch.v].add(ch.key)
                    added.add(ch.key)
        return added

    def turn(
        self, owner: str, turns: int | None = None, ends: set[str] | None = None
    ) -> tuple[set[str], set[str], set[str]]:
        """Re-link after the placement ``owner`` changed turn (board already updated).

        A network with turns of its own is told the new turn in ``turns``. With
        ``ends``, the end nodes of the chains removed and added are added to it (the
        nodes whose incidence changed).

        Returns
        -------
        (removed chain keys, added chain keys, ports whose node status may have
        changed). A key may be in both when a chain was rebuilt unchanged.

        Notes
        -----
        Cost is proportional to the chains through the tile and its sockets, not to
        the board: O(k) with k the chains touched.
        """
        return self.turn_many({owner: turns}, ends)

    def turn_many(
        self, turns: Mapping[str, int | None], ends: set[str] | None = None
    ) -> tuple[set[str], set[str], set[str]]:
        """:meth:`turn` for several placements at once (a storm): one re-link.

        ``turns`` maps placement ids to their new turn (None: the placement's, for a
        network that follows the placements).
        """
        for owner, t in turns.items():
            if t is not None:
                if self.turns is None:
                    raise ValueError("this network follows the placements' turns")
                self.turns[owner] = t
        old_ports = {self.nid(o, f) for o in turns for f in self.owners[o].ports}
        affected: set[str] = set()
        for p in old_ports:
            affected.update(self.socket(p))
        for owner in turns:
            self._unload_owner(owner)
            self._load_owner(owner)
        for p in old_ports:
            affected.update(self.socket(p))
        removed: set[str] = set()
        for owner in turns:
            removed.update(self._by_owner.get(owner, ()))
        for a in affected:
            removed.update(self._by_end.get(a, ()))
        starts: set[str] = set()
        for k in removed:
            c = self.chains.pop(k)
            for o in c.owners:
                self._by_owner[o].discard(k)
            self._by_end[c.u].discard(k)
            self._by_end[c.v].discard(k)
            starts.update((c.u, c.v))
        if ends is not None:
            ends.update(starts)
        for owner in turns:
            starts.update(self.nid(owner, f) for f in self.owners[owner].stops)
        starts = {s for s in starts if s not in affected}
        added = self._relink(affected, starts)
        if ends is not None:
            for k in added:
                c = self.chains[k]
                ends.update((c.u, c.v))
        return removed, added, affected

    # ------------------------------------------------------------------ problems
    def problems(self) -> list[Problem]:
        out: list[Problem] = []
        for owner, o in self.owners.items():
            for pid, (x, y) in o.split.open_ends:
                nid = self.nid(owner, pid)
                out.append(
                    Problem.make(
                        "path_end_open",
                        "path end reaches no point, junction, door or port",
                        nid,
                        (x + o.offset[0], y + o.offset[1]),
                    )
                )
        for probs in self.socket_problems.values():
            out.extend(probs)
        return out
