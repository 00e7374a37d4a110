"""Geometry helpers: GeoJSON-style (de)serialisation, validation, turns, bearings.

Coordinates are millimetres with x to the right and y **down** (the Qt scene
convention). North is −y. Bearings are degrees clockwise from north, so east is 90.
A quarter turn clockwise as seen on screen maps (x, y) to (−y, x); in general a
turn by θ degrees maps (x, y) to (x cos θ − y sin θ, x sin θ + y cos θ).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import numpy as np
import shapely
from shapely.geometry.base import BaseGeometry

from .errors import GeometryError

COMPASS = ("N", "E", "S", "W")
_GEOM_TYPES = {"Point", "LineString", "Polygon", "MultiPolygon", "MultiLineString"}


def geometry_from_json(data: Any, where: str) -> BaseGeometry:
    """Build a shapely geometry from a GeoJSON geometry mapping and validate it.

    Raises
    ------
    GeometryError
        With ``where`` as location when the mapping is malformed, has NaN or
        infinite coordinates, or is an invalid (e.g. self-intersecting) polygon.
    """
    if not isinstance(data, dict) or data.get("type") not in _GEOM_TYPES:
        raise GeometryError(
            "geometry must be a GeoJSON Point, LineString or Polygon", location=where
        )
    try:
        geom = shapely.geometry.shape(data)
    except Exception as exc:  # shapely raises several types on malformed coordinates
        raise GeometryError(
            f"malformed {data['type']} coordinates ({exc})", location=where
        ) from None
    check_geometry(geom, where)
    return geom


def check_geometry(geom: BaseGeometry, where: str) -> None:
    """Raise :class:`GeometryError` unless ``geom`` is finite, non-empty and valid."""
    if geom.is_empty:
        raise GeometryError("geometry is empty", location=where)
    coords = shapely.get_coordinates(geom)
    if not np.isfinite(coords).all():
        raise GeometryError("geometry has NaN or infinite coordinates", location=where)
    if geom.geom_type == "LineString" and len(np.unique(coords, axis=0)) < 2:
        raise GeometryError("a line needs at least two distinct points", location=where)
    if geom.geom_type in ("Polygon", "MultiPolygon") and not geom.is_valid:
        reason = shapely.is_valid_reason(geom)
        raise GeometryError(f"invalid polygon: {reason}", location=where)


def geometry_to_json(geom: BaseGeometry) -> dict[str, Any]:
    """GeoJSON mapping with lists (not tuples) and plain floats, for stable JSON."""
    mapping: dict[str, Any] = _listify(shapely.geometry.mapping(geom))
    return mapping


def _listify(value: Any) -> Any:
    if isinstance(value, (list, tuple)):
        return [_listify(v) for v in value]
    if isinstance(value, dict):
        return {k: _listify(v) for k, v in value.items()}
    if isinstance(value, (np.floating, float)):
        return float(value)
    return value


@lru_cache(maxsize=64)
def turn_matrix(turns: int, turn_count: int) -> tuple[float, float, float, float]:
    """The 2×2 matrix (a, b, c, d) of a clockwise turn by ``turns``/``turn_count``.

    Quarter and half turns are exact (no 6e-17 residue from cos 90°).
    """
    t = turns % turn_count
    deg = 360.0 * t / turn_count
    exact = {0.0: (1.0, 0.0), 90.0: (0.0, 1.0), 180.0: (-1.0, 0.0), 270.0: (0.0, -1.0)}
    if deg in exact:
        c, s = exact[deg]
    else:
        c, s = math.cos(math.radians(deg)), math.sin(math.radians(deg))
    return (float(c), float(-s), float(s), float(c))


def turn_and_move(
    geom: BaseGeometry, turns: int, turn_count: int, dx: float = 0.0, dy: float = 0.0
) -> BaseGeometry:
    """Turn ``geom`` clockwise about the origin, then translate it by (dx, dy)."""
    a, b, c, d = turn_matrix(turns, turn_count)

    def f(xy: np.ndarray) -> np.ndarray:
        x, y = xy[:, 0], xy[:, 1]
        return np.column_stack((a * x + b * y + dx, c * x + d * y + dy))

    return shapely.transform(geom, f)


def turn_and_move_all(
    geoms: Sequence[BaseGeometry], turns: int, turn_count: int, dx: float = 0.0, dy: float = 0.0
) -> list[BaseGeometry]:
    """:func:`turn_and_move` for many geometries in one vectorized call.

    Every coordinate is computed with the same expression, so each result equals
    ``turn_and_move`` of that geometry exactly. O(n) in the coordinates, with one
    call into GEOS instead of one per geometry.
    """
    if not geoms:
        return []
    a, b, c, d = turn_matrix(turns, turn_count)

    def f(xy: np.ndarray) -> np.ndarray:
        x, y = xy[:, 0], xy[:, 1]
        return np.column_stack((a * x + b * y + dx, c * x + d * y + dy))

    return list(shapely.transform(np.array(geoms, dtype=object), f))


def turn_bearing(value: Any, turns: int, turn_count: int) -> Any:
    """Turn a direction property (compass letter or bearing in degrees) with its tile."""
    if value is None or turns % turn_count == 0:
        return value
    delta = 360.0 * (turns % turn_count) / turn_count
    if isinstance(value, str) and value in COMPASS:
        if delta % 90 == 0:
            return COMPASS[(COMPASS.index(value) + int(delta // 90)) % 4]
        value = 90.0 * COMPASS.index(value)
    return (float(value) + delta) % 360.0


def bearing_degrees(value: Any) -> float:
    """A direction property as degrees clockwise from north."""
    if isinstance(value, str):
        return 90.0 * COMPASS.index(value)
    return float(value) % 360.0


def unit_vector(bearing: float) -> tuple[float, float]:
    """Screen vector (dx, dy) of a bearing: north is (0, −1), east is (1, 0)."""
    r = math.radians(bearing)
    return (round(math.sin(r), 12), round(-math.cos(r), 12))


def bearing_of(dx: float, dy: float) -> float:
    """Bearing of the screen vector (dx, dy), in [0, 360)."""
    return math.degrees(math.atan2(dx, -dy)) % 360.0


def line_end_bearings(coords: Sequence[Sequence[float]]) -> tuple[float, float]:
    """Bearings leaving a polyline at its start and at its end (each pointing inward).

    The first is the direction of travel from the first vertex; the second the
    direction of travel leaving the last vertex back along the line.
    """
    pts = [tuple(p) for p in coords]
    # skip repeated vertices at both ends
    i = 1
    while i < len(pts) - 1 and pts[i] == pts[0]:
        i += 1
    j = len(pts) - 2
    while j > 0 and pts[j] == pts[-1]:
        j -= 1
    b0 = bearing_of(pts[i][0] - pts[0][0], pts[i][1] - pts[0][1])
    b1 = bearing_of(pts[j][0] - pts[-1][0], pts[j][1] - pts[-1][1])
    return b0, b1


def turn_angle(incoming: float, outgoing: float) -> float:
    """Signed turn from travelling at bearing ``incoming`` to leaving at ``outgoing``.

    Positive is a right turn (clockwise), in (−180, 180].
    """
    d = (outgoing - incoming) % 360.0
    return d - 360.0 if d > 180.0 else d


def regular_polygon(sides: int, across_flats: float, flat_on_top: bool = True) -> shapely.Polygon:
    """A regular polygon centred at the origin, ``across_flats`` wide between opposite sides.

    With ``flat_on_top`` an octagon or square has sides facing N, E, S and W, so the
    midpoints of the four axis-aligned sides sit at (0, ±r) and (±r, 0).
    """
    r = across_flats / 2.0
    circum = r / math.cos(math.pi / sides)
    offset = math.pi / sides if flat_on_top else 0.0
    pts = []
    for k in range(sides):
        a = offset + 2 * math.pi * k / sides
        x, y = circum * math.cos(a), circum * math.sin(a)
        pts.append((round(x, 9) + 0.0, round(y, 9) + 0.0))
    return shapely.Polygon(pts)
