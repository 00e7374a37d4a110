"""Generate the Riddle of the Ring sample map (``projects/riddle-sample``).

Run ``python projects/riddle-sample/generate.py`` to rewrite ``riddle-sample.bwproj``
and ``riddle-sample.json``; the same seed always gives the same map (no wall clock,
no unordered iteration).

How the map is made
-------------------
1. Seed points by dart throwing (sparser at sea), two rounds of Lloyd relaxation.
2. Smooth coast and lake shore: points near the shore curves are replaced by pairs
   mirrored across the curve, so the Voronoi edge between each pair lies on the
   curve (the border between land and water follows the drawn shore).
3. ``shapely.voronoi_polygons`` clipped to the board; coordinates snapped to 0.01
   mm; borders shorter than ~15 % of a cell are collapsed (no near-four-way corners)
   and tiny cells merged into a neighbour (no slivers).
4. Terrain by region: mountain ranges along polylines, forests in blobs, an ocean
   in the west and south-west, a lake in the east, Mordor's ring of mountains in
   the south-east with open ground inside (Cracks of Doom, Barad-Dur).
5. Cities (good, evil, neutral) near hand-placed anchors; the Shire in the
   north-west; the Exit Limbo space in the central hills.
6. Rivers along cell borders (shortest paths over the border graph with seeded
   jitter) from hills to the ocean or the lake, one out of the lake to the sea, one
   starting in a city (a city-dot); a river dot on every vertex of a river.
7. Roads between cities as shortest paths over the cell graph (through a forest and
   over mountain passes); each road runs centre → border midpoint → centre, and a
   bridge sits wherever it crosses a river, plus a few bridges off the roads.
8. Letters G (out-of-the-way spots), C (high places), S (remote corners); a name
   for every space.

``build(n=...)`` scales the same geography to any number of spaces (the benchmark
uses a 10,000-space map).
"""

from __future__ import annotations

import heapq
import itertools
import math
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np
import shapely

from referee.model import Board, Feature

SEED = 1954
N_SPACES = 380
ASPECT = 620.0 / 900.0
_Q = 100  # vertex keys at 0.01 mm

# ---------------------------------------------------------------- geography (unit square)
COAST = [
    (0.17, -0.05),
    (0.19, 0.10),
    (0.15, 0.22),
    (0.20, 0.34),
    (0.18, 0.46),
    (0.24, 0.58),
    (0.34, 0.66),
    (0.44, 0.70),
    (0.50, 0.78),
    (0.55, 0.88),
    (0.57, 1.05),
]
LAKE = ((0.80, 0.33), (0.075, 0.085))  # centre, semi-axes
RANGES = {
    "Greyspine Mountains": [(0.40, 0.04), (0.43, 0.20), (0.41, 0.36), (0.44, 0.50)],
    "Hollowcrest": [(0.47, 0.66), (0.58, 0.62), (0.68, 0.63)],
    "Ashen Wall": [(0.73, 0.62), (0.85, 0.60), (0.98, 0.62)],
    "Shadow Rim": [(0.73, 0.62), (0.72, 0.80), (0.74, 0.98)],
    "Central Hills": [(0.52, 0.40), (0.57, 0.47)],
    "Northern Fells": [(0.62, 0.03), (0.75, 0.07)],
}
MORDOR = [(0.74, 0.64), (0.99, 0.63), (0.99, 0.99), (0.75, 0.99)]
FORESTS = [
    ((0.27, 0.26), (0.06, 0.07)),
    ((0.63, 0.25), (0.08, 0.15)),
    ((0.36, 0.58), (0.05, 0.06)),
    ((0.87, 0.50), (0.06, 0.05)),
    ((0.30, 0.40), (0.04, 0.04)),
]
# (anchor, kind, name) — the cities
CITIES = [
    ((0.31, 0.15), "good", "Elderhaven"),
    ((0.24, 0.42), "good", "Westmarch"),
    ((0.55, 0.13), "good", "Thornbury"),
    ((0.36, 0.48), "good", "Silverford"),
    ((0.63, 0.48), "good", "Brightwater"),
    ((0.49, 0.72), "neutral", "Saltmarsh"),
    ((0.70, 0.36), "neutral", "Crossways"),
    ((0.92, 0.16), "neutral", "Millhaven"),
    ((0.50, 0.30), "neutral", "Tollbridge"),
    ((0.66, 0.74), "evil", "Ashgate"),
    ((0.93, 0.42), "evil", "Gloomspire"),
    ((0.63, 0.90), "evil", "Cinderhold"),
    ((0.85, 0.72), "evil", "Vexmoor"),
    ((0.28, 0.60), "neutral", "Ferrowick"),
]
SHIRE = (0.27, 0.07)
CRACKS = (0.84, 0.86)
BARAD = (0.93, 0.75)
EXIT_LIMBO = (0.55, 0.45)
# rivers: (name, source anchor or "city:<name>" or "lake", sink "ocean" or "lake")
RIVERS = [
    ("Great River", "lake", "ocean"),
    ("Swanwater", "city:Silverford", "ocean"),
    ("Greyflood", (0.42, 0.30), "ocean"),
    ("Rushwater", (0.66, 0.06), "lake"),
    ("Mistbourne", (0.41, 0.10), "ocean"),
]
# roads between cities and places (names)
ROADS = [
    ("East Road", ["The Shire", "Elderhaven", "Tollbridge", "Thornbury"]),
    ("Greyspine Pass", ["Elderhaven", "Westmarch", "Silverford", "Brightwater", "Crossways"]),
    ("Forest Way", ["Thornbury", "Crossways", "Gloomspire"]),
    ("South Road", ["Silverford", "Ferrowick", "Saltmarsh"]),
    ("Ash Road", ["Brightwater", "Ashgate", "Vexmoor", "Barad-Dur"]),
    ("Cinder Road", ["Saltmarsh", "Cinderhold", "Ashgate"]),
    ("Lake Road", ["Crossways", "Millhaven"]),
]

