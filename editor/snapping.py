"""Snapping: to existing vertices and ports (so borders are shared exactly), then the grid.

Candidates are collected from the board once per snapping session (a tool keeps a
:class:`Snapper` while drawing) and put in a shapely STRtree, so each cursor move
is one nearest-neighbour query.
"""

from __future__ import annotations

import math

import numpy as np
import shapely

from referee.model import Board, TileAsset


def grid_mm(board: Board) -> float:
    """The drawing grid spacing (``meta.settings.grid_mm``, default 10 mm)."""
    v = board.settings.get("grid_mm", 10.0)
    return float(v) if isinstance(v, (int, float)) and v > 0 else 10.0


def tile_pitch_mm(board: Board) -> float | None:
    """The tile grid pitch set in ``meta.settings.tile_pitch_mm``, or None (then the pitch
    comes from the tiles' own size: see :func:`tile_lattice`)."""
    v = board.settings.get("tile_pitch_mm")
    return float(v) if isinstance(v, (int, float)) and v > 0 else None


def _size(tile: TileAsset) -> tuple[float, float]:
    x0, y0, x1, y1 = tile.outline.bounds
    return x1 - x0, y1 - y0


def tile_lattice(
    board: Board, tile: TileAsset, pid: str | None = None
) -> list[tuple[float, float, float, float]]:
    """The slot lattices a tile centre snaps to, each ``(origin x, origin y, step x, step y)``.

    The pitch is the size of the largest tile on the board (or of ``tile`` itself): 80 mm
    squares sit 80 mm apart. Hexagons tile in offset columns (flat top) or rows (pointy
    top). A tile smaller than the pitch (a square filler between octagons) also snaps to
    the lattice's corners. The lattice is anchored at the placement of the largest tile.
    """
    placed = [(p, t) for p in board.placements if p.id != pid and (t := board.tiles.get(p.tile))]
    big, anchor, filler_anchor = tile, (0.0, 0.0), False
    if placed:
        p0, t0 = max(placed, key=lambda pt: pt[1].outline.area)  # the first of the largest
        anchor = (p0.x, p0.y)
        if t0.outline.area > tile.outline.area * 1.001:
            big = t0
        elif t0.outline.area < tile.outline.area * 0.999:
            filler_anchor = True  # only fillers placed yet: they sit at the lattice's corners
    w, h = _size(big)
    fixed = tile_pitch_mm(board)
    if fixed is not None:
        w = h = fixed
    ax, ay = anchor
    if filler_anchor:
        ax, ay = ax + w / 2, ay + h / 2
    if big.shape == "hexagon" and fixed is None:
        if w >= h:  # flat top: columns 3/4 of the width apart, every other one half a row down
            return [(ax, ay, 1.5 * w, h), (ax + 0.75 * w, ay + h / 2, 1.5 * w, h)]
        return [(ax, ay, w, 1.5 * h), (ax + w / 2, ay + 0.75 * h, w, 1.5 * h)]
    out = [(ax, ay, w, h)]
    tw, th = _size(tile)
    if tw < 0.9 * w and th < 0.9 * h:
        out.append((ax + w / 2, ay + h / 2, w, h))
    return out


def snap_to_lattice(
    x: float, y: float, lattices: list[tuple[float, float, float, float]]
) -> tuple[float, float]:
    """The nearest slot of ``lattices`` to (x, y)."""
    best, bd = (x, y), math.inf
    for ox, oy, sx, sy in lattices:
        cx = ox + round((x - ox) / sx) * sx
        cy = oy + round((y - oy) / sy) * sy
        d = math.hypot(cx - x, cy - y)
        if d < bd:
            best, bd = (cx, cy), d
    return best


def lattice_slots(
    lattices: list[tuple[float, float, float, float]],
    rect: tuple[float, float, float, float],
    limit: int = 2000,
) -> list[tuple[float, float]]:
    """The slot centres of ``lattices`` inside ``rect`` (x0, y0, x1, y1), at most ``limit``."""
    x0, y0, x1, y1 = rect
    out: list[tuple[float, float]] = []
    for ox, oy, sx, sy in lattices:
        i0, i1 = math.ceil((x0 - ox) / sx), math.floor((x1 - ox) / sx)
        j0, j1 = math.ceil((y0 - oy) / sy), math.floor((y1 - oy) / sy)
        if (i1 - i0 + 1) * (j1 - j0 + 1) > limit:
            return []
        out.extend((ox + i * sx, oy + j * sy) for i in range(i0, i1 + 1) for j in range(j0, j1 + 1))
    return out


