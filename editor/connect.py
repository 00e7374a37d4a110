"""Connecting free paths to tiles: the free port a path end needs where it meets a tile port.

A free path is split only at free point-like features, so a path end lying on a tile's
port would be open (``path_end_open``). A free ``port`` at the same spot shares the
tile port's socket and links the two. The drawing tools add that port with the path
(one undo step), and the Problems list offers the same join as a one-click fix for an
open end near a port. No widgets here: plain functions over the board.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

import shapely

from referee.compiler import Problem
from referee.model import Board, Feature

#: how far (mm) from an open path end the Problems fix looks for a port to join
FIX_REACH_MM = 25.0
_OPPOSITE = {"N": "S", "S": "N", "E": "W", "W": "E"}


def tolerance(board: Board) -> float:
    v = board.settings.get("snap_tolerance_mm", 1.0)
    return float(v) if isinstance(v, (int, float)) and v > 0 else 1.0


def tile_ports(board: Board) -> list[tuple[str, float, float, str]]:
    """Every placed tile's port as ``(node id, x, y, side facing out)``, in world mm."""
    out = []
    for p in board.placements:
        t = board.tiles.get(p.tile)
        if t is None:
            continue
        for f in t.variant(p.turns):
            if f.kind == "port":
                dx, dy = f.geometry.x, f.geometry.y
                side = ("E" if dx > 0 else "W") if abs(dx) >= abs(dy) else ("S" if dy > 0 else "N")
                out.append((f"{p.id}/{f.id}", dx + p.x, dy + p.y, side))
    return out


def _free_stop_at(board: Board, x: float, y: float, tol: float) -> bool:
    pt = shapely.Point(x, y)
    return any(
        f.kind in ("point", "junction", "door", "port") and f.geometry.distance(pt) <= tol
        for f in board.features
    )


def port_feature(board: Board, fid: str, x: float, y: float, side: str) -> Feature:
    """A free port at (x, y) facing a tile port whose outward side is ``side``."""
    return Feature(fid, "port", shapely.Point(x, y), {"side": _OPPOSITE.get(side, side)})


def ports_for_ends(
    board: Board, coords: list[tuple[float, float]], new_id: Callable[[], str]
) -> list[Feature]:
    """The free ports to add so the ends of a new free path at ``coords`` link to the
    tile ports they lie on (none where a free point-like feature is already there).

    ``new_id`` gives a fresh feature id on each call.
    """
    tol = tolerance(board)
    ports = tile_ports(board)
    out: list[Feature] = []
    for x, y in (coords[0], coords[-1]):
        if _free_stop_at(board, x, y, tol) or any(
            f.geometry.distance(shapely.Point(x, y)) <= tol for f in out
        ):
            continue
        hit = next((q for q in ports if math.hypot(q[1] - x, q[2] - y) <= tol), None)
        if hit is not None:
            out.append(port_feature(board, new_id(), hit[1], hit[2], hit[3]))
    return out


@dataclass
class Fix:
    """A one-click repair of a problem: move a path end (optionally) and add features."""

    label: str
    path_id: str
    end: int  # 0 = first vertex, -1 = last
    new_geometry: shapely.LineString | None  # the path with its end moved, or None
    add: list[Feature] = field(default_factory=list)


def fix_for(board: Board, problem: Problem, new_id: Callable[[], str]) -> Fix | None:
    """The fix for ``problem`` where there is one: an open end of a free path near a port
    (a tile's or a free one) is joined to it."""
    if problem.code != "path_end_open" or not problem.node or "/" in problem.node:
        return None
    if problem.x is None or problem.y is None:
        return None
    path = next((f for f in board.features if f.id == problem.node and f.kind == "path"), None)
    if path is None:
        return None
    coords = [tuple(c) for c in path.geometry.coords]
    x, y = problem.x, problem.y
    end = 0 if math.hypot(coords[0][0] - x, coords[0][1] - y) < 1e-6 else -1
    candidates = [(n, px, py, s) for n, px, py, s in tile_ports(board)] + [
        (f.id, f.geometry.x, f.geometry.y, "")
        for f in board.features
        if f.kind == "port" or f.kind in ("point", "junction", "door")
    ]
    best = None
    bd = FIX_REACH_MM
    for c in candidates:
        d = math.hypot(c[1] - x, c[2] - y)
        if d <= bd:
            best, bd = c, d
    if best is None:
        return None
    nid, px, py, side = best
    tol = tolerance(board)
    geom = None
    if bd > tol:
        coords[end] = (px, py)
        if len(set(coords)) < 2:
            return None
        geom = shapely.LineString(coords)
    add = []
    if "/" in nid and not _free_stop_at(board, px, py, tol):
        add.append(port_feature(board, new_id(), px, py, side))
    kind = "port" if "/" in nid else next(f.kind for f in board.features if f.id == nid)
    return Fix(f"join this path end to {kind} {nid}", path.id, end, geom, add)
