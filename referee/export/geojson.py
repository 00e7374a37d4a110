"""The board's features as a GeoJSON FeatureCollection (RFC 7946).

Coordinates
-----------
By default the coordinates are the board's own: **millimetres, x right, y down**
(north of the board is −y), measured from the board's origin. They are *not*
longitude and latitude: GIS tools that assume RFC 7946's WGS 84 will place the board
near (0°, 0°) and mirror it north–south. The collection says so in a foreign member,
``"boardwright": {"coordinates": "board-mm", "units": "mm", "y": "down"}``.

With a :class:`GeoPlacement` the board is laid on the Earth instead: the board's
origin at a longitude/latitude, ``metres_per_mm`` metres of ground per board
millimetre, north up (board −y is north). The mapping is a local equirectangular
one (a sphere of radius 6 371 008.8 m), within centimetres for boards a few
kilometres across; then the collection says
``"boardwright": {"coordinates": "wgs84", "origin": [lon, lat], "metres_per_mm": s}``.

Winding: polygon exteriors are counter-clockwise and holes clockwise in the numbers
written (x then y, the signed-area test validators apply), as RFC 7946 §3.1.6
requires — whichever way round that looks on the y-down board. A feature whose rings
were reversed for that says which in a foreign member,
``"boardwright": {"reversed": [ring numbers]}``, so an import restores the board's
own vertex order.

Property columns: strict readers (OGR, fiona, pyogrio) give each property one type
over the collection. A property whose values are of several types (a Ringgeister
``heading`` is ``"N"`` on one point and ``90`` on another) is written as text on every
feature; a feature whose value was not text lists it in
``"boardwright": {"json": [names]}``, so an import reads the JSON back.

What GeoJSON has no place for — tile assets in their own frame, placements, the
board's settings, piece types and decks — is the collection's foreign member
``boardwright_board`` (:func:`referee.export.carry.board_block`).

Notes
-----
Linear in the number of features and vertices.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import shapely
from shapely.geometry import MultiPolygon, Polygon
from shapely.geometry.base import BaseGeometry
from shapely.geometry.polygon import orient

from ..compiler import CompiledBoard
from ..errors import UsageError
from ..geometry import geometry_to_json
from .carry import board_block

#: Mean Earth radius (IUGG), metres: the sphere of :class:`GeoPlacement`.
EARTH_RADIUS_M = 6_371_008.8


@dataclass(frozen=True)
class GeoPlacement:
    """Where a board lies on the Earth: its origin's longitude/latitude and scale.

    Parameters
    ----------
    lon, lat : float
        Degrees (WGS 84) of the board's origin (0, 0).
    metres_per_mm : float
        Metres of ground per millimetre of board (1.0: a 600 mm board covers 600 m).
    """

    lon: float
    lat: float
    metres_per_mm: float = 1.0

    def __post_init__(self) -> None:
        if not (-180.0 <= self.lon <= 180.0 and -90.0 < self.lat < 90.0):
            raise UsageError(
                f"geographic origin ({self.lon}, {self.lat}) is not a longitude in "
                "[-180, 180] and a latitude in (-90, 90)"
            )
        if not (math.isfinite(self.metres_per_mm) and self.metres_per_mm > 0):
            raise UsageError(f"metres per mm must be positive, not {self.metres_per_mm}")

    @classmethod
    def parse(cls, origin: str, metres_per_mm: float = 1.0) -> GeoPlacement:
        """From the CLI's ``LON,LAT`` text (raises :class:`UsageError` naming it)."""
        try:
            lon, lat = (float(v) for v in origin.split(","))
        except ValueError:
            raise UsageError(
                f"--geo-origin {origin!r} is not LON,LAT (degrees, e.g. 7.6261,51.9607)"
            ) from None
        return cls(lon, lat, metres_per_mm)

    def place(self, geom: BaseGeometry) -> BaseGeometry:
        """``geom`` (board mm, y down) in longitude/latitude degrees."""
        deg_per_m_lat = 180.0 / (math.pi * EARTH_RADIUS_M)
        deg_per_m_lon = deg_per_m_lat / math.cos(math.radians(self.lat))
        s = self.metres_per_mm

        def lonlat(xy: Any) -> Any:
            out = xy.copy()
            out[:, 0] = self.lon + xy[:, 0] * s * deg_per_m_lon
            out[:, 1] = self.lat - xy[:, 1] * s * deg_per_m_lat
            return out

        return shapely.transform(geom, lonlat)

    def to_json(self) -> dict[str, Any]:
        return {
            "coordinates": "wgs84",
            "origin": [self.lon, self.lat],
            "metres_per_mm": self.metres_per_mm,
        }


