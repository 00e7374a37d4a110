"""Placed tiles that overlap: a ``tile_overlap`` problem per overlapping pair."""

from __future__ import annotations

import numpy as np
import shapely

from ..model import Board
from .problems import Problem


def tile_overlaps(board: Board, tol: float) -> list[Problem]:
    """One problem per pair of placed tiles whose outlines overlap by more than ``tol``² mm²
    (tiles that only share an edge or a corner do not overlap).

    Notes
    -----
    One ``STRtree.query(..., predicate="intersects")`` over the outlines: O(P log P) for P
    placements, then an exact area for each touching pair.
    """
    pl = [p for p in board.placements if p.tile in board.tiles]
    if len(pl) < 2:
        return []
    outlines = np.array([board.outline_of(p) for p in pl], dtype=object)
    a, b = shapely.STRtree(outlines).query(outlines, predicate="intersects")
    out = []
    for i, j in zip(a.tolist(), b.tolist()):
        if i >= j:
            continue
        area = float(shapely.area(shapely.intersection(outlines[i], outlines[j])))
        if area > tol * tol:
            c = shapely.intersection(outlines[i], outlines[j]).centroid
            out.append(
                Problem.make(
                    "tile_overlap",
                    f"tiles {pl[i].id} and {pl[j].id} overlap ({area:.0f} mm²)",
                    pl[j].id,
                    (c.x, c.y),
                )
            )
    return out