PREFIX = [
    "Ash",
    "Bram",
    "Cold",
    "Dun",
    "Elm",
    "Fern",
    "Gold",
    "Hollow",
    "Iron",
    "Kings",
    "Long",
    "Mist",
    "North",
    "Oak",
    "Red",
    "Stone",
    "Thorn",
    "Wind",
    "Wolf",
    "Yew",
    "Raven",
    "Swan",
    "Bright",
    "Dim",
    "Frost",
    "Green",
    "High",
    "Low",
    "Marsh",
    "Old",
    "Amber",
    "Birch",
    "Crane",
    "Deer",
    "Ember",
    "Fallow",
    "Glen",
    "Hart",
    "Ivy",
    "Lark",
    "Moss",
    "Night",
    "Otter",
    "Pine",
    "Quail",
    "Rush",
    "Sedge",
    "Tarn",
    "Umber",
    "Vale",
    "Wren",
    "Barrow",
    "Cairn",
    "Dusk",
    "Elder",
    "Fox",
    "Grey",
    "Heron",
    "Ox",
    "Rook",
]
SUFFIX = {
    "open": [
        "field",
        "ford",
        "dale",
        "down",
        "mead",
        "fold",
        "wold",
        "hurst",
        "stead",
        "ley",
        "combe",
        "moor",
        "heath",
        "by",
        "thorpe",
    ],
    "forest": ["wood", "holt", "grove", "shaw", "weald", "thicket"],
    "mountain": [" Peak", " Crag", " Tor", " Fell", " Spire", " Horn", " Scar"],
    "ocean": [" Deep", " Reach", " Sound", " Shoals", " Waters", " Gulf"],
    "lake": [" Mere", " Water", " Pool"],
}


