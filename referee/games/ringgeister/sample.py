"""A seeded generator of playable Ringgeister boards (for self-play tests and benchmarks).

The default board lives in ``projects/ringgeister``; this makes smaller or bigger
boards of the same kind from a seed, so tests and benchmarks do not depend on it.
"""

from __future__ import annotations

import random

import shapely
from shapely.affinity import translate

from ...geometry import regular_polygon
from ...model import Board, Feature, Placement, TileAsset
from .pieces import default_cards

_ARMS = {
    "N": (0.0, -1.0, 180.0),
    "E": (1.0, 0.0, 270.0),
    "S": (0.0, 1.0, 0.0),
    "W": (-1.0, 0.0, 90.0),
}  # unit vector; bearing from the arm point towards the centre


def _tile(key: str, rng: random.Random, force: tuple[str, ...] = ()) -> TileAsset:
    """A 100 mm square: ports on the four sides, arms from some ports to the centre."""
    arms = [a for a in "NESW" if a in force or rng.random() < 0.75]
    while len(arms) < 3:
        extra = rng.choice([a for a in "NESW" if a not in arms])
        arms.append(extra)
    arms.sort(key="NESW".index)
    feats: list[Feature] = []
    centre_is_point = rng.random() < 0.35
    if centre_is_point:
        feats.append(
            Feature(
                "c", "point", shapely.Point(0, 0), {"colour": "grey", "wind": rng.choice("NESW")}
            )
        )
    else:
        feats.append(
            Feature("c", "junction", shapely.Point(0, 0), {"forced_right": rng.random() < 0.4})
        )
    roles = ["black_start", "black"] + ["grey"] * (len(arms) - 2)
    rng.shuffle(roles)
    point_ids = ["c"] if centre_is_point else []
    for a, role in zip(arms, roles):
        ux, uy, to_centre = _ARMS[a]
        feats.append(Feature(f"port{a}", "port", shapely.Point(50 * ux, 50 * uy), {"side": a}))
        pid = f"p{a}"
        mid = shapely.Point(25 * ux, 25 * uy)
        if role == "grey" and rng.random() < 0.15:
            feats.append(Feature(pid, "door", mid, {"symbol": rng.choice(["moon", "star"])}))
        else:
            props: dict[str, object] = {"colour": "grey" if role == "grey" else "black"}
            if role != "grey":
                props["heading"] = to_centre if rng.random() < 0.5 else (to_centre + 180) % 360
                props["wind"] = "NESW"[int(props["heading"]) // 90]  # type: ignore[call-overload]
                if role == "black_start":
                    props["start"] = "black"
            else:
                if rng.random() < 0.5:
                    props["wind"] = rng.choice("NESW")
                if rng.random() < 0.25:
                    props["magic"] = True
            feats.append(Feature(pid, "point", mid, props))
            point_ids.append(pid)
        # a second grey point near the port on some arms
        medium = "water" if role == "grey" and rng.random() < 0.15 else "land"
        feats.append(
            Feature(
                f"path{a}",
                "path",
                shapely.LineString([(50 * ux, 50 * uy), (0, 0)]),
                {"medium": medium},
            )
        )
        if role == "grey" and rng.random() < 0.5:
            feats.append(
                Feature(f"q{a}", "point", shapely.Point(40 * ux, 40 * uy), {"colour": "grey"})
            )
            point_ids.append(f"q{a}")
    if len(point_ids) >= 3 and rng.random() < 0.6:
        hexagon = translate(regular_polygon(6, 14), 22, 22)
        feats.append(Feature("cs", "counter_space", hexagon, {"arrival": point_ids[:3]}))
    return TileAsset(key, key.split("/")[-1], {"shape": "square", "size": 100}, feats, True)


def sample_board(rows: int = 4, cols: int = 4, seed: int = 0) -> Board:
    """A playable Ringgeister board of ``rows`` × ``cols`` square tiles.

    White starting points (9) line the west of the top-left tile; the goal sits
    behind the spider's path east of the bottom-right tile. Every tile has a
    black starting point; the figure set is sized to the number of them
    (Gollum, then Spirits and Orcs). Tiles start at random turns.
    """
    rng = random.Random(seed)
    board = Board(
        meta={
            "name": f"ringgeister sample {rows}x{cols} seed {seed}",
            "rules": "ringgeister",
            "width": 100 * cols + 250,
            "height": 100 * rows + 100,
            "settings": {"wind_corridor_mm": 15},
        }
    )
    ox, oy = 150.0, 50.0
    for r in range(rows):
        for c in range(cols):
            force: tuple[str, ...] = ()
            if (r, c) == (0, 0):
                force = ("W",)
            if (r, c) == (rows - 1, cols - 1):
                force = ("E",)
            key = f"sample/t{r}{c}"
            tile = _tile(key, rng, force)
            fixed = (r, c) in ((0, 0), (rows - 1, cols - 1))
            tile.turnable = not fixed
            board.tiles[key] = tile
            board.placements.append(
                Placement(
                    f"r{r}c{c}", key, ox + 100 * c, oy + 100 * r, 0 if fixed else rng.randrange(4)
                )
            )
    # the white starting corner, joined to the west side of the top-left tile
    y0, x0 = oy, ox - 50
    board.features.append(Feature("frame_w", "port", shapely.Point(x0, y0), {"side": "E"}))
    board.features.append(
        Feature(
            "start_path", "path", shapely.LineString([(x0, y0), (x0 - 90, y0)]), {"medium": "land"}
        )
    )
    for k in range(9):
        board.features.append(
            Feature(
                f"ws{k + 1}",
                "point",
                shapely.Point(x0 - 10 - 10 * k, y0),
                {"colour": "grey", "start": "white"},
            )
        )
    # the Mountain of Fire behind the spider, east of the bottom-right tile
    ex, ey = ox + 100 * (cols - 1) + 50, oy + 100 * (rows - 1)
    board.features.append(Feature("frame_e", "port", shapely.Point(ex, ey), {"side": "W"}))
    board.features.append(Feature("m1", "point", shapely.Point(ex + 20, ey), {"colour": "grey"}))
    board.features.append(
        Feature("goal", "point", shapely.Point(ex + 60, ey), {"colour": "grey", "goal": True})
    )
    board.features.append(
        Feature(
            "mount_path", "path", shapely.LineString([(ex, ey), (ex + 20, ey)]), {"medium": "land"}
        )
    )
    board.features.append(
        Feature(
            "spider_path",
            "path",
            shapely.LineString([(ex + 20, ey), (ex + 60, ey)]),
            {"medium": "land", "guard": "spider"},
        )
    )
    n_black = rows * cols
    spirits = (n_black - 1) // 2
    orcs = n_black - 1 - spirits
    board.piece_types = {
        **{
            f"ringgeister/{f}-{c}": {
                "side": "light",
                "figure": f,
                "colour": c,
                "size": "small" if f == "hobbit" else "medium",
                "count": 1,
            }
            for c in ("yellow", "orange", "purple", "green")
            for f in ("hobbit", "man")
        },
        "ringgeister/gandalf": {
            "side": "light",
            "figure": "gandalf",
            "colour": "white",
            "size": "large",
            "count": 1,
        },
        "ringgeister/gollum": {"side": "black", "figure": "gollum", "size": "small", "count": 1},
        "ringgeister/orc": {"side": "black", "figure": "orc", "size": "medium", "count": orcs},
        "ringgeister/spirit": {
            "side": "black",
            "figure": "spirit",
            "size": "large",
            "count": spirits,
        },
    }
    board.decks = {"ringgeister/cards": {"cards": default_cards()}}
    board.validate()
    return board
