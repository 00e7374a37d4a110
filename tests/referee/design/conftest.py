"""Small real boards for the design tests: a generated Ringgeister-like 4 × 4 grid
(octagons and squares, start and goal on tiles, some tiles fixed) and the shipped
Ringgeister board."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.compiler import compile_board
from referee.design import DesignStore, Objective, Searcher, Space, census_options, fixed_slots
from referee.model import Board
from referee.rotations.generate import grid_board
from referee.store import save_project

RINGGEISTER = Path(__file__).resolve().parents[3] / "projects" / "ringgeister" / "ringgeister.json"


@pytest.fixture
def grid() -> Board:
    return grid_board(4, 4, 8, 2, asymmetric=True)


@pytest.fixture
def grid_project(tmp_path: Path, grid: Board) -> Path:
    p = tmp_path / "grid.bwproj"
    save_project(grid, p)
    return p


def searcher(
    board: Board,
    db: Path | str,
    objective: str = "connected",
    pins: tuple[str, ...] = (),
    min_distance: int | None = None,
    mode: str = "incremental",
) -> Searcher:
    """A searcher as ``referee design`` builds one (store left open: close ``.store``)."""
    compiled = compile_board(board)
    opts = census_options(compiled)
    obj = Objective.parse(objective, min_distance)
    space = Space.from_board(
        board, pins=pins, fixed_slots=fixed_slots(compiled, opts), turns_matter=obj.needs_paths
    )
    return Searcher(space, compiled, opts, obj, DesignStore(db), mode=mode)
