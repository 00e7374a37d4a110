"""Geometry helpers of the Ringgeister builder: arcs, blobs, hexagons and bearings.

Screen coordinates as everywhere on the board: millimetres, y down, so an angle of
90° points down (+y) and north is −y.
"""

from __future__ import annotations

import math
import random

from referee.geometry import regular_polygon


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
