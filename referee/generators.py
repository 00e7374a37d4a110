"""Board generators: seeded region maps and tile grids, for samples, tests and benchmarks.

Like :mod:`networkx.generators`: each function returns a new :class:`Board` built
from a seed, so the same arguments always give the same board.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import defaultdict
from typing import Any

import numpy as np
import shapely

from .model import Board, Feature, Placement, TileAsset

_Q = 1000.0


def voronoi_map(
    n: int,
    seed: int = 0,
    *,
    width: float | None = None,
    rivers: int = 4,
    river_steps: int = 12,
    roads: int = 4,
    road_steps: int = 10,
    relax: int = 1,
) -> Board:
    """A region map of about ``n`` Voronoi spaces with rivers, river dots and roads.

    Parameters
    ----------
    n : int
        Number of seed points (spaces).
    seed : int
        Random seed.
    width : float, optional
        Side of the square map in mm (default: 20 mm per space side, ``20 * sqrt(n)``).
    rivers, river_steps : int
        Number of rivers, and Voronoi edges per river. Rivers run along cell borders;
        a river dot sits on every interior vertex of a river (a triple point).
    roads, road_steps : int
        Number of roads, and cells per road (a walk between neighbouring cells).
    relax : int
        Lloyd relaxation rounds (more even cells).

    Notes
    -----
    O(n log n): one ``shapely.voronoi_polygons`` call per relaxation round plus
    shared-edge hashing to find neighbours.
    """
    rng = random.Random(seed)
    w = float(width if width is not None else 20.0 * math.sqrt(n))
    box = shapely.box(0, 0, w, w)
    pts = np.array([[rng.uniform(0, w), rng.uniform(0, w)] for _ in range(n)])
    cells = _voronoi(pts, box)
    for _ in range(relax):
        pts = shapely.get_coordinates(shapely.centroid(cells))
        cells = _voronoi(pts, box)
    cells = shapely.set_precision(cells, 1e-3)  # shared vertices become bit-identical
    pts = shapely.get_coordinates(shapely.centroid(cells))
    terrains = ["open"] * 6 + ["forest", "forest", "mountain"]
    board = Board(meta={"name": f"voronoi-{n}-{seed}", "width": w, "height": w})
    for i, c in enumerate(cells):
        t = rng.choice(terrains)
        board.features.append(Feature(f"s{i}", "space", c, {"terrain": t}))

    # vertex graph of cell borders (interior edges only) and cell adjacency
    edge_cells: dict[tuple[tuple[int, int], tuple[int, int]], list[int]] = defaultdict(list)
    for i, c in enumerate(cells):
        cs = np.asarray(c.exterior.coords)
        for a, b in itertools.pairwise(cs):
            ka, kb = _key(a), _key(b)
            if ka != kb:
                edge_cells[(min(ka, kb), max(ka, kb))].append(i)
    vgraph: dict[tuple[int, int], list[tuple[int, int]]] = defaultdict(list)
    vcells: dict[tuple[int, int], set[int]] = defaultdict(set)
    nbrs: dict[int, set[int]] = defaultdict(set)
    for (ka, kb), owners in edge_cells.items():
        if len(owners) == 2:
            vgraph[ka].append(kb)
            vgraph[kb].append(ka)
            nbrs[owners[0]].add(owners[1])
            nbrs[owners[1]].add(owners[0])
        for o in owners:
            vcells[ka].add(o)
            vcells[kb].add(o)
    triple = sorted(v for v in vgraph if len(vcells[v]) >= 3)
    used: set[tuple[int, int]] = set()
    for r in range(rivers):
        if not triple:
            break
        for _attempt in range(20):
            start = rng.choice(triple)
            if start in used:
                continue
            walk = [start]
            while len(walk) <= river_steps:
                opts = [v for v in vgraph[walk[-1]] if v not in used and v not in walk]
                if not opts:
                    break
                walk.append(rng.choice(opts))
            if len(walk) >= 3:
                break
        else:
            continue
        used.update(walk)
        coords = [(k[0] / _Q, k[1] / _Q) for k in walk]
        board.features.append(Feature(f"river{r}", "river", shapely.LineString(coords), {}))
        for j, k in enumerate(walk[1:-1], 1):
            if len(vcells[k]) >= 3:
                board.features.append(
                    Feature(
                        f"river{r}_dot{j}", "river_dot", shapely.Point(k[0] / _Q, k[1] / _Q), {}
                    )
                )
    for r in range(roads):
        cur = rng.randrange(len(cells))
        seq = [cur]
        for _ in range(road_steps):
            steps = [
                j
                for j in sorted(nbrs[seq[-1]])
                if j not in seq
                and _crosses_shared_edge(pts[seq[-1]], pts[j], cells[seq[-1]], cells[j])
            ]
            if not steps:
                break
            seq.append(rng.choice(steps))
        if len(seq) >= 2:
            board.features.append(
                Feature(f"road{r}", "road", shapely.LineString([tuple(pts[i]) for i in seq]), {})
            )
    return board


def _voronoi(pts: np.ndarray, box: shapely.Polygon) -> list[Any]:
    vor = shapely.voronoi_polygons(shapely.MultiPoint(pts), extend_to=box)
    cells = [g.intersection(box) for g in vor.geoms]
    # order cells like their seed points for stability
    tree = shapely.STRtree(np.array(cells, dtype=object))
    order = tree.query(shapely.points(pts), predicate="intersects")
    first: dict[int, int] = {}
    for p, c in zip(order[0].tolist(), order[1].tolist()):
        first.setdefault(p, c)
    return [cells[first[i]] for i in range(len(pts)) if i in first]


def _key(xy: Any) -> tuple[int, int]:
    return (round(float(xy[0]) * _Q), round(float(xy[1]) * _Q))


def _crosses_shared_edge(a: Any, b: Any, ca: Any, cb: Any) -> bool:
    seg = shapely.LineString([tuple(a), tuple(b)])
    shared = ca.boundary.intersection(cb.boundary)
    return (
        bool(seg.intersects(shared))
        and shared.length > 0
        and ca.contains(shapely.Point(a))
        and cb.contains(shapely.Point(b))
    )


def random_tile(
    key: str,
    rng: random.Random,
    *,
    shape: str = "square",
    size: float = 80.0,
    points: int = 2,
    turnable: bool = True,
) -> TileAsset:
    """A tile with ports on its four sides and paths from a centre junction to some ports.

    Each port gets a path with probability 1/2 (at least one); ``points`` points are
    spread along those paths.
    """
    r = size / 2.0
    sides = {"N": (0.0, -r), "E": (r, 0.0), "S": (0.0, r), "W": (-r, 0.0)}
    feats = [
        Feature(f"port{s}", "port", shapely.Point(*xy), {"side": s}) for s, xy in sides.items()
    ]
    chosen = [s for s in sides if rng.random() < 0.5] or [rng.choice(list(sides))]
    feats.append(Feature("hub", "junction", shapely.Point(0, 0), {}))
    for k, s in enumerate(chosen):
        x, y = sides[s]
        feats.append(Feature(f"path{s}", "path", shapely.LineString([(0, 0), (x, y)]), {}))
        if k < points:
            feats.append(
                Feature(f"pt{s}", "point", shapely.Point(x / 2, y / 2), {"colour": "grey"})
            )
    return TileAsset(key, key, {"shape": shape, "size": size}, feats, turnable)


def tile_grid(
    rows: int, cols: int, seed: int = 0, *, turnable: int | None = None, pitch: float = 100.0
) -> Board:
    """A ``rows`` × ``cols`` grid of random tiles at ``pitch`` mm.

    Octagons (120 mm) and squares (80 mm) alternate like the Ringgeister board, so
    facing ports coincide. ``turnable`` limits how many tiles may turn (the first
    ones in a seeded shuffle); the top-left point is a white start, the
    bottom-right a goal.
    """
    rng = random.Random(seed)
    board = Board(
        meta={"name": f"grid-{rows}x{cols}-{seed}", "width": cols * pitch, "height": rows * pitch}
    )
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    can_turn = set(range(len(cells)))
    if turnable is not None:
        order = list(range(len(cells)))
        rng.shuffle(order)
        can_turn = set(order[:turnable])
    for i, (r, c) in enumerate(cells):
        octo = (r + c) % 2 == 1
        key = f"gen/t{i}"
        tile = random_tile(
            key,
            rng,
            shape="octagon" if octo else "square",
            size=120.0 if octo else 80.0,
            turnable=i in can_turn,
        )
        board.tiles[key] = tile
        board.placements.append(
            Placement(
                f"t{i}",
                key,
                pitch / 2 + c * pitch,
                pitch / 2 + r * pitch,
                rng.randrange(4) if i in can_turn else 0,
            )
        )
    # mark a start and a goal on points of the corner tiles
    for tile_idx, prop in ((0, {"start": "white"}), (len(cells) - 1, {"goal": True})):
        tile = board.tiles[f"gen/t{tile_idx}"]
        for f in tile.features:
            if f.kind == "point":
                f.props.update(prop)
                break
        tile.invalidate()
    return board
