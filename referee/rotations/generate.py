"""Generated test boards for rotation analysis (tests and ``bench/rotations.py``).

:func:`grid_board` lays out a Ringgeister-like grid: tile centres on a square
grid with a 100 mm pitch, octagons (120 mm across flats) where row+column is odd
and squares (80 mm) where it is even, so neighbouring sides meet exactly and the
ports sit at the midpoints of the four axis-aligned sides. Every tile carries
random paths from some of its ports to one or two points (sometimes through a
door or along a water or spider-guarded path). The top-left tile holds the
white starting points, the bottom-right one the goal; both are fixed, as are
all tiles except the ``turnable`` ones chosen at random. An optional free-standing
frame path joins two border ports around the outside, so the static structure
links distant parts of the board.
"""

from __future__ import annotations

import random

import shapely

from ..model import Board, Feature, Placement, TileAsset

PITCH = 100.0
_SIDES = {"N": (0.0, -1.0), "E": (1.0, 0.0), "S": (0.0, 1.0), "W": (-1.0, 0.0)}


def _port(side: str, r: float) -> Feature:
    dx, dy = _SIDES[side]
    return Feature(f"port_{side}", "port", shapely.Point(dx * r, dy * r), {"side": side})


def random_tile(
    rng: random.Random,
    key: str,
    shape: str,
    *,
    turnable: bool,
    start: bool = False,
    goal: bool = False,
    asymmetric: bool = False,
) -> TileAsset:
    """One random tile: ports on the four sides, paths from some ports to 1–2 points.

    With ``asymmetric`` a turnable tile gets three ports, or two neighbouring ones,
    so its four turns are four different configurations.
    """
    size = 80.0 if shape == "square" else 120.0
    r = size / 2.0
    feats: list[Feature] = [_port(s, r) for s in _SIDES]
    sides = list(_SIDES)
    rng.shuffle(sides)
    if start or goal:
        used = ["E", "S"] if start else ["N", "W"]
        groups = [used]
    else:
        n = rng.choice((2, 3, 3, 4) if turnable else (3, 4, 4))
        used = sides[:n]
        if turnable and asymmetric:
            first = rng.choice(list(_SIDES))
            k = list(_SIDES).index(first)
            n = rng.choice((2, 3))
            used = [list(_SIDES)[(k + d) % 4] for d in range(n)]
        if n >= 2 and rng.random() < 0.25:
            cut = rng.randint(1, n - 1)
            groups = [used[:cut], used[cut:]]
        else:
            groups = [used]
    spots = [(-0.22 * r, -0.18 * r), (0.24 * r, 0.2 * r)]
    for g, ports in enumerate(groups):
        px, py = spots[g]
        props: dict[str, object] = {"colour": "black" if rng.random() < 0.3 else "grey"}
        if goal:
            props = {"colour": "grey", "goal": True}
        feats.append(Feature(f"pt{g}", "point", shapely.Point(px, py), props))
        for side in ports:
            dx, dy = _SIDES[side]
            line = shapely.LineString([(px, py), (dx * r, dy * r)])
            pprops: dict[str, object] = {}
            roll = rng.random()
            if roll < 0.12:
                pprops["medium"] = "water"
            elif goal and side == "N":
                pprops["guard"] = "spider"
            feats.append(Feature(f"path_{g}{side}", "path", line, pprops))
            if not (start or goal) and rng.random() < 0.08:
                mid = line.interpolate(0.5, normalized=True)
                feats.append(
                    Feature(
                        f"door_{g}{side}", "door", mid, {"symbol": rng.choice(("moon", "star"))}
                    )
                )
    if start:
        for k, (x, y) in enumerate([(-0.5 * r, -0.5 * r), (-0.6 * r, 0.1 * r)]):
            feats.append(
                Feature(
                    f"white{k}", "point", shapely.Point(x, y), {"colour": "grey", "start": "white"}
                )
            )
            feats.append(Feature(f"wpath{k}", "path", shapely.LineString([(x, y), spots[0]]), {}))
    return TileAsset(key, key.split("/")[-1], {"shape": shape, "size": size}, feats, turnable)


def grid_board(
    rows: int = 5,
    cols: int = 5,
    turnable: int = 10,
    seed: int = 0,
    frame: bool = True,
    asymmetric: bool = False,
) -> Board:
    """A random ``rows`` × ``cols`` board with ``turnable`` tiles that may turn.

    Parameters
    ----------
    rows, cols : int
        Grid size (at least 2 × 2).
    turnable : int
        How many tiles (never the start or goal corner) turn; the others are fixed.
    seed : int
        Seed of the layout; the same seed gives the same board.
    frame : bool
        Add a free-standing frame path joining the north port of the top-right tile
        to the west port of the bottom-left tile around the outside.
    asymmetric : bool
        Give every turnable tile four distinct turns (see :func:`random_tile`).

    Placements are ``c<row><column>`` (``c00`` top left), with two digits each once
    a side has 11 or more tiles (``c0110``), so every id is distinct.
    """
    rng = random.Random(seed)
    board = Board(
        meta={
            "name": f"grid {rows}x{cols} t{turnable} s{seed}",
            "rules": None,
            "width": cols * PITCH,
            "height": rows * PITCH,
        }
    )
    cells = [(i, j) for i in range(rows) for j in range(cols)]
    inner = [c for c in cells if c not in ((0, 0), (rows - 1, cols - 1))]
    if turnable > len(inner):
        raise ValueError(f"a {rows}x{cols} grid has only {len(inner)} tiles that may turn")
    turning = set(rng.sample(inner, turnable))
    # row and column numbers as digits, padded once a side has 11 or more tiles
    # (c1_11 and c11_1 must not both read c111); single digits as ever below that
    digits = len(str(max(rows, cols) - 1))
    for i, j in cells:
        cell = f"{i:0{digits}d}{j:0{digits}d}"
        shape = "octagon" if (i + j) % 2 else "square"
        key = f"gen/t{cell}"
        tile = random_tile(
            rng,
            key,
            shape,
            turnable=(i, j) in turning,
            start=(i, j) == (0, 0),
            goal=(i, j) == (rows - 1, cols - 1),
            asymmetric=asymmetric,
        )
        board.tiles[key] = tile
        x, y = (j + 0.5) * PITCH, (i + 0.5) * PITCH
        turns = rng.randrange(4) if (i, j) in turning else 0
        board.placements.append(Placement(f"c{cell}", key, x, y, turns))
    if frame:
        r_tr = (80.0 if (cols - 1) % 2 == 0 else 120.0) / 2.0
        r_bl = (80.0 if (rows - 1) % 2 == 0 else 120.0) / 2.0
        ax, ay = (cols - 0.5) * PITCH, 0.5 * PITCH - r_tr
        bx, by = 0.5 * PITCH - r_bl, (rows - 0.5) * PITCH
        board.features.append(Feature("frame_a", "port", shapely.Point(ax, ay), {}))
        board.features.append(Feature("frame_b", "port", shapely.Point(bx, by), {}))
        line = shapely.LineString([(ax, ay), (ax, -8.0), (-8.0, -8.0), (-8.0, by), (bx, by)])
        board.features.append(Feature("frame_path", "path", line, {}))
    return board
