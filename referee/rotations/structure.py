"""From a compiled board to the connectivity problem the rotation analysis solves.

Light figures move along ``path`` edges ignoring figures (rulings 2 and 5): water
paths count, the spider-guarded path is open or closed, and with a gallery symbol
every door of that symbol is joined to the others. Only *which places are joined*
matters, so every owner (a placed tile at one turn, or the free-standing features)
is reduced to its **local connectivity**: the partition of its ports (by world
position, i.e. by *socket*) and its stop nodes into classes joined by its own path
segments (:func:`referee.compiler.paths.tile_segments`, the same segments the
compiler chains).

Everything that does not turn — fixed tiles, turnable tiles that were not
selected (at their current turn), free-standing features — is merged into one
static union-find; each of its classes becomes one *vertex*. Three kinds of
virtual vertex are added: ``SRC`` (every ``from`` node is joined to it), one per
``to`` node, and ``GAL`` (every door of the open gallery symbol). A selected tile
at a turn is then a list of *hyperedges*: each of its local classes joins the
vertices it touches and carries the number of ``point`` nodes inside it.

Turn classes (symmetry): two turns of a tile are the same configuration when the
tile's local partition — which sockets and which stop nodes (by their stable ids)
are joined — is identical. A straight path through a point from the N to the S
port looks the same after a half turn, so that tile has two classes; a tile whose
four ports all meet at one junction has one. Only one turn per class is counted.

Notes
-----
Building the problem costs O(T · F log F) for T owner-turns with F features each
(the segment split is cached per tile and turn by the compiler), plus a union-find
over all labels, nearly linear.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..compiler.paths import STOP_KINDS, split_paths, tile_segments
from ..errors import UnknownNodeError, UsageError
from ..model import Board

#: Label of the virtual vertex every ``from`` node joins.
SRC = ("special", "from")
GAL = ("special", "gallery")


def _target_label(k: int) -> tuple[str, str]:
    return ("special", f"to{k}")


@dataclass
class TurnClass:
    """Turns of one tile that give the same local connectivity."""

    turns: tuple[int, ...]
    #: (vertex ids, points inside) per local class that touches a vertex
    hyperedges: tuple[tuple[tuple[int, ...], int], ...]


@dataclass
class TileVar:
    """One selected (turning) tile."""

    placement: str
    x: float
    y: float
    turn_count: int
    current: int
    classes: list[TurnClass]

    @property
    def symmetry(self) -> list[list[int]]:
        return [list(c.turns) for c in self.classes]

    def class_of(self, turns: int) -> int:
        t = turns % self.turn_count
        for i, c in enumerate(self.classes):
            if t in c.turns:
                return i
        raise ValueError(t)


@dataclass
class Problem:
    """Hypergraph connectivity problem: pick one turn class per tile.

    Attributes
    ----------
    n_vertices : int
    weight : list of int
        ``point`` nodes inside each vertex (static class).
    src : int
        The vertex of the ``from`` nodes.
    targets : list of int
        Vertices of the ``to`` nodes not statically joined to ``src`` (order of ``to``).
    tiles : list of TileVar
    sources, to_nodes : list of str
        The node ids used.
    galleries, spider : options used.
    """

    n_vertices: int
    weight: list[int]
    src: int
    targets: list[int]
    tiles: list[TileVar]
    sources: list[str]
    to_nodes: list[str]
    galleries: str | None
    spider: str
    vertex_names: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def total(self) -> int:
        """Number of distinct configurations (product of the turn class counts)."""
        out = 1
        for t in self.tiles:
            out *= len(t.classes)
        return out

    def evaluate(self, choice: Sequence[int]) -> tuple[bool, int]:
        """(every target reached, reachable points) for one class index per tile.

        A plain union-find; the reference the fast methods are tested against.
        """
        parent = list(range(self.n_vertices))

        def find(a: int) -> int:
            while parent[a] != a:
                parent[a] = parent[parent[a]]
                a = parent[a]
            return a

        for tv, c in zip(self.tiles, choice):
            for vs, _ in tv.classes[c].hyperedges:
                r0 = find(vs[0])
                for v in vs[1:]:
                    r = find(v)
                    if r != r0:
                        parent[r] = r0
        s = find(self.src)
        ok = all(find(t) == s for t in self.targets)
        pts = sum(w for v, w in enumerate(self.weight) if w and find(v) == s)
        for tv, c in zip(self.tiles, choice):
            for vs, w in tv.classes[c].hyperedges:
                if w and find(vs[0]) == s:
                    pts += w
        return ok, pts

    def turns_of(self, choice: Sequence[int]) -> dict[str, int]:
        """Placement id -> turns (the current turn if it is in the chosen class, else the
        class's first turn)."""
        out = {}
        for tv, c in zip(self.tiles, choice):
            ts = tv.classes[c].turns
            out[tv.placement] = tv.current if tv.current in ts else ts[0]
        return out


class _UF:
    def __init__(self) -> None:
        self.parent: dict[Any, Any] = {}

    def find(self, a: Any) -> Any:
        p = self.parent
        if a not in p:
            p[a] = a
            return a
        root = a
        while p[root] != root:
            root = p[root]
        while p[a] != root:
            p[a], a = root, p[a]
        return root

    def union(self, a: Any, b: Any) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            if repr(rb) < repr(ra):
                ra, rb = rb, ra
            self.parent[rb] = ra


def _resolve_nodes(board: Board, compiled: Any, names: Iterable[str], what: str) -> list[str]:
    out = []
    for n in names:
        n = n.strip()
        if not n:
            continue
        feat = compiled.features.get(n)
        if feat is None:
            raise UnknownNodeError(f"{what} node {n!r} is not on the board", location=n)
        if feat[1].kind not in STOP_KINDS:
            raise UsageError(
                f"{what} node {n!r} is a {feat[1].kind}, not a point, junction or door"
            )
        out.append(n)
    return out


def select_tiles(board: Board, tiles: str | Sequence[str] | None) -> list[str]:
    """Placement ids of the tiles to vary: ``"turnable"`` (default) or explicit ids."""
    if tiles is None or tiles == "turnable":
        return [p.id for p in board.placements if board.tile_of(p).turnable]
    ids = [t.strip() for t in (tiles.split(",") if isinstance(tiles, str) else tiles) if t.strip()]
    known = {p.id for p in board.placements}
    for t in ids:
        if t not in known:
            raise UnknownNodeError(f"no tile placed as {t!r}", code="unknown_tile", location=t)
    if len(set(ids)) != len(ids):
        raise UsageError("a tile is named twice in --tiles")
    return ids


def _owner_local(
    board: Board,
    owner: str,
    turns: int,
    tol: float,
    spider: str,
    galleries: str | None,
    sock_of: dict[tuple[str, int, str], int],
    sources: set[str],
    targets: dict[str, int],
) -> tuple[_UF, set[Any], set[Any]]:
    """Union-find of one owner at one turn; returns (uf, labels, point labels)."""
    if owner:
        p = board.placement(owner)
        tile = board.tile_of(p)
        feats = tile.variant(turns)
        split = tile_segments(tile, turns, tol)
    else:
        feats = board.features
        split = split_paths(feats, tol)
    kinds = {f.id: f for f in feats}

    def label(fid: str) -> Any:
        f = kinds[fid]
        if f.kind == "port":
            return ("socket", sock_of[(owner, turns, fid)])
        return ("node", f"{owner}/{fid}" if owner else fid)

    uf = _UF()
    labels: set[Any] = set()
    points: set[Any] = set()
    for f in feats:
        if f.kind in STOP_KINDS:
            lab = label(f.id)
            labels.add(lab)
            uf.find(lab)
            nid = lab[1]
            if f.kind == "point":
                points.add(lab)
            if nid in sources:
                uf.union(lab, SRC)
            if nid in targets:
                uf.union(lab, _target_label(targets[nid]))
            if galleries and f.kind == "door" and f.props.get("symbol") == galleries:
                uf.union(lab, GAL)
    for s in split.segments:
        if spider == "closed" and s.guard == "spider":
            continue
        a, b = label(s.a), label(s.b)
        labels.update((a, b))
        uf.union(a, b)
    return uf, labels, points


def _blocks(uf: _UF, labels: set[Any], points: set[Any]) -> list[tuple[frozenset[Any], int]]:
    groups: dict[Any, set[Any]] = defaultdict(set)
    for lab in set(uf.parent):
        groups[uf.find(lab)].add(lab)
    out = []
    for members in groups.values():
        out.append((frozenset(members), sum(1 for m in members if m in points)))
    return out


def build_problem(
    compiled: Any,
    *,
    sources: Sequence[str] | None = None,
    targets: Sequence[str] | None = None,
    tiles: str | Sequence[str] | None = "turnable",
    galleries: str | None = None,
    spider: str = "open",
) -> Problem:
    """Reduce ``compiled`` to a :class:`Problem` (see the module notes).

    Parameters
    ----------
    compiled : CompiledBoard
    sources, targets : node ids, optional
        Default: every white starting point, and every goal.
    tiles : ``"turnable"`` or placement ids
        The tiles whose turns vary; all others keep their current turn.
    galleries : door symbol or None
        Doors of this symbol are joined as if by paths (ruling 5).
    spider : ``"open"`` or ``"closed"``
        Whether the spider-guarded path may be used (ruling 6).

    Raises
    ------
    UsageError
        Bad option, or no ``from`` / ``to`` node.
    UnknownNodeError
        A named node or tile that is not on the board.
    """
    board: Board = compiled.board
    tol = compiled.tol
    if spider not in ("open", "closed"):
        raise UsageError(f"--spider must be open or closed, not {spider!r}")
    if galleries in ("", "none"):
        galleries = None
    if galleries is not None and galleries not in ("moon", "star"):
        raise UsageError(f"--galleries must be moon, star or none, not {galleries!r}")
    g = compiled.graph
    if sources is None:
        src_nodes = sorted(n for n, d in g.nodes(data=True) if d.get("start") == "white")
        if not src_nodes:
            raise UsageError(
                "the board has no white starting point; name the start nodes with --from"
            )
    else:
        src_nodes = _resolve_nodes(board, compiled, sources, "--from")
    if targets is None:
        to_nodes = sorted(n for n, d in g.nodes(data=True) if d.get("goal") is True)
        if not to_nodes:
            raise UsageError("the board has no goal point; name the target nodes with --to")
    else:
        to_nodes = _resolve_nodes(board, compiled, targets, "--to")
    if not src_nodes:
        raise UsageError("--from names no node")
    if not to_nodes:
        raise UsageError("--to names no node")
    selected = select_tiles(board, tiles)
    sel = set(selected)
    src_set = set(src_nodes)
    tgt_index = {n: k for k, n in enumerate(to_nodes)}

    # ---- sockets: cluster every port position of every owner at every turn it takes
    owner_turns: list[tuple[str, int]] = []
    for p in board.placements:
        tile = board.tile_of(p)
        ts = range(tile.turn_count) if p.id in sel else [p.turns % tile.turn_count]
        owner_turns.extend((p.id, t) for t in ts)
    owner_turns.append(("", 0))
    port_pos: list[tuple[tuple[str, int, str], float, float]] = []
    for owner, t in owner_turns:
        if owner:
            p = board.placement(owner)
            feats = board.tile_of(p).variant(t)
            ox, oy = p.x, p.y
        else:
            feats, ox, oy = board.features, 0.0, 0.0
        for f in feats:
            if f.kind == "port":
                port_pos.append(((owner, t, f.id), f.geometry.x + ox, f.geometry.y + oy))
    cells: dict[tuple[int, int], list[int]] = defaultdict(list)
    sock_uf = _UF()
    for i, (_, x, y) in enumerate(port_pos):
        cx, cy = math.floor(x / tol), math.floor(y / tol)
        sock_uf.find(i)
        for a in (cx - 1, cx, cx + 1):
            for b in (cy - 1, cy, cy + 1):
                for j in cells.get((a, b), ()):
                    _, x2, y2 = port_pos[j]
                    if (x - x2) ** 2 + (y - y2) ** 2 <= tol * tol:
                        sock_uf.union(i, j)
        cells[(cx, cy)].append(i)
    root_id: dict[Any, int] = {}
    sock_of: dict[tuple[str, int, str], int] = {}
    for i, (key, _, _) in enumerate(port_pos):
        r = sock_uf.find(i)
        sock_of[key] = root_id.setdefault(r, len(root_id))

    # ---- static structure
    static = _UF()
    static.find(SRC)
    for k in range(len(to_nodes)):
        static.find(_target_label(k))
    static_points: set[Any] = set()
    for owner, t in owner_turns:
        if owner in sel:
            continue
        uf, labels, points = _owner_local(
            board, owner, t, tol, spider, galleries, sock_of, src_set, tgt_index
        )
        static_points |= points
        for lab in uf.parent:
            static.union(lab, uf.find(lab))
    # ---- variable tiles
    raw: list[tuple[str, int, list[tuple[int, list[tuple[frozenset[Any], int]]]]]] = []
    for pid in selected:
        p = board.placement(pid)
        tile = board.tile_of(p)
        per_turn = []
        for t in range(tile.turn_count):
            uf, labels, points = _owner_local(
                board, pid, t, tol, spider, galleries, sock_of, src_set, tgt_index
            )
            per_turn.append((t, _blocks(uf, labels, points)))
        raw.append((pid, tile.turn_count, per_turn))
    # ---- vertices: static roots touched by a variable tile, plus the specials
    vid: dict[Any, int] = {}
    names: list[str] = []

    def vertex(lab: Any) -> int:
        r = static.find(lab)
        v = vid.get(r)
        if v is None:
            v = vid[r] = len(names)
            names.append(_label_name(r))
        return v

    src = vertex(SRC)
    tgt_v = [vertex(_target_label(k)) for k in range(len(to_nodes))]
    tiles_out: list[TileVar] = []
    for pid, tc, per_turn in raw:
        p = board.placement(pid)
        classes: dict[frozenset[Any], TurnClass] = {}
        order: list[frozenset[Any]] = []
        for t, blocks in per_turn:
            cls_key = frozenset(b for b, _ in blocks if len(b) > 1)
            if cls_key in classes:
                c = classes[cls_key]
                c.turns = c.turns + (t,)
                continue
            hyper: list[tuple[tuple[int, ...], int]] = []
            for members, pts in blocks:
                vs = sorted({vertex(m) for m in members if m[0] in ("socket", "special")})
                if vs and (len(vs) > 1 or pts):
                    hyper.append((tuple(vs), pts))
            classes[cls_key] = TurnClass((t,), tuple(sorted(hyper)))
            order.append(cls_key)
        tiles_out.append(TileVar(pid, p.x, p.y, tc, p.turns % tc, [classes[k] for k in order]))
    weight = [0] * len(names)
    for lab in static_points:
        r = static.find(lab)
        if r in vid:
            weight[vid[r]] += 1
    notes = []
    targets_left = []
    for k, v in enumerate(tgt_v):
        if v == src:
            notes.append(f"{to_nodes[k]} is joined to a start by tiles that do not turn")
        else:
            targets_left.append(v)
    return Problem(
        len(names),
        weight,
        src,
        targets_left,
        tiles_out,
        src_nodes,
        to_nodes,
        galleries,
        spider,
        names,
        notes,
    )


def turn_classes(
    board: Board,
    placement: str,
    tol: float = 1.0,
    spider: str = "open",
    galleries: str | None = None,
) -> list[list[int]]:
    """The tile's turns grouped by identical local connectivity (its symmetry)."""
    p = board.placement(placement)
    tile = board.tile_of(p)
    sock_of: dict[tuple[str, int, str], Any] = {}
    for t in range(tile.turn_count):
        for f in tile.variant(t):
            if f.kind == "port":
                sock_of[(p.id, t, f.id)] = (
                    round((f.geometry.x + p.x) / tol),
                    round((f.geometry.y + p.y) / tol),
                )
    groups: dict[frozenset[Any], list[int]] = {}
    for t in range(tile.turn_count):
        uf, labels, points = _owner_local(
            board, p.id, t, tol, spider, galleries, sock_of, set(), {}
        )
        key = frozenset(b for b, _ in _blocks(uf, labels, points) if len(b) > 1)
        groups.setdefault(key, []).append(t)
    return list(groups.values())


def _label_name(lab: Any) -> str:
    kind, val = lab
    if kind == "socket":
        return f"socket{val}"
    if kind == "special":
        return f"<{val}>"
    return str(val)
