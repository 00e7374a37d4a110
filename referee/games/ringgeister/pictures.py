"""Ringgeister's printed-board pictures for ``referee render`` (``RULES.pictures``).

Grey and black points with their wind arrows, headings, magic marks, starting
points (a white ring; a black ring with five arrows) and the goal; dwarf doors with
their moon or star; forks with three black arrows; the spider's secret passage.
The editor's canvas draws the plain symbols of :mod:`.vocabulary` instead.
"""

from __future__ import annotations

import math
from xml.sax.saxutils import escape

from ...geometry import bearing_degrees, unit_vector
from ...model import Feature
from ...render.pictures import Canvas, LegendSample, Picture
from ...render.svg import arrow, chevron, fmt, moon_d, path_d, points, star


def draw_point(c: Canvas, nid: str, f: Feature) -> None:
    """A point: wind arrow under it, start ring, goal star, the disc, heading, magic."""
    s = c.svg
    x, y = f.geometry.x, f.geometry.y
    p = f.props
    black = p.get("colour") == "black"
    r = 2.6
    # direction marks first, so the point sits on top of them
    if p.get("wind") is not None:
        arrow(s, "marks", x, y, bearing_degrees(p["wind"]), r + 1.0, r + 8.0)
    if p.get("start") == "black":
        ring = {"fill": "#f0e8cc", "stroke": "#111", "stroke_width": 0.6}
        s.add("points", "circle", {"cx": fmt(x), "cy": fmt(y), "r": fmt(r + 2.4), **ring})
        for k in range(5):  # the five arrows of a black starting point
            a = math.radians(72 * k + 18)
            bx, by = x + (r + 2.4) * math.cos(a), y + (r + 2.4) * math.sin(a)
            chevron(s, bx, by, (math.degrees(a) + 180.0) % 360.0, 0.0, 1.1, "#111", "#111")
    elif p.get("start") == "white":
        ring = {"fill": "#fffdf3", "stroke": "#111", "stroke_width": 0.6}
        s.add("points", "circle", {"cx": fmt(x), "cy": fmt(y), "r": fmt(r + 2.0), **ring})
    if p.get("goal"):
        s.add(
            "points",
            "polygon",
            {
                "points": star(x, y, r + 4.5, 8),
                "fill": "#e0401a",
                "stroke": "#5a1405",
                "stroke_width": 0.5,
            },
        )
    name = f" {escape(str(p['name']))}" if p.get("name") else ""
    s.add(
        "points",
        "circle",
        {
            "cx": fmt(x),
            "cy": fmt(y),
            "r": fmt(r),
            "fill": "#151515" if black else "#9b9b9b",
            "stroke": "#222" if not black else "#000",
            "stroke_width": 0.5,
        },
        f"<title>{escape(nid)}{name}</title>",
    )
    if p.get("heading") is not None and black:
        # "forward": a red triangle inside the black point
        hx, hy = unit_vector(bearing_degrees(p["heading"]))
        tip = (x + hx * 2.1, y + hy * 2.1)
        back = (x - hx * 1.0, y - hy * 1.0)
        corners = [
            tip,
            (back[0] - hy * 1.4, back[1] + hx * 1.4),
            (back[0] + hy * 1.4, back[1] - hx * 1.4),
        ]
        s.add("points", "polygon", {"points": points(corners), "fill": "#e0301e", "stroke": "none"})
    if p.get("magic"):
        s.add(
            "points",
            "rect",
            {
                "x": fmt(x + 2.2),
                "y": fmt(y - 5.6),
                "width": 3.6,
                "height": 2.4,
                "fill": "#ffffff",
                "stroke": "#222",
                "stroke_width": 0.35,
            },
        )


