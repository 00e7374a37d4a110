"""The tile builder: one tile's features (ports, paths, points, doors, art) as JSON.

See :mod:`assets.ringgeister.builder` for the conventions (tile frame, margins).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from shapely.geometry import LineString, Point, Polygon
from shapely.ops import substring

from referee.geometry import geometry_to_json, line_end_bearings, regular_polygon

from .shapes import blob, compass_or_degrees, hexagon

#: the least distance of a point from its tile's outline (see the package docs)
EDGE_MARGIN = 6.5
#: no two points closer than this (issue 3)
MIN_POINT_GAP = 12.0


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
                self.add(f"port{side}", "port", Point(x, y), {"side": side})

    # -- ids
    def _next(self, stem: str) -> str:
        self.n[stem] = self.n.get(stem, 0) + 1
        return f"{self.prefix}{stem}{self.n[stem]}"

    def add(self, fid: str, kind: str, geom: Any, props: dict[str, Any]) -> str:
        """Add a feature with an explicit id (the frame names its own: ``ws1``, ``fire-goal``)."""
        self.features.append(
            {"id": fid, "kind": kind, "geometry": geometry_to_json(geom), "props": props}
        )
        return fid

    # -- features
    def path(
        self,
        coords: Sequence[tuple[float, float]],
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
        self.add(fid, "path", line, props)
        return fid

    def at(self, line_id: str, dist: float) -> Point:
        """The spot ``dist`` mm along a path (negative: from its end), rounded to 0.1 µm."""
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
        p = self.at(line_id, dist)
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
        self.add(fid, "point", p, props)
        if rock:
            b = math.radians(self.bearing(line_id, dist, True))
            dx, dy = math.sin(b), -math.cos(b)  # along the line
            nx_, ny_ = -dy * rock, dx * rock  # to its right (+1) or left (-1)
            cx, cy = p.x + 10 * nx_, p.y + 10 * ny_
            self.rock(cx, cy, seed=len(self.features))
        return fid

    def junction(self, x: float, y: float, forced_right: bool = False) -> str:
        props = {"forced_right": True} if forced_right else {}
        return self.add(self._next("j"), "junction", Point(x, y), props)

    def door(self, line_id: str, dist: float, symbol: str) -> str:
        return self.add(self._next("d"), "door", self.at(line_id, dist), {"symbol": symbol})

    def counter(self, cx: float, cy: float, arrival: list[str]) -> str:
        return self.add(
            self._next("c"),
            "counter_space",
            Polygon(hexagon(cx, cy, 13.0)),
            {"arrival": list(arrival)},
        )

    def art(self, terrain: str, coords: list[tuple[float, float]], **props: Any) -> str:
        return self.add(self._next("a"), "art", Polygon(coords), {"terrain": terrain, **props})

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
        return self.add(self._next("t"), "label", Point(x, y), {"text": text, "size": size})

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
