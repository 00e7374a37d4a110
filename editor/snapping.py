"""Snapping: to existing vertices and ports (so borders are shared exactly), then the grid.

Candidates are collected from the board once per snapping session (a tool keeps a
:class:`Snapper` while drawing) and put in a shapely STRtree, so each cursor move
is one nearest-neighbour query.
"""

from __future__ import annotations

import math

import numpy as np
import shapely

from referee.model import Board


def grid_mm(board: Board) -> float:
    """The drawing grid spacing (``meta.settings.grid_mm``, default 10 mm)."""
    v = board.settings.get("grid_mm", 10.0)
    return float(v) if isinstance(v, (int, float)) and v > 0 else 10.0


def tile_pitch_mm(board: Board) -> float:
    """The tile grid pitch (``meta.settings.tile_pitch_mm``, default 100 mm)."""
    v = board.settings.get("tile_pitch_mm", 100.0)
    return float(v) if isinstance(v, (int, float)) and v > 0 else 100.0


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


def snap_tile_centre(
    board: Board, pid: str | None, tile_key: str, turns: int, x: float, y: float, radius: float
) -> tuple[float, float]:
    """Snap a tile centre so that one of its ports meets another tile's port, else to the pitch.

    Notes
    -----
    O(P) in the ports on the board: fine for tile boards (a few hundred ports).
    """
    from referee.geometry import turn_and_move

    tile = board.tiles.get(tile_key)
    if tile is not None:
        mine = [
            turn_and_move(f.geometry, turns, tile.turn_count)
            for f in tile.features
            if f.kind == "port"
        ]
        others: list[tuple[float, float]] = []
        for p in board.placements:
            if p.id == pid:
                continue
            t = board.tiles.get(p.tile)
            if t is None:
                continue
            for f in t.variant(p.turns):
                if f.kind == "port":
                    others.append((f.geometry.x + p.x, f.geometry.y + p.y))
        best, bd = None, radius
        for m in mine:
            for ox, oy in others:
                dx, dy = ox - (x + m.x), oy - (y + m.y)
                d = math.hypot(dx, dy)
                if d < bd:
                    best, bd = (x + dx, y + dy), d
        if best is not None:
            return best
    return snap_to_grid(x, y, tile_pitch_mm(board))
