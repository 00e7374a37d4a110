"""Placed tiles that overlap are a ``tile_overlap`` error; tiles sharing an edge are not."""

from __future__ import annotations

from referee.compiler import compile_board
from referee.model import Placement
from referee.rotations.generate import grid_board


def _codes(board: object) -> list[str]:
    return [p.code for p in compile_board(board).problems]  # type: ignore[arg-type]


def test_tiles_side_by_side_do_not_overlap() -> None:
    assert "tile_overlap" not in _codes(grid_board(3, 3, turnable=4))


def test_a_tile_dropped_between_two_is_reported_once_per_pair_naming_both() -> None:
    b = grid_board(2, 2, turnable=2)
    first, right = b.placements[0], b.placements[1]
    assert right.x > first.x and right.y == first.y
    b.placements.append(Placement("extra", first.tile, first.x + 30, first.y, 0))
    probs = [p for p in compile_board(b).problems if p.code == "tile_overlap"]
    assert {p.severity for p in probs} == {"error"}
    assert sorted(p.message.split(" overlap")[0] for p in probs) == [
        f"tiles {first.id} and extra",
        f"tiles {right.id} and extra",
    ]
