"""The rulebook's names of a Ringgeister board's places (``referee board-names``).

The rulebook numbers nothing, but it names the places a player looks for: the
Mountain of Fire (its last grey point, the goal), the white starting points in the
corner (numbered here as the board's ids number them: ``ws1`` is "white starting
point 1"), the nine hexagonal counter spaces (numbered 1 to 9 in the order of the
tiles carrying them, row by row) and the black starting point beside the rock of
each landscape element (a tile, named by its id: ``r2c3`` is row 2, column 3).
Positions accept these names wherever they write a point or a counter space.
"""

from __future__ import annotations

import re

from ...compiler import CompiledBoard
from ..base import BoardName
from .view import view_of

__all__ = ["board_names", "name_table"]


def _natural(text: str) -> tuple[object, ...]:
    """``ws2`` before ``ws10``: digits compared as numbers."""
    return tuple(int(p) if p.isdigit() else p for p in re.split(r"(\d+)", text))


def board_names(compiled: CompiledBoard) -> list[BoardName]:
    """The named places of ``compiled`` (see the module docstring).

    Notes
    -----
    O(N log N) over the board's nodes (a sort of each kind by id).
    """
    v = view_of(compiled)
    ids = v.ids
    out: list[BoardName] = []
    for i in v.points:
        if v.goal[i]:
            out.append(
                BoardName(
                    "the Mountain of Fire",
                    ids[i],
                    "goal point",
                    "the last grey point; only the Ringbearer Hobbit enters it, rulebook 2.3",
                )
            )
    whites = sorted((ids[i] for i in v.white_starts), key=_natural)
    for k, nid in enumerate(whites, 1):
        out.append(BoardName(f"white starting point {k}", nid, "white starting point"))
    spaces = sorted(v.counter_spaces, key=_natural)
    for k, sid in enumerate(spaces, 1):
        tile = sid.split("/", 1)[0] if "/" in sid else ""
        out.append(
            BoardName(
                f"counter space {k}",
                sid,
                "counter space",
                f"the hexagonal space on tile {tile}" if tile else "a hexagonal space",
            )
        )
    for i in sorted(v.black_starts, key=lambda i: _natural(ids[i])):
        owner = v.owner[i]
        if owner is not None:
            out.append(
                BoardName(
                    f"black starting point of {owner}",
                    ids[i],
                    "black starting point",
                    "beside the tile's rock" + ("; the tile turns" if owner in v.turnable else ""),
                )
            )
    return out


def name_table(compiled: CompiledBoard) -> dict[str, str]:
    """Name -> id of every :func:`board_names` entry (cached per compiled board)."""
    return compiled.derived(
        "ringgeister.names", lambda: {n.name: n.id for n in board_names(compiled)}
    )
