"""Small real boards for the design tests: a generated Ringgeister-like 4 × 4 grid
(octagons and squares, start and goal on tiles, some tiles fixed) and the shipped
Ringgeister board."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
import shapely

from referee.compiler import compile_board
from referee.design import DesignStore, Objective, Searcher, Space, census_options, fixed_slots
from referee.model import Board, Feature, Placement, TileAsset
from referee.rotations.generate import grid_board, random_tile
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
    symmetry: str | None = None,
) -> Searcher:
    """A searcher as ``referee design`` builds one (store left open: close ``.store``)."""
    compiled = compile_board(board)
    opts = census_options(compiled)
    obj = Objective.parse(objective, min_distance)
    space = Space.from_board(
        board,
        pins=pins,
        fixed_slots=fixed_slots(compiled, opts),
        turns_matter=obj.needs_paths,
        symmetry=symmetry,
    )
    return Searcher(space, compiled, opts, obj, DesignStore(db), mode=mode)


def mirrored_tile(tile: TileAsset, key: str, m: tuple[int, int, int, int]) -> TileAsset:
    """``tile`` mirrored by the matrix ``m`` (a new tile: its features' geometry mapped,
    the ports' side names swapped to match)."""
    import numpy as np
    import shapely

    a, b, c, d = m

    def f(xy: np.ndarray) -> np.ndarray:
        return np.column_stack((a * xy[:, 0] + b * xy[:, 1], c * xy[:, 0] + d * xy[:, 1]))

    sides = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
    back = {v: k for k, v in sides.items()}
    feats = []
    for ft in tile.features:
        props = dict(ft.props)
        if "side" in props:
            x, y = sides[props["side"]]
            props["side"] = back[(a * x + b * y, c * x + d * y)]
        feats.append(Feature(ft.id, ft.kind, shapely.transform(ft.geometry, f), props))
    return TileAsset(key, key.split("/")[-1], dict(tile.outline_spec), feats, tile.turnable)


def _self_mirror_tile(rng: random.Random, key: str, shape: str, turnable: bool) -> TileAsset:
    """A tile alike in the vertical mirror line: a point in the middle, paths to a
    mirror-symmetric set of ports."""
    r = (80.0 if shape == "square" else 120.0) / 2
    xy = {"N": (0, -r), "E": (r, 0), "S": (0, r), "W": (-r, 0)}
    feats = [Feature(f"port_{s}", "port", shapely.Point(*p), {"side": s}) for s, p in xy.items()]
    feats.append(Feature("pt", "point", shapely.Point(0, 0), {"colour": "grey"}))
    for s in rng.choice([["N"], ["N", "S"], ["E", "W"], ["E", "W", "S"], ["N", "E", "W"]]):
        feats.append(Feature(f"path_{s}", "path", shapely.LineString([(0, 0), xy[s]]), {}))
    return TileAsset(key, key.split("/")[-1], {"shape": shape, "size": 2 * r}, feats, turnable)


def mirror_board(seed: int = 0) -> Board:
    """A 3 × 5 grid whose tiles can lie mirror-symmetric across the vertical middle
    line (``mirror-x``), laid out scrambled: each tile of the two left columns has its
    mirror image (another tile) in the set, the middle column's tiles are their own
    mirror image. The white start and the goal stand beside the grid (no tile is
    pinned by them): the start left of ``c00``, the goal right of ``c24``."""
    rng = random.Random(seed)
    board = Board(meta={"name": f"mirror grid s{seed}", "rules": None, "width": 500, "height": 300})
    m = (-1, 0, 0, 1)
    cells: dict[tuple[int, int], TileAsset] = {}
    for i in range(3):
        for j in range(3):
            shape = "octagon" if (i + j) % 2 else "square"
            key = f"gen/m{i}{j}"
            turnable = rng.random() < 0.5
            if j == 2:
                cells[(i, j)] = _self_mirror_tile(rng, key, shape, turnable)
                continue
            t = random_tile(rng, key, shape, turnable=turnable, asymmetric=True)
            cells[(i, j)] = t
            cells[(i, 4 - j)] = mirrored_tile(t, f"gen/m{i}{j}-mirrored", m)
    for t in cells.values():
        board.tiles[t.key] = t
    by_shape: dict[str, list[str]] = {}
    for _cell, t in sorted(cells.items()):
        by_shape.setdefault(t.shape, []).append(t.key)
    for keys in by_shape.values():
        rng.shuffle(keys)
    for i in range(3):
        for j in range(5):
            shape = "octagon" if (i + j) % 2 else "square"
            key = by_shape[shape].pop()
            x, y = (j + 0.5) * 100, (i + 0.5) * 100
            board.placements.append(Placement(f"c{i}{j}", key, x, y, rng.randrange(4)))
    start, goal = (-30.0, 50.0), (530.0, 250.0)
    board.features += [
        Feature("start", "point", shapely.Point(*start), {"colour": "grey", "start": "white"}),
        Feature("port_start", "port", shapely.Point(10.0, 50.0), {}),
        Feature("port_goal", "port", shapely.Point(490.0, 250.0), {}),
        Feature("to_c00", "path", shapely.LineString([start, (10.0, 50.0)]), {}),
        Feature("goal", "point", shapely.Point(*goal), {"colour": "grey", "goal": True}),
        Feature("to_c24", "path", shapely.LineString([(490.0, 250.0), goal]), {}),
    ]
    return board