def draw_door(c: Canvas, nid: str, f: Feature) -> None:
    """A dwarf door: an arch with its moon or star."""
    x, y = f.geometry.x, f.geometry.y
    s = c.svg
    sym = f.props.get("symbol")
    s.add(
        "points",
        "path",
        {
            "d": f"M{fmt(x - 3.2)},{fmt(y + 2.6)} L{fmt(x - 3.2)},{fmt(y - 0.6)} "
            f"A3.2,3.2 0 0 1 {fmt(x + 3.2)},{fmt(y - 0.6)} "
            f"L{fmt(x + 3.2)},{fmt(y + 2.6)} Z",
            "fill": "#3b2f4a",
            "stroke": "#d9c98c",
            "stroke_width": 0.5,
        },
        f"<title>{escape(nid)} dwarf door ({escape(str(sym))})</title>",
    )
    if sym == "moon":
        s.add("points", "path", {"d": moon_d(x - 0.3, y + 0.3, 1.9), "fill": "#f4e27a"})
    elif sym == "star":
        s.add("points", "polygon", {"points": star(x, y + 0.5, 2.2), "fill": "#f4e27a"})


def draw_fork(c: Canvas, nid: str, f: Feature) -> None:
    """Three black arrows circling a fork clockwise: "turn right"."""
    x, y = f.geometry.x, f.geometry.y
    for k in range(3):
        a = math.radians(45 + 120 * k)
        cx, cy = x + 6.5 * math.cos(a), y + 6.5 * math.sin(a)
        tangent = math.degrees(a) + 180.0  # screen angle + 90 -> bearing of clockwise
        chevron(c.svg, cx, cy, tangent % 360.0, 0.0, 2.4, "#111", "#111")


def draw_spider(c: Canvas, nid: str, f: Feature) -> None:
    """The spider's secret passage: a dotted line over the path and the spider on it."""
    s = c.svg
    s.add(
        "paths",
        "path",
        {
            "d": path_d(f.geometry),
            "fill": "none",
            "stroke": "#111",
            "stroke_width": 0.8,
            "stroke_dasharray": "1.2 1.2",
        },
    )
    mid = f.geometry.interpolate(0.5, normalized=True)
    x, y = mid.x, mid.y
    for k in range(4):
        for side in (-1, 1):
            a = math.radians(-50 + 33 * k)
            x1, y1 = x + side * 2.0 * math.cos(a), y + 2.0 * math.sin(a)
            x2, y2 = x + side * 4.6 * math.cos(a), y + 4.6 * math.sin(a) + 1.2
            leg = {"fill": "none", "stroke": "#111", "stroke_width": 0.45}
            s.add("marks", "polyline", {"points": points([(x, y), (x1, y1), (x2, y2)]), **leg})
    s.add(
        "marks", "ellipse", {"cx": fmt(x), "cy": fmt(y + 0.6), "rx": 1.7, "ry": 2.2, "fill": "#111"}
    )
    s.add(
        "marks",
        "circle",
        {"cx": fmt(x), "cy": fmt(y - 1.9), "r": 1.1, "fill": "#111"},
        "<title>the spider's secret passage</title>",
    )


PICTURES: dict[str, Picture] = {
    "point": Picture(
        draw_point,
        covers=(
            "point.colour",
            "point.wind",
            "point.heading",
            "point.magic",
            "point.start",
            "point.goal",
        ),
        legend=(
            LegendSample("grey point", "point", {"colour": "grey"}),
            LegendSample("black point", "point.colour=black", {"colour": "black", "heading": "E"}),
            LegendSample("white start", "point.start=white", {"colour": "grey", "start": "white"}),
            LegendSample("black start", "point.start=black", {"colour": "black", "start": "black"}),
            LegendSample("magic point", "point.magic", {"colour": "grey", "magic": True}),
            LegendSample("wind", "point.wind", {"colour": "grey", "wind": "E"}, shift=5.0),
        ),
    ),
    "door": Picture(
        draw_door,
        covers=("door.symbol",),
        legend=(
            LegendSample("door: moon", "door.symbol=moon", {"symbol": "moon"}),
            LegendSample("door: star", "door.symbol=star", {"symbol": "star"}),
        ),
    ),
    "junction.forced_right": Picture(
        draw_fork,
        legend=(LegendSample("fork: right", "junction.forced_right", {"forced_right": True}),),
    ),
    "path.guard=spider": Picture(draw_spider, covers=("path.guard",)),
}

__all__ = ["PICTURES", "draw_door", "draw_fork", "draw_point", "draw_spider"]
