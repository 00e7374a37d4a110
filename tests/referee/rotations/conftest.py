"""Hand-built tile boards for the rotation-analysis tests.

``build(cells)`` lays 100 mm squares on a grid (centres at (100 j + 50, 100 i + 50)),
each with ports at its four side midpoints. A cell is given as
``(groups, turnable, turns)``: ``groups`` is a list of ``(sides, props)`` — the
ports on ``sides`` (e.g. ``"NS"``) are joined by paths through one point with
``props`` (``{"start": "white"}``, ``{"goal": True}``...). ``door`` props put a door
on the first path of the group; ``guard``/``medium`` go on all its paths.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import shapely

from referee.model import Board, Feature, Placement, TileAsset

SIDES = {"N": (0.0, -1.0), "E": (1.0, 0.0), "S": (0.0, 1.0), "W": (-1.0, 0.0)}
SPOTS = [(-12.0, -9.0), (13.0, 11.0), (-14.0, 16.0)]

Cell = tuple[list[tuple[str, dict[str, Any]]], bool, int]


def make_tile(
    key: str, groups: list[tuple[str, dict[str, Any]]], turnable: bool = True
) -> TileAsset:
    feats = [
        Feature(f"p{s}", "port", shapely.Point(dx * 50, dy * 50), {})
        for s, (dx, dy) in SIDES.items()
    ]
    for g, (sides, props) in enumerate(groups):
        props = dict(props)
        door = props.pop("door", None)
        path_props = {k: props.pop(k) for k in ("guard", "medium") if k in props}
        px, py = SPOTS[g]
        feats.append(Feature(f"pt{g}", "point", shapely.Point(px, py), props))
        for k, s in enumerate(sides):
            dx, dy = SIDES[s]
            line = shapely.LineString([(px, py), (dx * 50, dy * 50)])
            feats.append(Feature(f"path{g}{s}", "path", line, dict(path_props)))
            if door and k == 0:
                feats.append(
                    Feature(
                        f"door{g}", "door", line.interpolate(0.5, normalized=True), {"symbol": door}
                    )
                )
    return TileAsset(key, key, {"shape": "square", "size": 100}, feats, turnable)


def build(cells: dict[tuple[int, int], Cell]) -> Board:
    b = Board(meta={"name": "hand-built", "width": 500, "height": 500})
    for (i, j), (groups, turnable, turns) in sorted(cells.items()):
        key = f"test/t{i}{j}"
        b.tiles[key] = make_tile(key, groups, turnable)
        b.placements.append(Placement(f"c{i}{j}", key, 100 * j + 50, 100 * i + 50, turns))
    return b


@pytest.fixture
def tile_board() -> Callable[[dict[tuple[int, int], Cell]], Board]:
    return build