BOARD_MM = {"coordinates": "board-mm", "units": "mm", "y": "down"}


def rfc7946_winding(geom: BaseGeometry) -> BaseGeometry:
    """``geom`` with counter-clockwise exteriors and clockwise holes (other kinds as is)."""
    return wound(geom)[0]


def wound(geom: BaseGeometry) -> tuple[BaseGeometry, list[int]]:
    """:func:`rfc7946_winding` of ``geom`` and the rings it reversed, numbered in the
    order GeoJSON lists them (a multipolygon's parts one after the other)."""
    if isinstance(geom, Polygon):
        parts = [geom]
    elif isinstance(geom, MultiPolygon):
        parts = list(geom.geoms)
    else:
        return geom, []
    out, flipped, n = [], [], 0
    for part in parts:
        rings = [part.exterior, *part.interiors]
        for i, ring in enumerate(rings):
            if ring.is_ccw != (i == 0):  # exteriors counter-clockwise, holes clockwise
                flipped.append(n)
            n += 1
        out.append(orient(part, sign=1.0))
    return (out[0] if isinstance(geom, Polygon) else MultiPolygon(out)), flipped


def _json_type(v: Any) -> str | None:
    if v is None:
        return None
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, int | float):
        return "number"
    if isinstance(v, str):
        return "string"
    return "json"


def mixed_columns(all_props: Iterable[Mapping[str, Any]]) -> frozenset[str]:
    """The property names whose values are of more than one JSON type across the
    features (a Ringgeister ``heading`` is ``"N"`` on one point and ``90`` on
    another): strict readers (OGR, fiona) give a column one type and refuse others."""
    seen: dict[str, set[str]] = {}
    for props in all_props:
        for k, v in props.items():
            t = _json_type(v)
            if t is not None:
                seen.setdefault(k, set()).add(t)
    return frozenset(k for k, ts in seen.items() if len(ts) > 1)


def one_type_per_column(
    props: Mapping[str, Any], mixed: frozenset[str]
) -> tuple[dict[str, Any], list[str]]:
    """``props`` with every value of a mixed column written as text (a number ``90``
    as ``"90"``, a list as its JSON), and the names of those written from a non-text
    value, which the export lists in ``boardwright.json`` so an import reads them back."""
    out = dict(props)
    as_text = []
    for k in sorted(mixed & props.keys()):
        v = props[k]
        if v is not None and not isinstance(v, str):
            out[k] = json.dumps(v, separators=(",", ":"))
            as_text.append(k)
    return out, as_text


def to_geojson(compiled: CompiledBoard, *, geo: GeoPlacement | None = None) -> dict[str, Any]:
    """Every feature with its properties, as a FeatureCollection.

    Parameters
    ----------
    compiled : CompiledBoard
    geo : GeoPlacement, optional
        Lay the board on the Earth (longitude/latitude); by default the coordinates
        are board millimetres, y down (see the module's notes).
    """
    feats = []
    mixed = mixed_columns(f.props for _, f in compiled.features.values())
    for nid, (owner, f) in compiled.features.items():
        geom = geo.place(f.geometry) if geo is not None else f.geometry
        geom, flipped = wound(geom)
        props, as_text = one_type_per_column(f.props, mixed)
        feat: dict[str, Any] = {
            "type": "Feature",
            "id": nid,
            "geometry": geometry_to_json(geom),
            "properties": {"id": nid, "kind": f.kind, "tile": owner, **props},
        }
        extra: dict[str, Any] = {}
        if flipped:
            extra["reversed"] = flipped
        if as_text:
            extra["json"] = as_text
        if extra:
            feat["boardwright"] = extra
        feats.append(feat)
    return {
        "type": "FeatureCollection",
        "name": compiled.board.name,
        "boardwright": geo.to_json() if geo is not None else dict(BOARD_MM),
        "boardwright_board": board_block(compiled),
        "features": feats,
    }