def snap_to_grid(x: float, y: float, step: float) -> tuple[float, float]:
    return round(x / step) * step, round(y / step) * step


class Snapper:
    """Snap a scene point to vertices/ports within ``radius`` mm, else to the grid.

    Parameters
    ----------
    board : Board
    exclude : set of str
        Feature ids whose vertices are not candidates (the feature being edited).
    """

    def __init__(self, board: Board, exclude: set[str] | None = None) -> None:
        exclude = exclude or set()
        pts: list[tuple[float, float]] = []
        for _nid, owner, f in board.world_features():
            if (owner is None and f.id in exclude) or f.kind in ("art", "label"):
                continue
            g = f.geometry
            if f.kind == "space" or f.kind == "counter_space":
                pts.extend((x, y) for x, y in list(g.exterior.coords)[:-1])
            elif g.geom_type == "LineString":
                pts.extend(g.coords)
            elif g.geom_type == "Point":
                pts.append((g.x, g.y))
        self.coords = np.array(pts, dtype=float).reshape(-1, 2)
        self.tree = shapely.STRtree(shapely.points(self.coords)) if len(self.coords) else None
        self.grid = grid_mm(board)

    def snap(
        self,
        x: float,
        y: float,
        radius: float,
        grid: bool = True,
        extra: list[tuple[float, float]] | None = None,
    ) -> tuple[float, float, bool]:
        """The snapped point and whether it landed on a vertex/port."""
        best, bd = None, radius
        if self.tree is not None:
            i = self.tree.nearest(shapely.Point(x, y))
            if i is not None:
                cx, cy = self.coords[int(i)]
                d = math.hypot(cx - x, cy - y)
                if d <= bd:
                    best, bd = (float(cx), float(cy)), d
        for cx, cy in extra or []:
            d = math.hypot(cx - x, cy - y)
            if d <= bd:
                best, bd = (cx, cy), d
        if best is not None:
            return best[0], best[1], True
        if grid:
            gx, gy = snap_to_grid(x, y, self.grid)
            return gx, gy, False
        return x, y, False


def _outward(x: float, y: float) -> tuple[float, float]:
    n = math.hypot(x, y) or 1.0
    return x / n, y / n


def snap_tile_centre(
    board: Board, pid: str | None, tile_key: str, turns: int, x: float, y: float, radius: float
) -> tuple[float, float]:
    """Snap a tile centre so that one of its ports meets a facing port of another tile
    (ports pointing at each other, not at right angles), else to the tile lattice.

    Notes
    -----
    O(P) in the ports on the board: fine for tile boards (a few hundred ports).
    """
    from referee.geometry import turn_and_move

    tile = board.tiles.get(tile_key)
    if tile is None:
        return x, y
    mine = [
        turn_and_move(f.geometry, turns, tile.turn_count) for f in tile.features if f.kind == "port"
    ]
    others: list[tuple[float, float, tuple[float, float]]] = []
    for p in board.placements:
        if p.id == pid:
            continue
        t = board.tiles.get(p.tile)
        if t is None:
            continue
        for f in t.variant(p.turns):
            if f.kind == "port":
                g = f.geometry
                others.append((g.x + p.x, g.y + p.y, _outward(g.x, g.y)))
    best, bd = None, radius
    for m in mine:
        mo = _outward(m.x, m.y)
        for ox, oy, oo in others:
            if mo[0] * oo[0] + mo[1] * oo[1] > -0.95:  # not facing each other
                continue
            dx, dy = ox - (x + m.x), oy - (y + m.y)
            d = math.hypot(dx, dy)
            if d < bd:
                best, bd = (x + dx, y + dy), d
    if best is not None:
        return best
    return snap_to_lattice(x, y, tile_lattice(board, tile, pid))
