"""Build the Ringgeister asset pack and its default board (docs/rulings.md).

Run from the repository root::

    python assets/ringgeister/build.py            # writes tiles, pack.json, projects/ringgeister
    python assets/ringgeister/build.py --search   # also re-search the default turns

Everything the pack holds is written by this script, so the content is
reproducible and reviewable as code: 12 octagons (120 mm across flats) and 11
squares (80 mm), the two fixed frame corners (the 9 white starting points, and
the Mountain of Fire behind the spider's secret passage), the figures, the
24-card deck and the default project ``projects/ringgeister`` (SQLite file and
its JSON export, written through :mod:`referee.store`).

The frame corners are **free-standing features of the board**, not tiles: they
never turn, carry no black point, and a tile with ``turnable: false`` means "a
landscape element with a single black point" in the rulebook's words — keeping
the corners out of the tiles keeps that count honest (5 fixed tiles, 18
turnable ones) and gives their nodes short ids (``ws1``…``ws9``, ``fire-goal``).

Geometry conventions are the board's: millimetres, y down, north is −y. Every
feature of a tile is in the tile frame (centre at the origin); the four ports
sit at the midpoints of the axis-aligned sides, (0, ±R) and (±R, 0) with R = 60
for octagons and 40 for squares. Points are kept at least 6.5 mm inside their
tile's outline so that points of neighbouring tiles are never closer than 13 mm,
whatever the turns.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from shapely.geometry import LineString, Point, Polygon
from shapely.ops import substring

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from referee.assets import AssetPack, load_pack  # noqa: E402
from referee.geometry import geometry_to_json, line_end_bearings, regular_polygon  # noqa: E402
from referee.model import Board, Feature, PieceOnBoard, Placement  # noqa: E402
from referee.store import export_json, save_project  # noqa: E402

PACK_DIR = Path(__file__).resolve().parent
PROJECT_DIR = ROOT / "projects" / "ringgeister"
PACK = "ringgeister"

#: the least distance of a point from its tile's outline (see module docs)
EDGE_MARGIN = 6.5
#: no two points closer than this (issue 3)
MIN_POINT_GAP = 12.0

COLOURS = ("yellow", "orange", "purple", "green")


# ---------------------------------------------------------------------- geometry helpers
def arc(
    cx: float, cy: float, r: float, a0: float, a1: float, step: float = 5.0
) -> list[tuple[float, float]]:
    """Polyline of a circular arc, angles in screen degrees (0 = +x, 90 = +y, i.e. down)."""
    n = max(2, int(abs(a1 - a0) / step) + 1)
    out = []
    for k in range(n + 1):
        a = math.radians(a0 + (a1 - a0) * k / n)
        out.append((round(cx + r * math.cos(a), 4) + 0.0, round(cy + r * math.sin(a), 4) + 0.0))
    return out


def join(*parts: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """Concatenate polylines, dropping a repeated joint vertex."""
    out: list[tuple[float, float]] = []
    for part in parts:
        for p in part:
            if out and math.dist(out[-1], p) < 1e-6:
                continue
            out.append(p)
    return out


def blob(
    cx: float, cy: float, rx: float, ry: float, seed: int, n: int = 11, wobble: float = 0.18
) -> list[tuple[float, float]]:
    """A soft irregular closed outline (forest, lake, field)."""
    rnd = random.Random(seed)
    pts = []
    for k in range(n):
        a = 2 * math.pi * k / n
        f = 1 + rnd.uniform(-wobble, wobble)
        pts.append((round(cx + rx * f * math.cos(a), 2), round(cy + ry * f * math.sin(a), 2)))
    return pts


def hexagon(cx: float, cy: float, across_flats: float = 12.0) -> list[tuple[float, float]]:
    poly = regular_polygon(6, across_flats, flat_on_top=False)
    return [(round(x + cx, 4), round(y + cy, 4)) for x, y in list(poly.exterior.coords)[:-1]]


def compass_or_degrees(bearing: float) -> str | float:
    """A bearing as N/E/S/W when it is one (within 0.01°), else degrees."""
    for k, letter in enumerate("NESW"):
        d = abs((bearing - 90 * k + 180) % 360 - 180)
        if d < 0.01:
            return letter
    return round(bearing % 360, 2)


# ---------------------------------------------------------------------- tile builder
@dataclass
class TileBuilder:
    """Collect the features of one tile (or of the free-standing frame)."""

    tid: str
    name: str
    shape: str | None  # "octagon", "square", or None for the frame
    turnable: bool = True
    description: str = ""
    features: list[dict[str, Any]] = field(default_factory=list)
    lines: dict[str, LineString] = field(default_factory=dict)
    n: dict[str, int] = field(default_factory=dict)
    prefix: str = ""

    def __post_init__(self) -> None:
        if self.shape:
            self.R = 60.0 if self.shape == "octagon" else 40.0
            self.outline = regular_polygon(8 if self.shape == "octagon" else 4, 2 * self.R)
            for side, (x, y) in zip("NESW", ((0, -self.R), (self.R, 0), (0, self.R), (-self.R, 0))):
                self._add(f"port{side}", "port", Point(x, y), {"side": side})

    # -- ids
    def _next(self, stem: str) -> str:
        self.n[stem] = self.n.get(stem, 0) + 1
        return f"{self.prefix}{stem}{self.n[stem]}"

    def _add(self, fid: str, kind: str, geom: Any, props: dict[str, Any]) -> str:
        self.features.append(
            {"id": fid, "kind": kind, "geometry": geometry_to_json(geom), "props": props}
        )
        return fid

    def port_xy(self, side: str) -> tuple[float, float]:
        return {"N": (0.0, -self.R), "E": (self.R, 0.0), "S": (0.0, self.R), "W": (-self.R, 0.0)}[
            side
        ]

    # -- features
    def path(
        self,
        coords: list[tuple[float, float]],
        medium: str = "land",
        guard: str | None = None,
        fid: str | None = None,
    ) -> str:
        fid = fid or self._next("l")
        line = LineString(coords)
        self.lines[fid] = line
        props: dict[str, Any] = {"medium": medium}
        if guard:
            props["guard"] = guard
        self._add(fid, "path", line, props)
        return fid

    def _at(self, line_id: str, dist: float) -> Point:
        line = self.lines[line_id]
        d = dist if dist >= 0 else line.length + dist
        p = line.interpolate(d)
        return Point(round(p.x, 4) + 0.0, round(p.y, 4) + 0.0)

    def bearing(self, line_id: str, dist: float, forward: bool) -> float:
        """Bearing leaving the spot ``dist`` along the line, as the compiler measures it."""
        line = self.lines[line_id]
        d = dist if dist >= 0 else line.length + dist
        if forward:
            return line_end_bearings(list(substring(line, d, line.length).coords))[0]
        return line_end_bearings(list(substring(line, 0, d).coords))[1]

    def point(
        self,
        line_id: str,
        dist: float,
        colour: str = "grey",
        *,
        wind: str | None = None,
        heading: str | None = None,
        magic: bool = False,
        start: str | None = None,
        goal: bool = False,
        name: str | None = None,
        fid: str | None = None,
        rock: int = 0,
    ) -> str:
        """A point ``dist`` mm along a path (negative: from its end).

        ``heading`` is ``"fwd"`` (the direction the line is drawn) or ``"back"``;
        ``rock`` (±1) puts the rock 9 mm to the left (−1) or right (+1) of the path.
        """
        p = self._at(line_id, dist)
        props: dict[str, Any] = {"colour": colour}
        if wind:
            props["wind"] = wind
        if heading:
            props["heading"] = compass_or_degrees(self.bearing(line_id, dist, heading == "fwd"))
        if magic:
            props["magic"] = True
        if start:
            props["start"] = start
        if goal:
            props["goal"] = True
        if name:
            props["name"] = name
        fid = fid or self._next("p")
        self._add(fid, "point", p, props)
        if rock:
            b = math.radians(self.bearing(line_id, dist, True))
            dx, dy = math.sin(b), -math.cos(b)  # along the line
            nx_, ny_ = -dy * rock, dx * rock  # to its right (+1) or left (-1)
            cx, cy = p.x + 10 * nx_, p.y + 10 * ny_
            self.rock(cx, cy, seed=len(self.features))
        return fid

    def junction(self, x: float, y: float, forced_right: bool = False) -> str:
        props = {"forced_right": True} if forced_right else {}
        return self._add(self._next("j"), "junction", Point(x, y), props)

    def door(self, line_id: str, dist: float, symbol: str) -> str:
        return self._add(self._next("d"), "door", self._at(line_id, dist), {"symbol": symbol})

    def counter(self, cx: float, cy: float, arrival: list[str]) -> str:
        return self._add(
            self._next("c"),
            "counter_space",
            Polygon(hexagon(cx, cy, 13.0)),
            {"arrival": list(arrival)},
        )

    def art(self, terrain: str, coords: list[tuple[float, float]], **props: Any) -> str:
        return self._add(self._next("a"), "art", Polygon(coords), {"terrain": terrain, **props})

    def rock(self, cx: float, cy: float, seed: int = 0) -> str:
        return self.art("rock", blob(cx, cy, 4.2, 3.4, seed, n=7, wobble=0.25))

    def forest(self, cx: float, cy: float, rx: float, ry: float, seed: int) -> str:
        return self.art("forest", blob(cx, cy, rx, ry, seed))

    def mountains(self, cx: float, cy: float, w: float, seed: int) -> str:
        """A mountain range: a soft outline the renderer fills with peaks."""
        return self.art("mountain", blob(cx, cy, w / 2, w * 0.36, seed, n=9, wobble=0.15))

    def water(self, cx: float, cy: float, rx: float, ry: float, seed: int) -> str:
        return self.art("water", blob(cx, cy, rx, ry, seed, wobble=0.1))

    def label(self, x: float, y: float, text: str, size: float = 4.0) -> str:
        return self._add(self._next("t"), "label", Point(x, y), {"text": text, "size": size})

    # -- output
    def check(self) -> None:
        pts = [
            (f["id"], Point(f["geometry"]["coordinates"]))
            for f in self.features
            if f["kind"] == "point"
        ]
        for i, (a, pa) in enumerate(pts):
            if self.shape and self.outline.exterior.distance(pa) < EDGE_MARGIN - 1e-6:
                raise SystemExit(
                    f"{self.tid}: point {a} at ({pa.x:g}, {pa.y:g}) is closer than "
                    f"{EDGE_MARGIN} mm to the tile edge"
                )
            for b, pb in pts[i + 1 :]:
                if pa.distance(pb) < MIN_POINT_GAP:
                    raise SystemExit(
                        f"{self.tid}: points {a} and {b} are {pa.distance(pb):.1f} mm apart"
                    )

    def aim_winds(self) -> None:
        """Aim the wind arrows: a black point's along its heading, others along the axes.

        A grey point on one of the tile's axes blows along the axis, towards the centre.

        The axes of a tile lie on a row and a column of tile centres whatever the
        turn, so such a ray sweeps along a line full of points (ruling 8: the
        nearest black figure within 15 mm of the ray plays).
        """
        for f in self.features:
            if f["kind"] != "point" or "wind" not in f["props"]:
                continue
            x, y = f["geometry"]["coordinates"]
            heading = f["props"].get("heading")
            if f["props"].get("colour") == "black" and heading is not None:
                # "The arrows on the black points do not only indicate the direction of
                # the wind ... the arrow also determines the direction in which this
                # figure moves": one arrow, the cardinal nearest the heading
                b = heading if isinstance(heading, (int, float)) else 90 * "NESW".index(heading)
                f["props"]["wind"] = "NESW"[round(b / 90) % 4]
            elif abs(x) < 0.5 and abs(y) > 0.5:
                f["props"]["wind"] = "S" if y < 0 else "N"
            elif abs(y) < 0.5 and abs(x) > 0.5:
                f["props"]["wind"] = "E" if x < 0 else "W"

    def tile_json(self) -> dict[str, Any]:
        self.aim_winds()
        self.check()
        return {
            "id": self.tid,
            "name": self.name,
            "outline": {"shape": self.shape, "size": 2 * self.R},
            "turnable": self.turnable,
            "props": {"description": self.description} if self.description else {},
            "features": self.features,
        }


# ---------------------------------------------------------------------- the tiles
def oct_arc(corner: str) -> list[tuple[float, float]]:
    """A quarter-circle bend between two neighbouring ports of an octagon (radius 60).

    ``corner`` names the bend: "NE" runs from the N port to the E port, etc.
    """
    return {
        "NE": arc(60, -60, 60, 180, 90),
        "ES": arc(60, 60, 60, 270, 180),
        "SW": arc(-60, 60, 60, 0, -90),
        "WN": arc(-60, -60, 60, 90, 0),
    }[corner]


def sq_arc(corner: str) -> list[tuple[float, float]]:
    """A quarter-circle bend between two neighbouring ports of a square (radius 40)."""
    return {
        "NE": arc(40, -40, 40, 180, 90),
        "ES": arc(40, 40, 40, 270, 180),
        "SW": arc(-40, 40, 40, 0, -90),
        "WN": arc(-40, -40, 40, 90, 0),
    }[corner]


def octagons() -> list[TileBuilder]:
    out: list[TileBuilder] = []

    # 1 -- crossroads: the one four-way crossing among the octagons
    t = TileBuilder(
        "oct-crossroads",
        "Crossroads of the Barrow Wights",
        "octagon",
        description="four roads meet at a crossing; a door of the moon on the east road",
    )
    t.junction(0, 0)
    n = t.path([(0, -60), (0, 0)])
    e = t.path([(60, 0), (0, 0)])
    s = t.path([(0, 60), (0, 0)])
    w = t.path(join([(-60, 0)], arc(-34, 0, 16, 180, 0, step=10), [(0, 0)]))
    t.point(n, 16, "black", start="black", heading="fwd", wind="E", rock=-1)
    t.point(n, 40, wind="W")
    t.point(e, 14, wind="N")
    t.door(e, 34, "moon")
    t.point(e, 46, magic=True)
    t.point(s, 18, "black", heading="back", wind="W")
    t.point(s, 42, wind="E")
    b1 = t.point(w, 10, wind="S")
    b2 = t.point(w, 10 + 8 * math.pi)
    b3 = t.point(w, 10 + 16 * math.pi, wind="N")
    t.counter(-34, 0, [b1, b2, b3])
    t.forest(34, -34, 16, 12, 1)
    t.forest(-30, 34, 14, 12, 2)
    t.mountains(-32, -30, 26, 3)
    out.append(t)

    # 2 -- a straight road with a cul-de-sac behind a fork of three arrows
    t = TileBuilder(
        "oct-cul-de-sac",
        "The Old Road and the Hermit's Cave",
        "octagon",
        description="a straight road; a fork with three arrows leads into a cave",
    )
    ns = t.path([(0, -60), (0, 60)])
    t.junction(0, 0, forced_right=True)
    sp = t.path([(0, 0), (40, 0)])
    t.point(ns, 16, wind="W")
    t.point(ns, 38, "black", start="black", heading="fwd", wind="E", rock=1)
    t.point(ns, 82, magic=True, wind="W")
    t.point(ns, 104, "black", heading="back", wind="E")
    t.point(sp, 20)
    t.point(sp, 40, wind="E")
    t.mountains(34, -30, 30, 4)
    t.mountains(30, 32, 26, 5)
    t.forest(-32, -12, 12, 22, 6)
    out.append(t)

    # 3 -- twin bends (land)
    t = TileBuilder(
        "oct-twin-bends",
        "The Twin Bends of the Hollow Hills",
        "octagon",
        description="two roads bend past each other and never meet",
    )
    ne = t.path(oct_arc("NE"))
    sw = t.path(oct_arc("SW"))
    t.point(ne, 16, wind="N")
    t.point(ne, 47, "black", start="black", heading="fwd", wind="E", rock=1)
    t.point(ne, 78, magic=True)
    t.point(sw, 18, "black", heading="fwd", wind="S")
    t.door(sw, 47, "star")
    t.point(sw, 66, wind="W")
    t.point(sw, 84)
    t.forest(-30, -30, 16, 14, 7)
    t.forest(34, 30, 14, 14, 8)
    out.append(t)

    # 4 -- a T with a fork of three arrows and a counter space
    t = TileBuilder(
        "oct-three-arrows",
        "The Fork of Three Arrows",
        "octagon",
        description="west, east and south roads meet at a fork with three arrows",
    )
    t.junction(0, 0, forced_right=True)
    w = t.path([(-60, 0), (0, 0)])
    e = t.path([(0, 0), (60, 0)])
    s = t.path([(0, 0), (0, 22), *arc(0, 36, 14, 270, 90, step=10)[1:], (0, 60)])
    t.point(w, 14, wind="N")
    t.point(w, 36, "black", start="black", heading="fwd", wind="S", rock=1)
    t.point(e, 22, "black", heading="back", wind="S")
    t.point(e, 44, magic=True)
    a1 = t.point(s, 22)
    a2 = t.point(s, 22 + math.pi * 7, wind="E")
    a3 = t.point(s, 22 + math.pi * 14)
    t.counter(0, 36, [a1, a2, a3])
    t.mountains(-30, -30, 30, 9)
    t.forest(30, -30, 16, 13, 10)
    out.append(t)

    # 5 -- a bend, and a tower at the end of a blind road
    t = TileBuilder(
        "oct-lonely-tower",
        "The Lonely Tower",
        "octagon",
        description="a bend round a counter space; the south road ends at a tower",
    )
    ne = t.path(oct_arc("NE"))
    s = t.path([(0, 60), (0, 12)])
    a1 = t.point(ne, 22, wind="W")
    a2 = t.point(ne, 47, magic=True)
    a3 = t.point(ne, 72, wind="S")
    t.counter(33, -33, [a1, a2, a3])
    t.point(s, 18, "black", start="black", heading="back", wind="E", rock=1)
    t.door(s, 33, "moon")
    t.point(s, 48, "black", heading="back", wind="W", name="the tower")
    t.forest(-30, -28, 18, 16, 11)
    t.mountains(-28, 30, 26, 12)
    out.append(t)

    # 6 -- a river bend and a road bend
    t = TileBuilder(
        "oct-river-bend",
        "Where the Road Leaves the River",
        "octagon",
        description="a waterway bends from north to east; a road from south to west",
    )
    ne = t.path(oct_arc("NE"), medium="water")
    sw = t.path(oct_arc("SW"))
    r1 = t.point(ne, 22)
    r2 = t.point(ne, 47, wind="E")
    r3 = t.point(ne, 72)
    t.counter(33, -33, [r1, r2, r3])
    t.point(sw, 20, "black", heading="fwd", wind="S")
    t.point(sw, 47, "black", start="black", heading="back", wind="N", rock=-1)
    t.point(sw, 74, magic=True, wind="W")
    t.water(40, -14, 8, 10, 13)
    t.forest(-32, -30, 14, 14, 14)
    t.mountains(32, 30, 28, 15)
    out.append(t)

    # 7 -- a road through a loop round a counter space (only W and E)
    t = TileBuilder(
        "oct-loop",
        "The Ring of Stones",
        "octagon",
        description="the road from west to east divides round a ring of stones",
    )
    t.junction(-25, 0)
    t.junction(25, 0, forced_right=True)
    w = t.path([(-60, 0), (-25, 0)])
    top = t.path(arc(0, 0, 25, 180, 360))
    mid = t.path([(-25, 0), (25, 0)])
    e = t.path([(25, 0), (60, 0)])
    t.point(w, 16, "black", start="black", heading="fwd", wind="N", rock=1)
    a1 = t.point(top, 25 * math.pi / 4)
    t.point(top, 25 * math.pi / 2, wind="N")
    a3 = t.point(top, 25 * math.pi * 3 / 4)
    a2 = t.point(mid, 25, magic=True)
    t.counter(0, -11, [a1, a2, a3])
    t.point(e, 17, "black", heading="back", wind="S")
    t.forest(0, 36, 28, 13, 16)
    t.mountains(-34, -34, 22, 17)
    t.mountains(30, -40, 22, 18)
    out.append(t)

    # 8 -- a Y with a waterway
    t = TileBuilder(
        "oct-watchtower",
        "The Watchtower on the Water",
        "octagon",
        description="roads from north and east meet; the waterway runs south",
    )
    t.junction(0, 0)
    n = t.path([(0, -60), (0, 0)])
    e = t.path([(60, 0), (0, 0)])
    s = t.path([(0, 0), (0, 60)], medium="water")
    t.door(n, 8, "star")
    t.point(n, 20, wind="W")
    t.point(n, 42, "black", start="black", heading="fwd", wind="E", rock=-1)
    t.point(e, 20, "black", heading="fwd", wind="N")
    t.point(e, 44, magic=True)
    t.point(s, 24)
    t.point(s, 46, wind="E")
    t.water(-30, 28, 16, 18, 19)
    t.forest(30, -30, 15, 15, 20)
    out.append(t)

    # 9 -- a hairpin road and a blind road from the north
    t = TileBuilder(
        "oct-hairpin",
        "The Hairpin Pass",
        "octagon",
        description="a long winding pass from south to east; a blind road from north",
    )
    hp = t.path([(0, 60), (0, 30), (-30, 12), (-30, -18), (-4, -32), (24, -20), (30, 0), (60, 0)])
    n = t.path([(0, -60), (0, -46)])
    t.point(hp, 14, wind="W")
    t.point(hp, 36, "black", start="black", heading="back", wind="E", rock=1)
    h1 = t.point(hp, 60, magic=True)
    h2 = t.point(hp, 82, wind="S")
    h3 = t.point(hp, 104)
    t.counter(-16, -3, [h1, h2, h3])
    t.point(hp, 126, "black", heading="fwd", wind="N")
    t.point(hp, -14, wind="S")
    t.point(hp, 158)
    t.point(n, 14, "black", heading="back", wind="W")
    t.mountains(12, -2, 22, 21)
    t.mountains(30, 30, 24, 22)
    t.forest(-34, 36, 12, 12, 23)
    out.append(t)

    # 10 -- a ford: fork of three arrows where the east arm is a waterway
    t = TileBuilder(
        "oct-ford",
        "The Ford of the Reeds",
        "octagon",
        description="a fork with three arrows; the east arm is a waterway",
    )
    t.junction(0, 0, forced_right=True)
    n = t.path([(0, -60), (0, 0)])
    w = t.path([(-60, 0), (0, 0)])
    e = t.path([(0, 0), (60, 0)], medium="water")
    t.point(n, 14, "black", heading="fwd", wind="E")
    t.point(n, 36, wind="W")
    t.point(w, 20, "black", start="black", heading="fwd", wind="S", rock=1)
    t.point(w, 42, magic=True)
    t.point(e, 22)
    t.point(e, 44, wind="N")
    t.door(e, 33, "moon")
    t.water(30, 26, 22, 14, 24)
    t.forest(-30, -30, 15, 15, 25)
    t.forest(-26, 34, 14, 12, 26)
    out.append(t)

    # 11 -- fixed: a crossing of a road and a waterway (one black point, no rock)
    t = TileBuilder(
        "oct-great-ford",
        "The Great Ford",
        "octagon",
        turnable=False,
        description="never turns: a road crosses a waterway",
    )
    t.junction(0, 0)
    n = t.path(join([(0, -60)], arc(0, -34, 16, 270, 90, step=10), [(0, 0)]))
    s = t.path([(0, 0), (0, 60)])
    w = t.path([(-60, 0), (0, 0)], medium="water")
    e = t.path([(0, 0), (60, 0)], medium="water")
    g1 = t.point(n, 10, wind="E")
    g2 = t.point(n, 10 + 8 * math.pi)
    g3 = t.point(n, 10 + 16 * math.pi, wind="W")
    t.counter(0, -34, [g1, g2, g3])
    t.point(s, 24, "black", heading="fwd", wind="W")
    t.point(s, 46, magic=True)
    t.point(w, 22, wind="S")
    t.point(e, 24)
    t.point(e, 44, wind="N")
    t.door(s, 12, "star")
    t.water(-32, 28, 16, 14, 27)
    t.water(30, -30, 14, 13, 28)
    t.forest(30, 32, 14, 12, 29)
    out.append(t)

    # 12 -- fixed: a T through the marshes (one black point, no rock)
    t = TileBuilder(
        "oct-marsh-road",
        "The Marsh Road",
        "octagon",
        turnable=False,
        description="never turns: roads from north, east and west meet in the marsh",
    )
    t.junction(0, 8)
    w = t.path([(-60, 0), (-30, 0), (0, 8)])
    e = t.path([(0, 8), (30, 0), (60, 0)])
    n = t.path(join([(0, -60)], arc(0, -34, 16, -90, 90, step=10), [(0, 8)]))
    t.point(w, 16, wind="N")
    t.point(w, 40, magic=True)
    t.point(e, 22, wind="S")
    t.point(e, 46, "black", heading="fwd", wind="W")
    m1 = t.point(n, 10)
    m2 = t.point(n, 10 + 8 * math.pi, wind="E")
    m3 = t.point(n, 10 + 16 * math.pi)
    t.counter(0, -34, [m1, m2, m3])
    t.door(n, 10 + 16 * math.pi + 14, "moon")
    t.water(0, 36, 26, 12, 30)
    t.forest(-30, -32, 14, 13, 31)
    t.forest(32, -30, 13, 14, 32)
    out.append(t)
    return out


def squares() -> list[TileBuilder]:
    out: list[TileBuilder] = []

    # straight roads
    t = TileBuilder(
        "sq-straight",
        "The Straight Road",
        "square",
        description="a straight road from north to south",
    )
    ns = t.path([(0, -40), (0, 40)])
    t.point(ns, 14, "black", start="black", heading="fwd", wind="E", rock=1)
    t.point(ns, 40, magic=True, wind="W")
    t.point(ns, 66, "black", heading="back", wind="E")
    t.forest(-24, -8, 9, 20, 40)
    t.mountains(24, 18, 18, 41)
    out.append(t)

    t = TileBuilder(
        "sq-long-water",
        "The Long Water",
        "square",
        description="a waterway beside a road, both north to south",
    )
    ns = t.path([(0, -40), (0, 40)])
    t.point(ns, 12, "black", heading="fwd", wind="W")
    t.door(ns, 26, "star")
    t.point(ns, 40, wind="E")
    t.point(ns, 66, "black", start="black", heading="back", wind="W", rock=-1)
    t.water(22, 0, 9, 26, 42)
    t.forest(-22, 20, 9, 12, 43)
    out.append(t)

    # bends
    t = TileBuilder(
        "sq-bend",
        "The Bend under the Hill",
        "square",
        description="a road bends from north to east",
    )
    b = t.path(sq_arc("NE"))
    t.point(b, 13, "black", start="black", heading="fwd", wind="S", rock=1)
    t.point(b, 31.4, wind="W")
    t.point(b, 50, "black", heading="back", wind="N")
    t.mountains(-18, 18, 26, 44)
    out.append(t)

    t = TileBuilder(
        "sq-bend-water",
        "The Reedy Bend",
        "square",
        description="a road bends from north to east; a waterway from south to west",
    )
    b = t.path(sq_arc("NE"))
    r = t.path(sq_arc("SW"), medium="water")
    t.point(b, 16, "black", heading="fwd", wind="E")
    t.point(b, 46, "black", start="black", heading="back", wind="S", rock=1)
    t.point(r, 31.4, wind="W")
    t.water(-26, 26, 9, 9, 45)
    out.append(t)

    # T junctions
    t = TileBuilder(
        "sq-tee", "The Three Ways", "square", description="roads from north, east and south meet"
    )
    t.junction(0, 0)
    n = t.path([(0, -40), (0, 0)])
    e = t.path([(40, 0), (0, 0)])
    s = t.path([(0, 0), (0, 40)])
    t.point(n, 18, "black", start="black", heading="fwd", wind="W", rock=-1)
    t.point(e, 18, wind="N")
    t.point(s, 22, "black", heading="back", wind="E")
    t.forest(-22, 20, 10, 11, 46)
    out.append(t)

    t = TileBuilder(
        "sq-arrows",
        "The Black Arrows",
        "square",
        description="a fork with three arrows: west, east and south",
    )
    t.junction(0, 0, forced_right=True)
    w = t.path([(-40, 0), (0, 0)])
    e = t.path([(0, 0), (40, 0)])
    s = t.path([(0, 0), (0, 40)])
    t.point(w, 20, "black", start="black", heading="fwd", wind="N", rock=1)
    t.point(e, 20, wind="S", magic=True)
    t.point(s, 22, "black", heading="back", wind="W")
    t.mountains(0, -22, 30, 47)
    out.append(t)

    # crossing
    t = TileBuilder(
        "sq-crossing", "The Crossing of the Winds", "square", description="four roads cross"
    )
    t.junction(0, 0)
    arms = [t.path([xy, (0, 0)]) for xy in ((0, -40), (40, 0), (0, 40), (-40, 0))]
    t.point(arms[0], 18, "black", start="black", heading="fwd", wind="E", rock=-1)
    t.point(arms[1], 20, wind="N")
    t.point(arms[2], 18, "black", heading="fwd", wind="W")
    t.point(arms[3], 20, magic=True)
    t.forest(22, 22, 9, 9, 48)
    out.append(t)

    # a bend with a counter space
    t = TileBuilder(
        "sq-hex-bend",
        "The Council Stone",
        "square",
        description="a bend from west to south round a counter space",
    )
    b = t.path(sq_arc("NE"))
    c = t.path(sq_arc("SW"))
    t.point(b, 14, "black", start="black", heading="fwd", wind="W", rock=-1)
    t.point(b, 48, "black", heading="back", wind="S")
    a1 = t.point(c, 62.83 / 4)
    a2 = t.point(c, 62.83 / 2, wind="N")
    a3 = t.point(c, 62.83 * 3 / 4)
    t.counter(-40 + 22 / math.sqrt(2), 40 - 22 / math.sqrt(2), [a1, a2, a3])
    t.mountains(22, -22, 20, 49)
    out.append(t)

    # fixed squares
    t = TileBuilder(
        "sq-stone-bridge",
        "The Stone Bridge",
        "square",
        turnable=False,
        description="never turns: a road crosses a waterway",
    )
    t.junction(0, 0)
    n = t.path([(0, -40), (0, 0)])
    s = t.path([(0, 0), (0, 40)])
    w = t.path([(-40, 0), (0, 0)], medium="water")
    e = t.path([(0, 0), (40, 0)], medium="water")
    t.point(n, 18, "black", heading="fwd", wind="W")
    t.point(s, 20, wind="E", magic=True)
    t.point(w, 20)
    t.point(e, 20, wind="S")
    t.water(-22, -22, 9, 8, 50)
    out.append(t)

    t = TileBuilder(
        "sq-meeting",
        "The Meeting of Roads",
        "square",
        turnable=False,
        description="never turns: four roads meet",
    )
    t.junction(0, 0)
    arms = [t.path([xy, (0, 0)]) for xy in ((0, -40), (40, 0), (0, 40), (-40, 0))]
    t.point(arms[0], 20, wind="E")
    t.point(arms[1], 18, "black", heading="fwd", wind="N")
    t.point(arms[2], 20, wind="W")
    t.point(arms[3], 20, wind="S")
    t.door(arms[3], 8, "star")
    t.forest(-22, -22, 9, 8, 51)
    out.append(t)

    t = TileBuilder(
        "sq-dark-gate",
        "The Dark Gate",
        "square",
        turnable=False,
        description="never turns: roads from north, west and south",
    )
    t.junction(0, 0)
    n = t.path([(0, -40), (0, 0)])
    w = t.path([(-40, 0), (0, 0)])
    s = t.path([(0, 0), (0, 40)])
    t.point(n, 18, wind="W")
    t.point(w, 20, "black", heading="fwd", wind="S")
    t.point(s, 20, magic=True)
    t.door(s, 32, "moon")
    t.mountains(22, 0, 22, 52)
    out.append(t)
    return out


# ---------------------------------------------------------------------- the frame
def frame() -> TileBuilder:
    """The free-standing frame: the white starting corner and the Mountain of Fire."""
    f = TileBuilder("frame", "Frame", None)
    # -- top-left: the nine white starting points round the Shire's green
    f.art("shire", [(60, 60), (140, 60), (140, 140), (60, 140)], label="The Shire")
    f._add("ws-portE", "port", Point(140, 100), {"side": "E"})
    f._add("ws-portS", "port", Point(100, 140), {"side": "S"})
    for fid, coords in (
        ("ws-l1", [(75, 75), (125, 75)]),
        ("ws-l2", [(125, 75), (125, 125)]),
        ("ws-l3", [(125, 125), (75, 125)]),
        ("ws-l4", [(75, 125), (75, 75)]),
        ("ws-l5", [(100, 75), (100, 140)]),
        ("ws-l6", [(75, 100), (140, 100)]),
    ):
        f.path(coords, fid=fid)
    k = 0
    for y in (75, 100, 125):
        for x in (75, 100, 125):
            k += 1
            f._add(f"ws{k}", "point", Point(x, y), {"colour": "grey", "start": "white"})
    # -- bottom-right: the Mountain of Fire behind the spider's secret passage
    f.art("fire", [(460, 460), (540, 460), (540, 540), (460, 540)], label="Mountain of Fire")
    f.art(
        "volcano",
        [
            (470, 540),
            (496, 514),
            (508, 506),
            (514, 509),
            (521, 505),
            (532, 512),
            (540, 522),
            (540, 540),
        ],
    )
    f.art(
        "lava",
        [
            (509, 507),
            (513, 516),
            (511, 526),
            (516, 540),
            (521, 540),
            (518, 526),
            (520, 515),
            (519, 506),
        ],
    )
    f._add("fire-portN", "port", Point(500, 460), {"side": "N"})
    f._add("fire-portW", "port", Point(460, 500), {"side": "W"})
    f.path([(500, 460), (500, 500)], fid="fire-l1")
    f.path([(460, 500), (500, 500)], fid="fire-l2")
    f.path([(500, 500), (511, 511), (522, 522)], guard="spider", fid="fire-spider")
    f._add("fire1", "point", Point(500, 477), {"colour": "grey", "wind": "W"})
    f._add("fire2", "point", Point(477, 500), {"colour": "grey", "wind": "N"})
    f._add("fire3", "point", Point(500, 500), {"colour": "grey", "name": "the spider's lair"})
    f._add(
        "fire-goal",
        "point",
        Point(522, 522),
        {"colour": "grey", "goal": True, "name": "the last grey point on the Mountain of Fire"},
    )
    # -- the four border roads in the frame: each joins the outer ports of two
    #    octagons, and a fork in its middle leads to the outer port of a square
    for side, (p1, p2, c1, c2, mid, sq_port, wind) in {
        "n": ((200, 40), (400, 40), (200, 20), (400, 20), (300, 20), (300, 60), "S"),
        "s": ((200, 560), (400, 560), (200, 580), (400, 580), (300, 580), (300, 540), "N"),
        "w": ((40, 200), (40, 400), (20, 200), (20, 400), (20, 300), (60, 300), "E"),
        "e": ((560, 200), (560, 400), (580, 200), (580, 400), (580, 300), (540, 300), "W"),
    }.items():
        f._add(f"border-{side}-port1", "port", Point(*p1), {})
        f._add(f"border-{side}-port2", "port", Point(*p2), {})
        f._add(f"border-{side}-port3", "port", Point(*sq_port), {})
        f._add(f"border-{side}-fork", "junction", Point(*mid), {})
        line = f.path([p1, c1, c2, p2], fid=f"border-{side}")
        spur = f.path([mid, sq_port], fid=f"border-{side}-spur")
        length = f.lines[line].length
        for k, dist in ((1, length / 2 - 62), (3, length / 2 + 62)):
            f._add(f"border-{side}{k}", "point", f._at(line, dist), {"colour": "grey"})
        f._add(f"border-{side}2", "point", f._at(spur, 19), {"colour": "grey", "wind": wind})
    f._add("title", "label", Point(100, 21), {"text": "RINGGEISTER", "size": 11.0})
    return f


# ---------------------------------------------------------------------- board layout
#: tile per cell (row, column); the corners (0, 0) and (4, 4) are the frame.
LAYOUT: dict[tuple[int, int], str] = {
    (0, 1): "oct-crossroads",
    (0, 2): "sq-straight",
    (0, 3): "oct-great-ford",
    (0, 4): "sq-bend",
    (1, 0): "oct-three-arrows",
    (1, 1): "sq-meeting",
    (1, 2): "oct-loop",
    (1, 3): "sq-crossing",
    (1, 4): "oct-lonely-tower",
    (2, 0): "sq-tee",
    (2, 1): "oct-river-bend",
    (2, 2): "sq-stone-bridge",
    (2, 3): "oct-hairpin",
    (2, 4): "sq-arrows",
    (3, 0): "oct-marsh-road",
    (3, 1): "sq-hex-bend",
    (3, 2): "oct-twin-bends",
    (3, 3): "sq-dark-gate",
    (3, 4): "oct-watchtower",
    (4, 0): "sq-bend-water",
    (4, 1): "oct-cul-de-sac",
    (4, 2): "sq-long-water",
    (4, 3): "oct-ford",
}

#: the starting turns, found by ``--search`` (see :func:`search_turns`)
DEFAULT_TURNS: dict[str, int] = {
    "r0c1": 1,
    "r0c2": 1,
    "r0c3": 0,
    "r0c4": 2,
    "r1c0": 2,
    "r1c1": 1,
    "r1c2": 2,
    "r1c3": 0,
    "r1c4": 3,
    "r2c0": 1,
    "r2c1": 0,
    "r2c2": 2,
    "r2c3": 3,
    "r2c4": 0,
    "r3c0": 2,
    "r3c1": 2,
    "r3c2": 2,
    "r3c3": 1,
    "r3c4": 1,
    "r4c0": 0,
    "r4c1": 2,
    "r4c2": 0,
    "r4c3": 2,
}


def piece_types() -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for c in COLOURS:
        out.append(
            {
                "id": f"hobbit-{c}",
                "name": f"{c.title()} Hobbit",
                "side": "light",
                "figure": "hobbit",
                "colour": c,
                "size": "small",
                "count": 1,
            }
        )
    for c in COLOURS:
        out.append(
            {
                "id": f"man-{c}",
                "name": f"{c.title()} Man",
                "side": "light",
                "figure": "man",
                "colour": c,
                "size": "medium",
                "count": 1,
            }
        )
    out.append(
        {
            "id": "gandalf",
            "name": "Gandalf",
            "side": "light",
            "figure": "gandalf",
            "colour": "white",
            "size": "large",
            "count": 1,
        }
    )
    out.append(
        {
            "id": "gollum",
            "name": "Gollum",
            "side": "black",
            "figure": "gollum",
            "colour": "black",
            "size": "small",
            "count": 1,
        }
    )
    out.append(
        {
            "id": "orc",
            "name": "Orc",
            "side": "black",
            "figure": "orc",
            "colour": "black",
            "size": "medium",
            "count": 8,
        }
    )
    out.append(
        {
            "id": "spirit",
            "name": "Spirit of the Ring",
            "side": "black",
            "figure": "spirit",
            "colour": "black",
            "size": "large",
            "count": 9,
        }
    )
    return out


def deck() -> dict[str, Any]:
    cards = [
        {"id": f"{c}-{hand}-{image}", "ringbearer": c, "hand": hand, "image": image}
        for c in COLOURS
        for hand in ("forward", "backward")
        for image in ("moon", "star", "storm")
    ]
    return {"id": "cards", "name": "Ringgeister cards", "cards": cards}


def write_pack(tiles: list[TileBuilder]) -> AssetPack:
    """Write ``pack.json`` and ``tiles/*.json`` (removing stale tile files)."""
    tdir = PACK_DIR / "tiles"
    tdir.mkdir(exist_ok=True)
    wanted = {f"{t.tid}.json" for t in tiles}
    for old in tdir.glob("*.json"):
        if old.name not in wanted:
            old.unlink()
    for t in tiles:
        (tdir / f"{t.tid}.json").write_text(
            json.dumps(t.tile_json(), indent=1) + "\n", encoding="utf-8"
        )
    manifest = {
        "format": "boardwright-pack",
        "version": 1,
        "id": PACK,
        "name": "Ringgeister",
        "description": "The Ringgeister board: 12 octagonal and 11 square landscape "
        "tiles that turn in quarter turns, the figures and the 24 cards "
        "(docs/rulings.md). Written by assets/ringgeister/build.py.",
        "pieces": piece_types(),
        "decks": [deck()],
    }
    (PACK_DIR / "pack.json").write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    return load_pack(PACK_DIR)


def make_board(pack: AssetPack, fr: TileBuilder, turns: dict[str, int]) -> Board:
    """The default board with the given turns (placement id -> quarter turns)."""
    board = Board(
        meta={
            "name": "Ringgeister",
            "rules": "ringgeister",
            "width": 600,
            "height": 600,
            "settings": {"wind_corridor_mm": 15},
        }
    )
    pack.embed_into(board)
    for (r, c), tid in sorted(LAYOUT.items()):
        pid = f"r{r}c{c}"
        board.placements.append(
            Placement(pid, f"{PACK}/{tid}", 100.0 + 100 * c, 100.0 + 100 * r, turns.get(pid, 0))
        )
    fr.check()
    board.features = [Feature.from_json(f, "frame") for f in fr.features]
    board.validate()
    return board


def place_figures(board: Board, seed: int = 3) -> None:
    """Light figures on the white starts, black figures on the black starts (seeded)."""
    rnd = random.Random(seed)
    whites = [
        nid
        for nid, _, f in board.world_features()
        if f.kind == "point" and f.props.get("start") == "white"
    ]
    blacks = [
        nid
        for nid, _, f in board.world_features()
        if f.kind == "point" and f.props.get("start") == "black"
    ]
    light = [f"hobbit-{c}" for c in COLOURS] + [f"man-{c}" for c in COLOURS] + ["gandalf"]
    dark = ["gollum"] + [f"orc-{i}" for i in range(1, 9)] + [f"spirit-{i}" for i in range(1, 10)]
    assert len(whites) == len(light) and len(blacks) == len(dark), (len(whites), len(blacks))
    rnd.shuffle(whites)
    rnd.shuffle(blacks)
    board.pieces = []
    for fig, at in zip(light, whites):
        board.pieces.append(PieceOnBoard(fig, f"{PACK}/{fig}", at))
    for fig, at in zip(dark, blacks):
        kind = fig.split("-")[0]
        board.pieces.append(PieceOnBoard(fig, f"{PACK}/{kind}", at))


# ---------------------------------------------------------------------- searching the turns
def score(compiled: Any) -> tuple[int, int, int, int]:
    """How good a set of starting turns is; higher is better, compared in order.

    (−errors including the Ringgeister checks, goal reachable by light figures
    without passing a black starting point, −warnings, points reachable from the
    white starting points).
    """
    from referee.games.ringgeister.checks import board_problems, light_reach

    g = compiled.graph
    probs = list(compiled.problems) + board_problems(compiled)
    warnings = sum(p.severity == "warning" and not p.code.endswith("goal_blocked") for p in probs)
    errors = sum(p.severity == "error" for p in probs)
    black_starts = {n for n, d in g.nodes(data=True) if d.get("start") == "black"}
    reach = light_reach(compiled)
    free = light_reach(compiled, black_starts)
    goal_free = any(g.nodes[n].get("goal") for n in free)
    pts = sum(1 for n in reach if g.nodes[n]["kind"] == "point")
    return (-errors, int(goal_free), -warnings, pts)


def search_turns(board: Board, seed: int = 7, restarts: int = 24) -> dict[str, int]:
    """Hill-climb the starting turns of all tiles for a connected, tidy board.

    Notes
    -----
    Each step tries the three other turns of every tile through the incremental
    :meth:`~referee.compiler.CompiledBoard.turn` and keeps the best; O(restarts ×
    rounds × 3 × tiles) re-links, a few seconds in all.
    """
    from referee.compiler import compile_board

    rnd = random.Random(seed)
    best_turns: dict[str, int] = {}
    best: tuple[int, int, int, int] | None = None
    pids = [p.id for p in board.placements]
    for _ in range(restarts):
        b = board.copy()
        for p in b.placements:
            p.turns = rnd.randrange(4)
        cb = compile_board(b)
        cur = score(cb)
        improved = True
        while improved:
            improved = False
            for pid in rnd.sample(pids, len(pids)):
                p = b.placement(pid)
                orig = p.turns
                best_t, best_s = orig, cur
                for t in range(4):
                    if t == orig:
                        continue
                    cb.turn(pid, t)
                    s = score(cb)
                    if s > best_s:
                        best_t, best_s = t, s
                cb.turn(pid, best_t)
                if best_t != orig:
                    cur, improved = best_s, True
        print(f"  restart: score {cur}", file=sys.stderr)
        if best is None or cur > best:
            best, best_turns = cur, {p.id: p.turns for p in b.placements}
    print(f"best score {best}", file=sys.stderr)
    return best_turns


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--search", action="store_true", help="search the default turns again")
    args = ap.parse_args(argv)
    tiles = octagons() + squares()
    fr = frame()
    pack = write_pack(tiles)
    turns = dict(DEFAULT_TURNS)
    if args.search or not turns:
        turns = search_turns(make_board(pack, fr, {}))
        line = "DEFAULT_TURNS: dict[str, int] = " + json.dumps(turns, sort_keys=True)
        me = Path(__file__)
        text = me.read_text(encoding="utf-8")
        start = text.index("DEFAULT_TURNS: dict[str, int] = ")
        end = text.index("\n", start)
        me.write_text(text[:start] + line + text[end:], encoding="utf-8")
        print(f"{line}\n(written into {me.name})", file=sys.stderr)
    board = make_board(pack, fr, turns)
    place_figures(board)
    PROJECT_DIR.mkdir(parents=True, exist_ok=True)
    save_project(board, PROJECT_DIR / "ringgeister.bwproj")
    export_json(board, PROJECT_DIR / "ringgeister.json")
    print(
        f"wrote {len(tiles)} tiles, pack.json and {PROJECT_DIR.relative_to(ROOT)}", file=sys.stderr
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
