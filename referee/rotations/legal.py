"""Legal turns of one tile, Carcassonne / 18xx style.

A turn of a tile is **legal** when, with every other tile at its current turn,
each port of the tile that carries a path meets a port with a path on the other
side, and no path of a neighbour (or of the frame) ends against this tile where
the tile has no path. Every rejected turn lists its reasons, one per mismatched
port, naming the ports involved and the side of the tile they are on.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import shapely

from ..compiler.paths import tile_segments
from ..errors import UnknownNodeError
from ..geometry import turn_and_move
from ..model import Board
from .structure import turn_classes

_COMPASS8 = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")


def _side(dx: float, dy: float) -> str:
    b = math.degrees(math.atan2(dx, -dy)) % 360.0
    return _COMPASS8[int((b + 22.5) // 45) % 8]


@dataclass
class TurnVerdict:
    turns: int
    legal: bool
    reasons: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"turns": self.turns, "legal": self.legal, "reasons": self.reasons}


@dataclass
class LegalTurns:
    """The verdict on every turn of one placed tile."""

    placement: str
    turn_count: int
    current: int
    turnable: bool
    classes: list[list[int]]
    verdicts: list[TurnVerdict]

    @property
    def legal(self) -> list[int]:
        return [v.turns for v in self.verdicts if v.legal]

    def to_json(self) -> dict[str, Any]:
        return {
            "tile": self.placement,
            "turn_count": self.turn_count,
            "current": self.current,
            "turnable": self.turnable,
            "symmetry": self.classes,
            "legal": self.legal,
            "turns": [v.to_json() for v in self.verdicts],
        }


def legal_turns(compiled: Any, tile: str) -> LegalTurns:
    """Which turns of the placed tile ``tile`` keep every port it touches matched.

    Raises
    ------
    UnknownNodeError
        No tile is placed as ``tile``.

    Notes
    -----
    O(T · P) for T turns and P ports of the tile, after one pass over the board's
    ports (grid-hashed by position).
    """
    board: Board = compiled.board
    try:
        p = board.placement(tile)
    except UnknownNodeError:
        raise UnknownNodeError(
            f"no tile placed as {tile!r}", code="unknown_tile", location=tile
        ) from None
    asset = board.tile_of(p)
    tol = compiled.tol
    net = compiled.paths
    # ports of every other owner at their current turns, with "has a path"
    others: list[tuple[str, float, float, bool]] = []
    for owner, o in net.owners.items():
        if owner == p.id:
            continue
        for fid, (x, y) in o.ports.items():
            nid = net.nid(owner, fid)
            name = nid
            if owner:
                q = board.placement(owner)
                name = f"{nid} (facing {_side(x - q.x, y - q.y)})"
            others.append((name, x, y, bool(net.seg_at.get(nid))))
    cells: dict[tuple[int, int], list[int]] = {}
    for i, (_, x, y, _) in enumerate(others):
        cells.setdefault((math.floor(x / tol), math.floor(y / tol)), []).append(i)

    def near(x: float, y: float) -> list[tuple[str, bool]]:
        cx, cy = math.floor(x / tol), math.floor(y / tol)
        out = []
        for a in (cx - 1, cx, cx + 1):
            for b in (cy - 1, cy, cy + 1):
                for i in cells.get((a, b), ()):
                    nid, x2, y2, hp = others[i]
                    if (x - x2) ** 2 + (y - y2) ** 2 <= tol * tol:
                        out.append((nid, hp))
        return sorted(out)

    verdicts = []
    for t in range(asset.turn_count):
        feats = asset.variant(t)
        split = tile_segments(asset, t, tol)
        with_path = {s.a for s in split.segments} | {s.b for s in split.segments}
        reasons: list[str] = []
        own_xy: list[tuple[float, float]] = []
        for f in feats:
            if f.kind != "port":
                continue
            x, y = f.geometry.x + p.x, f.geometry.y + p.y
            own_xy.append((x, y))
            side = _side(f.geometry.x, f.geometry.y)
            mine = f.id in with_path
            there = near(x, y)
            if mine:
                if not there:
                    reasons.append(
                        f"the path at {f.id} (facing {side}) meets no port (board edge or gap)"
                    )
                elif not any(hp for _, hp in there):
                    names = ", ".join(n for n, _ in there)
                    reasons.append(
                        f"the path at {f.id} (facing {side}) meets {names}, which has no path"
                    )
            else:
                for nid, hp in there:
                    if hp:
                        reasons.append(
                            f"the path at {nid} meets {f.id} (facing {side}), which has no path"
                        )
        outline = turn_and_move(asset.outline, t, asset.turn_count, p.x, p.y)
        boundary = outline.exterior
        for nid, x, y, hp in others:
            if not hp or nid.startswith(f"{p.id}/"):
                continue
            if any((x - a) ** 2 + (y - b) ** 2 <= tol * tol for a, b in own_xy):
                continue
            if boundary.distance(shapely.Point(x, y)) <= tol:
                reasons.append(
                    f"the path at {nid} reaches the "
                    f"{_side(x - p.x, y - p.y)} side, where this tile has no port"
                )
        verdicts.append(TurnVerdict(t, not reasons, reasons))
    return LegalTurns(
        p.id,
        asset.turn_count,
        p.turns % asset.turn_count,
        asset.turnable,
        turn_classes(board, p.id, tol),
        verdicts,
    )