def build(
    n: int = N_SPACES,
    seed: int = SEED,
    *,
    width: float | None = None,
    name: str = "Riddle of the Ring — sample map",
) -> Board:
    """The sample map with about ``n`` seed points (a few are merged away).

    Notes
    -----
    O(n log n) apart from the Lloyd rounds and the route searches (Dijkstra over
    the cell and border graphs, O(n log n) each).
    """
    rng = np.random.default_rng(seed)
    W = float(width if width is not None else 900.0 * math.sqrt(n / N_SPACES))
    H = W * ASPECT
    box = shapely.box(0, 0, W, H)
    s = math.sqrt(W * H / n)  # typical cell size

    coast = _smooth(np.array(COAST) * [W, H], 3)
    shapely.LineString(coast)
    ocean_poly = shapely.Polygon(np.vstack([coast, [[-W, 2 * H], [-W, -H]]])).intersection(box)
    (lx, ly), (la, lb) = LAKE
    t = np.linspace(0, 2 * np.pi, 64, endpoint=False)
    lake_ring = np.c_[
        lx * W + la * W * np.cos(t) * (1 + 0.08 * np.sin(3 * t)),
        ly * H + lb * W * np.sin(t) * (1 + 0.08 * np.cos(2 * t)),
    ]
    lake_poly = shapely.Polygon(lake_ring)
    water_poly = ocean_poly.union(lake_poly)

    # 1. points, each relaxed inside its own region (land, ocean, lake)
    land_poly = box.difference(water_poly)
    regions = [land_poly, ocean_poly, lake_poly]
    pts = _darts(rng, W, H, s, water_poly) if n <= 3000 else _jittered(rng, W, H, s, water_poly)
    kind = np.zeros(len(pts), dtype=int)
    kind[shapely.contains_xy(ocean_poly, pts[:, 0], pts[:, 1])] = 1
    kind[shapely.contains_xy(lake_poly, pts[:, 0], pts[:, 1])] = 2
    for k in (1, 2):  # at least a few water cells in each water region
        if (kind == k).sum() < 3:
            c = regions[k].representative_point()
            pts = np.vstack([pts, [[c.x, c.y]]])
            kind = np.append(kind, k)
    for _ in range(2):
        for k, reg in enumerate(regions):
            sel = np.nonzero(kind == k)[0]
            cells_k = _voronoi(pts[sel], box, reg)
            for j, c in zip(sel.tolist(), cells_k):
                cc = c.centroid if not c.is_empty else None
                if cc is not None and reg.contains(cc):
                    pts[j] = (cc.x, cc.y)
    # 2. cells: one Voronoi diagram per region clipped to it (so the shores follow the
    #    smooth curves), then all borders noded together so shared vertices match
    cells = []
    water = []
    lake = []
    for k, reg in enumerate(regions):
        sel = np.nonzero(kind == k)[0]
        for c in _voronoi(pts[sel], box, reg):
            for part in getattr(c, "geoms", [c]):
                if part.geom_type == "Polygon" and part.area > 1e-6:
                    cells.append(part)
                    water.append(k > 0)
                    lake.append(k == 2)
    cells = _node_cells(cells)
    # 3. tidy: collapse short borders, merge slivers
    cells = _collapse_short_edges(cells, 0.06 * s, W, H)
    cells, water, lake = _merge_small(cells, water, lake, 0.3)
    n_cells = len(cells)
    cent = np.array([[c.centroid.x, c.centroid.y] for c in cells])
    nbrs, borders = _adjacency(cells)

    # 4. terrain
    terrain = ["open"] * n_cells
    unit = np.array([W, H])
    mordor = shapely.Polygon(np.array(MORDOR) * unit)
    range_lines = {nm: shapely.LineString(np.array(p) * unit) for nm, p in RANGES.items()}
    cpts = shapely.points(cent)
    range_of: dict[int, str] = {}
    for nm, line in range_lines.items():
        dist = shapely.distance(cpts, line)
        for i in np.nonzero(dist < 0.62 * s)[0].tolist():
            range_of.setdefault(i, nm)
    for (fx, fy), (fa, fb) in FORESTS:
        dx = (cent[:, 0] - fx * W) / (fa * W)
        dy = (cent[:, 1] - fy * H) / (fb * H)
        for i in np.nonzero(dx * dx + dy * dy < 1.0)[0].tolist():
            terrain[i] = "forest"
    for i in range_of:
        terrain[i] = "mountain"
    for i in range(n_cells):
        if water[i]:
            terrain[i] = "lake" if lake[i] else "ocean"
            range_of.pop(i, None)
    in_mordor = [
        bool(mordor.contains(shapely.Point(*cent[i]))) and terrain[i] != "mountain"
        for i in range(n_cells)
    ]

    props: list[dict[str, Any]] = [{"terrain": terrain[i]} for i in range(n_cells)]
    taken: set[int] = set()

    def nearest(xy: tuple[float, float], ok: Any) -> int:
        d = np.hypot(cent[:, 0] - xy[0] * W, cent[:, 1] - xy[1] * H)
        for i in np.argsort(d, kind="stable").tolist():
            if ok(i):
                return int(i)
        raise RuntimeError("no cell fits")

    def free_land(i: int) -> bool:
        return (
            not water[i]
            and i not in taken
            and not any(j in taken for j in nbrs[i])
            and cent[i][0] > s
            and cent[i][1] > s
            and cent[i][0] < W - s
            and cent[i][1] < H - s
        )

    # 5. special spaces and cities
    named: dict[str, int] = {}
    i = nearest(SHIRE, lambda i: free_land(i) and terrain[i] == "open")
    props[i].update(role="shire", name="The Shire")
    named["The Shire"] = i
    taken.add(i)
    for xy, role, nm in (
        (CRACKS, "cracks_of_doom", "The Cracks of Doom"),
        (BARAD, "barad_dur", "Barad-Dur"),
    ):
        i = nearest(xy, lambda i: free_land(i) and in_mordor[i])
        props[i].update(role=role, name=nm, terrain="open")
        terrain[i] = "open"
        named[nm] = i
        taken.add(i)
    i = nearest(EXIT_LIMBO, lambda i: terrain[i] == "mountain" and i not in taken)
    props[i].update(role="exit_limbo", name="Exit Limbo")
    named["Exit Limbo"] = i
    taken.add(i)
    for xy, kind, nm in CITIES:
        i = nearest(xy, lambda i: free_land(i) and terrain[i] == "open")
        props[i].update(city=kind, name=nm)
        named[nm] = i
        taken.add(i)
    for i in range(n_cells):
        if in_mordor[i] and "name" not in props[i] and terrain[i] == "open":
            props[i]["mordor"] = True

    feats: list[Feature] = []
    # 6. rivers
    vgraph, vcells, vxy = _vertex_graph(cells)
    used_v: set[tuple[int, int]] = set()
    dot_no = 0
    river_segments: dict[frozenset[int], str] = {}  # cell pair -> river id
    for r, (rname, src, sink) in enumerate(RIVERS):
        rid = f"river{r + 1}"
        jitter = np.random.default_rng(seed * 31 + r)

        def land_v(v: tuple[int, int]) -> bool:
            cs = vcells[v]  # a triple point of land cells, off other rivers, outside Mordor
            return (
                len(cs) == 3
                and all(not water[c] for c in cs)
                and v not in used_v
                and not any(in_mordor[c] for c in cs)
            )

        def shore_v(v: tuple[int, int], kind: str) -> bool:
            cs = vcells[v]
            wat = [c for c in cs if water[c]]
            return (
                len(cs) == 3
                and len(wat) == 1
                and (lake[wat[0]] == (kind == "lake"))
                and v not in used_v
                and all(not in_mordor[c] for c in cs)
            )

        city_start = None
        if src == "lake":
            starts = [v for v in vgraph if shore_v(v, "lake")]
            starts.sort(key=lambda v: (vxy[v][0] - 0.74 * W) ** 2 + (vxy[v][1] - 0.40 * H) ** 2)
            starts = starts[:1]
        elif isinstance(src, str) and src.startswith("city:"):
            city_start = named[src[5:]]
            starts = [v for v in vgraph if city_start in vcells[v] and land_v(v)]
        else:
            cand = [v for v in vgraph if land_v(v) and len(vcells[v]) >= 3]
            cand.sort(key=lambda v: (vxy[v][0] - src[0] * W) ** 2 + (vxy[v][1] - src[1] * H) ** 2)
            starts = cand[:1]
        goals = {v for v in vgraph if shore_v(v, sink)}
        path = _route(
            vgraph,
            starts,
            goals,
            lambda v, goals=goals: land_v(v) or v in goals,
            lambda a, b, jitter=jitter: math.dist(vxy[a], vxy[b]) * (1.0 + 0.8 * jitter.random()),
        )
        if path is None:
            raise RuntimeError(f"no course for river {rname}")
        coords = [vxy[v] for v in path]
        if city_start is not None:
            c = cells[city_start].centroid
            coords = [(round(c.x, 2), round(c.y, 2))] + coords
            feats.append(
                Feature(
                    f"dot{dot_no + 1:03d}",
                    "river_dot",
                    shapely.Point(coords[0]),
                    {"city": f"s{city_start + 1:03d}"},
                )
            )
            dot_no += 1
        for v in path:
            used_v.add(v)
            for w in vgraph[v]:
                if len(vcells[w]) >= 4:
                    used_v.add(w)
            dot_no += 1
            feats.append(Feature(f"dot{dot_no:03d}", "river_dot", shapely.Point(vxy[v]), {}))
        for a, b in itertools.pairwise(path):
            pair = frozenset(vcells[a] & vcells[b])
            if len(pair) == 2:
                river_segments[pair] = rid
        feats.append(Feature(rid, "river", shapely.LineString(coords), {"name": rname}))
        for v in path:  # keep other rivers off this one's banks' vertices
            used_v.add(v)

    # 7. roads
    def road_ok(i: int) -> bool:
        return not water[i] and props[i].get("role") != "exit_limbo"

    def cross_point(a: int, b: int) -> tuple[float, float] | None:
        segs = borders.get((min(a, b), max(a, b)))
        if not segs:
            return None
        x0, y0, x1, y1 = max(segs, key=lambda q: math.hypot(q[2] - q[0], q[3] - q[1]))
        if math.hypot(x1 - x0, y1 - y0) < 0.22 * s:
            return None
        return (round((x0 + x1) / 2, 2), round((y0 + y1) / 2, 2))

    inside: dict[tuple[int, int], bool] = {}
    convex = [c.convex_hull.area - c.area < 1e-6 * c.area for c in cells]

    def stays_inside(a: int, b: int, cp: tuple[float, float]) -> bool:
        """The road's leg centre(a) -> cp -> centre(b) stays in a, then b (merged cells
        need not be convex)."""
        key = (a, b)
        if convex[a] and convex[b]:
            return True  # centre -> a point of a shared border stays in a convex cell
        if key not in inside:
            la = shapely.LineString([_centre(cells[a]), cp])
            lb = shapely.LineString([cp, _centre(cells[b])])
            inside[key] = bool(
                cells[a].buffer(0.01).covers(la) and cells[b].buffer(0.01).covers(lb)
            )
        return inside[key]

    def road_cost(a: int, b: int) -> float:
        cp = cross_point(a, b)
        if cp is None or not road_ok(b) or not stays_inside(a, b, cp):
            return math.inf
        w = {"open": 1.0, "forest": 1.1, "mountain": 2.0}.get(terrain[b], math.inf)
        if "city" in props[b] or "role" in props[b]:
            w += 0.5
        if frozenset((a, b)) in river_segments:
            w += 2.5
        return w

    bridges: dict[frozenset[int], tuple[float, float]] = {}
    road_cells: set[int] = set()
    for k, (rname, stops) in enumerate(ROADS):
        seq: list[int] = [named[stops[0]]]
        for nm in stops[1:]:
            leg = _route({}, [seq[-1]], {named[nm]}, road_ok, road_cost, nbrs=nbrs)
            if leg is None:
                raise RuntimeError(f"no course for road {rname} to {nm}")
            seq.extend(leg[1:])
        line: list[tuple[float, float]] = [_centre(cells[seq[0]])]
        for a, b in itertools.pairwise(seq):
            cp = cross_point(a, b)
            assert cp is not None
            line += [cp, _centre(cells[b])]
            if frozenset((a, b)) in river_segments:
                bridges[frozenset((a, b))] = cp
        road_cells.update(seq)
        feats.append(Feature(f"road{k + 1}", "road", shapely.LineString(line), {"name": rname}))
    # a few bridges away from the roads, one per river where possible
    for rid in sorted(set(river_segments.values())):
        segs = sorted(
            (tuple(sorted(p)) for p, r in river_segments.items() if r == rid and p not in bridges),
            key=lambda q: q,
        )
        if len(segs) < 4:
            continue
        a, b = segs[len(segs) // 2]
        cp = cross_point(a, b)
        if cp is not None and all(math.dist(cp, q) > 2 * s for q in bridges.values()):
            bridges[frozenset((a, b))] = cp
    for k, (_pair, xy) in enumerate(sorted(bridges.items(), key=lambda kv: kv[1])):
        feats.append(Feature(f"bridge{k + 1}", "bridge", shapely.Point(xy), {}))

    # 8. letters and names
    order = rng.permutation(n_cells).tolist()
    letters: dict[int, list[str]] = defaultdict(list)
    plain = [i for i in order if "role" not in props[i] and "city" not in props[i] and not water[i]]
    remote = sorted(
        plain,
        key=lambda i: -min(math.dist(cent[i], cent[c]) for c in [named[x[2]] for x in CITIES]),
    )
    g_cells = [i for i in plain if terrain[i] in ("forest", "mountain")][:6]
    c_cells = [i for i in plain if i in range_of and i not in g_cells][:3] + [
        named["Elderhaven"],
        named["Brightwater"],
        named["Gloomspire"],
    ]
    s_cells = [i for i in remote if i not in g_cells and i not in c_cells][:5]
    for lst, letter in ((g_cells, "G"), (c_cells, "C"), (s_cells, "S")):
        for i in lst:
            letters[i].append(letter)
    used_names = {p["name"] for p in props if "name" in p}
    for i in range(n_cells):
        if letters.get(i):
            props[i]["letters"] = sorted(letters[i])
        if "name" not in props[i]:
            for _ in range(200):
                pre = PREFIX[int(rng.integers(len(PREFIX)))]
                suf = SUFFIX[terrain[i]][int(rng.integers(len(SUFFIX[terrain[i]])))]
                nm = f"The {pre}{suf}" if terrain[i] in ("ocean", "lake") else f"{pre}{suf}"
                if nm not in used_names:
                    break
            else:
                nm = f"{nm} {i}"
            used_names.add(nm)
            props[i]["name"] = nm
        props[i].pop("mordor", None)
    board = Board(
        meta={
            "name": name,
            "rules": "riddle",
            "width": round(W, 2),
            "height": round(H, 2),
            "description": "An original region map for Riddle of the Ring, made by "
            "projects/riddle-sample/generate.py "
            f"(seed {seed}, {n_cells} spaces).",
            "settings": {"snap_tolerance_mm": 0.5},
        }
    )
    for i, c in enumerate(cells):
        board.features.append(Feature(f"s{i + 1:03d}", "space", c, props[i]))
    board.features.extend(feats)
    return board


# ---------------------------------------------------------------- helpers
def _smooth(pts: np.ndarray, rounds: int) -> np.ndarray:
    """Chaikin corner cutting of an open polyline (end points kept)."""
    for _ in range(rounds):
        a, b = pts[:-1], pts[1:]
        q = 0.75 * a + 0.25 * b
        r = 0.25 * a + 0.75 * b
        mid = np.empty((2 * len(a), 2))
        mid[0::2], mid[1::2] = q, r
        pts = np.vstack([pts[:1], mid[1:-1], pts[-1:]])
    return pts


def _darts(rng: np.random.Generator, W: float, H: float, s: float, water: Any) -> np.ndarray:
    """Dart throwing with a grid hash: min spacing 0.8 s on land, 1.25 s at sea."""
    cell = 0.8 * s / math.sqrt(2)
    grid: dict[tuple[int, int], list[int]] = defaultdict(list)
    out: list[tuple[float, float]] = []
    tries = int(40 * W * H / (s * s))
    xs = rng.uniform(0, W, tries)
    ys = rng.uniform(0, H, tries)
    wet = shapely.contains_xy(water, xs, ys)
    reach = math.ceil(1.25 * s / cell)
    for x, y, w in zip(xs.tolist(), ys.tolist(), wet.tolist()):
        r = 1.25 * s if w else 0.8 * s
        gx, gy = int(x // cell), int(y // cell)
        ok = True
        for ix in range(gx - reach, gx + reach + 1):
            for iy in range(gy - reach, gy + reach + 1):
                for j in grid.get((ix, iy), ()):
                    if (out[j][0] - x) ** 2 + (out[j][1] - y) ** 2 < r * r:
                        ok = False
                        break
                if not ok:
                    break
            if not ok:
                break
        if ok:
            grid[(gx, gy)].append(len(out))
            out.append((x, y))
    return np.array(out)


def _jittered(rng: np.random.Generator, W: float, H: float, s: float, water: Any) -> np.ndarray:
    """A jittered grid (for big maps, where dart throwing in Python is slow): one point
    per cell of side ``0.93 s`` on land, about half as many at sea."""
    step = 0.93 * s
    gx, gy = np.meshgrid(np.arange(step / 2, W, step), np.arange(step / 2, H, step))
    pts = np.c_[gx.ravel(), gy.ravel()] + rng.uniform(-0.35, 0.35, (gx.size, 2)) * step
    pts = np.clip(pts, 0.01, [W - 0.01, H - 0.01])
    wet = shapely.contains_xy(water, pts[:, 0], pts[:, 1])
    keep = ~wet | (rng.random(len(pts)) < 0.45)
    return pts[keep]


def _voronoi(pts: np.ndarray, box: Any, clip: Any) -> list[Any]:
    """Voronoi cells of ``pts`` clipped to ``clip``, in the order of the points."""
    if len(pts) == 1:
        return [clip]
    vor = shapely.voronoi_polygons(shapely.MultiPoint(pts), extend_to=box, ordered=True)
    cells = np.array(list(vor.geoms), dtype=object)
    return list(shapely.intersection(cells, clip))


def _node_cells(cells: list[Any]) -> list[Any]:
    """Re-make every cell from the noded union of all borders, so that two cells that
    share a border share its vertices too (no T-junctions along the shores)."""
    cells = list(shapely.set_precision(np.array(cells, dtype=object), 1.0 / _Q))
    lines = shapely.union_all(shapely.boundary(np.array(cells, dtype=object)), grid_size=1.0 / _Q)
    faces = list(shapely.get_parts(shapely.polygonize(list(shapely.get_parts(lines)))))
    tree = shapely.STRtree(np.array(cells, dtype=object))
    out: list[Any] = list(cells)
    best_area = [0.0] * len(cells)
    for f in faces:
        hit = tree.query(f.representative_point(), predicate="intersects").tolist()
        if not hit:
            continue
        i = hit[0]
        if f.area > best_area[i]:
            best_area[i] = f.area
            out[i] = shapely.Polygon(f.exterior)
    return out


def _key(x: float, y: float) -> tuple[int, int]:
    return (round(x * _Q), round(y * _Q))


def _collapse_short_edges(cells: list[Any], tol: float, W: float, H: float) -> list[Any]:
    """Merge the two ends of every border shorter than ``tol`` into one vertex."""
    parent: dict[tuple[int, int], tuple[int, int]] = {}

    def find(k: tuple[int, int]) -> tuple[int, int]:
        while parent.get(k, k) != k:
            k = parent[k]
        return k

    def rank(k: tuple[int, int]) -> int:  # corners > box sides > interior
        x, y = k[0] / _Q, k[1] / _Q
        on_x, on_y = x in (0.0, round(W * _Q) / _Q), y in (0.0, round(H * _Q) / _Q)
        return 2 if on_x and on_y else 1 if on_x or on_y else 0

    rings = [np.asarray(c.exterior.coords) for c in cells]
    for cs in rings:
        for a, b in itertools.pairwise(cs):
            if math.dist(a, b) < tol:
                ka, kb = find(_key(*a)), find(_key(*b))
                if ka != kb:
                    if rank(ka) == 2 and rank(kb) == 2:
                        continue
                    if rank(ka) >= rank(kb):
                        parent[kb] = ka
                    else:
                        parent[ka] = kb
    out = []
    for c, cs in zip(cells, rings):
        new: list[tuple[int, int]] = []
        for x, y in cs[:-1]:
            k = find(_key(x, y))
            if not new or new[-1] != k:
                new.append(k)
        while len(new) > 1 and new[0] == new[-1]:
            new.pop()
        if len(new) < 3:
            continue
        poly = shapely.Polygon([(k[0] / _Q, k[1] / _Q) for k in new])
        out.append(poly if poly.is_valid else c)
    return out


def _adjacency(cells: list[Any]) -> tuple[list[list[int]], dict[tuple[int, int], list[Any]]]:
    owners: dict[tuple[tuple[int, int], tuple[int, int]], list[int]] = defaultdict(list)
    for i, c in enumerate(cells):
        cs = np.asarray(c.exterior.coords)
        for a, b in itertools.pairwise(cs):
            ka, kb = _key(*a), _key(*b)
            if ka != kb:
                owners[(min(ka, kb), max(ka, kb))].append(i)
    nb: list[set[int]] = [set() for _ in cells]
    borders: dict[tuple[int, int], list[Any]] = defaultdict(list)
    for (ka, kb), os_ in owners.items():
        if len(os_) == 2 and os_[0] != os_[1]:
            a, b = sorted(os_)
            nb[a].add(b)
            nb[b].add(a)
            borders[(a, b)].append((ka[0] / _Q, ka[1] / _Q, kb[0] / _Q, kb[1] / _Q))
    return [sorted(x) for x in nb], dict(borders)


def _merge_small(
    cells: list[Any], water: list[bool], lake: list[bool], frac: float
) -> tuple[list[Any], list[bool], list[bool]]:
    """Merge every cell smaller than ``frac`` × the median area into the neighbour of the
    same kind with which it shares the longest border.

    Notes
    -----
    Each round merges every small cell whose partner is untouched in that round, so
    a few rounds of O(n) adjacency do it.
    """
    while True:
        areas = np.array([c.area for c in cells])
        med = float(np.median(areas))
        nbrs, borders = _adjacency(cells)
        small = [i for i in np.argsort(areas, kind="stable").tolist() if areas[i] < frac * med]
        busy: set[int] = set()
        gone: set[int] = set()
        new = list(cells)
        for i in small:
            if i in busy:
                continue
            best, blen = -1, 0.0
            for j in nbrs[i]:
                if water[j] != water[i] or lake[j] != lake[i]:
                    continue
                ln = sum(
                    math.hypot(q[2] - q[0], q[3] - q[1]) for q in borders[(min(i, j), max(i, j))]
                )
                if ln > blen:
                    best, blen = j, ln
            if best < 0 or best in busy:
                continue
            u = shapely.union(cells[i], cells[best])
            if u.geom_type != "Polygon" or len(u.interiors):
                continue
            new[best] = shapely.set_precision(u, 1.0 / _Q)
            gone.add(i)
            busy.update((i, best))
        if not gone:
            return cells, water, lake
        keep = [k for k in range(len(cells)) if k not in gone]
        cells = [new[k] for k in keep]
        water = [water[k] for k in keep]
        lake = [lake[k] for k in keep]


def _vertex_graph(
    cells: list[Any],
) -> tuple[
    dict[tuple[int, int], list[tuple[int, int]]],
    dict[tuple[int, int], set[int]],
    dict[tuple[int, int], tuple[float, float]],
]:
    """Border graph: vertices of cell rings, edges = borders shared by two cells."""
    owners: dict[tuple[tuple[int, int], tuple[int, int]], list[int]] = defaultdict(list)
    vcells: dict[tuple[int, int], set[int]] = defaultdict(set)
    for i, c in enumerate(cells):
        cs = np.asarray(c.exterior.coords)
        for a, b in itertools.pairwise(cs):
            ka, kb = _key(*a), _key(*b)
            if ka != kb:
                owners[(min(ka, kb), max(ka, kb))].append(i)
                vcells[ka].add(i)
                vcells[kb].add(i)
    vgraph: dict[tuple[int, int], list[tuple[int, int]]] = defaultdict(list)
    for (ka, kb), os_ in sorted(owners.items()):
        if len(os_) == 2:
            vgraph[ka].append(kb)
            vgraph[kb].append(ka)
    vxy = {k: (k[0] / _Q, k[1] / _Q) for k in vcells}
    return dict(vgraph), dict(vcells), vxy


def _route(
    graph: dict[Any, list[Any]],
    starts: list[Any],
    goals: set[Any],
    ok: Any,
    cost: Any,
    nbrs: list[list[int]] | None = None,
) -> list[Any] | None:
    """Dijkstra from any of ``starts`` to the nearest of ``goals`` over nodes ``ok``."""
    dist: dict[Any, float] = {}
    prev: dict[Any, Any] = {}
    heap: list[tuple[float, int, Any]] = []
    tie = 0
    for st in starts:
        dist[st] = 0.0
        heap.append((0.0, tie, st))
        tie += 1
    heapq.heapify(heap)
    while heap:
        d, _, u = heapq.heappop(heap)
        if d > dist.get(u, math.inf):
            continue
        if u in goals and u not in starts:
            path = [u]
            while path[-1] in prev:
                path.append(prev[path[-1]])
            return path[::-1]
        for v in nbrs[u] if nbrs is not None else graph.get(u, ()):
            if not ok(v) and v not in goals:
                continue
            w = cost(u, v)
            if w == math.inf:
                continue
            nd = d + w
            if nd < dist.get(v, math.inf):
                dist[v] = nd
                prev[v] = u
                tie += 1
                heapq.heappush(heap, (nd, tie, v))
    return None


def _centre(poly: Any) -> tuple[float, float]:
    c = poly.centroid
    if not poly.contains(c):
        c = poly.representative_point()
    return (round(c.x, 2), round(c.y, 2))


def main(argv: list[str] | None = None) -> int:
    from referee.store import export_json, save_project

    here = Path(__file__).resolve().parent
    board = build()
    save_project(board, here / "riddle-sample.bwproj")
    export_json(board, here / "riddle-sample.json")
    n = sum(f.kind == "space" for f in board.features)
    print(f"wrote {here / 'riddle-sample.bwproj'} and .json ({n} spaces)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
