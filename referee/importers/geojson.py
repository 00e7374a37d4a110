"""GeoJSON (RFC 7946, and Boardwright's board-millimetre convention) as a board.

- Polygons become ``space`` features, lines ``path`` features, points ``point``
  features — unless the feature's ``kind`` property names another kind (``river``,
  ``road``, ``bridge``, ``river_dot``, ``art`` …). Multi-part geometries become one
  feature per part (``id.1``, ``id.2`` …), except for ``art``, which takes them whole.
- Properties are kept, through the vocabulary (:mod:`.props`); ``id`` (or the
  feature's own ``id``) names the feature, ``kind`` and ``tile`` are Boardwright's.
- Coordinates: a collection that says ``"boardwright": {"coordinates": "board-mm"}``
  (Boardwright's export) is in board millimetres, y down; one that says
  ``"wgs84"`` with an ``origin`` and ``metres_per_mm`` is laid back from the Earth
  the way the export laid it there (exactly, :func:`.exact.recover`); any other
  collection is RFC 7946 longitude/latitude: the data's north-west corner becomes
  the board's origin, north up, ``--geo-metres-per-mm`` metres of ground per mm
  (default: the longer side becomes 1000 mm). Coordinates that cannot be
  longitude/latitude are plain units (``--mm-per-unit`` mm each, y up, the top-left
  corner at the origin).
- A Boardwright export carries its tile assets, placements and settings in
  ``boardwright_board`` (:mod:`referee.export.carry`); features that belong to a
  tile come from there, and rings the export reversed for RFC 7946's winding
  (``"boardwright": {"reversed": [...]}`` on a feature) are turned back.

Notes
-----
Linear in the features and vertices; coordinates are converted in one vectorized pass.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import shapely
from shapely.geometry import MultiPolygon, Polygon
from shapely.geometry.base import BaseGeometry

from ..export.geojson import EARTH_RADIUS_M
from ..model import FEATURE_KINDS, MAX_FEATURES, Board
from ..safeio import loads_json
from ..vocabulary import plugins
from .build import Builder, block_order, read_block, unreferenced_images
from .exact import recover
from .result import ImportRefused, ImportResult, Losses, Problems
from .settings import ImportSettings, Progress
from .sources import read_input

#: the side the data's longer extent gets when no scale is given (mm)
FIT_MM = 1000.0
_KIND_OF = {
    "Polygon": "space",
    "MultiPolygon": "space",
    "LineString": "path",
    "MultiLineString": "path",
    "Point": "point",
    "MultiPoint": "point",
}


def read_geojson(
    path: Path, settings: ImportSettings, progress: Progress | None = None
) -> ImportResult:
    """Read a GeoJSON file (see the module's notes)."""
    where = str(path)
    problems, losses = Problems(where), Losses()
    data = loads_json(read_input(path), where, error=ImportRefused)
    if not isinstance(data, dict):
        raise ImportRefused("not GeoJSON (not a JSON object)", location=where)
    t = data.get("type")
    if t == "FeatureCollection":
        feats = data.get("features")
        if not isinstance(feats, list):
            raise ImportRefused("a FeatureCollection needs a features list", location=where)
    elif t == "Feature":
        feats = [data]
    elif t in _KIND_OF:
        feats = [{"type": "Feature", "geometry": data, "properties": {}}]
    else:
        raise ImportRefused(f"not GeoJSON (type {t!r})", location=where)
    if len(feats) > MAX_FEATURES:
        raise ImportRefused(
            f"{len(feats)} features is more than a board holds ({MAX_FEATURES})",
            code="too_large",
            location=where,
        )
    base = None
    if data.get("boardwright_board") is not None:
        base = read_block(data["boardwright_board"], problems)
    placements = {p.id for p in base.placements} if base is not None else set()
    taken = placements | ({f.id for f in base.features} if base is not None else set())
    builder = Builder(problems, losses, taken)
    builder.order = block_order(data.get("boardwright_board"))

    # -- the geometries, in the file's coordinates
    rows: list[tuple[str, BaseGeometry, dict[str, Any], Any, str]] = []
    for i, feat in enumerate(feats):
        w = f"features[{i}]"
        if not isinstance(feat, dict) or feat.get("type") != "Feature":
            problems.add(w, "not a GeoJSON Feature")
            continue
        props = feat.get("properties") or {}
        if not isinstance(props, dict):
            problems.add(w, "properties must be an object")
            continue
        props = dict(props)
        fid = feat.get("id", props.get("id"))
        props.pop("id", None)
        w = f"features[{i}] (id {fid!r})" if fid is not None else w
        owner = props.pop("tile", None)
        if isinstance(owner, str) and owner in placements:
            continue  # its tile's features come from the carried tile assets
        kind = props.pop("kind", None)
        gj = feat.get("geometry")
        if gj is None:
            losses.add("nogeom", "features without geometry: left out")
            continue
        try:
            geom = shapely.geometry.shape(gj)
        except Exception as exc:  # shapely raises several types on malformed coordinates
            problems.add(w, f"malformed geometry ({type(exc).__name__}: {str(exc)[:80]})")
            continue
        if geom.geom_type not in _KIND_OF:
            problems.add(w, f"a {geom.geom_type} is not read (points, lines and polygons are)")
            continue
        extra: dict[str, Any] = (
            feat["boardwright"] if isinstance(feat.get("boardwright"), dict) else {}
        )
        rev = extra.get("reversed")
        for k in extra.get("json") or ():
            # a value the export wrote as text to keep its column one type
            if isinstance(k, str) and isinstance(props.get(k), str):
                try:
                    props[k] = json.loads(props[k])
                except ValueError:
                    problems.add(w, f"property {k!r} is listed in boardwright.json but is not JSON")
        if rev:
            geom = _unreverse(geom, rev)
        if kind not in FEATURE_KINDS:
            if kind is not None:
                props["kind_"] = kind
            kind = _KIND_OF[geom.geom_type]
        rows.append((str(kind), geom, props, fid, w))
        if progress is not None and i % 1000 == 0:
            progress(i, len(feats))
    problems.check()

    # -- onto the board
    geoms = np.array([r[1] for r in rows], dtype=object)
    if len(geoms):
        coords = shapely.get_coordinates(geoms)
        if not np.isfinite(coords).all():
            raise ImportRefused("a coordinate is NaN or infinite", location=where)
        to_board = _placement(data.get("boardwright"), coords, settings, losses, where)
        geoms = shapely.set_coordinates(geoms.copy(), to_board(coords))
    for (kind, _, props, fid, w), geom in zip(rows, geoms):
        parts = [geom]
        if geom.geom_type.startswith("Multi") and FEATURE_KINDS[kind] != "Any":
            parts = list(geom.geoms)
            losses.add("multi", "multi-part features: one feature per part (id.1, id.2 …)")
        for n, part in enumerate(parts, start=1):
            pid = fid if len(parts) == 1 else f"{fid if fid is not None else 'f'}.{n}"
            builder.feature(kind, part, props, w, pid, "f")
    meta: dict[str, Any] = {}
    if base is None:
        name = data.get("name")
        meta["name"] = name if isinstance(name, str) else Path(path).name.split(".")[0]
        if builder.features:
            _x0, _y0, x1, y1 = shapely.GeometryCollection(
                [f.geometry for f in builder.features]
            ).bounds
            meta["width"], meta["height"] = max(1.0, x1), max(1.0, y1)
    if settings.rules is not None:
        meta["rules"] = settings.rules
    rules = meta.get("rules", base.meta.get("rules") if base is not None else None)
    if isinstance(rules, str) and rules not in plugins():
        problems.add("", f"unknown rules {rules!r} (installed: {', '.join(plugins())})")
    board = builder.board(base if base is not None else Board(), meta)
    unreferenced_images(board, losses)
    return ImportResult(board, "geojson", where, losses.lines())


def _unreverse(geom: BaseGeometry, rings: Any) -> BaseGeometry:
    """``geom`` with the rings numbered in ``rings`` reversed back."""
    flip = {r for r in rings if isinstance(r, int)} if isinstance(rings, list) else set()
    parts = list(geom.geoms) if isinstance(geom, MultiPolygon) else [geom]
    if not all(isinstance(p, Polygon) for p in parts):
        return geom
    out, n = [], 0
    for part in parts:
        rs = []
        for ring in [part.exterior, *part.interiors]:
            c = list(ring.coords)
            rs.append(c[::-1] if n in flip else c)
            n += 1
        out.append(Polygon(rs[0], rs[1:]))
    return MultiPolygon(out) if isinstance(geom, MultiPolygon) else out[0]


def _placement(
    header: Any, coords: np.ndarray, settings: ImportSettings, losses: Losses, where: str
) -> Any:
    """The function taking the file's coordinates (an (n, 2) array) to board mm."""
    h = header if isinstance(header, dict) else {}
    mode = h.get("coordinates")
    if mode == "board-mm":
        return lambda xy: xy
    xmin, ymin = coords.min(axis=0)
    xmax, ymax = coords.max(axis=0)
    lonlat = xmin >= -180.0 and xmax <= 180.0 and ymin > -90.0 and ymax < 90.0
    if mode == "wgs84":
        origin = h.get("origin")
        s = h.get("metres_per_mm")
        ok = (
            isinstance(origin, list)
            and len(origin) == 2
            and all(isinstance(v, (int, float)) and math.isfinite(v) for v in origin)
            and isinstance(s, (int, float))
            and math.isfinite(s)
            and s > 0
        )
        if not ok or not isinstance(origin, list) or not isinstance(s, (int, float)):
            raise ImportRefused(
                'a "wgs84" collection needs "origin": [lon, lat] and a positive "metres_per_mm"',
                location=where,
            )
        lon0, lat0, scale = float(origin[0]), float(origin[1]), float(s)
    elif lonlat:
        lon0, lat0 = float(xmin), float(ymax)
        scale = settings.metres_per_mm or 0.0
        if not scale:
            dlat = 180.0 / (math.pi * EARTH_RADIUS_M)
            extent = max(
                (xmax - xmin) / (dlat / math.cos(math.radians(lat0))), (ymax - ymin) / dlat
            )
            scale = max(extent, 1e-9) / FIT_MM
    else:
        k = settings.mm_per_unit
        losses.add(
            "planar", "coordinates that are not longitude/latitude: read as plain units, y up"
        )
        return lambda xy: np.column_stack(((xy[:, 0] - xmin) * k, (ymax - xy[:, 1]) * k))
    if not (-90.0 < lat0 < 90.0):
        raise ImportRefused(f"origin latitude {lat0} is not within (-90, 90)", location=where)
    dlat = 180.0 / (math.pi * EARTH_RADIUS_M)
    dlon = dlat / math.cos(math.radians(lat0))

    def to_board(xy: np.ndarray) -> np.ndarray:
        lon, lat = xy[:, 0], xy[:, 1]
        ax = (lon - lon0) / dlon / scale
        ay = (lat0 - lat) / dlat / scale
        # GeoPlacement.place: lon0 + x * s * dlon, lat0 - y * s * dlat; undone exactly
        x = recover(ax, lon, lambda c, i: lon0 + c * scale * dlon)
        y = recover(ay, lat, lambda c, i: lat0 - c * scale * dlat)
        return np.column_stack((x, y))

    return to_board
